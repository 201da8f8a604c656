/* wtime.c -- MPI_Wtime: the platform's clock (simulated time in simulation). */
#include <stdio.h>

#include "ml.h"

double MPI_Wtime(void)
{
    return (double)plat_now_ns() * 1e-9;
}
double MPI_Wtick(void)
{
    return 1e-9;
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
    if (!name || !resultlen)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_processor_name", "NULL argument");
    int c = plat_core();
    int n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "core%d-%s", c, plat_core_type(c));
    *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}
