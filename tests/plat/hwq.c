/* hwq.c -- hardware queues (plat_hwq_*). */
#include "pt.h"

#include <stdio.h>
#include <unistd.h>

#define DEPTH 16 /* devices.hwq.depth overridden for these cases */
/* ideal.yaml's line that cases edit to give the push and pop latencies. */
#define HWQ_LATENCY "latency_ns: 20             # nominal push/pop at the queue manager"

static plat_hwq *open_hwq(void)
{
    int status = 0;
    plat_hwq *q = plat_hwq_open("hwq", &status);
    ck_assert_msg(q, "plat_hwq_open(\"hwq\"): %s", plat_strerror(status));
    return q;
}

/* One core: FIFO order, count, depth, empty. */
static void case_hwq_fifo(void *arg)
{
    plat_hwq *q = open_hwq();
    ck_assert_uint_eq(plat_hwq_queues(q), (unsigned)pt_num(arg, "devices.hwq.queues"));
    int item[DEPTH + 1];
    ck_assert_uint_eq(plat_hwq_count(q, 5), 0);
    ck_assert_ptr_null(plat_hwq_pop(q, 5));
    for (int i = 0; i < DEPTH; i++) {
        ck_assert_int_eq(plat_hwq_push(q, 5, &item[i]), PLAT_OK);
        ck_assert_uint_eq(plat_hwq_count(q, 5), (unsigned)i + 1);
    }
    ck_assert_int_eq(plat_hwq_push(q, 5, &item[DEPTH]), PLAT_ENOMEM);
    ck_assert_uint_eq(plat_hwq_count(q, 5), DEPTH);
    /* Queues are independent. */
    ck_assert_uint_eq(plat_hwq_count(q, 6), 0);
    ck_assert_int_eq(plat_hwq_push(q, 6, &item[DEPTH]), PLAT_OK);
    ck_assert_ptr_eq(plat_hwq_pop(q, 6), &item[DEPTH]);
    unsigned last = plat_hwq_queues(q) - 1;
    ck_assert_int_eq(plat_hwq_push(q, last, &item[0]), PLAT_OK);
    ck_assert_ptr_eq(plat_hwq_pop(q, last), &item[0]);
    for (int i = 0; i < DEPTH; i++) ck_assert_ptr_eq(plat_hwq_pop(q, 5), &item[i]);
    ck_assert_ptr_null(plat_hwq_pop(q, 5));
    ck_assert_uint_eq(plat_hwq_count(q, 5), 0);
    /* Full again after draining: the depth is per queue, not a total. */
    for (int i = 0; i < DEPTH; i++) ck_assert_int_eq(plat_hwq_push(q, 5, &item[i]), PLAT_OK);
    for (int i = 0; i < DEPTH; i++) ck_assert_ptr_eq(plat_hwq_pop(q, 5), &item[i]);
}

/* Every opener shares the device; wait wakes on a push, else times out. */
static void case_hwq_wait(void *arg)
{
    bool sim = pt_sim(arg);
    uint64_t *board = harness_board();
    plat_hwq *q = open_hwq();
    static int item[2];
    if (plat_core() == 0) {
        ck_assert_int_eq(plat_hwq_push(q, 7, &item[0]), PLAT_OK);
        harness_barrier();
        plat_sleep_ns(PT_MS);
        plat_store64(&board[0], plat_now_ns());
        ck_assert_int_eq(plat_hwq_push(q, 9, &item[1]), PLAT_OK);
        harness_barrier();
    } else {
        harness_barrier();
        ck_assert_uint_eq(plat_hwq_count(q, 7), 1);
        uint64_t t0 = plat_now_ns();
        ck_assert_int_eq(plat_hwq_wait(q, 7, HARNESS_WAIT_NS), PLAT_OK); /* non-empty: at once */
        ck_assert_uint_lt(plat_now_ns() - t0, sim ? 10 * PT_US : PT_NATIVE_SLACK_NS);
        ck_assert_ptr_eq(plat_hwq_pop(q, 7), &item[0]);

        ck_assert_int_eq(plat_hwq_wait(q, 9, HARNESS_WAIT_NS), PLAT_OK);
        uint64_t woke = plat_now_ns(), pushed = plat_load64(&board[0]);
        ck_assert_uint_ge(woke, pushed);
        ck_assert_uint_lt(woke - pushed, sim ? 10 * PT_US : PT_NATIVE_SLACK_NS);
        ck_assert_ptr_eq(plat_hwq_pop(q, 9), &item[1]);

        t0 = plat_now_ns();
        ck_assert_int_eq(plat_hwq_wait(q, 10, 2 * PT_MS), PLAT_ETIMEDOUT);
        uint64_t dt = plat_now_ns() - t0;
        ck_assert_uint_ge(dt, 2 * PT_MS);
        ck_assert_uint_lt(dt, 2 * PT_MS + (sim ? 10 * PT_US : PT_NATIVE_SLACK_NS));
        ck_assert_int_eq(plat_hwq_wait(q, 10, 0), PLAT_ETIMEDOUT);
        harness_barrier();
    }
}

#define PER_PRODUCER 300
#define PRODUCERS 2

struct mpmc {
    uint64_t seen[PRODUCERS * PER_PRODUCER];
    uint64_t popped;
};

/* Two producers, two consumers, a queue much shallower than the traffic:
 * every descriptor comes out exactly once. */
static void case_hwq_mpmc(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    int me = plat_core();
    const uint64_t total = PRODUCERS * PER_PRODUCER;
    if (me == 0) {
        struct mpmc *m = plat_shared_alloc(sizeof *m, 64);
        ck_assert_ptr_nonnull(m);
        plat_store64(&board[0], pt_u(m));
    }
    harness_barrier();
    struct mpmc *m = pt_p(plat_load64(&board[0]));
    plat_hwq *q = open_hwq();
    uint64_t t0 = plat_now_ns();
    if (me < PRODUCERS) {
        for (int i = 0; i < PER_PRODUCER; i++) {
            void *desc = &m->seen[me * PER_PRODUCER + i];
            int rc;
            uint64_t backoff = 200;
            while ((rc = plat_hwq_push(q, 3, desc)) == PLAT_ENOMEM) {
                plat_sleep_ns(backoff);
                if (backoff < 100 * PT_US) backoff *= 2;
                ck_assert_msg(plat_now_ns() - t0 < HARNESS_WAIT_NS, "queue never drained");
            }
            ck_assert_int_eq(rc, PLAT_OK);
        }
    } else {
        for (;;) {
            uint64_t *d = plat_hwq_pop(q, 3);
            if (d) {
                ck_assert(d >= m->seen && d < m->seen + total);
                plat_fetch_add64(d, 1);
                plat_fetch_add64(&m->popped, 1);
                continue;
            }
            if (plat_load64(&m->popped) == total) break;
            int rc = plat_hwq_wait(q, 3, PT_MS);
            ck_assert(rc == PLAT_OK || rc == PLAT_ETIMEDOUT);
            ck_assert_msg(plat_now_ns() - t0 < HARNESS_WAIT_NS, "%llu of %llu descriptors popped",
                          (unsigned long long)plat_load64(&m->popped), (unsigned long long)total);
        }
    }
    harness_barrier();
    if (me == 0) {
        ck_assert_uint_eq(plat_load64(&m->popped), total);
        for (uint64_t i = 0; i < total; i++)
            ck_assert_msg(plat_load64(&m->seen[i]) == 1, "descriptor %llu popped %llu times",
                          (unsigned long long)i, (unsigned long long)plat_load64(&m->seen[i]));
        ck_assert_ptr_null(plat_hwq_pop(q, 3));
        plat_shared_free(m);
    }
}

/* Names: unknown ones exist only natively (software device on first open);
 * a device of another type is never a queue. */
static void case_hwq_names(void *arg)
{
    int status = 0;
    plat_hwq *q = plat_hwq_open("pt_no_such_queue", &status);
    if (pt_sim(arg)) {
        ck_assert_ptr_null(q);
        ck_assert_int_eq(status, PLAT_ENOENT);
    } else {
        ck_assert_msg(q, "native: no software queue for a new name (%s)", plat_strerror(status));
        ck_assert_int_eq(plat_hwq_push(q, 0, &status), PLAT_OK);
        ck_assert_ptr_eq(plat_hwq_pop(q, 0), &status);
    }
    status = 0;
    ck_assert_ptr_null(plat_hwq_open("mesh", &status));
    ck_assert_int_lt(status, 0);
    if (pt_sim(arg)) ck_assert_int_eq(status, PLAT_ENOENT);
}

/* Sim: a push costs the crossing plus push_latency_ns, a pop and a count the
 * crossing plus pop_latency_ns (each latency_ns unless given). The crossings
 * of an 8-byte write and read are alike, so the times differ by the
 * latencies' difference. */
static void case_hwq_costs(void *arg)
{
    plat_hwq *q = open_hwq();
    static int item;
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_hwq_push(q, 2, &item), PLAT_OK);
    uint64_t t1 = plat_now_ns();
    ck_assert_uint_eq(plat_hwq_count(q, 2), 1);
    uint64_t t2 = plat_now_ns();
    ck_assert_ptr_eq(plat_hwq_pop(q, 2), &item);
    uint64_t t3 = plat_now_ns();
    if (!pt_sim(arg)) return;
    double lat = pt_num(arg, "devices.hwq.latency_ns");
    const struct conf *c = pt_env(arg)->platform;
    double push = conf_num(c, "devices.hwq.push_latency_ns", lat);
    double pop = conf_num(c, "devices.hwq.pop_latency_ns", lat);
    uint64_t push_dt = t1 - t0, count_dt = t2 - t1, pop_dt = t3 - t2;
    ck_assert_msg(pop_dt == count_dt, "pop %llu ns, count %llu ns", (unsigned long long)pop_dt,
                  (unsigned long long)count_dt);
    ck_assert_msg((double)push_dt - (double)pop_dt == push - pop,
                  "push %llu ns, pop %llu ns: latencies %g and %g ns", (unsigned long long)push_dt,
                  (unsigned long long)pop_dt, push, pop);
    ck_assert_uint_gt(pop_dt, (uint64_t)pop);
}

/* 8192 queues (a KeyStone QMSS has 8192): the last one works. */
static void case_hwq_many(void *arg)
{
    (void)arg;
    plat_hwq *q = open_hwq();
    static int item;
    ck_assert_uint_eq(plat_hwq_queues(q), 8192);
    ck_assert_int_eq(plat_hwq_push(q, 8191, &item), PLAT_OK);
    ck_assert_uint_eq(plat_hwq_count(q, 8191), 1);
    ck_assert_ptr_eq(plat_hwq_pop(q, 8191), &item);
    ck_assert_int_eq(plat_hwq_push(q, 8192, &item), PLAT_EINVAL);
}

/* This process's resident bytes (/proc/self/statm). */
static double resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_msg(f, "cannot open /proc/self/statm");
    unsigned long size = 0, resident = 0;
    int n = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    ck_assert_int_eq(n, 2);
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

/* The QMSS's 8192 queues 16384 deep: a queue takes memory when it is first
 * pushed, not all 2^27 cells at open (2 GiB natively, 1 GiB in sim, and 6 s
 * per keystone_c6678 case before). */
static void case_hwq_lazy(void *arg)
{
    (void)arg;
    plat_hwq *q = open_hwq();
    static int item[3];
    unsigned used[3] = {0, 4095, 8191};
    for (int i = 0; i < 3; i++) ck_assert_int_eq(plat_hwq_push(q, used[i], &item[i]), PLAT_OK);
    for (int i = 0; i < 3; i++) ck_assert_ptr_eq(plat_hwq_pop(q, used[i]), &item[i]);
    ck_assert_ptr_null(plat_hwq_pop(q, 100)); /* never pushed: empty */
    ck_assert_uint_eq(plat_hwq_count(q, 100), 0);
    double mib = resident_bytes() / (1 << 20);
    ck_assert_msg(mib < 256, "%.0f MiB resident after using 3 of 8192 queues", mib);
}

void pt_hwq(void)
{
    static const struct harness_case cases[] = {
        {.name = "hwq_fifo", .core = case_hwq_fifo, .cores = 1, .sets = {"devices.hwq.depth=16"}},
        {.name = "hwq_wait", .core = case_hwq_wait, .cores = 2},
        {.name = "hwq_mpmc", .core = case_hwq_mpmc, .cores = 4, .sets = {"devices.hwq.depth=16"}},
        {.name = "hwq_names", .core = case_hwq_names, .cores = 1},
        {.name = "hwq_costs", .core = case_hwq_costs, .cores = 1},
        {.name = "hwq_costs_split",
         .core = case_hwq_costs,
         .cores = 1,
         .edit_from = HWQ_LATENCY,
         .edit_to = "latency_ns: 20\n    push_latency_ns: 520\n    pop_latency_ns: 20"},
        {.name = "hwq_costs_pop",
         .core = case_hwq_costs,
         .cores = 1,
         .edit_from = HWQ_LATENCY,
         .edit_to = "latency_ns: 20\n    pop_latency_ns: 300"},
        {.name = "hwq_many",
         .core = case_hwq_many,
         .cores = 1,
         .sets = {"devices.hwq.queues=8192"}},
        {.name = "hwq_lazy",
         .core = case_hwq_lazy,
         .cores = 1,
         .sets = {"devices.hwq.queues=8192", "devices.hwq.depth=16384"}},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
