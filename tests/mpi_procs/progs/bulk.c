/* bulk.c -- between processes: windows of 64 MPI_Isend / MPI_Irecv of
 * sizes either side of the eager limit, then 1 MiB each way (rendezvous).
 * Ranks pair up (0-1, 2-3, ...); every byte is checked. */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

#define WINDOW 64
#define BIG (1 << 20)

static unsigned char byte(int from, int m, size_t i)
{
    return (unsigned char)(from * 131 + m * 31 + i * 7 + (i >> 9));
}

static size_t size_of(int m)
{
    return (size_t)(m % 8) * 6000 + 1; /* 1 .. 42001 bytes */
}

static int check(const unsigned char *b, size_t n, int from, int m)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != byte(from, m, i)) {
            printf("message %d from %d: byte %zu of %zu is %u, expected %u\n", m, from, i, n, b[i],
                   byte(from, m, i));
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1, bad = 0;
    if (peer < size) {
        unsigned char *out[WINDOW], *in[WINDOW];
        MPI_Request rq[2 * WINDOW];
        for (int round = 0; round < 3; round++) {
            for (int m = 0; m < WINDOW; m++) {
                size_t n = size_of(m + round);
                out[m] = malloc(n);
                in[m] = malloc(n);
                for (size_t i = 0; i < n; i++) out[m][i] = byte(rank, m + round, i);
                MPI_Irecv(in[m], (int)n, MPI_BYTE, peer, m, MPI_COMM_WORLD, &rq[m]);
            }
            for (int m = 0; m < WINDOW; m++)
                MPI_Isend(out[m], (int)size_of(m + round), MPI_BYTE, peer, m, MPI_COMM_WORLD,
                          &rq[WINDOW + m]);
            MPI_Waitall(2 * WINDOW, rq, MPI_STATUSES_IGNORE);
            for (int m = 0; m < WINDOW; m++) {
                bad |= check(in[m], size_of(m + round), peer, m + round);
                free(out[m]);
                free(in[m]);
            }
        }
        unsigned char *big = malloc(BIG), *got = malloc(BIG);
        for (size_t i = 0; i < BIG; i++) big[i] = byte(rank, 999, i);
        MPI_Sendrecv(big, BIG, MPI_BYTE, peer, 7, got, BIG, MPI_BYTE, peer, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        bad |= check(got, BIG, peer, 999);
        free(big);
        free(got);
    }
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) printf("bulk: %d ranks, %s\n", size, all ? "FAILED" : "every byte right");
    MPI_Finalize();
    return all;
}
