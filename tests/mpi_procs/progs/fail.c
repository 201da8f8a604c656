/* fail.c MODE RANK [CODE] -- a job in which rank RANK fails while every other
 * rank blocks in MPI_Recv from it (a message that never comes):
 *   kill   RANK sends itself SIGKILL
 *   abort  RANK calls MPI_Abort(MPI_COMM_WORLD, CODE)
 *   exit   RANK exits with CODE without MPI_Finalize
 *   hang   nobody fails: every rank waits for ever (for mpirun --timeout)
 * Rank 0 first prints the job's name (IPCSIM_JOB): the test looks for its
 * shared memory objects afterwards. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fail kill|abort|exit|hang RANK [CODE]\n");
        return 2;
    }
    const char *mode = argv[1];
    int who = atoi(argv[2]), code = argc > 3 ? atoi(argv[3]) : 1;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        const char *job = getenv("IPCSIM_JOB");
        printf("job %s\n", job ? job : "-");
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has mapped the job's region */
    if (rank == who && strcmp(mode, "kill") == 0) raise(SIGKILL);
    if (rank == who && strcmp(mode, "abort") == 0) MPI_Abort(MPI_COMM_WORLD, code);
    if (rank == who && strcmp(mode, "exit") == 0) exit(code);
    int v;
    int from = strcmp(mode, "hang") == 0 ? (rank + 1) % size : who;
    MPI_Recv(&v, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
