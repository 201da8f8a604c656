/* sched.c -- scheduling: atomic, parallel, parallel-ordered into atomic,
 * priorities, queue groups. */
#include "et.h"

/* ---- atomic: one event of a queue in receive at a time, FIFO, each once ---- */

#define AT_Q 4
#define AT_N 256

struct at_ctx {
    em_eo_t eo;
    em_queue_t q[AT_Q];
    uint64_t inrecv[AT_Q], next[AT_Q];
    uint64_t overlap, misorder, bad_ctx, got;
    uint64_t per_core[64];
};

static void at_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct at_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    uint64_t f = m->flow;
    em_queue_t cur = EM_QUEUE_UNDEF;
    if (f >= AT_Q || c->q[f] != queue ||
        em_sched_context_type_current(&cur) != EM_SCHED_CONTEXT_TYPE_ATOMIC || cur != queue)
        plat_fetch_add64(&c->bad_ctx, 1);
    f %= AT_Q;
    if (plat_fetch_add64(&c->inrecv[f], 1) != 0) plat_fetch_add64(&c->overlap, 1);
    et_spin(8); /* a window in which another core could enter too */
    if (m->seq != plat_load64(&c->next[f])) plat_fetch_add64(&c->misorder, 1);
    plat_store64(&c->next[f], m->seq + 1);
    plat_fetch_add64(&c->per_core[em_core_id() & 63], 1);
    plat_fetch_add64(&c->inrecv[f], (uint64_t)-1);
    em_free(ev);
    plat_fetch_add64(&c->got, 1);
}

static void at_setup(void *ctx)
{
    struct at_ctx *c = ctx;
    c->eo = et_eo("atomic", at_receive, c);
    for (int i = 0; i < AT_Q; i++) {
        c->q[i] =
            et_queue(NULL, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
        ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q[i]), EM_OK);
    }
    et_start(c->eo);
    for (uint64_t s = 0; s < AT_N; s++)
        for (int i = 0; i < AT_Q; i++) et_send(c->q[i], (uint64_t)i, s, 0, s * AT_Q + (uint64_t)i);
}

static bool at_done(void *ctx)
{
    return plat_load64(&((struct at_ctx *)ctx)->got) >= AT_Q * AT_N;
}

static void at_finish(void *ctx)
{
    struct at_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_msg(plat_load64(&c->overlap) == 0, "two events of one atomic queue in receive: %llu",
                  (unsigned long long)c->overlap);
    ck_assert_msg(c->misorder == 0, "atomic queue out of FIFO order: %llu events",
                  (unsigned long long)c->misorder);
    ck_assert_msg(c->bad_ctx == 0, "receive with the wrong queue or context: %llu",
                  (unsigned long long)c->bad_ctx);
    ck_assert_uint_eq(c->got, AT_Q * AT_N);
    for (int i = 0; i < AT_Q; i++) ck_assert_uint_eq(c->next[i], AT_N);
    uint64_t sum = 0;
    for (int i = 0; i < plat_cores(); i++) sum += c->per_core[i];
    ck_assert_uint_eq(sum, AT_Q * AT_N);
}

static void case_atomic(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct at_ctx),
                                      .setup = at_setup,
                                      .done = at_done,
                                      .finish = at_finish,
                                      .errors = 0};
    et_run(&ops);
}

/* ---- parallel: receives of one queue run at once on several cores ---------- */

#define PAR_N 64

struct par_ctx {
    em_eo_t eo;
    em_queue_t q;
    uint64_t inrecv, max, got, bad_ctx;
};

static void par_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                        void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    struct par_ctx *c = eo_ctx;
    if (em_sched_context_type_current(NULL) != EM_SCHED_CONTEXT_TYPE_NONE)
        plat_fetch_add64(&c->bad_ctx, 1);
    et_max(&c->max, plat_fetch_add64(&c->inrecv, 1) + 1);
    plat_sleep_ns(100000); /* long enough for the other cores to take the next events */
    plat_fetch_add64(&c->inrecv, (uint64_t)-1);
    em_free(ev);
    plat_fetch_add64(&c->got, 1);
}

static void par_setup(void *ctx)
{
    struct par_ctx *c = ctx;
    c->eo = et_eo("parallel", par_receive, c);
    c->q = et_queue("par", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q), EM_OK);
    et_start(c->eo);
    for (uint64_t s = 0; s < PAR_N; s++) et_send(c->q, 0, s, 0, s);
}

static bool par_done(void *ctx)
{
    return plat_load64(&((struct par_ctx *)ctx)->got) >= PAR_N;
}

static void par_finish(void *ctx)
{
    struct par_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_uint_eq(c->got, PAR_N);
    ck_assert_msg(c->max >= 2, "parallel queue: at most %llu receive at a time on %d cores",
                  (unsigned long long)c->max, plat_cores());
    ck_assert_uint_le(c->max, (uint64_t)plat_cores());
    ck_assert_uint_eq(c->bad_ctx, 0);
}

static void case_parallel(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct par_ctx),
                                      .setup = par_setup,
                                      .done = par_done,
                                      .finish = par_finish,
                                      .errors = 0};
    et_run(&ops);
}

/* ---- parallel-ordered -> atomic: downstream order is the send order --------- */

#define ORD_N 200

enum ord_mode { ORD_PLAIN, ORD_END, ORD_CONTROL };

struct ord_ctx {
    enum ord_mode mode;
    em_eo_t eo;
    em_queue_t o, z;
    uint64_t next, misorder, got, overlap, inrecv, bad_ctx;
};

/* Odd sequence numbers take much longer, so without the ordering the even
 * event after each would overtake it. */
static void ord_delay(uint64_t seq)
{
    plat_sleep_ns(seq % 2 ? 50000 : 1000);
}

static void ord_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                        void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct ord_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    if (queue == c->o) {
        em_sched_context_type_t want =
            c->mode == ORD_CONTROL ? EM_SCHED_CONTEXT_TYPE_NONE : EM_SCHED_CONTEXT_TYPE_ORDERED;
        if (em_sched_context_type_current(NULL) != want) plat_fetch_add64(&c->bad_ctx, 1);
        uint64_t seq = m->seq;
        if (c->mode == ORD_END) {
            /* sent before the end: still in order; the slow part comes after */
            em_status_t st = em_send(ev, c->z);
            ck_assert_msg(st == EM_OK, "em_send to the atomic queue: %" PRI_STAT, st);
            em_ordered_processing_end();
            ord_delay(seq);
        } else {
            ord_delay(seq);
            em_status_t st = em_send(ev, c->z);
            ck_assert_msg(st == EM_OK, "em_send to the atomic queue: %" PRI_STAT, st);
        }
        return;
    }
    if (plat_fetch_add64(&c->inrecv, 1) != 0) plat_fetch_add64(&c->overlap, 1);
    if (m->seq != c->next) plat_fetch_add64(&c->misorder, 1);
    c->next = m->seq + 1;
    plat_fetch_add64(&c->inrecv, (uint64_t)-1);
    em_free(ev);
    plat_fetch_add64(&c->got, 1);
}

static void ord_setup(struct ord_ctx *c, enum ord_mode mode)
{
    c->mode = mode;
    c->eo = et_eo("ordered", ord_receive, c);
    c->o =
        et_queue("o", mode == ORD_CONTROL ? EM_QUEUE_TYPE_PARALLEL : EM_QUEUE_TYPE_PARALLEL_ORDERED,
                 EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    c->z = et_queue("z", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->o), EM_OK);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->z), EM_OK);
    et_start(c->eo);
    for (uint64_t s = 0; s < ORD_N; s++) et_send(c->o, 0, s, 0, s);
}

static void ord_setup_plain(void *ctx)
{
    ord_setup(ctx, ORD_PLAIN);
}
static void ord_setup_end(void *ctx)
{
    ord_setup(ctx, ORD_END);
}
static void ord_setup_control(void *ctx)
{
    ord_setup(ctx, ORD_CONTROL);
}

static bool ord_done(void *ctx)
{
    return plat_load64(&((struct ord_ctx *)ctx)->got) >= ORD_N;
}

static void ord_finish(void *ctx)
{
    struct ord_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_uint_eq(c->got, ORD_N);
    ck_assert_uint_eq(c->overlap, 0);
    ck_assert_uint_eq(c->bad_ctx, 0);
    if (c->mode == ORD_CONTROL)
        /* the same traffic through a plain parallel queue does lose the order:
         * the check above it is not vacuous */
        ck_assert_msg(c->misorder > 0, "parallel control: no event overtook another");
    else
        ck_assert_msg(c->misorder == 0, "ordered -> atomic: %llu events out of send order",
                      (unsigned long long)c->misorder);
}

static void case_ordered(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct ord_ctx),
                                      .setup = ord_setup_plain,
                                      .done = ord_done,
                                      .finish = ord_finish,
                                      .errors = 0};
    et_run(&ops);
}

static void case_ordered_end(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct ord_ctx),
                                      .setup = ord_setup_end,
                                      .done = ord_done,
                                      .finish = ord_finish,
                                      .errors = 0};
    et_run(&ops);
}

static void case_ordered_control(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct ord_ctx),
                                      .setup = ord_setup_control,
                                      .done = ord_done,
                                      .finish = ord_finish,
                                      .errors = 0};
    et_run(&ops);
}

/* ---- priorities: on one core, every ready high event before any low one ----- */

#define PRIO_N 32
#define PRIO_Q 3

struct prio_ctx {
    em_eo_t eo;
    em_queue_t q[PRIO_Q]; /* highest first */
    uint64_t last_rank, got, inversions;
};

static const em_queue_prio_t prio_of[PRIO_Q] = {EM_QUEUE_PRIO_HIGHEST, EM_QUEUE_PRIO_NORMAL,
                                                EM_QUEUE_PRIO_LOWEST};

static void prio_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                         void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    struct prio_ctx *c = eo_ctx;
    uint64_t rank = et_msg(ev)->flow; /* 0: highest */
    if (rank < c->last_rank) c->inversions++;
    c->last_rank = rank;
    c->got++;
    em_free(ev);
}

/* With a scheduler core, the events are sent before the EO starts (so that
 * the scheduler sees them all at once, as the inline core does), and the
 * queues are parallel: an atomic queue is held while its event runs, so the
 * event assigned ahead (sched_depth 1) is of the next priority down. On
 * demand nothing is assigned ahead: atomic queues keep the order too (with
 * sched_depth 1 they would not). */
static void prio_setup(void *ctx)
{
    struct prio_ctx *c = ctx;
    int sc = et_is_sched_core();
    c->eo = et_eo("prio", prio_receive, c);
    em_queue_type_t type =
        sc && !et_is_sched_demand() ? EM_QUEUE_TYPE_PARALLEL : EM_QUEUE_TYPE_ATOMIC;
    for (int i = 0; i < PRIO_Q; i++) {
        c->q[i] = et_queue(NULL, type, prio_of[i], EM_QUEUE_GROUP_DEFAULT);
        ck_assert_uint_eq(em_queue_get_priority(c->q[i]), prio_of[i]);
        ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q[i]), EM_OK);
    }
    if (!sc) et_start(c->eo);
    /* lowest first, interleaved: all are ready before the core dispatches */
    for (uint64_t s = 0; s < PRIO_N; s++)
        for (int i = PRIO_Q - 1; i >= 0; i--) et_send(c->q[i], (uint64_t)i, s, 0, s);
    if (sc) et_start(c->eo);
}

static bool prio_done(void *ctx)
{
    return ((struct prio_ctx *)ctx)->got >= PRIO_N * PRIO_Q;
}

static void prio_finish(void *ctx)
{
    struct prio_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_msg(c->inversions == 0, "%llu times a higher priority event came after a lower one",
                  (unsigned long long)c->inversions);
    ck_assert_uint_eq(c->got, PRIO_N * PRIO_Q);
}

static void case_priorities(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct prio_ctx),
                                      .setup = prio_setup,
                                      .done = prio_done,
                                      .finish = prio_finish,
                                      .errors = 0};
    et_run(&ops);
}

/* ---- queue groups: a group of core 1 only ----------------------------------- */

#define QG_N 128

struct qg_ctx {
    em_eo_t eo;
    em_queue_group_t g;
    em_queue_t in_group, everywhere;
    uint64_t got, elsewhere, per_core[64];
};

static void qg_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct qg_ctx *c = eo_ctx;
    if (queue == c->in_group) {
        if (em_core_id() != 1 || plat_core() != 1) plat_fetch_add64(&c->elsewhere, 1);
        et_spin(8); /* keep core 1 busy so that the others would try to help */
    } else {
        plat_fetch_add64(&c->per_core[em_core_id() & 63], 1);
    }
    em_free(ev);
    plat_fetch_add64(&c->got, 1);
}

static void qg_setup(void *ctx)
{
    struct qg_ctx *c = ctx;
    em_core_mask_t mask, got;
    em_core_mask_zero(&mask);
    em_core_mask_set(1, &mask);
    c->g = em_queue_group_create_sync("core1", &mask);
    ck_assert_msg(c->g != EM_QUEUE_GROUP_UNDEF, "em_queue_group_create_sync: EM_QUEUE_GROUP_UNDEF");
    ck_assert_int_eq(em_queue_group_get_mask(c->g, &got), EM_OK);
    ck_assert(em_core_mask_equal(&mask, &got));
    ck_assert(em_queue_group_find("core1") == c->g);
    c->eo = et_eo("qgrp", qg_receive, c);
    c->in_group = et_queue("g", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL, c->g);
    ck_assert(em_queue_get_group(c->in_group) == c->g);
    c->everywhere =
        et_queue("all", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->in_group), EM_OK);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->everywhere), EM_OK);
    et_start(c->eo);
    for (uint64_t s = 0; s < QG_N; s++) {
        et_send(c->in_group, 0, s, 0, s);
        et_send(c->everywhere, 1, s, 0, s);
    }
}

static bool qg_done(void *ctx)
{
    return plat_load64(&((struct qg_ctx *)ctx)->got) >= 2 * QG_N;
}

static void qg_finish(void *ctx)
{
    struct qg_ctx *c = ctx;
    et_end(c->eo);
    ck_assert_msg(c->elsewhere == 0, "%llu events of the core-1 group ran on another core",
                  (unsigned long long)c->elsewhere);
    ck_assert_uint_eq(c->got, 2 * QG_N);
    ck_assert_int_eq(em_queue_group_delete_sync(c->g), EM_OK);
    ck_assert(em_queue_group_find("core1") == EM_QUEUE_GROUP_UNDEF);
}

static void case_queue_group(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct qg_ctx),
                                      .setup = qg_setup,
                                      .done = qg_done,
                                      .finish = qg_finish,
                                      .errors = 0};
    et_run(&ops);
}

ET_SC(case_atomic)
ET_SC(case_parallel)
ET_SC(case_ordered)
ET_SC(case_ordered_end)
ET_SC(case_priorities)
ET_SC(case_queue_group)

void et_sched_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "atomic_2", .core = case_atomic, .cores = 2},
        {.name = "atomic_4", .core = case_atomic, .cores = 4},
        {.name = "atomic_8", .core = case_atomic, .cores = 8},
        {.name = "parallel", .core = case_parallel, .cores = 4},
        {.name = "ordered", .core = case_ordered, .cores = 4},
        {.name = "ordered_end", .core = case_ordered_end, .cores = 4},
        /* deterministic only in simulation: natively a loaded host may run
         * the receives one after another */
        {.name = "ordered_control",
         .core = case_ordered_control,
         .cores = 4,
         .backends = HARNESS_SIM},
        {.name = "priorities", .core = case_priorities, .cores = 1},
        {.name = "queue_group", .core = case_queue_group, .cores = 4},
        /* the same with a scheduler core of its own (one plat core more) */
        {.name = "sc_atomic_4", .core = case_atomic_sc, .cores = 5},
        {.name = "sc_atomic_8", .core = case_atomic_sc, .cores = 9},
        {.name = "sc_parallel", .core = case_parallel_sc, .cores = 5},
        {.name = "sc_ordered", .core = case_ordered_sc, .cores = 5},
        {.name = "sc_ordered_end", .core = case_ordered_end_sc, .cores = 5},
        {.name = "sc_priorities", .core = case_priorities_sc, .cores = 2},
        {.name = "sc_queue_group", .core = case_queue_group_sc, .cores = 5},
        {.name = "sc4_atomic_8", .core = case_atomic_sc4, .cores = 9},
        {.name = "scd_atomic_8", .core = case_atomic_scd, .cores = 9},
        {.name = "scd_parallel", .core = case_parallel_scd, .cores = 5},
        {.name = "scd_ordered", .core = case_ordered_scd, .cores = 5},
        {.name = "scd_priorities", .core = case_priorities_scd, .cores = 2},
        {.name = "sc4_ordered", .core = case_ordered_sc4, .cores = 5},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
