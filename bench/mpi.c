/*
 * mpi.c -- mpi_lite against MPICH and Open MPI: the OSU-compatible latency
 * and bandwidth programs (mpi_lite/osu/) built three ways, on two ranks.
 *
 *   mpi_lite  BUILD/osu/<prog> (libmpi_lite.a), run by BUILD/bin/mpirun -n 2,
 *             which pins rank i to CPU i; its shared-memory transport.
 *   mpich     BUILD/osu-ref/mpich/<prog>, mpirun.mpich -n 2 -bind-to core;
 *             Debian's MPICH (ch4), shared memory between the two ranks.
 *   openmpi   BUILD/osu-ref/openmpi/<prog>, mpirun.openmpi -n 2 --bind-to
 *             core with OMPI_MCA_btl=self,vader: Open MPI's shared-memory
 *             path (the vader BTL), forced so it never picks TCP.
 *
 * ROUNDS rounds; in every round each MPI runs osu_latency -m 4:65536 and
 * then osu_bw -m 1048576:1048576, the MPIs interleaved (mpi_lite, mpich,
 * openmpi, mpi_lite, ...), so that a change of the machine's state (the
 * cross-CPU cache-line transfer of this 2-vCPU VM moves between ~55 ns and
 * ~1 us: docs/xmcapi.md) hits all three alike. Each run is a process run of
 * the program: its own start-up, its own warm-up, OSU's iteration counts.
 *
 * Output: CSV `metric,value,unit` on stdout: the median (no suffix), min and
 * max over the rounds of
 *   lat_<mpi>_<4B|1KiB|64KiB>   half round trip, us (osu_latency's column)
 *   bw_<mpi>_1MiB               MB/s = 10^6 B/s (osu_bw's column)
 *   cacheline_rtt_ns            context: one word each way between two
 *                               threads pinned to the two CPUs, per round
 * and the ratios of medians mpi_lite/mpich and mpi_lite/openmpi of each,
 * ratio_<lat|bw>_<size>_<mpich|openmpi>: latency below 1 and bandwidth
 * above 1 favour mpi_lite.
 *
 * Without BUILD/bin/mpirun the mpi_lite runs are skipped (said on stderr
 * and as mpi_lite_skipped,1): the MPICH and Open MPI rows still come out.
 * A missing MPICH or Open MPI program fails the bench (make osu-ref).
 *
 * Usage: bench/mpi [-r ROUNDS]   (BUILD is where this program sits: BUILD/bench/mpi)
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench/mpi"
#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_ROUNDS 9
#define RUN_TIMEOUT_S 120 /* one program run; a hang fails the bench */
#define LINE_REPS 20000
#define OUT_BYTES 65536

enum mpi { LITE, MPICH, OPENMPI, NMPI };
static const char *const mpi_name[NMPI] = {"mpi_lite", "mpich", "openmpi"};

/* What is reported: the program, its -m, the size of the row, the name. */
struct metric {
    const char *prog, *range;
    size_t size;
    const char *what, *size_name, *unit; /* lat_<mpi>_<size_name> */
    bool higher_better;
};
static const struct metric metrics[] = {
    {"osu_latency", "4:65536", 4, "lat", "4B", "us", false},
    {"osu_latency", "4:65536", 1024, "lat", "1KiB", "us", false},
    {"osu_latency", "4:65536", 65536, "lat", "64KiB", "us", false},
    {"osu_bw", "1048576:1048576", 1048576, "bw", "1MiB", "MB/s", true},
};
#define NMETRICS (sizeof metrics / sizeof metrics[0])
/* The runs of one round for one MPI: the distinct (prog, range). */
static const size_t runs[] = {0, 3};
#define NRUNS (sizeof runs / sizeof runs[0])

static struct {
    char build[PATH_MAX];
    int rounds;
    bool have[NMPI];
    double value[NMETRICS][NMPI][BENCH_MAX_ROUNDS];
    double line[BENCH_MAX_ROUNDS];
    _Alignas(64) atomic_ulong ping;
    _Alignas(64) atomic_ulong pong;
    volatile pid_t child;
} g;

__attribute__((format(printf, 1, 2), noreturn)) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, BENCH_NAME ": ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_FAILURE);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = BENCH_NAME ": a run took over 120 s: killed\n";
    if (g.child > 0) kill(-g.child, SIGKILL);
    (void)!write(2, msg, sizeof msg - 1);
    _exit(EXIT_FAILURE);
}

/* BUILD: two levels above this program (BUILD/bench/mpi). */
static void find_build(void)
{
    char self[PATH_MAX];
    if (!realpath("/proc/self/exe", self))
        fail("cannot resolve /proc/self/exe: %s", strerror(errno));
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(self, '/');
        if (!slash || slash == self) fail("%s is not BUILD/bench/mpi", self);
        *slash = '\0';
    }
    snprintf(g.build, sizeof g.build, "%s", self);
}

static void program(char *buf, size_t len, enum mpi m, const char *prog)
{
    int n = m == LITE ? snprintf(buf, len, "%s/osu/%s", g.build, prog)
                      : snprintf(buf, len, "%s/osu-ref/%s/%s", g.build, mpi_name[m], prog);
    if (n < 0 || (size_t)n >= len) fail("path too long under %s", g.build);
}

/* Run `mpi`'s prog with -m range on 2 ranks; its stdout into out. */
static void run_one(enum mpi m, const char *prog, const char *range, char *out, size_t outlen)
{
    char exe[PATH_MAX + 64], mpirun[PATH_MAX + 16];
    program(exe, sizeof exe, m, prog);
    snprintf(mpirun, sizeof mpirun, "%s/bin/mpirun", g.build);
    const char *argv_lite[] = {mpirun, "-n", "2", exe, "-m", range, NULL};
    const char *argv_mpich[] = {"mpirun.mpich", "-n",  "2", "-bind-to", "core", exe,
                                "-m",           range, NULL};
    const char *argv_ompi[] = {
        "mpirun.openmpi", "-n", "2", "--bind-to", "core", exe, "-m", range, NULL};
    const char *const *argv = m == LITE ? argv_lite : m == MPICH ? argv_mpich : argv_ompi;

    int fd[2];
    if (pipe(fd) != 0) fail("pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) fail("fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0); /* the whole job is killed on a timeout */
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (m == OPENMPI) {
            setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
            setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
            setenv("OMPI_MCA_btl", "self,vader", 1);
        }
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, BENCH_NAME ": cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    g.child = pid;
    close(fd[1]);
    alarm(RUN_TIMEOUT_S);
    size_t len = 0;
    ssize_t n;
    while (len + 1 < outlen && (n = read(fd[0], out + len, outlen - 1 - len)) != 0) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("reading %s's output: %s", prog, strerror(errno));
        len += (size_t)n;
    }
    out[len] = '\0';
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    alarm(0);
    g.child = 0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail("%s %s -m %s (%s) failed (status %d); its output:\n%s", argv[0], exe, range,
             mpi_name[m], WIFEXITED(st) ? WEXITSTATUS(st) : -1, out);
}

/* The value of the row `size` of an OSU output (comment lines start '#'). */
static double row(const char *out, size_t size, enum mpi m, const char *prog)
{
    for (const char *p = out; *p;) {
        size_t s;
        double v;
        if (*p != '#' && sscanf(p, "%zu %lf", &s, &v) == 2 && s == size) return v;
        const char *nl = strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
    fail("%s (%s) printed no row for %zu bytes:\n%s", prog, mpi_name[m], size, out);
}

struct line_side {
    int cpu;
    bool a; /* A sends first and times */
    double ns;
};

static void *line_side(void *arg)
{
    struct line_side *side = arg;
    pin(side->cpu);
    uint64_t t0 = now_ns();
    for (unsigned long k = 1; k <= LINE_REPS; k++) {
        if (side->a) {
            atomic_store_explicit(&g.ping, k, memory_order_release);
            while (atomic_load_explicit(&g.pong, memory_order_acquire) != k) relax();
        } else {
            while (atomic_load_explicit(&g.ping, memory_order_acquire) != k) relax();
            atomic_store_explicit(&g.pong, k, memory_order_release);
        }
    }
    side->ns = (double)(now_ns() - t0) / LINE_REPS;
    return NULL;
}

/* One word each way in a cache line of its own between two threads pinned
 * to the two CPUs: ns per round trip. Both sides are threads of their own:
 * the main thread stays unpinned, and so do the MPI jobs it starts. */
static double line_rtt(const int cpu[2])
{
    struct line_side side[2] = {{.cpu = cpu[0], .a = true}, {.cpu = cpu[1], .a = false}};
    pthread_t t[2];
    atomic_store(&g.ping, 0);
    atomic_store(&g.pong, 0);
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, line_side, &side[i]) != 0) fail("pthread_create failed");
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    return side[0].ns;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench/mpi [-r ROUNDS]\n"
            "  mpi_lite, MPICH and Open MPI on osu_latency and osu_bw, 2 ranks, interleaved;\n"
            "  ROUNDS rounds (1 .. %d, default %d); CSV on stdout (docs/mpi_lite.md).\n",
            BENCH_MAX_ROUNDS, DEFAULT_ROUNDS);
}

static void options(int argc, char **argv)
{
    g.rounds = DEFAULT_ROUNDS;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        char *end;
        long r = 0;
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            errno = 0;
            r = strtol(argv[++i], &end, 10);
            if (errno == 0 && *end == '\0' && end != argv[i] && r >= 1 && r <= BENCH_MAX_ROUNDS) {
                g.rounds = (int)r;
                continue;
            }
            fprintf(stderr, BENCH_NAME ": -r %s: expected a whole number 1 .. %d\n", argv[i],
                    BENCH_MAX_ROUNDS);
        } else {
            fprintf(stderr, BENCH_NAME ": unknown argument '%s'\n", argv[i]);
        }
        usage(stderr);
        exit(2);
    }
}

/* Which MPIs can run; a missing reference program fails (make osu-ref). */
static void check_programs(void)
{
    char path[PATH_MAX + 64];
    for (int m = 0; m < NMPI; m++) {
        g.have[m] = true;
        for (size_t k = 0; k < NRUNS; k++) {
            program(path, sizeof path, (enum mpi)m, metrics[runs[k]].prog);
            if (access(path, X_OK) != 0) {
                if (m == LITE) fail("%s is not built (make all)", path);
                fail("%s is not built (make osu-ref)", path);
            }
        }
    }
    snprintf(path, sizeof path, "%s/bin/mpirun", g.build);
    if (access(path, X_OK) != 0) {
        fprintf(stderr, BENCH_NAME ": %s is not built: the mpi_lite runs are skipped\n", path);
        g.have[LITE] = false;
    }
}

int main(int argc, char **argv)
{
    options(argc, argv);
    find_build();
    check_programs();
    signal(SIGALRM, on_alarm);
    int cpu[2];
    pick_cpus(cpu);
    static char out[OUT_BYTES];
    for (int r = 0; r < g.rounds; r++) {
        g.line[r] = line_rtt(cpu);
        for (size_t k = 0; k < NRUNS; k++) {
            const struct metric *first = &metrics[runs[k]];
            for (int m = 0; m < NMPI; m++) {
                if (!g.have[m]) continue;
                run_one((enum mpi)m, first->prog, first->range, out, sizeof out);
                for (size_t i = 0; i < NMETRICS; i++)
                    if (strcmp(metrics[i].prog, first->prog) == 0)
                        g.value[i][m][r] = row(out, metrics[i].size, (enum mpi)m, first->prog);
            }
        }
        fprintf(stderr, BENCH_NAME ": round %d of %d done\n", r + 1, g.rounds);
    }

    printf("metric,value,unit\n");
    printf("rounds,%d,count\n", g.rounds);
    printf("cpus_online,%ld,count\n", sysconf(_SC_NPROCESSORS_ONLN));
    printf("mpi_lite_skipped,%d,count\n", g.have[LITE] ? 0 : 1);
    print_stats("cacheline_rtt_ns", "", g.line, g.rounds, "ns", "%.0f");
    double med[NMETRICS][NMPI] = {{0}};
    for (size_t i = 0; i < NMETRICS; i++)
        for (int m = 0; m < NMPI; m++) {
            if (!g.have[m]) continue;
            char name[64];
            snprintf(name, sizeof name, "%s_%s_%s", metrics[i].what, mpi_name[m],
                     metrics[i].size_name);
            med[i][m] = print_stats(name, "", g.value[i][m], g.rounds, metrics[i].unit,
                                    metrics[i].higher_better ? "%.1f" : "%.3f");
        }
    if (!g.have[LITE]) return 0;
    /* ratio_lat_4B_mpich = mpi_lite's median / MPICH's. */
    for (size_t i = 0; i < NMETRICS; i++)
        for (int m = MPICH; m < NMPI; m++)
            printf("ratio_%s_%s_%s,%.3f,x\n", metrics[i].what, metrics[i].size_name, mpi_name[m],
                   med[i][LITE] / med[i][m]);
    return 0;
}
