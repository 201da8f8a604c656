/*
 * osu_latency.c -- point-to-point latency, OSU micro-benchmarks 5.3's
 * method: ranks 0 and 1 ping-pong a message with MPI_Send/MPI_Recv, for
 * sizes 0, 1, 2, .. 4 MiB; 100 warm-up and 10000 timed round trips up to
 * 8 KiB, 10 and 1000 above; prints half the mean round trip in us.
 *
 * Standard MPI, C11, state in locals (it also runs as a simulator workload):
 *     mpicc -std=c11 osu_latency.c osu_util.c -o osu_latency
 *     mpirun -n 2 ./osu_latency [-m [MIN:]MAX] [-i ITER] [-x ITER]
 */
#include "osu_util.h"

#include <mpi.h>

#include <stdlib.h>
#include <string.h>

static void measure(const struct osu_opts *o, int rank, int nprocs)
{
    (void)nprocs; /* exactly 2: osu_check_procs */
    char *sbuf = osu_buffer(o, o->max_size, 'a', rank);
    char *rbuf = osu_buffer(o, o->max_size, 'b', rank);
    int peer = 1 - rank;
    osu_header(o, rank);
    for (size_t size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size)) {
        int iters, skip;
        osu_counts(o, size, &iters, &skip);
        int count = (int)size;
        /* Touch the bytes this size uses, as OSU does before each size. */
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < skip + iters; i++) {
            if (i == skip) t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(sbuf, count, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(rbuf, count, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, count, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, count, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
            }
        }
        double t1 = MPI_Wtime();
        osu_line(o, rank, size, (t1 - t0) * 1e6 / (2.0 * iters));
    }
    free(rbuf);
    free(sbuf);
}

int main(int argc, char **argv)
{
    return osu_main(argc, argv, "osu_latency", "Latency Test", OSU_LATENCY, measure);
}
