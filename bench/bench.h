/*
 * bench.h -- helpers shared by the native benchmarks (header only: static
 * inline functions, so a benchmark stays one source file and one Makefile
 * rule).
 *
 * Define BENCH_NAME ("bench/mcapi") before including it: messages to stderr
 * start with it. Needs _GNU_SOURCE (pthread_setaffinity_np, CPU_SET), defined
 * before the first system header.
 */
#ifndef IPCSIM_BENCH_H
#define IPCSIM_BENCH_H

#ifndef BENCH_NAME
#error "define BENCH_NAME before including bench.h"
#endif

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_ROUNDS 64

/* The benchmarks take no arguments: --help (-h) prints usage and what is
 * measured (what: lines ending in a newline) and exits 0; anything else is
 * an error, exit status 2. */
static inline void bench_args(int argc, char **argv, const char *what)
{
    if (argc < 2) return;
    int help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
    if (!help) fprintf(stderr, BENCH_NAME ": unknown argument '%s' (it takes none)\n", argv[1]);
    fprintf(help ? stdout : stderr, "usage: %s\n%sCSV metric,value,unit on stdout.\n", argv[0],
            what);
    exit(help ? 0 : 2);
}

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One step of a busy-wait. */
static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Pin the calling thread to one CPU (a warning if the system refuses). */
static inline void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
        fprintf(stderr, BENCH_NAME ": could not pin a thread to CPU %d\n", cpu);
}

/* The first two CPUs this process may run on (the same one twice if only
 * one: the numbers are then meaningless, and we say so). */
static inline void pick_cpus(int cpu[2])
{
    cpu_set_t set;
    cpu[0] = cpu[1] = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return;
    int found = 0;
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
        if (CPU_ISSET(c, &set)) cpu[found++] = c;
    if (found < 2) {
        cpu[1] = cpu[0];
        fprintf(stderr, BENCH_NAME ": only one CPU: both sides share it\n");
    }
}

static inline int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median (the upper one for an even n), min and max of v[0..n-1]. */
static inline double median_of(const double *v, int n, double *lo, double *hi)
{
    double s[BENCH_MAX_ROUNDS];
    if (n <= 0 || n > BENCH_MAX_ROUNDS) {
        fprintf(stderr, BENCH_NAME ": %d rounds (1 .. %d)\n", n, BENCH_MAX_ROUNDS);
        exit(EXIT_FAILURE);
    }
    memcpy(s, v, sizeof s[0] * (size_t)n);
    qsort(s, (size_t)n, sizeof s[0], bench_cmp);
    *lo = s[0];
    *hi = s[n - 1];
    return s[n / 2];
}

/* metric<med_suffix>, metric_min and metric_max of v[0..n-1] as CSV lines
 * `metric,value,unit`, values printed with fmt; returns the median. */
static inline double print_stats(const char *metric, const char *med_suffix, const double *v, int n,
                                 const char *unit, const char *fmt)
{
    double lo, hi, med = median_of(v, n, &lo, &hi);
    const char *suffix[3] = {med_suffix, "_min", "_max"};
    const double val[3] = {med, lo, hi};
    for (int i = 0; i < 3; i++) {
        printf("%s%s,", metric, suffix[i]);
        printf(fmt, val[i]);
        printf(",%s\n", unit);
    }
    return med;
}

#endif
