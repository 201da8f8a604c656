/*
 * install.c -- MPI programs build unchanged with the installed mpicc and
 * pkg-config mpi_lite, and run.
 *
 * Once per run of the suite (an unchecked fixture, in the harness's own
 * process) tools/install.sh installs $BUILD into a fresh prefix under $BUILD
 * (util.c). Then, as a user would:
 *
 *   - every mpi_lite/examples/ *.c and mpi_lite/osu/ *.c (with osu_util.c)
 *     builds with PREFIX/bin/mpicc -Wall -Wextra -Werror -pedantic, and the
 *     same with cc $(pkg-config --cflags --libs mpi_lite);
 *   - hello runs as a plain process, a job of one rank, and says so;
 *   - autoconf's AC_CHECK_FUNC(MPI_Init) program links; a call outside the
 *     subset (MPI_Win_create) is a link error, never a stub;
 *   - mpicc -c / -S / -E / -M give what cc gives with the include directory;
 *     -show prints the command and runs nothing; version probes are cc's;
 *     arguments with spaces and quotes survive; --help, usage errors;
 *   - with the installed mpirun: osu_latency on 2 ranks, hello, ring and pi
 *     on 4.
 *
 * In an instrumented tree (SAN=asan or tsan) the installed libraries are
 * instrumented, so the sanitizer's flag is added to every link. The suite's
 * name has no "native" in it: it runs installed code, not the tree's.
 *
 * Env: BUILD (default "build"), IPCSIM_ROOT (the source tree, default ".").
 */
#define _GNU_SOURCE
#include "harness.h"
#include "install.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PROGS 32

struct prog {
    char src[PATH_MAX];
    char name[64]; /* its base name without .c */
    bool osu;      /* needs mpi_lite/osu/osu_util.c */
};
static struct prog progs[MAX_PROGS];
static int nprogs;

/* "PREFIX/bin/mpicc", quoted for sh. */
static void mpicc(char *buf, size_t len)
{
    ck_assert(inst_fits(buf, len, "'%s/bin/mpicc'", inst_prefix));
}

/* A fresh scratch directory under the prefix for one case. */
static void scratch(char *dir, size_t len, const char *name)
{
    char cmd[CMD_BYTES], log[LOG_BYTES];
    ck_assert(inst_fits(dir, len, "%s/t-%s", inst_prefix, name));
    ck_assert(inst_fits(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir));
    ck_assert_msg(inst_shell(cmd, log, sizeof log) == 0, "%s: %s", cmd, log);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* Run cmd; it must exit want_rc. The output is in log. */
static void run(const char *cmd, int want_rc, char *log, size_t loglen)
{
    int rc = inst_shell(cmd, log, loglen);
    ck_assert_msg(rc == want_rc, "%s\nexited %d, not %d:\n%s", cmd, rc, want_rc, log);
}

/* Build progs[i] into exe with the installed mpicc (every warning an error). */
static void build_mpicc(int i, const char *exe)
{
    char cc[PATH_MAX + 8], util[PATH_MAX + 8] = "", cmd[CMD_BYTES], log[LOG_BYTES];
    mpicc(cc, sizeof cc);
    if (progs[i].osu)
        ck_assert(inst_fits(util, sizeof util, "'%s/mpi_lite/osu/osu_util.c'", inst_root));
    ck_assert(inst_fits(cmd, sizeof cmd,
                        "%s -Wall -Wextra -Werror -pedantic -O2 %s '%s' %s -o '%s'", cc,
                        inst_san_flags(), progs[i].src, util, exe));
    run(cmd, 0, log, sizeof log);
}

static int find_prog(const char *name)
{
    for (int i = 0; i < nprogs; i++)
        if (strcmp(progs[i].name, name) == 0) return i;
    return -1;
}

START_TEST(installed)
{
    inst_need_install();
    static const char *const files[] = {
        "include/mpi_lite/mpi.h",
        "include/mpi_lite/mpi_lite.h",
        "lib/libmpi_lite.a",
        "lib/libipcsim.a",
        "lib/pkgconfig/mpi_lite.pc",
        "lib/pkgconfig/ipcsim.pc",
        "bin/mpicc",
    };
    char path[2 * PATH_MAX], cmd[CMD_BYTES], log[LOG_BYTES], want[2 * PATH_MAX];
    struct stat sb;
    for (size_t i = 0; i < HARNESS_COUNT(files); i++) {
        ck_assert(inst_fits(path, sizeof path, "%s/%s", inst_prefix, files[i]));
        ck_assert_msg(stat(path, &sb) == 0 && sb.st_size > 0, "%s is missing or empty", path);
    }
    ck_assert(inst_fits(path, sizeof path, "%s/bin/mpicc", inst_prefix));
    ck_assert_msg(access(path, X_OK) == 0, "%s is not executable", path);
    ck_assert(inst_fits(path, sizeof path, "%s/bin/mpirun", inst_prefix));
    ck_assert_msg(access(path, X_OK) == 0, "%s is not executable", path);
    /* mpi.h is not where a system MPI's would be found first. */
    ck_assert(inst_fits(path, sizeof path, "%s/include/mpi.h", inst_prefix));
    ck_assert_msg(access(path, F_OK) != 0, "%s: mpi.h installed at the top of include/", path);

    ck_assert(inst_fits(cmd, sizeof cmd,
                        "PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs mpi_lite",
                        inst_prefix));
    run(cmd, 0, log, sizeof log);
    ck_assert(inst_fits(want, sizeof want, "-I%s/include/mpi_lite", inst_prefix));
    ck_assert_msg(strstr(log, want), "pkg-config mpi_lite lacks %s: %s", want, log);
    ck_assert_msg(strstr(log, "-lmpi_lite") && strstr(log, "-lipcsim") && strstr(log, "-lpthread"),
                  "pkg-config mpi_lite lacks -lmpi_lite -lipcsim -lpthread: %s", log);
}
END_TEST

/* progs[_i] with the installed mpicc. */
START_TEST(build_with_mpicc)
{
    inst_need_install();
    char exe[2 * PATH_MAX];
    ck_assert(inst_fits(exe, sizeof exe, "%s/mpicc-%s", inst_prefix, progs[_i].name));
    build_mpicc(_i, exe);
    ck_assert_msg(access(exe, X_OK) == 0, "no %s", exe);
}
END_TEST

/* progs[_i] with cc and pkg-config mpi_lite. */
START_TEST(build_with_pkgconfig)
{
    inst_need_install();
    char exe[2 * PATH_MAX], util[PATH_MAX + 8] = "", cmd[CMD_BYTES], log[LOG_BYTES];
    ck_assert(inst_fits(exe, sizeof exe, "%s/pc-%s", inst_prefix, progs[_i].name));
    if (progs[_i].osu)
        ck_assert(inst_fits(util, sizeof util, "'%s/mpi_lite/osu/osu_util.c'", inst_root));
    ck_assert(inst_fits(cmd, sizeof cmd,
                        "cc -Wall -Wextra -Werror -pedantic -O2 %s '%s' %s "
                        "$(PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --cflags --libs mpi_lite) "
                        "-o '%s'",
                        inst_san_flags(), progs[_i].src, util, inst_prefix, exe));
    run(cmd, 0, log, sizeof log);
    ck_assert_msg(access(exe, X_OK) == 0, "no %s", exe);
}
END_TEST

/* A plain process is a job of one rank: hello says rank 0 of 1. */
START_TEST(hello_singleton)
{
    inst_need_install();
    int i = find_prog("hello");
    ck_assert_msg(i >= 0, "no mpi_lite/examples/hello.c");
    char exe[2 * PATH_MAX], cmd[CMD_BYTES], log[LOG_BYTES];
    ck_assert(inst_fits(exe, sizeof exe, "%s/single-hello", inst_prefix));
    build_mpicc(i, exe);
    ck_assert(inst_fits(cmd, sizeof cmd, "'%s'", exe));
    run(cmd, 0, log, sizeof log);
    ck_assert_msg(strstr(log, "0 of 1"), "%s printed '%s', without '0 of 1'", exe, log);
}
END_TEST

/* autoconf's AC_CHECK_FUNC conftest (2.71), for function fn. */
static void write_conftest(const char *path, const char *fn)
{
    char text[2048];
    ck_assert(inst_fits(text, sizeof text,
                        "#define %s innocuous_%s\n#include <limits.h>\n#undef %s\n"
                        "#ifdef __cplusplus\nextern \"C\"\n#endif\nchar %s ();\n"
                        "#if defined __stub_%s || defined __stub___%s\nchoke me\n#endif\n"
                        "int\nmain (void)\n{\nreturn %s ();\n  ;\n  return 0;\n}\n",
                        fn, fn, fn, fn, fn, fn, fn));
    write_file(path, text);
}

/* AC_CHECK_FUNC(MPI_Init) with CC=mpicc succeeds; the same probe for a
 * function outside the subset fails, as it must for configure to see it. */
START_TEST(autoconf_probe)
{
    inst_need_install();
    char dir[PATH_MAX], path[2 * PATH_MAX], cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES];
    scratch(dir, sizeof dir, "probe");
    mpicc(cc, sizeof cc);
    ck_assert(inst_fits(path, sizeof path, "%s/conftest.c", dir));
    write_conftest(path, "MPI_Init");
    ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && %s -o conftest %s conftest.c", dir, cc,
                        inst_san_flags()));
    run(cmd, 0, log, sizeof log);
    write_conftest(path, "MPI_Win_create");
    run(cmd, 1, log, sizeof log);
    ck_assert_msg(strstr(log, "MPI_Win_create"),
                  "the failed link does not name MPI_Win_create:\n%s", log);
}
END_TEST

/* A program calling MPI_Win_create (outside the subset) compiles, and its
 * link fails naming the call: no stub answers it. */
START_TEST(subset_link_error)
{
    inst_need_install();
    char dir[PATH_MAX], path[2 * PATH_MAX], cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES];
    scratch(dir, sizeof dir, "subset");
    mpicc(cc, sizeof cc);
    ck_assert(inst_fits(path, sizeof path, "%s/win.c", dir));
    write_file(path, "#include <mpi.h>\n"
                     "int MPI_Win_create(void *, long, int, int, MPI_Comm, void *);\n"
                     "int main(int argc, char **argv)\n{\n"
                     "    char buf[8], win[64];\n"
                     "    MPI_Init(&argc, &argv);\n"
                     "    MPI_Win_create(buf, 8, 1, 0, MPI_COMM_WORLD, win);\n"
                     "    return MPI_Finalize();\n}\n");
    ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && %s -Wall -Werror -c win.c", dir, cc));
    run(cmd, 0, log, sizeof log);
    ck_assert(
        inst_fits(cmd, sizeof cmd, "cd '%s' && %s %s win.o -o win", dir, cc, inst_san_flags()));
    run(cmd, 1, log, sizeof log);
    ck_assert_msg(strstr(log, "undefined reference") && strstr(log, "MPI_Win_create"),
                  "the link of win.o did not fail on MPI_Win_create:\n%s", log);
}
END_TEST

static const char modes_src[] = "#include <mpi.h>\n"
                                "int main(int argc, char **argv)\n{\n"
                                "    int rank = -1;\n"
                                "    MPI_Init(&argc, &argv);\n"
                                "    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
                                "    MPI_Finalize();\n"
                                "    return rank;\n}\n";

/* -c, -S, -E and -M are the compiler's, with the include directory only:
 * the same bytes as cc -I PREFIX/include/mpi_lite gives. */
START_TEST(modes)
{
    inst_need_install();
    static const char *const modes[][2] = {
        {"-c m.c -o a.o", "-c m.c -o b.o"},   {"-S m.c -o a.s", "-S m.c -o b.s"},
        {"-E m.c > a.i", "-E m.c > b.i"},     {"-M m.c > a.d", "-M m.c > b.d"},
        {"-MM m.c > a.mm", "-MM m.c > b.mm"},
    };
    static const char *const outs[][2] = {
        {"a.o", "b.o"}, {"a.s", "b.s"}, {"a.i", "b.i"}, {"a.d", "b.d"}, {"a.mm", "b.mm"},
    };
    char dir[PATH_MAX], path[2 * PATH_MAX], cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES];
    scratch(dir, sizeof dir, "modes");
    mpicc(cc, sizeof cc);
    ck_assert(inst_fits(path, sizeof path, "%s/m.c", dir));
    write_file(path, modes_src);
    for (size_t k = 0; k < HARNESS_COUNT(modes); k++) {
        ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && %s %s", dir, cc, modes[k][0]));
        run(cmd, 0, log, sizeof log);
        ck_assert_msg(log[0] == '\0', "%s said: %s", cmd, log);
        ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && cc -I'%s/include/mpi_lite' %s", dir,
                            inst_prefix, modes[k][1]));
        run(cmd, 0, log, sizeof log);
        ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && cmp %s %s", dir, outs[k][0], outs[k][1]));
        run(cmd, 0, log, sizeof log);
    }
    /* And they did read the installed mpi.h. */
    ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && cat a.d && grep -c MPI_Comm_rank a.i", dir));
    run(cmd, 0, log, sizeof log);
    ck_assert(inst_fits(path, sizeof path, "%s/include/mpi_lite/mpi.h", inst_prefix));
    ck_assert_msg(strstr(log, path), "mpicc -M lists no %s:\n%s", path, log);
}
END_TEST

/* -show / -showme print the command and run nothing; the pieces alone. */
START_TEST(show)
{
    inst_need_install();
    char dir[PATH_MAX], cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES], want[4 * PATH_MAX];
    scratch(dir, sizeof dir, "show");
    mpicc(cc, sizeof cc);
    ck_assert(inst_fits(want, sizeof want,
                        "gcc -I%s/include/mpi_lite x.c -o x -L%s/lib -lmpi_lite -lipcsim "
                        "-lpthread -lm\n",
                        inst_prefix, inst_prefix));
    static const char *const spellings[] = {"-show", "-showme"};
    for (size_t k = 0; k < HARNESS_COUNT(spellings); k++) {
        ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && MPICC_CC=gcc %s %s x.c -o x", dir, cc,
                            spellings[k]));
        run(cmd, 0, log, sizeof log);
        ck_assert_msg(strcmp(log, want) == 0, "%s printed\n'%s', not\n'%s'", cmd, log, want);
    }
    ck_assert(inst_fits(cmd, sizeof cmd, "cd '%s' && test ! -e x", dir));
    run(cmd, 0, log, sizeof log);

    ck_assert(inst_fits(cmd, sizeof cmd, "%s -show -cc=clang -c x.c", cc));
    run(cmd, 0, log, sizeof log);
    ck_assert(inst_fits(want, sizeof want, "clang -I%s/include/mpi_lite -c x.c\n", inst_prefix));
    ck_assert_msg(strcmp(log, want) == 0, "%s printed '%s', not '%s'", cmd, log, want);

    ck_assert(inst_fits(cmd, sizeof cmd, "%s -showme:compile", cc));
    run(cmd, 0, log, sizeof log);
    ck_assert(inst_fits(want, sizeof want, "-I%s/include/mpi_lite\n", inst_prefix));
    ck_assert_msg(strcmp(log, want) == 0, "%s printed '%s', not '%s'", cmd, log, want);
    ck_assert(inst_fits(cmd, sizeof cmd, "%s -showme:link", cc));
    run(cmd, 0, log, sizeof log);
    ck_assert(
        inst_fits(want, sizeof want, "-L%s/lib -lmpi_lite -lipcsim -lpthread -lm\n", inst_prefix));
    ck_assert_msg(strcmp(log, want) == 0, "%s printed '%s', not '%s'", cmd, log, want);
}
END_TEST

/* Spaces and quotes in arguments reach the compiler as they were. */
START_TEST(quoting)
{
    inst_need_install();
    char dir[PATH_MAX], path[2 * PATH_MAX], cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES];
    scratch(dir, sizeof dir, "quoting");
    mpicc(cc, sizeof cc);
    ck_assert(inst_fits(path, sizeof path, "%s/q.c", dir));
    write_file(path, "#include <mpi.h>\n#include <stdio.h>\n"
                     "int main(int argc, char **argv)\n{\n"
                     "    MPI_Init(&argc, &argv);\n"
                     "    puts(GREETING);\n"
                     "    return MPI_Finalize();\n}\n");
    ck_assert(
        inst_fits(cmd, sizeof cmd,
                  "cd '%s' && mkdir -p 'a dir' && "
                  "%s %s \"-DGREETING=\\\"two  spaces 'and quotes'\\\"\" q.c -o 'a dir/q p' && "
                  "'./a dir/q p'",
                  dir, cc, inst_san_flags()));
    run(cmd, 0, log, sizeof log);
    ck_assert_msg(strcmp(log, "two  spaces 'and quotes'\n") == 0, "%s printed '%s'", cmd, log);
    /* -show's line is a shell command that does the same. */
    ck_assert(inst_fits(cmd, sizeof cmd,
                        "cd '%s' && rm -f 'a dir/q p' && "
                        "eval \"$(%s -show %s \"-DGREETING=\\\"two  spaces 'and quotes'\\\"\" q.c "
                        "-o 'a dir/q p')\" && '%s/a dir/q p'",
                        dir, cc, inst_san_flags(), dir));
    run(cmd, 0, log, sizeof log);
    ck_assert_msg(strcmp(log, "two  spaces 'and quotes'\n") == 0, "%s printed '%s'", cmd, log);
}
END_TEST

/* Version and configuration probes are the compiler's own answers. */
START_TEST(probes)
{
    inst_need_install();
    static const char *const probes[] = {"--version", "-dumpversion", "-dumpmachine",
                                         "-print-prog-name=ld", "-print-search-dirs"};
    char cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES], want[LOG_BYTES];
    mpicc(cc, sizeof cc);
    for (size_t k = 0; k < HARNESS_COUNT(probes); k++) {
        ck_assert(inst_fits(cmd, sizeof cmd, "cc %s", probes[k]));
        run(cmd, 0, want, sizeof want);
        ck_assert(inst_fits(cmd, sizeof cmd, "%s %s", cc, probes[k]));
        run(cmd, 0, log, sizeof log);
        ck_assert_msg(log[0] && strcmp(log, want) == 0, "%s printed '%s', cc '%s'", cmd, log, want);
        /* ... asked with nothing of mpi_lite's added. */
        ck_assert(inst_fits(cmd, sizeof cmd, "MPICC_CC=gcc %s -show %s", cc, probes[k]));
        run(cmd, 0, log, sizeof log);
        ck_assert(inst_fits(want, sizeof want, "gcc %s\n", probes[k]));
        ck_assert_msg(strcmp(log, want) == 0, "%s printed '%s', not '%s'", cmd, log, want);
    }
}
END_TEST

/* --help, and mpicc's own usage errors (exit 2), a missing compiler (127). */
START_TEST(usage)
{
    inst_need_install();
    char cc[PATH_MAX + 8], cmd[CMD_BYTES], log[LOG_BYTES];
    mpicc(cc, sizeof cc);
    ck_assert(inst_fits(cmd, sizeof cmd, "%s --help", cc));
    run(cmd, 0, log, sizeof log);
    ck_assert_msg(strstr(log, "usage: mpicc") && strstr(log, "-showme"), "--help: %s", log);
    ck_assert(inst_fits(cmd, sizeof cmd, "%s", cc));
    run(cmd, 2, log, sizeof log);
    ck_assert_msg(strstr(log, "mpicc: no arguments"), "no arguments: %s", log);
    ck_assert(inst_fits(cmd, sizeof cmd, "%s -cc= x.c", cc));
    run(cmd, 2, log, sizeof log);
    ck_assert_msg(strstr(log, "mpicc: -cc= names no compiler"), "-cc=: %s", log);
    ck_assert(inst_fits(cmd, sizeof cmd, "MPICC_CC=no-such-cc-here %s x.c", cc));
    run(cmd, 127, log, sizeof log);
    ck_assert_msg(strstr(log, "'no-such-cc-here' is not found"), "MPICC_CC: %s", log);
}
END_TEST

/* The last number after "error" (any case) in text, or NAN. */
static double number_after_error(const char *text)
{
    const char *p = strcasestr(text, "error");
    if (!p) return NAN;
    for (p += 5; *p; p++) {
        char *end;
        double v = strtod(p, &end);
        if (end != p) return v;
    }
    return NAN;
}

/* hello, ring and pi on 4 ranks with the installed mpirun. */
START_TEST(mpirun_examples)
{
    inst_need_install();
    char exe[2 * PATH_MAX], cmd[CMD_BYTES], log[LOG_BYTES];
    /* osu_latency on 2 ranks, short: a row for every size 1 .. 64. */
    int osu = find_prog("osu_latency");
    ck_assert(inst_fits(exe, sizeof exe, "%s/run-osu_latency", inst_prefix));
    build_mpicc(osu, exe);
    ck_assert(inst_fits(cmd, sizeof cmd,
                        "timeout 30 '%s/bin/mpirun' -n 2 '%s' -m 1:64 -i 100 -x 10", inst_prefix,
                        exe));
    run(cmd, 0, log, sizeof log);
    for (int size = 1; size <= 64; size *= 2) {
        char want[32];
        snprintf(want, sizeof want, "\n%d ", size);
        ck_assert_msg(strstr(log, want), "osu_latency on 2 ranks has no row %d:\n%s", size, log);
    }
    static const char *const names[] = {"hello", "ring", "pi"};
    for (size_t k = 0; k < HARNESS_COUNT(names); k++) {
        int i = find_prog(names[k]);
        ck_assert_msg(i >= 0, "no mpi_lite/examples/%s.c", names[k]);
        ck_assert(inst_fits(exe, sizeof exe, "%s/run-%s", inst_prefix, names[k]));
        build_mpicc(i, exe);
        ck_assert(
            inst_fits(cmd, sizeof cmd, "timeout 30 '%s/bin/mpirun' -n 4 '%s'", inst_prefix, exe));
        run(cmd, 0, log, sizeof log);
        if (strcmp(names[k], "hello") == 0) {
            for (int r = 0; r < 4; r++) {
                char rank[32];
                snprintf(rank, sizeof rank, "%d of 4", r);
                ck_assert_msg(strstr(log, rank), "hello on 4 ranks lacks '%s':\n%s", rank, log);
            }
        } else if (strcmp(names[k], "ring") == 0) {
            /* "token T (expected E)": T went around every rank. */
            const char *t = strstr(log, "token ");
            long token = -1, expect = -2;
            ck_assert_msg(t && sscanf(t, "token %ld (expected %ld)", &token, &expect) == 2,
                          "ring printed no 'token T (expected E)':\n%s", log);
            ck_assert_msg(token == expect && strstr(log, "ring: ok"),
                          "ring's token %ld, expected %ld:\n%s", token, expect, log);
        } else {
            double err = number_after_error(log);
            ck_assert_msg(fabs(err) < 1e-6, "pi's error %g is not below 1e-6:\n%s", err, log);
        }
    }
}
END_TEST

static void add_progs(const char *pattern, bool osu)
{
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOMATCH) return;
    if (rc != 0) harness_die("mpi_install: glob %s failed", pattern);
    for (size_t i = 0; i < g.gl_pathc && nprogs < MAX_PROGS; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        if (strcmp(base, "osu_util.c") == 0) continue;
        struct prog *p = &progs[nprogs];
        if (!inst_fits(p->src, sizeof p->src, "%s", g.gl_pathv[i]) ||
            !inst_fits(p->name, sizeof p->name, "%.*s", (int)(strlen(base) - 2), base))
            harness_die("mpi_install: %s: name too long", g.gl_pathv[i]);
        p->osu = osu;
        nprogs++;
    }
    globfree(&g);
}

void tests_register(void)
{
    inst_init("mpi-install");
    char pattern[PATH_MAX + 32];
    snprintf(pattern, sizeof pattern, "%s/mpi_lite/examples/*.c", inst_root);
    add_progs(pattern, false);
    snprintf(pattern, sizeof pattern, "%s/mpi_lite/osu/*.c", inst_root);
    add_progs(pattern, true);
    if (find_prog("osu_latency") < 0) harness_die("mpi_install: no mpi_lite/osu/osu_latency.c");

    Suite *s = harness_suite("mpi-install");
    TCase *tc = harness_tcase(s, "install");
    tcase_add_unchecked_fixture(tc, inst_install_once, inst_remove_install);
    tcase_add_test(tc, installed);
    tcase_add_loop_test(tc, build_with_mpicc, 0, nprogs);
    tcase_add_loop_test(tc, build_with_pkgconfig, 0, nprogs);
    tcase_add_test(tc, hello_singleton);
    tcase_add_test(tc, autoconf_probe);
    tcase_add_test(tc, subset_link_error);
    tcase_add_test(tc, modes);
    tcase_add_test(tc, show);
    tcase_add_test(tc, quoting);
    tcase_add_test(tc, probes);
    tcase_add_test(tc, usage);
    tcase_add_test(tc, mpirun_examples);
}
