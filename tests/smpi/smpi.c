/*
 * tests/smpi/smpi.c -- the plumbing of build/bench/smpi (docs/smpi.md): its
 * options and errors, and one short run of both simulators on the ideal
 * platform's OSU scenarios, checking that the SMPI platform it writes is
 * the one ipcsim's curves name. No host time is asserted.
 *
 * BUILD from the environment (default "build"); run from the repo root.
 * The end-to-end cases need smpirun (Debian's libsimgrid-dev, make deps) and
 * BUILD/osu-ref/smpi/ (built with this test where smpicc is installed).
 */
#define _GNU_SOURCE
#include "../common/harness.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LAT_SCEN "scenarios/mpi_lite/osu_latency.yaml"
#define BW_SCEN "scenarios/mpi_lite/osu_bw.yaml"
/* Short runs: a few sizes, few iterations (the same for both simulators). */
#define SHORT_ARGS "--lat-args '-m 0:1024 -i 2 -x 1' --bw-args '-m 65536:65536 -i 2 -x 1'"

struct run {
    int status;
    char out[1 << 16], err[1 << 16];
};

static char scratch[PATH_MAX + 32];
static char bench[PATH_MAX + 32];

static void setup(void)
{
    const char *b = getenv("BUILD");
    char build[PATH_MAX];
    ck_assert_msg(realpath(b && *b ? b : "build", build), "no build tree %s", b ? b : "build");
    snprintf(bench, sizeof bench, "%s/bench/smpi", build);
    ck_assert_msg(access(bench, X_OK) == 0, "%s is not built", bench);
    snprintf(scratch, sizeof scratch, "%s/tmp-smpi-XXXXXX", build);
    ck_assert_msg(mkdtemp(scratch), "cannot create %s", scratch);
}

static void teardown(void)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    ck_assert_int_eq(system(cmd), 0);
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
}

/* sh -c "PREFIX BENCH ARGS" (PREFIX: "cd DIR &&" or "PATH=... "). */
static struct run *bench_run(const char *prefix, const char *args)
{
    static struct run r;
    char cmd[8 * PATH_MAX], out[PATH_MAX + 40], err[PATH_MAX + 40];
    snprintf(out, sizeof out, "%s/out", scratch);
    snprintf(err, sizeof err, "%s/err", scratch);
    /* TMPDIR: the bench's own directory, kept when it fails, goes with ours. */
    snprintf(cmd, sizeof cmd, "export TMPDIR='%s'; %s '%s' %s >'%s' 2>'%s'", scratch, prefix, bench,
             args, out, err);
    int st = system(cmd);
    ck_assert_int_ne(st, -1);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    slurp(out, r.out, sizeof r.out);
    slurp(err, r.err, sizeof r.err);
    return &r;
}

/* The value of `metric` in a `metric,value,unit` CSV (fails if absent). */
static double metric(const struct run *r, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = r->out; *p;) {
        if (strncmp(p, name, len) == 0 && p[len] == ',') return strtod(p + len + 1, NULL);
        const char *nl = strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
    ck_abort_msg("no metric %s in:\n%s", name, r->out);
    return 0;
}

static void need_smpirun(void)
{
    ck_assert_msg(system("command -v smpirun >/dev/null") == 0,
                  "smpirun is not installed: Debian's libsimgrid-dev (make deps)");
}

START_TEST(help_names_every_option)
{
    struct run *r = bench_run("", "--help");
    ck_assert_int_eq(r->status, 0);
    const char *opts[] = {"usage: bench/smpi", "-l SCEN",    "-b SCEN",   "--lat-series",
                          "--bw-series",       "--lat-args", "--bw-args", "-s KEY=VALUE",
                          "-e BYTES",          "-r ROUNDS",  "-k",        "docs/smpi.md"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        ck_assert_msg(strstr(r->out, opts[i]), "--help lacks %s:\n%s", opts[i], r->out);
}
END_TEST

START_TEST(usage_errors_exit_2)
{
    const struct {
        const char *args, *says;
    } bad[] = {
        {"--bogus", "unknown argument '--bogus'"},
        {"-r 0", "-r 0: expected a whole number 1 .. 64"},
        {"-r", "-r needs a value"},
        {"-e x", "-e x: expected a whole number"},
        {"-s novalue", "-s novalue: expected KEY=VALUE"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct run *r = bench_run("", bad[i].args);
        ck_assert_msg(r->status == 2, "%s: exit %d", bad[i].args, r->status);
        ck_assert_msg(strstr(r->err, bad[i].says), "%s:\n%s", bad[i].args, r->err);
        ck_assert_msg(strstr(r->err, "usage: bench/smpi"), "%s: no usage", bad[i].args);
    }
}
END_TEST

/* The defaults are the mpc8640_srio scenarios, relative to the working
 * directory: from one without them, the bench names the missing file. */
START_TEST(missing_default_scenario_exits_2)
{
    char prefix[PATH_MAX + 64];
    snprintf(prefix, sizeof prefix, "cd '%s' &&", scratch);
    struct run *r = bench_run(prefix, "");
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, "scenarios/mpc8640_srio/osu_latency.yaml: no such scenario "
                                 "(the default; -l SCEN names another)"),
                  "%s", r->err);
    r = bench_run(prefix, "-l /nonexistent.yaml");
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, "/nonexistent.yaml: no such scenario (given"), "%s", r->err);
}
END_TEST

START_TEST(scenario_without_osu_args_exits_2)
{
    char path[PATH_MAX + 64], args[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/noargs.yaml", scratch);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("platform: ideal\nworkload:\n  app: mpi_osu_latency\n", f);
    fclose(f);
    snprintf(args, sizeof args, "-l '%s' -b " BW_SCEN, path);
    struct run *r = bench_run("", args);
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, "noargs.yaml: no workload.args.args (the OSU arguments; give "
                                 "--lat-args)"),
                  "%s", r->err);
}
END_TEST

START_TEST(no_smpirun_exits_2_naming_the_package)
{
    char prefix[PATH_MAX + 64];
    snprintf(prefix, sizeof prefix, "PATH='%s'", scratch);
    struct run *r = bench_run(prefix, "-l " LAT_SCEN " -b " BW_SCEN);
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, "smpirun is not on PATH: install Debian's libsimgrid-dev"), "%s",
                  r->err);
}
END_TEST

START_TEST(unknown_series_exits_2_naming_the_ones_there)
{
    need_smpirun();
    struct run *r =
        bench_run("", "-l " LAT_SCEN " -b " BW_SCEN " " SHORT_ARGS " -r 1 --lat-series nope");
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, "no series 'nope' (it has: latency_us, elapsed_us;"), "%s",
                  r->err);
    ck_assert_msg(strstr(r->err, "its files are kept in "), "%s", r->err);
}
END_TEST

/* The link SMPI gets is ipcsim's latency at 0 B and bandwidth at the largest
 * size, so the curves meet there: SMPI's 0-byte latency is the link's (it
 * adds 0.02 us a message), its 64 KiB rate the link's (a window of 64
 * messages keeps it full), and 1 KiB costs 1024 B / link bandwidth more than
 * 0 B (MBps in the XML is 10^6 B/s, as OSU's MB/s). With one link shared by
 * both directions instead of one each, SMPI's cross traffic (5 % of every
 * flow, backwards) would cut the 64 KiB rate by 1/1.05. */
START_TEST(curves_meet_where_the_link_comes_from)
{
    need_smpirun();
    struct run *r = bench_run("", "-l " LAT_SCEN " -b " BW_SCEN " " SHORT_ARGS " -r 2");
    ck_assert_msg(r->status == 0, "exit %d:\n%s", r->status, r->err);
    double lat = metric(r, "link_latency_us"), bw = metric(r, "link_bw_MBps");
    ck_assert_double_eq_tol(lat, metric(r, "lat_ipcsim_0"), 1e-9);
    ck_assert_double_eq_tol(bw, metric(r, "bw_ipcsim_65536"), 0.01);
    double smpi0 = metric(r, "lat_smpi_0"), smpi1k = metric(r, "lat_smpi_1024");
    ck_assert_msg(fabs(smpi0 - lat) <= 0.02 * lat, "SMPI 0 B %.2f us, link %.2f us", smpi0, lat);
    double per_kib = 1024 / bw; /* us */
    ck_assert_msg(fabs((smpi1k - smpi0) - per_kib) <= 0.03 * per_kib,
                  "SMPI 1 KiB - 0 B = %.2f us, 1024 B at %.2f MB/s = %.3f us", smpi1k - smpi0, bw,
                  per_kib);
    double smpi_bw = metric(r, "bw_smpi_65536");
    ck_assert_msg(fabs(smpi_bw - bw) <= 0.01 * bw, "SMPI 64 KiB %.2f MB/s, link %.2f MB/s", smpi_bw,
                  bw);
    ck_assert_double_eq_tol(metric(r, "bw_diff_pct_65536"), (smpi_bw - bw) / bw * 100, 0.01);
    ck_assert_double_eq(metric(r, "rounds"), 2);
    ck_assert_double_eq(metric(r, "rounds_identical"), 1);
    const char *progs[] = {"osu_latency", "osu_bw"};
    for (int p = 0; p < 2; p++) {
        char name[64];
        double host[2];
        const char *sims[] = {"ipcsim", "smpi"};
        for (int s = 0; s < 2; s++) {
            snprintf(name, sizeof name, "host_s_%s_%s", sims[s], progs[p]);
            host[s] = metric(r, name);
            ck_assert_msg(host[s] > 0, "%s = %g", name, host[s]);
        }
        snprintf(name, sizeof name, "ratio_host_%s", progs[p]);
        /* Of the medians as printed: 4 decimals of seconds, 3 of the ratio. */
        double ratio = host[0] / host[1];
        double tol = ratio * (5e-5 / host[0] + 5e-5 / host[1]) + 5e-4 + 1e-9;
        ck_assert_double_eq_tol(metric(r, name), ratio, tol);
    }
    ck_assert_msg(strstr(r->err, "SMPI link: latency"), "%s", r->err);
}
END_TEST

void tests_register(void)
{
    Suite *s = harness_suite("bench-smpi");
    struct {
        const char *name;
        const TTest *test;
    } cases[] = {
        {"help", help_names_every_option},
        {"usage", usage_errors_exit_2},
        {"no_scenario", missing_default_scenario_exits_2},
        {"no_args", scenario_without_osu_args_exits_2},
        {"no_smpirun", no_smpirun_exits_2_naming_the_package},
        {"no_series", unknown_series_exits_2_naming_the_ones_there},
        {"link", curves_meet_where_the_link_comes_from},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = harness_tcase(s, cases[i].name);
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, cases[i].test);
    }
}
