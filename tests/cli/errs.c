/* errs.c -- the errors of issue 13 (item 6 and the argument rules of item
 * 5): each is one "WHERE: message" line on stderr, exit 2, found before
 * the run where it can be, and says the value and what is allowed. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* A valid ping-pong scenario is these lines; each case changes one thing. */
#define HEAD "title: t\nplatform: ideal\nmapping: {ping: 0, pong: 1}\n"
#define WORKLOAD "workload:\n  app: pingpong\n"
#define SMALL "tests/cli/data/small.yaml"

/* The run failed with one line on stderr that starts with `prefix` and has
 * `says`, and printed no table. */
static void one_error(const struct cli_out *r, const char *prefix, const char *says)
{
    ck_assert_msg(r->status == 2, "exit %d\n%s%s", r->status, r->out, r->err);
    ck_assert_msg(cli_lines(r->err) == 1, "expected one error line:\n%s", r->err);
    ck_assert_msg(strncmp(r->err, prefix, strlen(prefix)) == 0, "expected %s...:\n%s", prefix,
                  r->err);
    ck_assert_msg(strstr(r->err, says), "expected \"%s\":\n%s", says, r->err);
    ck_assert_msg(r->out[0] == '\0', "nothing on stdout before the error:\n%s", r->out);
}

/* Write text as <tmp>/<name>.yaml, run it; the error must name line `line`. */
static struct cli_out run_at(const char *name, const char *text, int line, const char *says)
{
    const char *t = cli_tmp();
    char file[4200], prefix[4400];
    snprintf(file, sizeof file, "%s/%s.yaml", t, name);
    snprintf(prefix, sizeof prefix, "%s:%d: ", file, line);
    cli_write(text, "%s", file);
    struct cli_out r = cli_run("run '%s' --plot --out '%s/out'", file, t);
    one_error(&r, prefix, says);
    return r;
}

/* App arguments outside the app's rule are refused before the run, at the
 * value's line, with the value and the range (were: "app pingpong failed
 * on core 0" after starting the run, without a line; 1e12 failed on both
 * cores; reps: 1000000000 ran for hours). */
static const struct arg_case {
    const char *name, *args;
    int line;
    const char *says;
} arg_cases[] = {
    {"reps_0", "  args:\n    sizes: [4]\n    reps: 0\n", 8,
     "argument 'reps' is 0, must be 1 to 1000000 (timed round trips per size)"},
    {"reps_absurd", "  args:\n    reps: 1000000000\n", 7,
     "argument 'reps' is 1000000000, must be 1 to 1000000"},
    {"size_negative", "  args:\n    sizes: [-4]\n", 7,
     "argument 'sizes' element 0 is -4, must be 1 to 16777216"},
    {"size_huge", "  args:\n    sizes: [1e12]\n", 7,
     "argument 'sizes' element 0 is 1e12, must be 1 to 16777216"},
    /* A block list: the element's own line, not the list's. */
    {"size_block_list", "  args:\n    sizes:\n      - 4\n      - 16\n      - 0\n", 10,
     "argument 'sizes' element 2 is 0, must be 1 to"},
    {"sizes_empty", "  args:\n    sizes: []\n", 7, "argument 'sizes' has 0 elements, must have 1"},
    {"warmup_negative", "  args:\n    warmup: -1\n", 7, "argument 'warmup' is -1, must be 0 to"},
};

START_TEST(arg_outside_rule_is_refused_at_its_line)
{
    const struct arg_case *c = &arg_cases[_i];
    char text[1024];
    snprintf(text, sizeof text, "%s%s%s", HEAD, WORKLOAD, c->args);
    struct cli_out r = run_at(c->name, text, c->line, c->says);
    ck_assert_msg(!strstr(r.err, "failed on core"), "%s: refused before the run:\n%s", c->name,
                  r.err);
    cli_done();
}
END_TEST

/* Every app's argument rule, on the command line too: --set args.X names
 * itself and where the value it replaces is. */
START_TEST(set_arg_outside_rule_names_the_set_and_the_file)
{
    struct cli_out r = cli_run("run " SMALL " --set args.reps=0");
    one_error(&r, "--set args.reps=0: " SMALL ":12: ", "argument 'reps' is 0, must be 1 to");
    static const char *const sets[][2] = {
        {"scenarios/funbase/throughput.yaml --set args.packets=1000000000",
         "argument 'packets' is 1000000000, must be 1 to 1000000"},
        {"scenarios/funbase/table4_roundtrip.yaml --set 'args.words=[1, 300]'",
         "argument 'words' element 1 is 300, must be 1 to 256"},
        {"scenarios/sw26010/channels.yaml --set args.messages=1000000000",
         "argument 'messages' is 1000000000, must be 1 to 100000"},
        {"scenarios/sw26010/channels.yaml --set 'args.contenders=[1,2,3,4,5,6,7,8,9,10,11,12,13,"
         "14,15,16,17]'",
         "argument 'contenders' has 17 elements, must have 1 to 16"},
        {"scenarios/xmcapi/latency.yaml --set 'args.sizes=[2000]'",
         "argument 'sizes' element 0 is 2000, must be 1 to 1024"},
        {"scenarios/xmcapi/bandwidth.yaml --set args.bytes=0", "argument 'bytes' is 0, must be 1"},
        {"scenarios/tutorial/mcapi_dct.yaml --set args.blocks=0",
         "argument 'blocks' is 0, must be 1 to"},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        r = cli_run("run %s", sets[i][0]);
        one_error(&r, "--set args.", sets[i][1]);
    }
    cli_done();
}
END_TEST

/* `ipcsim apps` shows each argument's rule and the series an app reports. */
START_TEST(apps_show_rules_and_series)
{
    struct cli_out r = cli_run("apps");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "1..1000000"), "%.300s", r.out);
    ck_assert_msg(strstr(r.out, "1..16777216, 1-64 elements"), "%.300s", r.out);
    ck_assert_msg(strstr(r.out, "  series: roundtrip_ns\n"), "%.300s", r.out);
    ck_assert_msg(strstr(r.out, "  series: roundtrip_cycles, echo_cycles, oneway_cycles\n"), "%s",
                  r.out);
    cli_done();
}
END_TEST

/* A failure every core finds is said once, with the cores (sw_channels on
 * the ideal platform, which has no core groups: was one line per core). */
START_TEST(runtime_failure_is_said_once)
{
    const char *t = cli_tmp();
    cli_write("title: t\nplatform: ideal\nmapping: {mpe: 0}\n"
              "workload: {app: sw_channels, args: {contenders: [1], messages: 1}}\n",
              "%s/nomesh.yaml", t);
    struct cli_out r = cli_run("run '%s/nomesh.yaml' --set cores=4 --out '%s/out'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(cli_lines(r.err) == 1, "one line for four cores:\n%s", r.err);
    ck_assert_msg(strstr(r.err, "failed on cores 0-3 (mpe, unmapped): in no core group"), "%s",
                  r.err);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_int_eq(cli_entries(out), 0);
    cli_done();
}
END_TEST

/* --set errors say which --set and where in the platform file its key is
 * (were: "--set link.bandwidth_MBps: ..." naming no file; core.caps named
 * line 0; platform=funbase was accepted and failed on another key). */
START_TEST(set_errors_name_the_platform_file)
{
    struct cli_out r = cli_run("run " SMALL " --set link.bandwidth_MBps=abc");
    one_error(&r, "--set link.bandwidth_MBps=abc: platforms/ideal.yaml:",
              "expects a number (the file has 1000), got 'abc'");

    r = cli_run("run " SMALL " --set 'core.caps=[bogus]'");
    one_error(&r, "--set core.caps=[bogus]: platforms/ideal.yaml:",
              "'core.caps' lists unknown capability 'bogus'");
    ck_assert_msg(!strstr(r.err, ":0:"), "no line 0: %s", r.err);

    r = cli_run("run " SMALL " --set cores=2.5");
    one_error(&r, "--set cores=2.5: platforms/ideal.yaml:", "'cores' must be a whole number");

    /* A cost is whole cycles: 5.6 ran as 5, silently. */
    r = cli_run("run " SMALL " --set core.costs.irq=5.6");
    one_error(&r, "--set core.costs.irq=5.6: platforms/ideal.yaml:",
              "'core.costs.irq' must be a whole number, not '5.6'");

    r = cli_run("run " SMALL " --set platform=funbase");
    one_error(&r, "--set platform=funbase: platforms/ideal.yaml: ",
              "'platform' is the platform's kind, not a parameter; to run on another platform "
              "change the scenario's platform: key (" SMALL ":4: platform: ideal)");

    r = cli_run("run " SMALL " --set link.nope=1");
    one_error(&r, "--set link.nope=1: platforms/ideal.yaml: unknown key",
              "valid keys are: title, cores");
    ck_assert_msg(!strstr(r.err, " platform,"), "platform is not offered: %s", r.err);
    cli_done();
}
END_TEST

/* Found when the scenario is loaded: no table is printed first. */
START_TEST(plot_with_unknown_series_fails_at_load)
{
    run_at("plot",
           HEAD WORKLOAD "  args: {sizes: [4], reps: 1, warmup: 0}\n"
                         "plots:\n  - id: a\n    series:\n      - roundtrip_ns\n"
                         "      - roundtrip_nss\n",
           11,
           "plot 'a' names series 'roundtrip_nss', which app pingpong does not report and no "
           "reference gives; the series are: roundtrip_ns");
    cli_done();
}
END_TEST

START_TEST(platform_directory_says_so)
{
    const char *t = cli_tmp();
    cli_write("x\n", "%s/plat.yaml/inside", t);
    run_at("dir", "title: t\nplatform: plat.yaml\nmapping: {ping: 0, pong: 1}\n" WORKLOAD, 2,
           "plat.yaml is a directory, not a platform file");
    cli_done();
}
END_TEST

/* 4 and 4.0 are two YAML keys and one x: the second is the error. */
START_TEST(duplicate_reference_x_is_an_error)
{
    run_at("dupx",
           HEAD WORKLOAD "  args: {sizes: [4], reps: 1, warmup: 0}\n"
                         "reference:\n  - series: roundtrip_ns\n    source: s\n"
                         "    points:\n      4: 558\n      4.0: 600\n",
           12, "series 'roundtrip_ns': x 4.0 is the x of the point at line 11 (4)");
    cli_done();
}
END_TEST

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* 100,000 levels took 22 s (libyaml is quadratic in the depth); the limit
 * answers at once: under a second more than a one-line bad file takes (so
 * that a sanitizer build's slower start does not count). */
START_TEST(deep_nesting_is_refused_fast)
{
    enum { DEPTH = 100000 };
    static char text[2 * DEPTH + 64];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_at("flat", "title: [\n", 2, "YAML syntax error");
    double base = seconds_since(&t0);
    int n = snprintf(text, sizeof text, "title: t\nplatform: ideal\ndescription: ");
    memset(text + n, '[', DEPTH);
    memset(text + n + DEPTH, ']', DEPTH);
    strcpy(text + n + 2 * DEPTH, "\n");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_at("deep", text, 3, "maps and lists nested more than 64 deep");
    double s = seconds_since(&t0);
    ck_assert_msg(s < base + 1.0, "took %.2f s (a one-line file %.2f s)", s, base);
    cli_done();
}
END_TEST

/* Output that could not be written is an error (was exit 0). */
START_TEST(stdout_write_error_exits_2)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_sh("{ '%s/ipcsim' list >/dev/full; }", cli_build());
    ck_assert_msg(r.status == 2, "list: exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "ipcsim: cannot write to standard output"), "%s", r.err);
    r = cli_sh("{ '%s/ipcsim' run " SMALL " --out '%s/out' >/dev/full; }", cli_build(), t);
    ck_assert_msg(r.status == 2, "run: exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "ipcsim: cannot write to standard output"), "%s", r.err);
    cli_done();
}
END_TEST

/* Platform files are not scenarios: none is listed, a note says what they are. */
START_TEST(list_platforms_lists_no_scenarios)
{
    struct cli_out r = cli_run("list platforms/");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(r.out[0] == '\0', "listed as scenarios:\n%s", r.out);
    ck_assert_msg(strstr(r.err, "platforms/: no scenarios (these are platform files: funbase, "
                                "ideal"),
                  "%s", r.err);
    cli_done();
}
END_TEST

void cli_register_errs(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_loop_test(harness_tcase(s, "errs_arg_rule"), arg_outside_rule_is_refused_at_its_line,
                        0, (int)(sizeof arg_cases / sizeof arg_cases[0]));
    tcase_add_test(harness_tcase(s, "errs_set_arg"),
                   set_arg_outside_rule_names_the_set_and_the_file);
    tcase_add_test(harness_tcase(s, "errs_apps"), apps_show_rules_and_series);
    tcase_add_test(harness_tcase(s, "errs_once"), runtime_failure_is_said_once);
    tcase_add_test(harness_tcase(s, "errs_set"), set_errors_name_the_platform_file);
    tcase_add_test(harness_tcase(s, "errs_plot"), plot_with_unknown_series_fails_at_load);
    tcase_add_test(harness_tcase(s, "errs_platform_dir"), platform_directory_says_so);
    tcase_add_test(harness_tcase(s, "errs_dup_x"), duplicate_reference_x_is_an_error);
    tcase_add_test(harness_tcase(s, "errs_deep"), deep_nesting_is_refused_fast);
    tcase_add_test(harness_tcase(s, "errs_stdout"), stdout_write_error_exits_2);
    tcase_add_test(harness_tcase(s, "errs_list_platforms"), list_platforms_lists_no_scenarios);
}
