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

#endif
