/* sw_common.c -- core groups, start lines and results of the SW26010 apps. */
#include "sw_common.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <string.h>

#define WAIT_NS 600000000000ull /* 10 min of (simulated) time: a hang fails */

/* The named region where MPEs leave their results for CG 0's. */
struct board {
    uint64_t finished;
    double value[SW_MAX_CGS][SW_MAX_RESULTS];
};

static bool is_mpe(int core)
{
    return strcmp(plat_core_type(core), "mpe") == 0;
}

int sw_cg_find(struct app_ctx *ctx, struct sw_cg *cg)
{
    memset(cg, 0, sizeof *cg);
    cg->index = -1;
    int me = plat_core(), n = plat_cores();
    if (coro_reg_open("mesh") != CORO_OK) {
        app_fail(ctx, "sw26010 apps need a register mesh device called 'mesh'");
        return -1;
    }
    for (int c = 0; c < n; c++) {
        if (!is_mpe(c)) continue;
        if (c <= me) {
            cg->index = cg->cgs;
            cg->mpe = c;
        }
        cg->cgs++;
    }
    for (int c = cg->mpe + 1; cg->index >= 0 && c < n && !is_mpe(c); c++) {
        int r, col;
        if (coro_reg_pos_of(c, &r, &col) != CORO_OK || cg->ncpe == SW_MAX_CPES) continue;
        cg->cpe[cg->ncpe] = c;
        cg->row[cg->ncpe] = r;
        cg->col[cg->ncpe] = col;
        cg->ncpe++;
        if (r + 1 > cg->rows) cg->rows = r + 1;
        if (col + 1 > cg->cols) cg->cols = col + 1;
    }
    if (cg->index < 0 || cg->ncpe == 0 || cg->cgs > SW_MAX_CGS) {
        /* The runner names the core: the same words from every core are one line. */
        app_fail(ctx, "in no core group (an 'mpe' core, then its mesh cores)");
        return -1;
    }
    return 0;
}

void sw_cg_run(struct app_ctx *ctx, void (*mpe)(struct app_ctx *, struct sw_cg *))
{
    struct sw_cg cg;
    if (sw_cg_find(ctx, &cg)) return;
    char name[16];
    snprintf(name, sizeof name, "cg%d", cg.index);
    int me = plat_core();
    if (me != cg.mpe) {
        int st = coro_exec_run(name);
        if (st != CORO_OK) app_fail(ctx, "executor: %s", coro_strerror(st));
        return;
    }
    cg.rt = coro_rt_new(name, cg.cpe, cg.ncpe, NULL);
    cg.board = plat_shared_map("sw:results", sizeof(struct board), NULL, NULL);
    if (!cg.rt || !cg.board) {
        app_fail(ctx, "cannot create the runtime %s", name);
        if (cg.rt) coro_rt_free(cg.rt);
        return;
    }
    mpe(ctx, &cg);
    coro_rt_free(cg.rt);
    plat_shared_unmap(cg.board);
}

int sw_exec_at(const struct sw_cg *cg, int row, int col)
{
    for (int i = 0; i < cg->ncpe; i++)
        if (cg->row[i] == row && cg->col[i] == col) return i;
    return -1;
}

/* ---- start lines --------------------------------------------------------------- */

void sw_race_enter(struct sw_race *r)
{
    plat_fetch_add64(&r->ready, 1);
    while (!plat_load64(&r->go)) plat_poll64(&r->go, 0, WAIT_NS);
}

void sw_race_finish(struct sw_race *r, int i)
{
    plat_store64(&r->end_ns[i], plat_now_ns());
    plat_fetch_add64(&r->done, 1);
}

uint64_t sw_race_run(struct sw_race *r, int n)
{
    uint64_t v;
    while ((v = plat_load64(&r->ready)) < (uint64_t)n) plat_poll64(&r->ready, v, WAIT_NS);
    r->go_ns = plat_now_ns();
    plat_store64(&r->go, 1);
    while ((v = plat_load64(&r->done)) < (uint64_t)n) plat_poll64(&r->done, v, WAIT_NS);
    uint64_t last = r->go_ns;
    for (int i = 0; i < n; i++)
        if (r->end_ns[i] > last) last = r->end_ns[i];
    return last - r->go_ns;
}

/* ---- results ------------------------------------------------------------------- */

void sw_publish(const struct sw_cg *cg, int i, double value)
{
    struct board *b = cg->board;
    if (i >= 0 && i < SW_MAX_RESULTS) b->value[cg->index][i] = value;
}

void sw_finished(const struct sw_cg *cg)
{
    struct board *b = cg->board;
    plat_fetch_add64(&b->finished, 1);
    if (cg->index != 0) return;
    uint64_t v;
    while ((v = plat_load64(&b->finished)) < (uint64_t)cg->cgs)
        plat_poll64(&b->finished, v, WAIT_NS);
}

void sw_report(struct app_ctx *ctx, const struct sw_cg *cg, int i, const char *series,
               const char *x, const char *unit)
{
    if (cg->index != 0 || i < 0 || i >= SW_MAX_RESULTS) return;
    const struct board *b = cg->board;
    double sum = 0;
    for (int g = 0; g < cg->cgs; g++) sum += b->value[g][i];
    app_report(ctx, series, x, sum / cg->cgs, unit);
}
