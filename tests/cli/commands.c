/* commands.c -- help, list and apps. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

START_TEST(help_names_every_command)
{
    const char *forms[] = {"--help", "-h"};
    for (int i = 0; i < 2; i++) {
        struct cli_out r = cli_run("%s", forms[i]);
        ck_assert_int_eq(r.status, 0);
        const char *cmds[] = {"run FILE", "list",      "apps",    "report --out DIR", "compare",
                              "--set",    "--backend", "--check", "--plot",           "--trace",
                              "--seed",   "--out",     "params",  "version"};
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++)
            ck_assert_msg(strstr(r.out, cmds[c]), "--help does not mention %s:\n%s", cmds[c],
                          r.out);
    }
    cli_done();
}
END_TEST

START_TEST(each_command_has_help)
{
    const char *cmds[] = {"run",    "list",  "apps",  "report", "compare",
                          "params", "sweep", "merge", "version"};
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        struct cli_out r = cli_run("%s --help", cmds[c]);
        ck_assert_int_eq(r.status, 0);
        char want[64];
        snprintf(want, sizeof want, "usage: ipcsim %s", cmds[c]);
        ck_assert_msg(strstr(r.out, want), "%s --help:\n%s", cmds[c], r.out);
    }
    cli_done();
}
END_TEST

START_TEST(bad_command_lines_exit_2)
{
    struct cli_out r = cli_run("%s", "");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "usage: ipcsim"));
    r = cli_run("frobnicate");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "unknown command 'frobnicate'"));
    r = cli_run("run");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "missing scenario FILE"));
    r = cli_run("run tests/cli/data/small.yaml --bogus");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "unknown option '--bogus'"));
    r = cli_run("run tests/cli/data/small.yaml --backend fpga");
    ck_assert_int_eq(r.status, 2);
    r = cli_run("run tests/cli/data/small.yaml --seed x1");
    ck_assert_int_eq(r.status, 2);
    r = cli_run("run %s/none.yaml", cli_tmp());
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "none.yaml: cannot open"));
    cli_done();
}
END_TEST

/* The line "name  title" of a listing (names are padded to align the
 * titles: two spaces or more); NULL if there is none. */
static const char *listed(const char *out, const char *name, const char *title)
{
    for (const char *line = out; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        size_t n = strlen(name);
        if (strncmp(line, name, n) != 0 || strncmp(line + n, "  ", 2) != 0) continue;
        const char *t = line + n;
        while (*t == ' ') t++;
        if (strncmp(t, title, strlen(title)) == 0 && t[strlen(title)] == '\n') return line;
    }
    return NULL;
}

START_TEST(list_shows_group_stem_and_title)
{
    const char *t = cli_tmp();
    cli_write("title: First one\n", "%s/scen/alpha/one.yaml", t);
    cli_write("title: \"Second: two\"\n", "%s/scen/beta/two.yaml", t);
    cli_write("not a scenario\n", "%s/scen/beta/notes.txt", t);
    struct cli_out r = cli_run("list '%s/scen'", t);
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(cli_lines(r.out), 2);
    ck_assert_msg(listed(r.out, "alpha/one", "First one") == r.out, "%s", r.out);
    ck_assert_msg(listed(r.out, "beta/two", "Second: two"), "%s", r.out);

    /* Without DIR: the repo's own scenarios, the tutorial among them. */
    r = cli_run("list");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(listed(r.out, "tutorial/pingpong", "Bare DMA ping-pong on the ideal platform"),
                  "%s", r.out);
    cli_done();
}
END_TEST

START_TEST(apps_lists_roles_and_args)
{
    struct cli_out r = cli_run("apps");
    ck_assert_int_eq(r.status, 0);
    const char *want[] = {"pingpong",
                          "roles: ping, pong",
                          "sizes",
                          "int list",
                          "[4, 16, 64, 256, 1024, 4096, 16384, 65536]",
                          "reps",
                          "warmup"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(r.out, want[i]), "apps does not show %s:\n%s", want[i], r.out);
    cli_done();
}
END_TEST

/* The golden check's comparison: equal bytes match; otherwise each moved,
 * lost or new point is named with its old and new value. */
START_TEST(compare_names_the_points_that_moved)
{
    const char *hdr = "series,x,value,unit,reference,error_pct\n";
    char a[512], b[512];
    snprintf(a, sizeof a, "%srt,4,558,ns,558,0\nrt,16,582,ns,,\nbw,\"a, b\",3,MB/s,,\n", hdr);
    snprintf(b, sizeof b, "%srt,4,560,ns,558,0.358423\nbw,\"a, b\",3,MB/s,,\nbw,8,1,MB/s,,\n", hdr);
    cli_write(a, "%s/old.csv", cli_tmp());
    cli_write(b, "%s/new.csv", cli_tmp());
    struct cli_out r = cli_run("compare %s/old.csv %s/old.csv", cli_tmp(), cli_tmp());
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "");
    r = cli_run("compare %s/old.csv %s/new.csv --name scen.yaml", cli_tmp(), cli_tmp());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "scen.yaml: series rt, x 4: value 558 -> 560 (+0.358 %)"), "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "scen.yaml: series rt, x 16: value 582 -> missing"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "scen.yaml: series bw, x 8: value missing -> 1"), "%s", r.out);
    ck_assert_msg(!strstr(r.out, "x a, b"), "an unchanged point is listed:\n%s", r.out);
    /* The same points in other bytes (row order) still differ. */
    snprintf(b, sizeof b, "%srt,16,582,ns,,\nrt,4,558,ns,558,0\nbw,\"a, b\",3,MB/s,,\n", hdr);
    cli_write(b, "%s/order.csv", cli_tmp());
    r = cli_run("compare %s/old.csv %s/order.csv", cli_tmp(), cli_tmp());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "the same points in other bytes") && strstr(r.out, "line 2"), "%s",
                  r.out);
    /* Errors: a file that is not there, one that is no results file, usage. */
    r = cli_run("compare %s/old.csv %s/none.csv", cli_tmp(), cli_tmp());
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "none.csv: cannot open"));
    cli_write("metric,value\n", "%s/bench.csv", cli_tmp());
    r = cli_run("compare %s/old.csv %s/bench.csv", cli_tmp(), cli_tmp());
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "bench.csv:1: not an ipcsim results file"));
    r = cli_run("compare %s/old.csv", cli_tmp());
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "needs OLD.csv and NEW.csv"));
    cli_done();
}
END_TEST

/* make check-results in a scratch tree: a rerun equal to the committed CSV
 * passes; a moved point, a CSV no scenario writes, and a scenario with no
 * committed CSV each fail naming what is wrong; results/bench/ is not a
 * scenario's. */
START_TEST(check_results_finds_moved_stale_and_missing)
{
    const char *t = cli_tmp();
    char *small = cli_read("tests/cli/data/small.yaml");
    ck_assert_ptr_nonnull(small);
    cli_write(small, "%s/tree/scenarios/grp/small.yaml", t);
    cli_write("metric,value,unit\nx,1,ns\n", "%s/tree/results/bench/b.csv", t);
    const char *check = "CHECK_RESULTS_ROOT='%s/tree' tools/check-results.sh '%s/ipcsim'";

    struct cli_out r =
        cli_run("run '%s/tree/scenarios/grp/small.yaml' --out '%s/tree/results/grp'", t, t);
    ck_assert_int_eq(r.status, 0);
    r = cli_sh(check, t, cli_build());
    ck_assert_msg(r.status == 0 && strstr(r.out, "1 of 1 scenarios give the committed"), "%d: %s%s",
                  r.status, r.out, r.err);

    /* The committed file from other hardware: every point moved. */
    r = cli_run("run '%s/tree/scenarios/grp/small.yaml' --out '%s/other' "
                "--set link.latency_ns=1000",
                t, t);
    ck_assert_int_eq(r.status, 0);
    r = cli_sh("cp '%s/other/'small+*.csv '%s/tree/results/grp/small.csv'", t, t);
    ck_assert_int_eq(r.status, 0);
    r = cli_sh(check, t, cli_build());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "scenarios/grp/small.yaml: series roundtrip_ns, x 4: value "), "%s",
                  r.out);
    ck_assert_msg(strstr(r.err, "FAILED: 0 of 1"), "%s", r.err);

    /* A CSV no scenario writes. */
    r = cli_run("run '%s/tree/scenarios/grp/small.yaml' --out '%s/tree/results/grp'", t, t);
    ck_assert_int_eq(r.status, 0);
    cli_write("series,x,value,unit,reference,error_pct\n", "%s/tree/results/grp/gone.csv", t);
    r = cli_sh(check, t, cli_build());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "results/grp/gone.csv: no scenario writes it"), "%s", r.out);

    /* A scenario with no committed CSV. */
    r = cli_sh("rm '%s/tree/results/grp/gone.csv' '%s/tree/results/grp/small.csv'", t, t);
    ck_assert_int_eq(r.status, 0);
    r = cli_sh(check, t, cli_build());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "results/grp/small.csv is not committed"), "%s", r.out);
    cli_done();
}
END_TEST

/* Every benchmark answers --help without running, and refuses what it does
 * not take (bench/mcapi, xmcapi and simspeed once ran the whole benchmark
 * on any argument). */
START_TEST(each_bench_has_help)
{
    const char *benches[] = {"coro", "em", "mcapi", "mpi", "simspeed", "smpi", "xmcapi"};
    for (size_t b = 0; b < sizeof benches / sizeof benches[0]; b++) {
        struct cli_out r = cli_sh("%s/bench/%s --help", cli_build(), benches[b]);
        ck_assert_msg(r.status == 0 && strstr(r.out, "usage:"), "bench/%s --help: exit %d\n%s%s",
                      benches[b], r.status, r.out, r.err);
        r = cli_sh("%s/bench/%s --no-such-option", cli_build(), benches[b]);
        ck_assert_msg(r.status == 2 && strstr(r.err, "no-such-option"),
                      "bench/%s --no-such-option: exit %d\n%s%s", benches[b], r.status, r.out,
                      r.err);
    }
    cli_done();
}
END_TEST

void cli_register_commands(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "help"), help_names_every_command);
    tcase_add_test(harness_tcase(s, "command_help"), each_command_has_help);
    tcase_add_test(harness_tcase(s, "bench_help"), each_bench_has_help);
    tcase_add_test(harness_tcase(s, "bad_command_lines"), bad_command_lines_exit_2);
    tcase_add_test(harness_tcase(s, "list"), list_shows_group_stem_and_title);
    tcase_add_test(harness_tcase(s, "apps"), apps_lists_roles_and_args);
    tcase_add_test(harness_tcase(s, "compare"), compare_names_the_points_that_moved);
    tcase_add_test(harness_tcase(s, "check_results"), check_results_finds_moved_stale_and_missing);
}
