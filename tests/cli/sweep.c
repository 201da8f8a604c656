/* sweep.c -- ipcsim sweep and ipcsim merge (docs/sweeps.md): every engine and
 * every order gives the same merged bytes; a refit meets its reference
 * point at every point; bad input is a FILE:LINE error, exit 2, with
 * nothing written. The fixture is FUNCAPI's throughput on funbase at a few
 * HIBI widths (a run takes a tenth of a second). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD                                                                                       \
    "title: sweep fixture\n"                                                                       \
    "platform: funbase\n"                                                                          \
    "mapping: {tx: 0, rx: 1}\n"                                                                    \
    "workload:\n"                                                                                  \
    "  app: funbase_throughput\n"                                                                  \
    "  args: {sizes: [16, 1024], packets: 50, warmup: 5, measure: mcapi, depth: 1, "               \
    "packets_in: data}\n"                                                                          \
    "reference:\n"                                                                                 \
    "  - series: mcapi_MBps\n"                                                                     \
    "    source: paper\n"                                                                          \
    "    points: {16: 25, 1024: 120}\n"                                                            \
    "sweep:\n"                                                                                     \
    "  params:\n"
/* Line 13 is the first parameter's. */
#define REPORT                                                                                     \
    "  report:\n"                                                                                  \
    "    - series: mcapi_MBps\n"                                                                   \
    "      x: 1024\n"
#define REFIT(key, series, x, from, to)                                                            \
    "  refit:\n"                                                                                   \
    "    key: " key "\n"                                                                           \
    "    series: " series "\n"                                                                     \
    "    x: " x "\n"                                                                               \
    "    from: " from "\n"                                                                         \
    "    to: " to "\n"                                                                             \
    "    iterations: 6\n"

/* Out of order on purpose: the merge sorts by value (8 < 32 < 128 as
 * numbers, not as text). */
#define WIDTHS "    hibi.width_bits: [128, 8, 32]\n"

/* Write yaml as <tmp>/<stem>.yaml; its path. */
static const char *scenario(const char *yaml, const char *stem)
{
    cli_write(yaml, "%s/%s.yaml", cli_tmp(), stem);
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s.yaml", cli_tmp(), stem);
    return path;
}

static void ok(const struct cli_out *r, const char *what)
{
    ck_assert_msg(r->status == 0, "%s: exit %d:\n%s%s", what, r->status, r->out, r->err);
}

/* --jobs 2 (make), the --list lines run by hand in reverse order (xargs -P
 * 2), and the Slurm script's indices run one by one with
 * SLURM_ARRAY_TASK_ID, each then merged: the same bytes. */
START_TEST(every_engine_merges_the_same_bytes)
{
    const char *t = cli_tmp(), *f = scenario(HEAD WIDTHS REPORT, "w");
    struct cli_out r = cli_run("sweep '%s' --jobs 2 --out '%s/a'", f, t);
    ok(&r, "--jobs 2");
    ck_assert_msg(strstr(r.out, "band  mcapi_MBps at x=1024: ") && strstr(r.out, "over 3 points"),
                  "%s", r.out);
    char *a = cli_read("%s/a/w.csv", t);
    ck_assert_ptr_nonnull(a);
    ck_assert_msg(strncmp(a, "hibi.width_bits,series,x,value,unit,reference,error_pct\n8,", 58) ==
                      0,
                  "%s", a);
    char *at32 = strstr(a, "\n32,"), *at128 = strstr(a, "\n128,");
    ck_assert_msg(at32 && at128 && at32 < at128, "not in value order:\n%s", a);
    ck_assert_int_eq(cli_lines(a), 1 + 3 * 2);

    r = cli_run("sweep '%s' --list --out '%s/b'", f, t);
    ok(&r, "--list");
    ck_assert_int_eq(cli_lines(r.out), 3);
    ck_assert_msg(strstr(r.out, " sweep ") && strstr(r.out, " --point 2 --out "), "%s", r.out);
    cli_write(r.out, "%s/list", t);
    r = cli_sh("tac '%s/list' | xargs -P 2 -I CMD sh -c CMD", t);
    ok(&r, "the --list lines in reverse");
    r = cli_run("merge '%s/b/w.sweep'", t);
    ok(&r, "merge b");
    char *b = cli_read("%s/b/w.csv", t);
    ck_assert_msg(b && strcmp(a, b) == 0, "--jobs 2:\n%s\nthe --list lines reversed:\n%s", a,
                  b ? b : "(none)");

    r = cli_run("sweep '%s' --slurm --out '%s/c'", f, t);
    ok(&r, "--slurm");
    char *script = cli_read("%s/c/w.slurm", t);
    ck_assert_msg(script && strstr(script, "\n#SBATCH --array=0-2\n") &&
                      strstr(script, "\n2) exec "),
                  "%s", script ? script : "(none)");
    r = cli_sh("for i in 2 0 1; do SLURM_ARRAY_TASK_ID=$i bash '%s/c/w.slurm' || exit 1; done", t);
    ok(&r, "the array's indices");
    r = cli_sh("SLURM_ARRAY_TASK_ID=3 bash '%s/c/w.slurm'", t);
    ck_assert_msg(r.status == 2 && strstr(r.err, "no point '3' (0-2)"), "%d %s", r.status, r.err);
    r = cli_run("merge '%s/c/w.sweep' --out '%s/c2'", t, t);
    ok(&r, "merge c");
    char *c = cli_read("%s/c2/w.csv", t);
    ck_assert_msg(c && strcmp(a, c) == 0, "--jobs 2:\n%s\nthe Slurm indices:\n%s", a,
                  c ? c : "(none)");

    /* A point gone: merge says which and writes nothing. */
    r = cli_sh("rm '%s/b/w.sweep/hibi.width_bits-32.csv' '%s/b/w.csv'", t, t);
    ok(&r, "rm");
    r = cli_run("merge '%s/b/w.sweep'", t);
    ck_assert_msg(r.status == 2 && strstr(r.err, "1 of 3 points of ") &&
                      strstr(r.err, "missing: 1 (hibi.width_bits-32)"),
                  "%d %s", r.status, r.err);
    ck_assert_ptr_null(cli_read("%s/b/w.csv", t));
    cli_done();
}
END_TEST

/* refit: at every width the fitted key is searched again (over whole
 * numbers: a cost is whole cycles) so that the reference point (mcapi_MBps
 * at 1024 = 120) is met; its value is a column. */
START_TEST(refit_meets_the_reference_at_every_point)
{
    const char *t = cli_tmp();
    const char *f = scenario(HEAD "    hibi.width_bits: [32, 64]\n" REFIT(
                                 "core.costs.dma_setup", "mcapi_MBps", "1024", "0", "200") REPORT,
                             "r");
    struct cli_out r = cli_run("sweep '%s' --out '%s/o' --plot", f, t);
    ok(&r, "refit");
    char *csv = cli_read("%s/o/r.csv", t);
    ck_assert_msg(csv && strncmp(csv, "hibi.width_bits,core.costs.dma_setup,series,", 44) == 0,
                  "%s", csv ? csv : "(none)");
    int n = 0;
    for (char *l = strstr(csv, "\n"); l && l[1]; l = strstr(l + 1, "\n")) {
        char width[16], fit[32], x[16];
        double v;
        if (sscanf(l + 1, "%15[^,],%31[^,],mcapi_MBps,%15[^,],%lf", width, fit, x, &v) != 4)
            continue;
        if (strcmp(x, "1024") != 0) continue;
        n++;
        ck_assert_msg(v > 118.8 && v < 121.2, "width %s, dma_setup %s: %g, not 120 +-1%%", width,
                      fit, v);
    }
    ck_assert_int_eq(n, 2);
    ck_assert_ptr_nonnull(cli_read("%s/o/r-sweep.png", t));
    /* dma_setup is whole cycles: 13 and 80 give 120.047 and 120.188, a band
     * just above the paper's 120, which --check refuses. */
    ck_assert_msg(strstr(csv, "\n32,13,mcapi_MBps,1024,") && strstr(csv, "\n64,80,mcapi_MBps,"),
                  "%s", csv);
    r = cli_run("merge '%s/o/r.sweep' --check", t);
    ck_assert_msg(r.status == 1 && strstr(r.out, "paper 120 (paper): OUTSIDE") &&
                      strstr(r.out, "check: 0 of 1 paper points inside their band"),
                  "exit %d:\n%s%s", r.status, r.out, r.err);
    cli_done();
}
END_TEST

/* Each mistake: FILE:LINE of its entry, exit 2, and no --out at all, for
 * --jobs (nothing is run), --list and --slurm alike. */
static const struct bad {
    const char *name, *text;
    int line;
    const char *says;
} bad[] = {
    {"unknown_key", HEAD "    hibi.widht_bits: [8, 16]\n" REPORT, 13,
     "sweep hibi.widht_bits=8: platforms/funbase.yaml: unknown key (did you mean "
     "'hibi.width_bits'?)"},
    {"unknown_arg", HEAD "    args.pakets: [8, 16]\n" REPORT, 13,
     "unknown argument 'pakets' of app funbase_throughput"},
    {"empty_list", HEAD "    hibi.width_bits: []\n" REPORT, 13,
     "sweep hibi.width_bits: an empty list (give at least one value)"},
    {"bad_value", HEAD "    hibi.width_bits: [8, 12]\n" REPORT, 13, "is a whole number of bytes"},
    {"bad_range", HEAD "    hibi.width_bits: {from: 8, to: 64}\n" REPORT, 13,
     "a range needs from:, to: and one of step: or points:"},
    {"refit_not_fitted", HEAD WIDTHS REFIT("hibi.max_send", "mcapi_MBps", "1024", "0", "10") REPORT,
     15, "refit key 'hibi.max_send' is not a fitted constant of "},
    {"refit_no_such_key",
     HEAD WIDTHS REFIT("core.costs.nope", "mcapi_MBps", "1024", "0", "10") REPORT, 15,
     "refit key 'core.costs.nope' is not a fitted constant of "},
    {"refit_no_reference_series",
     HEAD WIDTHS REFIT("core.costs.dma_setup", "bare_MBps", "1024", "0", "10") REPORT, 16,
     "refit series 'bare_MBps' has no reference: entry (reference series: mcapi_MBps)"},
    {"refit_no_reference_point",
     HEAD WIDTHS REFIT("core.costs.dma_setup", "mcapi_MBps", "64", "0", "10") REPORT, 17,
     "refit x '64': reference series mcapi_MBps has no point there (its x: 16, 1024)"},
    {"report_unknown_series", HEAD WIDTHS "  report:\n    - series: nope\n      x: 16\n", 15,
     "report series 'nope' is reported by no run"},
};

START_TEST(bad_sweeps_fail_before_anything_runs)
{
    const struct bad *b = &bad[_i];
    const char *t = cli_tmp(), *f = scenario(b->text, b->name);
    char want[8192], out[4096];
    snprintf(want, sizeof want, "%s:%d: ", f, b->line);
    snprintf(out, sizeof out, "%s/out", t);
    const char *modes[] = {"--jobs 2", "--list", "--slurm", "--point 0"};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        struct cli_out r = cli_run("sweep '%s' %s --out '%s/out'", f, modes[m], t);
        ck_assert_msg(r.status == 2, "%s %s: exit %d:\n%s%s", b->name, modes[m], r.status, r.out,
                      r.err);
        ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0 && strstr(r.err, b->says),
                      "%s %s: want %s...%s, got:\n%s", b->name, modes[m], want, b->says, r.err);
        ck_assert_msg(cli_entries(out) == 0, "%s %s: wrote into --out", b->name, modes[m]);
        ck_assert_str_eq(r.out, "");
    }
    cli_done();
}
END_TEST

/* A refit whose range cannot reach its target is found at run time: the
 * point fails on the refit: line, and --jobs leaves no output at all. */
START_TEST(unbracketed_refit_writes_nothing)
{
    const char *t = cli_tmp();
    const char *f = scenario(HEAD "    hibi.width_bits: [16, 32]\n" REFIT(
                                 "core.costs.dma_setup", "mcapi_MBps", "1024", "0", "40") REPORT,
                             "u");
    char want[8192];
    snprintf(want, sizeof want, "%s:15: refit core.costs.dma_setup cannot bracket its target", f);
    struct cli_out r = cli_run("sweep '%s' --jobs 2 --out '%s/out'", f, t);
    ck_assert_msg(r.status == 2 && strstr(r.err, want) && strstr(r.err, "nothing written"),
                  "exit %d:\n%s%s", r.status, r.out, r.err);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/out", t);
    ck_assert_int_eq(cli_entries(dir), 0);
    r = cli_run("sweep '%s' --point 0 --out '%s/out'", f, t);
    ck_assert_msg(r.status == 2 && strstr(r.err, want), "exit %d:\n%s", r.status, r.err);
    ck_assert_int_eq(cli_entries(dir), 0);
    cli_done();
}
END_TEST

void cli_register_sweep(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "sweep_engines"), every_engine_merges_the_same_bytes);
    tcase_add_test(harness_tcase(s, "sweep_refit"), refit_meets_the_reference_at_every_point);
    tcase_add_loop_test(harness_tcase(s, "sweep_bad_input"), bad_sweeps_fail_before_anything_runs,
                        0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(harness_tcase(s, "sweep_unbracketed"), unbracketed_refit_writes_nothing);
}
