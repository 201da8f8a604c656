/* errs.c -- error classes with MPI_ERRORS_RETURN, the fatal default and
 * its message, calls before MPI_Init, MPI_Abort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mt.h"

static void case_classes(void *arg)
{
    (void)arg;
    mt_init(NULL);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int v = 0, cls;
    ck_assert_int_eq(MPI_Send(&v, -1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Send(&v, 1, 999, 1, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 1, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, 1, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    ck_assert_int_eq(MPI_Recv(&v, 1, MPI_INT, 7, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                     MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Bcast(&v, 1, MPI_INT, 3, MPI_COMM_WORLD), MPI_ERR_ROOT);
    ck_assert_int_eq(MPI_Reduce(&v, &cls, 1, MPI_INT, 77, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    MPI_Datatype uncommitted;
    OK(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
    ck_assert_int_eq(MPI_Send(&v, 1, uncommitted, 1, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    OK(MPI_Type_free(&uncommitted));
    OK(MPI_Error_class(MPI_ERR_RANK, &cls));
    ck_assert_int_eq(cls, MPI_ERR_RANK);
    char s[MPI_MAX_ERROR_STRING];
    int len;
    OK(MPI_Error_string(MPI_ERR_TRUNCATE, s, &len));
    ck_assert_str_eq(s, "MPI_ERR_TRUNCATE: message truncated");
    ck_assert_int_eq(len, (int)strlen(s));
    /* A bad communicator reports on MPI_COMM_WORLD's handler. */
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, 1, 0, 42), MPI_ERR_COMM);
    int flag;
    OK(MPI_Initialized(&flag));
    ck_assert_int_eq(flag, 1);
    OK(MPI_Finalize());
    OK(MPI_Finalized(&flag));
    ck_assert_int_eq(flag, 1);
}

/* ---- runs expected to die: in a child, stderr into a file ----
 * A fatal error goes through plat_abort: natively the process ends with the
 * code (every rank of the threaded run with it), in simulation the run fails
 * naming the core and plat_run returns. */

struct death {
    const struct harness_env *env;
    void (*core)(void *);
    int cores;
    char path[64];
    char *page; /* 'F' + the run's error when plat_run returned (sim) */
};

static void child(void *arg)
{
    struct death *d = arg;
    if (!freopen(d->path, "w", stderr)) _exit(99);
    char c[32];
    snprintf(c, sizeof c, "cores=%d", d->cores);
    struct conf *pf = harness_platform(HARNESS_SETS(c), NULL, NULL);
    int rc = harness_try_run(d->env->backend, pf, HARNESS_SEED, d->core, NULL, d->page + 1, 1000);
    d->page[0] = rc != 0 ? 'F' : 'S';
    _exit(0); /* the ranks' state is never freed: skip the leak check */
}

/* Run core on cores cores in a child. Natively: its wait status must be
 * exit `code` and stderr hold `text`. In simulation: the child returns
 * from a run that failed with `text` and "core <core>". */
static void expect_death(const struct harness_env *env, void (*core)(void *), int cores, int code,
                         int dead_core, const char *text)
{
    struct death d = {env, core, cores, "", harness_page(2048)};
    snprintf(d.path, sizeof d.path, "/tmp/mpi_lite_test.%d.err", (int)getpid());
    int st = harness_fork(child, &d);
    char err[2048];
    FILE *f = fopen(d.path, "r");
    ck_assert_ptr_nonnull(f);
    size_t k = fread(err, 1, sizeof err - 1, f);
    err[k] = 0;
    fclose(f);
    unlink(d.path);
    if (env->backend == PLAT_NATIVE) {
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == code, "status %#x: %s", st, err);
        ck_assert_msg(d.page[0] == 0, "the run returned: %s", d.page + 1);
        ck_assert_msg(strstr(err, text), "stderr: %s", err);
        return;
    }
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x: %s", st, err);
    ck_assert_msg(d.page[0] == 'F', "the run succeeded");
    ck_assert_msg(strstr(d.page + 1, text), "error: %s", d.page + 1);
    char who[32];
    snprintf(who, sizeof who, "core %d ", dead_core);
    ck_assert_msg(strstr(d.page + 1, who), "error names no %s: %s", who, d.page + 1);
}

static void core_before_init(void *arg)
{
    (void)arg;
    int v = 0;
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
}

static void test_before_init(const struct harness_env *env)
{
    expect_death(env, core_before_init, 1, 1, 0,
                 "mpi_lite: MPI_Send: called before MPI_Init (MPI_ERR_OTHER)");
}

static void core_fatal_count(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int v = 0;
    if (mt_rank() == 1) MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    /* rank 0 waits for a message that never comes: the abort must end it */
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void test_fatal(const struct harness_env *env)
{
    expect_death(env, core_fatal_count, 2, 1, 1,
                 "mpi_lite: rank 1: MPI_Send: count -1 is negative (MPI_ERR_COUNT)");
}

static void core_abort(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int v = 0;
    if (mt_rank() == 2) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void test_abort(const struct harness_env *env)
{
    expect_death(env, core_abort, 3, 3, 2,
                 "mpi_lite: rank 2: MPI_Abort on communicator 1 with error code 3");
}

/* A rank that leaves without MPI_Finalize while the other waits for it: in
 * simulation the run ends with the deadlock report naming the waiting core,
 * it does not hang. (Natively that waits for ever, like any MPI: mpirun's
 * part is to notice a dead process.) */
static void core_leaves(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int v;
    if (mt_rank() == 0) MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

struct leave {
    const struct harness_env *env;
    char *page; /* plat_run's result and message, for the parent */
};

static void leave_child(void *arg)
{
    struct leave *l = arg;
    struct conf *pf = harness_platform(HARNESS_SETS("cores=2"), NULL, NULL);
    int rc =
        harness_try_run(l->env->backend, pf, HARNESS_SEED, core_leaves, NULL, l->page + 1, 1000);
    l->page[0] = rc != 0 ? 'F' : 'S';
    _exit(0); /* the blocked rank's state is never freed: skip the leak check */
}

static void test_rank_leaves(const struct harness_env *env)
{
    struct leave l = {env, harness_page(1024)};
    int st = harness_fork(leave_child, &l);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
    ck_assert_msg(l.page[0] == 'F', "the run succeeded");
    ck_assert_msg(strstr(l.page + 1, "deadlock"), "error: %s", l.page + 1);
}

static const struct harness_case cases[] = {
    {.name = "classes", .core = case_classes, .cores = 2},
    {.name = "before_init", .test = test_before_init},
    {.name = "fatal", .test = test_fatal},
    {.name = "abort", .test = test_abort},
    {.name = "rank_leaves", .test = test_rank_leaves, .backends = HARNESS_SIM},
};

void mt_err_cases(void)
{
    harness_add_cases("mpi_err", cases, HARNESS_COUNT(cases));
}
