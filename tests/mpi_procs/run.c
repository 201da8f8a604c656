/* run.c -- subprocesses for the tests: argv, environment, stdin, output. */
#define _GNU_SOURCE
#include "procs.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LIMIT_S 30.0

static char dir[256];

/* Every string handed to a test, freed by procs_teardown (LSan checks the
 * tests too). */
static char **kept;
static size_t nkept;

static char *hold(char *p)
{
    char **more = realloc(kept, (nkept + 1) * sizeof *kept);
    ck_assert_ptr_nonnull(more);
    kept = more;
    kept[nkept++] = p;
    return p;
}

void procs_teardown(void)
{
    for (size_t i = 0; i < nkept; i++) free(kept[i]);
    free(kept);
    kept = NULL;
    nkept = 0;
    if (!dir[0]) return;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    dir[0] = '\0';
}

static const char *build(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

/* A string that lives until procs_teardown. */
static const char *keep(const char *fmt, const char *a, const char *b)
{
    char *s;
    ck_assert_int_ge(asprintf(&s, fmt, a, b), 0);
    return hold(s);
}

static const char *scratch(void)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/mpi_procs.%d.XXXXXX", (int)getpid());
        ck_assert_msg(mkdtemp(dir), "mkdtemp %s", dir);
    }
    return dir;
}

const char *mpirun_path(void)
{
    return keep("%s/bin/mpirun%s", build(), "");
}

const char *prog(const char *name)
{
    return keep("%s/progs/mpi_procs/%s", build(), name);
}

const char *scratch_file(const char *name, const char *text)
{
    const char *path = keep("%s/%s", scratch(), name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t cap = 1 << 16, n = 0, got;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    while ((got = fread(b + n, 1, cap - n - 1, f)) > 0)
        if ((n += got) == cap - 1) {
            char *more = realloc(b, cap *= 2);
            ck_assert_ptr_nonnull(more);
            b = more;
        }
    b[n] = '\0';
    fclose(f);
    return hold(b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct result run(const char *const *argv, const char *const *env, const char *stdin_text)
{
    static int seq;
    char tag[32];
    snprintf(tag, sizeof tag, "%d", seq++);
    const char *out = keep("%s/out.%s", scratch(), tag);
    const char *err = keep("%s/err.%s", scratch(), tag);
    const char *in = stdin_text ? scratch_file(keep("in.%s%s", tag, ""), stdin_text) : "/dev/null";
    fflush(NULL);
    double t0 = now_s();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fi = open(in, O_RDONLY), fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600),
            fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fi < 0 || fo < 0 || fe < 0) _exit(120);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        for (const char *const *e = env; e && *e; e++) putenv((char *)*e);
        execv(argv[0], (char *const *)argv);
        _exit(121);
    }
    int st;
    pid_t w;
    /* A safety net only: every outcome is decided by the command itself. */
    while ((w = waitpid(pid, &st, WNOHANG)) == 0 && now_s() - t0 < LIMIT_S) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (w == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        ck_abort_msg("%s %s did not end within %.0f s", argv[0], argv[1] ? argv[1] : "", LIMIT_S);
    }
    struct result r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), slurp(out), slurp(err),
                       now_s() - t0};
    return r;
}

int leftovers(const char *job)
{
    char prefix[128];
    int n = snprintf(prefix, sizeof prefix, "ipcsim.%s.", job);
    DIR *d = opendir("/dev/shm");
    ck_assert_ptr_nonnull(d);
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d))) k += strncmp(e->d_name, prefix, (size_t)n) == 0;
    closedir(d);
    return k;
}

const char *job_of(const struct result *r)
{
    const char *p = strstr(r->out, "job ");
    if (!p) return "";
    char name[80];
    if (sscanf(p + 4, "%79[A-Za-z0-9_-]", name) != 1) return "";
    return keep("%s%s", name, "");
}
