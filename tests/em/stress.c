/* stress.c -- 8 cores, many events through chains of atomic, parallel and
 * ordered queues:
 *
 *   A[f] atomic -> P parallel -> B[f] atomic -> O parallel-ordered -> Z[f] atomic
 *
 * for flows f = 0..ST_F-1 (P and O are shared by every flow). What each hop
 * promises, checked:
 *   A[f]  FIFO: seq is exactly the next of the flow (its only senders are
 *         the set-up, before the start, and Z[f], one event at a time);
 *   P     nothing about order (it may reorder): B[f] stamps aux in its own
 *         receive order;
 *   O     its events leave in the order they entered: Z[f] sees aux exactly
 *         in order;
 *   Z[f]  every seq once (a bitmap), then the event goes round again as the
 *         flow's next seq until the flow has had its share.
 * Events: EM_STRESS_NATIVE natively (default 10^6 in the plain build, less
 * in the sanitizer trees), EM_STRESS_SIM in simulation (default 50000: about
 * 20 s in the ASan tree); ST_W per flow in flight.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "et.h"

#include <stdio.h>
#include <time.h>

#define ST_F 8
#define ST_W 32
/* The sanitizer trees run the same case, slower: fewer events by default
 * there, so that it stays well inside Check's timeout on a loaded host. */
#if defined(__SANITIZE_THREAD__)
#define ST_NATIVE 100000
#elif defined(__SANITIZE_ADDRESS__)
#define ST_NATIVE 300000
#else
#define ST_NATIVE 1000000
#endif
#define ST_SIM 50000

struct st_ctx {
    uint64_t per_flow;
    em_eo_t eo;
    em_queue_t a[ST_F], b[ST_F], z[ST_F], p, o;
    /* per flow, touched only in that flow's atomic receives */
    uint64_t a_next[ST_F], b_next[ST_F], z_next[ST_F], injected[ST_F], done[ST_F];
    uint64_t a_bad, z_bad, twice, lost_send;
    uint64_t p_in, p_max;
    uint64_t total;
    uint64_t *seen[ST_F]; /* per_flow bits each */
    struct timespec t0;
    uint64_t plat0;
};

static void st_forward(struct st_ctx *c, em_event_t ev, em_queue_t to)
{
    if (em_send(ev, to) != EM_OK) {
        plat_fetch_add64(&c->lost_send, 1);
        em_free(ev);
    }
}

static void st_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    struct st_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    uint64_t f = m->flow % ST_F;
    uintptr_t hop = (uintptr_t)q_ctx;
    switch (hop) {
    case 0: /* A[f] */
        if (m->seq != c->a_next[f]) plat_fetch_add64(&c->a_bad, 1);
        c->a_next[f] = m->seq + 1;
        st_forward(c, ev, c->p);
        return;
    case 1: /* P */
        et_max(&c->p_max, plat_fetch_add64(&c->p_in, 1) + 1);
        et_spin(m->seq % 4 ? 1 : 16); /* some take longer: the others overtake */
        plat_fetch_add64(&c->p_in, (uint64_t)-1);
        st_forward(c, ev, c->b[f]);
        return;
    case 2: /* B[f] */
        m->aux = c->b_next[f]++;
        st_forward(c, ev, c->o);
        return;
    case 3: /* O: odd ones slower, so that order would break without it */
        et_spin(m->aux % 2 ? 4 : 0);
        st_forward(c, ev, c->z[f]);
        return;
    default: /* Z[f] */
        break;
    }
    (void)queue;
    if (m->aux != c->z_next[f]) plat_fetch_add64(&c->z_bad, 1);
    c->z_next[f] = m->aux + 1;
    uint64_t s = m->seq;
    if (s >= c->per_flow || (c->seen[f][s / 64] >> (s % 64)) & 1) {
        plat_fetch_add64(&c->twice, 1);
    } else {
        c->seen[f][s / 64] |= 1ull << (s % 64);
    }
    c->done[f]++;
    if (c->injected[f] < c->per_flow) {
        m->seq = c->injected[f]++;
        st_forward(c, ev, c->a[f]);
    } else {
        em_free(ev);
    }
    plat_fetch_add64(&c->total, 1);
}

static em_queue_t st_queue(struct st_ctx *c, em_queue_type_t type, uintptr_t hop)
{
    em_queue_t q = et_queue(NULL, type, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_queue_set_context(q, (void *)hop), EM_OK);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, q), EM_OK);
    return q;
}

static void st_setup(void *ctx)
{
    struct st_ctx *c = ctx;
    c->per_flow = plat_load64(&harness_board()[HARNESS_BOARD_WORDS - 2]);
    c->eo = et_eo("stress", st_receive, c);
    for (int f = 0; f < ST_F; f++) {
        c->a[f] = st_queue(c, EM_QUEUE_TYPE_ATOMIC, 0);
        c->b[f] = st_queue(c, EM_QUEUE_TYPE_ATOMIC, 2);
        c->z[f] = st_queue(c, EM_QUEUE_TYPE_ATOMIC, 4);
        c->seen[f] = (uint64_t *)(c + 1) + (size_t)f * ((c->per_flow + 63) / 64);
    }
    c->p = st_queue(c, EM_QUEUE_TYPE_PARALLEL, 1);
    c->o = st_queue(c, EM_QUEUE_TYPE_PARALLEL_ORDERED, 3);
    /* before the start: Z[f] is not yet a sender, so A[f]'s order is the seq order */
    for (int f = 0; f < ST_F; f++) {
        uint64_t w = c->per_flow < ST_W ? c->per_flow : ST_W;
        for (uint64_t s = 0; s < w; s++) et_send(c->a[f], (uint64_t)f, s, 0, s);
        c->injected[f] = w;
    }
    clock_gettime(CLOCK_MONOTONIC, &c->t0);
    c->plat0 = plat_now_ns();
    et_start(c->eo);
}

static bool st_done(void *ctx)
{
    struct st_ctx *c = ctx;
    return plat_load64(&c->total) >= c->per_flow * ST_F;
}

static void st_finish(void *ctx)
{
    struct st_ctx *c = ctx;
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr,
            "em stress: %llu events through 5 hops on %d EM cores%s: %.2f s host, %.3f ms platform "
            "time, at most %llu in the parallel receive at once\n",
            (unsigned long long)c->total, em_core_count(),
            et_is_sched_core() ? " and a scheduler core" : "",
            (double)(t1.tv_sec - c->t0.tv_sec) + (double)(t1.tv_nsec - c->t0.tv_nsec) / 1e9,
            (double)(plat_now_ns() - c->plat0) / 1e6, (unsigned long long)c->p_max);
    et_end(c->eo);
    ck_assert_msg(c->a_bad == 0, "atomic queue A: %llu events out of FIFO order",
                  (unsigned long long)c->a_bad);
    ck_assert_msg(c->z_bad == 0, "ordered -> atomic: %llu events out of order",
                  (unsigned long long)c->z_bad);
    ck_assert_msg(c->twice == 0, "%llu events arrived twice", (unsigned long long)c->twice);
    ck_assert_msg(c->lost_send == 0, "%llu sends failed", (unsigned long long)c->lost_send);
    ck_assert_uint_eq(c->total, c->per_flow * ST_F);
    for (int f = 0; f < ST_F; f++) {
        ck_assert_uint_eq(c->done[f], c->per_flow);
        ck_assert_uint_eq(c->a_next[f], c->per_flow);
        for (uint64_t s = 0; s < c->per_flow; s++)
            ck_assert_msg((c->seen[f][s / 64] >> (s % 64)) & 1, "flow %d: seq %llu never arrived",
                          f, (unsigned long long)s);
    }
    ck_assert_msg(c->p_max >= 2, "parallel queue: at most %llu receive at a time",
                  (unsigned long long)c->p_max);
}

static void case_stress(void *arg)
{
    const struct harness_env *env = arg;
    uint64_t n = env->backend == PLAT_SIM ? et_env_u64("EM_STRESS_SIM", ST_SIM)
                                          : et_env_u64("EM_STRESS_NATIVE", ST_NATIVE);
    /* natively every hand-over through the scheduler thread may cost a
     * wake-up of a halted vCPU (~23 us here): a tenth of the events (the
     * issue's 10^6 run with the inline scheduler) */
    if (et_is_sched_core() && env->backend == PLAT_NATIVE) n /= 10;
    uint64_t per_flow = (n + ST_F - 1) / ST_F;
    struct et_ops ops = {.ctx_size = sizeof(struct st_ctx) + ST_F * ((per_flow + 63) / 64) * 8,
                         .setup = st_setup,
                         .done = st_done,
                         .finish = st_finish,
                         .wait_ns = 50000000000ull};
    /* per_flow reaches the set-up through the board: ctx does not exist yet */
    if (plat_core() == 0) plat_store64(&harness_board()[HARNESS_BOARD_WORDS - 2], per_flow);
    et_run(&ops);
}

ET_SC(case_stress)

void et_stress_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "stress", .core = case_stress, .cores = 8},
        {.name = "sc_stress", .core = case_stress_sc, .cores = 9},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
