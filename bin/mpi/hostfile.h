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

/* Where a rank runs: its host (an index into the hostfile's hosts), its node
 * (the index of that host's name among the distinct names that get ranks, in
 * the order of their first rank: plat/native/job.c numbers nodes so), and its
 * index among, and the count of, the ranks of that name. */
struct place {
    int host, node;
    long local_rank, local_size;
};

/* Ranks 0..n-1 onto the nh hosts in order, each host's slots filled before
 * the next; more ranks than slots (oversubscribed) start again at the first
 * host. Two lines of one name are one host. */
void hostfile_place(const struct host *h, int nh, long n, struct place *out);

/* Whether name is this host: localhost, 127.x, ::1, its name, its addresses. */
bool host_is_local(const char *name);

#endif
