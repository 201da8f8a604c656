/* env.c -- what a rank sees: MPI's rank and size, the launcher's rank
 * variables, and stdin (rank 0 reads a line, the others see its end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

static const char *var(const char *name)
{
    const char *v = getenv(name);
    return v ? v : "-";
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char line[64] = "";
    if (!fgets(line, sizeof line, stdin)) strcpy(line, "EOF");
    line[strcspn(line, "\n")] = '\0';
    printf("rank %d of %d: PMI_RANK=%s PMI_SIZE=%s OMPI_COMM_WORLD_RANK=%s "
           "OMPI_COMM_WORLD_SIZE=%s OMPI_COMM_WORLD_LOCAL_RANK=%s MPI_LOCALRANKID=%s "
           "IPCSIM_CORE=%s stdin=%s\n",
           rank, size, var("PMI_RANK"), var("PMI_SIZE"), var("OMPI_COMM_WORLD_RANK"),
           var("OMPI_COMM_WORLD_SIZE"), var("OMPI_COMM_WORLD_LOCAL_RANK"), var("MPI_LOCALRANKID"),
           var("IPCSIM_CORE"), line);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
