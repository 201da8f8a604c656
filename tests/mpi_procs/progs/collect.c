/* collect.c -- MPI_Bcast from the last rank, MPI_Reduce and MPI_Allreduce
 * of the ranks; rank 0 prints what it got, every rank checks Allreduce. */
#include <stdio.h>

#include "mpi.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int v[4] = {0};
    if (rank == size - 1)
        for (int i = 0; i < 4; i++) v[i] = 100 * size + i;
    MPI_Bcast(v, 4, MPI_INT, size - 1, MPI_COMM_WORLD);
    for (int i = 0; i < 4; i++)
        if (v[i] != 100 * size + i) {
            printf("rank %d: bcast word %d is %d\n", rank, i, v[i]);
            return 1;
        }
    long mine = rank, sum = -1, all = -1;
    MPI_Reduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (all != size - 1) {
        printf("rank %d: allreduce max %ld\n", rank, all);
        return 1;
    }
    if (rank == 0) printf("bcast %d, reduce sum %ld, allreduce max %ld\n", v[3], sum, all);
    MPI_Finalize();
    return 0;
}
