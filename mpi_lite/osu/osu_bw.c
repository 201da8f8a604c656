/*
 * osu_bw.c -- point-to-point bandwidth, OSU micro-benchmarks 5.3's method:
 * rank 0 posts a window of 64 MPI_Isend of one buffer to rank 1, which
 * posts 64 MPI_Irecv into one buffer; both MPI_Waitall, then rank 1 sends
 * a 4-byte acknowledgement (tag 101). Sizes 1 B .. 4 MiB; 10 warm-up and
 * 100 timed windows up to 8 KiB, 2 and 20 above; prints MB/s (10^6 B/s).
 *
 * Standard MPI, C11, state in locals (it also runs as a simulator workload):
 *     mpicc -std=c11 osu_bw.c osu_util.c -o osu_bw
 *     mpirun -n 2 ./osu_bw [-m [MIN:]MAX] [-i ITER] [-x ITER]
 */
#include "osu_util.h"

#include <mpi.h>

#include <stdlib.h>
#include <string.h>

#define TAG_DATA 100
#define TAG_ACK 101
#define ACK_BYTES 4

static void measure(const struct osu_opts *o, int rank, int nprocs)
{
    (void)nprocs; /* exactly 2: osu_check_procs */
    char *sbuf = osu_buffer(o, o->max_size, 'a', rank);
    char *rbuf = osu_buffer(o, o->max_size, 'b', rank);
    MPI_Request req[OSU_WINDOW];
    /* A status array, not MPI_STATUSES_IGNORE: GCC 12 takes MPICH's
     * (MPI_Status *)1 for an array of size 0 (-Wstringop-overflow). */
    MPI_Status st[OSU_WINDOW];
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
            if (rank == 0) {
                for (int j = 0; j < OSU_WINDOW; j++)
                    MPI_Isend(sbuf, count, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, &req[j]);
                MPI_Waitall(OSU_WINDOW, req, st);
                MPI_Recv(rbuf, ACK_BYTES, MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                for (int j = 0; j < OSU_WINDOW; j++)
                    MPI_Irecv(rbuf, count, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, &req[j]);
                MPI_Waitall(OSU_WINDOW, req, st);
                MPI_Send(sbuf, ACK_BYTES, MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
            }
        }
        double t1 = MPI_Wtime();
        /* Rank 0's clock: from the first timed window to the last ack. */
        osu_line(o, rank, size, (double)size / 1e6 * iters * OSU_WINDOW / (t1 - t0));
    }
    free(rbuf);
    free(sbuf);
}

int main(int argc, char **argv)
{
    return osu_main(argc, argv, "osu_bw", "Bandwidth Test", OSU_BANDWIDTH, measure);
}
