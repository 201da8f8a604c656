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
static char *hosts;       /* IPCSIM_HOSTS, its commas made NULs */
static const char **host; /* per core: its host in hosts */
static int *node;         /* per core: its node */
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

/* IPCSIM_PORT for `cores` cores (each listens at port + core), or dflt. */
static int env_port(int cores, int dflt)
{
    if (!getenv(IPCSIM_JOB_PORT_ENV)) return dflt;
    char why[64];
    snprintf(why, sizeof why, "not a port for %d cores (1..%d)", cores, 65536 - cores);
    return number(IPCSIM_JOB_PORT_ENV, 1, 65536 - cores, why);
}

/* One host per core; a host's node is the order of its first appearance. */
static void parse_hosts(void)
{
    const char *v = getenv(IPCSIM_JOB_HOSTS_ENV);
    host = calloc((size_t)job.cores, sizeof *host);
    node = calloc((size_t)job.cores, sizeof *node);
    hosts = strdup(v ? v : "");
    if (!host || !node || !hosts) bad(IPCSIM_JOB_HOSTS_ENV, v, "out of memory");
    if (!v) {
        for (int i = 0; i < job.cores; i++) host[i] = "127.0.0.1";
        return;
    }
    char why[96];
    int n = 0, nodes = 0;
    for (char *p = hosts, *end; n <= job.cores; p = end + 1) {
        end = p + strcspn(p, ",");
        size_t len = (size_t)(end - p);
        bool last = *end == '\0';
        *end = '\0';
        if (len == 0 || len > IPCSIM_JOB_HOST_MAX || n == job.cores) {
            snprintf(why, sizeof why, "not %d host names of 1..%d bytes, comma separated",
                     job.cores, IPCSIM_JOB_HOST_MAX);
            bad(IPCSIM_JOB_HOSTS_ENV, v, why);
        }
        host[n] = p;
        node[n] = nodes;
        for (int k = 0; k < n; k++)
            if (strcmp(host[k], p) == 0) node[n] = node[k];
        if (node[n] == nodes) nodes++;
        n++;
        if (last) break;
    }
    if (n != job.cores) {
        snprintf(why, sizeof why, "%d host names for %d cores", n, job.cores);
        bad(IPCSIM_JOB_HOSTS_ENV, v, why);
    }
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
    parse_hosts();
    job.port = env_port(job.cores, ipcsim_job_port(job.id, job.cores));
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

/* ---- plat.h: where cores live ------------------------------------------------ */

/* A threaded run's ports: from the process id, so that runs at the same
 * time (plain, ASan, TSan suites) do not meet. */
static int threads_port(void)
{
    /* below the ephemeral ports (job.h) */
    return env_port(nat_cores(), 10000 + (int)(getpid() % 600) * 16);
}

int nat_core_node(int core)
{
    const struct nat_job *j = nat_job();
    if (!j) {
        nat_core_at(core, "plat_core_node");
        return 0;
    }
    if (core < 0 || core >= j->cores)
        nat_die("plat_core_node: no core %d (the job has %d)", core, j->cores);
    return node[core];
}

int nat_core_addr(int core, char *buf, size_t len)
{
    const struct nat_job *j = nat_job();
    int k;
    if (!j) {
        if (!nat_core_find(core)) return PLAT_EINVAL;
        k = snprintf(buf, len, "127.0.0.1:%d", threads_port() + core);
    } else {
        if (core < 0 || core >= j->cores) return PLAT_EINVAL;
        /* A numeric IPv6 host needs brackets before the port. */
        bool v6 = strchr(host[core], ':') != NULL;
        k = snprintf(buf, len, v6 ? "[%s]:%d" : "%s:%d", host[core], j->port + core);
    }
    return k > 0 && (size_t)k < len ? PLAT_OK : PLAT_ENOMEM;
}
