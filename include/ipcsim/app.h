/*
 * ipcsim/app.h -- workloads the runner can start from a scenario.
 *
 * An app is written only against public APIs (an IPC library, or plat.h for
 * a bare baseline) plus this header, which gives it its scenario arguments,
 * the mapping of its roles to cores, and a place to report measurements.
 * The same app code runs on both backends.
 *
 * The runner calls app->run on every core of the platform. A core whose index
 * is not mapped to any role should return at once (app_role gives NULL).
 */
#ifndef IPCSIM_APP_H
#define IPCSIM_APP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct app_ctx;

enum app_arg_type { APP_INT, APP_NUM, APP_STR, APP_INT_LIST, APP_NUM_LIST };

/* An argument and its rule. The runner checks every value against the rule
 * before the run (FILE:LINE of the value, the value and the range), so an
 * app reads only values inside it:
 *   numbers (APP_INT, APP_NUM): min <= value <= max;
 *   lists (APP_INT_LIST, APP_NUM_LIST): every element within min..max, and
 *     1 to max_len elements (0: APP_LIST_MAX);
 *   APP_STR: no rule (min, max and max_len are 0).
 * The upper bounds keep a typo (reps: 1000000000) from becoming a run of
 * days: they say what the app is meant for, not what the hardware allows. */
struct app_arg {
    const char *name;
    enum app_arg_type type;
    const char *dflt; /* YAML text of the default ("100", "[4, 8]"); NULL: required */
    const char *help;
    double min, max;
    unsigned max_len;
};
#define APP_LIST_MAX 64

/* The end of an app's argument table. */
#define APP_ARGS_END                                                                               \
    {                                                                                              \
        NULL, APP_INT, NULL, NULL, 0, 0, 0                                                         \
    }

struct app {
    const char *name;
    const char *summary;
    const char *const *roles;   /* role names a scenario maps to cores; NULL-terminated */
    const struct app_arg *args; /* terminated by APP_ARGS_END */
    /* Every series the app may report (NULL-terminated), so that a plot
     * naming another (and no reference's) is refused when the scenario is
     * loaded, not after the run. NULL: the app does not say. */
    const char *const *series;
    void (*run)(struct app_ctx *ctx);
};

/* Mapping: the core a role runs on (-1 if unmapped), and the calling core's role. */
int app_core_of(struct app_ctx *ctx, const char *role);
const char *app_role(struct app_ctx *ctx);

/* Arguments, validated by the runner against app->args before the run. */
long app_int(struct app_ctx *ctx, const char *name);
double app_num(struct app_ctx *ctx, const char *name);
const char *app_str(struct app_ctx *ctx, const char *name);
size_t app_list_len(struct app_ctx *ctx, const char *name);
double app_list_num(struct app_ctx *ctx, const char *name, size_t i);

/* One measured point: series name, x (as text: "4", "message", "1x1"),
 * value and unit. Thread-safe; points keep the order they were reported in. */
void app_report(struct app_ctx *ctx, const char *series, const char *x, double value,
                const char *unit);

/* One interval of a run chart (docs/scenarios.md, "Run charts"): the calling
 * core says that row `row` (a core, 0 .. plat_cores()-1) of chart `chart`
 * was in state `mark` from t0_ns to t1_ns (plat_now_ns() values: simulated
 * time in sim, host time natively). Em's dispatch chart marks '-' while a
 * receive function runs and '#' in the dispatcher. After the run the runner
 * writes DIR/<stem>.<chart>.txt and .png from the intervals.
 *   chart: 1 to 32 letters, digits, '_' or '-' (it names files); at most
 *          APP_CHART_MAX charts in a run;
 *   mark:  a printable character other than ' ' and '|';
 *   t1_ns >= t0_ns (an empty interval is dropped).
 * An interval that starts where the same core's last one of that chart, row
 * and mark ends extends it. Each core keeps at most APP_INTERVAL_MAX
 * intervals; the first one past that, or the first bad argument, fails the
 * run (app_fail-style, naming the chart and the value) and the core's later
 * calls are ignored. No lock: each core writes only its own buffer. */
#define APP_INTERVAL_MAX 65536
#define APP_CHART_MAX 8
void app_interval(struct app_ctx *ctx, const char *chart, int row, char mark, uint64_t t0_ns,
                  uint64_t t1_ns);

/* The workload found something wrong (a corrupted echo, ...): the run fails
 * with this message after all cores stop. Returns normally. */
void app_fail(struct app_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The apps this build knows, NULL-terminated (apps/apps.c). */
extern const struct app *const app_table[];
const struct app *app_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
