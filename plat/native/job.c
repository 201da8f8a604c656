/*
 * job.c -- the native job: processes that are the cores of one run.
 *
 * A launcher (mpirun) starts each process of a job with IPCSIM_JOB (the
 * job's name, unique on the host), IPCSIM_CORE and IPCSIM_CORES. Such a
 * process is core IPCSIM_CORE of IPCSIM_CORES (core.c), and its named shared
 * regions are the job's POSIX shared memory objects (shm.c), so the
 * libraries find each other exactly as threads of one process do. A bad
 * value is the launcher's error, not the program's: it stops the process at
 * its first platform call with exit status 2, naming the variable.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct nat_job job;
static bool in_job;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static _Noreturn void bad(const char *var, const char *val, const char *why)
{
    fprintf(stderr, "ipcsim: %s=%s: %s\n", var, val ? val : "(unset)", why);
    fflush(NULL);
    _exit(2);
}

/* A decimal in [min, max] or the process stops naming var. */
static int number(const char *var, long min, long max, const char *why)
{
    const char *v = getenv(var);
    char *end = NULL;
    errno = 0;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || end == v || errno || *end || n < min || n > max) bad(var, v, why);
    return (int)n;
}

static void parse(void)
{
    const char *id = getenv(IPCSIM_JOB_ENV);
    if (!id) return;
    size_t n = strlen(id);
    if (n == 0 || n > IPCSIM_JOB_ID_MAX ||
        strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                   "0123456789_-") != n)
        bad(IPCSIM_JOB_ENV, id, "not a job name (1 to 64 of A-Z a-z 0-9 _ -)");
    memcpy(job.id, id, n + 1);
    char why[96];
    snprintf(why, sizeof why, "not a number of cores (1..%d)", IPCSIM_JOB_MAX_CORES);
    job.cores = number(IPCSIM_JOB_CORES_ENV, 1, IPCSIM_JOB_MAX_CORES, why);
    snprintf(why, sizeof why, "not a core of the job (0..%d)", job.cores - 1);
    job.core = number(IPCSIM_JOB_CORE_ENV, 0, job.cores - 1, why);
    in_job = true;
}

const struct nat_job *nat_job(void)
{
    pthread_once(&once, parse);
    return in_job ? &job : NULL;
}

int nat_job_shm_name(const char *name, char *out, size_t n)
{
    const struct nat_job *j = nat_job();
    if (!j || name[0] == '/') return snprintf(out, n, "%s", name) < (int)n ? PLAT_OK : PLAT_EINVAL;
    /* One object per name: a '/' inside would be a path, not a name. */
    if (strchr(name, '/')) return PLAT_EINVAL;
    int k = snprintf(out, n, "/" IPCSIM_JOB_SHM_PREFIX "%s.%s", j->id, name);
    return k > 0 && (size_t)k < n && k <= 255 ? PLAT_OK : PLAT_EINVAL;
}
