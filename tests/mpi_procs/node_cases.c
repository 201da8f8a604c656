/* node_cases.c -- one job on two nodes of this host: ranks whose hosts are
 * named differently (127.0.0.1 and localhost) share no region, so their
 * pairs take the stream transport (TCP over loopback), while ranks of one
 * node keep shared memory. The processes are started as a launcher would
 * (include/ipcsim/job.h), without mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procs.h"

/* The processes of a 4-rank job, 2 per node; every exit status must be 0.
 * k: tells the job apart from the test's other runs of name. */
static struct result two_nodes(const char *name, int k)
{
    char job[64];
    snprintf(job, sizeof job, "nodes-%s-%d-%d", name, (int)getpid(), k);
    static const char script[] = "pids=''\n"
                                 "for i in 0 1 2 3; do IPCSIM_CORE=$i \"$0\" & pids=\"$pids $!\"; "
                                 "done\n"
                                 "s=0\n"
                                 "for p in $pids; do wait $p || s=$?; done\n"
                                 "exit $s\n";
    char env_job[96], env_port[64];
    snprintf(env_job, sizeof env_job, "IPCSIM_JOB=%s", job);
    snprintf(env_port, sizeof env_port, "IPCSIM_PORT=%d", 10000 + (int)(getpid() % 2400) * 8);
    const char *env[] = {env_job, "IPCSIM_CORES=4",
                         "IPCSIM_HOSTS=127.0.0.1,127.0.0.1,localhost,localhost", env_port, NULL};
    const char *argv[] = {"/bin/sh", "-c", script, prog(name), NULL};
    struct result r = run(argv, env, NULL);
    ck_assert_msg(r.code == 0, "%s: exit %d\nstdout:\n%s\nstderr:\n%s", name, r.code, r.out, r.err);
    ck_assert_msg(r.err[0] == '\0', "%s: stderr:\n%s", name, r.err);
    ck_assert_int_eq(leftovers(job), 0); /* each node's region is gone */
    return r;
}

/* Five times: ranks released from MPI_Finalize close their streams while
 * others still wait for their release (that end of stream is no death). */
START_TEST(ring_two_nodes)
{
    for (int k = 0; k < 5; k++) {
        struct result r = two_nodes("ring", k);
        HAS(r.out, "ring: 4 ranks, token 6 from rank 3\n");
        HAS(r.out, "sendrecv: ok\n");
    }
}
END_TEST

START_TEST(collectives_two_nodes)
{
    struct result r = two_nodes("collect", 0);
    HAS(r.out, "bcast 403, reduce sum 6, allreduce max 3\n");
}
END_TEST

START_TEST(bulk_two_nodes)
{
    struct result r = two_nodes("bulk", 0);
    HAS(r.out, "bulk: 4 ranks, every byte right\n");
}
END_TEST

/* A launcher's bad host list stops the process at its first platform call,
 * naming the variable (exit 2). */
START_TEST(bad_hosts)
{
    static const char *const bad[][2] = {
        {"IPCSIM_HOSTS=a,b", "IPCSIM_HOSTS=a,b: 2 host names for 3 cores"},
        {"IPCSIM_HOSTS=a,,b", "IPCSIM_HOSTS=a,,b: not 3 host names"},
        {"IPCSIM_HOSTS=a,b,c,d", "IPCSIM_HOSTS=a,b,c,d: not 3 host names"},
        {"IPCSIM_PORT=65534", "IPCSIM_PORT=65534: not a port for 3 cores (1..65533)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *env[] = {"IPCSIM_JOB=badhosts", "IPCSIM_CORE=0", "IPCSIM_CORES=3", bad[i][0],
                             NULL};
        const char *argv[] = {prog("ring"), NULL};
        struct result r = run(argv, env, NULL);
        ck_assert_msg(r.code == 2, "%s: exit %d, stderr %s", bad[i][0], r.code, r.err);
        HAS(r.err, bad[i][1]);
    }
}
END_TEST

void procs_node_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "nodes");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, ring_two_nodes);
    tcase_add_test(tc, collectives_two_nodes);
    tcase_add_test(tc, bulk_two_nodes);
    tcase_add_test(tc, bad_hosts);
}
