/*
 * osu_bibw.c -- bidirectional bandwidth, OSU micro-benchmarks 5.3's
 * method: ranks 0 and 1 each post a window of 64 MPI_Irecv into one buffer
 * and 64 MPI_Isend of another to the other rank, then MPI_Waitall the
 * sends and the receives. Sizes 1 B .. 4 MiB; 10 warm-up and 100 timed
 * windows up to 8 KiB, 2 and 20 above; prints the bytes moved both ways per
 * second, MB/s (10^6 B/s).
 *
 * Standard MPI, C11, state in locals (it also runs as a simulator workload):
 *     mpicc -std=c11 osu_bibw.c osu_util.c -o osu_bibw
 *     mpirun -n 2 ./osu_bibw [-m [MIN:]MAX] [-i ITER] [-x ITER]
 */
#include "osu_util.h"

#include <mpi.h>

#include <stdlib.h>
#include <string.h>

/* One tag per direction, so that a rank's receives match only the peer's
 * sends and never its own direction's. */
#define TAG_FROM_0 100
#define TAG_FROM_1 10

static void measure(const struct osu_opts *o, int rank, int nprocs)
{
    (void)nprocs; /* exactly 2: osu_check_procs */
    char *sbuf = osu_buffer(o, o->max_size, 'a', rank);
    char *rbuf = osu_buffer(o, o->max_size, 'b', rank);
    MPI_Request sreq[OSU_WINDOW], rreq[OSU_WINDOW];
    /* A status array, not MPI_STATUSES_IGNORE: GCC 12 takes MPICH's
     * (MPI_Status *)1 for an array of size 0 (-Wstringop-overflow). */
    MPI_Status st[OSU_WINDOW];
    int peer = 1 - rank;
    int stag = rank == 0 ? TAG_FROM_0 : TAG_FROM_1;
    int rtag = rank == 0 ? TAG_FROM_1 : TAG_FROM_0;
    osu_header(o, rank);
    for (size_t size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size)) {
        int iters, skip;
        osu_counts(o, size, &iters, &skip);
        int count = (int)size;
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        double t0 = MPI_Wtime();
        for (int i = 0; i < skip + iters; i++) {
            if (i == skip) t0 = MPI_Wtime();
            for (int j = 0; j < OSU_WINDOW; j++)
                MPI_Irecv(rbuf, count, MPI_CHAR, peer, rtag, MPI_COMM_WORLD, &rreq[j]);
            for (int j = 0; j < OSU_WINDOW; j++)
                MPI_Isend(sbuf, count, MPI_CHAR, peer, stag, MPI_COMM_WORLD, &sreq[j]);
            MPI_Waitall(OSU_WINDOW, sreq, st);
            MPI_Waitall(OSU_WINDOW, rreq, st);
        }
        double t1 = MPI_Wtime();
        osu_line(o, rank, size, (double)size / 1e6 * iters * OSU_WINDOW * 2 / (t1 - t0));
    }
    free(rbuf);
    free(sbuf);
}

int main(int argc, char **argv)
{
    return osu_main(argc, argv, "osu_bibw", "Bi-Directional Bandwidth Test", OSU_BANDWIDTH,
                    measure);
}
