/* host_cases.c -- ranks on other hosts: what mpirun tells each rank and how
 * it starts them through the launcher. The hosts are TEST-NET addresses no
 * host has, and the launcher is env(1) on this host, so the programs here
 * are shell scripts that print their environment, not MPI programs (those
 * would try to reach the fake hosts: tests/net/mpi.sh runs them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ipcsim/job.h"
#include "procs.h"

/* A launcher that runs the rank here and leaves its substitutions in the
 * rank's environment. */
#define LAUNCHER "env LAUNCH_HOST={host} LAUNCH_NODE=ns{node}x"

static const char show_sh[] =
    "#!/bin/sh\n"
    "echo \"rank $IPCSIM_CORE of $IPCSIM_CORES: $0 host=${LAUNCH_HOST-none} "
    "node=${LAUNCH_NODE-none} hosts=${IPCSIM_HOSTS-unset} port=$IPCSIM_PORT "
    "local=$PMI_LOCAL_RANK/$PMI_LOCAL_SIZE mpich=$MPI_LOCALRANKID/$MPI_LOCALNRANKS "
    "ompi=$OMPI_COMM_WORLD_LOCAL_RANK/$OMPI_COMM_WORLD_LOCAL_SIZE world=$PMI_RANK/$PMI_SIZE "
    "job=$IPCSIM_JOB args=$#:$*\"\n";

/* The script, executable; its directory into dir. */
static const char *show(char *dir, size_t n)
{
    const char *path = scratch_file("show", show_sh);
    ck_assert_int_eq(chmod(path, 0755), 0);
    snprintf(dir, n, "%.*s", (int)(strrchr(path, '/') - path), path);
    return path;
}

static void expect_ok(const struct result *r)
{
    ck_assert_msg(r->code == 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r->code, r->out, r->err);
    ck_assert_msg(r->err[0] == '\0', "stderr:\n%s", r->err);
}

struct want {
    const char *path, *host, *node, *local;
};

/* Every rank's line: its place, the job's hosts and port, one job name. */
static void expect_ranks(const struct result *r, int n, const struct want *w, const char *hosts,
                         const char *port)
{
    const char *j = strstr(r->out, "job=");
    ck_assert_msg(j, "no job= in:\n%s", r->out);
    char job[80];
    ck_assert_int_eq(sscanf(j, "job=%79s", job), 1);
    for (int i = 0; i < n; i++) {
        char line[1024];
        snprintf(line, sizeof line,
                 "rank %d of %d: %s host=%s node=%s hosts=%s port=%s local=%s mpich=%s ompi=%s "
                 "world=%d/%d job=%s args=2:x two words\n",
                 i, n, w[i].path, w[i].host, w[i].node, hosts, port, w[i].local, w[i].local,
                 w[i].local, i, n, job);
        HAS(r->out, line);
    }
}

/* Two remote hosts, one of them on two lines (one host): ranks fill them by
 * slots, each remote rank starts as LAUNCHER env VAR=.. PROGRAM ARGS, with
 * {host} and {node} replaced and the program's path made absolute. */
START_TEST(remote_ranks)
{
    char dir[256], path[320], dotted[320];
    show(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/show", dir);
    snprintf(dotted, sizeof dotted, "%s/./show", dir);
    const char *hf =
        scratch_file("hosts", "192.0.2.7 slots=2\n198.51.100.9\n192.0.2.7:1 # again\n");
    struct result r = MPIRUN("--hostfile", hf, "-n", "4", "--launcher", LAUNCHER, "--port", "31000",
                             dotted, "x", "two words");
    expect_ok(&r);
    const struct want w[] = {{path, "192.0.2.7", "ns0x", "0/3"},
                             {path, "192.0.2.7", "ns0x", "1/3"},
                             {path, "198.51.100.9", "ns1x", "0/1"},
                             {path, "192.0.2.7", "ns0x", "2/3"}};
    expect_ranks(&r, 4, w, "192.0.2.7,192.0.2.7,198.51.100.9,192.0.2.7", "31000");
}
END_TEST

/* More ranks than slots: the hosts again from the first. */
START_TEST(oversubscribed_hosts)
{
    const char *hf = scratch_file("hosts", "192.0.2.7\n198.51.100.9\n");
    struct result r =
        MPIRUN("--hostfile", hf, "-n", "3", "--oversubscribe", "--launcher", "env", "sh", "-c",
               "echo $IPCSIM_CORE $IPCSIM_HOSTS $PMI_LOCAL_RANK/$PMI_LOCAL_SIZE");
    expect_ok(&r);
    HAS(r.out, "0 192.0.2.7,198.51.100.9,192.0.2.7 0/2\n");
    HAS(r.out, "1 192.0.2.7,198.51.100.9,192.0.2.7 0/1\n");
    HAS(r.out, "2 192.0.2.7,198.51.100.9,192.0.2.7 1/2\n");
}
END_TEST

/* This host and another: the local rank runs directly (its path as given,
 * no launcher), yet IPCSIM_HOSTS names every rank's host as written; the
 * launcher comes from MPIRUN_LAUNCHER, the port from MPIRUN_PORT. */
START_TEST(mixed_hosts)
{
    char dir[256], path[320], dotted[320];
    show(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/show", dir);
    snprintf(dotted, sizeof dotted, "%s/./show", dir);
    const char *hf = scratch_file("hosts", "localhost\n192.0.2.7 slots=2\n");
    const char *argv[] = {mpirun_path(), "-n", "3",         "--hostfile", hf,
                          dotted,        "x",  "two words", NULL};
    const char *env[] = {"MPIRUN_LAUNCHER=" LAUNCHER, "MPIRUN_PORT=40100", NULL};
    struct result r = run(argv, env, NULL);
    expect_ok(&r);
    const struct want w[] = {{dotted, "none", "none", "0/1"},
                             {path, "192.0.2.7", "ns1x", "0/2"},
                             {path, "192.0.2.7", "ns1x", "1/2"}};
    expect_ranks(&r, 3, w, "localhost,192.0.2.7,192.0.2.7", "40100");
    /* --port wins over MPIRUN_PORT */
    const char *argv2[] = {mpirun_path(), "-n", "3",         "--port", "40200", "--hostfile", hf,
                           dotted,        "x",  "two words", NULL};
    r = run(argv2, env, NULL);
    expect_ok(&r);
    expect_ranks(&r, 3, w, "localhost,192.0.2.7,192.0.2.7", "40200");
}
END_TEST

/* Every host this one: one node as without a hostfile, IPCSIM_HOSTS unset,
 * the launcher (here one that would fail) never used, the local variables
 * the world's; the port derived from the job's name, the same in every rank. */
START_TEST(local_hosts)
{
    char dir[256];
    const char *path = show(dir, sizeof dir);
    const char *hf = scratch_file("hosts", "localhost slots=1\n127.0.0.1:2\n");
    struct result r =
        MPIRUN("--hostfile", hf, "-n", "3", "--launcher", "false", path, "x", "two words");
    expect_ok(&r);
    const char *p = strstr(r.out, "port=");
    int port = 0;
    ck_assert_msg(p && sscanf(p, "port=%d", &port) == 1, "no port in:\n%s", r.out);
    ck_assert_msg(port >= IPCSIM_JOB_PORT_MIN && port + 2 < IPCSIM_JOB_PORT_END, "derived port %d",
                  port);
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    const struct want w[] = {{path, "none", "none", "0/3"},
                             {path, "none", "none", "1/3"},
                             {path, "none", "none", "2/3"}};
    expect_ranks(&r, 3, w, "unset", ps);
}
END_TEST

/* A remote rank whose launcher fails is a failed rank: named with its host,
 * the local one stopped at once, mpirun's status the launcher's. */
START_TEST(launcher_fails)
{
    const char *hf = scratch_file("hosts", "localhost\n192.0.2.7\n");
    const char *sh = scratch_file("launch", "#!/bin/sh\necho \"launch: $1\" >&2\nexit 5\n");
    ck_assert_int_eq(chmod(sh, 0755), 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "%s {host}", sh);
    struct result r = MPIRUN("--hostfile", hf, "-n", "2", "--launcher", cmd, "sleep", "20");
    ck_assert_msg(r.code == 5, "exit %d\nstderr:\n%s", r.code, r.err);
    HAS(r.err, "launch: 192.0.2.7\n");
    HAS(r.err, ", launched on host 192.0.2.7) exited with status 5\n");
    HAS(r.err, "mpirun: stopping the job's other 1 rank\n");
    ck_assert_msg(r.secs < 10, "took %.1f s: the local rank was not stopped", r.secs);
}
END_TEST

void procs_host_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "hosts");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, remote_ranks);
    tcase_add_test(tc, oversubscribed_hosts);
    tcase_add_test(tc, mixed_hosts);
    tcase_add_test(tc, local_hosts);
    tcase_add_test(tc, launcher_fails);
}
