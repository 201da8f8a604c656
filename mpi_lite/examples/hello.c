/*
 * hello.c -- every rank says who it is: the smallest MPI program.
 *
 * Standard MPI and C11, state in locals, returns from main (no exit()), so
 * it also runs as a simulator workload (docs/mpi_lite.md):
 *     mpicc -std=c11 hello.c -o hello && mpirun -n 4 ./hello
 */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("Usage: %s\nEvery rank prints its rank, the number of ranks and its processor.\n",
               argv[0]);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "%s: %s: takes no arguments (-h for help)\n", argv[0], argv[1]);
        return 2;
    }
    MPI_Init(&argc, &argv);
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    printf("Hello from rank %d of %d on %s\n", rank, size, name);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
