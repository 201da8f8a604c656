/* bad.c -- every broken rule is one error line "FILE:LINE: ..." naming the
 * key and the offending value. */
#include "xt.h"

#include <stdio.h>
#include <string.h>

/* 50 characters, for a host one longer than XT_HOST_MAX (253). */
#define A10 "aaaaaaaaaa"
#define A50 A10 A10 A10 A10 A10

#define N0 "  - {domain: 1, node: 0, host: 127.0.0.1, port: 7100}\n"

struct bad {
    const char *name;
    const char *text;
    int line;             /* the line the error must name */
    const char *parts[3]; /* and text it must contain (NULL ends) */
};

static const struct bad bad[] = {
    {"unknown key, did you mean",
     "nodes:\n" N0 "  - {domain: 1, node: 1, host: 127.0.0.1, prot: 7101}\n",
     3,
     {"unknown key 'nodes.1.prot'", "did you mean 'port'?"}},
    {"unknown key in a block entry",
     "nodes:\n  - domain: 1\n    node: 0\n    hots: a\n    port: 1\n",
     4,
     {"unknown key 'nodes.0.hots'", "did you mean 'host'?"}},
    {"unknown top-level key", "nodes:\n" N0 "version: 2\n", 3, {"unknown key 'version'"}},
    {"misspelt nodes", "node:\n" N0, 1, {"unknown key 'node'", "did you mean 'nodes'?"}},
    {"no nodes key", "{}\n", 1, {"missing required key 'nodes'"}},
    {"missing key in an entry",
     "nodes:\n" N0 "  - {domain: 1, node: 1, host: 127.0.0.1}\n",
     3,
     {"missing required key 'port' in 'nodes.1'"}},
    {"port not a number",
     "nodes:\n  - {domain: 1, node: 0, host: h, port: http}\n",
     2,
     {"'nodes.0.port' must be a whole number", "'http'"}},
    {"port quoted",
     "nodes:\n  - {domain: 1, node: 0, host: h, port: \"7100\"}\n",
     2,
     {"'nodes.0.port' must be a whole number", "'7100'"}},
    {"node a fraction",
     "nodes:\n  - {domain: 1, node: 0.5, host: h, port: 1}\n",
     2,
     {"'nodes.0.node' must be a whole number", "'0.5'"}},
    {"domain a list",
     "nodes:\n  - {domain: [1], node: 0, host: h, port: 1}\n",
     2,
     {"'nodes.0.domain' must be a whole number", "a list"}},
    {"host a map",
     "nodes:\n  - {domain: 1, node: 0, host: {a: 1}, port: 1}\n",
     2,
     {"'nodes.0.host' must be a single value", "a map"}},
    {"domain past MCAPI_MAX_DOMAIN",
     "nodes:\n" N0 "  - {domain: 4, node: 0, host: 127.0.0.1, port: 7101}\n",
     3,
     {"'nodes.1.domain' is 4", "between 0 and 3"}},
    {"negative domain",
     "nodes:\n  - {domain: -1, node: 0, host: h, port: 1}\n",
     2,
     {"'nodes.0.domain' is -1", "between 0 and 3"}},
    {"node past MCAPI_MAX_NODE",
     "nodes:\n  - {domain: 0, node: 64, host: h, port: 1}\n",
     2,
     {"'nodes.0.node' is 64", "between 0 and 63"}},
    {"port 0",
     "nodes:\n  - {domain: 0, node: 0, host: h, port: 0}\n",
     2,
     {"'nodes.0.port' is 0", "between 1 and 65535"}},
    {"port 65536",
     "nodes:\n  - domain: 0\n    node: 0\n    host: h\n    port: 65536\n",
     5,
     {"'nodes.0.port' is 65536", "between 1 and 65535"}},
    {"empty host",
     "nodes:\n" N0 "  - {domain: 1, node: 1, host: \"\", port: 7101}\n",
     3,
     {"'nodes.1.host' is '' (empty)"}},
    {"null host",
     "nodes:\n  - domain: 1\n    node: 1\n    host:\n    port: 7101\n",
     4,
     {"'nodes.0.host' is '' (empty)"}},
    {"host with a space",
     "nodes:\n  - {domain: 1, node: 0, host: \"my host\", port: 1}\n",
     2,
     {"'nodes.0.host' is 'my host'", "white space"}},
    {"host too long",
     "nodes:\n  - {domain: 1, node: 0, port: 1, host: " A50 A50 A50 A50 A50 "aaaa}\n",
     2,
     {"'nodes.0.host' is 254 characters long, at most 253", "'aaaa"}},
    {"duplicate node",
     "nodes:\n" N0 "  - {domain: 1, node: 1, host: 127.0.0.1, port: 7101}\n"
     "  - {domain: 1, node: 0, host: 127.0.0.2, port: 7102}\n",
     4,
     {"node <1,0> is listed twice (first at line 2)"}},
    {"duplicate address",
     "nodes:\n" N0 "  - {domain: 2, node: 0, host: 127.0.0.1, port: 7100}\n",
     3,
     {"127.0.0.1:7100 is the address of node <1,0> (line 2) and of node <2,0>"}},
    {"empty node list", "# none yet\nnodes: []\n", 2, {"'nodes' is an empty list"}},
    {"nodes with no value", "nodes:\n", 1, {"'nodes' must be a list of nodes", "not ''"}},
    {"nodes a scalar",
     "nodes: 127.0.0.1:7100\n",
     1,
     {"'nodes' must be a list of nodes", "not '127.0.0.1:7100'"}},
    {"nodes a map", "nodes:\n  a: 1\n", 2, {"'nodes' must be a list of nodes", "not a map"}},
    {"entry not a map",
     "nodes:\n" N0 "  - 127.0.0.1:7101\n",
     3,
     {"'nodes.1' must be a map", "not '127.0.0.1:7101'"}},
    {"file a list",
     "- {domain: 1, node: 0, host: h, port: 1}\n",
     1,
     {"expected a map with a 'nodes' list"}},
    {"empty file", "", 1, {"missing required key 'nodes'"}},
    {"file a scalar", "hello\n", 1, {"expected a map with a 'nodes' list"}},
    {"YAML syntax", "nodes:\n" N0 "  - {domain: 1, node: 1\n", 4, {NULL}},
};

/* One line, starting "FILE:LINE: ", with every part. */
static void check_error(const struct bad *b, const char *file, const char *err)
{
    char want[256];
    snprintf(want, sizeof want, "%s:%d: ", file, b->line);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: error '%s' does not start '%s'",
                  b->name, err, want);
    ck_assert_msg(!strchr(err, '\n'), "%s: error '%s' is more than one line", b->name, err);
    for (int i = 0; i < 3 && b->parts[i]; i++)
        ck_assert_msg(strstr(err, b->parts[i]), "%s: error '%s' lacks '%s'", b->name, err,
                      b->parts[i]);
}

START_TEST(bad_file_is_one_located_error)
{
    const struct bad *b = &bad[_i];
    struct xt_file f = {0};
    xt_file_write(&f, b->text);
    char err[1024] = "";
    struct xt_topo *t = xt_load(f.path, err, sizeof err);
    xt_file_remove(&f);
    ck_assert_msg(!t, "%s: loaded", b->name);
    check_error(b, f.path, err);
}
END_TEST

/* xt_parse reports the same, under the name it is given. */
START_TEST(bad_text_names_its_name)
{
    const struct bad *b = &bad[_i];
    char err[1024] = "";
    struct xt_topo *t = xt_parse("cfg/topo.yaml", b->text, err, sizeof err);
    ck_assert_msg(!t, "%s: loaded", b->name);
    check_error(b, "cfg/topo.yaml", err);
}
END_TEST

START_TEST(tiny_error_buffer_is_truncated)
{
    char err[8];
    memset(err, 'x', sizeof err);
    ck_assert_ptr_null(xt_parse("t.yaml", "nodes: []\n", err, sizeof err));
    ck_assert_str_eq(err, "t.yaml:");
    ck_assert_ptr_null(xt_parse("t.yaml", "nodes: []\n", NULL, 0));
}
END_TEST

START_TEST(missing_file)
{
    char err[512] = "";
    ck_assert_ptr_null(xt_load("/nonexistent/topo.yaml", err, sizeof err));
    ck_assert_msg(strstr(err, "/nonexistent/topo.yaml: cannot open: "), "%s", err);
}
END_TEST

void xt_bad_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "bad");
    int n = (int)HARNESS_COUNT(bad);
    tcase_add_loop_test(tc, bad_file_is_one_located_error, 0, n);
    tcase_add_loop_test(tc, bad_text_names_its_name, 0, n);
    tcase_add_test(tc, tiny_error_buffer_is_truncated);
    tcase_add_test(tc, missing_file);
}
