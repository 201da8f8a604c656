/* ring.c -- a token around the ranks received with MPI_ANY_SOURCE, then a
 * shift by one with MPI_Sendrecv. Rank 0 prints the token (the sum of the
 * ranks) and where it came from; every rank checks its Sendrecv. */
#include <stdio.h>

#include "mpi.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int token = 0;
    MPI_Status st;
    if (rank == 0) {
        MPI_Request req;
        MPI_Isend(&token, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req);
        MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("ring: %d ranks, token %d from rank %d\n", size, token, st.MPI_SOURCE);
    } else {
        MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
        if (st.MPI_SOURCE != left) {
            printf("rank %d: token from %d, expected %d\n", rank, st.MPI_SOURCE, left);
            return 1;
        }
        token += rank;
        MPI_Send(&token, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
    }
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 2, &got, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
    if (got != left || st.MPI_SOURCE != left) {
        printf("rank %d: Sendrecv got %d from %d, expected %d\n", rank, got, st.MPI_SOURCE, left);
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("sendrecv: ok\n");
    MPI_Finalize();
    return 0;
}
