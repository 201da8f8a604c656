/*
 * util.c -- see util.h. The pattern of tests/mcapi_install/install.c: the
 * installation happens once per suite in the harness's own process, and
 * each case runs the installed tools as a user would, through sh.
 */
#define _GNU_SOURCE
#include "util.h"

#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char mi_root[PATH_MAX];
char mi_prefix[PATH_MAX];
char mi_build[PATH_MAX];
static char setup_error[LOG_BYTES + 256];

bool mi_fits(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < len;
}

int mi_shell(const char *cmd, char *log, size_t loglen)
{
    char full[CMD_BYTES + 16];
    log[0] = '\0';
    if (!mi_fits(full, sizeof full, "( %s ) 2>&1", cmd)) {
        snprintf(log, loglen, "command too long");
        return -1;
    }
    FILE *p = popen(full, "r");
    if (!p) {
        snprintf(log, loglen, "popen failed");
        return -1;
    }
    size_t len = 0;
    char chunk[512];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) {
        if (n >= loglen) n = loglen - 1;
        if (len + n >= loglen) { /* keep the end: the error is usually last */
            size_t drop = len + n - (loglen - 1);
            memmove(log, log + drop, len - drop);
            len -= drop;
        }
        memcpy(log + len, chunk, n);
        len += n;
        log[len] = '\0';
    }
    int st = pclose(p);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *mi_san_flags(void)
{
    const char *san = getenv("SAN");
    if (san && strcmp(san, "asan") == 0) return "-fsanitize=address,undefined";
    if (san && strcmp(san, "tsan") == 0) return "-fsanitize=thread";
    return "";
}

void mi_install_once(void)
{
    char log[LOG_BYTES], cmd[CMD_BYTES];
    setup_error[0] = '\0';
    if (!mi_fits(mi_prefix, sizeof mi_prefix, "%s/mpi-install.XXXXXX", mi_build) ||
        !mkdtemp(mi_prefix)) {
        snprintf(setup_error, sizeof setup_error, "cannot make a directory under %s", mi_build);
        mi_prefix[0] = '\0';
        return;
    }
    mi_fits(cmd, sizeof cmd, "PREFIX='%s' BUILD='%s' '%s/tools/install.sh'", mi_prefix, mi_build,
            mi_root);
    int rc = mi_shell(cmd, log, sizeof log);
    if (rc != 0)
        snprintf(setup_error, sizeof setup_error, "tools/install.sh exited %d:\n%s", rc, log);
}

void mi_remove_install(void)
{
    char cmd[2 * PATH_MAX], log[LOG_BYTES];
    if (!mi_prefix[0]) return;
    mi_fits(cmd, sizeof cmd, "rm -rf '%s'", mi_prefix);
    mi_shell(cmd, log, sizeof log);
}

void mi_need_install(void)
{
    ck_assert_msg(setup_error[0] == '\0', "install: %s", setup_error);
}
