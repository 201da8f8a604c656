/* keep_names.c -- variants whose series keep their names (keep_names:
 * true): runs that differ in x extend one series, as boards 1..4 make one
 * strong-scaling curve. The fixture runs the ping-pong on ideal at 1024
 * bytes over link.latency_ns 100 (the base), at 4 bytes over 1000 and at 64
 * over 600 (two keep_names variants): 2598, 4158 and 2678 ns by the closed
 * form 2n + 4L + 150 (docs/ideal.md); the variant 'slow' (300 ns) keeps the
 * usual <series>_slow. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define KEEP "tests/cli/data/keep_names.yaml"

START_TEST(variants_extend_one_series)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " KEEP " --check --out '%s'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    char *csv = cli_read("%s/keep_names.csv", t);
    ck_assert_ptr_nonnull(csv);
    /* One series, its points in run order (base, then each variant in file
     * order), then the other variant's series of its own. */
    const char *base = strstr(csv, "\nroundtrip_ns,1024,2598,ns,"),
               *l1000 = strstr(csv, "\nroundtrip_ns,4,4158,ns,"),
               *l600 = strstr(csv, "\nroundtrip_ns,64,2678,ns,"),
               *slow = strstr(csv, "\nroundtrip_ns_slow,1024,3398,ns,");
    ck_assert_msg(base && l1000 && l600 && slow && base < l1000 && l1000 < l600 && l600 < slow,
                  "%s", csv);
    ck_assert_int_eq(cli_lines(csv), 5);
    ck_assert_msg(!strstr(csv, "_l1000") && !strstr(csv, "_l600"), "%s", csv);
    /* The reference and the expectation name the plain series and see
     * every run's points: falls in x order (4, 64, 1024), not run order. */
    ck_assert_msg(strstr(r.out, "\ncheck: 3 of 3 paper points within tolerance; 1 of 1 "
                                "expectation holds\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nexpect  roundtrip_ns falls as x grows (2 of 2 steps, x 4 -> "
                                "1024): least fall 2678 -> 2598 (x 64 -> 1024): ok\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nvariant l1000 (series <series>): link.latency_ns=1000, "
                                "args.sizes=4\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nvariant slow (series <series>_slow): link.latency_ns=300\n"),
                  "%s", r.out);
    char *meta = cli_read("%s/keep_names.meta.yaml", t);
    ck_assert_ptr_nonnull(meta);
    ck_assert_msg(strstr(meta, "  - name: \"l600\"\n    set: [\"link.latency_ns=600\", "
                               "\"args.sizes=64\"]\n    series: \"<series>\"\n"),
                  "%s", meta);
    ck_assert_msg(strstr(meta, "    series: \"<series>_slow\"\n"), "%s", meta);
    cli_done();
}
END_TEST

/* Two runs with a point of one series at one x: exit 2 after the runs, one
 * line naming the series, the x and both runs, on the later variant's line;
 * nothing written. */
static void duplicate_refused(const char *variants, int line, const char *want)
{
    const char *t = cli_tmp();
    char text[4096], path[4200], at[4400];
    snprintf(text, sizeof text,
             "title: duplicate x\n"
             "platform: ideal\n"
             "mapping: {ping: 0, pong: 1}\n"
             "workload: {app: pingpong, args: {sizes: [4, 64], reps: 2, warmup: 1}}\n"
             "variants:\n%s",
             variants);
    snprintf(path, sizeof path, "%s/dup.yaml", t);
    cli_write(text, "%s", path);
    struct cli_out r = cli_run("run '%s' --out '%s/out'", path, t);
    ck_assert_msg(r.status == 2, "exit %d for:\n%s\n%s%s", r.status, text, r.out, r.err);
    snprintf(at, sizeof at, "%s:%d: %s", path, line, want);
    ck_assert_msg(strncmp(r.err, at, strlen(at)) == 0 && cli_lines(r.err) == 1,
                  "want \"%s...\", got:\n%s", at, r.err);
    ck_assert_str_eq(r.out, "");
    char out[4200];
    snprintf(out, sizeof out, "%s/out", t);
    ck_assert_int_eq(cli_entries(out), 0);
}

START_TEST(same_x_twice_is_an_error)
{
    duplicate_refused("  - name: b2\n"               /* 6 */
                      "    keep_names: true\n"       /* 7 */
                      "    set: {args.sizes: 64}\n", /* 8 */
                      6,
                      "series roundtrip_ns has a point at x=64 from two runs, base and "
                      "variant b2 (keep_names: true");
    /* Between two variants, the later is named second. */
    duplicate_refused("  - name: b2\n"                                       /* 6 */
                      "    keep_names: true\n"                               /* 7 */
                      "    set: {args.sizes: 1024}\n"                        /* 8 */
                      "  - name: slow\n"                                     /* 9 */
                      "    set: {link.latency_ns: 300}\n"                    /* 10 */
                      "  - name: b3\n"                                       /* 11 */
                      "    keep_names: true\n"                               /* 12 */
                      "    set: {args.sizes: 1024, link.latency_ns: 200}\n", /* 13 */
                      11,
                      "series roundtrip_ns has a point at x=1024 from two runs, variant b2 "
                      "and variant b3");
    cli_done();
}
END_TEST

/* keep_names takes true or false; a keep_names variant has no series
 * <series>_<name>, and naming one says where its points are. */
START_TEST(keep_names_rules)
{
    const char *t = cli_tmp();
    struct {
        const char *tail;
        int line;
        const char *want;
    } cases[] = {
        {"    keep_names: maybe\n", 8, "'keep_names' must be true or false, not 'maybe'"},
        {"    keep_names: [roundtrip_ns, nope]\n", 8,
         "keep_names lists 'nope', which app pingpong does not report"},
        {"    keep_names: [roundtrip_ns]\nplots:\n  - id: p\n    series: [roundtrip_ns_b2]\n", 11,
         "plot 'p' names series 'roundtrip_ns_b2', but variant 'b2' keeps its series' names "
         "(keep_names lists it, "},
        {"    keep_names: true\nplots:\n  - id: p\n    series: [roundtrip_ns_b2]\n", 11,
         "plot 'p' names series 'roundtrip_ns_b2', but variant 'b2' keeps its series' names "
         "(keep_names: true, "},
        {"    keep_names: true\nreference:\n  - series: roundtrip_ns_b2\n    source: s\n"
         "    points: {8: 1}\n",
         10, "reference names series 'roundtrip_ns_b2', but variant 'b2' keeps its series' names"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[4096], path[4200], at[4400];
        snprintf(text, sizeof text,
                 "title: rules\n"
                 "platform: ideal\n"
                 "mapping: {ping: 0, pong: 1}\n"
                 "workload: {app: pingpong, args: {sizes: [4], reps: 2, warmup: 1}}\n"
                 "variants:\n"
                 "  - name: b2\n"
                 "    set: {args.sizes: 8}\n"
                 "%s",
                 cases[i].tail);
        snprintf(path, sizeof path, "%s/k%zu.yaml", t, i);
        cli_write(text, "%s", path);
        struct cli_out r = cli_run("run '%s' --out '%s/out'", path, t);
        ck_assert_msg(r.status == 2, "exit %d for:\n%s\n%s%s", r.status, text, r.out, r.err);
        snprintf(at, sizeof at, "%s:%d: ", path, cases[i].line);
        ck_assert_msg(strncmp(r.err, at, strlen(at)) == 0 && strstr(r.err, cases[i].want) &&
                          cli_lines(r.err) == 1,
                      "want \"%s...%s\", got:\n%s\nfor:\n%s", at, cases[i].want, r.err, text);
    }
    cli_done();
}
END_TEST

/* keep_names: [series]: the listed series keep their names (here the one
 * series of pingpong: one series at x 4 and 8, none with _b2). */
START_TEST(keep_names_list)
{
    const char *t = cli_tmp();
    char path[4200];
    snprintf(path, sizeof path, "%s/list.yaml", t);
    cli_write("title: list\n"
              "platform: ideal\n"
              "mapping: {ping: 0, pong: 1}\n"
              "workload: {app: pingpong, args: {sizes: [4], reps: 2, warmup: 1}}\n"
              "variants:\n"
              "  - name: b2\n"
              "    keep_names: [roundtrip_ns]\n"
              "    set: {args.sizes: 8}\n",
              "%s", path);
    struct cli_out r = cli_run("run '%s' --out '%s/out'", path, t);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    char *c = cli_read("%s/out/list.csv", t);
    ck_assert_ptr_nonnull(c);
    ck_assert_msg(strstr(c, "\nroundtrip_ns,4,") && strstr(c, "\nroundtrip_ns,8,") &&
                      !strstr(c, "_b2"),
                  "%s", c);
    cli_done();
}
END_TEST

/* The report names the variant with its plain series. */
START_TEST(report_lists_keep_names)
{
    char *yaml = cli_read(KEEP);
    ck_assert_ptr_nonnull(yaml);
    char *md = cli_report_of(yaml, "keep");
    ck_assert_msg(strstr(md, "\n- Variant `l600` (series `<series>`): link.latency_ns=600, "
                             "args.sizes=64; a link 500 ns slower each way\n"),
                  "%s", md);
    ck_assert_msg(strstr(md, "| grp/keep | CLI test: keep_names | 3 of 3; expectations: 1 of 1 "
                             "hold |"),
                  "%s", md);
    cli_done();
}
END_TEST

void cli_register_keep_names(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "keep_names_series"), variants_extend_one_series);
    tcase_add_test(harness_tcase(s, "keep_names_same_x"), same_x_twice_is_an_error);
    tcase_add_test(harness_tcase(s, "keep_names_rules"), keep_names_rules);
    tcase_add_test(harness_tcase(s, "keep_names_list"), keep_names_list);
    tcase_add_test(harness_tcase(s, "keep_names_report"), report_lists_keep_names);
}
