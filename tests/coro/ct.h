/*
 * tests/coro/ct.h -- shared by the coro test cases.
 *
 * Every case runs on the ideal platform, natively and in simulation. Core 0
 * is the scheduler: it creates the runtime "t" over cores 1..n-1 (ct_run),
 * the other cores run its executors.
 */
#ifndef IPCSIM_TESTS_CT_H
#define IPCSIM_TESTS_CT_H

#include "coro.h"
#include "harness.h"
#include "ipcsim/plat.h"

#include <stdbool.h>

/* On every core: core 0 creates the runtime (no_cas per executor, may be
 * NULL), calls sched(rt, arg) and frees the runtime; the others run their
 * executor. */
void ct_run(void (*sched)(coro_rt *rt, void *arg), void *arg, const bool *no_cas);

void ct_rt_cases(void);
void ct_chan_cases(void);
void ct_reg_cases(void);

#endif
