/*
 * mpirun.c -- start an MPI program as N processes of one native job.
 *
 * Each rank is a process that the native backend makes core i of N
 * (IPCSIM_JOB, IPCSIM_CORE, IPCSIM_CORES: plat/native/job.c); mpi_lite's
 * shared regions are then the job's POSIX shared memory. mpirun waits for
 * every rank; the first that fails (a signal, a non-zero exit) is named on
 * one line, the others are stopped (SIGTERM, SIGKILL after a grace), the
 * job's leftover /dev/shm objects removed, and mpirun exits with that
 * rank's status. docs/mpi_lite.md, "Processes: mpirun".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hostfile.h"
#include "ipcsim/job.h"
#include "version.h"

#define MAX_RANKS 256
#define GRACE_NS 2000000000ull /* SIGTERM, then SIGKILL after this */
#define EXIT_TIMEOUT 124       /* as timeout(1) */

struct opts {
    long n;
    const char *hostfile;
    double timeout_s; /* 0: none */
    bool pin, oversubscribe;
    char **argv; /* the program and its arguments */
};

struct rank {
    pid_t pid;
    bool live;
};

static const char usage[] =
    "usage: mpirun -n N [--hostfile FILE] [--timeout S] [--oversubscribe] [--bind-to core|none]\n"
    "              [--] PROGRAM [ARGS...]\n"
    "Start N processes of PROGRAM on this host as one mpi_lite job (native backend).\n"
    "  -n, -np N          number of ranks (1..256)\n"
    "  --hostfile, -f F   hosts and slots: MPICH 'host[:slots]' or Open MPI 'host slots=N'\n"
    "                     lines; ranks fill hosts in order; only this host can run ranks\n"
    "  --oversubscribe    allow more ranks than the hostfile has slots\n"
    "  --timeout S        stop the job after S seconds (also MPIEXEC_TIMEOUT), exit 124\n"
    "  --bind-to core     pin rank i to the i-th allowed CPU, round robin (the default)\n"
    "  --bind-to none, --no-pin   do not pin\n"
    "  --help, --version\n"
    "Exit status: 0 if every rank exits 0; else the first failing rank's status\n"
    "(128+N for signal N); 2 for bad usage.\n";

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mpirun: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (mpirun --help)\n", stderr);
    exit(2);
}

static long rank_count(const char *opt, const char *v)
{
    if (!v) usage_error("%s needs a number of ranks", opt);
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end) usage_error("%s %s: not a number of ranks", opt, v);
    if (n < 1) usage_error("%s %s: the job needs at least 1 rank", opt, v);
    if (n > MAX_RANKS) usage_error("%s %s: more than %d ranks", opt, v, MAX_RANKS);
    return n;
}

static double seconds(const char *what, const char *v)
{
    char *end;
    errno = 0;
    double s = v ? strtod(v, &end) : 0;
    if (!v || errno || end == v || *end || !(s > 0) || s > 1e7)
        usage_error("%s %s: not a positive number of seconds", what, v ? v : "(missing)");
    return s;
}

static struct opts parse(int argc, char **argv)
{
    struct opts o = {.n = 0, .pin = true};
    const char *env = getenv("MPIEXEC_TIMEOUT");
    if (env && *env) o.timeout_s = seconds("MPIEXEC_TIMEOUT", env);
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (a[0] != '-') {
            break;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("mpirun (ipcsim mpi_lite) %s\n", IPCSIM_VERSION);
            exit(0);
        } else if (strcmp(a, "-n") == 0 || strcmp(a, "-np") == 0 || strcmp(a, "--np") == 0) {
            o.n = rank_count(a, next);
            i++;
        } else if (strcmp(a, "--hostfile") == 0 || strcmp(a, "-hostfile") == 0 ||
                   strcmp(a, "-f") == 0 || strcmp(a, "--machinefile") == 0) {
            if (!next) usage_error("%s needs a file", a);
            o.hostfile = next;
            i++;
        } else if (strcmp(a, "--timeout") == 0) {
            o.timeout_s = seconds(a, next);
            i++;
        } else if (strcmp(a, "--oversubscribe") == 0) {
            o.oversubscribe = true;
        } else if (strcmp(a, "--no-pin") == 0) {
            o.pin = false;
        } else if (strcmp(a, "--bind-to") == 0) {
            if (next && strcmp(next, "none") == 0)
                o.pin = false;
            else if (next && strcmp(next, "core") == 0)
                o.pin = true;
            else
                usage_error("--bind-to %s: not core or none", next ? next : "(missing)");
            i++;
        } else {
            usage_error("unknown option '%s'", a);
        }
    }
    if (o.n == 0) usage_error("-n N is missing");
    if (i >= argc) usage_error("no program to run");
    o.argv = argv + i;
    return o;
}

/* execvp's search: the path the program would run from, or exit 2. */
static void check_program(const char *prog)
{
    struct stat st;
    if (strchr(prog, '/')) {
        if (stat(prog, &st) != 0) usage_error("%s: %s", prog, strerror(errno));
        if (!S_ISREG(st.st_mode) || access(prog, X_OK) != 0)
            usage_error("%s: not an executable file", prog);
        return;
    }
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    bool found_file = false;
    for (const char *p = path;;) {
        size_t len = strcspn(p, ":");
        char full[PATH_MAX];
        snprintf(full, sizeof full, "%.*s%s%s", (int)len, len ? p : ".", "/", prog);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            if (access(full, X_OK) == 0) return;
            found_file = true;
        }
        if (!p[len]) break;
        p += len + 1;
    }
    usage_error(found_file ? "%s: not executable (found in PATH without execute permission)"
                           : "%s: not found in PATH",
                prog);
}

/* The hostfile's hosts must all be this one and hold n ranks (exit 2). */
static void check_hosts(const struct opts *o)
{
    if (!o->hostfile) return; /* this host, as many ranks as asked */
    struct host *h;
    char err[1024];
    int nh = hostfile_read(o->hostfile, &h, err, sizeof err);
    if (nh < 0) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    long slots = 0;
    for (int i = 0; i < nh; i++) {
        if (!host_is_local(h[i].name)) {
            fprintf(stderr,
                    "mpirun: %s:%d: host '%s' is not this host: ranks on other hosts need the "
                    "stream transport, which is not built yet\n",
                    o->hostfile, h[i].line, h[i].name);
            exit(2);
        }
        slots += h[i].slots;
    }
    free(h);
    if (slots < o->n && !o->oversubscribe) {
        fprintf(stderr,
                "mpirun: %s has %ld slot%s for %ld ranks: not enough slots (--oversubscribe "
                "allows more ranks than slots)\n",
                o->hostfile, slots, slots == 1 ? "" : "s", o->n);
        exit(2);
    }
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The i-th CPU this process may run on, round robin; -1 if unknown. */
static int cpu_for(int i)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int n = CPU_COUNT(&allowed);
    if (n <= 0) return -1;
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &allowed) && k++ == i % n) return cpu;
    return -1;
}

static void set_num(const char *var, long v)
{
    char s[32];
    snprintf(s, sizeof s, "%ld", v);
    setenv(var, s, 1);
}

/* In the child: the rank's environment, stdin, CPU; then the program. */
static _Noreturn void exec_rank(const struct opts *o, const char *job, int r,
                                const sigset_t *oldmask)
{
    setenv(IPCSIM_JOB_ENV, job, 1);
    set_num(IPCSIM_JOB_CORE_ENV, r);
    set_num(IPCSIM_JOB_CORES_ENV, o->n);
    /* What MPICH's and Open MPI's launchers tell a rank: programs and
     * scripts written for them find their rank the same way here. */
    set_num("PMI_RANK", r);
    set_num("PMI_SIZE", o->n);
    set_num("PMI_LOCAL_RANK", r);
    set_num("PMI_LOCAL_SIZE", o->n);
    set_num("MPI_LOCALRANKID", r);
    set_num("MPI_LOCALNRANKS", o->n);
    set_num("OMPI_COMM_WORLD_RANK", r);
    set_num("OMPI_COMM_WORLD_SIZE", o->n);
    set_num("OMPI_COMM_WORLD_LOCAL_RANK", r);
    set_num("OMPI_COMM_WORLD_LOCAL_SIZE", o->n);
    if (r != 0) { /* stdin goes to rank 0 only */
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0 && fd != 0) {
            dup2(fd, 0);
            close(fd);
        }
    }
    if (o->pin) {
        int cpu = cpu_for(r);
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            sched_setaffinity(0, sizeof set, &set); /* best effort */
        }
    }
    sigprocmask(SIG_SETMASK, oldmask, NULL);
    execvp(o->argv[0], o->argv);
    fprintf(stderr, "mpirun: rank %d: cannot run %s: %s\n", r, o->argv[0], strerror(errno));
    _exit(127);
}

/* Remove what the job's processes left in /dev/shm (a killed rank never
 * unmaps, so its objects would stay until reboot). */
static void remove_leftovers(const char *job)
{
    char prefix[128];
    int n = snprintf(prefix, sizeof prefix, IPCSIM_JOB_SHM_PREFIX "%s.", job);
    DIR *d = opendir("/dev/shm");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, prefix, (size_t)n) == 0) {
            char name[NAME_MAX + 2];
            snprintf(name, sizeof name, "/%s", e->d_name);
            shm_unlink(name);
        }
    closedir(d);
}

static void signal_live(struct rank *rk, long n, int sig)
{
    for (long i = 0; i < n; i++)
        if (rk[i].live) kill(rk[i].pid, sig);
}

static long live_count(const struct rank *rk, long n)
{
    long k = 0;
    for (long i = 0; i < n; i++) k += rk[i].live;
    return k;
}

/* Reap what has ended; returns the first failure's exit code (0: none) and
 * reports it, unless `quiet` (ranks mpirun itself stopped). */
static int reap(struct rank *rk, long n, bool quiet)
{
    int fail = 0;
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        long r = 0;
        while (r < n && rk[r].pid != pid) r++;
        if (r == n) continue;
        rk[r].live = false;
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
        if (code == 0 || quiet || fail) continue;
        fail = code;
        if (WIFSIGNALED(st))
            fprintf(stderr, "mpirun: rank %ld (pid %ld) killed by signal %d (%s)\n", r, (long)pid,
                    WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            fprintf(stderr, "mpirun: rank %ld (pid %ld) exited with status %d\n", r, (long)pid,
                    code);
    }
    return fail;
}

/* Wait for a child to end or a signal to come, until deadline (ns). Returns
 * the signal that came (SIGCHLD, SIGINT, ...) or 0 at the deadline. */
static int wait_event(const sigset_t *set, uint64_t deadline)
{
    for (;;) {
        uint64_t now = now_ns();
        if (deadline != UINT64_MAX && now >= deadline) return 0;
        uint64_t left = deadline == UINT64_MAX ? 3600000000000ull : deadline - now;
        struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        int sig = sigtimedwait(set, NULL, &ts);
        if (sig > 0) return sig;
        if (errno != EAGAIN && errno != EINTR) return 0;
        if (errno == EAGAIN && deadline != UINT64_MAX) return 0;
    }
}

/* SIGTERM to every live rank, SIGKILL to those left after the grace. */
static void stop_all(struct rank *rk, long n, const sigset_t *set)
{
    signal_live(rk, n, SIGTERM);
    uint64_t deadline = now_ns() + GRACE_NS;
    reap(rk, n, true);
    while (live_count(rk, n) && wait_event(set, deadline)) reap(rk, n, true);
    if (live_count(rk, n)) {
        signal_live(rk, n, SIGKILL);
        while (live_count(rk, n) && wait_event(set, UINT64_MAX)) reap(rk, n, true);
    }
}

int main(int argc, char **argv)
{
    struct opts o = parse(argc, argv);
    check_program(o.argv[0]);
    check_hosts(&o);

    char job[IPCSIM_JOB_ID_MAX + 1];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(job, sizeof job, "%ld-%lx", (long)getpid(), (unsigned long)ts.tv_nsec);

    /* Children and signals are taken with sigtimedwait: no handler races. */
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, &old);

    struct rank *rk = calloc((size_t)o.n, sizeof *rk);
    if (!rk) {
        fputs("mpirun: out of memory\n", stderr);
        return 1;
    }
    fflush(NULL);
    int status = 0;
    for (long r = 0; r < o.n; r++) {
        pid_t pid = fork();
        if (pid == 0) exec_rank(&o, job, (int)r, &old);
        if (pid < 0) {
            fprintf(stderr, "mpirun: cannot start rank %ld: %s\n", r, strerror(errno));
            status = 1;
            break;
        }
        rk[r] = (struct rank){pid, true};
    }
    uint64_t deadline = o.timeout_s > 0 ? now_ns() + (uint64_t)(o.timeout_s * 1e9) : UINT64_MAX;
    while (status == 0 && live_count(rk, o.n)) {
        int sig = wait_event(&set, deadline);
        status = reap(rk, o.n, false);
        if (status) {
            long left = live_count(rk, o.n);
            if (left)
                fprintf(stderr, "mpirun: stopping the job's other %ld rank%s\n", left,
                        left == 1 ? "" : "s");
        } else if (sig == 0) {
            fprintf(stderr,
                    "mpirun: the job ran longer than its timeout of %g s; stopping its %ld "
                    "running rank%s\n",
                    o.timeout_s, live_count(rk, o.n), live_count(rk, o.n) == 1 ? "" : "s");
            status = EXIT_TIMEOUT;
        } else if (sig != SIGCHLD) {
            fprintf(stderr, "mpirun: %s: stopping the job\n", strsignal(sig));
            status = 128 + sig;
        }
    }
    stop_all(rk, o.n, &set);
    remove_leftovers(job);
    free(rk);
    return status;
}
