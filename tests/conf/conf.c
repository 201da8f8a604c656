/* tests/conf -- YAML files with lines, lookups, --set overrides, rules. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include "ipcsim/conf.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char err[4096];

static struct conf *parse(const char *text)
{
    err[0] = 0;
    return conf_parse("t.yaml", text, err, sizeof err);
}

static const char *sample = "platform: ideal\n"    /* 1 */
                            "cores: 2\n"           /* 2 */
                            "core:\n"              /* 3 */
                            "  clock_mhz: 1000\n"  /* 4 */
                            "  caps: [cas, dma]\n" /* 5 */
                            "  costs:\n"           /* 6 */
                            "    irq: 50\n"        /* 7 */
                            "name: \"42\"\n"       /* 8 */
                            "sizes: [4, 16.5]\n"   /* 9 */
                            "plots:\n"             /* 10 */
                            "  - id: a\n"          /* 11 */
                            "    logx: true\n";    /* 12 */

START_TEST(lookups)
{
    struct conf *c = parse(sample);
    ck_assert_msg(c, "%s", err);
    const struct conf_node *r = conf_root(c);
    ck_assert_int_eq(conf_kind_of(r), CONF_MAP);
    ck_assert_str_eq(conf_text(conf_get(r, "platform")), "ideal");
    ck_assert_int_eq(conf_line(conf_get(r, "core.costs.irq")), 7);
    ck_assert_double_eq(conf_num(c, "core.clock_mhz", 0), 1000);
    ck_assert_double_eq(conf_num(c, "core.missing", -1), -1);
    ck_assert_str_eq(conf_str(c, "plots.0.id", "?"), "a");
    ck_assert_ptr_null(conf_get(r, "plots.1"));
    ck_assert_uint_eq(conf_len(conf_get(r, "core.caps")), 2);
    ck_assert_str_eq(conf_text(conf_at(conf_get(r, "core.caps"), 1)), "dma");
    ck_assert_str_eq(conf_key(conf_get(r, "core"), 2), "costs");
    double v;
    ck_assert(!conf_number(conf_get(r, "name"), &v)); /* quoted: text */
    ck_assert(conf_number(conf_at(conf_get(r, "sizes"), 1), &v));
    ck_assert_double_eq(v, 16.5);
    ck_assert(!conf_number(conf_get(r, "platform"), &v));
    conf_free(c);
}
END_TEST

START_TEST(leaves_in_file_order)
{
    struct conf *c = parse(sample);
    const char *out[16];
    size_t n = conf_leaves(c, out, 16);
    ck_assert_uint_eq(n, 9);
    ck_assert_str_eq(out[0], "platform");
    ck_assert_str_eq(out[3], "core.caps");
    ck_assert_str_eq(out[4], "core.costs.irq");
    ck_assert_str_eq(out[8], "plots.0.logx");
    conf_free(c);
}
END_TEST

START_TEST(syntax_error_has_line)
{
    ck_assert_ptr_null(parse("a: 1\nb: [1, 2\nc: 3\n"));
    ck_assert_msg(strncmp(err, "t.yaml:", 7) == 0, "%s", err);
    ck_assert_msg(strstr(err, "YAML syntax error"), "%s", err);
    ck_assert_ptr_null(parse("a: 1\na: 2\n"));
    ck_assert_str_eq(err, "t.yaml:2: duplicate key 'a'");
    ck_assert_ptr_null(parse("a: &x 1\nb: *x\n"));
    ck_assert_msg(strstr(err, "t.yaml:2: YAML aliases"), "%s", err);
}
END_TEST

START_TEST(missing_file)
{
    ck_assert_ptr_null(conf_load("/nonexistent/p.yaml", err, sizeof err));
    ck_assert_str_eq(err, "/nonexistent/p.yaml: cannot open: No such file or directory");
}
END_TEST

START_TEST(empty_file_is_empty_map)
{
    struct conf *c = parse("");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(conf_kind_of(conf_root(c)), CONF_MAP);
    ck_assert_uint_eq(conf_len(conf_root(c)), 0);
    conf_free(c);
}
END_TEST

START_TEST(set_scalars_and_lists)
{
    struct conf *c = parse(sample);
    ck_assert_int_eq(conf_set(c, "core.costs.irq", "75", err, sizeof err), 0);
    ck_assert_double_eq(conf_num(c, "core.costs.irq", 0), 75);
    ck_assert_int_eq(conf_line(conf_get(conf_root(c), "core.costs.irq")), 0);
    ck_assert_int_eq(conf_set(c, "core.caps", "[fetch_add]", err, sizeof err), 0);
    ck_assert_uint_eq(conf_len(conf_get(conf_root(c), "core.caps")), 1);
    ck_assert_int_eq(conf_set(c, "cores", "many", err, sizeof err), -1);
    ck_assert_str_eq(err, "expects a number (the file has 2), got 'many'");
    ck_assert_int_eq(conf_set(c, "core.caps", "cas", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "expects a list"), "%s", err);
    ck_assert_int_eq(conf_set(c, "core.clok_mhz", "1", err, sizeof err), -1);
    ck_assert_msg(
        strncmp(err, "unknown key (did you mean 'core.clock_mhz'?); valid keys are: ", 62) == 0,
        "%s", err);
    ck_assert_int_eq(conf_set(c, "core.clock", "1", err, sizeof err), -1);
    ck_assert_msg(
        strncmp(err, "unknown key; valid keys are: platform, cores, core.clock_mhz", 60) == 0, "%s",
        err);
    ck_assert_int_eq(conf_set(c, "core", "1", err, sizeof err), -1); /* a map is not a leaf */
    ck_assert_int_eq(conf_set(c, "platform", "other", err, sizeof err), 0); /* text to text */
    conf_free(c);
}
END_TEST

static const struct conf_rule rules[] = {
    {"platform", CONF_T_STR, true, 0, -1},
    {"cores", CONF_T_INT, true, 1, 1024},
    {"core.clock_mhz", CONF_T_NUM, true, 0.001, 1e6},
    {"core.caps", CONF_T_LIST, false, 0, -1},
    {"core.costs.*", CONF_T_NUM, false, 0, 1e12},
    {"name", CONF_T_STR, false, 0, -1},
    {"sizes", CONF_T_NUM_LIST, false, 0, -1},
    {"plots", CONF_T_ANY, false, 0, -1},
    {NULL, CONF_T_ANY, false, 0, -1},
};

static int check_text(const char *text)
{
    struct conf *c = parse(text);
    ck_assert_msg(c, "%s", err);
    int rc = conf_check(c, conf_root(c), "", rules, err, sizeof err);
    conf_free(c);
    return rc;
}

START_TEST(rules_accept_valid)
{
    ck_assert_msg(check_text(sample) == 0, "%s", err);
}
END_TEST

START_TEST(rules_unknown_key)
{
    ck_assert_int_eq(check_text("platform: x\ncores: 1\ncore:\n  clock_mhz: 1\n  clock: 2\n"), -1);
    ck_assert_str_eq(err, "t.yaml:5: unknown key 'core.clock' (did you mean 'clock_mhz'?)");
    ck_assert_int_eq(check_text("platform: x\ncoers: 1\n"), -1);
    ck_assert_str_eq(err, "t.yaml:2: unknown key 'coers' (did you mean 'cores'?)");
    ck_assert_int_eq(check_text("platform: x\ncores: 1\ncore:\n  clock_mhz: 1\nextra:\n  a: 1\n"),
                     -1);
    ck_assert_str_eq(err, "t.yaml:5: unknown key 'extra'");
}
END_TEST

START_TEST(rules_types_and_ranges)
{
    ck_assert_int_eq(check_text("platform: x\ncores: two\ncore:\n  clock_mhz: 1\n"), -1);
    ck_assert_str_eq(err, "t.yaml:2: 'cores' must be a whole number, not 'two'");
    ck_assert_int_eq(check_text("platform: x\ncores: 1.5\ncore:\n  clock_mhz: 1\n"), -1);
    ck_assert_str_eq(err, "t.yaml:2: 'cores' must be a whole number, not '1.5'");
    ck_assert_int_eq(check_text("platform: x\ncores: 0\ncore:\n  clock_mhz: 1\n"), -1);
    ck_assert_str_eq(err, "t.yaml:2: 'cores' is 0, must be between 1 and 1024");
    ck_assert_int_eq(check_text("platform: [x]\ncores: 1\ncore:\n  clock_mhz: 1\n"), -1);
    ck_assert_str_eq(err, "t.yaml:1: 'platform' must be a single value, not a list");
    ck_assert_int_eq(check_text("platform: x\ncores: 1\ncore:\n  clock_mhz: 1\nsizes: [1, b]\n"),
                     -1);
    ck_assert_str_eq(err, "t.yaml:5: 'sizes' must be a list of numbers, not 'b'");
    ck_assert_int_eq(check_text("platform: x\ncores: 1\ncore: 3\n"), -1);
    ck_assert_msg(strstr(err, "t.yaml:3:"), "%s", err);
}
END_TEST

START_TEST(rules_required)
{
    ck_assert_int_eq(check_text("platform: x\ncore:\n  clock_mhz: 1\n"), -1);
    ck_assert_str_eq(err, "t.yaml:1: missing required key 'cores'");
    ck_assert_int_eq(check_text("platform: x\ncores: 1\ncore:\n  caps: [a]\n"), -1);
    ck_assert_str_eq(err, "t.yaml:4: missing required key 'clock_mhz' in 'core'");
}
END_TEST

START_TEST(rules_name_set_values)
{
    struct conf *c = parse(sample);
    ck_assert_int_eq(conf_set(c, "cores", "5000", err, sizeof err), 0);
    ck_assert_int_eq(conf_check(c, conf_root(c), "", rules, err, sizeof err), -1);
    ck_assert_str_eq(err,
                     "--set cores=5000: t.yaml:2: 'cores' is 5000, must be between 1 and 1024");
    conf_free(c);
}
END_TEST

START_TEST(check_subtree_with_base)
{
    struct conf *c = parse("x:\n  cores: 1\n  platform: p\n  core:\n    clock_mhz: 2\n");
    ck_assert_int_eq(conf_check(c, conf_get(conf_root(c), "x"), "", rules, err, sizeof err), 0);
    static const struct conf_rule sub[] = {{"x.cores", CONF_T_INT, true, 0, -1},
                                           {"x.platform", CONF_T_STR, false, 0, -1},
                                           {"x.core", CONF_T_ANY, false, 0, -1},
                                           {NULL, CONF_T_ANY, false, 0, -1}};
    ck_assert_int_eq(conf_check(c, conf_get(conf_root(c), "x"), "x", sub, err, sizeof err), 0);
    conf_free(c);
}
END_TEST

/* The fidelity rule: each numeric parameter line of a platform file names
 * its source in a comment. Counts the files of dir and the lines without a
 * source; `first` gets the first such line. */
static int check_sources(const char *dir, int *files, char *first, size_t len)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d, "cannot open %s", dir);
    int bad = 0;
    *files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0) continue;
        char path[2048], line[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f, "cannot open %s", path);
        for (int no = 1; fgets(line, sizeof line, f); no++) {
            char *colon = strchr(line, ':');
            if (!colon || line[strspn(line, " ")] == '#') continue;
            const char *v = colon + 1 + strspn(colon + 1, " ");
            if (((*v < '0' || *v > '9') && *v != '-' && *v != '.') || strchr(v, '#')) continue;
            if (!bad++) snprintf(first, len, "%s:%d: a number without a source comment", path, no);
        }
        fclose(f);
        ++*files;
    }
    closedir(d);
    return bad;
}

START_TEST(every_platform_value_has_a_source_comment)
{
    const char *root = getenv("IPCSIM_ROOT");
    char dir[1024], first[4096] = "";
    snprintf(dir, sizeof dir, "%s/platforms", root ? root : ".");
    int files;
    ck_assert_msg(check_sources(dir, &files, first, sizeof first) == 0, "%s", first);
    ck_assert_int_ge(files, 1);
}
END_TEST

START_TEST(a_number_without_source_is_caught)
{
    char dir[] = "/tmp/ipcsim-conf-XXXXXX", path[64], first[4096] = "";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.yaml", dir);
    FILE *f = fopen(path, "w");
    fputs("platform: ideal # kind\nlink:\n  latency_ns: 100\n  bw: 5 # nominal\n", f);
    fclose(f);
    int files, bad = check_sources(dir, &files, first, sizeof first);
    remove(path);
    rmdir(dir);
    ck_assert_int_eq(bad, 1);
    ck_assert_msg(strstr(first, "p.yaml:3: a number without a source comment"), "%s", first);
}
END_TEST

void tests_register(void)
{
    Suite *s = harness_suite("conf");
    TCase *tc = harness_tcase(s, "conf");
    tcase_add_test(tc, lookups);
    tcase_add_test(tc, leaves_in_file_order);
    tcase_add_test(tc, syntax_error_has_line);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, empty_file_is_empty_map);
    tcase_add_test(tc, set_scalars_and_lists);
    tcase_add_test(tc, rules_accept_valid);
    tcase_add_test(tc, rules_unknown_key);
    tcase_add_test(tc, rules_types_and_ranges);
    tcase_add_test(tc, rules_required);
    tcase_add_test(tc, rules_name_set_values);
    tcase_add_test(tc, check_subtree_with_base);
    tcase_add_test(tc, every_platform_value_has_a_source_comment);
    tcase_add_test(tc, a_number_without_source_is_caught);
}
