/* emsim.c -- the em examples as scenario workloads (scenarios/em/, apps/em/):
 * each runs with --check on sim (8 cores of ideal) and natively, its own
 * checks and the scenario's expectations hold, its count is the program's,
 * and every core's output is tagged with the core. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define DIR "scenarios/em/"

struct em_case {
    const char *stem, *series, *line;
    double count;
};

static const struct em_case cases[] = {
    {"hello", "receives", "hello: ok: 20 receives, 10 rounds", 20},
    {"ordered", "in_order", "ordered: ok: 1000 events in order;", 1000},
    {"event_group", "joined_rounds", "event_group: ok: 8 rounds of 64 events joined;", 8},
};

static void run_case(const struct em_case *c, const char *backend, const char *opts)
{
    struct cli_out r = cli_run("run " DIR "%s.yaml --check %s --backend %s --out '%s/%s'", c->stem,
                               opts, backend, cli_tmp(), backend);
    ck_assert_msg(r.status == 0, "%s (%s): exit %d: %s\n%s", c->stem, backend, r.status, r.err,
                  r.out);
    ck_assert_msg(strstr(r.out, c->line), "%s (%s): no '%s' in\n%s", c->stem, backend, c->line,
                  r.out);
    char tag[64];
    snprintf(tag, sizeof tag, "[em_%s core 0] ", c->stem);
    ck_assert_msg(strstr(r.out, tag), "%s (%s): nothing tagged '%s' in\n%s", c->stem, backend, tag,
                  r.out);
    char *csv = cli_wrote_csv(&r);
    ck_assert_msg(csv, "%s (%s): no CSV", c->stem, backend);
    const char *x = strstr(opts, "cores=2") ? "2" : "8";
    double v = cli_csv_value(csv, c->series, x);
    ck_assert_msg(v == c->count, "%s (%s): %s at x=%s is %g, not %g:\n%s", c->stem, backend,
                  c->series, x, v, c->count, csv);
    ck_assert_msg(cli_csv_value(csv, "elapsed_us", x) > 0, "%s (%s): no elapsed_us:\n%s", c->stem,
                  backend, csv);
}

START_TEST(emsim_sim)
{
    run_case(&cases[_i], "sim", "");
    cli_done();
}
END_TEST

START_TEST(emsim_native)
{
    run_case(&cases[_i], "native", "--set cores=2");
    cli_done();
}
END_TEST

void cli_register_emsim(void)
{
    Suite *s = harness_suite("cli-emsim");
    tcase_add_loop_test(harness_tcase(s, "examples"), emsim_sim, 0, 3);
    /* In the native suite, so TSan runs (TEST_SUITES=native) cover it. */
    Suite *n = harness_suite("cli-native");
    tcase_add_loop_test(harness_tcase(n, "emsim_native"), emsim_native, 0, 3);
}
