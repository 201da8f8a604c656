/*
 * tests/plat/pt.h -- shared by the platform-interface conformance cases.
 *
 * Every file of this folder holds the cases of one topic of plat.h and a
 * pt_<topic>() that registers them (harness_add_cases "plat"); register.c
 * calls them all. Each case runs natively and in simulation from this one
 * source; where plat.h lets the backends differ (timing, completion of a
 * DMA) the case asks pt_sim().
 */
#ifndef IPCSIM_TESTS_PT_H
#define IPCSIM_TESTS_PT_H

#include "harness.h"
#include "ipcsim/plat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_MS 1000000ull /* ns */
#define PT_US 1000ull
/* Host slack for "at once" and "about" natively (sanitizers, a busy host). */
#define PT_NATIVE_SLACK_NS (2000 * PT_MS)
#define PT_ALL_CAPS                                                                                \
    (PLAT_CAP_CAS | PLAT_CAP_FETCH_ADD | PLAT_CAP_LOCAL_MEM | PLAT_CAP_DMA | PLAT_CAP_THREADS)

static inline const struct harness_env *pt_env(const void *arg)
{
    return arg;
}
static inline bool pt_sim(const void *arg)
{
    return pt_env(arg)->backend == PLAT_SIM;
}

/* A number of the run's platform file; fails the test if it is absent. */
double pt_num(const void *arg, const char *path);

/* A text of the run's platform file; fails the test if it is absent. */
const char *pt_str(const void *arg, const char *path);

/* Pointers through the board. */
static inline uint64_t pt_u(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}
static inline void *pt_p(uint64_t v)
{
    return (void *)(uintptr_t)v;
}

/* A byte pattern that differs per seed and offset; pt_bad gives the first
 * offset that does not match, or n. */
void pt_fill(void *p, size_t n, unsigned seed);
size_t pt_bad(const void *p, size_t n, unsigned seed);

/* A TCP port for this test process: natively each test is its own process,
 * so ports derived from the pid do not clash between tests. */
int pt_port(int k);

void pt_identity(void);
void pt_time(void);
void pt_threads(void);
void pt_sync(void);
void pt_atomics(void);
void pt_memory(void);
void pt_dma(void);
void pt_dma_push(void);
void pt_rx(void);
void pt_timing(void);
void pt_hwq(void);
void pt_mesh(void);
void pt_accel(void);
void pt_stream(void);
void pt_misuse(void);
void pt_gbe(void);
void pt_sw26010(void);
void pt_srio(void);
void pt_wake(void);
void pt_home(void);
void pt_touch(void);
void pt_keystone(void);
void pt_robust(void);

/* Cases of stream.c that gbe.c also runs on the tcp device. */
void case_stream_tcp(void *arg);
void case_stream_pair(void *arg);
void case_poller(void *arg);

#endif
