/*
 * ipcsim/job.h -- the native job: what a launcher (mpirun) and the processes
 * it starts agree on (plat/native/job.c, docs/native.md "Jobs").
 *
 * A launcher starts each process with three variables: the job's name
 * (unique on the host, 1 to IPCSIM_JOB_ID_MAX of A-Z a-z 0-9 _ -), the
 * process's core and the job's core count. The job's named shared regions
 * are the POSIX objects /IPCSIM_JOB_SHM_PREFIX<job>.<name>; a launcher
 * removes those a killed process leaves by that prefix.
 */
#ifndef IPCSIM_JOB_H
#define IPCSIM_JOB_H

#define IPCSIM_JOB_ENV "IPCSIM_JOB"
#define IPCSIM_JOB_CORE_ENV "IPCSIM_CORE"
#define IPCSIM_JOB_CORES_ENV "IPCSIM_CORES"
#define IPCSIM_JOB_ID_MAX 64
#define IPCSIM_JOB_MAX_CORES 4096
#define IPCSIM_JOB_SHM_PREFIX "ipcsim."

/* Jobs across hosts: one host per core, comma separated (cores with the same
 * host are one node), and the base port: core i listens at host_i:(port + i).
 * Unset: every core on this host at 127.0.0.1, port from the job's name. */
#define IPCSIM_JOB_HOSTS_ENV "IPCSIM_HOSTS"
#define IPCSIM_JOB_PORT_ENV "IPCSIM_PORT"
#define IPCSIM_JOB_HOST_MAX 255 /* bytes of one host name */

#include <stdint.h>

/* The base port of a job of `cores` cores without IPCSIM_PORT: 10000 + an
 * FNV-1a hash of its name, so that every process (and mpirun) agrees, and
 * port + cores - 1 stays below 32768: Linux gives outgoing connections local
 * ports from 32768 on (ip_local_port_range), and one of those, still open or
 * closing, would hold a listener's port. */
#define IPCSIM_JOB_PORT_MIN 10000
#define IPCSIM_JOB_PORT_END 32768
static inline int ipcsim_job_port(const char *id, int cores)
{
    uint64_t h = 1469598103934665603ull;
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 1099511628211ull;
    return IPCSIM_JOB_PORT_MIN +
           (int)(h % (uint64_t)(IPCSIM_JOB_PORT_END - IPCSIM_JOB_PORT_MIN - cores));
}

#endif
