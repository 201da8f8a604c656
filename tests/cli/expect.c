/* expect.c -- `expect:` relations between series: printed after the table,
 * judged by --check, listed in REPORT.md. The fixtures run funbase_roundtrip
 * on the ideal platform, where echo_cycles (N words back) is above
 * roundtrip_cycles (one word back) at 8 and 64 words, equal at 1 word. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define EXPECT "tests/cli/data/expect.yaml"
#define EXPECT_OK "tests/cli/data/expect_ok.yaml"

/* The line of text that starts with prefix (NUL-terminated copy), or NULL. */
static const char *line_starting(const char *text, const char *prefix)
{
    static char line[1024];
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, prefix, strlen(prefix)) != 0) continue;
        size_t n = strcspn(p, "\n");
        if (n >= sizeof line) n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        return line;
    }
    return NULL;
}

/* The line starting with prefix must exist and end with suffix. */
static void assert_line(const char *text, const char *prefix, const char *suffix)
{
    const char *l = line_starting(text, prefix);
    ck_assert_msg(l, "no line \"%s...\" in:\n%s", prefix, text);
    size_t n = strlen(l), m = strlen(suffix);
    ck_assert_msg(n >= m && strcmp(l + n - m, suffix) == 0, "expected \"...%s\", got \"%s\"",
                  suffix, l);
}

/* Run `ipcsim run FILE OPTS --out <tmp>`; it must exit with status. */
static struct cli_out run_fixture(const char *file, const char *opts, int status)
{
    struct cli_out r = cli_run("run %s %s --out '%s'", file, opts, cli_tmp());
    ck_assert_msg(r.status == status, "%s %s: exit %d, not %d:\n%s%s", file, opts, r.status, status,
                  r.out, r.err);
    return r;
}

START_TEST(expectations_that_hold_pass_check)
{
    struct cli_out r = run_fixture(EXPECT_OK, "--check", 0);
    assert_line(r.out, "expect  echo_cycles above roundtrip_cycles at every x (2 of 2)", ": ok");
    assert_line(r.out,
                "expect  roundtrip_cycles grows less than echo_cycles (x 8 -> 64): ", ": ok");
    ck_assert_msg(strstr(r.out, "\ncheck: 2 of 2 expectations hold\n"), "%s", r.out);
    ck_assert_str_eq(r.err, "");
    cli_done();
}
END_TEST

/* regcomm's one claim holds, one paper point misses (the README's tour
 * says why): exit 1, and one expectation "holds", in the singular. */
START_TEST(one_expectation_holds)
{
    struct cli_out r = run_fixture("scenarios/sw26010/regcomm.yaml", "--check", 1);
    ck_assert_msg(strstr(r.out, "; 1 of 1 expectation holds\n"), "%s", r.out);
    ck_assert_msg(strstr(r.err, "regcomm_over_channel x=28x28"), "%s", r.err);
    cli_done();
}
END_TEST

/* Each failing expectation: its line on stdout, a violation naming the
 * scenario's line on stderr, exit 1; those that hold still say ok. */
START_TEST(failing_expectations_fail_check)
{
    struct cli_out r = run_fixture(EXPECT, "--check", 1);
    const char *o = r.out;
    assert_line(o, "expect  echo_cycles above roundtrip_cycles at every x (2 of 2)", ": ok");
    assert_line(o, "expect  echo_cycles grows more than roundtrip_cycles (x 8 -> 64): ", ": ok");
    ck_assert_msg(line_starting(o,
                                "expect  roundtrip_cycles above echo_cycles at every x (0 of 2): "
                                "FAILS at x=8 ("),
                  "%s", o);
    ck_assert_msg(line_starting(o, "expect  echo_cycles above roundtrip_cycles at every x (0 of 2, "
                                   "margin 50%): FAILS at x=8 ("),
                  "%s", o);
    ck_assert_msg(strstr(o, " + 50% = "), "the margin's bound is not shown:\n%s", o);
    assert_line(o, "expect  echo_cycles grows less than roundtrip_cycles (x 8 -> 64): ", ": FAILS");
    assert_line(o, "expect  oneway_cycles below echo_cycles: ",
                ": FAILS: oneway_cycles and echo_cycles have no x in common");
    assert_line(o, "expect  nope above echo_cycles: ", ": FAILS: series 'nope' was not reported");
    ck_assert_msg(strstr(o, "\ncheck: 2 of 7 expectations hold\n"), "%s", o);

    /* stderr: one violation per failure, each naming FILE:LINE of its entry. */
    ck_assert_int_eq(cli_lines(r.err), 5);
    const int lines[] = {25, 29, 34, 38, 42};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, EXPECT ": check failed: expect (" EXPECT ":%d): ", lines[i]);
        ck_assert_msg(line_starting(r.err, want), "no \"%s\" in:\n%s", want, r.err);
    }
    ck_assert_msg(strstr(r.err, "(" EXPECT ":42): series 'nope' was not reported\n"), "%s", r.err);

    /* The run succeeded: the CSV is written, in its usual format. */
    char *csv = cli_read("%s/expect.csv", cli_tmp());
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(strncmp(csv, "series,x,value,unit,reference,error_pct\n", 40) == 0, "%s", csv);
    ck_assert_msg(!strstr(csv, "expect"), "%s", csv);
    cli_done();
}
END_TEST

/* Without --check the same lines are printed and the exit status is 0. */
START_TEST(without_check_expectations_are_only_reported)
{
    struct cli_out r = run_fixture(EXPECT, "", 0);
    assert_line(r.out,
                "expect  nope above echo_cycles: ", ": FAILS: series 'nope' was not reported");
    ck_assert_msg(!strstr(r.out, "check:"), "%s", r.out);
    ck_assert_str_eq(r.err, "");
    cli_done();
}
END_TEST

/* above is strict: at 1 word echo and round trip are the same exchange, so
 * equal values fail it; growth needs two x in common. */
START_TEST(equal_values_are_not_above)
{
    struct cli_out r = run_fixture(EXPECT, "--set 'args.words=[1, 8]'", 0);
    const char *l = line_starting(r.out, "expect  echo_cycles above roundtrip_cycles at every x "
                                         "(1 of 2): FAILS at x=1 (");
    ck_assert_msg(l, "%s", r.out);
    double a = 0, b = -1;
    ck_assert_msg(sscanf(strrchr(l, '(') + 1, "%lf <= %lf", &a, &b) == 2 && a == b, "%s", l);

    r = run_fixture(EXPECT, "--set 'args.words=[8]'", 0);
    assert_line(r.out, "expect  echo_cycles grows more than roundtrip_cycles: ",
                ": FAILS: echo_cycles and roundtrip_cycles have one x in common (8), growth needs "
                "two");
    cli_done();
}
END_TEST

/* REPORT.md lists each expectation with its source and ok or FAILS, and the
 * summary counts them. */
START_TEST(report_lists_expectations)
{
    char *yaml = cli_read(EXPECT);
    ck_assert_ptr_nonnull(yaml);
    char *md = cli_report_of(yaml, "ex");
    const char *want[] = {
        "| grp/ex | CLI test: expectations | no paper reference; expectations: 2 of 7 hold |\n",
        "**Expectations**",
        "| expectation | source | result |\n",
        "\n| echo_cycles above roundtrip_cycles at every x (2 of 2) | the answer carries N words, "
        "not one (test fixture) | ok |\n",
        "\n| roundtrip_cycles above echo_cycles at every x (0 of 2) | deliberately wrong (test "
        "fixture) | **FAILS at x=8 (",
        "\n| nope above echo_cycles | a series the app does not report (test fixture) | "
        "**FAILS: series 'nope' was not reported** |\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(md, want[i]), "REPORT.md lacks \"%s\":\n%s", want[i], md);
    cli_done();
}
END_TEST

void cli_register_expect(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "expect_one"), one_expectation_holds);
    tcase_add_test(harness_tcase(s, "expect_ok"), expectations_that_hold_pass_check);
    tcase_add_test(harness_tcase(s, "expect_fails"), failing_expectations_fail_check);
    tcase_add_test(harness_tcase(s, "expect_no_check"),
                   without_check_expectations_are_only_reported);
    tcase_add_test(harness_tcase(s, "expect_strict"), equal_values_are_not_above);
    tcase_add_test(harness_tcase(s, "expect_report"), report_lists_expectations);
}
