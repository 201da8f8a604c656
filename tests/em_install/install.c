/*
 * install.c -- the em examples build against the installed library and run
 * natively.
 *
 * Once per run of the suite (an unchecked fixture) tools/install.sh installs
 * $BUILD into a fresh prefix under $BUILD. Then, for each em/examples/ *.c
 * but launch.c, as a user would:
 *
 *     cc -std=c11 -Wall -Wextra -Werror prog.c launch.c \
 *         $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --cflags --libs em) -lpthread
 *     ./prog -c 2
 *     ./prog -c 2 -s          (with a scheduler core of its own)
 *
 * must exit 0 and print the example's "<name>: ok: " line (the examples
 * check what they receive and exit 1 on any error or misorder).
 *
 * In an instrumented tree (SAN=asan or tsan) the sanitizer's flag is added
 * to the compile, as tests/mcapi_install does. The suite's name has no
 * "native" in it: it runs installed code, not the tree's.
 *
 * Env: BUILD (default "build"), IPCSIM_ROOT (the source tree, default ".").
 */
#define _GNU_SOURCE
#include "harness.h"
#include "install.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MAX_EXAMPLES 16

static char examples[MAX_EXAMPLES][PATH_MAX];
static int nexamples;

START_TEST(installed)
{
    inst_need_install();
    static const char *const files[] = {
        "include/event_machine.h", "lib/libem.a", "lib/pkgconfig/em.pc", "lib/libipcsim.a",
        "lib/pkgconfig/ipcsim.pc",
    };
    for (size_t i = 0; i < HARNESS_COUNT(files); i++)
        ck_assert_msg(inst_installed(files[i]), "%s/%s is missing or empty", inst_prefix, files[i]);
    char cmd[2 * PATH_MAX], log[LOG_BYTES];
    ck_assert(inst_fits(cmd, sizeof cmd,
                        "PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs em",
                        inst_prefix));
    ck_assert_msg(inst_shell(cmd, log, sizeof log) == 0, "%s:\n%s", cmd, log);
    ck_assert_msg(strstr(log, "-lem") && strstr(log, "-lipcsim"),
                  "pkg-config em lacks -lem -lipcsim: %s", log);
}
END_TEST

/* Example _i with launch.c, built with every warning an error, on 2 cores. */
START_TEST(example)
{
    inst_need_install();
    const char *src = examples[_i];
    const char *base = strrchr(src, '/') + 1;
    int stem = (int)(strlen(base) - 2);
    char exe[2 * PATH_MAX], launch[PATH_MAX + 32], pkg[2 * PATH_MAX], want[64];
    char cmd[CMD_BYTES], log[LOG_BYTES];
    ck_assert(inst_fits(exe, sizeof exe, "%s/em-%.*s", inst_prefix, stem, base));
    ck_assert(inst_fits(launch, sizeof launch, "%s/em/examples/launch.c", inst_root));
    ck_assert(inst_fits(pkg, sizeof pkg,
                        "$(PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs em)",
                        inst_prefix));
    ck_assert(inst_fits(cmd, sizeof cmd,
                        "cc -std=c11 -Wall -Wextra -Werror %s '%s' '%s' %s -lpthread -o '%s'",
                        inst_san_flags(), src, launch, pkg, exe));
    int rc = inst_shell(cmd, log, sizeof log);
    ck_assert_msg(rc == 0, "%s\nexited %d:\n%s", cmd, rc, log);

    /* inline, then with a scheduler core of its own (-s) */
    ck_assert(inst_fits(want, sizeof want, "%.*s: ok: ", stem, base));
    static const char *const modes[] = {"", " -s"};
    for (size_t m = 0; m < HARNESS_COUNT(modes); m++) {
        ck_assert(inst_fits(cmd, sizeof cmd, "timeout 120 '%s' -c 2%s", exe, modes[m]));
        rc = inst_shell(cmd, log, sizeof log);
        ck_assert_msg(rc == 0, "%s exited %d:\n%s", cmd, rc, log);
        ck_assert_msg(strstr(log, want), "%s printed no '%s':\n%s", cmd, want, log);
    }
}
END_TEST

void tests_register(void)
{
    inst_init("em-install");
    /* found at registration, so each is a test of its own */
    nexamples = inst_programs("em/examples/*.c", "launch.c", examples, MAX_EXAMPLES);
    Suite *s = harness_suite("em-install");
    TCase *tc = harness_tcase(s, "install");
    tcase_add_unchecked_fixture(tc, inst_install_once, inst_remove_install);
    tcase_add_test(tc, installed);
    tcase_add_loop_test(tc, example, 0, nexamples);
}
