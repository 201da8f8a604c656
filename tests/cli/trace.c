/* trace.c -- ipcsim run --trace: a VCD that stays small, exact and quiet; its
 * window and signal filter; nothing left by a failing run; the busy chart's
 * honest shares; the progress line only on a terminal. */
#include "cli.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SMALL "tests/cli/data/small.yaml"
#define PINGPONG "scenarios/tutorial/pingpong.yaml"
/* sw26010 at 1.45 GHz: events between whole nanoseconds; two points keep it short. */
#define CHANNELS                                                                                   \
    "scenarios/sw26010/channels.yaml --set 'args.contenders=[1,4]' --set args.messages=20"

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The VCD's timestamps in order; n set to their count. */
static unsigned long long *stamps(const char *vcd, int *n)
{
    int cap = 1024;
    unsigned long long *t = malloc(sizeof *t * (size_t)cap);
    ck_assert_ptr_nonnull(t);
    *n = 0;
    for (const char *p = vcd; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (*p != '#') continue;
        if (*n == cap) {
            cap *= 2;
            unsigned long long *more = realloc(t, sizeof *t * (size_t)cap);
            ck_assert_ptr_nonnull(more);
            t = more;
        }
        t[(*n)++] = strtoull(p + 1, NULL, 10);
    }
    return t;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

/* The name of the one file in dir ending in suffix ("" when none or more). */
static const char *only(const char *dir, const char *suffix)
{
    static char name[256];
    int found = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name), k = strlen(suffix);
        if (n > k && strcmp(e->d_name + n - k, suffix) == 0 && found++ == 0)
            snprintf(name, sizeof name, "%s", e->d_name);
    }
    if (d) closedir(d);
    return found == 1 ? name : "";
}

START_TEST(vcd_exact_and_quiet)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " CHANNELS " --trace '%s/tr' --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    /* SystemC's writer printed a W713 warning per timestep here (2.9 MB). */
    ck_assert_msg(strlen(r.err) < 200 && !strstr(r.err, "W713"), "stderr: %.300s", r.err);
    /* A run with --set: its trace carries the CSV's tags, so it cannot
     * replace the default run's. */
    char tr[4200];
    snprintf(tr, sizeof tr, "%s/tr", t);
    const char *name = only(tr, ".vcd");
    ck_assert_msg(strncmp(name, "channels+", 9) == 0, "VCD '%s' in %s", name, tr);
    char *vcd = cli_read("%s/%s", tr, name);
    ck_assert_ptr_nonnull(vcd);
    ck_assert_msg(strstr(vcd, "$timescale 1 ps $end"), "%.400s", vcd);
    int n;
    unsigned long long *ts = stamps(vcd, &n);
    ck_assert_int_gt(n, 100);
    int sub_ns = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            ck_assert_msg(ts[i] > ts[i - 1], "timestamp %d: %llu after %llu", i, ts[i], ts[i - 1]);
        sub_ns += ts[i] % 1000 != 0;
    }
    /* Exact: 1.45 GHz cycles end between nanoseconds, and the VCD says where. */
    ck_assert_msg(sub_ns > n / 2, "only %d of %d timestamps off the nanosecond", sub_ns, n);
    free(ts);
    /* The wrote line names the VCD with its size. */
    char want[4500];
    snprintf(want, sizeof want, "%s/%s (", tr, name);
    ck_assert_msg(strstr(r.out, want) && strstr(r.out, " kB)"), "%s", r.out);
    cli_done();
}
END_TEST

START_TEST(window_and_filter_shrink_it)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " PINGPONG " --trace '%s/all' --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    r = cli_run("run " PINGPONG " --trace '%s/win' --trace-window 10ms:11ms --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    r = cli_run("run " PINGPONG " --trace '%s/sig' --trace-signals 'top.core*.busy' --out '%s'", t,
                t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char p[3][4200];
    const char *dirs[3] = {"all", "win", "sig"};
    for (int i = 0; i < 3; i++) snprintf(p[i], sizeof p[i], "%s/%s/pingpong.vcd", t, dirs[i]);
    long all = file_size(p[0]), win = file_size(p[1]), sig = file_size(p[2]);
    ck_assert_msg(win > 0 && win < all / 10, "window: %ld of %ld bytes", win, all);
    ck_assert_msg(sig > 0 && sig < all / 2, "filter: %ld of %ld bytes", sig, all);

    /* The window: a dump of every value at its start, changes inside, its end. */
    char *vcd = cli_read("%s", p[1]);
    int n;
    unsigned long long *ts = stamps(vcd, &n);
    ck_assert_int_gt(n, 2);
    ck_assert_uint_eq(ts[0], 10000000000ULL);
    ck_assert_uint_eq(ts[n - 1], 11000000000ULL);
    for (int i = 1; i < n; i++) ck_assert(ts[i] > ts[i - 1]);
    free(ts);
    ck_assert_msg(strstr(vcd, "#10000000000\n$dumpvars\n"), "%s", vcd);
    ck_assert_int_eq(count(vcd, "$var "), count(cli_read("%s", p[0]), "$var "));

    /* The filter: only the cores' busy flags, in their scopes. */
    vcd = cli_read("%s", p[2]);
    ck_assert_int_eq(count(vcd, "$var "), 2);
    ck_assert_int_eq(count(vcd, " busy $end"), 2);
    ck_assert_msg(strstr(vcd, "$scope module core1 $end") && !strstr(vcd, "xbar"), "%s", vcd);
    ck_assert_msg(strstr(vcd, "$enddefinitions $end\n#0\n$dumpvars\n"), "%s", vcd);
    cli_done();
}
END_TEST

START_TEST(bad_window_and_filter_rejected)
{
    static const struct {
        const char *opts, *msg;
    } bad[] = {
        {"--trace-window 10us", "--trace-window: '10us': give T0:T1"},
        {"--trace-window 10:20", "'10' has no unit"},
        {"--trace-window 10xs:20us", "'10xs' has an unknown unit 'xs'"},
        {"--trace-window 20us:10us", "the window is empty"},
        {"--trace-window 5us:5us", "the window is empty"},
        {"--trace-window -1us:5us", "'-1us' is negative"},
        {"--trace-window 1e9s:", "beyond the simulator's range"},
        {"--trace-window nan:", "'nan' is not a time"},
        {"--trace-window :", "give T0:T1"},
        {"--trace-signals 'a,,b'", "an empty pattern"},
        {"--trace-signals 'top.core*.busy,nosuch*'", "'nosuch*' matches none of the 14 signals"},
    };
    const char *t = cli_tmp();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct cli_out r =
            cli_run("run " SMALL " --trace '%s/tr' %s --out '%s/out'", t, bad[i].opts, t);
        ck_assert_msg(r.status == 2, "%s: exit %d", bad[i].opts, r.status);
        ck_assert_msg(strstr(r.err, bad[i].msg), "%s: %s", bad[i].opts, r.err);
        ck_assert_msg(cli_entries(t) == 0, "%s left files in %s", bad[i].opts, t);
    }
    struct cli_out r = cli_run("run " SMALL " --trace-window 1us:2us --out '%s/out'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--trace-window: needs --trace DIR"), "%s", r.err);
    cli_done();
}
END_TEST

START_TEST(failing_run_leaves_nothing)
{
    const char *t = cli_tmp();
    /* A directory the run creates goes again... */
    struct cli_out r =
        cli_run("run " SMALL " --set args.reps=0 --trace '%s/new/tr' --out '%s/out'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(cli_entries(t) == 0, "a failed run left %d entries in %s", cli_entries(t), t);
    /* ...one that was there keeps only what it held. */
    cli_write("keep\n", "%s/old/keep", t);
    r = cli_run("run " SMALL " --set args.reps=0 --trace '%s/old' --out '%s/out'", t, t);
    ck_assert_int_eq(r.status, 2);
    char old[4200];
    snprintf(old, sizeof old, "%s/old", t);
    ck_assert_int_eq(cli_entries(old), 1);
    cli_done();
}
END_TEST

START_TEST(native_trace_refused)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --backend native --trace '%s/tr' --out '%s'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--trace: not supported with --backend native"), "%s", r.err);
    ck_assert_str_eq(r.out, ""); /* refused before running */
    ck_assert_int_eq(cli_entries(t), 0);
    cli_done();
}
END_TEST

/* The tutorial ping-pong keeps each core 0.3 % busy in short spells. */
START_TEST(busy_chart_ink_is_the_share)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " PINGPONG " --trace '%s/tr' --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *gp = cli_read("%s/tr/pingpong.busy.gp", t);
    char *dat = cli_read("%s/tr/pingpong.busy.dat", t);
    ck_assert_ptr_nonnull(gp);
    ck_assert_ptr_nonnull(dat);
    ck_assert_msg(strstr(gp, "'core 0 (0.3%% busy)' 0"), "%s", gp);
    ck_assert_msg(!strstr(gp, " border lc") && strstr(gp, "noborder"), "%s", gp);
    double x0, x1;
    const char *xr = strstr(gp, "set xrange [");
    ck_assert_msg(xr && sscanf(xr, "set xrange [%lf:%lf]", &x0, &x1) == 2, "%s", gp);
    /* Ink: the columns' shares times their widths, per core. */
    double ink[2] = {0, 0};
    int rows = 0;
    for (const char *p = dat; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (*p == '#') continue;
        int core;
        double a, b, share;
        ck_assert_msg(sscanf(p, "%d %lf %lf %lf", &core, &a, &b, &share) == 4, "row: %.60s", p);
        ck_assert_msg(core >= 0 && core < 2 && share > 0 && share <= 1 && b > a, "%.60s", p);
        ink[core] += share * (b - a);
        rows++;
    }
    ck_assert_int_gt(rows, 0);
    for (int c = 0; c < 2; c++) {
        double pct = 100 * ink[c] / (x1 - x0);
        ck_assert_msg(pct > 0.25 && pct < 0.35, "core %d: %.3f %% of the chart inked", c, pct);
    }
    /* Titled with the scenario, not with the platform file's path. */
    ck_assert_msg(strstr(gp, "set title 'Busy cores: Bare DMA ping-pong on the ideal platform' "
                             "noenhanced"),
                  "%s", gp);
    ck_assert_msg(!strstr(gp, "platforms/"), "%s", gp);
    char png[4200];
    snprintf(png, sizeof png, "%s/tr/pingpong.busy.png", t);
    ck_assert_msg(file_size(png) > 1000, "no PNG %s", png);
    cli_done();
}
END_TEST

/* A title with _ (gnuplot's subscript) and ' (its quote) draws as written. */
START_TEST(busy_chart_title_escaped)
{
    const char *t = cli_tmp();
    cli_write("title: \"it's a_b ping-pong!\"\n"
              "platform: ideal\n"
              "mapping: {ping: 0, pong: 1}\n"
              "workload: {app: pingpong, args: {sizes: [4], reps: 2}}\n",
              "%s/my_run.yaml", t);
    struct cli_out r = cli_run("run '%s/my_run.yaml' --trace '%s/tr' --out '%s'", t, t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *gp = cli_read("%s/tr/my_run.busy.gp", t);
    ck_assert_ptr_nonnull(gp);
    ck_assert_msg(strstr(gp, "set title 'Busy cores: it''s a_b ping-pong!' noenhanced"), "%s", gp);
    ck_assert_msg(strstr(gp, "noenhanced\n"), "%s", gp); /* the terminal too: tic labels */
    char png[4200];
    snprintf(png, sizeof png, "%s/tr/my_run.busy.png", t);
    ck_assert_int_gt(file_size(png), 1000);
    cli_done();
}
END_TEST

/* IPCSIM_PROGRESS_AFTER=0: the line at once, when it is shown at all. */
START_TEST(progress_only_on_a_terminal)
{
    const char *t = cli_tmp();
    const char *b = cli_build();
    /* stderr a file: no line. */
    struct cli_out r = cli_sh("IPCSIM_PROGRESS_AFTER=0 '%s/ipcsim' run " SMALL " --out '%s'", b, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(!strstr(r.err, "ipcsim: ") && !strchr(r.err, '\r'), "%s", r.err);
    /* A terminal (script(1) gives the run a pty): the line, then erased. */
    r = cli_sh("IPCSIM_PROGRESS_AFTER=0 script -qec \"'%s/ipcsim' run " SMALL
               " --out '%s'\" /dev/null </dev/null",
               b, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    /* (at once: maybe before the first timestep, "ipcsim: 0 points, 0 s") */
    ck_assert_msg(strstr(r.out, "\ripcsim: ") && strstr(r.out, " point"), "%s", r.out);
    /* --quiet: none, even on a terminal. */
    r = cli_sh("IPCSIM_PROGRESS_AFTER=0 script -qec \"'%s/ipcsim' run " SMALL
               " --quiet --out '%s'\" /dev/null </dev/null",
               b, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "roundtrip_ns") && !strstr(r.out, "ipcsim: "), "%s", r.out);
    cli_done();
}
END_TEST

void cli_register_trace(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "trace_vcd"), vcd_exact_and_quiet);
    tcase_add_test(harness_tcase(s, "trace_window"), window_and_filter_shrink_it);
    tcase_add_test(harness_tcase(s, "trace_bad"), bad_window_and_filter_rejected);
    tcase_add_test(harness_tcase(s, "trace_failed_run"), failing_run_leaves_nothing);
    tcase_add_test(harness_tcase(s, "trace_native"), native_trace_refused);
    tcase_add_test(harness_tcase(s, "trace_busy_share"), busy_chart_ink_is_the_share);
    tcase_add_test(harness_tcase(s, "trace_busy_title"), busy_chart_title_escaped);
    tcase_add_test(harness_tcase(s, "progress"), progress_only_on_a_terminal);
}
