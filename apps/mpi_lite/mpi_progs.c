/*
 * mpi_progs.c -- MPI programs as scenario workloads: one app per program
 * (mpi_osu_latency, .., mpi_hello, mpi_ring, mpi_pi, mpi_hpl), so that a program
 * this build does not have is refused as an unknown app when the scenario
 * is loaded.
 *
 * Each program is its unchanged source (mpi_lite/osu/, mpi_lite/examples/)
 * compiled a second time with mpisim.h forced in and its main renamed
 * mpisim_main_<prog> (the Makefile's mpi programs block). Every core of the
 * platform is a rank (mpi_lite's MPI_COMM_WORLD is all plat_cores(), rank r
 * on core r): the one role, rank0, must be core 0, and a scenario chooses
 * the rank count with `cores`. On every core the app splits the argument
 * `args` into argv (argv[0] the program's name), captures the rank's stdout
 * and stderr, and calls main. Then:
 *
 *   - a nonzero return fails the run, naming the program, the rank, the
 *     status and the first line the rank wrote to stderr;
 *   - rank 0's output is read as OSU's: the "# Size" header line names the
 *     columns, every row of numbers after it is one point per column
 *     (x = the first column, the series from the column's title: "Latency
 *     (us)" is latency_us, "Bandwidth (MB/s)" bandwidth_MBps, "Avg
 *     Latency(us)" avg_latency_us; the unit from its parentheses; a
 *     column without a unit, as -f's Iterations, is no series);
 *   - HPL's result lines (apps/hpl/hpl.c) are the points gflops, time_s
 *     and residual, x = N; and scaling_gflops, speedup and efficiency_pct
 *     (charged mode: against its one-rank time), x = the ranks;
 *   - rank 0 reports elapsed_us, x = the number of ranks: main's time on
 *     rank 0 (MPI_Init to MPI_Finalize included; simulated time in
 *     simulation);
 *   - each rank's text is printed on ipcsim's stdout (stderr's on its
 *     stderr) when its main returns, as one block whose lines start
 *     "[prog rank R] ", so ranks never interleave.
 */
#include "../apps.h"
#include "capture.h"

#include "ipcsim/plat.h"
#include "mpi_lite.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int prog_main(int argc, char **argv);

#define ARGV_MAX 64
#define COLS_MAX 8

/* The columns of OSU's "# Size" header: series names and units. */
struct columns {
    int n;
    char series[COLS_MAX][48];
    char unit[COLS_MAX][16];
};

/* "Latency (us)" -> latency_us, us; "Bandwidth (MB/s)" -> bandwidth_MBps,
 * MB/s; "Iterations" -> iterations, no unit. */
static void column(struct columns *c, const char *title, size_t len)
{
    if (c->n == COLS_MAX) return;
    char *s = c->series[c->n], *u = c->unit[c->n];
    size_t si = 0, ui = 0;
    int in_unit = 0, gap = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)title[i];
        if (ch == '(') {
            in_unit = 1;
            gap = si > 0;
        } else if (ch == ')') {
            in_unit = 0;
        } else if (in_unit && ui + 1 < sizeof c->unit[0]) {
            u[ui++] = (char)ch;
        } else if (!in_unit && isalnum(ch)) {
            if (gap && si + 1 < sizeof c->series[0]) s[si++] = '_';
            gap = 0;
            if (si + 1 < sizeof c->series[0]) s[si++] = (char)tolower(ch);
        } else if (!in_unit) {
            gap = si > 0;
        }
    }
    if (ui) {
        if (si + 1 < sizeof c->series[0]) s[si++] = '_';
        for (size_t i = 0; i < ui && si + 1 < sizeof c->series[0]; i++)
            if (u[i] != ' ') s[si++] = u[i] == '/' ? 'p' : u[i];
    }
    s[si] = '\0';
    u[ui] = '\0';
    /* A column without a unit (-f's Iterations) is a count, not a
     * measurement: kept in the text, no series. */
    if (!ui) s[0] = '\0';
    c->n++;
}

/* The header after "# Size": titles separated by two or more spaces. */
static void header(struct columns *c, const char *p, const char *end)
{
    c->n = 0;
    while (p < end) {
        while (p < end && *p == ' ') p++;
        const char *q = p;
        while (q < end && !(q[0] == ' ' && (q + 1 == end || q[1] == ' '))) q++;
        if (q > p) column(c, p, (size_t)(q - p));
        p = q;
    }
}

/* The next word of *p (split in place at spaces, tabs, newlines), NULL at
 * the end. */
static char *word(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n') s++;
    if (!*s) return NULL;
    char *e = s;
    while (*e && *e != ' ' && *e != '\t' && *e != '\n') e++;
    *p = *e ? e + 1 : e;
    *e = '\0';
    return s;
}

/* A row "x v1 v2 ..": one point per column; other lines are text. */
static void row(struct app_ctx *ctx, const struct columns *c, const char *p, const char *end)
{
    char line[512];
    size_t n = (size_t)(end - p) < sizeof line - 1 ? (size_t)(end - p) : sizeof line - 1;
    memcpy(line, p, n);
    line[n] = '\0';
    char *rest = line, *x = word(&rest);
    double v[COLS_MAX];
    int k = 0;
    for (char *t = word(&rest); t; t = word(&rest)) {
        char *e;
        double d = strtod(t, &e);
        if (*e || k == COLS_MAX) return; /* not a row of numbers */
        v[k++] = d;
    }
    char *e;
    (void)strtod(x, &e);
    if (*e || k == 0 || k > c->n) return;
    for (int i = 0; i < k; i++)
        if (c->series[i][0]) app_report(ctx, c->series[i], x, v[i], c->unit[i]);
}

/* What HPL's lines said so far (points() reads them in order). */
struct hpl_seen {
    char n[32]; /* N, the x of gflops, time_s and residual ("" before the WR line) */
    int q;      /* ranks */
    double t;   /* the run's time, s */
};

/* HPL's lines (apps/hpl/hpl.c): "WR.. N NB P Q Time Gflops" gives gflops,
 * "HPL_pdgesv() time T s" time_s, "||Ax-b||_oo/(..)=  R ......" residual,
 * x = N; charged mode's "T1 (one rank, charged): T1 s" gives speedup
 * T1 / T and efficiency_pct 100 T1 / (Q T), with gflops again as
 * scaling_gflops, x = Q (the ranks: runs on 1..Q boards make one curve). */
static void hpl_line(struct app_ctx *ctx, const char *p, struct hpl_seen *h)
{
    int nn, nb, pp, q;
    double t, g;
    char x[32];
    if (strncmp(p, "WR", 2) == 0 &&
        sscanf(p, "%*s %d %d %d %d %lf %lf", &nn, &nb, &pp, &q, &t, &g) == 6) {
        snprintf(h->n, sizeof h->n, "%d", nn);
        h->q = q;
        app_report(ctx, "gflops", h->n, g, "Gflop/s");
        snprintf(x, sizeof x, "%d", q);
        app_report(ctx, "scaling_gflops", x, g, "Gflop/s");
    } else if (h->n[0] && sscanf(p, "HPL_pdgesv() time %lf s", &t) == 1) {
        h->t = t;
        app_report(ctx, "time_s", h->n, t, "s");
    } else if (h->n[0] && h->t > 0 && sscanf(p, "T1 (one rank, charged): %lf s", &t) == 1) {
        snprintf(x, sizeof x, "%d", h->q);
        app_report(ctx, "speedup", x, t / h->t, "");
        app_report(ctx, "efficiency_pct", x, 100 * t / (h->q * h->t), "%");
    } else if (h->n[0] && strncmp(p, "||Ax-b||_oo", 11) == 0 && strchr(p, '=') &&
               sscanf(strchr(p, '=') + 1, "%lf", &t) == 1) {
        app_report(ctx, "residual", h->n, t, "");
    }
}

static void points(struct app_ctx *ctx, const char *text)
{
    struct columns c = {0};
    struct hpl_seen hpl = {"", 0, 0};
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        if (!end) end = p + strlen(p);
        hpl_line(ctx, p, &hpl);
        if (strncmp(p, "# Size", 6) == 0)
            header(&c, p + 6, end);
        else if (c.n && isdigit((unsigned char)*p))
            row(ctx, &c, p, end);
        p = *end ? end + 1 : end;
    }
}

/* Print text as one block, every line tagged "[prog rank R] ". */
static void show(FILE *f, const char *prog, int rank, const struct mpisim_text *t)
{
    if (!t->len) return;
    char tag[96];
    int tl = snprintf(tag, sizeof tag, "[%s rank %d] ", prog, rank);
    size_t lines = 1;
    for (size_t i = 0; i < t->len; i++) lines += t->buf[i] == '\n';
    size_t cap = t->len + lines * (size_t)tl + 2;
    char *b = malloc(cap);
    if (!b) {
        fprintf(f, "%s(out of memory: %zu bytes of output not shown)\n", tag, t->len);
        return;
    }
    size_t n = 0;
    for (const char *p = t->buf; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        memcpy(b + n, tag, (size_t)tl);
        n += (size_t)tl;
        memcpy(b + n, p, len);
        n += len;
        b[n++] = '\n';
        p += len + (e != NULL);
    }
    fwrite(b, 1, n, f);
    fflush(f);
    free(b);
    if (t->lost) fprintf(f, "%s(out of memory: some output was lost)\n", tag);
}

/* The first line of text, at most cap - 1 bytes. */
static void first_line(char *out, size_t cap, const struct mpisim_text *t)
{
    out[0] = '\0';
    if (!t->len) return;
    size_t n = strcspn(t->buf, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, t->buf, n);
    out[n] = '\0';
}

static void run_prog(struct app_ctx *ctx, const char *prog, prog_main *m)
{
    int rank = plat_core(), root = app_core_of(ctx, "rank0");
    if (root != 0) {
        if (rank == 0)
            app_fail(ctx,
                     "%s: rank0 is mapped to core %d: rank r is core r (every core is a rank),"
                     " so rank0 must be core 0",
                     prog, root);
        return;
    }
    const char *args = app_str(ctx, "args");
    char *copy = malloc(strlen(args) + 1);
    if (!copy) {
        app_fail(ctx, "%s: rank %d: out of memory for its arguments", prog, rank);
        return;
    }
    strcpy(copy, args);
    char name[64];
    snprintf(name, sizeof name, "%s", prog);
    char *argv[ARGV_MAX + 2] = {name};
    int argc = 1;
    char *rest = copy;
    for (char *t = word(&rest); t; t = word(&rest)) {
        if (argc > ARGV_MAX) {
            if (rank == 0) app_fail(ctx, "%s: args has more than %d words", prog, ARGV_MAX);
            free(copy);
            return;
        }
        argv[argc++] = t;
    }
    argv[argc] = NULL;

    /* The transport's placement, set before the program's MPI_Init. */
    static const char *const inters[] = {"auto", "dma", "stream"};
    const char *inter = app_str(ctx, "inter");
    unsigned ik = 0;
    while (ik < 3 && strcmp(inter, inters[ik]) != 0) ik++;
    if (ik == 3) {
        if (rank == 0) app_fail(ctx, "%s: inter '%s' is none of auto, dma, stream", prog, inter);
        free(copy);
        return;
    }
    struct mpix_lite_params par = {.node_ranks = (unsigned)app_int(ctx, "node_ranks"), .inter = ik};
    MPIX_Lite_set_params(&par);

    struct mpisim_capture cap = {0};
    mpisim_capture_begin(&cap);
    uint64_t t0 = plat_now_ns();
    int rc = m(argc, argv);
    uint64_t t1 = plat_now_ns();
    mpisim_capture_end();
    free(copy);

    if (rc != 0) {
        char why[256];
        first_line(why, sizeof why, &cap.err);
        app_fail(ctx, "%s: rank %d: main returned %d%s%s", prog, rank, rc, why[0] ? ": " : "", why);
    }
    if (rank == 0 && rc == 0) {
        points(ctx, cap.out.buf);
        char x[32];
        snprintf(x, sizeof x, "%d", plat_cores());
        app_report(ctx, "elapsed_us", x, (double)(t1 - t0) / 1e3, "us");
    }
    show(stdout, prog, rank, &cap.out);
    show(stderr, prog, rank, &cap.err);
    mpisim_capture_free(&cap);
}

static const char *const roles[] = {"rank0", NULL};

static const struct app_arg args[] = {
    {"args", APP_STR, "''", "the program's arguments, one string split at spaces (\"-m 1:4096\")",
     0, 0, 0},
    {"node_ranks", APP_INT, "0",
     "ranks per node (rank / node_ranks is its node); 0: one node (mpi_lite's node_ranks)", 0, 4096,
     0},
    {"inter", APP_STR, "auto",
     "between nodes: auto or dma (the DMA engine into the receiver's pair buffer), stream (the "
     "platform's stream device: MPI over Ethernet)",
     0, 0, 0},
    APP_ARGS_END,
};

static const char *const latency_series[] = {"latency_us", "elapsed_us", NULL};
static const char *const bw_series[] = {"bandwidth_MBps", "elapsed_us", NULL};
static const char *const coll_series[] = {"avg_latency_us", "min_latency_us", "max_latency_us",
                                          "elapsed_us", NULL};
static const char *const plain_series[] = {"elapsed_us", NULL};
static const char *const hpl_series[] = {"gflops",         "time_s",  "residual",
                                         "scaling_gflops", "speedup", "efficiency_pct",
                                         "elapsed_us",     NULL};

/* One app per program: its renamed main and the run that calls it. */
#define MPI_PROG(prog, series_, what)                                                              \
    int mpisim_main_##prog(int argc, char **argv);                                                 \
    static void run_##prog(struct app_ctx *ctx)                                                    \
    {                                                                                              \
        run_prog(ctx, #prog, mpisim_main_##prog);                                                  \
    }                                                                                              \
    const struct app app_mpi_##prog = {                                                            \
        .name = "mpi_" #prog,                                                                      \
        .summary = what " (every core a rank)",                                                    \
        .roles = roles,                                                                            \
        .args = args,                                                                              \
        .series = series_,                                                                         \
        .run = run_##prog,                                                                         \
    };

MPI_PROG(osu_latency, latency_series, "mpi_lite/osu/osu_latency.c: point-to-point latency")
MPI_PROG(osu_bw, bw_series, "mpi_lite/osu/osu_bw.c: point-to-point bandwidth")
MPI_PROG(osu_bibw, bw_series, "mpi_lite/osu/osu_bibw.c: bidirectional bandwidth")
MPI_PROG(osu_bcast, coll_series, "mpi_lite/osu/osu_bcast.c: MPI_Bcast latency")
MPI_PROG(osu_gather, coll_series, "mpi_lite/osu/osu_gather.c: MPI_Gather latency")
MPI_PROG(hello, plain_series, "mpi_lite/examples/hello.c: every rank prints its rank")
MPI_PROG(ring, plain_series, "mpi_lite/examples/ring.c: a token around the ring, checked")
MPI_PROG(pi, plain_series, "mpi_lite/examples/pi.c: pi by Bcast and Reduce, checked")
MPI_PROG(hpl, hpl_series, "apps/hpl/hpl.c: HPL-style LU, HPL's output and residual check")
