/*
 * chart_demo.c -- a run chart of known intervals (app_interval), for the
 * tests and as the smallest example of the call.
 *
 * Each mapped core k (role a: 0, b: 1) records `reps` times a receive of
 * 300 us marked `mark` then 100 us of dispatcher ('#'), from t = k * 100 us.
 * The times are made up, not plat_now_ns(), so that the chart is the same
 * on both backends; an app measuring itself passes plat_now_ns() values.
 * `charts` > 1 records them on more charts (to try APP_CHART_MAX).
 * Reports the dispatcher's share of the recorded time (series
 * dispatcher_pct), which the chart's footer must show too.
 */
#include "../apps.h"

#include "ipcsim/plat.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RECEIVE_NS 300000u
#define DISPATCH_NS 100000u

static void run(struct app_ctx *ctx)
{
    const char *role = app_role(ctx);
    if (!role) return;
    uint64_t t = strcmp(role, "a") == 0 ? 0 : DISPATCH_NS;
    long reps = app_int(ctx, "reps");
    const char *chart = app_str(ctx, "chart"), *mark = app_str(ctx, "mark");
    int row = plat_core() + (int)app_int(ctx, "row_offset");
    long charts = app_int(ctx, "charts");
    for (long i = 0; i < reps; i++, t += RECEIVE_NS + DISPATCH_NS)
        for (long c = 1; c <= charts; c++) {
            char name[64];
            snprintf(name, sizeof name, c == 1 ? "%s" : "%s%ld", chart, c);
            app_interval(ctx, name, row, mark[0], t, t + RECEIVE_NS);
            app_interval(ctx, name, row, '#', t + RECEIVE_NS, t + RECEIVE_NS + DISPATCH_NS);
        }
    if (strcmp(role, "a") == 0)
        app_report(ctx, "dispatcher_pct", "all", 100.0 * DISPATCH_NS / (RECEIVE_NS + DISPATCH_NS),
                   "%");
}

static const char *const roles[] = {"a", "b", NULL};

static const struct app_arg args[] = {
    {"reps", APP_INT, "2", "receive + dispatcher pairs per core", 1, 100000, 0},
    {"chart", APP_STR, "run", "the chart's name (names its files)", 0, 0, 0},
    {"mark", APP_STR, "\"-\"", "the receive's mark (its first character)", 0, 0, 0},
    {"charts", APP_INT, "1", "the same intervals on this many charts (<chart>, <chart>2, ...)", 1,
     APP_CHART_MAX + 1, 0},
    {"row_offset", APP_INT, "0", "row = core + row_offset (to try a row that is no core)", -4, 4,
     0},
    APP_ARGS_END,
};

static const char *const series[] = {"dispatcher_pct", NULL};

const struct app app_chart_demo = {
    .name = "chart_demo",
    .summary = "a run chart of known intervals (app_interval), for the tests",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
