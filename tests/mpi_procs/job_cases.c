/* job_cases.c -- MPI programs as processes: results, environment, the
 * transport and waking across processes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"

static void expect_clean(const struct result *r)
{
    ck_assert_msg(r->code == 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r->code, r->out, r->err);
    ck_assert_msg(r->err[0] == '\0', "stderr:\n%s", r->err);
}

START_TEST(ring)
{
    for (int n = 1; n <= 4; n++) {
        char ns[16], want[96];
        snprintf(ns, sizeof ns, "%d", n);
        struct result r = MPIRUN("-n", ns, prog("ring"));
        expect_clean(&r);
        snprintf(want, sizeof want, "ring: %d ranks, token %d from rank %d\n", n, n * (n - 1) / 2,
                 n - 1);
        HAS(r.out, want);
        HAS(r.out, "sendrecv: ok\n");
    }
}
END_TEST

START_TEST(collectives)
{
    for (int n = 1; n <= 4; n++) {
        char ns[16], want[96];
        snprintf(ns, sizeof ns, "%d", n);
        struct result r = MPIRUN("-np", ns, prog("collect"));
        expect_clean(&r);
        snprintf(want, sizeof want, "bcast %d, reduce sum %d, allreduce max %d\n", 100 * n + 3,
                 n * (n - 1) / 2, n - 1);
        HAS(r.out, want);
    }
}
END_TEST

START_TEST(environment)
{
    const char *argv[] = {mpirun_path(), "-n", "3", prog("env"), NULL};
    struct result r = run(argv, NULL, "hello\n");
    expect_clean(&r);
    for (int i = 0; i < 3; i++) {
        char want[256];
        snprintf(want, sizeof want,
                 "rank %d of 3: PMI_RANK=%d PMI_SIZE=3 OMPI_COMM_WORLD_RANK=%d "
                 "OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_LOCAL_RANK=%d MPI_LOCALRANKID=%d "
                 "IPCSIM_CORE=%d stdin=%s\n",
                 i, i, i, i, i, i, i == 0 ? "hello" : "EOF");
        HAS(r.out, want);
    }
}
END_TEST

START_TEST(bulk)
{
    struct result r = MPIRUN("-n", "2", prog("bulk"));
    expect_clean(&r);
    HAS(r.out, "bulk: 2 ranks, every byte right\n");
    r = MPIRUN("-n", "4", "--bind-to", "none", prog("bulk"));
    expect_clean(&r);
    HAS(r.out, "bulk: 4 ranks, every byte right\n");
}
END_TEST

/* A sleeper in one process woken by a write in another: microseconds, not
 * the 20 ms of the sleeper's recheck (which is all it had before the wait
 * queues moved into the shared object, and all a lost wake-up leaves). */
static void wake_mode(const char *mode)
{
    struct result r = MPIRUN("-n", "2", prog("wake"), mode);
    expect_clean(&r);
    char head[64];
    snprintf(head, sizeof head, "wake %s: 21 round trips, median ", mode);
    unsigned median, slowest;
    const char *p = strstr(r.out, head);
    ck_assert_msg(p && sscanf(p + strlen(head), "%u us, slowest %u us", &median, &slowest) == 2,
                  "wake %s: output: %s", mode, r.out);
    ck_assert_msg(median < 5000, "wake %s: median wake-up %u us (the recheck is 20000 us)", mode,
                  median);
}

START_TEST(wake_across_processes)
{
    wake_mode("store");
}
END_TEST

/* The same through plat_copy: a range wake (one fence, then the queues its
 * words hash to, or all of them for a long range) must reach the sleeper. */
START_TEST(wake_range_across_processes)
{
    wake_mode("copy");
    wake_mode("copy1k");
}
END_TEST

/* MCAPI nodes as processes of a job, in the default region (a name
 * without '/', which a job shares): its locks and events must work across
 * the processes, so a receiver asleep in another process is woken at once,
 * not by the transport's 20 ms recheck, nor never (private futexes: the
 * receive timed out before mcapi_ref asked the platform whether its region
 * crosses processes). */
START_TEST(mcapi_across_processes)
{
    struct result r = MPIRUN("-n", "2", prog("mcapi_job"));
    expect_clean(&r);
    const char *head = "mcapi job: 9 round trips, median ";
    unsigned median;
    const char *p = strstr(r.out, head);
    ck_assert_msg(p && sscanf(p + strlen(head), "%u us", &median) == 1, "output: %s", r.out);
    ck_assert_msg(median < 10000, "median round trip %u us (the recheck is 20000 us)", median);
}
END_TEST

/* Hostfile lines that are this host run the ranks here. */
START_TEST(local_hostfile)
{
    const char *hf = scratch_file("hosts", "# this host, both ways of writing slots\n"
                                           "localhost slots=1\n"
                                           "\n"
                                           "127.0.0.1:2   # MPICH style\n");
    struct result r = MPIRUN("--hostfile", hf, "-n", "3", prog("ring"));
    expect_clean(&r);
    HAS(r.out, "ring: 3 ranks, token 3 from rank 2\n");
    /* more ranks than slots, allowed */
    r = MPIRUN("--hostfile", hf, "--oversubscribe", "-n", "4", "--", prog("ring"));
    expect_clean(&r);
    HAS(r.out, "ring: 4 ranks, token 6 from rank 3\n");
}
END_TEST

void procs_job_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "jobs");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, ring);
    tcase_add_test(tc, collectives);
    tcase_add_test(tc, environment);
    tcase_add_test(tc, bulk);
    tcase_add_test(tc, wake_across_processes);
    tcase_add_test(tc, wake_range_across_processes);
    tcase_add_test(tc, mcapi_across_processes);
    tcase_add_test(tc, local_hostfile);
}
