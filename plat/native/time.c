/*
 * time.c -- clock, sleep and work charging (native).
 *
 * Natively time is the host's CLOCK_MONOTONIC and work is real: the cost
 * table and plat_work_cycles exist only so the sim can charge computation.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <errno.h>
#include <time.h>

uint64_t nat_now_ns(void)
{
    return nat_now();
}

void nat_sleep_ns(uint64_t ns)
{
    if (ns == 0) return;
    uint64_t deadline = nat_deadline(ns);
    struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000u),
                          .tv_nsec = (long)(deadline % 1000000000u)};
    /* Absolute, so a signal does not stretch the sleep. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) continue;
}

uint64_t nat_cost(const char *name)
{
    (void)name;
    return 0;
}

void nat_work_cycles(uint64_t cycles)
{
    (void)cycles;
}
