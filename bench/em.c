/*
 * em.c -- native cost of the em library's send -> schedule -> receive loop
 * against a bare hardware-queue push + pop, in the same run.
 *
 * As em-odp's performance/loop.c and NSN OpenEM's test_appl_perf: EOS EOs,
 * each with one atomic queue holding EVENTS_PER_EO events; every receive
 * sends its event back to its own queue, so the events circle for ever. For
 * each core count N of 1, 2, 4, 8 that the host has online
 * (sysconf(_SC_NPROCESSORS_ONLN); the others are skipped and said so on
 * stderr), a child process starts N threads pinned to N CPUs, each adopted
 * as a platform core and an EM core, and alternates, round by round
 * (ROUNDS rounds of WINDOW_NS each, the order of the two flipping every
 * round), between:
 *
 *   em    every core dispatches (em_dispatch): cycles per event =
 *         TSC cycles of the window x N / events received in it, i.e. the
 *         cycles one core spends per event (OpenEM's figure: 264 on 4 cores
 *         and ~310 on 8, Sandy Bridge 2.69 GHz);
 *   hwq   every core pushes and pops one descriptor on a queue of its own of
 *         a plat_hwq device (what EM's queues are built on): cycles per
 *         push + pop pair on one core.
 *
 * Cycles are TSC cycles (__rdtsc, x86-64; elsewhere clock_gettime x the
 * nominal 1 GHz, said in the unit): the TSC counts at the nominal clock,
 * not the turbo or throttled one, so compare ratios rather than absolutes.
 *
 * Output: CSV `metric,value,unit` on stdout: em_cycles_per_event_<N>c,
 * hwq_cycles_per_pair_<N>c (each _median, _min, _max over the rounds), and
 * ratio_<N>c = em median / hwq median (the cost of scheduling, atomic
 * holding and dispatch over the bare queue); events_<N>c, the events
 * received over all em windows (so a stalled scheduler shows).
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench/em"
#include "bench.h"

#include <event_machine.h>
#include <event_machine/platform/env/environment.h>
#include <ipcsim/plat.h>

#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#define CYCLE_UNIT "cycles"
static uint64_t cycles(void)
{
    return __rdtsc();
}
#else
#define CYCLE_UNIT "ns_as_1GHz_cycles"
static uint64_t cycles(void)
{
    return now_ns();
}
#endif

#define EOS 64
#define EVENTS_PER_EO 4
#define ROUNDS 11
#define WINDOW_NS 20000000ull
#define MAX_N 8

enum phase { PH_IDLE, PH_EM, PH_HWQ, PH_EXIT };

struct counter {
    _Alignas(64) _Atomic uint64_t n;
};

/* One child's run (one core count). Plain statics: a program, not library
 * code, and each core count has its own process. */
static struct {
    int n;
    int cpu[MAX_N];
    _Atomic int phase;
    _Atomic int ready; /* cores that left the last phase */
    _Atomic int torn;  /* the EOs are stopped and deleted */
    pthread_barrier_t bar;
    em_queue_t q[EOS];
    em_eo_t eo[EOS];
    plat_hwq *hwq;
    _Atomic int hwq_ready; /* thread 0 opened hwq */
    struct counter em_cnt[MAX_N], hwq_cnt[MAX_N];
    int failed;
} b;

static em_status_t eo_start(void *ctx, em_eo_t eo, const em_eo_conf_t *conf)
{
    (void)ctx;
    (void)eo;
    (void)conf;
    return EM_OK;
}

static em_status_t eo_stop(void *ctx, em_eo_t eo)
{
    (void)ctx;
    return em_eo_remove_queue_all_sync(eo, 1);
}

static void receive(void *ctx, em_event_t ev, em_event_type_t type, em_queue_t queue, void *q_ctx)
{
    (void)ctx;
    (void)type;
    (void)q_ctx;
    struct counter *c = &b.em_cnt[em_core_id()];
    atomic_store_explicit(&c->n, atomic_load_explicit(&c->n, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (em_send(ev, queue) != EM_OK) {
        em_free(ev);
        b.failed = 1;
    }
}

static int setup(void)
{
    for (int i = 0; i < EOS; i++) {
        char name[32];
        snprintf(name, sizeof name, "loop%d", i);
        b.q[i] = em_queue_create(name, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL,
                                 EM_QUEUE_GROUP_DEFAULT, NULL);
        b.eo[i] = em_eo_create(name, eo_start, NULL, eo_stop, NULL, receive, NULL);
        em_status_t r = EM_OK;
        /* not em_eo_start_sync: it waits for every core's local start, which
         * the other cores run only once they dispatch, after setup */
        if (b.q[i] == EM_QUEUE_UNDEF || b.eo[i] == EM_EO_UNDEF ||
            em_eo_add_queue_sync(b.eo[i], b.q[i]) != EM_OK ||
            em_eo_start(b.eo[i], &r, NULL, 0, NULL) != EM_OK || r != EM_OK) {
            fprintf(stderr, BENCH_NAME ": creating EO %d failed\n", i);
            return -1;
        }
        for (int k = 0; k < EVENTS_PER_EO; k++) {
            em_event_t ev = em_alloc(64, EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
            if (ev == EM_EVENT_UNDEF || em_send(ev, b.q[i]) != EM_OK) {
                fprintf(stderr, BENCH_NAME ": em_alloc / em_send for EO %d failed\n", i);
                return -1;
            }
        }
    }
    return 0;
}

static void teardown(void)
{
    for (int i = 0; i < EOS; i++)
        if (b.eo[i] != EM_EO_UNDEF &&
            (em_eo_stop_sync(b.eo[i]) != EM_OK || em_eo_delete(b.eo[i]) != EM_OK))
            fprintf(stderr, BENCH_NAME ": stopping EO %d failed\n", i);
}

static void *worker(void *arg)
{
    int me = (int)(intptr_t)arg;
    pin(b.cpu[me]);
    (void)plat_core(); /* a platform core before em_init counts them */
    pthread_barrier_wait(&b.bar);
    if (me == 0) {
        em_conf_t conf;
        em_conf_init(&conf);
        conf.core_count = b.n;
        em_core_mask_set_count(b.n, &conf.phys_mask);
        if (em_init(&conf) != EM_OK) {
            fprintf(stderr, BENCH_NAME ": em_init(%d cores) failed\n", b.n);
            exit(EXIT_FAILURE);
        }
        int st = 0;
        if (!(b.hwq = plat_hwq_open("bench_em_hwq", &st))) {
            fprintf(stderr, BENCH_NAME ": plat_hwq_open: %s\n", plat_strerror(st));
            exit(EXIT_FAILURE);
        }
        atomic_store(&b.hwq_ready, 1);
    }
    pthread_barrier_wait(&b.bar);
    if (em_init_core() != EM_OK) {
        fprintf(stderr, BENCH_NAME ": em_init_core failed on thread %d\n", me);
        exit(EXIT_FAILURE);
    }
    pthread_barrier_wait(&b.bar);
    if (me == 0 && setup() != 0) exit(EXIT_FAILURE);
    pthread_barrier_wait(&b.bar);
    int core = em_core_id();
    unsigned hq = (unsigned)core % plat_hwq_queues(b.hwq);
    void *desc = &b.hwq_cnt[core];
    for (;;) {
        int ph = atomic_load_explicit(&b.phase, memory_order_acquire);
        if (ph == PH_EXIT) break;
        if (ph == PH_EM) {
            em_dispatch(16);
        } else if (ph == PH_HWQ) {
            for (int i = 0; i < 256; i++) {
                if (plat_hwq_push(b.hwq, hq, desc) != PLAT_OK || plat_hwq_pop(b.hwq, hq) != desc)
                    b.failed = 1;
            }
            struct counter *c = &b.hwq_cnt[core];
            atomic_store_explicit(&c->n, atomic_load_explicit(&c->n, memory_order_relaxed) + 256,
                                  memory_order_relaxed);
        } else {
            relax();
        }
        if (ph != atomic_load_explicit(&b.phase, memory_order_acquire))
            atomic_fetch_add(&b.ready, 1);
    }
    /* em_eo_stop_sync runs each core's local stop from its dispatch loop:
     * the others dispatch until thread 0's teardown is done. */
    if (me == 0) {
        teardown();
        atomic_store(&b.torn, 1);
    }
    while (!atomic_load(&b.torn)) em_dispatch(16);
    pthread_barrier_wait(&b.bar);
    em_term_core();
    pthread_barrier_wait(&b.bar);
    if (me == 0) {
        em_conf_t conf;
        em_conf_init(&conf);
        conf.core_count = b.n;
        em_term(&conf);
    }
    return NULL;
}

static uint64_t sum(const struct counter *c)
{
    uint64_t s = 0;
    for (int i = 0; i < b.n; i++) s += atomic_load_explicit(&c[i].n, memory_order_relaxed);
    return s;
}

static void nap(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    while (nanosleep(&ts, &ts) != 0) continue;
}

/* Run phase ph for one window; per-core cycles per operation. */
static double window(int ph, const struct counter *cnt, uint64_t *ops_out)
{
    atomic_store(&b.ready, 0);
    atomic_store_explicit(&b.phase, ph, memory_order_release);
    /* The main thread sleeps, never spins: on a host with N CPUs it would
     * take one from the N cores it measures. */
    nap(WINDOW_NS / 10); /* every core is in the phase */
    uint64_t o0 = sum(cnt), c0 = cycles();
    nap(WINDOW_NS);
    uint64_t o1 = sum(cnt), c1 = cycles();
    atomic_store_explicit(&b.phase, PH_IDLE, memory_order_release);
    while (atomic_load(&b.ready) < b.n) nap(10000);
    uint64_t ops = o1 - o0;
    if (ops_out) *ops_out += ops;
    return ops ? (double)(c1 - c0) * b.n / (double)ops : 0.0;
}

static int run(int n, const int *cpus)
{
    b.n = n;
    for (int i = 0; i < n; i++) b.cpu[i] = cpus[i];
    pthread_barrier_init(&b.bar, NULL, (unsigned)n);
    pthread_t t[MAX_N];
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0) {
            fprintf(stderr, BENCH_NAME ": pthread_create failed\n");
            return 1;
        }
    /* Wait for setup: the first events circle once dispatching starts. */
    while (atomic_load(&b.hwq_ready) == 0) nap(1000000);
    usleep(100000);
    double em[ROUNDS], hwq[ROUNDS];
    uint64_t events = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (r % 2) {
            hwq[r] = window(PH_HWQ, b.hwq_cnt, NULL);
            em[r] = window(PH_EM, b.em_cnt, &events);
        } else {
            em[r] = window(PH_EM, b.em_cnt, &events);
            hwq[r] = window(PH_HWQ, b.hwq_cnt, NULL);
        }
    }
    atomic_store(&b.phase, PH_EXIT);
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    char m[64];
    snprintf(m, sizeof m, "em_cycles_per_event_%dc", n);
    double e = print_stats(m, "_median", em, ROUNDS, CYCLE_UNIT, "%.1f");
    snprintf(m, sizeof m, "hwq_cycles_per_pair_%dc", n);
    double h = print_stats(m, "_median", hwq, ROUNDS, CYCLE_UNIT, "%.1f");
    printf("ratio_%dc,%.2f,x\n", n, h > 0 ? e / h : 0.0);
    printf("events_%dc,%llu,events\n", n, (unsigned long long)events);
    fflush(stdout);
    if (b.failed || events == 0) {
        fprintf(stderr, BENCH_NAME ": %d cores: %s\n", n,
                events ? "a send or a queue operation failed" : "no event received");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char what[256];
    snprintf(what, sizeof what,
             "EM send -> schedule -> receive loop (%d EOs, %d events each, atomic queues)\n"
             "against a bare plat_hwq push + pop, on 1, 2, 4, 8 pinned cores (those the\n"
             "host has).\n",
             EOS, EVENTS_PER_EO);
    bench_args(argc, argv, what);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    int cpus[MAX_N], ncpu = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && ncpu < MAX_N; c++)
            if (CPU_ISSET(c, &set)) cpus[ncpu++] = c;
    if (ncpu == 0) cpus[ncpu++] = 0;
    printf("metric,value,unit\n");
    fflush(stdout);
    int status = 0;
    for (int n = 1; n <= MAX_N; n *= 2) {
        if (n > online || n > ncpu) {
            fprintf(stderr, BENCH_NAME ": %d cores skipped (%ld online, %d usable)\n", n, online,
                    ncpu);
            continue;
        }
        pid_t pid = fork();
        if (pid < 0) {
            perror(BENCH_NAME ": fork");
            return 1;
        }
        if (pid == 0) _exit(run(n, cpus));
        int ws = 0;
        if (waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            fprintf(stderr, BENCH_NAME ": the %d-core run failed\n", n);
            status = 1;
        }
    }
    return status;
}
