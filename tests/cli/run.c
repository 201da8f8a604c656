/* run.c -- ipcsim run: CSV, determinism, --set, --check, --plot, on both backends. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMALL "tests/cli/data/small.yaml"
#define HEADER "series,x,value,unit,reference,error_pct\n"

/* The small scenario's CSV DIR/NAME.csv: the exact header, then one row per size. */
static void check_small_csv(const char *dir, const char *name)
{
    char *csv = cli_read("%s/%s.csv", dir, name);
    ck_assert_msg(csv, "no %s/%s.csv", dir, name);
    ck_assert_msg(strncmp(csv, HEADER, strlen(HEADER)) == 0, "header: %s", csv);
    ck_assert_int_eq(cli_lines(csv), 4);
    const char *sizes[] = {"4", "64", "1024"};
    const char *at = csv + strlen(HEADER);
    for (int i = 0; i < 3; i++) {
        char want[64];
        int n = snprintf(want, sizeof want, "roundtrip_ns,%s,", sizes[i]);
        ck_assert_msg(strncmp(at, want, (size_t)n) == 0, "row %d: %s", i, at);
        double v = cli_csv_value(csv, "roundtrip_ns", sizes[i]);
        ck_assert_msg(v > 0, "row %d has no positive value: %s", i, at);
        /* unit ns, no reference, no error: the row ends ",ns,," */
        size_t len = (size_t)(strchr(at, '\n') - at);
        ck_assert_msg(len > 5 && strncmp(at + len - 5, ",ns,,", 5) == 0, "row %d: %s", i, at);
        at = strchr(at, '\n') + 1;
    }
}

START_TEST(sim_run_writes_csv)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --out '%s/out'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    check_small_csv(out, "small");
    /* The table: the columns, a row per size. */
    ck_assert_msg(strstr(r.out, "series") && strstr(r.out, "simulated") && strstr(r.out, "paper") &&
                      strstr(r.out, "error %"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "roundtrip_ns  1024"), "%s", r.out);
    /* Only the CSV and its .meta.yaml, no temporaries. */
    ck_assert_int_eq(cli_entries(out), 2);
    cli_done();
}
END_TEST

/* Without --out the outputs go to out/ in the current directory (which the
 * repository's .gitignore covers), not beside whatever is there. */
START_TEST(default_out_is_out_dir)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_sh("(ipcsim=$(realpath '%s/ipcsim') small=$(realpath '" SMALL
                              "') && cd '%s' && \"$ipcsim\" run \"$small\")",
                              cli_build(), t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "wrote out/small.csv, out/small.meta.yaml"), "%s", r.out);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    check_small_csv(out, "small");
    ck_assert_int_eq(cli_entries(t), 1);
    cli_done();
}
END_TEST

START_TEST(native_run_writes_csv)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --backend native --out '%s/out'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    check_small_csv(out, "small+native");
    ck_assert_msg(strstr(r.out, "measured"), "%s", r.out);
    ck_assert_int_eq(cli_entries(out), 2);
    cli_done();
}
END_TEST

START_TEST(same_seed_same_bytes)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --seed 7 --out '%s/a'", t);
    ck_assert_int_eq(r.status, 0);
    r = cli_run("run " SMALL " --seed 7 --out '%s/b'", t);
    ck_assert_int_eq(r.status, 0);
    char *a = cli_read("%s/a/small+seed7.csv", t), *b = cli_read("%s/b/small+seed7.csv", t);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(a, b);
    cli_done();
}
END_TEST

START_TEST(set_args_overrides_the_workload)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --set args.reps=5 --set 'args.sizes=[8, 32]' "
                               "--out '%s'",
                               t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *csv = cli_wrote_csv(&r);
    ck_assert_ptr_nonnull(csv);
    ck_assert_int_eq(cli_lines(csv), 3);
    ck_assert(cli_csv_value(csv, "roundtrip_ns", "8") > 0);
    ck_assert(cli_csv_value(csv, "roundtrip_ns", "32") > 0);
    ck_assert(cli_csv_value(csv, "roundtrip_ns", "4") < 0);
    cli_done();
}
END_TEST

/* --set reaches the platform: a slower link gives a longer round trip. */
START_TEST(set_platform_key_changes_the_result)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --out '%s/a'", t);
    ck_assert_int_eq(r.status, 0);
    r = cli_run("run " SMALL " --set link.latency_ns=1000 --out '%s/b'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *a = cli_read("%s/a/small.csv", t), *b = cli_wrote_csv(&r);
    double fast = cli_csv_value(a, "roundtrip_ns", "64");
    double slow = cli_csv_value(b, "roundtrip_ns", "64");
    ck_assert_msg(slow > fast, "latency 1000 ns: %g, default: %g", slow, fast);
    cli_done();
}
END_TEST

START_TEST(unknown_set_key_lists_valid_keys)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --set link.nope=1 --out '%s/out'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_int_eq(cli_lines(r.err), 1);
    ck_assert_msg(strncmp(r.err,
                          "--set link.nope=1: platforms/ideal.yaml: unknown key; valid keys "
                          "are: ",
                          67) == 0,
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "link.latency_ns") && strstr(r.err, "cores"), "%s", r.err);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_int_eq(cli_entries(out), 0);

    r = cli_run("run " SMALL " --set link.latency_ns=fast");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strncmp(r.err, "--set link.latency_ns=fast: ", 28) == 0, "%s", r.err);

    r = cli_run("run " SMALL " --set args.nope=1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--set args.nope=1: tests/cli/data/small.yaml: unknown argument "
                                "'nope' of app pingpong; "
                                "valid arguments are: sizes, reps, warmup"),
                  "%s", r.err);

    r = cli_run("run " SMALL " --set args.reps=many");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--set args.reps=many: tests/cli/data/small.yaml:12: argument "
                                "'reps' must be a whole number"),
                  "%s", r.err);

    r = cli_run("run " SMALL " --set nonsense");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "expected KEY=VALUE"), "%s", r.err);
    cli_done();
}
END_TEST

/* An app_fail() fails the run: exit 2, the app's message, no files. */
START_TEST(app_failure_writes_nothing)
{
    const char *t = cli_tmp();
    cli_write("old\n", "%s/out/small.csv", t);
    struct cli_out r =
        cli_run("run " SMALL " --set memory.bytes=65536 --set 'args.sizes=[1048576]' "
                "--out '%s/out'",
                t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no memory for a 2097152-byte buffer"), "%s", r.err);
    char *csv = cli_read("%s/out/small.csv", t);
    ck_assert_str_eq(csv, "old\n"); /* the previous result is untouched */
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_int_eq(cli_entries(out), 1);
    cli_done();
}
END_TEST

START_TEST(check_fails_outside_tolerance)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run tests/cli/data/wrong_ref.yaml --check --out '%s'", t);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "check failed: roundtrip_ns x=4:"), "%s", r.err);
    ck_assert_msg(!strstr(r.err, "x=64"), "x=64 has no reference: %s", r.err);
    /* The run itself succeeded: the CSV carries the paper point and the error. */
    char *csv = cli_read("%s/wrong_ref.csv", t);
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(strstr(csv, ",ns,1,"), "%s", csv);
    /* Without --check the same run is not an error. */
    r = cli_run("run tests/cli/data/wrong_ref.yaml --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    cli_done();
}
END_TEST

/* A reference equal to what the model gives passes --check; one 20% off
 * with a 10% tolerance does not. */
START_TEST(check_passes_within_tolerance)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    char *csv = cli_read("%s/small.csv", t);
    double v4 = cli_csv_value(csv, "roundtrip_ns", "4");
    double v64 = cli_csv_value(csv, "roundtrip_ns", "64");
    ck_assert(v4 > 0 && v64 > 0);
    char yaml[2048];
    const char *fmt =
        "title: check\nplatform: ideal\nmapping: {ping: 0, pong: 1}\n"
        "workload: {app: pingpong, args: {sizes: [4, 64, 1024], reps: 5, warmup: 1}}\n"
        "reference:\n"
        "  - series: roundtrip_ns\n"
        "    source: the model itself\n"
        "    tolerance_pct: 10\n"
        "    points: {4: %.17g, 64: %.17g}\n";
    snprintf(yaml, sizeof yaml, fmt, v4, v64 * 1.05);
    cli_write(yaml, "%s/good.yaml", t);
    r = cli_run("run '%s/good.yaml' --check --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "check: 2 of 2 paper points within tolerance"), "%s", r.out);

    snprintf(yaml, sizeof yaml, fmt, v4, v64 * 1.2);
    cli_write(yaml, "%s/bad.yaml", t);
    r = cli_run("run '%s/bad.yaml' --check --out '%s'", t, t);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "roundtrip_ns x=64") && !strstr(r.err, "x=4:"), "%s", r.err);
    cli_done();
}
END_TEST

START_TEST(plot_writes_png)
{
    const char *t = cli_tmp();
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        struct cli_out r = cli_run("run " SMALL " --plot --out '%s'", t);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "gnuplot"), "%s", r.err);
        cli_done();
        return;
    }
    struct cli_out r = cli_run("run " SMALL " --plot --out '%s/out'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *png = cli_read("%s/out/small-rt.png", t);
    ck_assert_ptr_nonnull(png);
    ck_assert_msg(memcmp(png, "\x89PNG", 4) == 0, "not a PNG");
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_int_eq(cli_entries(out), 3); /* CSV, .meta.yaml and PNG, no scripts or temporaries */
    cli_done();
}
END_TEST

/* ymin: reaches the plot: the same points drawn from y = 250 (autoscale
 * starts this plot at 0) give another image (gnuplot's PNGs are the same
 * bytes for the same script). */
START_TEST(plot_ymin_moves_the_axis)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) return; /* plot_writes_png covers it */
    const char *t = cli_tmp();
    const char *yaml = "title: t\nplatform: ideal\nmapping: {ping: 0, pong: 1}\n"
                       "workload: {app: pingpong, args: {sizes: [4, 1024], reps: 2, warmup: 0}}\n"
                       "plots:\n  - id: rt\n%s";
    char text[1024];
    snprintf(text, sizeof text, yaml, "");
    cli_write(text, "%s/auto/s.yaml", t);
    snprintf(text, sizeof text, yaml, "    ymin: 250\n");
    cli_write(text, "%s/ymin/s.yaml", t);
    struct cli_out r = cli_run("run '%s/auto/s.yaml' --plot --out '%s/auto'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    r = cli_run("run '%s/ymin/s.yaml' --plot --out '%s/ymin'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char cmp[8400];
    snprintf(cmp, sizeof cmp, "cmp -s '%s/auto/s-rt.png' '%s/ymin/s-rt.png'", t, t);
    ck_assert_msg(cli_read("%s/ymin/s-rt.png", t), "no PNG in %s/ymin", t);
    ck_assert_msg(system(cmp) != 0, "ymin: 250 drew the same image as no ymin");
    cli_done();
}
END_TEST

/* The tutorial's reference is the closed form of docs/ideal.md: the sim must
 * meet it (a regression test of the models through the whole runner). */
START_TEST(tutorial_meets_its_reference)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run scenarios/tutorial/pingpong.yaml --check --out '%s'", t);
    ck_assert_msg(r.status == 0, "exit %d:\n%s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "check: 8 of 8 paper points within tolerance"), "%s", r.out);
    cli_done();
}
END_TEST

START_TEST(trace_writes_vcd)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --trace '%s/trace' --out '%s/out'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *vcd = cli_read("%s/trace/small.vcd", t);
    ck_assert_msg(vcd && strstr(vcd, "$var"), "no VCD in %s/trace", t);
    cli_done();
}
END_TEST

void cli_register_run(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "sim_run"), sim_run_writes_csv);
    tcase_add_test(harness_tcase(s, "default_out"), default_out_is_out_dir);
    tcase_add_test(harness_tcase(s, "deterministic"), same_seed_same_bytes);
    tcase_add_test(harness_tcase(s, "set_args"), set_args_overrides_the_workload);
    tcase_add_test(harness_tcase(s, "set_platform"), set_platform_key_changes_the_result);
    tcase_add_test(harness_tcase(s, "set_unknown"), unknown_set_key_lists_valid_keys);
    tcase_add_test(harness_tcase(s, "app_failure"), app_failure_writes_nothing);
    tcase_add_test(harness_tcase(s, "check_fails"), check_fails_outside_tolerance);
    tcase_add_test(harness_tcase(s, "check_passes"), check_passes_within_tolerance);
    tcase_add_test(harness_tcase(s, "plot"), plot_writes_png);
    tcase_add_test(harness_tcase(s, "plot_ymin"), plot_ymin_moves_the_axis);
    tcase_add_test(harness_tcase(s, "trace"), trace_writes_vcd);
    tcase_add_test(harness_tcase(s, "tutorial"), tutorial_meets_its_reference);
    /* Its own suite, so TSan runs (TEST_SUITES=native) cover the native backend. */
    tcase_add_test(harness_tcase(harness_suite("cli-native"), "native_run"), native_run_writes_csv);
}
