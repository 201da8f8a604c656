/* hpl_cases.c -- apps/hpl/hpl.c, the HPL-style LU: PASSED on 1 to 4 ranks
 * through mpirun, the same residual line byte for byte as a scenario on
 * ideal, its usage errors, and a broken run (-X: no row swaps) FAILED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"

#define RESID "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)="

const char *hpl_build_dir(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

const char *hpl_program(void)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/mpi-examples/hpl", hpl_build_dir());
    return p;
}

/* The residual line of text (from "||Ax-b||" to its newline) into out;
 * asserts there is exactly one. */
static void resid_line(const char *text, char *out, size_t cap)
{
    const char *p = strstr(text, RESID);
    ck_assert_msg(p, "no residual line in:\n%s", text);
    ck_assert_msg(!strstr(p + 1, RESID), "two residual lines in:\n%s", text);
    size_t n = strcspn(p, "\n");
    ck_assert_uint_lt(n, cap);
    memcpy(out, p, n);
    out[n] = '\0';
}

static struct result hpl_native(int q, const char *n, const char *nb, const char *extra)
{
    char qs[16];
    snprintf(qs, sizeof qs, "%d", q);
    const char *argv[] = {mpirun_path(), "-n", qs, hpl_program(), "-n", n, "-b", nb, extra, NULL};
    return run(argv, NULL, NULL);
}

START_TEST(hpl_passes)
{
    for (int q = 1; q <= 4; q++) {
        struct result r = hpl_native(q, "300", "32", NULL);
        ck_assert_msg(r.code == 0, "%d ranks: exit %d\n%s\n%s", q, r.code, r.out, r.err);
        char want[128], line[256];
        snprintf(want, sizeof want, "\nWR00L2L2         300    32     1 %5d ", q);
        HAS(r.out, want);
        HAS(r.out,
            "T/V                N    NB     P     Q               Time                 Gflops\n");
        resid_line(r.out, line, sizeof line);
        ck_assert_msg(strstr(line, " ...... PASSED"), "%d ranks: %s", q, line);
        double resid = -1;
        ck_assert_int_eq(sscanf(line + strlen(RESID), "%lf", &resid), 1);
        ck_assert_msg(resid >= 0 && resid < 16.0, "%d ranks: residual %g", q, resid);
        printf("hpl: N 300 NB 32 on %d ranks: %s (%.2f s)\n", q, line, r.secs);
    }
}
END_TEST

/* scenarios/mpi_lite/hpl.yaml on cores = q with the program's args. */
static struct result hpl_sim(int q, const char *args)
{
    char ipcsim[512], cores[32], set[128], out[512];
    snprintf(ipcsim, sizeof ipcsim, "%s/ipcsim", hpl_build_dir());
    snprintf(cores, sizeof cores, "cores=%d", q);
    snprintf(set, sizeof set, "args.args=%s", args);
    /* --out: a folder beside the scratch directory's files */
    const char *f = scratch_file("sim.txt", "");
    snprintf(out, sizeof out, "%.*s/sim%d", (int)(strrchr(f, '/') - f), f, q);
    const char *argv[] = {
        ipcsim, "run", "scenarios/mpi_lite/hpl.yaml", "--set", cores, "--set", set, "--out",
        out,    NULL};
    return run(argv, NULL, NULL);
}

/* The same program, same N, NB, Q in simulation (ideal, cores = Q): the
 * residual line is byte-identical, since mpi_lite reduces in rank order on
 * both backends. */
START_TEST(hpl_sim_same)
{
    for (int q = 1; q <= 4; q++) {
        struct result r = hpl_native(q, "300", "32", NULL);
        ck_assert_msg(r.code == 0, "%d ranks: exit %d\n%s", q, r.code, r.err);
        char nat[256], sim[256];
        resid_line(r.out, nat, sizeof nat);
        struct result s = hpl_sim(q, "-n 300 -b 32");
        ck_assert_msg(s.code == 0, "sim %d cores: exit %d\n%s\n%s", q, s.code, s.out, s.err);
        HAS(s.out, "[hpl rank 0] WR00L2L2         300    32     1");
        resid_line(s.out, sim, sizeof sim);
        ck_assert_msg(strcmp(nat, sim) == 0, "%d ranks:\nnative %s\nsim    %s", q, nat, sim);
    }
}
END_TEST

START_TEST(hpl_usage)
{
    static const struct {
        const char *a, *b, *text;
    } t[] = {
        {"-n", "0", "hpl: -n 0: must be a whole number from 1 to 100000\n"},
        {"-b", "x", "hpl: -b x: must be a whole number from 1 to 1024\n"},
        {"-q", "1", "hpl: -q: unknown argument\n"},
        {"-s", NULL, "hpl: -s: needs a value\n"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const char *argv[] = {mpirun_path(), "-n", "2", hpl_program(), t[i].a, t[i].b, NULL};
        struct result r = run(argv, NULL, NULL);
        ck_assert_msg(r.code == 2, "%s %s: exit %d\n%s", t[i].a, t[i].b, r.code, r.err);
        HAS(r.err, t[i].text);
        HAS(r.err, "Usage: ");
        ck_assert_msg(!strstr(r.out, RESID), "%s: ran:\n%s", t[i].a, r.out);
    }
    const char *help[] = {hpl_program(), "--help", NULL};
    struct result r = run(help, NULL, NULL);
    ck_assert_int_eq(r.code, 0);
    HAS(r.out, "Usage: ");
    HAS(r.out, "-n N     the order");
}
END_TEST

/* -X skips the row swaps on the trailing columns: the factors are wrong,
 * so the check must say FAILED and the program exit 1. */
START_TEST(hpl_broken)
{
    for (int q = 1; q <= 3; q += 2) {
        struct result r = hpl_native(q, "300", "32", "-X");
        ck_assert_msg(r.code == 1, "%d ranks: exit %d\n%s", q, r.code, r.out);
        char line[256];
        resid_line(r.out, line, sizeof line);
        ck_assert_msg(strstr(line, " ...... FAILED"), "%d ranks: %s", q, line);
    }
    /* In simulation a FAILED check fails the run, naming the rank. */
    struct result s = hpl_sim(2, "-n 300 -b 32 -X");
    ck_assert_msg(s.code != 0, "sim: exit 0\n%s", s.out);
    HAS(s.out, " ...... FAILED\n");
    HAS(s.err, "hpl: rank 0: main returned 1");
}
END_TEST

void procs_hpl_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "hpl");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, hpl_passes);
    tcase_add_test(tc, hpl_sim_same);
    tcase_add_test(tc, hpl_usage);
    tcase_add_test(tc, hpl_broken);
    procs_hpl_charged_cases(s);
}
