/* path.c -- which file a program uses: explicit path, then XMCAPI_TOPOLOGY. */
#define _POSIX_C_SOURCE 200809L
#include "xt.h"

#include <stdlib.h>
#include <string.h>

/* Each test is its own process (Check's fork mode): setenv stays inside it. */

START_TEST(explicit_path_wins_over_env)
{
    ck_assert_int_eq(setenv(XT_ENV, "/env/topo.yaml", 1), 0);
    ck_assert_str_eq(xt_path("/given/topo.yaml"), "/given/topo.yaml");
}
END_TEST

START_TEST(env_when_no_path_given)
{
    ck_assert_int_eq(setenv(XT_ENV, "/env/topo.yaml", 1), 0);
    ck_assert_str_eq(xt_path(NULL), "/env/topo.yaml");
    ck_assert_str_eq(xt_path(""), "/env/topo.yaml"); /* an empty parameter is none */
}
END_TEST

START_TEST(none_without_path_or_env)
{
    ck_assert_int_eq(unsetenv(XT_ENV), 0);
    ck_assert_ptr_null(xt_path(NULL));
    ck_assert_ptr_null(xt_path(""));
    ck_assert_int_eq(setenv(XT_ENV, "", 1), 0); /* set but empty: none */
    ck_assert_ptr_null(xt_path(NULL));
    ck_assert_str_eq(xt_path("/given/topo.yaml"), "/given/topo.yaml");
}
END_TEST

START_TEST(env_file_loads)
{
    struct xt_file f = {0};
    xt_file_write(&f, "nodes: [{domain: 2, node: 7, host: peer, port: 9000}]\n");
    ck_assert_int_eq(setenv(XT_ENV, f.path, 1), 0);
    char err[512] = "";
    struct xt_topo *t = xt_load(xt_path(NULL), err, sizeof err);
    xt_file_remove(&f);
    ck_assert_msg(t, "%s", err);
    const struct xt_node *n = xt_find(t, 2, 7);
    ck_assert_ptr_nonnull(n);
    ck_assert_str_eq(n->host, "peer");
    ck_assert_uint_eq(n->port, 9000);
    xt_free(t);
}
END_TEST

START_TEST(explicit_file_loads_despite_bad_env)
{
    /* The env names a broken file: the explicit one is used, not merged. */
    struct xt_file good = {0}, broken = {0};
    xt_file_write(&good, "nodes: [{domain: 0, node: 1, host: a, port: 1}]\n");
    xt_file_write(&broken, "nodes: []\n");
    ck_assert_int_eq(setenv(XT_ENV, broken.path, 1), 0);
    char err[512] = "";
    struct xt_topo *t = xt_load(xt_path(good.path), err, sizeof err);
    ck_assert_msg(t, "%s", err);
    ck_assert_uint_eq(t->n, 1);
    ck_assert_ptr_nonnull(xt_find(t, 0, 1));
    xt_free(t);
    /* And the env's file alone is refused, under its own name. */
    t = xt_load(xt_path(NULL), err, sizeof err);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(err, broken.path) == err, "%s", err);
    xt_file_remove(&good);
    xt_file_remove(&broken);
}
END_TEST

START_TEST(no_file_says_how_to_give_one)
{
    ck_assert_int_eq(unsetenv(XT_ENV), 0);
    char err[512] = "";
    ck_assert_ptr_null(xt_load(xt_path(NULL), err, sizeof err));
    ck_assert_msg(strstr(err, "XMCAPI_TOPOLOGY"), "%s", err);
}
END_TEST

void xt_path_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "path");
    tcase_add_test(tc, explicit_path_wins_over_env);
    tcase_add_test(tc, env_when_no_path_given);
    tcase_add_test(tc, none_without_path_or_env);
    tcase_add_test(tc, env_file_loads);
    tcase_add_test(tc, explicit_file_loads_despite_bad_env);
    tcase_add_test(tc, no_file_says_how_to_give_one);
}
