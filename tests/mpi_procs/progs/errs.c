/* errs.c MODE -- an MPI error under MPI_ERRORS_ARE_FATAL on rank 1 (rank 0
 * waits for it in MPI_Recv): before_init (every rank), count (-1), dest (99),
 * type (an invalid datatype). The process must end naming the call, the
 * argument and the class, with a non-zero status. */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int v = 0;
    if (strcmp(mode, "before_init") == 0) MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        if (strcmp(mode, "count") == 0) MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        if (strcmp(mode, "dest") == 0) MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
        if (strcmp(mode, "type") == 0) MPI_Send(&v, 1, (MPI_Datatype)999, 0, 0, MPI_COMM_WORLD);
        printf("errs: mode '%s' did not fail\n", mode);
        return 3;
    }
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
