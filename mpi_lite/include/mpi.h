/*
 * mpi.h -- mpi_lite: the light MPI of the HPEPPM paper, a subset of MPI-3.
 *
 * Programs written for MPICH or Open MPI that stay inside this subset compile
 * against this header unchanged. A call outside the subset is absent (a link
 * error), never a stub. docs/mpi_lite.md lists what is implemented.
 *
 * HANDLES
 *   MPI_Comm, MPI_Datatype, MPI_Op and MPI_Errhandler are small integers
 *   naming an entry of the calling rank's tables; MPI_Request is a pointer to
 *   the rank's request record. The values of the constants are mpi_lite's own:
 *   code must use the names.
 *
 * RANKS
 *   Every core of the platform is a rank: MPI_COMM_WORLD holds all
 *   plat_cores() cores, rank = core index. MPI_Init is collective: it returns
 *   once every core has called it. Natively a plain program's threads become
 *   cores (ipcsim/plat.h), so a threaded test runs one rank per thread.
 *
 * THREADS
 *   MPI_THREAD_FUNNELED at most: one thread of a core calls MPI.
 *
 * ERRORS
 *   Each communicator has an error handler, MPI_ERRORS_ARE_FATAL by default:
 *   the failing call prints "mpi_lite: rank R: MPI_Xxx: <argument and value>
 *   (MPI_ERR_CLASS)" and the process aborts. With MPI_ERRORS_RETURN the call
 *   returns the error code (its class: MPI_Error_class). Errors before
 *   MPI_Init or after MPI_Finalize are always fatal.
 */
#ifndef MPI_LITE_MPI_H
#define MPI_LITE_MPI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1
#define MPI_LITE 1

/* ---- handles ------------------------------------------------------------ */

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef struct ml_request *MPI_Request;
typedef long MPI_Aint;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    size_t ml_bytes; /* bytes received (MPI_Get_count divides by the type's size) */
} MPI_Status;

#define MPI_COMM_NULL 0
#define MPI_COMM_WORLD 1
#define MPI_COMM_SELF 2

#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_IN_PLACE ((void *)1)

#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-2)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 0x3fffffff /* the largest tag (MPI_TAG_UB's value) */
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 256

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* ---- datatypes ---------------------------------------------------------- */

#define MPI_DATATYPE_NULL 0
#define MPI_CHAR 1
#define MPI_SIGNED_CHAR 2
#define MPI_UNSIGNED_CHAR 3
#define MPI_BYTE 4
#define MPI_SHORT 5
#define MPI_UNSIGNED_SHORT 6
#define MPI_INT 7
#define MPI_UNSIGNED 8
#define MPI_LONG 9
#define MPI_UNSIGNED_LONG 10
#define MPI_LONG_LONG 11
#define MPI_LONG_LONG_INT MPI_LONG_LONG
#define MPI_UNSIGNED_LONG_LONG 12
#define MPI_FLOAT 13
#define MPI_DOUBLE 14
#define MPI_INT8_T 15
#define MPI_UINT8_T 16
#define MPI_INT16_T 17
#define MPI_UINT16_T 18
#define MPI_INT32_T 19
#define MPI_UINT32_T 20
#define MPI_INT64_T 21
#define MPI_UINT64_T 22
/* Pairs for MPI_MAXLOC and MPI_MINLOC: a value and an int index. */
#define MPI_2INT 23
#define MPI_FLOAT_INT 24
#define MPI_DOUBLE_INT 25
#define MPI_LONG_INT 26

/* ---- reduction operations ----------------------------------------------- */

#define MPI_OP_NULL 0
#define MPI_SUM 1
#define MPI_PROD 2
#define MPI_MIN 3
#define MPI_MAX 4
#define MPI_LAND 5
#define MPI_LOR 6
#define MPI_BAND 7
#define MPI_BOR 8
#define MPI_MAXLOC 9
#define MPI_MINLOC 10

/* ---- errors ------------------------------------------------------------- */

#define MPI_ERRHANDLER_NULL 0
#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN 2

#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_OP 9
#define MPI_ERR_ARG 10
#define MPI_ERR_TRUNCATE 11
#define MPI_ERR_OTHER 12
#define MPI_ERR_INTERN 13
#define MPI_ERR_IN_STATUS 14
#define MPI_ERR_NO_MEM 15
#define MPI_ERR_LASTCODE 16

/* ---- environment -------------------------------------------------------- */

int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int MPI_Finalize(void);
int MPI_Finalized(int *flag);
/* Print the error code and end the whole run (every rank), exit status
 * errorcode (1 if errorcode is 0). */
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void); /* seconds: simulated time in simulation */
double MPI_Wtick(void);
int MPI_Get_processor_name(char *name, int *resultlen);

/* ---- communicators ------------------------------------------------------ */

int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Error_string(int errorcode, char *string, int *resultlen);

/* ---- point to point ----------------------------------------------------- */

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);

int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]);

/* ---- collectives -------------------------------------------------------- */

int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

/* ---- derived datatypes -------------------------------------------------- */

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Type_size(MPI_Datatype type, int *size);

#ifdef __cplusplus
}
#endif
#endif
