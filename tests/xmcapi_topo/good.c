/* good.c -- valid topology files load with the right values; lookups. */
#include "xt.h"

#include "mcapi_impl_spec.h"

#include <stdio.h>
#include <string.h>

/* Flow and block entries, names and addresses, both range ends, shared
 * hosts and shared ports (only host:port must differ), comments. */
static const char good[] = "# two hosts, three domains\n"                            /* 1 */
                           "nodes:\n"                                                /* 2 */
                           "  - {domain: 1, node: 0, host: 127.0.0.1, port: 7100}\n" /* 3 */
                           "  - {domain: 1, node: 1, host: 127.0.0.1, port: 7101}\n" /* 4 */
                           "  - domain: 0\n"                                         /* 5 */
                           "    node: 63\n"                                          /* 6 */
                           "    host: node-b.example\n"                              /* 7 */
                           "    port: 7100   # same port, other host\n"              /* 8 */
                           "  - {port: 65535, host: \"::1\", node: 0, domain: 3}\n"  /* 9 */
                           "  - {domain: 2, node: 5, host: 10.0.0.2, port: 1}\n";    /* 10 */

static void expect(const struct xt_node *n, unsigned domain, unsigned node, const char *host,
                   unsigned port, int line)
{
    ck_assert_ptr_nonnull(n);
    ck_assert_uint_eq(n->domain, domain);
    ck_assert_uint_eq(n->node, node);
    ck_assert_str_eq(n->host, host);
    ck_assert_uint_eq(n->port, port);
    ck_assert_int_eq(n->line, line);
}

START_TEST(good_file_loads)
{
    struct xt_file f = {0};
    xt_file_write(&f, good);
    char err[512] = "";
    struct xt_topo *t = xt_load(f.path, err, sizeof err);
    xt_file_remove(&f);
    ck_assert_msg(t, "%s", err);
    ck_assert_uint_eq(t->n, 5);
    /* In file order. */
    expect(&t->nodes[0], 1, 0, "127.0.0.1", 7100, 3);
    expect(&t->nodes[1], 1, 1, "127.0.0.1", 7101, 4);
    expect(&t->nodes[2], 0, 63, "node-b.example", 7100, 5);
    expect(&t->nodes[3], 3, 0, "::1", 65535, 9);
    expect(&t->nodes[4], 2, 5, "10.0.0.2", 1, 10);
    xt_free(t);
}
END_TEST

START_TEST(the_issue_example_loads)
{
    /* Issue 5's example, flow style throughout, through xt_parse. */
    char err[512] = "";
    struct xt_topo *t = xt_parse("inline",
                                 "nodes: [{domain: 1, node: 0, host: 127.0.0.1, port: "
                                 "7100}, {domain: 1, node: 1, host: 127.0.0.1, port: "
                                 "7101}]\n",
                                 err, sizeof err);
    ck_assert_msg(t, "%s", err);
    ck_assert_uint_eq(t->n, 2);
    expect(xt_find(t, 1, 0), 1, 0, "127.0.0.1", 7100, 1);
    expect(xt_find(t, 1, 1), 1, 1, "127.0.0.1", 7101, 1);
    xt_free(t);
}
END_TEST

START_TEST(lookups)
{
    char err[512] = "";
    struct xt_topo *t = xt_parse("good", good, err, sizeof err);
    ck_assert_msg(t, "%s", err);
    /* Every entry is found, as itself. */
    for (size_t i = 0; i < t->n; i++)
        ck_assert_ptr_eq(xt_find(t, t->nodes[i].domain, t->nodes[i].node), &t->nodes[i]);
    expect(xt_find(t, 0, 63), 0, 63, "node-b.example", 7100, 5);
    /* Absent: a node of a listed domain, a listed node number in another
     * domain, values past MCAPI's range and past 16 bits. */
    ck_assert_ptr_null(xt_find(t, 1, 2));
    ck_assert_ptr_null(xt_find(t, 0, 0));
    ck_assert_ptr_null(xt_find(t, 2, 0));
    ck_assert_ptr_null(xt_find(t, 4, 0));
    ck_assert_ptr_null(xt_find(t, 1, 64));
    ck_assert_ptr_null(xt_find(t, 0x10001u, 0)); /* would alias <1,0> if truncated */
    ck_assert_ptr_null(xt_find(t, 1, 0x10000u)); /* would alias <1,0> if truncated */
    ck_assert_ptr_null(xt_find(NULL, 1, 0));
    xt_free(t);
    xt_free(NULL);
}
END_TEST

START_TEST(largest_topology_loads)
{
    /* Every <domain, node> MCAPI can name, each on its own port. */
    static char text[((MCAPI_MAX_DOMAIN + 1) * (MCAPI_MAX_NODE + 1) + 1) * 64];
    size_t at = (size_t)snprintf(text, sizeof text, "nodes:\n");
    unsigned count = 0;
    for (unsigned d = 0; d <= MCAPI_MAX_DOMAIN; d++)
        for (unsigned n = 0; n <= MCAPI_MAX_NODE; n++, count++)
            at += (size_t)snprintf(text + at, sizeof text - at,
                                   "  - {domain: %u, node: %u, host: localhost, port: %u}\n", d, n,
                                   20000 + count);
    ck_assert_uint_lt(at, sizeof text);
    char err[512] = "";
    struct xt_topo *t = xt_parse("all", text, err, sizeof err);
    ck_assert_msg(t, "%s", err);
    ck_assert_uint_eq(t->n, count);
    const struct xt_node *last = xt_find(t, MCAPI_MAX_DOMAIN, MCAPI_MAX_NODE);
    ck_assert_ptr_nonnull(last);
    ck_assert_uint_eq(last->port, 20000 + count - 1);
    xt_free(t);
}
END_TEST

void xt_good_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "good");
    tcase_add_test(tc, good_file_loads);
    tcase_add_test(tc, the_issue_example_loads);
    tcase_add_test(tc, lookups);
    tcase_add_test(tc, largest_topology_loads);
}
