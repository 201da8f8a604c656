/* chart.c -- run charts (app_interval): the exact text chart of known
 * intervals on both backends, its footer's shares equal to what the app
 * reported, the scale key, a PNG drawn from the same intervals, the same
 * bytes from the same run, and the refusals: a bad chart name, row or mark,
 * too many intervals or charts, a row too long, a bad scale_ns. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* chart_demo on ideal's 2 cores; extra: more scenario lines (chart:, args). */
static const char *scenario(const char *name, const char *args, const char *extra)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "title: chart test\n"
             "platform: ideal\n"
             "mapping: {a: 0, b: 1}\n"
             "workload:\n"
             "  app: chart_demo\n"
             "  args: {%s}\n"
             "%s",
             args, extra);
    cli_write(yaml, "%s/%s.yaml", cli_tmp(), name);
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s.yaml", cli_tmp(), name);
    return path;
}

static struct cli_out run(const char *yaml, const char *opts)
{
    return cli_run("run '%s' --quiet --out '%s/out' %s", yaml, cli_tmp(), opts);
}

/* Core 0: 300 us '-' then 100 us '#', twice, from 0; core 1 the same from
 * 100 us. One character = 100 us. A format: %s is the stem. */
static const char golden[] =
    "chart run of %s: one character = 100000 ns (chart: {scale_ns: 100000}); t = 0 at the first "
    "interval's start, 0 ns\n"
    "core 0 |---#---# |\n"
    "core 1 | ---#---#|\n"
    "shares of 1600000 ns in intervals on 2 rows: '#' 25.00 %% (400000 ns), '-' 75.00 %% "
    "(1200000 ns)\n";

static void check_golden(const char *backend, const char *stem)
{
    const char *y = scenario("demo", "", "");
    struct cli_out r = run(y, backend);
    ck_assert_msg(r.status == 0, "exit %d\n%s%s", r.status, r.out, r.err);
    char *txt = cli_read("%s/out/%s.run.txt", cli_tmp(), stem);
    ck_assert_msg(txt, "no %s.run.txt; wrote:\n%s", stem, r.out);
    char want[1024];
    snprintf(want, sizeof want, golden, stem);
    ck_assert_str_eq(txt, want);
    char file[1024];
    snprintf(file, sizeof file, "%s/out/%s.run.txt", cli_tmp(), stem);
    ck_assert_msg(strstr(r.out, file), "the wrote line does not name %s:\n%s", file, r.out);
    /* The footer's dispatcher share is the one the app reported. */
    double pct = cli_csv_value(cli_wrote_csv(&r), "dispatcher_pct", "all");
    char share[64];
    snprintf(share, sizeof share, "'#' %.2f %%", pct);
    ck_assert_msg(pct > 0 && strstr(txt, share), "CSV says %g %%, footer:\n%s", pct, txt);
}

START_TEST(text_sim)
{
    check_golden("", "demo");
    cli_done();
}
END_TEST

START_TEST(text_native)
{
    check_golden("--backend native", "demo+native");
    cli_done();
}
END_TEST

/* 250 us cells: each shows the mark covering most of it. */
START_TEST(scale_key)
{
    const char *y = scenario("wide", "", "chart: {scale_ns: 250000}\n");
    struct cli_out r = run(y, "");
    ck_assert_msg(r.status == 0, "exit %d\n%s%s", r.status, r.out, r.err);
    char *txt = cli_read("%s/out/wide.run.txt", cli_tmp());
    ck_assert_ptr_nonnull(txt);
    ck_assert_str_eq(txt, "chart run of wide: one character = 250000 ns (chart: {scale_ns: "
                          "250000}); t = 0 at the first interval's start, 0 ns\n"
                          "core 0 |---#|\n"
                          "core 1 |---#|\n"
                          "shares of 1600000 ns in intervals on 2 rows: '#' 25.00 % (400000 ns), "
                          "'-' 75.00 % (1200000 ns)\n");
    cli_done();
}
END_TEST

START_TEST(png_and_same_bytes)
{
    bool gnuplot = cli_sh("command -v gnuplot >/dev/null").status == 0;
    const char *y = scenario("demo", "", "");
    struct cli_out r = run(y, "");
    ck_assert_msg(r.status == 0, "exit %d\n%s%s", r.status, r.out, r.err);
    char *txt1 = cli_read("%s/out/demo.run.txt", cli_tmp());
    char *png1 = cli_read("%s/out/demo.run.png", cli_tmp());
    if (gnuplot) {
        ck_assert_msg(png1 && memcmp(png1, "\x89PNG\r\n\x1a\n", 8) == 0,
                      "demo.run.png missing or not a PNG; wrote:\n%s", r.out);
        ck_assert_msg(strstr(r.out, "/out/demo.run.png"), "%s", r.out);
    } else {
        ck_assert_msg(!png1 && strstr(r.err, "text only"), "%s", r.err);
    }
    r = run(y, "");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(cli_read("%s/out/demo.run.txt", cli_tmp()), txt1);
    cli_done();
}
END_TEST

/* A refused run writes nothing and names what it refused. */
static void refused(const char *args, const char *extra, const char *msg)
{
    const char *y = scenario("bad", args, extra);
    struct cli_out r = run(y, "");
    ck_assert_msg(r.status == 2, "%s: exit %d\n%s%s", args, r.status, r.out, r.err);
    ck_assert_msg(strstr(r.err, msg), "%s: no '%s' in:\n%s", args, msg, r.err);
    ck_assert_msg(!cli_read("%s/out/bad.run.txt", cli_tmp()), "%s: a chart was written", args);
}

START_TEST(bad_calls)
{
    refused("chart: 'a b'", "", "chart name 'a b' must be 1 to 32 letters");
    refused("chart: ''", "", "chart name '' must be");
    refused("row_offset: 1", "", "chart 'run': row 2 is not a core (0 .. 1)");
    refused("row_offset: -1", "", "chart 'run': row -1 is not a core");
    refused("mark: ' '", "", "chart 'run': mark 32 (' ') is not a printable character");
    refused("mark: '|'", "", "mark 124 ('|')");
    cli_done();
}
END_TEST

START_TEST(limits)
{
    /* 2 intervals a repetition: 40000 give 80000 from each core. */
    refused("reps: 40000", "",
            "cores 0-1 (a, b): app_interval: chart 'run': more than APP_INTERVAL_MAX (65536");
    /* 1 ns characters: 900000 of them. */
    refused("", "chart: {scale_ns: 1}\n",
            "chart 'run' spans 900000 ns: 900000 characters of 1 ns per row, more than 20000; "
            "set chart: {scale_ns: 45} or more");
    refused("charts: 9", "",
            "app_interval: chart 'run9' would be chart 9 of this core, more than APP_CHART_MAX (8");
    const char *y = scenario("bad", "", "chart: {scale_ns: 0}\n");
    struct cli_out r = run(y, "");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "bad.yaml:7") && strstr(r.err, "scale_ns"), "%s", r.err);
    cli_done();
}
END_TEST

void cli_register_chart(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "chart_text"), text_sim);
    tcase_add_test(harness_tcase(s, "chart_native"), text_native);
    tcase_add_test(harness_tcase(s, "chart_scale"), scale_key);
    tcase_add_test(harness_tcase(s, "chart_png"), png_and_same_bytes);
    tcase_add_test(harness_tcase(s, "chart_bad"), bad_calls);
    tcase_add_test(harness_tcase(s, "chart_limits"), limits);
}
