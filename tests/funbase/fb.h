/*
 * tests/funbase/fb.h -- shared by the funbase model cases.
 *
 * Every case runs on the sim backend with platforms/funbase.yaml plus its
 * overrides (fb_run), core 0 = nios0, core 1 = nios1, core 2 = pc. Expected
 * values are derived from the platform's parameters (fb_num), never written
 * down: a case checks the model's physics, not a number.
 *
 * A measurement that needs several platforms (clock scaling) runs each in
 * a child process (one simulation per process) and reads its results from
 * a shared page (fb_run_child).
 */
#ifndef IPCSIM_TESTS_FB_H
#define IPCSIM_TESTS_FB_H

#include "harness.h"
#include "ipcsim/plat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FB_NIOS0 0
#define FB_NIOS1 1
#define FB_PC 2
/* Agents on the segment: 2 PE DMAs, the MEM DMA, the PCIe bridge, then one
 * per device of the file (accelerators). */
#define FB_AGENTS fb_agents()
int fb_agents(void);

/* platforms/funbase.yaml with the "path=value" overrides (NULL-terminated). */
struct conf *fb_platform(const char *const *sets);
/* Run entry on every core of funbase + sets (sim backend); fails the test
 * with the run's message. */
void fb_run(const char *const *sets, void (*entry)(void *), void *arg);
/* The same in a child process; false if it failed (its message on stderr). */
bool fb_run_child(const char *const *sets, void (*entry)(void *), void *arg);
#define FB_SETS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Inside a run: a number of the run's platform file (the test fails if it is missing). */
double fb_num(const char *path);
const char *fb_str(const char *path);
/* Cycles of the segment clock (clock_mhz) in ns, and ns in cycles. */
double fb_cycle_ns(void);
double fb_cycles(uint64_t ns);
/* HIBI words of n bytes at the platform's width. */
uint64_t fb_words(uint64_t bytes);
/* Sleep until the absolute simulated time t_ns (which must lie ahead). */
void fb_until(uint64_t t_ns);
/* What HPD_SEND costs the Nios, in cycles: dma_setup + 2 reads + 5 writes. */
double fb_send_cycles(void);

/* Register the cases of one file under suite "funbase". */
void fb_add(const char *name, const TTest *test);
void fb_register_hibi(void);
void fb_register_hpd(void);
void fb_register_mem(void);
void fb_register_pcie(void);
void fb_register_mcapi(void);
void fb_register_roundtrip(void);
void fb_register_reach(void);

#endif
