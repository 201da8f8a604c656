/* relations.c -- the expect: relations near, ratio, at_least, at_most,
 * falls and rises, and from:/to: on every relation. The fixtures run the
 * ping-pong on ideal, the base at link.latency_ns 100 and the variant
 * 'slow' at 300: 2n + 550 and 2n + 1350 ns (docs/ideal.md), so slow/base
 * is 2.43 at 4 bytes, 1.31 at 1024 and 1.006 at 65536. relations_ok.yaml
 * states claims that hold, relations.yaml the same claims made to fail;
 * three of them fail on all points and hold within a range (from:, to:). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define REL_OK "tests/cli/data/relations_ok.yaml"
#define REL_FAIL "tests/cli/data/relations.yaml"

/* Run `ipcsim run FILE OPTS --out <tmp>`; it must exit with status. */
static struct cli_out run_fixture(const char *file, const char *opts, int status)
{
    struct cli_out r = cli_run("run %s %s --out '%s'", file, opts, cli_tmp());
    ck_assert_msg(r.status == status, "%s %s: exit %d, not %d:\n%s%s", file, opts, r.status, status,
                  r.out, r.err);
    return r;
}

/* text must hold the whole line "expect  <line>". */
static void assert_expect(const char *text, const char *line)
{
    char want[1024];
    snprintf(want, sizeof want, "\nexpect  %s\n", line);
    ck_assert_msg(strstr(text, want), "no line \"%s\" in:\n%s", want + 1, text);
}

START_TEST(relations_that_hold_pass_check)
{
    struct cli_out r = run_fixture(REL_OK, "--check", 0);
    const char *o = r.out;
    /* near from 65536 on: 132422 / 131622 = 1.00608. */
    assert_expect(o, "roundtrip_ns_slow near roundtrip_ns at every x (1 of 1, x from 65536, margin "
                     "1%): worst A/B = 1.00608 at x=65536: ok");
    /* ratio up to 4 bytes: 1358 / 558 = 2.43369, within 2.4 +- 2%. */
    assert_expect(o, "roundtrip_ns_slow is 2.4 times roundtrip_ns at every x (1 of 1, x up to 4, "
                     "margin 2%): worst A/B = 2.43369 at x=4: ok");
    /* The bounds hold at equality. */
    assert_expect(o, "roundtrip_ns at least 558 at every x (3 of 3): lowest 558 at x=4: ok");
    assert_expect(o, "roundtrip_ns_slow at most 132422 at every x (3 of 3): highest 132422 at "
                     "x=65536: ok");
    assert_expect(o, "roundtrip_ns rises as x grows (2 of 2 steps, x 4 -> 65536): least rise 558 "
                     "-> 2598 (x 4 -> 1024): ok");
    /* An old relation with to: only 4 bytes count (1358 > 558 + 50%). */
    assert_expect(o, "roundtrip_ns_slow above roundtrip_ns at every x (1 of 1, x up to 1000, "
                     "margin 50%): ok");
    ck_assert_msg(strstr(o, "\ncheck: 6 of 6 expectations hold\n"), "%s", o);
    ck_assert_str_eq(r.err, "");
    cli_done();
}
END_TEST

/* The same claims without their range, or with a bound one off: each line
 * says where it fails and by what, and each is a violation naming its
 * entry's line; exit 1. */
START_TEST(relations_that_fail_fail_check)
{
    struct cli_out r = run_fixture(REL_FAIL, "--check", 1);
    const char *o = r.out;
    assert_expect(o, "roundtrip_ns_slow near roundtrip_ns at every x (1 of 3, margin 1%): worst "
                     "A/B = 2.43369 at x=4: FAILS at x=4 (A/B = 2.43369 > 1 + 1% = 1.01)");
    assert_expect(o, "roundtrip_ns_slow is 2.4 times roundtrip_ns at every x (1 of 3, margin 2%): "
                     "worst A/B = 1.00608 at x=65536: FAILS at x=1024 (A/B = 1.30793 < 2.4 - 2% "
                     "= 2.352)");
    assert_expect(o, "roundtrip_ns at least 559 at every x (2 of 3): lowest 558 at x=4: FAILS at "
                     "x=4 (558 < 559)");
    assert_expect(o, "roundtrip_ns_slow at most 132421 at every x (2 of 3): highest 132422 at "
                     "x=65536: FAILS at x=65536 (132422 > 132421)");
    assert_expect(o, "roundtrip_ns falls as x grows (0 of 2 steps, x 4 -> 65536): least fall 2598 "
                     "-> 131622 (x 1024 -> 65536): FAILS at x=1024 (2598 >= 558 at x=4)");
    /* 558 -> 2598 is 4.66x, not the 5x a margin of 400% asks. */
    assert_expect(o, "roundtrip_ns rises as x grows (1 of 2 steps, x 4 -> 65536, margin 400%): "
                     "least rise 558 -> 2598 (x 4 -> 1024): FAILS at x=1024 (2598 <= 558 at x=4 + "
                     "400% = 2790)");
    assert_expect(o, "roundtrip_ns_slow above roundtrip_ns at every x (1 of 3, margin 50%): FAILS "
                     "at x=1024 (3398 <= 2598 + 50% = 3897)");
    assert_expect(o, "roundtrip_ns at least 1 (x from 100000): FAILS: roundtrip_ns has no points "
                     "with x from 100000");
    ck_assert_msg(strstr(o, "\ncheck: 0 of 8 expectations hold\n"), "%s", o);

    ck_assert_int_eq(cli_lines(r.err), 8);
    const int lines[] = {21, 26, 32, 36, 40, 43, 47, 52};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char want[128];
        snprintf(want, sizeof want,
                 REL_FAIL ": check failed: expect (" REL_FAIL ":%d): ", lines[i]);
        ck_assert_msg(strstr(r.err, want), "no \"%s\" in:\n%s", want, r.err);
    }
    /* Without --check: the same lines, exit 0. */
    r = run_fixture(REL_FAIL, "", 0);
    assert_expect(r.out, "roundtrip_ns at least 559 at every x (2 of 3): lowest 558 at x=4: FAILS "
                         "at x=4 (558 < 559)");
    ck_assert_str_eq(r.err, "");
    cli_done();
}
END_TEST

/* from: and to: bound x as numbers: sw_regcomm's x "1x1" is none, so a
 * claim with a range cannot be judged, nor falls (x in numeric order);
 * without a range at_least takes any x. */
START_TEST(range_needs_numeric_x)
{
    const char *t = cli_tmp();
    cli_write("title: categories\n"
              "platform: sw26010\n"
              "mapping: {mpe: 0}\n"
              "workload: {app: sw_regcomm, args: {messages: 10, patterns: 1x1}}\n"
              "expect:\n"
              "  - {series: regcomm_over_channel, relation: at_least, value: 1, why: w}\n"
              "  - {series: regcomm_over_channel, relation: at_least, value: 1, from: 0, why: w}\n"
              "  - {series: regcomm_over_channel, relation: falls, why: w}\n",
              "%s/cat.yaml", t);
    struct cli_out r = cli_run("run '%s/cat.yaml' --check --out '%s'", t, t);
    ck_assert_msg(r.status == 1, "exit %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "\nexpect  regcomm_over_channel at least 1 at every x (1 of 1): "
                                "lowest "),
                  "%s", r.out);
    assert_expect(r.out, "regcomm_over_channel at least 1 (x from 0): FAILS: x '1x1' of "
                         "regcomm_over_channel is not a number (from: and to: bound x as numbers)");
    assert_expect(r.out, "regcomm_over_channel falls as x grows: FAILS: x '1x1' of "
                         "regcomm_over_channel is not a number (falls orders x as numbers)");
    ck_assert_msg(strstr(r.out, "\ncheck: 1 of 3 expectations hold\n"), "%s", r.out);
    cli_done();
}
END_TEST

/* rises and falls are strict: two equal values in a row hold neither.
 * 2n + 4L + 150 ns is 558 at 4 bytes over L = 100 and at 64 bytes over
 * L = 70 (keep_names puts both in one series). */
START_TEST(trends_are_strict)
{
    const char *t = cli_tmp();
    cli_write("title: equal\n"
              "platform: ideal\n"
              "mapping: {ping: 0, pong: 1}\n"
              "workload: {app: pingpong, args: {sizes: [4], reps: 2, warmup: 1}}\n"
              "variants:\n"
              "  - {name: l70, keep_names: true, set: {link.latency_ns: 70, args.sizes: 64}}\n"
              "expect:\n"
              "  - {series: roundtrip_ns, relation: rises, why: w}\n"
              "  - {series: roundtrip_ns, relation: falls, why: w}\n",
              "%s/eq.yaml", t);
    struct cli_out r = cli_run("run '%s/eq.yaml' --out '%s'", t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    assert_expect(r.out, "roundtrip_ns rises as x grows (0 of 1 steps, x 4 -> 64): least rise 558 "
                         "-> 558 (x 4 -> 64): FAILS at x=64 (558 <= 558 at x=4)");
    assert_expect(r.out, "roundtrip_ns falls as x grows (0 of 1 steps, x 4 -> 64): least fall 558 "
                         "-> 558 (x 4 -> 64): FAILS at x=64 (558 >= 558 at x=4)");
    cli_done();
}
END_TEST

/* REPORT.md lists the new claims as it does the old ones: the claim with
 * what was compared, and a failure's verdict in bold. */
START_TEST(report_lists_relations)
{
    char *yaml = cli_read(REL_FAIL);
    ck_assert_ptr_nonnull(yaml);
    char *md = cli_report_of(yaml, "rel");
    const char *want[] = {
        "| grp/rel | CLI test: relations that fail | no paper reference; expectations: 0 of 8 "
        "hold |\n",
        "\n| roundtrip_ns at least 559 at every x (2 of 3): lowest 558 at x=4 | one more than at 4 "
        "bytes (deliberately wrong) | **FAILS at x=4 (558 < 559)** |\n",
        "\n| roundtrip_ns at least 1 (x from 100000) | an empty range (deliberately wrong) | "
        "**FAILS: roundtrip_ns has no points with x from 100000** |\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(md, want[i]), "REPORT.md lacks \"%s\":\n%s", want[i], md);
    cli_done();
}
END_TEST

void cli_register_relations(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "relations_ok"), relations_that_hold_pass_check);
    tcase_add_test(harness_tcase(s, "relations_fail"), relations_that_fail_fail_check);
    tcase_add_test(harness_tcase(s, "relations_numeric_x"), range_needs_numeric_x);
    tcase_add_test(harness_tcase(s, "relations_strict"), trends_are_strict);
    tcase_add_test(harness_tcase(s, "relations_report"), report_lists_relations);
}
