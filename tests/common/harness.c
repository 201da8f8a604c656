/* harness.c -- main() of every test program: register, filter, run with Check. */
#define _GNU_SOURCE
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUITES 64

void harness_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_FAILURE);
}

/* Names are copied here: Check keeps the pointers it is given. */
static struct {
    char name[64];
    Suite *suite;
} suites[MAX_SUITES];
static int nsuites;

Suite *harness_suite(const char *name)
{
    for (int i = 0; i < nsuites; i++)
        if (strcmp(suites[i].name, name) == 0) return suites[i].suite;
    if (nsuites == MAX_SUITES || strlen(name) >= sizeof suites[0].name)
        harness_die("harness: too many suites or name too long: %s", name);
    strcpy(suites[nsuites].name, name);
    suites[nsuites].suite = suite_create(suites[nsuites].name);
    return suites[nsuites++].suite;
}

TCase *harness_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, HARNESS_TIMEOUT_S);
    suite_add_tcase(s, tc);
    return tc;
}

int main(void)
{
    tests_register();

    const char *only = getenv("TEST_SUITES");
    SRunner *sr = NULL;
    SRunner *skipped = NULL; /* owns the filtered-out suites so they are freed */
    for (int i = 0; i < nsuites; i++) {
        bool run = !only || !*only || strstr(suites[i].name, only);
        SRunner **to = run ? &sr : &skipped;
        if (*to)
            srunner_add_suite(*to, suites[i].suite);
        else
            *to = srunner_create(suites[i].suite);
    }
    if (skipped) srunner_free(skipped);
    if (!sr) {
        /* Nothing selected still prints a summary for tools/run-tests.sh. */
        printf("100%%: Checks: 0, Failures: 0, Errors: 0\n");
        return EXIT_SUCCESS;
    }
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
