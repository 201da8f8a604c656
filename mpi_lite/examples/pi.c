/*
 * pi.c -- pi by the midpoint rule, the classic MPI example's method (MPICH's
 * cpi): rank 0 broadcasts the number of intervals n, each rank integrates
 * 4 / (1 + x^2) over every size-th interval, MPI_Reduce sums the parts on
 * rank 0, which prints pi and its error. The midpoint rule's error here is
 * about 1 / (12 n^2); main returns 1 if it is above 1 / n^2 (a wrong sum).
 *
 * Standard MPI and C11, state in locals, returns from main (no exit()):
 *     mpicc -std=c11 pi.c -o pi && mpirun -n 4 ./pi [N]
 */
#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI25DT 3.141592653589793238462643
#define N_DEFAULT 10000
#define N_MAX 1000000000L

static int usage(const char *prog, FILE *f)
{
    fprintf(f,
            "Usage: %s [N]\n"
            "Integrates 4/(1+x^2) over [0,1] with N intervals (default %d, 1 to %ld)\n"
            "spread over the ranks; rank 0 prints pi and the error. Exit status 1 if\n"
            "the error is above 1/N^2.\n",
            prog, N_DEFAULT, N_MAX);
    return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
    long n = N_DEFAULT;
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
        return usage(argv[0], stdout);
    if (argc > 2) {
        fprintf(stderr, "%s: %s: one argument at most\n", argv[0], argv[2]);
        return usage(argv[0], stderr);
    }
    if (argc == 2) {
        char *end;
        errno = 0;
        n = strtol(argv[1], &end, 10);
        if (errno || *end || end == argv[1] || n < 1 || n > N_MAX) {
            fprintf(stderr, "%s: N %s: must be a whole number from 1 to %ld\n", argv[0], argv[1],
                    N_MAX);
            return usage(argv[0], stderr);
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    double t0 = MPI_Wtime();
    MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    double h = 1.0 / (double)n, sum = 0.0;
    for (long i = rank + 1; i <= n; i += size) {
        double x = h * ((double)i - 0.5);
        sum += 4.0 / (1.0 + x * x);
    }
    double mypi = h * sum, pi = 0.0;
    MPI_Reduce(&mypi, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();

    int bad = 0;
    if (rank == 0) {
        double err = pi - PI25DT, bound = 1.0 / ((double)n * (double)n);
        if (err < 0) err = -err;
        printf("pi is approximately %.16f, error %.16f\n", pi, err);
        printf("%d ranks, %ld intervals, wall clock time = %f s\n", size, n, t1 - t0);
        if (err > bound) {
            fprintf(stderr, "pi: the error %g is above 1/N^2 = %g\n", err, bound);
            bad = 1;
        }
    }
    fflush(stdout);
    MPI_Finalize();
    return bad;
}
