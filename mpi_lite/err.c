/* err.c -- error classes, their strings, the two error handlers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml.h"

static const char *const names[MPI_ERR_LASTCODE] = {
    [MPI_SUCCESS] = "MPI_SUCCESS",
    [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER",
    [MPI_ERR_COUNT] = "MPI_ERR_COUNT",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE",
    [MPI_ERR_TAG] = "MPI_ERR_TAG",
    [MPI_ERR_COMM] = "MPI_ERR_COMM",
    [MPI_ERR_RANK] = "MPI_ERR_RANK",
    [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST",
    [MPI_ERR_ROOT] = "MPI_ERR_ROOT",
    [MPI_ERR_OP] = "MPI_ERR_OP",
    [MPI_ERR_ARG] = "MPI_ERR_ARG",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE",
    [MPI_ERR_OTHER] = "MPI_ERR_OTHER",
    [MPI_ERR_INTERN] = "MPI_ERR_INTERN",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM",
};

static const char *const texts[MPI_ERR_LASTCODE] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_OP] = "invalid operation",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_IN_STATUS] = "error code in status",
    [MPI_ERR_NO_MEM] = "out of memory",
};

const char *ml_class_name(int code)
{
    return code >= 0 && code < MPI_ERR_LASTCODE ? names[code] : "MPI_ERR_UNKNOWN";
}

/* Report and end the rank through the platform: natively the process ends
 * (a job's rank, or every rank of a threaded run), in simulation the run
 * fails naming the core. */
static _Noreturn void fatal(const char *call, int code, const char *arg)
{
    struct ml_rank *me = ml_me();
    char msg[512];
    if (me && me->initialized)
        snprintf(msg, sizeof msg, "mpi_lite: rank %d: %s: %s (%s)", me->rank, call, arg,
                 ml_class_name(code));
    else
        snprintf(msg, sizeof msg, "mpi_lite: %s: %s (%s)", call, arg, ml_class_name(code));
    plat_abort(ML_FATAL_EXIT, msg);
}

void ml_fatal(const char *call, int code, const char *fmt, ...)
{
    char arg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(arg, sizeof arg, fmt, ap);
    va_end(ap);
    fatal(call, code, arg);
}

int ml_err(MPI_Comm comm, int code, const char *call, const char *fmt, ...)
{
    struct ml_rank *me = ml_me();
    struct ml_comm *c = me ? ml_comm(me, comm) : NULL;
    if (c && c->eh == MPI_ERRORS_RETURN) return code;
    char arg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(arg, sizeof arg, fmt, ap);
    va_end(ap);
    fatal(call, code, arg);
}

int MPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass || errorcode < 0 || errorcode >= MPI_ERR_LASTCODE)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class", "error code %d", errorcode);
    *errorclass = errorcode; /* every code is its own class */
    return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen || errorcode < 0 || errorcode >= MPI_ERR_LASTCODE)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string", "error code %d", errorcode);
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", names[errorcode], texts[errorcode]);
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Comm_set_errhandler");
    struct ml_comm *c = ml_comm(me, comm);
    if (!c)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_set_errhandler",
                      "communicator %d is not valid", comm);
    if (eh != MPI_ERRORS_ARE_FATAL && eh != MPI_ERRORS_RETURN)
        return ml_err(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler", "errhandler %d", eh);
    c->eh = eh;
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    struct ml_rank *me = ml_me();
    char msg[160];
    snprintf(msg, sizeof msg, "mpi_lite: rank %d: MPI_Abort on communicator %d with error code %d",
             me && me->initialized ? me->rank : -1, comm, errorcode);
    /* Natively this ends the process: a job's rank (mpirun stops the others)
     * or, in a threaded run, every rank. An exit status is 8 bits and 0
     * would read as success: those codes end with 1. */
    plat_abort(errorcode, msg);
}
