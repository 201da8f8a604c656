/*
 * em_progs.c -- the em examples (em/examples/) as scenario workloads: apps
 * em_hello, em_ordered and em_event_group.
 *
 * Each example is its unchanged source compiled a second time with
 * apps/mpi_lite/mpisim.h forced in (its output goes to the core's capture)
 * and two names changed (the Makefile's em programs block): main becomes
 * emsim_main_<prog>, and launch, the native start-up that starts a thread
 * per core, becomes emsim_launch below, the simulated form: every core of
 * the platform is an EM core (but the last with sched_core: 1, which runs
 * launch_sched, the scheduler core) and runs launch_core (em/examples/launch.c, the
 * per-core part both forms share) itself, core 0 first.
 *
 * On every core the app calls the program's main and then:
 *   - a nonzero return fails the run, naming the program, the core and the
 *     first line it wrote to stderr;
 *   - the core that printed the program's "<prog>: ok: N ..." line reports
 *     the program's count (its first number: receives, events in order,
 *     rounds joined), x = the cores, and cores_used, the cores its
 *     " core C: M" counts show with M > 0 (hello prints none);
 *   - core 0 reports elapsed_us, main's simulated time;
 *   - each core's text is printed on ipcsim's stdout when its main returns,
 *     as one block whose lines start "[em_<prog> core C] ".
 */
#include "../apps.h"
#include "../mpi_lite/capture.h"
#include "../../em/examples/launch.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int prog_main(int argc, char **argv);

int emsim_launch(int argc, char **argv, const struct launch_prog *prog);

/* The run's sched_core argument reaches emsim_launch (called from the
 * program's main) through a named region every core writes the same value
 * to before main. */
#define SCHED_REGION "emsim_sched"

static uint64_t *sched_word(void)
{
    int st = 0;
    return plat_shared_map(SCHED_REGION, sizeof(uint64_t), NULL, &st);
}

/* 1 with a scheduler core (the last platform core), else 0. */
static int sched_core(void)
{
    uint64_t *w = sched_word();
    if (!w) return 0;
    int v = plat_load64(w) != 0;
    plat_shared_unmap(w);
    return v;
}

int emsim_launch(int argc, char **argv, const struct launch_prog *prog)
{
    (void)argc;
    (void)argv;
    int sc = sched_core();
    struct launch_conf conf = {.cores = plat_cores() - sc, .sched_core = sc != 0};
    if (sc && plat_core() == plat_cores() - 1) return launch_sched(&conf);
    return launch_core(prog, &conf, plat_core() == 0);
}

/* The EM cores of the run, as the x of its points. */
static void em_cores_x(char *x, size_t len)
{
    snprintf(x, len, "%d", plat_cores() - sched_core());
}

/* The "<prog>: ok: " line's first number, and the cores its "core C: M"
 * pairs show busy. */
static void points(struct app_ctx *ctx, const char *prog, const char *series, const char *text)
{
    char head[64];
    snprintf(head, sizeof head, "%s: ok: ", prog);
    const char *p = text ? strstr(text, head) : NULL;
    if (!p) return;
    p += strlen(head);
    const char *end = strchr(p, '\n');
    if (!end) end = p + strlen(p);
    char x[16];
    em_cores_x(x, sizeof x);
    app_report(ctx, series, x, strtod(p, NULL), "");
    int used = 0, pairs = 0;
    for (const char *c = strstr(p, " core "); c && c < end; c = strstr(c + 1, " core ")) {
        int core;
        unsigned long long n;
        if (sscanf(c, " core %d: %llu", &core, &n) == 2) {
            pairs++;
            used += n > 0;
        }
    }
    if (pairs) app_report(ctx, "cores_used", x, used, "cores");
}

/* Print text as one block, every line tagged. */
static void show(FILE *f, const char *prog, const struct mpisim_text *t)
{
    if (!t->len) return;
    char tag[64];
    snprintf(tag, sizeof tag, "[em_%s core %d] ", prog, plat_core());
    for (const char *p = t->buf; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "%s%.*s\n", tag, (int)len, p);
        p += len + (p[len] == '\n');
    }
    if (t->lost) fprintf(f, "%s(out of memory: some output was lost)\n", tag);
    fflush(f);
}

static void run_prog(struct app_ctx *ctx, const char *prog, const char *series, prog_main *m)
{
    char name[32];
    snprintf(name, sizeof name, "%s", prog);
    char *argv[] = {name, NULL};
    uint64_t *w = sched_word();
    if (!w) {
        app_fail(ctx, "em %s: core %d: plat_shared_map(\"%s\") failed", prog, plat_core(),
                 SCHED_REGION);
        return;
    }
    plat_store64(w, (uint64_t)app_int(ctx, "sched_core"));
    struct mpisim_capture cap = {0};
    mpisim_capture_begin(&cap);
    uint64_t t0 = plat_now_ns();
    int rc = m(1, argv);
    uint64_t t1 = plat_now_ns();
    mpisim_capture_end();
    plat_shared_unmap(w);
    if (rc != 0) {
        char why[256] = "";
        const struct mpisim_text *t = cap.err.len ? &cap.err : &cap.out;
        if (t->len) snprintf(why, sizeof why, ": %.*s", (int)strcspn(t->buf, "\n"), t->buf);
        app_fail(ctx, "em %s: core %d: main returned %d%s", prog, plat_core(), rc, why);
    } else {
        points(ctx, prog, series, cap.out.buf);
        if (plat_core() == 0) {
            char x[16];
            em_cores_x(x, sizeof x);
            app_report(ctx, "elapsed_us", x, (double)(t1 - t0) / 1e3, "us");
        }
    }
    show(stdout, prog, &cap.out);
    show(stderr, prog, &cap.err);
    mpisim_capture_free(&cap);
}

static const char *const roles[] = {"core0", NULL};
static const struct app_arg args[] = {
    {.name = "sched_core",
     .type = APP_INT,
     .dflt = "0",
     .help = "1: a scheduler core of its own (EM_IPCSIM_SCHED_CORE), the last platform core; "
             "the others are the EM cores",
     .min = 0,
     .max = 1},
    APP_ARGS_END};

#define EM_PROG(prog, series_, what)                                                               \
    int emsim_main_##prog(int argc, char **argv);                                                  \
    static const char *const prog##_series[] = {series_, "cores_used", "elapsed_us", NULL};        \
    static void run_##prog(struct app_ctx *ctx)                                                    \
    {                                                                                              \
        run_prog(ctx, #prog, series_, emsim_main_##prog);                                          \
    }                                                                                              \
    const struct app app_em_##prog = {                                                             \
        .name = "em_" #prog,                                                                       \
        .summary = what " (every core an EM core, or all but a scheduler core)",                   \
        .roles = roles,                                                                            \
        .args = args,                                                                              \
        .series = prog##_series,                                                                   \
        .run = run_##prog,                                                                         \
    };

EM_PROG(hello, "receives", "em/examples/hello.c: two EOs ping-pong one event")
EM_PROG(ordered, "in_order", "em/examples/ordered.c: parallel-ordered into atomic, order checked")
EM_PROG(event_group, "joined_rounds", "em/examples/event_group.c: fork-join by an event group")
