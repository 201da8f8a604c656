/* variants.c -- a scenario's `variants:`: the same workload run again with
 * more overrides, its series renamed <series>_<name>, all in one CSV. The
 * fixture runs the ping-pong on ideal with link.latency_ns 100 (the base)
 * and 300 (the variant 'slow'): four link latencies per round trip, so the
 * variant's round trip is 800 ns longer at every size (docs/ideal.md). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VARIANTS "tests/cli/data/variants.yaml"

/* Run `ipcsim run FILE OPTS --out <tmp>`; it must exit with status. */
static struct cli_out run_fixture(const char *file, const char *opts, int status)
{
    struct cli_out r = cli_run("run %s %s --out '%s'", file, opts, cli_tmp());
    ck_assert_msg(r.status == status, "%s %s: exit %d, not %d:\n%s%s", file, opts, r.status, status,
                  r.out, r.err);
    return r;
}

/* The value of series at x in csv, which must have that row. */
static double value_of(const char *csv, const char *series, const char *x)
{
    double v = cli_csv_value(csv, series, x);
    ck_assert_msg(v > 0, "no %s,%s, row in:\n%s", series, x, csv);
    return v;
}

/* --variants none runs the base alone (its outputs tagged); --variants slow
 * the base and slow; an unknown name is an error naming the declared ones. */
START_TEST(only_some_variants)
{
    struct cli_out r = run_fixture(VARIANTS, "--variants none --quiet", 0);
    char *meta = NULL;
    ck_assert_msg(strstr(r.out, "\nwrote ") && strstr(r.out, "variants+"), "%s", r.out);
    const char *w = strstr(r.out, "variants+");
    char stem[64] = "";
    ck_assert_int_eq(sscanf(w, "%63[^.].csv", stem), 1);
    char *csv = cli_read("%s/%s.csv", cli_tmp(), stem);
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(strstr(csv, "\nroundtrip_ns,4,") && !strstr(csv, "roundtrip_ns_slow,4,1358,ns"),
                  "%s", csv);
    meta = cli_read("%s/%s.meta.yaml", cli_tmp(), stem);
    ck_assert_msg(meta && !strstr(meta, "\nvariants:\n"), "%s", meta ? meta : "(none)");
    r = run_fixture(VARIANTS, "--variants slow --quiet", 0);
    ck_assert_msg(strstr(r.out, "\nvariant slow (series <series>_slow)"), "%s", r.out);
    r = run_fixture(VARIANTS, "--variants slow,fast", 2);
    ck_assert_msg(strstr(r.err, "--variants: tests/cli/data/variants.yaml has no variant 'fast' "
                                "(variants: slow)"),
                  "%s", r.err);
    cli_done();
}
END_TEST

START_TEST(variant_series_in_one_csv)
{
    struct cli_out r = run_fixture(VARIANTS, "", 0);
    char *csv = cli_read("%s/variants.csv", cli_tmp());
    ck_assert_ptr_nonnull(csv);
    /* The base's series keep their names and come first; the variant's are
     * renamed and follow, in one file. */
    const char *base = strstr(csv, "\nroundtrip_ns,4,"),
               *slow = strstr(csv, "\nroundtrip_ns_slow,4,");
    ck_assert_msg(base && slow && base < slow, "%s", csv);
    ck_assert_int_eq(cli_lines(csv), 5); /* the header, 2 x 2 points */
    /* The override moves the variant's values the way the closed form says. */
    ck_assert_double_eq(value_of(csv, "roundtrip_ns", "4"), 558);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns", "1024"), 2598);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns_slow", "4"), 558 + 800);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns_slow", "1024"), 2598 + 800);
    /* The table's header names the variant, its overrides and description. */
    ck_assert_msg(strstr(r.out, "\nvariant slow (series <series>_slow): link.latency_ns=300; a "
                                "link 200 ns slower each way\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nexpect  roundtrip_ns_slow above roundtrip_ns at every x (2 of "
                                "2): ok\n"),
                  "%s", r.out);
    ck_assert_str_eq(r.err, "");
    /* The metadata records the variant's overrides and its run's host time. */
    char *meta = cli_read("%s/variants.meta.yaml", cli_tmp());
    ck_assert_ptr_nonnull(meta);
    ck_assert_msg(strstr(meta,
                         "\nvariants:\n  - name: \"slow\"\n    set: [\"link.latency_ns=300\"]\n"
                         "    series: \"<series>_slow\"\n    host_seconds: "),
                  "%s", meta);
    ck_assert_msg(strstr(meta, "\nhost_seconds: "), "%s", meta);
    cli_done();
}
END_TEST

/* A reference on a variant's series is judged like any other: the
 * fixture's pass; the base's numbers given as the variant's fail, by 800 ns. */
START_TEST(check_judges_variant_references)
{
    struct cli_out r = run_fixture(VARIANTS, "--check", 0);
    ck_assert_msg(strstr(r.out, "\ncheck: 4 of 4 paper points within tolerance; 1 of 1 "
                                "expectation holds\n"),
                  "%s", r.out);

    char *yaml = cli_read(VARIANTS);
    ck_assert_ptr_nonnull(yaml);
    char *at = strstr(yaml, "      4: 1358\n      1024: 3398\n");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "      4: 558 \n      1024: 2598", 30); /* the base's values, same length */
    char path[4200];
    snprintf(path, sizeof path, "%s/wrong.yaml", cli_tmp());
    cli_write(yaml, "%s", path);
    r = run_fixture(path, "--check", 1);
    ck_assert_msg(strstr(r.err, "check failed: roundtrip_ns_slow x=4: 1358 vs paper 558: error "
                                "+143.4% outside ±1%\n"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "check failed: roundtrip_ns_slow x=1024: 3398 vs paper 2598"), "%s",
                  r.err);
    ck_assert_msg(!strstr(r.err, "roundtrip_ns x="), "the base passes: %s", r.err);
    ck_assert_msg(strstr(r.out, "\ncheck: 2 of 4 paper points within tolerance"), "%s", r.out);
    cli_done();
}
END_TEST

/* --set reaches every run, after the variant's own set: a slower byte rate
 * moves both series alike; a --set of the variant's key overrides it, and
 * the two series become one. */
START_TEST(set_reaches_variants)
{
    struct cli_out r = run_fixture(VARIANTS, "--set link.bandwidth_MBps=500", 0);
    char *csv = cli_wrote_csv(&r);
    ck_assert_ptr_nonnull(csv);
    /* 2 ns a byte: T_rt = 4 n + 558 (docs/ideal.md), the variant 800 above. */
    ck_assert_double_eq(value_of(csv, "roundtrip_ns", "1024"), 4 * 1024 + 558);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns_slow", "1024"), 4 * 1024 + 558 + 800);

    r = run_fixture(VARIANTS, "--set link.latency_ns=200", 0);
    csv = cli_wrote_csv(&r);
    ck_assert_ptr_nonnull(csv);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns", "4"), 558 + 400);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns_slow", "4"), 558 + 400);
    cli_done();
}
END_TEST

/* A variant's set: takes app arguments too (args.<name>). */
START_TEST(variant_sets_app_arguments)
{
    const char *t = cli_tmp();
    cli_write("title: args in a variant\n"
              "platform: ideal\n"
              "mapping: {ping: 0, pong: 1}\n"
              "workload: {app: pingpong, args: {sizes: [4, 1024], reps: 2, warmup: 1}}\n"
              "variants:\n"
              "  - name: one\n"
              "    set: {args.sizes: 64}\n",
              "%s/a.yaml", t);
    struct cli_out r = cli_run("run '%s/a.yaml' --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *csv = cli_read("%s/a.csv", t);
    ck_assert_ptr_nonnull(csv);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns_one", "64"), 2 * 64 + 550);
    ck_assert_msg(!strstr(csv, "roundtrip_ns_one,4,"), "%s", csv);
    ck_assert_double_eq(value_of(csv, "roundtrip_ns", "4"), 558);
    cli_done();
}
END_TEST

/* An app failure in a variant's run fails the whole run: exit 2, the
 * variant named, nothing written (not even the base's results). */
START_TEST(variant_failure_writes_nothing)
{
    const char *t = cli_tmp();
    cli_write("title: a variant that fails\n"
              "platform: ideal\n"
              "mapping: {ping: 0, pong: 1}\n"
              "workload: {app: pingpong, args: {sizes: [4], reps: 2, warmup: 1}}\n"
              "variants:\n"
              "  - name: big\n"
              "    set: {memory.bytes: 65536, args.sizes: 1048576}\n",
              "%s/f.yaml", t);
    struct cli_out r = cli_run("run '%s/f.yaml' --out '%s/out'", t, t);
    ck_assert_int_eq(r.status, 2);
    char want[4200];
    snprintf(want, sizeof want, "%s/f.yaml: variant big: app pingpong failed on core", t);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "no memory for a 2097152-byte buffer"), "%s", r.err);
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_int_eq(cli_entries(out), 0);
    cli_done();
}
END_TEST

/* The native backend runs the variants too. */
START_TEST(native_runs_variants)
{
    struct cli_out r = run_fixture(VARIANTS, "--backend native", 0);
    char *csv = cli_wrote_csv(&r);
    ck_assert_ptr_nonnull(csv);
    const char *rows[][2] = {
        {"roundtrip_ns", "4"},
        {"roundtrip_ns", "1024"},
        {"roundtrip_ns_slow", "4"},
        {"roundtrip_ns_slow", "1024"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        (void)value_of(csv, rows[i][0], rows[i][1]);
    cli_done();
}
END_TEST

/* --trace traces the base run: its VCD ends where the base's simulation
 * does (19.4 us), not the slower variant's (29.6 us). */
START_TEST(trace_is_of_the_base)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " VARIANTS " --trace '%s/tr' --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *vcd = cli_read("%s/tr/variants.vcd", t);
    ck_assert_ptr_nonnull(vcd);
    ck_assert_msg(strstr(vcd, "$timescale 1 ps $end"), "%.300s", vcd);
    const char *last = strrchr(vcd, '#');
    ck_assert_ptr_nonnull(last);
    double end_ps = strtod(last + 1, NULL);
    ck_assert_msg(end_ps > 15e6 && end_ps < 25e6, "the trace ends at %g ps", end_ps);
    cli_done();
}
END_TEST

/* The report names the variant and has a table of its series. */
START_TEST(report_lists_variants)
{
    char *yaml = cli_read(VARIANTS);
    ck_assert_ptr_nonnull(yaml);
    char *md = cli_report_of(yaml, "var");
    ck_assert_msg(strstr(md, "\n- Variant `slow` (series `<series>_slow`): link.latency_ns=300; a "
                             "link 200 ns slower each way\n"),
                  "%s", md);
    ck_assert_msg(strstr(md, "\n**roundtrip_ns_slow** (ns)\n"), "%s", md);
    ck_assert_msg(
        strstr(md, "| grp/var | CLI test: variants | 4 of 4; expectations: 1 of 1 hold |"), "%s",
        md);
    cli_done();
}
END_TEST

/* On a terminal the progress line says which run is going. */
START_TEST(progress_names_the_variant)
{
    struct cli_out r = cli_sh("IPCSIM_PROGRESS_AFTER=0 script -qec \"'%s/ipcsim' run " VARIANTS
                              " --out '%s'\" /dev/null </dev/null",
                              cli_build(), cli_tmp());
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "\ripcsim: run 1 of 2, variant slow: "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\ripcsim: run 2 of 2, base: "), "%s", r.out);
    cli_done();
}
END_TEST

/* The start of a scenario with one good variant; each error case adds
 * lines from line 9 on. */
static const char head[] = "title: variant errors\n"       /* 1 */
                           "platform: ideal\n"             /* 2 */
                           "mapping: {ping: 0, pong: 1}\n" /* 3 */
                           "workload: {app: pingpong, args: {sizes: [4], reps: 2, warmup: 1}}\n"
                           "variants:\n"                   /* 5 */
                           "  - name: slow\n"              /* 6 */
                           "    set:\n"                    /* 7 */
                           "      link.latency_ns: 300\n"; /* 8 */

/* head + tail must fail to load: exit 2, nothing run, the one error line
 * "FILE:LINE: ..." containing want. */
static void refused(const char *tail, int line, const char *want)
{
    char text[4096], path[4200], at[4400];
    snprintf(text, sizeof text, "%s%s", head, tail);
    snprintf(path, sizeof path, "%s/bad.yaml", cli_tmp());
    cli_write(text, "%s", path);
    struct cli_out r = cli_run("run '%s' --out '%s/out'", path, cli_tmp());
    ck_assert_msg(r.status == 2, "exit %d for:\n%s\n%s%s", r.status, text, r.out, r.err);
    snprintf(at, sizeof at, "%s:%d: ", path, line);
    ck_assert_msg(strncmp(r.err, at, strlen(at)) == 0 && strstr(r.err, want) &&
                      cli_lines(r.err) == 1,
                  "want \"%s...%s\", got:\n%s", at, want, r.err);
    ck_assert_str_eq(r.out, "");
}

START_TEST(bad_variants_refused)
{
    refused("  - name: slow\n    set: {link.latency_ns: 500}\n", 9,
            "a variant named 'slow' exists already (line 6)");
    refused("  - name: Fast\n    set: {link.latency_ns: 500}\n", 9,
            "variant name 'Fast' must be lowercase letters, digits or '_'");
    refused("  - name: a-b\n    set: {link.latency_ns: 500}\n", 9, "variant name 'a-b'");
    refused("  - set: {link.latency_ns: 500}\n", 9, "name");
    refused("  - name: fast\n    description: no set\n", 9, "set");
    refused("  - name: fast\n    set: {}\n", 10, "variant 'fast' sets nothing");
    refused("  - name: fast\n    sett: {link.latency_ns: 500}\n", 10, "sett");
    refused("  - name: fast\n    set: {link.latency_ns: [1, 2]}\n", 10, "link.latency_ns");
    /* An override's error is the one set: gives, on the variant's line. */
    refused("  - name: fast\n    set:\n      link.latncy_ns: 50\n", 11,
            "variant fast: set link.latncy_ns: unknown key");
    refused("  - name: fast\n    set:\n      link.latency_ns: quick\n", 11,
            "variant fast: set link.latency_ns: expects a number");
    refused("  - name: fast\n    set:\n      args.reps: 0\n", 11, "argument 'reps' is 0");
    refused("  - name: fast\n    set:\n      cores: 1\n", 3,
            "the platform has 1 core (0..0) (in variant 'fast', ");
    refused("plots:\n  - id: p\n    series: [roundtrip_ns, roundtrip_ns_fast]\n", 11,
            "plot 'p' names series 'roundtrip_ns_fast': roundtrip_ns of a variant 'fast', but "
            "no variant has that name (variants: slow)");
    refused("reference:\n  - series: roundtrip_ns_fast\n    source: x\n    points: {4: 1}\n", 10,
            "reference names series 'roundtrip_ns_fast': roundtrip_ns of a variant 'fast'");
    cli_done();
}
END_TEST

/* Plots and references may name a declared variant's series; a plot of an
 * unknown series lists the variants' among the choices. */
START_TEST(variant_series_are_known_to_plots)
{
    refused("plots:\n  - id: p\n    series: [nope]\n", 11,
            "the series are: roundtrip_ns, roundtrip_ns_slow");
    char text[4096], path[4200];
    snprintf(text, sizeof text,
             "%splots:\n  - id: p\n    series: [roundtrip_ns_slow]\nreference:\n  - series: "
             "roundtrip_ns_slow\n    source: x\n    points: {4: 1358}\n",
             head);
    snprintf(path, sizeof path, "%s/ok.yaml", cli_tmp());
    cli_write(text, "%s", path);
    struct cli_out r = cli_run("run '%s' --check --out '%s'", path, cli_tmp());
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    cli_done();
}
END_TEST

void cli_register_variants(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "variants_csv"), variant_series_in_one_csv);
    tcase_add_test(harness_tcase(s, "variants_only"), only_some_variants);
    tcase_add_test(harness_tcase(s, "variants_check"), check_judges_variant_references);
    tcase_add_test(harness_tcase(s, "variants_set"), set_reaches_variants);
    tcase_add_test(harness_tcase(s, "variants_args"), variant_sets_app_arguments);
    tcase_add_test(harness_tcase(s, "variants_fail"), variant_failure_writes_nothing);
    tcase_add_test(harness_tcase(s, "variants_native"), native_runs_variants);
    tcase_add_test(harness_tcase(s, "variants_trace"), trace_is_of_the_base);
    tcase_add_test(harness_tcase(s, "variants_report"), report_lists_variants);
    tcase_add_test(harness_tcase(s, "variants_progress"), progress_names_the_variant);
    tcase_add_test(harness_tcase(s, "variants_bad"), bad_variants_refused);
    tcase_add_test(harness_tcase(s, "variants_plots"), variant_series_are_known_to_plots);
}
