/* prov.c -- provenance: each CSV's .meta.yaml, the names of non-default
 * runs, all-or-nothing outputs, ipcsim --version; and ipcsim params. */
#include "cli.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMALL "tests/cli/data/small.yaml"

/* The line of text that starts with `start` (copied; "" if none). */
static const char *line_of(const char *text, const char *start)
{
    static char buf[8][2048];
    static int next;
    char *b = buf[next++ % 8];
    b[0] = '\0';
    size_t n = strlen(start);
    for (const char *at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
        if (strncmp(at, start, n) == 0) {
            snprintf(b, sizeof buf[0], "%.*s", (int)strcspn(at, "\n"), at);
            break;
        }
    return b;
}

static int matches(const char *text, const char *pattern)
{
    regex_t re;
    ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB), 0);
    int ok = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* sha256sum's digest of a file, as the metadata quotes it: "<64 hex>". */
static const char *sha256sum(const char *path)
{
    static char q[2][80];
    static int next;
    struct cli_out r = cli_sh("sha256sum '%s'", path);
    ck_assert_msg(r.status == 0 && strlen(r.out) > 64, "sha256sum %s: %s", path, r.err);
    char *b = q[next++ % 2];
    snprintf(b, sizeof q[0], "\"%.64s\"", r.out);
    return b;
}

/* `ipcsim --version` without "ipcsim " and the newline. */
static const char *version(void)
{
    static char v[256];
    struct cli_out r = cli_run("--version");
    ck_assert_msg(r.status == 0, "--version: exit %d: %s", r.status, r.err);
    ck_assert_msg(strncmp(r.out, "ipcsim ", 7) == 0 && cli_lines(r.out) == 1, "%s", r.out);
    snprintf(v, sizeof v, "%.*s", (int)strcspn(r.out + 7, "\n"), r.out + 7);
    ck_assert_msg(v[0], "empty version: %s", r.out);
    return v;
}

/* Every field, the files' hashes as sha256sum gives them. */
START_TEST(meta_records_how_the_csv_was_made)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --out '%s/out'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char want[4400];
    snprintf(want, sizeof want, "wrote %s/out/small.csv, %s/out/small.meta.yaml", t, t);
    ck_assert_msg(strstr(r.out, want), "no '%s' in:\n%s", want, r.out);
    char *m = cli_read("%s/out/small.meta.yaml", t);
    ck_assert_msg(m, "no %s/out/small.meta.yaml", t);

    char path[4400], field[4600];
    snprintf(field, sizeof field, "ipcsim: \"%s\"", version());
    ck_assert_str_eq(line_of(m, "ipcsim: "), field);
    ck_assert_str_eq(line_of(m, "csv: "), "csv: \"small.csv\"");
    snprintf(path, sizeof path, "%s/out/small.csv", t);
    snprintf(field, sizeof field, "csv_sha256: %s", sha256sum(path));
    ck_assert_str_eq(line_of(m, "csv_sha256: "), field);
    snprintf(field, sizeof field, "  sha256: %s", sha256sum(SMALL));
    ck_assert_msg(strstr(m, "scenario:\n") && strstr(m, field), "no '%s' in:\n%s", field, m);
    snprintf(field, sizeof field, "  sha256: %s", sha256sum("platforms/ideal.yaml"));
    ck_assert_msg(strstr(m, "platform:\n  name: \"ideal\"\n") && strstr(m, field),
                  "no '%s' in:\n%s", field, m);
    ck_assert_msg(matches(m, "^  file: \"/.*/tests/cli/data/small\\.yaml\"$"), "%s", m);
    ck_assert_msg(matches(m, "^  file: \"/.*/platforms/ideal\\.yaml\"$"), "%s", m);
    ck_assert_str_eq(line_of(m, "  set: "), "  set: []");
    ck_assert_str_eq(line_of(m, "set: "), "set: []");
    ck_assert_str_eq(line_of(m, "backend: "), "backend: sim");
    ck_assert_str_eq(line_of(m, "seed: "), "seed: 1");
    r = cli_sh("hostname");
    snprintf(field, sizeof field, "host: \"%.*s\"", (int)strcspn(r.out, "\n"), r.out);
    ck_assert_str_eq(line_of(m, "host: "), field);
    ck_assert_msg(matches(m, "^date: \"20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6]"
                             "[0-9]Z\"$"),
                  "%s", m);
    ck_assert_msg(matches(m, "^host_seconds: [0-9]+\\.[0-9]{3}$"), "%s", m);
    ck_assert_msg(matches(m, "^command: \\[\"ipcsim\", \"run\", \"" SMALL "\", \"--out\", "), "%s",
                  m);
    cli_done();
}
END_TEST

/* The scenario's own set: and every --set, apart and in order. */
START_TEST(meta_records_every_override)
{
    const char *t = cli_tmp();
    char *small = cli_read(SMALL);
    ck_assert_ptr_nonnull(small);
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%sset:\n  link.latency_ns: 200\n  args.reps: 2\n", small);
    cli_write(yaml, "%s/sets.yaml", t);
    struct cli_out r = cli_run("run '%s/sets.yaml' --set link.burst_bytes=64 --set args.reps=3 "
                               "--out '%s'",
                               t, t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char *csv = cli_wrote_csv(&r);
    ck_assert_ptr_nonnull(csv);
    /* The meta file shares the CSV's name: the one the wrote line gives. */
    const char *w = strstr(r.out, "wrote ");
    ck_assert_ptr_nonnull(w);
    char meta[4400];
    snprintf(meta, sizeof meta, "%.*s", (int)strcspn(w + 6, ","), w + 6);
    ck_assert(strlen(meta) > 4);
    strcpy(meta + strlen(meta) - 4, ".meta.yaml");
    char *m = cli_read("%s", meta);
    ck_assert_msg(m, "no %s", meta);
    ck_assert_str_eq(line_of(m, "  set: "), "  set: [\"link.latency_ns=200\", \"args.reps=2\"]");
    ck_assert_str_eq(line_of(m, "set: "), "set: [\"link.burst_bytes=64\", \"args.reps=3\"]");
    char path[4400], field[4600];
    snprintf(path, sizeof path, "%s/sets.yaml", t);
    snprintf(field, sizeof field, "  sha256: %s", sha256sum(path));
    ck_assert_msg(strstr(m, field), "no '%s' in:\n%s", field, m);
    cli_done();
}
END_TEST

/* A run with other settings keeps the default CSV and gets a name of its
 * own: the same settings the same name, other settings another. */
START_TEST(other_settings_do_not_overwrite)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    char *dflt = cli_read("%s/small.csv", t);
    ck_assert_ptr_nonnull(dflt);

    r = cli_run("run " SMALL " --seed 5 --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "/small+seed5.csv, "), "%s", r.out);
    ck_assert_ptr_nonnull(cli_read("%s/small+seed5.meta.yaml", t));
    ck_assert_str_eq(line_of(cli_read("%s/small+seed5.meta.yaml", t), "seed: "), "seed: 5");

    r = cli_run("run " SMALL " --set link.latency_ns=1000 --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(matches(r.out, "^wrote .*/small\\+[0-9a-f]{8}\\.csv, .*/small\\+[0-9a-f]{8}\\."
                                 "meta\\.yaml$"),
                  "%s", r.out);
    char *slow = cli_wrote_csv(&r);
    ck_assert_msg(cli_csv_value(slow, "roundtrip_ns", "64") >
                      cli_csv_value(dflt, "roundtrip_ns", "64"),
                  "the --set run is not the slower one");
    ck_assert_int_eq(cli_entries(t), 6);

    /* Again with the same --set: its own files are replaced, nothing added. */
    r = cli_run("run " SMALL " --set link.latency_ns=1000 --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(cli_entries(t), 6);
    /* Another value: another name. */
    r = cli_run("run " SMALL " --set link.latency_ns=2000 --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(cli_entries(t), 8);

    /* The default CSV is untouched by all of them. */
    ck_assert_str_eq(cli_read("%s/small.csv", t), dflt);
    /* And --seed 1 is the default run. */
    r = cli_run("run " SMALL " --seed 1 --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(cli_entries(t), 8);
    cli_done();
}
END_TEST

START_TEST(native_run_has_its_own_name)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --out '%s'", t);
    ck_assert_int_eq(r.status, 0);
    char *sim = cli_read("%s/small.csv", t);
    r = cli_run("run " SMALL " --backend native --out '%s'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "/small+native.csv, "), "%s", r.out);
    ck_assert_str_eq(cli_read("%s/small.csv", t), sim);
    char *m = cli_read("%s/small+native.meta.yaml", t);
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(line_of(m, "backend: "), "backend: native");
    ck_assert_str_eq(line_of(m, "csv: "), "csv: \"small+native.csv\"");
    cli_done();
}
END_TEST

/* A failed run writes no metadata and leaves the previous pair alone. */
START_TEST(failed_run_writes_no_meta)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " SMALL " --set args.reps=0 --out '%s/new'", t);
    ck_assert_int_eq(r.status, 2);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/new", t);
    ck_assert_int_eq(cli_entries(dir), 0);

    r = cli_run("run " SMALL " --out '%s/old'", t);
    ck_assert_int_eq(r.status, 0);
    char *csv = cli_read("%s/old/small.csv", t), *meta = cli_read("%s/old/small.meta.yaml", t);
    /* An app failure (reps 0 is refused by the app) on the default name. */
    char *small = cli_read(SMALL);
    cli_write(small, "%s/s/small.yaml", t);
    r = cli_sh("sed -i 's/reps: 5/reps: 0/' '%s/s/small.yaml'", t);
    ck_assert_int_eq(r.status, 0);
    r = cli_run("run '%s/s/small.yaml' --out '%s/old'", t, t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(cli_read("%s/old/small.csv", t), csv);
    ck_assert_str_eq(cli_read("%s/old/small.meta.yaml", t), meta);
    snprintf(dir, sizeof dir, "%s/old", t);
    ck_assert_int_eq(cli_entries(dir), 2);
    cli_done();
}
END_TEST

/* The CSV and its metadata are committed together: when the metadata cannot
 * take its name (a directory is in the way), the CSV is not replaced either. */
START_TEST(outputs_all_or_nothing)
{
    const char *t = cli_tmp();
    cli_write("old\n", "%s/out/small.csv", t);
    struct cli_out r = cli_sh("mkdir '%s/out/small.meta.yaml'", t);
    ck_assert_int_eq(r.status, 0);
    r = cli_run("run " SMALL " --out '%s/out'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "/out/small.meta.yaml: cannot rename") &&
                      strstr(r.err, "(nothing was replaced)"),
                  "%s", r.err);
    ck_assert_str_eq(cli_read("%s/out/small.csv", t), "old\n");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/out", t);
    ck_assert_int_eq(cli_entries(dir), 2); /* no temporaries, no kept copies */

    /* The same with no previous CSV: none is left behind. */
    r = cli_sh("rm '%s/out/small.csv'", t);
    r = cli_run("run " SMALL " --out '%s/out'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_int_eq(cli_entries(dir), 1);

    /* The plot's name in the way: the CSV before it goes back, the metadata
     * after it is never touched. */
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        r = cli_sh("rmdir '%s/out/small.meta.yaml' && mkdir '%s/out/small-rt.png'", t, t);
        ck_assert_int_eq(r.status, 0);
        cli_write("old\n", "%s/out/small.csv", t);
        cli_write("old meta\n", "%s/out/small.meta.yaml", t);
        r = cli_run("run " SMALL " --plot --out '%s/out'", t);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "/out/small-rt.png: cannot rename"), "%s", r.err);
        ck_assert_str_eq(cli_read("%s/out/small.csv", t), "old\n");
        ck_assert_str_eq(cli_read("%s/out/small.meta.yaml", t), "old meta\n");
        ck_assert_int_eq(cli_entries(dir), 3);
    }
    cli_done();
}
END_TEST

START_TEST(version_is_the_build_tree_s)
{
    const char *v = version();
    struct cli_out r = cli_run("version");
    ck_assert_int_eq(r.status, 0);
    char want[300];
    snprintf(want, sizeof want, "ipcsim %s\n", v);
    ck_assert_str_eq(r.out, want);
    /* Built in this git tree: git describe of its commit. */
    r = cli_sh("git describe --always 2>/dev/null");
    if (r.status == 0 && r.out[0]) {
        size_t n = strcspn(r.out, "\n");
        ck_assert_msg(strncmp(v, r.out, n) == 0 && (v[n] == '\0' || strcmp(v + n, "-dirty") == 0),
                      "version %s, git describe %s", v, r.out);
    } else {
        ck_assert_msg(strlen(v) > 0, "empty version");
    }
    r = cli_run("version --help");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "usage: ipcsim version"), "%s", r.out);
    r = cli_run("--version extra");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "takes no arguments"), "%s", r.err);
    r = cli_run("--help");
    ck_assert_msg(strstr(r.out, "  version ") && strstr(r.out, "  params "), "%s", r.out);
    cli_done();
}
END_TEST

/* A variant's CSV in results/ is named as such by the golden check. */
START_TEST(check_results_names_a_variant_csv)
{
    const char *t = cli_tmp();
    char *small = cli_read(SMALL);
    cli_write(small, "%s/tree/scenarios/grp/small.yaml", t);
    struct cli_out r =
        cli_run("run '%s/tree/scenarios/grp/small.yaml' --out '%s/tree/results/grp'", t, t);
    ck_assert_int_eq(r.status, 0);
    const char *check = "CHECK_RESULTS_ROOT='%s/tree' tools/check-results.sh '%s/ipcsim'";
    r = cli_sh(check, t, cli_build());
    ck_assert_msg(r.status == 0, "the metadata beside the CSV is no error: %s%s", r.out, r.err);
    r = cli_run("run '%s/tree/scenarios/grp/small.yaml' --out '%s/tree/results/grp' --seed 2", t,
                t);
    ck_assert_int_eq(r.status, 0);
    r = cli_sh(check, t, cli_build());
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "results/grp/small+seed2.csv: the output of a run with --set"),
                  "%s", r.out);
    cli_done();
}
END_TEST

/* --- ipcsim params ------------------------------------------------------- */

/* The line number of the first line of FILE that contains text. */
static int file_line(const char *file, const char *text)
{
    struct cli_out r = cli_sh("grep -n -m1 -F -e '%s' '%s'", text, file);
    ck_assert_msg(r.status == 0, "no '%s' in %s", text, file);
    return atoi(r.out);
}

START_TEST(params_lists_keys_values_units_sources)
{
    struct cli_out r = cli_run("params ideal");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strncmp(r.out, "platforms/ideal.yaml: platform ideal, ", 38) == 0 &&
                      strstr(r.out, " keys, 0 fitted\n"),
                  "%s", r.out);
    ck_assert_msg(matches(r.out, "^key +value +unit +fitted +line +source$"), "%s", r.out);
    char want[256];
    snprintf(want, sizeof want, "^core\\.clock_mhz +1000 +MHz +%d +nominal: 1 cycle = 1 ns$",
             file_line("platforms/ideal.yaml", "clock_mhz:"));
    ck_assert_msg(matches(r.out, want), "no /%s/ in:\n%s", want, r.out);
    ck_assert_msg(matches(r.out, "^link\\.bandwidth_MBps +1000 +MB/s +[0-9]+ +nominal: per port"),
                  "%s", r.out);
    ck_assert_msg(matches(r.out, "^core\\.costs\\.dma_setup +20 +cycles +[0-9]+ +nominal: "), "%s",
                  r.out);
    ck_assert_msg(matches(r.out, "^core\\.caps +\\[cas, fetch_add, local_mem, dma, threads\\] +- "),
                  "%s", r.out);
    ck_assert_msg(matches(r.out, "^memory\\.bytes +67108864 +bytes "), "%s", r.out);
    /* The file's header comment, right above `platform:`, is not its source. */
    ck_assert_msg(matches(r.out, "^platform +ideal +- +8$"), "%s", r.out);
    ck_assert_msg(matches(r.out, "^devices\\.net\\.call_ns +100 +ns "), "%s", r.out);
    /* Every leaf of the file is a row: as many rows as `key: value` lines. */
    struct cli_out n = cli_sh("grep -cE '^ *[A-Za-z_]+: *[^ #]' platforms/ideal.yaml");
    char keys[64];
    snprintf(keys, sizeof keys, ", %d keys, ", atoi(n.out));
    ck_assert_msg(strstr(r.out, keys), "not %s:\n%s", keys, r.out);
    ck_assert_int_eq(cli_lines(r.out), atoi(n.out) + 3);
    cli_done();
}
END_TEST

START_TEST(params_marks_fitted_values)
{
    struct cli_out r = cli_run("params platforms/funbase.yaml");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, ": platform funbase, ") && strstr(r.out, " keys, 5 fitted\n"), "%s",
                  r.out);
    ck_assert_msg(matches(r.out, "^core\\.costs\\.dma_setup +4 +cycles +fitted +[0-9]+ +FITTED to "
                                 "Table 4"),
                  "%s", r.out);
    ck_assert_msg(matches(r.out, "^pc\\.ioctl_ns +250 +ns +fitted "), "%s", r.out);
    ck_assert_msg(matches(r.out, "^hibi\\.width_bits +32 +bits +[0-9]+ +paper"), "%s", r.out);
    /* "to be fitted" is not fitted. */
    r = cli_run("params xmcapi_gbe");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, " keys, 1 fitted\n"), "%s", r.out);
    ck_assert_msg(matches(r.out, "^devices\\.net\\.host\\.send_ns +2000 +ns +[0-9]+ +nominal: .*to "
                                 "be fitted"),
                  "%s", r.out);
    ck_assert_msg(matches(r.out, "^devices\\.net\\.host\\.irq_ns +13915 +ns +fitted "), "%s",
                  r.out);
    cli_done();
}
END_TEST

/* keystone_c6678: every key but platform and title has a source, and
 * exactly one value is fitted: the demo kernel's MAC cost. */
START_TEST(params_keystone_sources)
{
    struct cli_out r = cli_run("params keystone_c6678");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, ": platform keystone_c6678, ") &&
                      strstr(r.out, " keys, 1 fitted\n"),
                  "%s", r.out);
    struct cli_out n = cli_sh("grep -cE '^ *[A-Za-z0-9_]+: *[^ #]' platforms/keystone_c6678.yaml");
    ck_assert_int_eq(cli_lines(r.out), atoi(n.out) + 3);
    /* A row without a source ends with its line number. */
    struct cli_out bare = cli_sh("'%s/ipcsim' params keystone_c6678 | awk 'NR > 3 && $NF ~ "
                                 "/^[0-9]+$/ {print $1}'",
                                 cli_build());
    ck_assert_str_eq(bare.out, "platform\ntitle\n");
    ck_assert_msg(matches(r.out, "^msmc\\.banks +4 +- +[0-9]+ +unverified"), "%s", r.out);
    ck_assert_msg(matches(r.out, "^devices\\.hwq\\.queues +8192 +- +[0-9]+ +note 2"), "%s", r.out);
    ck_assert_msg(matches(r.out, "^dsp\\.costs\\.sgemm_kmac +[0-9]+ .*fitted"), "%s", r.out);
    cli_done();
}
END_TEST

/* --set and a scenario's set: show the value in effect, who set it and the
 * file's own value; a comment above a key is its source too. */
START_TEST(params_honours_overrides)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("params ideal --set link.bandwidth_MBps=500");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(matches(r.out, "^link\\.bandwidth_MBps +500 +MB/s +[0-9]+ +--set \\(the file: "
                                 "1000\\); nominal: per port"),
                  "%s", r.out);

    const char *plat = "# a test platform\n"
                       "\n"
                       "platform: ideal\n"
                       "cores: 2\n"
                       "core:\n"
                       "  type: generic\n"
                       "  # FITTED to nothing at all:\n"
                       "  # a comment above the key\n"
                       "  clock_mhz: 500\n"
                       "  caps: [cas, fetch_add, local_mem, dma, threads]\n"
                       "  local_bytes: 65536\n"
                       "  local_latency_ns: 1\n"
                       "  local_bandwidth_MBps: 8000\n"
                       "  rx_channels: 8\n"
                       "  costs: {thread_spawn: 1, switch: 1, dma_setup: 1, doorbell: 1, irq: 1}\n"
                       "link: {latency_ns: 100, bandwidth_MBps: 1000, burst_bytes: 256}\n"
                       "memory: {bytes: 65536, latency_ns: 50}\n";
    cli_write(plat, "%s/p.yaml", t);
    char *small = cli_read(SMALL);
    char yaml[4096];
    snprintf(yaml, sizeof yaml, "%s", small);
    char *p = strstr(yaml, "platform: ideal\n");
    ck_assert_ptr_nonnull(p);
    snprintf(p, sizeof yaml - (size_t)(p - yaml), "platform: p.yaml\nset:\n  cores: 3\n%s",
             strstr(small, "mapping:"));
    cli_write(yaml, "%s/s.yaml", t);
    r = cli_run("params '%s/p.yaml'", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(matches(r.out,
                          "^core\\.clock_mhz +500 +MHz +fitted +9 +FITTED to nothing at all: a "
                          "comment above the key$"),
                  "%s", r.out);
    /* The file's header is not the first key's comment. */
    ck_assert_msg(matches(r.out, "^platform +ideal +- +3$"), "%s", r.out);
    ck_assert_msg(matches(r.out, "^core\\.costs\\.irq +1 +cycles +15$"), "%s", r.out);

    r = cli_run("params '%s/s.yaml' --set link.latency_ns=7", t);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char want[4400];
    snprintf(want, sizeof want, "^cores +3 +- +4 +set: %s/s\\.yaml:[0-9]+ \\(the file: 2\\)$", t);
    ck_assert_msg(matches(r.out, want), "no /%s/ in:\n%s", want, r.out);
    ck_assert_msg(matches(r.out, "^link\\.latency_ns +7 +ns +16 +--set \\(the file: 100\\)$"), "%s",
                  r.out);
    snprintf(want, sizeof want, "%s/p.yaml (with the set: of %s/s.yaml): platform ideal, ", t, t);
    ck_assert_msg(strstr(r.out, want), "no '%s' in:\n%s", want, r.out);
    cli_done();
}
END_TEST

START_TEST(params_errors)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("params '%s/none.yaml'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "/none.yaml: cannot open: "), "%s", r.err);
    r = cli_run("params nope");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown platform 'nope'; known platforms: funbase, ideal, "), "%s",
                  r.err);
    r = cli_run("params '%s'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ": is a directory"), "%s", r.err);
    cli_write("platform: ideal\ncores: [\n", "%s/bad.yaml", t);
    r = cli_run("params '%s/bad.yaml'", t);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "/bad.yaml:") && strstr(r.err, "YAML syntax error"), "%s", r.err);
    r = cli_run("params ideal --set link.nope=1");
    ck_assert_int_eq(r.status, 2);
    /* --set errors read as run's do: the override, then the file (and line) */
    const char *nope = "--set link.nope=1: platforms/ideal.yaml: unknown key";
    ck_assert_msg(strncmp(r.err, nope, strlen(nope)) == 0, "%s", r.err);
    r = cli_run("params ideal --set link.bandwidth_MBps=abc");
    ck_assert_int_eq(r.status, 2);
    /* the line of link.bandwidth_MBps in the file, whatever is added above it */
    char *ideal = cli_read("platforms/ideal.yaml");
    const char *link = strstr(ideal, "\nlink:");
    const char *bw = link ? strstr(link, "\n  bandwidth_MBps:") : NULL;
    ck_assert_msg(bw, "platforms/ideal.yaml has no link.bandwidth_MBps line");
    int line = 2; /* bw points at the newline ending the line before */
    for (const char *p = ideal; p < bw; p++) line += *p == '\n';
    char abc[128];
    snprintf(abc, sizeof abc,
             "--set link.bandwidth_MBps=abc: platforms/ideal.yaml:%d: expects a number", line);
    ck_assert_msg(strncmp(r.err, abc, strlen(abc)) == 0, "%s (wanted %s)", r.err, abc);
    r = cli_run("params ideal --set platform=funbase");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "'platform' is the platform's kind, not a parameter"), "%s", r.err);
    r = cli_run("params ideal --set args.reps=1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "app arguments belong to a scenario"), "%s", r.err);
    r = cli_run("params ideal --set cores=0");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "cores"), "%s", r.err);
    r = cli_run("params");
    ck_assert_int_eq(r.status, 2);
    r = cli_run("params ideal --bogus");
    ck_assert_int_eq(r.status, 2);
    r = cli_run("params --help");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "usage: ipcsim params PLATFORM|SCENARIO"), "%s", r.out);
    cli_done();
}
END_TEST

void cli_register_prov(void)
{
    Suite *s = harness_suite("cli");
    tcase_add_test(harness_tcase(s, "meta"), meta_records_how_the_csv_was_made);
    tcase_add_test(harness_tcase(s, "meta_sets"), meta_records_every_override);
    tcase_add_test(harness_tcase(s, "variants"), other_settings_do_not_overwrite);
    tcase_add_test(harness_tcase(s, "meta_failed"), failed_run_writes_no_meta);
    tcase_add_test(harness_tcase(s, "all_or_nothing"), outputs_all_or_nothing);
    tcase_add_test(harness_tcase(s, "version"), version_is_the_build_tree_s);
    tcase_add_test(harness_tcase(s, "check_variant"), check_results_names_a_variant_csv);
    tcase_add_test(harness_tcase(s, "params"), params_lists_keys_values_units_sources);
    tcase_add_test(harness_tcase(s, "params_fitted"), params_marks_fitted_values);
    tcase_add_test(harness_tcase(s, "params_keystone"), params_keystone_sources);
    tcase_add_test(harness_tcase(s, "params_set"), params_honours_overrides);
    tcase_add_test(harness_tcase(s, "params_errors"), params_errors);
    tcase_add_test(harness_tcase(harness_suite("cli-native"), "native_name"),
                   native_run_has_its_own_name);
}
