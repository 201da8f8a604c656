/* fail_cases.c -- ranks that die, MPI_Abort, fatal MPI errors, --timeout:
 * mpirun names the rank, stops the others, leaves nothing in /dev/shm. */
#include <stdio.h>
#include <string.h>

#include "procs.h"

/* mpirun's end after a failure: fast, nothing left of the job. */
static void expect_stopped(const struct result *r, int code)
{
    ck_assert_msg(r->code == code, "exit %d, expected %d\nstderr:\n%s", r->code, code, r->err);
    ck_assert_msg(r->secs < 5.0, "mpirun took %.2f s", r->secs);
    const char *job = job_of(r);
    ck_assert_msg(job[0], "no job name in:\n%s", r->out);
    ck_assert_int_eq(leftovers(job), 0);
}

START_TEST(rank_killed)
{
    /* ranks 0, 1, 3 block in MPI_Recv from rank 2, which SIGKILLs itself */
    struct result r = MPIRUN("-n", "4", prog("fail"), "kill", "2");
    expect_stopped(&r, 128 + 9);
    HAS(r.err, "mpirun: rank 2 (pid ");
    HAS(r.err, ") killed by signal 9 (Killed)\n");
    HAS(r.err, "mpirun: stopping the job's other 3 ranks\n");
    printf("mpi_procs: a SIGKILLed rank of 4: mpirun done in %.3f s\n", r.secs);
}
END_TEST

START_TEST(abort_code)
{
    struct result r = MPIRUN("-n", "3", prog("fail"), "abort", "1", "7");
    expect_stopped(&r, 7);
    HAS(r.err, "mpi_lite: rank 1: MPI_Abort on communicator 1 with error code 7\n");
    HAS(r.err, ") exited with status 7\n");
    HAS(r.err, "mpirun: stopping the job's other 2 ranks\n");
}
END_TEST

START_TEST(rank_exits)
{
    struct result r = MPIRUN("-n", "3", prog("fail"), "exit", "2", "3");
    expect_stopped(&r, 3);
    HAS(r.err, "mpirun: rank 2 (pid ");
    HAS(r.err, ") exited with status 3\n");
}
END_TEST

START_TEST(timeout)
{
    struct result r = MPIRUN("--timeout", "0.5", "-n", "2", prog("fail"), "hang", "0");
    ck_assert_msg(r.secs >= 0.5, "stopped after %.2f s", r.secs);
    expect_stopped(&r, 124);
    HAS(r.err, "mpirun: the job ran longer than its timeout of 0.5 s; stopping its 2 running "
               "ranks\n");
    const char *argv[] = {mpirun_path(), "-n", "2", prog("fail"), "hang", "0", NULL};
    const char *env[] = {"MPIEXEC_TIMEOUT=0.3", NULL};
    r = run(argv, env, NULL);
    expect_stopped(&r, 124);
    HAS(r.err, "timeout of 0.3 s");
}
END_TEST

/* Fatal MPI errors: the call, the argument and the class, exit 1. */
START_TEST(mpi_errors)
{
    static const struct {
        const char *mode, *text;
    } t[] = {
        {"before_init", "mpi_lite: MPI_Send: called before MPI_Init (MPI_ERR_OTHER)\n"},
        {"count", "mpi_lite: rank 1: MPI_Send: count -1 is negative (MPI_ERR_COUNT)\n"},
        {"dest", "mpi_lite: rank 1: MPI_Send: rank 99 is not in 0..1 (MPI_ERR_RANK)\n"},
        {"type", "mpi_lite: rank 1: MPI_Send: datatype 999 is not a committed datatype "
                 "(MPI_ERR_TYPE)\n"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct result r = MPIRUN("-n", "2", prog("errs"), t[i].mode);
        ck_assert_msg(r.code == 1, "%s: exit %d\n%s", t[i].mode, r.code, r.err);
        ck_assert_msg(r.secs < 5.0, "%s: %.2f s", t[i].mode, r.secs);
        HAS(r.err, t[i].text);
        HAS(r.err, ") exited with status 1\n");
    }
}
END_TEST

void procs_fail_cases(Suite *s)
{
    TCase *tc = harness_tcase(s, "failures");
    tcase_add_checked_fixture(tc, NULL, procs_teardown);
    tcase_add_test(tc, rank_killed);
    tcase_add_test(tc, abort_code);
    tcase_add_test(tc, rank_exits);
    tcase_add_test(tc, timeout);
    tcase_add_test(tc, mpi_errors);
}
