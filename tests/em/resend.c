/* resend.c -- a receive's sends to the atomic queue it holds: the library
 * keeps them on the core and pushes them with the release (em_send_one,
 * em_resend_flush_locked), so these cases check what that must not change:
 * FIFO order, a send seen by another core cannot overtake them, and
 * em_atomic_processing_end releases them with the context. */
#include "et.h"

/* How long a receive waits for another core's receive (far beyond what it
 * takes: natively a loaded host, in simulation a few us). */
#define RS_WAIT_NS 2000000000ull

/* Wait (polled, so the simulator advances) until *p >= v; false on timeout. */
static bool wait_at_least(uint64_t *p, uint64_t v)
{
    uint64_t end = plat_now_ns() + RS_WAIT_NS;
    for (;;) {
        uint64_t cur = plat_load64(p);
        if (cur >= v) return true;
        uint64_t now = plat_now_ns();
        if (now >= end) return false;
        plat_poll64(p, cur, end - now);
    }
}

/* ---- order: events circling in atomic queues come back in FIFO order ------ */

#define RO_Q 2
#define RO_N 8     /* events per queue */
#define RO_LAPS 64 /* each event is re-sent RO_LAPS - 1 times */

struct ro_ctx {
    em_eo_t eo;
    em_queue_t q[RO_Q];
    uint64_t next[RO_Q];
    uint64_t misorder, bad_ctx, freed;
    uint64_t go; /* setup has sent them all: a re-send before would go between */
};

static void ro_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct ro_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    uint64_t f = m->flow % RO_Q;
    ck_assert(wait_at_least(&c->go, 1));
    em_queue_t cur = EM_QUEUE_UNDEF;
    if (c->q[f] != queue || em_sched_context_type_current(&cur) != EM_SCHED_CONTEXT_TYPE_ATOMIC ||
        cur != queue)
        plat_fetch_add64(&c->bad_ctx, 1);
    if (m->seq != plat_load64(&c->next[f])) plat_fetch_add64(&c->misorder, 1);
    plat_store64(&c->next[f], m->seq + 1);
    if (m->seq + RO_N < RO_N * RO_LAPS) {
        m->seq += RO_N; /* the queue holds RO_N - 1 others: it comes back after them */
        ck_assert_int_eq(em_send(ev, queue), EM_OK);
    } else {
        em_free(ev);
        plat_fetch_add64(&c->freed, 1);
    }
}

static void ro_setup(void *ctx)
{
    struct ro_ctx *c = ctx;
    c->eo = et_eo("resend_order", ro_receive, c);
    for (int i = 0; i < RO_Q; i++) {
        c->q[i] =
            et_queue(NULL, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
        ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q[i]), EM_OK);
    }
    et_start(c->eo);
    for (uint64_t s = 0; s < RO_N; s++)
        for (int i = 0; i < RO_Q; i++) et_send(c->q[i], (uint64_t)i, s, 0, s * RO_Q + (uint64_t)i);
    plat_store64(&c->go, 1);
}

static bool ro_done(void *ctx)
{
    return plat_load64(&((struct ro_ctx *)ctx)->freed) >= RO_Q * RO_N;
}

static void ro_finish(void *ctx)
{
    struct ro_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_msg(c->misorder == 0, "re-sent events out of FIFO order: %llu",
                  (unsigned long long)c->misorder);
    ck_assert_msg(c->bad_ctx == 0, "receive with the wrong queue or context: %llu",
                  (unsigned long long)c->bad_ctx);
    for (int i = 0; i < RO_Q; i++) ck_assert_uint_eq(c->next[i], RO_N * RO_LAPS);
}

static void case_resend_order(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {
        .ctx_size = sizeof(struct ro_ctx), .setup = ro_setup, .done = ro_done, .finish = ro_finish};
    et_run(&ops);
}

/* ---- causal: a re-send is queued before the answer to a later send -------- */

/* A's receive of data round r re-sends it (round r + 1) to A, then pings B
 * and waits until B, on another core, has answered with a pong to A. The
 * pong comes after the ping, the ping after the re-send: A must see data
 * round r + 1 before pong r. Kept re-sends pushed only at the release would
 * let the pong overtake. */

#define RC_ROUNDS 32
enum { RC_DATA, RC_PING, RC_PONG };

struct rc_ctx {
    em_eo_t eo_a, eo_b;
    em_queue_t qa, qb;
    uint64_t data_round; /* the last data round A received */
    uint64_t pong_sent;  /* B sent pong r: r + 1 */
    uint64_t pongs, overtaken, timeouts, done;
};

static void rc_receive_a(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                         void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct rc_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    uint64_t r = m->seq;
    if (m->flow == RC_PONG) {
        if (plat_load64(&c->data_round) < r + 1) plat_fetch_add64(&c->overtaken, 1);
        em_free(ev);
        plat_fetch_add64(&c->pongs, 1);
        return;
    }
    plat_store64(&c->data_round, r);
    if (r == RC_ROUNDS) {
        em_free(ev);
        plat_store64(&c->done, 1);
        return;
    }
    m->seq = r + 1;
    ck_assert_int_eq(em_send(ev, queue), EM_OK);
    et_send(c->qb, RC_PING, r, 0, 0);
    if (!wait_at_least(&c->pong_sent, r + 1)) plat_fetch_add64(&c->timeouts, 1);
}

static void rc_receive_b(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                         void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    struct rc_ctx *c = eo_ctx;
    uint64_t r = et_msg(ev)->seq;
    em_free(ev);
    et_send(c->qa, RC_PONG, r, 0, 0);
    plat_store64(&c->pong_sent, r + 1);
}

static void rc_setup(void *ctx)
{
    struct rc_ctx *c = ctx;
    c->eo_a = et_eo("resend_a", rc_receive_a, c);
    c->eo_b = et_eo("resend_b", rc_receive_b, c);
    c->qa = et_queue(NULL, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    c->qb = et_queue(NULL, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo_a, c->qa), EM_OK);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo_b, c->qb), EM_OK);
    et_start(c->eo_a);
    et_start(c->eo_b);
    et_send(c->qa, RC_DATA, 0, 0, 0);
}

static bool rc_done(void *ctx)
{
    struct rc_ctx *c = ctx;
    return plat_load64(&c->done) && plat_load64(&c->pongs) >= RC_ROUNDS;
}

static void rc_finish(void *ctx)
{
    struct rc_ctx *c = ctx;
    et_end(c->eo_a);
    et_end(c->eo_b);
    ck_assert_msg(c->overtaken == 0, "%llu pongs overtook the re-send made before their ping",
                  (unsigned long long)c->overtaken);
    ck_assert_msg(c->timeouts == 0, "%llu pings not answered while A's receive waited",
                  (unsigned long long)c->timeouts);
    ck_assert_uint_eq(c->pongs, RC_ROUNDS);
}

static void case_resend_causal(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {
        .ctx_size = sizeof(struct rc_ctx), .setup = rc_setup, .done = rc_done, .finish = rc_finish};
    et_run(&ops);
}

/* ---- processing_end: the re-send goes in with the released context -------- */

/* The receive of seq 0 re-sends its event (seq 1), ends the atomic context
 * and waits until another core has received seq 1: it must be in the queue
 * from em_atomic_processing_end on, not kept until the receive returns. */

struct rp_ctx {
    em_eo_t eo;
    em_queue_t q;
    uint64_t got1, timeouts, done;
};

static void rp_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct rp_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    if (m->seq == 1) {
        em_free(ev);
        plat_store64(&c->got1, 1);
        return;
    }
    m->seq = 1;
    ck_assert_int_eq(em_send(ev, queue), EM_OK);
    em_atomic_processing_end();
    if (!wait_at_least(&c->got1, 1)) plat_fetch_add64(&c->timeouts, 1);
    plat_store64(&c->done, 1);
}

static void rp_setup(void *ctx)
{
    struct rp_ctx *c = ctx;
    c->eo = et_eo("resend_end", rp_receive, c);
    c->q = et_queue(NULL, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q), EM_OK);
    et_start(c->eo);
    et_send(c->q, 0, 0, 0, 0);
}

static bool rp_done(void *ctx)
{
    struct rp_ctx *c = ctx;
    return plat_load64(&c->done) && plat_load64(&c->got1);
}

static void rp_finish(void *ctx)
{
    struct rp_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_msg(c->timeouts == 0,
                  "the re-sent event was not received while the sender waited after "
                  "em_atomic_processing_end");
}

static void case_resend_processing_end(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {
        .ctx_size = sizeof(struct rp_ctx), .setup = rp_setup, .done = rp_done, .finish = rp_finish};
    et_run(&ops);
}

void et_resend_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "resend_order_1", .core = case_resend_order, .cores = 1},
        {.name = "resend_order_4", .core = case_resend_order, .cores = 4},
        {.name = "resend_causal", .core = case_resend_causal, .cores = 2},
        {.name = "resend_processing_end", .core = case_resend_processing_end, .cores = 2},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
