/*
 * osu_bcast.c -- broadcast latency, OSU micro-benchmarks 5.3's method:
 * every rank times each MPI_Bcast from rank 0 alone, with an MPI_Barrier
 * between calls (not timed). Sizes 1 B .. 1 MiB; 200 warm-up and 1000
 * timed calls up to 8 KiB, 10 and 100 above. Each rank's mean is reduced
 * to rank 0, which prints the average over ranks (with -f also the minimum,
 * the maximum and the iterations).
 *
 * Standard MPI, C11, state in locals (it also runs as a simulator workload):
 *     mpicc -std=c11 osu_bcast.c osu_util.c -o osu_bcast
 *     mpirun -n 4 ./osu_bcast [-m [MIN:]MAX] [-i ITER] [-x ITER] [-f]
 */
#include "osu_util.h"

#include <mpi.h>

#include <stdlib.h>

static void measure(const struct osu_opts *o, int rank, int nprocs)
{
    char *buf = osu_buffer(o, o->max_size, 1, rank);
    osu_header(o, rank);
    for (size_t size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size)) {
        int iters, skip;
        osu_counts(o, size, &iters, &skip);
        int count = (int)size;
        double timer = 0.0;
        for (int i = 0; i < skip + iters; i++) {
            double t0 = MPI_Wtime();
            MPI_Bcast(buf, count, MPI_CHAR, 0, MPI_COMM_WORLD);
            double t1 = MPI_Wtime();
            if (i >= skip) timer += t1 - t0;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        osu_coll_report(o, rank, nprocs, size, timer * 1e6 / iters, iters);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    return osu_main(argc, argv, "osu_bcast", "Broadcast Latency Test", OSU_COLLECTIVE, measure);
}
