/* register.c -- tests/mpi_procs: MPI programs as processes through mpirun
 * (the native job mode). One suite, "mpi_procs": each rank is a process of
 * one thread, so TSan (which sees one process at a time) has nothing to add
 * and the name keeps it out of the TSan tree's "native" filter. */
#include "procs.h"

void tests_register(void)
{
    Suite *s = harness_suite("mpi_procs");
    procs_job_cases(s);
    procs_fail_cases(s);
    procs_input_cases(s);
    procs_node_cases(s);
    procs_host_cases(s);
    procs_hpl_cases(s);
}
