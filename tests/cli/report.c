/* report.c -- ipcsim report: REPORT.md from scenarios and their CSVs. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char scenario[] =
    "title: Report fixture\n"
    "description: Two sizes against made-up paper points.\n"
    "platform: ideal\n"
    "mapping: {ping: 0, pong: 1}\n"
    "workload: {app: pingpong, args: {sizes: [4, 64], reps: 3, warmup: 1}}\n"
    "reference:\n"
    "  - series: roundtrip_ns\n"
    "    source: Made-up et al., Table 9\n"
    "    tolerance_pct: 5\n"
    "    points: {4: 1, 64: 2, 128: 3}\n"
    "plots:\n"
    "  - id: rt\n"
    "    series: [roundtrip_ns]\n";

START_TEST(report_has_the_table)
{
    char *md = cli_report_of(scenario, "fix");
    const char *t = cli_tmp();
    const char *want[] = {
        "## grp\n",
        "### grp/fix: Report fixture\n",
        "Two sizes against made-up paper points.",
        "Platform: `ideal`",
        "| x | paper | simulated | error % |",
        "\n| 4 | 1 | ",
        "\n| 64 | 2 | ",
        "\n| 128 | 3 | - |", /* a paper point the run did not produce */
        "Made-up et al., Table 9",
        "±5%",
        "0 of 3",
        "[grp/fix.csv](grp/fix.csv)",
        "not drawn: run with --plot", /* no PNG in res/grp */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(md, want[i]), "REPORT.md lacks \"%s\":\n%s", want[i], md);
    /* Without expect: entries there is no such section. */
    ck_assert_msg(!strstr(md, "xpectation"), "%s", md);

    /* A rerun over the same results changes nothing. */
    struct cli_out r = cli_run("report --out '%s/res' '%s/scen/grp/fix.yaml'", t, t);
    ck_assert_int_eq(r.status, 0);
    char *again = cli_read("%s/res/REPORT.md", t);
    ck_assert_str_eq(md, again);
    cli_done();
}
END_TEST

START_TEST(report_without_results_fails)
{
    const char *t = cli_tmp();
    cli_write(scenario, "%s/scen/grp/fix.yaml", t);
    struct cli_out r = cli_run("report --out '%s/res' '%s/scen/grp/fix.yaml'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "fix.csv: cannot open"), "%s", r.err);
    char res[4200];
    snprintf(res, sizeof res, "%s/res", t);
    ck_assert_int_eq(cli_entries(res), 0);
    r = cli_run("report '%s/scen/grp/fix.yaml'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--out DIR is required"), "%s", r.err);
    cli_done();
}
END_TEST

void cli_register_report(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "report"), report_has_the_table);
    tcase_add_test(harness_tcase(s, "report_missing"), report_without_results_fails);
}
