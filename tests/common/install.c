/*
 * install.c -- see install.h. The installation happens once per suite in the
 * harness's own process, and each case runs the installed tools as a user
 * would, through sh.
 */
#define _GNU_SOURCE
#include "install.h"

#include "harness.h"

#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char inst_root[PATH_MAX];
char inst_prefix[PATH_MAX];
char inst_build[PATH_MAX];
static char setup_error[LOG_BYTES + 256];
static char suite_name[64];

void inst_init(const char *name)
{
    snprintf(suite_name, sizeof suite_name, "%s", name);
    const char *r = getenv("IPCSIM_ROOT"), *b = getenv("BUILD");
    if (!realpath(r && *r ? r : ".", inst_root)) harness_die("%s: no IPCSIM_ROOT", name);
    if (!realpath(b && *b ? b : "build", inst_build))
        harness_die("%s: BUILD=%s does not exist", name, b && *b ? b : "build");
}

bool inst_fits(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < len;
}

int inst_shell(const char *cmd, char *log, size_t loglen)
{
    char full[CMD_BYTES + 16];
    log[0] = '\0';
    if (!inst_fits(full, sizeof full, "( %s ) 2>&1", cmd)) {
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

const char *inst_san_flags(void)
{
    const char *san = getenv("SAN");
    if (san && strcmp(san, "asan") == 0) return "-fsanitize=address,undefined";
    if (san && strcmp(san, "tsan") == 0) return "-fsanitize=thread";
    return "";
}

void inst_install_once(void)
{
    char log[LOG_BYTES], cmd[CMD_BYTES];
    setup_error[0] = '\0';
    if (!inst_fits(inst_prefix, sizeof inst_prefix, "%s/%s.XXXXXX", inst_build, suite_name) ||
        !mkdtemp(inst_prefix)) {
        snprintf(setup_error, sizeof setup_error, "cannot make a directory under %s", inst_build);
        inst_prefix[0] = '\0';
        return;
    }
    inst_fits(cmd, sizeof cmd, "PREFIX='%s' BUILD='%s' '%s/tools/install.sh'", inst_prefix,
              inst_build, inst_root);
    int rc = inst_shell(cmd, log, sizeof log);
    if (rc != 0)
        snprintf(setup_error, sizeof setup_error, "tools/install.sh exited %d:\n%s", rc, log);
}

void inst_remove_install(void)
{
    char cmd[2 * PATH_MAX], log[LOG_BYTES];
    if (!inst_prefix[0]) return;
    inst_fits(cmd, sizeof cmd, "rm -rf '%s'", inst_prefix);
    inst_shell(cmd, log, sizeof log);
}

void inst_need_install(void)
{
    ck_assert_msg(setup_error[0] == '\0', "install: %s", setup_error);
}

bool inst_installed(const char *rel)
{
    char path[2 * PATH_MAX];
    struct stat sb;
    return inst_fits(path, sizeof path, "%s/%s", inst_prefix, rel) && stat(path, &sb) == 0 &&
           sb.st_size > 0;
}

int inst_programs(const char *pattern, const char *skip, char (*out)[PATH_MAX], int max)
{
    char full[PATH_MAX + 64];
    glob_t g;
    if (!inst_fits(full, sizeof full, "%s/%s", inst_root, pattern) || glob(full, 0, NULL, &g) != 0)
        harness_die("%s: no %s", suite_name, full);
    int n = 0;
    for (size_t i = 0; i < g.gl_pathc && n < max; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        if (skip && strcmp(base, skip) == 0) continue;
        if (inst_fits(out[n], PATH_MAX, "%s", g.gl_pathv[i])) n++;
    }
    globfree(&g);
    return n;
}
