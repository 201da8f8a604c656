/* input_cases.c -- bad input: a clear message and exit 2 before any rank
 * starts (ring would print on stdout); --help and --version; a launcher's
 * bad job environment. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "procs.h"

static void expect_usage(const struct result *r, const char *text)
{
    ck_assert_msg(r->code == 2, "exit %d, expected 2\nstderr:\n%s", r->code, r->err);
    HAS(r->err, text);
    ck_assert_msg(r->out[0] == '\0', "a rank ran:\n%s", r->out);
}

START_TEST(rank_counts)
{
    const char *ring = prog("ring");
    struct result r = MPIRUN("-n", "0", ring);
    expect_usage(&r, "mpirun: -n 0: the job needs at least 1 rank");
    r = MPIRUN("-n", "-1", ring);
    expect_usage(&r, "mpirun: -n -1: the job needs at least 1 rank");
    r = MPIRUN("-np", "abc", ring);
    expect_usage(&r, "mpirun: -np abc: not a number of ranks");
    r = MPIRUN("-n", "3x", ring);
    expect_usage(&r, "mpirun: -n 3x: not a number of ranks");
    r = MPIRUN("-n", "100000", ring);
    expect_usage(&r, "mpirun: -n 100000: more than 256 ranks");
    r = MPIRUN(ring);
    expect_usage(&r, "mpirun: -n N is missing");
    const char *argv[] = {mpirun_path(), "-n", NULL};
    r = run(argv, NULL, NULL);
    expect_usage(&r, "mpirun: -n needs a number of ranks");
}
END_TEST

START_TEST(options)
{
    const char *ring = prog("ring");
    struct result r = MPIRUN("--frobnicate", "-n", "2", ring);
    expect_usage(&r, "mpirun: unknown option '--frobnicate'");
    r = MPIRUN("-n", "2");
    expect_usage(&r, "mpirun: no program to run");
    r = MPIRUN("--timeout", "soon", "-n", "2", ring);
    expect_usage(&r, "mpirun: --timeout soon: not a positive number of seconds");
    r = MPIRUN("--bind-to", "socket", "-n", "2", ring);
    expect_usage(&r, "mpirun: --bind-to socket: not core or none");
    r = MPIRUN("--port", "0", "-n", "2", ring);
    expect_usage(&r, "mpirun: --port 0: not a port (1..65535)");
    r = MPIRUN("--port", "http", "-n", "2", ring);
    expect_usage(&r, "mpirun: --port http: not a port (1..65535)");
    r = MPIRUN("-n", "4", "--port", "65533", ring);
    expect_usage(&r, "mpirun: --port 65533: ranks 0..3 would listen at ports 65533..65536, "
                     "past 65535");
    r = MPIRUN("-n", "2", "--launcher", " ", ring);
    expect_usage(&r, "mpirun: --launcher ' ': no command");
    const char *pargv[] = {mpirun_path(), "-n", "2", ring, NULL};
    const char *penv[] = {"MPIRUN_PORT=70000", NULL};
    r = run(pargv, penv, NULL);
    expect_usage(&r, "mpirun: MPIRUN_PORT 70000: not a port (1..65535)");
    const char *penv2[] = {"MPIRUN_PORT=65535", NULL};
    r = run(pargv, penv2, NULL);
    expect_usage(&r, "mpirun: MPIRUN_PORT 65535: ranks 0..1 would listen at ports 65535..65536");
    const char *argv[] = {mpirun_path(), "-n", "1", ring, NULL};
    const char *env[] = {"MPIEXEC_TIMEOUT=-4", NULL};
    r = run(argv, env, NULL);
    expect_usage(&r, "mpirun: MPIEXEC_TIMEOUT -4: not a positive number of seconds");
    r = MPIRUN("--help");
    ck_assert_int_eq(r.code, 0);
    HAS(r.out, "usage: mpirun -n N [--hostfile FILE]");
    r = MPIRUN("--version");
    ck_assert_int_eq(r.code, 0);
    HAS(r.out, "mpirun (ipcsim mpi_lite) ");
}
END_TEST

START_TEST(programs)
{
    struct result r = MPIRUN("-n", "2", "no-such-program-xyz");
    expect_usage(&r, "mpirun: no-such-program-xyz: not found in PATH");
    r = MPIRUN("-n", "2", "/nonexistent/ring");
    expect_usage(&r, "mpirun: /nonexistent/ring: No such file or directory");
    const char *src = scratch_file("ring.c", "int main(void) { return 0; }\n");
    r = MPIRUN("-n", "2", src);
    expect_usage(&r, "not an executable file");
    r = MPIRUN("-n", "2", "/tmp");
    expect_usage(&r, "mpirun: /tmp: not an executable file");
}
END_TEST

START_TEST(hostfiles)
{
    const char *ring = prog("ring");
    struct result r = MPIRUN("--hostfile", "/nonexistent/hosts", "-n", "2", ring);
    expect_usage(&r, "mpirun: /nonexistent/hosts: cannot read the hostfile: No such file");
    /* a directory opens but cannot be read, even by root */
    r = MPIRUN("--hostfile", "/tmp", "-n", "2", ring);
    expect_usage(&r, "mpirun: /tmp: cannot read the hostfile: Is a directory");
    const char *hf = scratch_file("bad", "localhost\nlocalhost slots=two\n");
    r = MPIRUN("--hostfile", hf, "-n", "2", ring);
    char want[512];
    snprintf(want, sizeof want,
             "mpirun: %s:2: localhost slots=two: 'slots=two': slots must be a "
             "positive number",
             hf);
    expect_usage(&r, want);
    hf = scratch_file("zero", "# none\nlocalhost slots=0\n");
    r = MPIRUN("--hostfile", hf, "-n", "1", ring);
    snprintf(want, sizeof want, "%s:2: localhost slots=0: 'slots=0': slots must be a positive", hf);
    expect_usage(&r, want);
    hf = scratch_file("colon", "localhost:0\n");
    r = MPIRUN("--hostfile", hf, "-n", "1", ring);
    snprintf(want, sizeof want, "%s:1: localhost:0: slot count '0' is not a positive number", hf);
    expect_usage(&r, want);
    hf = scratch_file("junk", "localhost color=blue\n");
    r = MPIRUN("--hostfile", hf, "-n", "1", ring);
    expect_usage(&r, "'color=blue' is neither slots=N nor max_slots=N");
    hf = scratch_file("empty", "# nothing\n\n");
    r = MPIRUN("--hostfile", hf, "-n", "1", ring);
    expect_usage(&r, "the hostfile names no host");
    hf = scratch_file("few", "localhost slots=2\n");
    r = MPIRUN("--hostfile", hf, "-n", "3", ring);
    snprintf(want, sizeof want,
             "mpirun: %s has 2 slots for 3 ranks: not enough slots "
             "(--oversubscribe allows more ranks than slots)",
             hf);
    expect_usage(&r, want);
    /* TEST-NET-1: an address no host here has; IPCSIM_HOSTS is comma separated */
    hf = scratch_file("comma", "localhost:1\n192.0.2.7,x:4\n");
    r = MPIRUN("--hostfile", hf, "-n", "2", ring);
    snprintf(want, sizeof want, "mpirun: %s:2: host '192.0.2.7,x': IPCSIM_HOSTS cannot hold a ','",
             hf);
    expect_usage(&r, want);
    /* the launcher is checked only when a rank needs it, as a program is */
    hf = scratch_file("remote", "localhost:1\n192.0.2.7:4\n");
    r = MPIRUN("--hostfile", hf, "-n", "2", "--launcher", "no-such-launcher-xyz {host}", ring);
    expect_usage(&r, "mpirun: --launcher 'no-such-launcher-xyz {host}': no-such-launcher-xyz: not "
                     "found in PATH");
    const char *argv[] = {mpirun_path(), "--hostfile", hf, "-n", "2", ring, NULL};
    const char *env[] = {"MPIRUN_LAUNCHER=/nonexistent/ssh -x", "PATH=/nonexistent", NULL};
    r = run(argv, env, NULL);
    expect_usage(&r, "mpirun: MPIRUN_LAUNCHER '/nonexistent/ssh -x': /nonexistent/ssh: No such");
    const char *env2[] = {"PATH=/nonexistent", NULL};
    r = run(argv, env2, NULL);
    expect_usage(&r, "mpirun: the default launcher 'ssh {host}': ssh: not found in PATH");
}
END_TEST

/* A launcher's mistake is named by the rank itself: the variable and value. */
START_TEST(job_environment)
{
    const char *argv[] = {prog("ring"), NULL};
    static const struct {
        const char *env[4], *text;
    } t[] = {
        {{"IPCSIM_JOB=j1", "IPCSIM_CORE=5", "IPCSIM_CORES=2"},
         "ipcsim: IPCSIM_CORE=5: not a core of the job (0..1)"},
        {{"IPCSIM_JOB=j1", "IPCSIM_CORE=0", "IPCSIM_CORES=many"},
         "ipcsim: IPCSIM_CORES=many: not a number of cores (1..4096)"},
        {{"IPCSIM_JOB=j1", "IPCSIM_CORES=2"}, "ipcsim: IPCSIM_CORE=(unset): not a core"},
        {{"IPCSIM_JOB=a/b", "IPCSIM_CORE=0", "IPCSIM_CORES=1"},
         "ipcsim: IPCSIM_JOB=a/b: not a job name (1 to 64 of A-Z a-z 0-9 _ -)"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct result r = run(argv, t[i].env, NULL);
        expect_usage(&r, t[i].text);
    }
}
END_TEST

void procs_input_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "bad_input");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, rank_counts);
    tcase_add_test(tc, options);
    tcase_add_test(tc, programs);
    tcase_add_test(tc, hostfiles);
    tcase_add_test(tc, job_environment);
}
