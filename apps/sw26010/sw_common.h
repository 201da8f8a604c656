/*
 * apps/sw26010/sw_common.h -- what the SW26010 apps (paper 004) share.
 *
 * A core group (CG) is an "mpe" core followed by its "cpe" cores (the
 * platform file's order, docs/sw26010.md). Every CG runs the same
 * experiment at once: its MPE is the scheduler of a coroutine runtime whose
 * executors are the CG's CPEs, and reports its results to CG 0's MPE,
 * which reports the mean over the CGs.
 */
#ifndef IPCSIM_APPS_SW_COMMON_H
#define IPCSIM_APPS_SW_COMMON_H

#include "../apps.h"
#include "coro.h"

#include <stdint.h>

#define SW_MAX_CPES 64
/* The rule of the apps' `messages`: a tenth of APPS_REPS_MAX, as each
 * message is sent by up to 64 producers (sw_channels.yaml at 100,000
 * messages: ~2.5 min of host time). */
#define SW_MESSAGES_MAX 100000
#define SW_MAX_CGS 8
#define SW_MAX_RESULTS 128

/* The calling core's CG. */
struct sw_cg {
    int index;            /* 0 .. cgs-1 */
    int cgs;              /* core groups in the run */
    int mpe;              /* its MPE's core */
    int ncpe;             /* its CPEs (on the mesh), in core order */
    int cpe[SW_MAX_CPES]; /* their cores */
    int row[SW_MAX_CPES], col[SW_MAX_CPES];
    int rows, cols; /* the mesh */
    coro_rt *rt;    /* MPE only: the CG's runtime */
    void *board;    /* MPE only: where results go (sw_publish) */
};

/* Find the caller's CG; 0, or -1 after app_fail (not a SW26010-like
 * platform: no "mpe" core before it, no mesh "mesh"). */
int sw_cg_find(struct app_ctx *ctx, struct sw_cg *cg);

/* On every core of the CG: the MPE creates the runtime and runs
 * mpe(ctx, cg), then frees it; each CPE runs its executor. */
void sw_cg_run(struct app_ctx *ctx, void (*mpe)(struct app_ctx *, struct sw_cg *));

/* The executor index of the CPE at (row, col), -1 if none. */
int sw_exec_at(const struct sw_cg *cg, int row, int col);

/* A start line for n contenders (threads or coroutines, n <= 64): each
 * counts in and waits for the MPE's go; at the end each notes its time.
 * The MPE's sw_race_run returns the time from go to the last end. */
struct sw_race {
    uint64_t ready, go, done;
    uint64_t go_ns, end_ns[SW_MAX_CPES];
};
void sw_race_enter(struct sw_race *r);
void sw_race_finish(struct sw_race *r, int i);
uint64_t sw_race_run(struct sw_race *r, int n);

/* Results: each CG's MPE publishes value i (i < SW_MAX_RESULTS) and then
 * calls sw_finished; CG 0's MPE then reports value i as series at x with
 * the mean over the CGs. */
void sw_publish(const struct sw_cg *cg, int i, double value);
void sw_finished(const struct sw_cg *cg);
void sw_report(struct app_ctx *ctx, const struct sw_cg *cg, int i, const char *series,
               const char *x, const char *unit);

#endif
