/* plots.c -- the gnuplot scripts behind --plot: honest axes (a linear y
 * axis of rates starts at 0, x ends near the data), categories as points,
 * paper points that do not hide each other, keys that name the paper, one
 * tick style.
 *
 * A stand-in gnuplot first on PATH keeps each script ipcsim hands it
 * (DIR/gp/<stem>-<id>.gp, a variant run's +tags left out), then runs the real gnuplot, or, when
 * there is none, writes a stub image, so these tests need no gnuplot. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run `ipcsim run <args> --plot --out <tmp>/out` with the stand-in gnuplot;
 * the run's result. */
static struct cli_out run_plots(const char *args)
{
    const char *t = cli_tmp();
    char fake[2048];
    snprintf(fake, sizeof fake,
             "#!/bin/sh\n"
             "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\n"
             "name=$(basename \"$out\" | sed 's/\\.png\\..*$//; s/+[^-]*//')\n"
             "mkdir -p '%s/gp' && cp \"$1\" '%s/gp/'\"$name\".gp || exit 1\n"
             "[ -n \"$GNUPLOT\" ] && exec \"$GNUPLOT\" \"$1\"\n"
             "printf PNG > \"$out\"\n",
             t, t);
    cli_write(fake, "%s/bin/gnuplot", t);
    /* GNUPLOT: the real one, looked up before the stand-in joins PATH. */
    return cli_sh("chmod +x '%s/bin/gnuplot' && GNUPLOT=$(command -v gnuplot) "
                  "PATH='%s/bin':\"$PATH\" '%s/ipcsim' run %s --plot --out '%s/out'",
                  t, t, cli_build(), args, t);
}

/* The script of plot <stem>-<id> of the last run_plots. */
static char *script(const char *name)
{
    char *g = cli_read("%s/gp/%s.gp", cli_tmp(), name);
    ck_assert_msg(g, "no script %s.gp: gnuplot was not run for it", name);
    return g;
}

static char *plots_of(const char *args, const char *name)
{
    struct cli_out r = run_plots(args);
    ck_assert_msg(r.status == 0, "%s: exit %d:\n%s%s", args, r.status, r.out, r.err);
    return script(name);
}

/* `set <axis>range [lo:hi]` of g; fails when there is none. */
static void range_of(const char *g, const char *axis, double *lo, double *hi)
{
    char key[32];
    snprintf(key, sizeof key, "set %srange [", axis);
    const char *p = strstr(g, key);
    ck_assert_msg(p, "no '%s' in\n%s", key, g);
    ck_assert_msg(sscanf(p + strlen(key), "%lf:%lf", lo, hi) == 2, "bad range: %.60s", p);
}

/* Smallest and largest x (col 0) or y (col 1) of every data block of g. */
static void data_span(const char *g, int col, double *min, double *max)
{
    *min = INFINITY;
    *max = -INFINITY;
    for (const char *p = strstr(g, "<< EOD\n"); p; p = strstr(p, "<< EOD\n")) {
        p += strlen("<< EOD\n");
        while (strncmp(p, "EOD\n", 4) != 0) {
            double v[2];
            ck_assert_msg(sscanf(p, "%lf %lf", &v[0], &v[1]) == 2, "bad data line: %.40s", p);
            if (v[col] < *min) *min = v[col];
            if (v[col] > *max) *max = v[col];
            p = strchr(p, '\n') + 1;
        }
    }
    ck_assert_msg(*max >= *min, "no data in\n%s", g);
}

/* A plot clause: the text drawing one data block, to the end of its line. */
struct clause {
    char text[1024];
};

/* The clause of g drawing data block `block` ("$ref0"). */
static struct clause clause(const char *g, const char *block)
{
    char key[32];
    snprintf(key, sizeof key, "%s using", block);
    const char *p = strstr(g, key);
    ck_assert_msg(p, "no '%s' in\n%s", key, g);
    struct clause c;
    snprintf(c.text, sizeof c.text, "%.*s", (int)strcspn(p, "\n"), p);
    return c;
}

/* A numeric option of a clause ("pt", "ps"). */
static double opt(const char *clause, const char *name)
{
    char key[16];
    snprintf(key, sizeof key, " %s ", name);
    const char *p = strstr(clause, key);
    ck_assert_msg(p, "no '%s' in %s", name, clause);
    return atof(p + strlen(key));
}

/* The labels ('...') of a `set Xtics (...)` line in the one style: no
 * exponent with a sign or a leading zero (gnuplot's 1e+06, 1e-05). */
static void tick_style(const char *name, const char *tics)
{
    const char *end = tics + strcspn(tics, "\n");
    for (const char *p = strchr(tics, '\''); p && p < end; p = strchr(p + 1, '\'')) {
        const char *q = strchr(p + 1, '\'');
        ck_assert_msg(q && q < end, "%s: unbalanced quotes: %.*s", name, (int)(end - tics), tics);
        for (const char *c = p + 1; c < q; c++)
            ck_assert_msg(strncmp(c, "e+", 2) != 0 && strncmp(c, "e-0", 3) != 0,
                          "%s: tick %.*s in another style", name, (int)(q - p + 1), p);
        p = q;
    }
}

/* Fails when a line joins points of g (a category axis). */
static void joined(const char *name, const char *g)
{
    ck_assert_msg(!strstr(g, "linespoints") && !strstr(g, "with lines"),
                  "%s: a line joins categories:\n%s", name, g);
}

/* xmcapi's bandwidth spans 112-119 MB/s: its y axis starts at 0 (autoscale
 * made it 111-119, a 3 % gap across the whole frame) and ends near 119. An
 * explicit ymin: still wins, on linear and log axes. */
START_TEST(linear_y_starts_at_zero)
{
    char *g = plots_of("scenarios/xmcapi/bandwidth.yaml", "bandwidth-bandwidth");
    double lo, hi, min, max;
    range_of(g, "y", &lo, &hi);
    data_span(g, 1, &min, &max);
    ck_assert_msg(min > 100 && max < 130, "bandwidth %g..%g MB/s?", min, max);
    ck_assert_msg(lo == 0, "y from %g, not 0", lo);
    ck_assert_msg(hi > max && hi < 1.1 * max, "y to %g for data to %g", hi, max);

    const char *t = cli_tmp();
    const char *yaml = "title: t\nplatform: ideal\nmapping: {ping: 0, pong: 1}\n"
                       "workload: {app: pingpong, args: {sizes: [4, 1024], reps: 2, warmup: 0}}\n"
                       "plots:\n  - {id: lin, ymin: 250}\n  - {id: log, logy: true, ymin: 300}\n";
    cli_write(yaml, "%s/s.yaml", t);
    char args[4200];
    snprintf(args, sizeof args, "'%s/s.yaml'", t);
    g = plots_of(args, "s-lin");
    ck_assert_msg(strstr(g, "set yrange [250:"), "ymin: 250 not the bottom:\n%s", g);
    g = script("s-log");
    ck_assert_msg(strstr(g, "set yrange [300:"), "ymin: 300 not the bottom:\n%s", g);
    cli_done();
}
END_TEST

/* Table 3's kinds (message, packet, scalar) and Table 3 of paper 004's
 * patterns (1x1, 28x28) are categories: points, not a line through them. */
START_TEST(categories_are_not_joined)
{
    char *g = plots_of("scenarios/funbase/table3_init.yaml", "table3_init-init");
    ck_assert_msg(strstr(clause(g, "$sim0").text, "with points"), "%s", g);
    joined("init", g);
    ck_assert_msg(strstr(g, "set xtics ('message' 0, 'packet' 1, 'scalar' 2)"), "%s", g);

    g = plots_of("scenarios/sw26010/regcomm.yaml --set args.messages=100", "regcomm-regcomm");
    joined("regcomm", g);
    cli_done();
}
END_TEST

/* The key names the paper of each reference: author, year, table. */
START_TEST(key_names_the_paper)
{
    char *g = plots_of("scenarios/funbase/table4_roundtrip.yaml", "table4_roundtrip-roundtrip");
    ck_assert_msg(strstr(clause(g, "$ref0").text,
                         "title 'roundtrip_cycles reference: Matilainen et al. 2011, Table 4"),
                  "%s", g);
    g = plots_of("scenarios/xmcapi/latency.yaml", "latency-latency");
    ck_assert_msg(strstr(clause(g, "$ref2").text, "tcp_us reference: Miura et al. 2011, Fig. 6"),
                  "%s", g);
    cli_done();
}
END_TEST

/* A log x axis ends short of the next power of two beyond the data, not
 * at a decade far away: the ping-pong's 4 B .. 64 KiB was drawn over
 * 1 .. 100000 and Table 4's 1 .. 128 words over 1 .. 1000. No point sits
 * on the frame. */
START_TEST(x_ends_near_the_data)
{
    static const char *const cases[][2] = {
        {"scenarios/tutorial/pingpong.yaml", "pingpong-roundtrip"},
        {"scenarios/funbase/table4_roundtrip.yaml", "table4_roundtrip-roundtrip"},
        {"scenarios/funbase/throughput.yaml", "throughput-throughput"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *g = plots_of(cases[i][0], cases[i][1]);
        double lo, hi, min, max;
        range_of(g, "x", &lo, &hi);
        data_span(g, 0, &min, &max);
        ck_assert_msg(lo < min && lo > min / 2, "%s: x from %g for data from %g", cases[i][1], lo,
                      min);
        ck_assert_msg(hi > max && hi < max * 2, "%s: x to %g for data to %g", cases[i][1], hi, max);
    }
    cli_done();
}
END_TEST

/* xmcapi's SC and DC paper points are both 112 MB/s at 32 KB: different
 * hollow shapes (one inside the other), larger than the filled simulated
 * dots, so neither hides the other or the simulated points. */
START_TEST(paper_points_do_not_hide_each_other)
{
    char *g = plots_of("scenarios/xmcapi/bandwidth.yaml", "bandwidth-bandwidth");
    struct clause c[4] = {clause(g, "$ref0"), clause(g, "$ref1"), clause(g, "$sim0"),
                          clause(g, "$sim1")};
    const char *r0 = c[0].text, *r1 = c[1].text, *s0 = c[2].text, *s1 = c[3].text;
    ck_assert_msg(opt(r0, "pt") != opt(r1, "pt"), "one marker for both:\n%s\n%s", r0, r1);
    ck_assert_msg(opt(r0, "pt") != opt(s0, "pt"), "paper and simulated alike:\n%s\n%s", r0, s0);
    ck_assert_msg(opt(r0, "ps") > opt(s0, "ps"), "%s\n%s", r0, s0);
    /* The second series' line is dashed and its dots smaller: where the
     * two curves meet (8 KB on) the first still shows. */
    ck_assert_msg(opt(s0, "dt") != opt(s1, "dt"), "%s\n%s", s0, s1);
    ck_assert_msg(opt(s1, "ps") < opt(s0, "ps"), "%s\n%s", s0, s1);
    cli_done();
}
END_TEST

/* One tick style: powers of two as 4, 16, ..., 1K, 64K; decades as 1k,
 * 100k; small ones as 0.02 and 1e-4, never gnuplot's 1e+06 or 1e-05. */
START_TEST(one_tick_style)
{
    char *g = plots_of("scenarios/tutorial/pingpong.yaml", "pingpong-roundtrip");
    ck_assert_msg(strstr(g, "set xtics ('4' 4, '16' 16, '64' 64, '256' 256, '1K' 1024, "
                            "'4K' 4096, '16K' 16384, '64K' 65536"),
                  "%s", g);
    ck_assert_msg(strstr(g, "'1k' 1000, '10k' 10000, '100k' 100000"), "%s", g);
    g = plots_of("scenarios/sw26010/regcomm.yaml --set args.messages=100", "regcomm-regcomm");
    ck_assert_msg(strstr(g, "'1e-4' 0.0001"), "%s", g);
    ck_assert_msg(strstr(g, "'0.01' 0.01"), "%s", g);
    cli_done();
}
END_TEST

/* Every plot of every scenario: explicit ranges and ticks in the one style,
 * categories unjoined, each paper point's key entry naming its source. */
START_TEST(every_scenario_plot)
{
    static const char *const runs[][2] = {
        {"scenarios/funbase/pcie.yaml", "pcie-pcie"},
        {"scenarios/funbase/table3_init.yaml", "table3_init-init"},
        {"scenarios/funbase/table4_roundtrip.yaml", "table4_roundtrip-roundtrip"},
        {"scenarios/funbase/table5_comparison.yaml", "table5_comparison-comparison"},
        {"scenarios/funbase/throughput.yaml", "throughput-throughput"},
        {"scenarios/sw26010/channels.yaml --set args.messages=100 --set 'args.contenders=[1, 8]'",
         "channels-channels channels-rollbacks"},
        {"scenarios/sw26010/regcomm.yaml --set args.messages=100", "regcomm-regcomm regcomm-ratio"},
        {"scenarios/tutorial/pingpong.yaml", "pingpong-roundtrip"},
        {"scenarios/xmcapi/bandwidth.yaml", "bandwidth-bandwidth"},
        {"scenarios/xmcapi/latency.yaml", "latency-latency"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct cli_out r = run_plots(runs[i][0]);
        ck_assert_msg(r.status == 0, "%s: exit %d:\n%s", runs[i][0], r.status, r.err);
        ck_assert_msg(!strstr(r.err, "gnuplot"), "%s: gnuplot said:\n%s", runs[i][0], r.err);
        char names[128];
        snprintf(names, sizeof names, "%s", runs[i][1]);
        for (char *name = strtok(names, " "); name; name = strtok(NULL, " ")) {
            char *g = script(name);
            double lo, hi;
            range_of(g, "x", &lo, &hi);
            range_of(g, "y", &lo, &hi);
            ck_assert_msg(strstr(g, "set xtics (") && strstr(g, "set ytics ("), "%s:\n%s", name, g);
            ck_assert_msg(!strstr(g, "set format"), "%s: gnuplot's tick format:\n%s", name, g);
            tick_style(name, strstr(g, "set xtics ("));
            tick_style(name, strstr(g, "set ytics ("));
            if (strstr(g, "set xrange [-0.5:")) joined(name, g);
            for (const char *p = strstr(g, " reference: "); p; p = strstr(p + 1, " reference: ")) {
                const char *authors = strstr(p, " et al. ");
                ck_assert_msg(strncmp(p, " reference: closed form", 23) == 0 ||
                                  (authors && authors < strchr(p, '\n')),
                              "%s: a reference without its authors: %.80s", name, p);
            }
        }
    }
    cli_done();
}
END_TEST

/* A log axis cannot show 0 (no rollbacks with one producer): the point is
 * left out and the run says so, instead of gnuplot dropping it silently. */
START_TEST(log_axis_says_what_it_leaves_out)
{
    const char *t = cli_tmp();
    const char *yaml =
        "title: t\nplatform: sw26010\nmapping: {mpe: 0}\n"
        "workload: {app: sw_channels, args: {contenders: [1, 4], messages: 50}}\n"
        "plots:\n  - {id: rb, series: [cpe_send_rollbacks], logx: true, logy: true}\n";
    cli_write(yaml, "%s/s.yaml", t);
    char args[4200];
    snprintf(args, sizeof args, "'%s/s.yaml'", t);
    struct cli_out r = run_plots(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *csv = cli_read("%s/out/s.csv", t);
    ck_assert_msg(csv && cli_csv_value(csv, "cpe_send_rollbacks", "1") == 0, "%s", csv);
    ck_assert_msg(strstr(r.err, "plot 'rb': 1 point at or below 0 not drawn on its log axis"), "%s",
                  r.err);
    char *g = script("s-rb");
    ck_assert_msg(!strstr(g, "\n1 0\n"), "the 0 is in the data:\n%s", g);
    cli_done();
}
END_TEST

/* A line joins a series in x order: keep_names.yaml's three runs extend
 * one series at 1024, 4 and 64 bytes, in that (run) order. */
START_TEST(lines_join_in_x_order)
{
    char *g = plots_of("tests/cli/data/keep_names.yaml", "keep_names-rt");
    ck_assert_msg(strstr(g, "$sim0 << EOD\n4 4158\n64 2678\n1024 2598\nEOD\n"), "%s", g);
    cli_done();
}
END_TEST

void cli_register_plots(void)
{
    Suite *s = harness_suite("cli-plots");
    tcase_add_test(harness_tcase(s, "y_zero"), linear_y_starts_at_zero);
    tcase_add_test(harness_tcase(s, "categories"), categories_are_not_joined);
    tcase_add_test(harness_tcase(s, "key"), key_names_the_paper);
    tcase_add_test(harness_tcase(s, "x_range"), x_ends_near_the_data);
    tcase_add_test(harness_tcase(s, "markers"), paper_points_do_not_hide_each_other);
    tcase_add_test(harness_tcase(s, "ticks"), one_tick_style);
    tcase_add_test(harness_tcase(s, "every"), every_scenario_plot);
    tcase_add_test(harness_tcase(s, "log_zero"), log_axis_says_what_it_leaves_out);
    tcase_add_test(harness_tcase(s, "x_order"), lines_join_in_x_order);
}
