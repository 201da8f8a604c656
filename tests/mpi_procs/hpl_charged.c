/* hpl_charged.c -- apps/hpl/hpl.c's charged mode (-C charged): in
 * simulation its time is the cycles docs/mpi_lite.md's counts give at the
 * platform's core.costs.hpl_* (computed here from those formulas, not from
 * the program), it holds no matrix, and without its costs (natively, a 0, a
 * platform without the keys) it is refused naming the key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"

/* What one rank is charged, as docs/mpi_lite.md counts it: flops at the
 * BLAS-3 rate (trsm, update), flops at the BLAS-2 rate (panel, back
 * substitution), bytes of row swaps and copies. */
struct tally {
    double gemm, panel, bytes;
};

struct costs {
    double gemm_kflop, panel_kflop, copy_kB;
};

#define RANKS_MAX 4
#define CLOCK_HZ 1e9 /* ideal's core.clock_mhz */

static int owner(int j, int nb, int q)
{
    return (j / nb) % q;
}

/* Rank r's columns of [A | b] (N + 1 of them) from global column j on. */
static int cols_from(int j, int n, int nb, int q, int r)
{
    int k = 0;
    for (int c = j; c <= n; c++) k += owner(c, nb, q) == r;
    return k;
}

static double cycles(const struct tally *t, const struct costs *c)
{
    return t->gemm * c->gemm_kflop / 1000 + t->panel * c->panel_kflop / 1000 +
           t->bytes * c->copy_kB / 1024;
}

/* Every rank's tally for N, NB on Q ranks; *sync the cycles of the schedule
 * where every panel waits for the slowest rank's update before it (no
 * overlap at all: the program's own schedule is never slower, but for its
 * messages). */
static void expect(int n, int nb, int q, const struct costs *c, struct tally *t, double *sync)
{
    memset(t, 0, (size_t)q * sizeof *t);
    *sync = 0;
    for (int k0 = 0; k0 < n; k0 += nb) {
        int jb = n - k0 < nb ? n - k0 : nb, m = n - k0, root = owner(k0, nb, q);
        struct tally p = {0};
        for (int i = 0; i < jb; i++) p.panel += 1 + (m - i - 1) * (1.0 + 2.0 * (jb - i - 1));
        p.bytes = 16.0 * jb * jb + 8.0 * m * jb;
        t[root].panel += p.panel;
        t[root].bytes += p.bytes;
        double slowest = 0;
        for (int r = 0; r < q; r++) {
            double nc = cols_from(k0 + jb, n, nb, q, r);
            struct tally u = {(double)jb * (jb - 1) * nc + 2.0 * (m - jb) * jb * nc, 0,
                              16.0 * jb * nc};
            t[r].gemm += u.gemm;
            t[r].bytes += u.bytes;
            slowest = fmax(slowest, cycles(&u, c));
        }
        *sync += cycles(&p, c) + slowest;
    }
    t[owner(n, nb, q)].bytes += 8.0 * n;
    for (int k0 = (n - 1) / nb * nb; k0 >= 0; k0 -= nb) {
        int jb = n - k0 < nb ? n - k0 : nb;
        t[owner(k0, nb, q)].panel += jb + (double)jb * jb + 2.0 * k0 * jb;
        for (int r = 0; r < q; r++) t[r].bytes += 8.0 * jb;
    }
}

/* A copy of platforms/ideal.yaml with the three costs (0) after
 * mpi_record, for --set to change (--set only changes keys a file has),
 * and scenarios/mpi_lite/hpl.yaml on it; the scenario's path. */
static const char *charged_scenario(void)
{
    FILE *f = fopen("platforms/ideal.yaml", "r");
    ck_assert_msg(f, "platforms/ideal.yaml: cannot open");
    static char text[16384], plat[16384 + 256];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    const char *at = strstr(text, "\n    mpi_record:");
    ck_assert_msg(at, "platforms/ideal.yaml: no core.costs.mpi_record line");
    at = strchr(at + 1, '\n') + 1;
    snprintf(plat, sizeof plat,
             "%.*s    hpl_gemm_kflop: 0\n    hpl_panel_kflop: 0\n"
             "    hpl_copy_kB: 0\n%s",
             (int)(at - text), text, at);
    scratch_file("ideal_hpl.yaml", plat);
    return scratch_file("hplc.yaml", "title: hpl charged\n"
                                     "platform: ideal_hpl.yaml\n"
                                     "mapping:\n"
                                     "  rank0: 0\n"
                                     "workload:\n"
                                     "  app: mpi_hpl\n");
}

/* The scenario on q cores with hpl's args and the costs (NULL: the file's
 * zeros) as --set. */
static struct result charged_run(const char *scenario, int q, const char *args,
                                 const struct costs *c)
{
    static char ipcsim[512], sets[5][128], out[512];
    snprintf(ipcsim, sizeof ipcsim, "%s/ipcsim", hpl_build_dir());
    snprintf(sets[0], sizeof sets[0], "cores=%d", q);
    snprintf(sets[1], sizeof sets[1], "args.args=%s", args);
    snprintf(sets[2], sizeof sets[2], "core.costs.hpl_gemm_kflop=%.0f", c ? c->gemm_kflop : 0);
    snprintf(sets[3], sizeof sets[3], "core.costs.hpl_panel_kflop=%.0f", c ? c->panel_kflop : 0);
    snprintf(sets[4], sizeof sets[4], "core.costs.hpl_copy_kB=%.0f", c ? c->copy_kB : 0);
    snprintf(out, sizeof out, "%.*s/out", (int)(strrchr(scenario, '/') - scenario), scenario);
    const char *argv[] = {ipcsim,  "run",   scenario, "--set", sets[0], "--set", sets[1], "--set",
                          sets[2], "--set", sets[3],  "--set", sets[4], "--out", out,     NULL};
    return run(argv, NULL, NULL);
}

/* HPL_pdgesv()'s time line: the simulated seconds. */
static double sim_secs(const struct result *r)
{
    const char *p = strstr(r->out, "HPL_pdgesv() time ");
    ck_assert_msg(p, "no time line in:\n%s\n%s", r->out, r->err);
    double t = -1;
    ck_assert_int_eq(sscanf(p, "HPL_pdgesv() time %lf s", &t), 1);
    return t;
}

/* Charged mode's one-rank time line (T1): the seconds. */
static double t1_secs(const struct result *r)
{
    const char *p = strstr(r->out, "T1 (one rank, charged): ");
    ck_assert_msg(p, "no T1 line in:\n%s\n%s", r->out, r->err);
    double t = -1;
    ck_assert_int_eq(sscanf(p, "T1 (one rank, charged): %lf s", &t), 1);
    return t;
}

/* The value of ipcsim's table row "series  x  value" (the first). */
static double table_value(const struct result *r, const char *series, const char *x)
{
    char key[96];
    snprintf(key, sizeof key, "\n%s ", series);
    for (const char *p = strstr(r->out, key); p; p = strstr(p + 1, key)) {
        char sx[32];
        double v;
        if (sscanf(p + strlen(key), "%31s %lf", sx, &v) == 2 && strcmp(sx, x) == 0) return v;
    }
    ck_assert_msg(0, "no %s at x %s in:\n%s", series, x, r->out);
    return 0;
}

/* 1 rank: no messages, so the time is the charged cycles alone. Once with
 * the rates of a BLAS-3 core, once with copies dearest (so the bytes show).
 * The counts add up to HPL's 2/3 N^3 + 3/2 N^2 (+ 5/6 N). */
START_TEST(hpl_charged_one)
{
    const char *sc = charged_scenario();
    const struct costs cs[] = {{625, 2000, 1024}, {1, 1, 1048576}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        struct result r = charged_run(sc, 1, "-n 2000 -b 64 -C charged", &cs[i]);
        ck_assert_msg(r.code == 0, "exit %d\n%s\n%s", r.code, r.out, r.err);
        HAS(r.out, "[hpl rank 0] WR00L2L2        2000    64     1     1 ");
        HAS(r.out, "[hpl rank 0] Residual not checked (charged compute");
        ck_assert_msg(!strstr(r.out, "||Ax-b||"), "a residual line:\n%s", r.out);
        /* ipcsim's table: the time, no residual point from that line. */
        HAS(r.out, "\ntime_s ");
        ck_assert_msg(!strstr(r.out, "\nresidual "), "a residual point:\n%s", r.out);
        struct tally t;
        double sync;
        expect(2000, 64, 1, &cs[i], &t, &sync);
        double n = 2000, want = cycles(&t, &cs[i]) / CLOCK_HZ, got = sim_secs(&r);
        ck_assert_double_eq(t.gemm + t.panel, (4 * n * n * n + 9 * n * n + 5 * n) / 6);
        printf("hpl -C charged: N 2000 NB 64, 1 rank, costs %.0f/%.0f/%.0f: %.6f s simulated, "
               "%.6f s expected (%+.4f %%), %.2f s host\n",
               cs[i].gemm_kflop, cs[i].panel_kflop, cs[i].copy_kB, got, want,
               100 * (got - want) / want, r.secs);
        ck_assert_msg(fabs(got - want) <= 0.01 * want, "%.6f s, expected %.6f s", got, want);
        ck_assert_msg(r.secs < 10, "took %.1f s of host time", r.secs);
        /* T1, hpl's own sum of the charges, is this run's time; so the
         * efficiency against it is 100 %. */
        double t1 = t1_secs(&r);
        ck_assert_msg(fabs(t1 - got) <= 1e-6 * got, "T1 %.9f s, the run took %.9f s", t1, got);
        ck_assert_msg(fabs(table_value(&r, "efficiency_pct", "1") - 100) < 1e-3, "%s", r.out);
    }
    /* The control: real mode on the same scenario makes a residual point. */
    struct result r = charged_run(sc, 1, "-n 100 -b 16", NULL);
    ck_assert_msg(r.code == 0, "exit %d\n%s", r.code, r.err);
    HAS(r.out, "\nresidual ");
}
END_TEST

/* 2 ranks: no faster than the busier rank's cycles, no slower than the
 * fully serialised schedule plus the panels' bytes at 3 ns each (ideal's
 * link moves one a ns); the same bytes out twice. */
START_TEST(hpl_charged_two)
{
    const char *sc = charged_scenario();
    const struct costs c = {625, 2000, 1024};
    struct result r = charged_run(sc, 2, "-n 2000 -b 64 -C charged", &c);
    ck_assert_msg(r.code == 0, "exit %d\n%s\n%s", r.code, r.out, r.err);
    HAS(r.out, "[hpl rank 0] WR00L2L2        2000    64     1     2 ");
    struct tally t[RANKS_MAX];
    double sync, busiest = 0, panel_bytes = 0;
    expect(2000, 64, 2, &c, t, &sync);
    for (int k = 0; k < 2; k++) busiest = fmax(busiest, cycles(&t[k], &c) / CLOCK_HZ);
    for (int k0 = 0; k0 < 2000; k0 += 64) panel_bytes += 8.0 * (2000 - k0) * 64;
    double got = sim_secs(&r), hi = sync / CLOCK_HZ + 3e-9 * panel_bytes;
    printf("hpl -C charged: N 2000 NB 64, 2 ranks: %.6f s simulated, in [%.6f, %.6f] s, "
           "%.2f s host\n",
           got, busiest, hi, r.secs);
    ck_assert_msg(got >= busiest && got <= hi, "%.6f s not in [%.6f, %.6f]", got, busiest, hi);
    ck_assert_msg(r.secs < 10, "took %.1f s of host time", r.secs);
    /* T1 is the one-rank schedule's cycles, the efficiency T1 / (2 T). */
    struct tally one[RANKS_MAX];
    double sync1;
    expect(2000, 64, 1, &c, one, &sync1);
    double t1 = t1_secs(&r), want1 = cycles(&one[0], &c) / CLOCK_HZ;
    ck_assert_msg(fabs(t1 - want1) <= 0.01 * want1, "T1 %.6f s, one rank's cycles %.6f s", t1,
                  want1);
    double eff = table_value(&r, "efficiency_pct", "2");
    ck_assert_msg(fabs(eff - 100 * t1 / (2 * got)) < 1e-3 * eff, "efficiency %.4f, T1 / 2T = %.4f",
                  eff, 100 * t1 / (2 * got));
    struct result again = charged_run(sc, 2, "-n 2000 -b 64 -C charged", &c);
    ck_assert_str_eq(again.out, r.out);
}
END_TEST

/* No N x N matrix: N 50000 (20 GB of matrix) on 1 rank runs, charged; real
 * mode refuses N above 20000. */
START_TEST(hpl_charged_no_matrix)
{
    const char *sc = charged_scenario();
    const struct costs c = {625, 2000, 1024};
    struct result r = charged_run(sc, 1, "-n 50000 -b 64 -C charged", &c);
    ck_assert_msg(r.code == 0, "exit %d\n%s\n%s", r.code, r.out, r.err);
    HAS(r.out, "[hpl rank 0] WR00L2L2       50000    64     1     1 ");
    ck_assert_msg(r.secs < 10, "took %.1f s of host time", r.secs);
    const char *argv[] = {hpl_program(), "-n", "30000", NULL};
    struct result u = run(argv, NULL, NULL);
    ck_assert_int_eq(u.code, 2);
    HAS(u.err, "hpl: -n 30000: real mode holds the N x N matrix: at most 20000 (-C charged: "
               "100000)\n");
}
END_TEST

/* Without its costs charged mode runs nowhere, and says which key. */
START_TEST(hpl_charged_refused)
{
    /* Natively every plat_cost is 0: one line, from rank 0. */
    const char *argv[] = {mpirun_path(), "-n", "2",       hpl_program(), "-n",
                          "200",         "-C", "charged", NULL};
    struct result r = run(argv, NULL, NULL);
    ck_assert_msg(r.code == 2, "exit %d\n%s\n%s", r.code, r.out, r.err);
    HAS(r.err, "hpl: -C charged: core.costs.hpl_gemm_kflop is 0 on rank 0: charged mode needs "
               "the platform's cycles per 1000 flops (natively every cost is 0: charged mode "
               "is for simulation)\n");
    const char *second = strstr(r.err, "-C charged:");
    ck_assert_msg(!strstr(second + 1, "-C charged:"), "two lines:\n%s", r.err);
    ck_assert_msg(!strstr(r.out, "WR00L2L2"), "ran:\n%s", r.out);
    /* In simulation: a 0 (the file's) names the first key at 0. */
    const char *sc = charged_scenario();
    const struct costs panel0 = {625, 0, 1024}, copy0 = {625, 2000, 0};
    struct result s = charged_run(sc, 2, "-n 200 -b 32 -C charged", &panel0);
    ck_assert_msg(s.code != 0, "exit 0\n%s", s.out);
    HAS(s.err, "hpl: rank 0: main returned 2: hpl: -C charged: core.costs.hpl_panel_kflop is 0 "
               "on rank 0: charged mode needs the platform's cycles per 1000 flops");
    s = charged_run(sc, 1, "-n 200 -b 32 -C charged", &copy0);
    ck_assert_msg(s.code != 0, "exit 0\n%s", s.out);
    HAS(s.err, "core.costs.hpl_copy_kB is 0 on rank 0: charged mode needs the platform's "
               "cycles per KiB");
    /* A platform without the keys (ideal): plat_cost stops the run. */
    char ipcsim[512], out[512];
    snprintf(ipcsim, sizeof ipcsim, "%s/ipcsim", hpl_build_dir());
    snprintf(out, sizeof out, "%.*s/plain", (int)(strrchr(sc, '/') - sc), sc);
    const char *plain[] = {ipcsim,    "run",   "scenarios/mpi_lite/hpl.yaml",       "--set",
                           "cores=2", "--set", "args.args=-n 200 -b 32 -C charged", "--out",
                           out,       NULL};
    s = run(plain, NULL, NULL);
    ck_assert_msg(s.code != 0, "exit 0\n%s", s.out);
    HAS(s.err, "plat_cost: platforms/ideal.yaml has no core.costs.hpl_gemm_kflop");
    /* And a mode that is neither. */
    const char *bad[] = {hpl_program(), "-C", "fast", NULL};
    r = run(bad, NULL, NULL);
    ck_assert_int_eq(r.code, 2);
    HAS(r.err, "hpl: -C fast: must be real or charged\n");
}
END_TEST

void procs_hpl_charged_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "hpl_charged");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, hpl_charged_one);
    tcase_add_test(tc, hpl_charged_two);
    tcase_add_test(tc, hpl_charged_no_matrix);
    tcase_add_test(tc, hpl_charged_refused);
}
