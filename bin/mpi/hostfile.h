/* hostfile.h -- mpirun's hostfile: which hosts, how many slots, which are this one. */
#ifndef IPCSIM_MPIRUN_HOSTFILE_H
#define IPCSIM_MPIRUN_HOSTFILE_H

#include <stdbool.h>
#include <stddef.h>

struct host {
    char name[256];
    long slots;
    int line;
};

/* Read path: MPICH lines "host[:slots]", Open MPI lines "host slots=N"
 * (max_slots=M accepted), '#' comments and blank lines. Returns the number of
 * hosts (>= 1) with *out malloc'ed, or -1 after writing "mpirun: FILE:LINE:
 * ..." (or the open error) into err. */
int hostfile_read(const char *path, struct host **out, char *err, size_t errlen);

/* Whether name is this host: localhost, 127.x, ::1, its name, its addresses. */
bool host_is_local(const char *name);

#endif
