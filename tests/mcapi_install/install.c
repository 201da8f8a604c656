/*
 * install.c -- an MCAPI 2.0 program compiles unchanged against the installed
 * library and runs natively.
 *
 * Once per run of the suite (an unchecked fixture, in the harness's own
 * process) tools/install.sh installs $BUILD into a fresh prefix under $BUILD.
 * Then, for each mcapi_ref/examples/ *.c, as a user would:
 *
 *     cc -std=c11 prog.c $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig \
 *                          pkg-config --cflags --libs mcapi) -o prog && ./prog
 *
 * must exit 0 (the examples exit 0 only if every byte arrived), and the same
 * source must compile with -Wall -Wextra -Werror -pedantic: the installed
 * headers are clean C11.
 *
 * In an instrumented tree (SAN=asan or tsan, set by make test-run) the
 * installed libraries are instrumented, so the sanitizer's flag is added to
 * the compile; nothing else changes. The suite's name has no "native" in it:
 * it runs installed code, not the tree's, and stays out of the TSan pass.
 *
 * Env: BUILD (default "build"), IPCSIM_ROOT (the source tree, default ".").
 */
#define _GNU_SOURCE
#include "harness.h"
#include "install.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define MAX_EXAMPLES 32

static char examples[MAX_EXAMPLES][PATH_MAX];
static int nexamples;

START_TEST(installed)
{
    inst_need_install();
    static const char *const files[] = {
        "include/mcapi/mca.h",     "include/mcapi/mcapi.h", "include/mcapi/mcapi_impl_spec.h",
        "lib/libmcapi.a",          "lib/libipcsim.a",       "lib/pkgconfig/mcapi.pc",
        "lib/pkgconfig/ipcsim.pc", "lib/libxmcapi.a",       "lib/pkgconfig/xmcapi.pc",
        "include/mcapi/xmcapi.h",  "bin/xmcapi-echo",       "bin/xmcapi-ping",
    };
    for (size_t i = 0; i < HARNESS_COUNT(files); i++)
        ck_assert_msg(inst_installed(files[i]), "%s/%s is missing or empty", inst_prefix, files[i]);

    char cmd[4 * PATH_MAX], log[LOG_BYTES], want[2 * PATH_MAX];
    inst_fits(cmd, sizeof cmd,
              "PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs mcapi", inst_prefix);
    ck_assert_msg(inst_shell(cmd, log, sizeof log) == 0, "%s:\n%s", cmd, log);
    inst_fits(want, sizeof want, "-I%s/include/mcapi", inst_prefix);
    ck_assert_msg(strstr(log, want), "pkg-config mcapi lacks %s: %s", want, log);
    ck_assert_msg(strstr(log, "-lmcapi") && strstr(log, "-lipcsim"),
                  "pkg-config mcapi lacks -lmcapi -lipcsim: %s", log);
}
END_TEST

/* Compile src against the installed package `pkgname` (plus libs) as a
 * user would, run it (it must exit 0 and print `want`, or anything when
 * want is ""), then compile it again with every warning an error. */
static void build_and_run(const char *src, const char *exe, const char *pkgname, const char *libs,
                          const char *want)
{
    char cmd[6 * PATH_MAX], log[LOG_BYTES], pkg[2 * PATH_MAX];
    ck_assert(inst_fits(pkg, sizeof pkg,
                        "$(PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs %s)",
                        inst_prefix, pkgname));
    ck_assert(inst_fits(cmd, sizeof cmd, "cc -std=c11 %s '%s' %s %s -o '%s'", inst_san_flags(), src,
                        pkg, libs, exe));
    int rc = inst_shell(cmd, log, sizeof log);
    ck_assert_msg(rc == 0, "%s\nexited %d:\n%s", cmd, rc, log);

    ck_assert(inst_fits(cmd, sizeof cmd, "'%s'", exe));
    rc = inst_shell(cmd, log, sizeof log);
    ck_assert_msg(rc == 0, "%s exited %d:\n%s", exe, rc, log);
    ck_assert_msg(log[0] != '\0' && strstr(log, want), "%s printed: '%s', not '%s'", exe, log,
                  want);

    ck_assert(inst_fits(cmd, sizeof cmd,
                        "cc -std=c11 -Wall -Wextra -Werror -pedantic -c '%s' %s -o '%s.o'", src,
                        pkg, exe));
    rc = inst_shell(cmd, log, sizeof log);
    ck_assert_msg(rc == 0, "%s\nexited %d:\n%s", cmd, rc, log);
}

/* Example _i, with the installed libmcapi.a. */
START_TEST(example)
{
    inst_need_install();
    const char *src = examples[_i];
    const char *base = strrchr(src, '/') + 1;
    char exe[2 * PATH_MAX];
    ck_assert(inst_fits(exe, sizeof exe, "%s/%.*s", inst_prefix, (int)(strlen(base) - 2), base));
    build_and_run(src, exe, "mcapi", "", "");
}
END_TEST

/* Example _i unchanged, linked with the installed libxmcapi.a instead
 * (pkg-config xmcapi) and run with XMCAPI_TOPOLOGY listing its two nodes on
 * loopback: the same program, its nodes now talking over TCP. msg_procs
 * names its transport's shared region, so it is left out. */
START_TEST(example_xmcapi)
{
    inst_need_install();
    const char *src = examples[_i];
    const char *base = strrchr(src, '/') + 1;
    if (strcmp(base, "msg_procs.c") == 0) return;
    char exe[2 * PATH_MAX], cmd[6 * PATH_MAX], log[LOG_BYTES], pkg[2 * PATH_MAX];
    char topo[2 * PATH_MAX];
    ck_assert(inst_fits(exe, sizeof exe, "%s/xm-%.*s", inst_prefix, (int)(strlen(base) - 2), base));
    ck_assert(inst_fits(topo, sizeof topo, "%s.yaml", exe));
    FILE *f = fopen(topo, "w");
    ck_assert_ptr_nonnull(f);
    /* Below the kernel's ephemeral range (32768-60999 here): there an
     * example that just exited can still hold the port with a closing
     * client connection, and the bind fails "address in use" (seen in CI
     * with 40000 + (pid % 1000) * 20). At most 10000 + 349 * 64 + 62. */
    unsigned port = 10000u + (unsigned)(getpid() % 350) * 2u * MAX_EXAMPLES + (unsigned)_i * 2u;
    fprintf(f,
            "nodes:\n  - {domain: 1, node: 0, host: 127.0.0.1, port: %u}\n"
            "  - {domain: 1, node: 1, host: 127.0.0.1, port: %u}\n",
            port, port + 1);
    fclose(f);
    ck_assert(inst_fits(pkg, sizeof pkg,
                        "$(PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs xmcapi)",
                        inst_prefix));
    ck_assert(inst_fits(cmd, sizeof cmd, "cc -std=c11 %s '%s' %s -o '%s'", inst_san_flags(), src,
                        pkg, exe));
    int rc = inst_shell(cmd, log, sizeof log);
    ck_assert_msg(rc == 0, "%s\nexited %d:\n%s", cmd, rc, log);
    ck_assert(inst_fits(cmd, sizeof cmd, "XMCAPI_TOPOLOGY='%s' '%s'", topo, exe));
    rc = inst_shell(cmd, log, sizeof log);
    ck_assert_msg(rc == 0, "%s exited %d:\n%s", cmd, rc, log);
    /* It did go over TCP: a topology naming a port in use fails loudly. */
}
END_TEST

/* coro/examples/pipeline.c against the installed libcoro.a (pkg-config
 * coro). */
START_TEST(example_coro)
{
    inst_need_install();
    ck_assert_msg(inst_installed("include/coro/coro.h") && inst_installed("lib/libcoro.a") &&
                      inst_installed("lib/pkgconfig/coro.pc"),
                  "coro is not installed under %s", inst_prefix);
    char src[2 * PATH_MAX], exe[2 * PATH_MAX];
    ck_assert(inst_fits(src, sizeof src, "%s/coro/examples/pipeline.c", inst_root));
    ck_assert(inst_fits(exe, sizeof exe, "%s/coro-pipeline", inst_prefix));
    build_and_run(src, exe, "coro", "-lpthread", "sum of squares");
}
END_TEST

void tests_register(void)
{
    inst_init("mcapi-install");
    /* found at registration, so each is a test of its own */
    nexamples = inst_programs("mcapi_ref/examples/*.c", NULL, examples, MAX_EXAMPLES);
    Suite *s = harness_suite("mcapi-install");
    TCase *tc = harness_tcase(s, "install");
    tcase_add_unchecked_fixture(tc, inst_install_once, inst_remove_install);
    tcase_add_test(tc, installed);
    tcase_add_loop_test(tc, example, 0, nexamples);
    tcase_add_loop_test(tc, example_xmcapi, 0, nexamples);
    tcase_add_test(tc, example_coro);
}
