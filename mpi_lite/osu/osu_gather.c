/*
 * osu_gather.c -- gather latency, OSU micro-benchmarks 5.3's method: every
 * rank times each MPI_Gather of `size` bytes per rank to rank 0 alone, with
 * an MPI_Barrier between calls (not timed). Sizes 1 B .. 1 MiB; 200 warm-up
 * and 1000 timed calls up to 8 KiB, 10 and 100 above. Each rank's mean is
 * reduced to rank 0, which prints the average over ranks (with -f also the
 * minimum, the maximum and the iterations).
 *
 * Standard MPI, C11, state in locals (it also runs as a simulator workload):
 *     mpicc -std=c11 osu_gather.c osu_util.c -o osu_gather
 *     mpirun -n 4 ./osu_gather [-m [MIN:]MAX] [-i ITER] [-x ITER] [-f]
 */
#include "osu_util.h"

#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void measure(const struct osu_opts *o, int rank, int nprocs)
{
    /* The root receives max_size bytes from every rank, itself included. */
    if (o->max_size > SIZE_MAX / (size_t)nprocs) {
        if (rank == 0)
            fprintf(stderr, "%s: %d ranks of %zu bytes overflow the root's buffer\n", o->prog,
                    nprocs, o->max_size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *recvbuf = rank == 0 ? osu_buffer(o, o->max_size * (size_t)nprocs, 1, rank) : NULL;
    char *sendbuf = osu_buffer(o, o->max_size, 0, rank);
    osu_header(o, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    for (size_t size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size)) {
        int iters, skip;
        osu_counts(o, size, &iters, &skip);
        int count = (int)size;
        MPI_Barrier(MPI_COMM_WORLD);
        double timer = 0.0;
        for (int i = 0; i < skip + iters; i++) {
            double t0 = MPI_Wtime();
            MPI_Gather(sendbuf, count, MPI_CHAR, recvbuf, count, MPI_CHAR, 0, MPI_COMM_WORLD);
            double t1 = MPI_Wtime();
            if (i >= skip) timer += t1 - t0;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        osu_coll_report(o, rank, nprocs, size, timer * 1e6 / iters, iters);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(sendbuf);
    free(recvbuf);
}

int main(int argc, char **argv)
{
    return osu_main(argc, argv, "osu_gather", "Gather Latency Test", OSU_COLLECTIVE, measure);
}
