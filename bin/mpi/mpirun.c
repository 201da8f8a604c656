/*
 * mpirun.c -- start an MPI program as N processes of one native job.
 *
 * Each rank is a process that the native backend makes core i of N
 * (IPCSIM_JOB, IPCSIM_CORE, IPCSIM_CORES: plat/native/job.c); mpi_lite's
 * shared regions are then the job's POSIX shared memory. mpirun waits for
 * every rank; the first that fails (a signal, a non-zero exit) is named on
 * one line, the others are stopped (SIGTERM, SIGKILL after a grace), the
 * job's leftover /dev/shm objects removed, and mpirun exits with that
 * rank's status. A hostfile may name other hosts: their ranks start
 * through a launcher command (ssh by default) and learn every rank's host
 * and the job's ports from IPCSIM_HOSTS and IPCSIM_PORT.
 * docs/mpi_lite.md, "Processes: mpirun".
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

#define PORT_MAX 65535
#define DEFAULT_LAUNCHER "ssh {host}"

struct opts {
    long n;
    const char *hostfile;
    double timeout_s; /* 0: none */
    bool pin, oversubscribe;
    long port;                          /* 0: derived from the job's name */
    const char *launcher, *launcher_of; /* the command and where it came from */
    char **argv;                        /* the program and its arguments */
};

/* Where the ranks run: one place per rank, and what their environment says. */
struct job {
    char id[IPCSIM_JOB_ID_MAX + 1];
    long port;
    struct host *hosts; /* the hostfile's (NULL: none, every rank here) */
    struct place *at;   /* per rank (NULL: none, every rank here) */
    bool *remote;       /* per rank: started through the launcher */
    char *hosts_env;    /* IPCSIM_HOSTS (NULL: every host is this one) */
    char **launcher;    /* the launcher's words, NULL-terminated */
    char *program;      /* the program as remote ranks name it */
};

struct rank {
    pid_t pid;
    bool live;
    const char *host; /* a remote rank's host: pid is its launcher's */
};

static const char usage[] =
    "usage: mpirun -n N [--hostfile FILE] [--launcher CMD] [--port P] [--timeout S]\n"
    "              [--oversubscribe] [--bind-to core|none] [--] PROGRAM [ARGS...]\n"
    "Start N processes of PROGRAM as one mpi_lite job (native backend).\n"
    "  -n, -np N          number of ranks (1..256)\n"
    "  --hostfile, -f F   hosts and slots: MPICH 'host[:slots]' or Open MPI 'host slots=N'\n"
    "                     lines; ranks fill hosts in order. Ranks on this host start here;\n"
    "                     those on other hosts through the launcher, and IPCSIM_HOSTS\n"
    "                     tells every rank each rank's host (the names must resolve on\n"
    "                     every host to an address of that host)\n"
    "  --launcher CMD     how a rank on another host starts (also MPIRUN_LAUNCHER;\n"
    "                     default '" DEFAULT_LAUNCHER "'): CMD split on blanks, {host} the\n"
    "                     host's name, {node} its index among the job's hosts (0, 1, ..);\n"
    "                     run as CMD... env VAR=VALUE... PROGRAM ARGS...\n"
    "  --port P           rank i listens at its host's port P+i (also MPIRUN_PORT;\n"
    "                     default from the job's name, 10000..32767)\n"
    "  --oversubscribe    allow more ranks than the hostfile has slots\n"
    "  --timeout S        stop the job after S seconds (also MPIEXEC_TIMEOUT), exit 124\n"
    "  --bind-to core     pin a host's i-th rank to the i-th allowed CPU, round robin\n"
    "                     (the default; ranks on other hosts are not pinned)\n"
    "  --bind-to none, --no-pin   do not pin\n"
    "  --help, --version\n"
    "Exit status: 0 if every rank exits 0; else the first failing rank's status\n"
    "(128+N for signal N; a remote rank's is its launcher's); 2 for bad usage.\n";

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

/* A base port as text: a number of 1..PORT_MAX, checked against n later. */
static long port_number(const char *what, const char *v)
{
    char *end;
    errno = 0;
    long p = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || end == v || *end || p < 1 || p > PORT_MAX)
        usage_error("%s %s: not a port (1..%d)", what, v ? v : "(missing)", PORT_MAX);
    return p;
}

static struct opts parse(int argc, char **argv)
{
    struct opts o = {.n = 0, .pin = true, .launcher = DEFAULT_LAUNCHER};
    const char *port_of = NULL;
    o.launcher_of = "the default launcher";
    const char *env = getenv("MPIEXEC_TIMEOUT");
    if (env && *env) o.timeout_s = seconds("MPIEXEC_TIMEOUT", env);
    env = getenv("MPIRUN_PORT");
    if (env && *env) {
        o.port = port_number("MPIRUN_PORT", env);
        port_of = "MPIRUN_PORT";
    }
    env = getenv("MPIRUN_LAUNCHER");
    if (env && *env) {
        o.launcher = env;
        o.launcher_of = "MPIRUN_LAUNCHER";
    }
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
        } else if (strcmp(a, "--port") == 0) {
            o.port = port_number(a, next);
            port_of = a;
            i++;
        } else if (strcmp(a, "--launcher") == 0) {
            if (!next) usage_error("--launcher needs a command");
            o.launcher = next;
            o.launcher_of = a;
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
    if (o.port && o.port + o.n - 1 > PORT_MAX)
        usage_error("%s %ld: ranks 0..%ld would listen at ports %ld..%ld, past %d", port_of, o.port,
                    o.n - 1, o.port, o.port + o.n - 1, PORT_MAX);
    if (strspn(o.launcher, " \t") == strlen(o.launcher))
        usage_error("%s '%s': no command", o.launcher_of, o.launcher);
    if (i >= argc) usage_error("no program to run");
    o.argv = argv + i;
    return o;
}

/* execvp's search: whether prog would run, or exit 2 naming it (after
 * `what`, which says whose program it is). */
static void check_program(const char *what, const char *prog)
{
    struct stat st;
    if (strchr(prog, '/')) {
        if (stat(prog, &st) != 0) usage_error("%s%s: %s", what, prog, strerror(errno));
        if (!S_ISREG(st.st_mode) || access(prog, X_OK) != 0)
            usage_error("%s%s: not an executable file", what, prog);
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
    usage_error(found_file ? "%s%s: not executable (found in PATH without execute permission)"
                           : "%s%s: not found in PATH",
                what, prog);
}

static void *alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fputs("mpirun: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

/* The launcher's words, split on blanks (no shell: no quotes, no $). */
static char **split_words(const char *cmd)
{
    char **w = alloc((strlen(cmd) / 2 + 2) * sizeof *w);
    size_t k = 0;
    for (const char *p = cmd + strspn(cmd, " \t"); *p; p += strspn(p, " \t")) {
        size_t len = strcspn(p, " \t");
        w[k] = alloc(len + 1);
        memcpy(w[k++], p, len);
        p += len;
    }
    return w;
}

/* word with every {host} and {node} replaced; malloc'ed. */
static char *substitute(const char *word, const char *host, int node)
{
    char num[16];
    snprintf(num, sizeof num, "%d", node);
    size_t cap = strlen(word) + 1;
    for (const char *p = word; (p = strchr(p, '{')); p++) cap += strlen(host) + sizeof num;
    char *out = alloc(cap), *o = out;
    for (const char *p = word; *p;) {
        const char *with = strncmp(p, "{host}", 6) == 0   ? host
                           : strncmp(p, "{node}", 6) == 0 ? num
                                                          : NULL;
        if (with) {
            o = stpcpy(o, with);
            p += 6;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

static void job_free(struct job *j)
{
    for (size_t i = 0; j->launcher && j->launcher[i]; i++) free(j->launcher[i]);
    free(j->launcher);
    free(j->hosts);
    free(j->at);
    free(j->remote);
    free(j->hosts_env);
    free(j->program);
}

/* Where each rank runs (exit 2 for a hostfile that cannot hold the job),
 * and the environment that tells them. */
static void plan(const struct opts *o, struct job *j)
{
    /* The formula plat/native/job.c uses without IPCSIM_PORT, set anyway:
     * every rank, here or not, reads the same value. */
    j->port = o->port ? o->port : ipcsim_job_port(j->id, (int)o->n);
    if (!o->hostfile) return; /* this host, as many ranks as asked */
    char err[1024];
    int nh = hostfile_read(o->hostfile, &j->hosts, err, sizeof err);
    if (nh < 0) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    long slots = 0;
    for (int i = 0; i < nh; i++) slots += j->hosts[i].slots;
    if (slots < o->n && !o->oversubscribe) {
        fprintf(stderr,
                "mpirun: %s has %ld slot%s for %ld ranks: not enough slots (--oversubscribe "
                "allows more ranks than slots)\n",
                o->hostfile, slots, slots == 1 ? "" : "s", o->n);
        exit(2);
    }
    j->at = alloc((size_t)o->n * sizeof *j->at);
    j->remote = alloc((size_t)o->n * sizeof *j->remote);
    hostfile_place(j->hosts, nh, o->n, j->at);
    /* Only the hosts that get ranks: a name may take the resolver a while. */
    bool *local = alloc((size_t)nh * sizeof *local), *known = alloc((size_t)nh * sizeof *known);
    bool spread = false;
    for (long r = 0; r < o->n; r++) {
        int h = j->at[r].host;
        if (!known[h]) local[h] = host_is_local(j->hosts[h].name);
        known[h] = true;
        spread |= !local[h];
    }
    free(known);
    if (!spread) { /* one node, as without a hostfile */
        free(local);
        free(j->at);
        j->at = NULL;
        return;
    }
    size_t len = 1;
    for (long r = 0; r < o->n; r++) {
        const struct host *h = &j->hosts[j->at[r].host];
        if (strchr(h->name, ',')) {
            fprintf(stderr, "mpirun: %s:%d: host '%s': IPCSIM_HOSTS cannot hold a ','\n",
                    o->hostfile, h->line, h->name);
            exit(2);
        }
        j->remote[r] = !local[j->at[r].host];
        len += strlen(h->name) + 1;
    }
    free(local);
    j->hosts_env = alloc(len);
    for (long r = 0; r < o->n; r++) {
        if (r) strcat(j->hosts_env, ",");
        strcat(j->hosts_env, j->hosts[j->at[r].host].name);
    }
    j->launcher = split_words(o->launcher);
    char what[512];
    snprintf(what, sizeof what, "%s '%s': ", o->launcher_of, o->launcher);
    check_program(what, j->launcher[0]);
    /* ssh starts in the home directory: a path must not depend on ours. */
    if (strchr(o->argv[0], '/')) {
        j->program = realpath(o->argv[0], NULL);
        if (!j->program) usage_error("%s: %s", o->argv[0], strerror(errno));
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

#define MAX_VARS 16

/* The variables of rank r, "VAR=VALUE", into v; their count. */
static int rank_vars(const struct opts *o, const struct job *j, int r, char **v)
{
    long local = j->at ? j->at[r].local_rank : r, locals = j->at ? j->at[r].local_size : o->n;
    const struct {
        const char *name;
        long value;
    } num[] = {{IPCSIM_JOB_CORE_ENV, r},
               {IPCSIM_JOB_CORES_ENV, o->n},
               {IPCSIM_JOB_PORT_ENV, j->port},
               /* What MPICH's and Open MPI's launchers tell a rank: programs and
                * scripts written for them find their rank the same way here. */
               {"PMI_RANK", r},
               {"PMI_SIZE", o->n},
               {"PMI_LOCAL_RANK", local},
               {"PMI_LOCAL_SIZE", locals},
               {"MPI_LOCALRANKID", local},
               {"MPI_LOCALNRANKS", locals},
               {"OMPI_COMM_WORLD_RANK", r},
               {"OMPI_COMM_WORLD_SIZE", o->n},
               {"OMPI_COMM_WORLD_LOCAL_RANK", local},
               {"OMPI_COMM_WORLD_LOCAL_SIZE", locals}};
    int k = 0;
    if (asprintf(&v[k++], "%s=%s", IPCSIM_JOB_ENV, j->id) < 0) return -1;
    if (j->hosts_env && asprintf(&v[k++], "%s=%s", IPCSIM_JOB_HOSTS_ENV, j->hosts_env) < 0)
        return -1;
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
        if (asprintf(&v[k++], "%s=%ld", num[i].name, num[i].value) < 0) return -1;
    return k;
}

/* In the child: the rank's environment, stdin, CPU; then the program, or
 * for a rank on another host the launcher with `env`, the variables and
 * the program as its arguments. */
static _Noreturn void exec_rank(const struct opts *o, const struct job *j, int r,
                                const sigset_t *oldmask)
{
    char *vars[MAX_VARS];
    int nv = rank_vars(o, j, r, vars);
    if (nv < 0) {
        fprintf(stderr, "mpirun: rank %d: out of memory\n", r);
        _exit(127);
    }
    if (r != 0) { /* stdin goes to rank 0 only */
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0 && fd != 0) {
            dup2(fd, 0);
            close(fd);
        }
    }
    bool remote = j->remote && j->remote[r];
    if (o->pin && !remote) {
        int cpu = cpu_for(j->at ? (int)j->at[r].local_rank : r);
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            sched_setaffinity(0, sizeof set, &set); /* best effort */
        }
    }
    sigprocmask(SIG_SETMASK, oldmask, NULL);
    if (!remote) {
        for (int i = 0; i < nv; i++) putenv(vars[i]);
        execvp(o->argv[0], o->argv);
        fprintf(stderr, "mpirun: rank %d: cannot run %s: %s\n", r, o->argv[0], strerror(errno));
        _exit(127);
    }
    size_t nl = 0, na = 0;
    while (j->launcher[nl]) nl++;
    while (o->argv[na]) na++;
    char **argv = calloc(nl + 1 + (size_t)nv + na + 1, sizeof *argv);
    if (!argv) _exit(127);
    const char *host = j->hosts[j->at[r].host].name;
    size_t k = 0;
    for (size_t i = 0; i < nl; i++) argv[k++] = substitute(j->launcher[i], host, j->at[r].node);
    argv[k++] = "env";
    for (int i = 0; i < nv; i++) argv[k++] = vars[i];
    argv[k++] = j->program ? j->program : o->argv[0];
    for (size_t i = 1; i < na; i++) argv[k++] = o->argv[i];
    execvp(argv[0], argv);
    fprintf(stderr, "mpirun: rank %d: cannot run the launcher %s for host %s: %s\n", r, argv[0],
            host, strerror(errno));
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
        char who[320];
        snprintf(who, sizeof who, "rank %ld (pid %ld%s%s)", r, (long)pid,
                 rk[r].host ? ", launched on host " : "", rk[r].host ? rk[r].host : "");
        if (WIFSIGNALED(st))
            fprintf(stderr, "mpirun: %s killed by signal %d (%s)\n", who, WTERMSIG(st),
                    strsignal(WTERMSIG(st)));
        else
            fprintf(stderr, "mpirun: %s exited with status %d\n", who, code);
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
    check_program("", o.argv[0]);

    struct job job = {.port = 0};
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(job.id, sizeof job.id, "%ld-%lx", (long)getpid(), (unsigned long)ts.tv_nsec);
    plan(&o, &job);

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
        if (pid == 0) exec_rank(&o, &job, (int)r, &old);
        if (pid < 0) {
            fprintf(stderr, "mpirun: cannot start rank %ld: %s\n", r, strerror(errno));
            status = 1;
            break;
        }
        bool remote = job.remote && job.remote[r];
        rk[r] = (struct rank){pid, true, remote ? job.hosts[job.at[r].host].name : NULL};
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
    remove_leftovers(job.id);
    free(rk);
    job_free(&job);
    return status;
}
