/* errors.c -- every mistake in a scenario file is one "FILE:LINE: message"
 * on stderr, exit 2, and nothing in --out. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* A valid scenario is these lines; each case changes one thing. */
#define TITLE "title: t\n"
#define PLATFORM "platform: ideal\n"
#define MAPPING "mapping: {ping: 0, pong: 1}\n"
#define WORKLOAD "workload:\n  app: pingpong\n"
#define ARGS "  args: {sizes: [4], reps: 1, warmup: 0}\n"

static const struct bad {
    const char *name, *text;
    int line;
    const char *says;
} bad[] = {
    {"syntax", TITLE PLATFORM "description: a: b\n" MAPPING WORKLOAD, 3, "YAML syntax error"},
    {"syntax_flow", TITLE PLATFORM MAPPING "workload: {app: pingpong\n", 5, "YAML syntax error"},
    {"unknown_key", TITLE PLATFORM "colour: red\n" MAPPING WORKLOAD, 3, "unknown key 'colour'"},
    {"unknown_nested", TITLE PLATFORM MAPPING WORKLOAD "  argz: {}\n", 6,
     "unknown key 'workload.argz' (did you mean 'args'?)"},
    {"wrong_type", TITLE PLATFORM "mapping: {ping: zero, pong: 1}\n" WORKLOAD, 3,
     "'mapping.ping' must be a whole number"},
    {"wrong_type_title", "title: [a, b]\n" PLATFORM MAPPING WORKLOAD, 1,
     "'title' must be a single value"},
    {"missing_title", PLATFORM MAPPING WORKLOAD, 1, "missing required key 'title'"},
    {"missing_platform", TITLE "platform: nosuch\n" MAPPING WORKLOAD, 2,
     "unknown platform 'nosuch'; known platforms: funbase, ideal"},
    {"missing_platform_file", TITLE "platform: ../nope.yaml\n" MAPPING WORKLOAD, 2, "no such file"},
    {"unknown_app", TITLE PLATFORM MAPPING "workload:\n  app: pingpang\n", 5,
     "unknown app 'pingpang'; known apps: pingpong"},
    {"unknown_role", TITLE PLATFORM "mapping: {ping: 0, pang: 1}\n" WORKLOAD, 3,
     "unknown role 'pang' of app pingpong; its roles are: ping, pong"},
    {"core_range", TITLE PLATFORM "mapping: {ping: 0, pong: 2}\n" WORKLOAD, 3,
     "the platform has 2 cores"},
    {"core_range_after_set", TITLE PLATFORM "set: {cores: 1}\n" MAPPING WORKLOAD, 4,
     "the platform has 1 core (0..0)"},
    {"core_twice", TITLE PLATFORM "mapping: {ping: 1, pong: 1}\n" WORKLOAD, 3,
     "core 1 already runs role 'ping'"},
    {"role_unmapped", TITLE PLATFORM "mapping: {ping: 0}\n" WORKLOAD, 3,
     "role 'pong' of app pingpong is not mapped"},
    {"unknown_arg", TITLE PLATFORM MAPPING WORKLOAD "  args:\n    repz: 3\n", 7,
     "unknown argument 'repz' of app pingpong; valid arguments are: sizes, reps, warmup"},
    {"bad_arg_type", TITLE PLATFORM MAPPING WORKLOAD "  args:\n    sizes: [4, big]\n", 7,
     "argument 'sizes' must be a list of whole numbers; element 1 is 'big'"},
    {"bad_arg_int", TITLE PLATFORM MAPPING WORKLOAD "  args:\n    reps: 2.5\n", 7,
     "argument 'reps' must be a whole number, not '2.5'"},
    {"set_unknown", TITLE PLATFORM "set:\n  link.nope: 1\n" MAPPING WORKLOAD, 4,
     "set link.nope: unknown key; valid keys are: "},
    {"set_not_number", TITLE PLATFORM "set:\n  link.latency_ns: slow\n" MAPPING WORKLOAD, 4,
     "set link.latency_ns: expects a number"},
    {"set_bad_value", TITLE PLATFORM "set:\n  cores: 2.5\n" MAPPING WORKLOAD, 4,
     "'cores' must be a whole number, not '2.5'"},
    {"set_fractional_cost", TITLE PLATFORM "set:\n  core.costs.irq: 2.5\n" MAPPING WORKLOAD, 4,
     "'core.costs.irq' must be a whole number, not '2.5'"},
    {"reference_no_source",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "reference:\n  - series: roundtrip_ns\n"
                                          "    points: {4: 100}\n",
     8, "missing required key 'source'"},
    {"reference_not_list", TITLE PLATFORM MAPPING WORKLOAD ARGS "reference: {a: 1}\n", 7,
     "'reference' must be a list"},
    {"reference_zero",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "reference:\n  - series: roundtrip_ns\n"
                                          "    source: s\n    points:\n      4: 0\n",
     11, "must not be 0"},
    {"plot_unknown_key",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "plots:\n  - id: a\n    colour: red\n", 9,
     "unknown key 'plots.0.colour'"},
    {"plot_bad_bool", TITLE PLATFORM MAPPING WORKLOAD ARGS "plots:\n  - id: a\n    logx: maybe\n",
     9, "'logx' must be true or false"},
    {"plot_bad_ymin", TITLE PLATFORM MAPPING WORKLOAD ARGS "plots:\n  - id: a\n    ymin: low\n", 9,
     "'plots.0.ymin' must be a number, not 'low'"},
    {"plot_ymin_log",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "plots:\n  - id: a\n    logy: true\n    ymin: 0\n", 10,
     "plot 'a': ymin 0 on a log y axis (logy: true) must be above 0"},
    {"plot_bad_id", TITLE PLATFORM MAPPING WORKLOAD ARGS "plots:\n  - id: ../x\n", 8,
     "plot id '../x' must be letters"},
    {"expect_bad_relation",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: abov\n"
                                          "    than: b\n    why: w\n",
     9,
     "unknown relation 'abov'; relations are: above, below, grows_more, grows_less, near, ratio, "
     "at_least, at_most, falls, rises"},
    {"expect_no_why",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: above\n"
                                          "    than: b\n",
     8, "missing required key 'why'"},
    {"expect_empty_why",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: above\n"
                                          "    than: b\n    why: \"\"\n",
     11, "'why' must name the claim's source"},
    {"expect_no_than",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: above\n"
                                          "    why: w\n",
     8, "relation above relates two series: than: (series B) is required"},
    {"expect_unknown_key",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: above\n"
                                          "    than: b\n    why: w\n    becuase: x\n",
     12, "unknown key 'expect.0.becuase'"},
    {"expect_itself",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: above\n"
                                          "    than: a\n    why: w\n",
     8, "expect compares series 'a' with itself"},
    {"expect_below_margin",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: below\n"
                                          "    than: b\n    why: w\n    margin_pct: 100\n",
     12, "margin_pct 100 with relation below must be under 100"},
    {"expect_near_no_than",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: near\n"
                                          "    margin_pct: 5\n    why: w\n",
     8, "relation near relates two series: than: (series B) is required"},
    {"expect_than_one_series",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: falls\n"
                                          "    why: w\n    than: b\n",
     11, "relation falls judges one series (series:); than: is not for it"},
    {"expect_than_at_least",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: at_least\n"
                                          "    value: 1\n    than: b\n    why: w\n",
     11, "relation at_least judges one series"},
    {"expect_no_value",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: at_least\n"
                                          "    why: w\n",
     8, "relation at_least needs value: (the number A is held to)"},
    {"expect_ratio_no_value",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: ratio\n"
                                          "    than: b\n    margin_pct: 5\n    why: w\n",
     8, "relation ratio needs value: (the number A/B is held to)"},
    {"expect_ratio_value_zero",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: ratio\n"
                                          "    than: b\n    margin_pct: 5\n    value: 0\n"
                                          "    why: w\n",
     12, "relation ratio: value 0 must be above 0"},
    {"expect_value_not_taken",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: rises\n"
                                          "    value: 3\n    why: w\n",
     10, "relation rises takes no value:"},
    {"expect_near_no_margin",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: near\n"
                                          "    than: b\n    why: w\n",
     8, "relation near needs margin_pct, above 0"},
    {"expect_near_zero_margin",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: near\n"
                                          "    than: b\n    why: w\n    margin_pct: 0\n",
     12, "margin_pct 0 with relation near must be above 0"},
    {"expect_bound_margin",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: at_most\n"
                                          "    value: 3\n    margin_pct: 5\n    why: w\n",
     11, "relation at_most takes no margin_pct"},
    {"expect_falls_margin",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: falls\n"
                                          "    margin_pct: 100\n    why: w\n",
     10, "margin_pct 100 with relation falls must be under 100"},
    {"expect_from_above_to",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: rises\n"
                                          "    from: 4096\n    to: 1024\n    why: w\n",
     11, "to: 1024 is below from: 4096 (only points with from <= x <= to count)"},
    {"expect_from_not_number",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: rises\n"
                                          "    from: 4k\n    why: w\n",
     10, "'expect.0.from' must be a number, not '4k'"},
    {"expect_to_not_number",
     TITLE PLATFORM MAPPING WORKLOAD ARGS "expect:\n  - series: a\n    relation: above\n"
                                          "    than: b\n    to: [1]\n    why: w\n",
     11, "'expect.0.to' must be a number, not a list"},
    {"expect_not_list", TITLE PLATFORM MAPPING WORKLOAD ARGS "expect: {series: a}\n", 7,
     "'expect' must be a list"},
    {"not_a_map", "- a\n- b\n", 1, "a scenario is a map"},
};

START_TEST(bad_scenario_is_one_located_error)
{
    const struct bad *b = &bad[_i];
    const char *t = cli_tmp();
    char file[4200], out[4200], prefix[4400];
    snprintf(file, sizeof file, "%s/%s.yaml", t, b->name);
    snprintf(out, sizeof out, "%s/out", t);
    snprintf(prefix, sizeof prefix, "%s:%d: ", file, b->line);
    cli_write(b->text, "%s", file);
    struct cli_out r = cli_run("run '%s' --plot --out '%s'", file, out);
    ck_assert_msg(r.status == 2, "%s: exit %d\n%s%s", b->name, r.status, r.out, r.err);
    ck_assert_msg(cli_lines(r.err) == 1, "%s: expected one error line:\n%s", b->name, r.err);
    ck_assert_msg(strncmp(r.err, prefix, strlen(prefix)) == 0, "%s: expected %s...:\n%s", b->name,
                  prefix, r.err);
    ck_assert_msg(strstr(r.err, b->says), "%s: expected \"%s\":\n%s", b->name, b->says, r.err);
    ck_assert_msg(cli_entries(out) == 0, "%s: files left in --out", b->name);
    cli_done();
}
END_TEST

/* Errors inside the platform file name the platform file's line. */
START_TEST(bad_platform_file_names_its_line)
{
    const char *t = cli_tmp();
    cli_write("platform: ideal\ncores: [2\n", "%s/plat/broken.yaml", t);
    cli_write(TITLE "platform: plat/broken.yaml\n" MAPPING WORKLOAD, "%s/s.yaml", t);
    struct cli_out r = cli_run("run '%s/s.yaml' --out '%s/out'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_int_eq(cli_lines(r.err), 1);
    char want[4200];
    snprintf(want, sizeof want, "%s/plat/broken.yaml:", t);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0 && strstr(r.err, "YAML syntax error"),
                  "expected %s...:\n%s", want, r.err);
    cli_done();
}
END_TEST

/* A value out of a kind's range names its line in the platform file: the
 * sw26010 chip has 1 to 4 core groups. */
START_TEST(bad_cgs_names_its_line)
{
    const char *t = cli_tmp();
    char *text = cli_read("platforms/sw26010.yaml");
    ck_assert_ptr_nonnull(text);
    char *at = strstr(text, "\ncgs: 1");
    ck_assert_ptr_nonnull(at);
    at[6] = '5';
    int line = 2;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    cli_write(text, "%s/plat/sw.yaml", t);
    cli_write(TITLE "platform: plat/sw.yaml\n" MAPPING WORKLOAD, "%s/s.yaml", t);
    struct cli_out r = cli_run("run '%s/s.yaml' --out '%s/out'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_int_eq(cli_lines(r.err), 1);
    char want[4200];
    snprintf(want, sizeof want, "%s/plat/sw.yaml:%d:", t, line);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0 && strstr(r.err, "cgs"),
                  "expected %s ... cgs ...:\n%s", want, r.err);
    cli_done();
}
END_TEST

void cli_register_errors(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_loop_test(harness_tcase(s, "bad_scenario"), bad_scenario_is_one_located_error, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(harness_tcase(s, "bad_platform_file"), bad_platform_file_names_its_line);
    tcase_add_test(harness_tcase(s, "bad_cgs"), bad_cgs_names_its_line);
}
