/*
 * ring.c -- a token around the ring of ranks, and a shift with
 * MPI_Sendrecv; checks everything that arrives.
 *
 * Lap after lap rank 0 starts the token; every rank receives it with
 * MPI_ANY_SOURCE (and checks that it came from its left neighbour), adds its
 * rank and passes it right. After LAPS laps rank 0 holds LAPS times the sum
 * of the ranks. Then every rank sends its rank to the right and receives
 * its left neighbour's with one MPI_Sendrecv. Rank 0 prints the result and
 * the time per hop; a wrong value anywhere makes main return 1.
 *
 * Standard MPI and C11, state in locals, returns from main (no exit()):
 *     mpicc -std=c11 ring.c -o ring && mpirun -n 4 ./ring [LAPS]
 */
#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 7
#define LAPS_DEFAULT 10
#define LAPS_MAX 1000000

static int usage(const char *prog, FILE *f)
{
    fprintf(f,
            "Usage: %s [LAPS]\n"
            "Passes a token LAPS times (default %d, 1 to %d) around the ring of ranks\n"
            "(MPI_ANY_SOURCE receives), then shifts every rank's number right with\n"
            "MPI_Sendrecv; checks what arrives. Exit status 1 if anything is wrong.\n",
            prog, LAPS_DEFAULT, LAPS_MAX);
    return f == stdout ? 0 : 2;
}

/* LAPS from argv: 0 and *laps set, or the exit status for main. */
static int parse(int argc, char **argv, long *laps)
{
    *laps = LAPS_DEFAULT;
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
        return usage(argv[0], stdout) + 1; /* 1: done, not an error */
    if (argc > 2) {
        fprintf(stderr, "%s: %s: one argument at most\n", argv[0], argv[2]);
        return usage(argv[0], stderr) + 1;
    }
    if (argc == 2) {
        char *end;
        errno = 0;
        *laps = strtol(argv[1], &end, 10);
        if (errno || *end || end == argv[1] || *laps < 1 || *laps > LAPS_MAX) {
            fprintf(stderr, "%s: LAPS %s: must be a whole number from 1 to %d\n", argv[0], argv[1],
                    LAPS_MAX);
            return usage(argv[0], stderr) + 1;
        }
    }
    return 0;
}

/* One receive of the token from anyone; 0 if it came from `left`. */
static int take(long *token, int left, int rank)
{
    MPI_Status st;
    MPI_Recv(token, 1, MPI_LONG, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_SOURCE == left && st.MPI_TAG == TAG) return 0;
    fprintf(stderr, "ring: rank %d: the token came from rank %d tag %d, expected rank %d tag %d\n",
            rank, st.MPI_SOURCE, st.MPI_TAG, left, TAG);
    return 1;
}

int main(int argc, char **argv)
{
    long laps;
    int p = parse(argc, argv, &laps);
    if (p) return p - 1;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int bad = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    long token = 0;
    for (long lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            token += rank;
            MPI_Send(&token, 1, MPI_LONG, right, TAG, MPI_COMM_WORLD);
            bad |= take(&token, left, rank);
        } else {
            bad |= take(&token, left, rank);
            token += rank;
            MPI_Send(&token, 1, MPI_LONG, right, TAG, MPI_COMM_WORLD);
        }
    }
    double t1 = MPI_Wtime();

    int from_left = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, TAG + 1, &from_left, 1, MPI_INT, left, TAG + 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (from_left != left) {
        fprintf(stderr, "ring: rank %d: MPI_Sendrecv brought %d, expected %d\n", rank, from_left,
                left);
        bad = 1;
    }

    long expect = laps * ((long)size * (size - 1) / 2);
    if (rank == 0) {
        if (token != expect) {
            fprintf(stderr, "ring: the token is %ld after %ld laps of %d ranks, expected %ld\n",
                    token, laps, size, expect);
            bad = 1;
        }
        printf("ring: %d ranks, %ld laps, token %ld (expected %ld)\n", size, laps, token, expect);
        printf("ring: %.3f us per hop\n", (t1 - t0) * 1e6 / ((double)laps * size));
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (rank == 0) printf("ring: %s\n", any ? "FAILED" : "ok");
    fflush(stdout);
    MPI_Finalize();
    return bad;
}
