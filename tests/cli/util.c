/* util.c -- scratch directories, running ipcsim, reading its files. */
#define _GNU_SOURCE
#include "cli.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmp[4096];

/* Every string handed to a test, freed by cli_done (LSan checks the tests too). */
static char **kept;
static size_t nkept;

static char *keep(char *p)
{
    char **more = realloc(kept, (nkept + 1) * sizeof *kept);
    ck_assert_ptr_nonnull(more);
    kept = more;
    kept[nkept++] = p;
    return p;
}

static const char *build(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

const char *cli_tmp(void)
{
    if (tmp[0]) return tmp;
    char parent[2048];
    snprintf(parent, sizeof parent, "%s/tmp-cli", build());
    mkdir(build(), 0777);
    mkdir(parent, 0777);
    snprintf(tmp, sizeof tmp, "%s/XXXXXX", parent);
    ck_assert_msg(mkdtemp(tmp), "cannot create a scratch directory under %s", parent);
    return tmp;
}

void cli_done(void)
{
    for (size_t i = 0; i < nkept; i++) free(kept[i]);
    free(kept);
    kept = NULL;
    nkept = 0;
    if (!tmp[0]) return;
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    ck_assert_int_eq(system(cmd), 0);
    tmp[0] = '\0';
}

static char *read_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            cap *= 2;
            char *bigger = realloc(buf, cap);
            ck_assert_ptr_nonnull(bigger);
            buf = bigger;
        }
    }
    fclose(f);
    buf[n] = '\0';
    return keep(buf);
}

/* Run the shell command cmd, capturing its output in the scratch directory. */
static struct cli_out capture(const char *cmd)
{
    char full[40000], out[4200], err[4200];
    const char *t = cli_tmp();
    snprintf(out, sizeof out, "%s/.stdout", t);
    snprintf(err, sizeof err, "%s/.stderr", t);
    snprintf(full, sizeof full, "%s >'%s' 2>'%s'", cmd, out, err);
    fflush(stdout);
    int st = system(full);
    ck_assert_int_ne(st, -1);
    struct cli_out r = {0};
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = read_path(out);
    r.err = read_path(err);
    ck_assert_ptr_nonnull(r.out);
    ck_assert_ptr_nonnull(r.err);
    unlink(out);
    unlink(err);
    return r;
}

struct cli_out cli_run(const char *fmt, ...)
{
    char args[8192], cmd[32768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s/ipcsim' %s", build(), args);
    return capture(cmd);
}

struct cli_out cli_sh(const char *fmt, ...)
{
    char cmd[32768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return capture(cmd);
}

const char *cli_build(void)
{
    return build();
}

char *cli_read(const char *fmt, ...)
{
    char path[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    return read_path(path);
}

void cli_write(const char *text, const char *fmt, ...)
{
    char path[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    /* Parent directories as needed. */
    for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0777);
        *s = '/';
    }
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f, "cannot write %s", path);
    ck_assert_uint_eq(fwrite(text, 1, strlen(text), f), strlen(text));
    ck_assert_int_eq(fclose(f), 0);
}

int cli_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

int cli_lines(const char *text)
{
    int n = 0;
    for (const char *s = text; *s; s++)
        if (*s == '\n' || s[1] == '\0') n++;
    return n;
}

double cli_csv_value(const char *csv, const char *series, const char *x)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s,%s,", series, x);
    const char *at = strstr(csv, key);
    if (!at) return -1;
    return strtod(at + strlen(key), NULL);
}

char *cli_wrote_csv(const struct cli_out *r)
{
    const char *at = strncmp(r->out, "wrote ", 6) == 0 ? r->out : strstr(r->out, "\nwrote ");
    ck_assert_msg(at, "no wrote line in:\n%s", r->out);
    at = strchr(at, 'w') + 6;
    size_t n = strcspn(at, ",\n");
    ck_assert_msg(n > 4 && strncmp(at + n - 4, ".csv", 4) == 0, "wrote no CSV first: %s", at);
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)n, at);
    return read_path(path);
}

char *cli_report_of(const char *yaml, const char *stem)
{
    const char *t = cli_tmp();
    cli_write(yaml, "%s/scen/grp/%s.yaml", t, stem);
    struct cli_out r = cli_run("run '%s/scen/grp/%s.yaml' --out '%s/res/grp'", t, stem, t);
    ck_assert_msg(r.status == 0 || r.status == 1, "run: exit %d: %s", r.status, r.err);
    r = cli_run("report --out '%s/res' '%s/scen/grp/%s.yaml'", t, t, stem);
    ck_assert_msg(r.status == 0, "report: exit %d: %s", r.status, r.err);
    char *md = cli_read("%s/res/REPORT.md", t);
    ck_assert_msg(md, "no %s/res/REPORT.md", t);
    return md;
}
