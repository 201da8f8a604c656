/* queue.c -- unscheduled queues (dequeue), EO start and stop with events
 * queued. */
#include "et.h"

/* ---- unscheduled: FIFO dequeue, dequeue_multi, empty ------------------------ */

#define UN_N 10

struct un_ctx {
    em_eo_t eo;
    em_queue_t u, a;
    uint64_t received, settle;
};

static void un_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    plat_fetch_add64(&((struct un_ctx *)eo_ctx)->received, 1);
    em_free(ev);
}

static void un_expect(em_event_t ev, uint64_t seq)
{
    ck_assert_msg(ev != EM_EVENT_UNDEF, "em_queue_dequeue: EM_EVENT_UNDEF, expected seq %llu",
                  (unsigned long long)seq);
    ck_assert_uint_eq(et_msg(ev)->seq, seq);
    em_free(ev);
}

static void un_setup(void *ctx)
{
    struct un_ctx *c = ctx;
    c->u = et_queue("u", EM_QUEUE_TYPE_UNSCHEDULED, EM_QUEUE_PRIO_UNDEF, EM_QUEUE_GROUP_UNDEF);
    ck_assert_uint_eq(em_queue_get_type(c->u), EM_QUEUE_TYPE_UNSCHEDULED);
    ck_assert(em_queue_dequeue(c->u) == EM_EVENT_UNDEF); /* empty: no error */
    em_event_t evs[UN_N * 2];
    ck_assert_int_eq(em_queue_dequeue_multi(c->u, evs, 4), 0);
    ck_assert_uint_eq(et_errors(), 0);

    for (uint64_t s = 0; s < UN_N; s++) et_send(c->u, 0, s, 0, s);
    un_expect(em_queue_dequeue(c->u), 0);
    ck_assert_int_eq(em_queue_dequeue_multi(c->u, evs, 4), 4);
    for (int i = 0; i < 4; i++) un_expect(evs[i], 1 + (uint64_t)i);
    ck_assert_int_eq(em_queue_dequeue_multi(c->u, evs, UN_N * 2), UN_N - 5);
    for (int i = 0; i < UN_N - 5; i++) un_expect(evs[i], 5 + (uint64_t)i);
    ck_assert(em_queue_dequeue(c->u) == EM_EVENT_UNDEF);
    ck_assert_uint_eq(et_errors(), 0);

    /* not for an EO, not scheduled: its events wait while every core dispatches */
    c->eo = et_eo("unsched", un_receive, c);
    ck_assert_uint_eq(em_eo_add_queue_sync(c->eo, c->u), EM_ERR_BAD_TYPE);
    ck_assert_uint_eq(et_errors(), 1);
    c->a = et_queue("a", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->a), EM_OK);
    et_start(c->eo);
    for (uint64_t s = 0; s < 3; s++) et_send(c->u, 1, s, 0, s);
    et_send(c->a, 2, 0, 0, 0);
    /* a scheduled queue cannot be dequeued */
    ck_assert(em_queue_dequeue(c->a) == EM_EVENT_UNDEF);
    ck_assert_uint_eq(et_errors(), 2);
    ck_assert_uint_eq(et_last_error(), EM_ERR_BAD_TYPE);
    ck_assert_uint_eq(et_last_escope(), EM_ESCOPE_QUEUE_DEQUEUE);
}

static bool un_done(void *ctx)
{
    struct un_ctx *c = ctx;
    return plat_load64(&c->received) >= 1 && ++c->settle >= 40;
}

static void un_finish(void *ctx)
{
    struct un_ctx *c = ctx;
    ck_assert_uint_eq(c->received, 1); /* the atomic queue's event, none of u's */
    for (uint64_t s = 0; s < 3; s++) un_expect(em_queue_dequeue(c->u), s);
    ck_assert(em_queue_dequeue(c->u) == EM_EVENT_UNDEF);
    et_end(c->eo);
    ck_assert_int_eq(em_queue_delete(c->u), EM_OK);
}

static void case_unscheduled(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct un_ctx),
                                      .setup = un_setup,
                                      .done = un_done,
                                      .finish = un_finish,
                                      .errors = 2};
    et_run(&ops);
}

/* ---- EO start/stop: events queued before start and at a stop ----------------- */

#define EO_N 20

struct eo_ctx {
    em_eo_t eo;
    em_queue_t q;
    uint64_t starts, local_starts, stops, local_stops;
    uint64_t got, not_running, not_started, not_current, after_stop, stopped;
    uint64_t step, settle, at_stop;
};

static em_status_t eo_start(void *eo_ctx, em_eo_t eo, const em_eo_conf_t *conf)
{
    (void)conf;
    struct eo_ctx *c = eo_ctx;
    ck_assert(eo == c->eo);
    plat_fetch_add64(&c->starts, 1);
    return EM_OK;
}

static em_status_t eo_local_start(void *eo_ctx, em_eo_t eo)
{
    (void)eo;
    plat_fetch_add64(&((struct eo_ctx *)eo_ctx)->local_starts, 1);
    return EM_OK;
}

static em_status_t eo_stop(void *eo_ctx, em_eo_t eo)
{
    struct eo_ctx *c = eo_ctx;
    ck_assert(eo == c->eo);
    /* every local stop ran first */
    ck_assert_uint_eq(plat_load64(&c->local_stops) % (uint64_t)em_core_count(), 0);
    plat_fetch_add64(&c->stops, 1);
    return EM_OK;
}

static em_status_t eo_local_stop(void *eo_ctx, em_eo_t eo)
{
    (void)eo;
    plat_fetch_add64(&((struct eo_ctx *)eo_ctx)->local_stops, 1);
    return EM_OK;
}

static void eo_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    struct eo_ctx *c = eo_ctx;
    em_eo_state_t state = em_eo_get_state(c->eo);
    if (state != EM_EO_STATE_RUNNING) plat_fetch_add64(&c->not_running, 1);
    /* STOPPING: a receive that began before the stop; after em_eo_stop_sync returns
     * none may run (after_stop) */
    if (state != EM_EO_STATE_RUNNING && state != EM_EO_STATE_STARTING &&
        state != EM_EO_STATE_STOPPING)
        plat_fetch_add64(&c->not_started, 1);
    if (plat_load64(&c->stopped)) plat_fetch_add64(&c->after_stop, 1);
    if (em_eo_current() != c->eo) plat_fetch_add64(&c->not_current, 1);
    em_free(ev);
    plat_fetch_add64(&c->got, 1);
}

static void eo_setup(void *ctx)
{
    struct eo_ctx *c = ctx;
    c->eo = em_eo_create("life", eo_start, eo_local_start, eo_stop, eo_local_stop, eo_receive, c);
    ck_assert_msg(c->eo != EM_EO_UNDEF, "em_eo_create: EM_EO_UNDEF");
    ck_assert_uint_eq(em_eo_get_state(c->eo), EM_EO_STATE_CREATED);
    ck_assert(em_eo_get_context(c->eo) == c);
    ck_assert(em_eo_find("life") == c->eo);
    c->q = et_queue("q", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q), EM_OK);
    for (uint64_t s = 0; s < EO_N; s++) et_send(c->q, 0, s, 0, s); /* before the start */
}

/* Core 0 steps through the EO's life between its dispatch rounds. */
static bool eo_done(void *ctx)
{
    struct eo_ctx *c = ctx;
    uint64_t n = (uint64_t)em_core_count();
    switch (c->step) {
    case 0: /* not started: its events wait */
        if (++c->settle < 40) return false;
        ck_assert_msg(plat_load64(&c->got) == 0, "%llu events received before em_eo_start",
                      (unsigned long long)c->got);
        ck_assert_uint_eq(c->starts + c->local_starts, 0);
        et_start(c->eo);
        ck_assert_uint_eq(c->starts, 1);
        c->step = 1;
        return false;
    case 1: /* running (every local start has run): the queued events arrive; stop with
             * more queued */
        if (plat_load64(&c->got) < EO_N || plat_load64(&c->local_starts) < n ||
            em_eo_get_state(c->eo) != EM_EO_STATE_RUNNING)
            return false;
        ck_assert_uint_eq(plat_load64(&c->local_starts), n);
        for (uint64_t s = 0; s < EO_N; s++) et_send(c->q, 1, s, 0, s);
        ck_assert_int_eq(em_eo_stop_sync(c->eo), EM_OK);
        plat_store64(&c->stopped, 1);
        c->at_stop = plat_load64(&c->got);
        ck_assert_uint_eq(c->stops, 1);
        ck_assert_uint_eq(plat_load64(&c->local_stops), n);
        ck_assert_uint_ne(em_eo_get_state(c->eo), EM_EO_STATE_RUNNING);
        for (uint64_t s = 0; s < EO_N; s++) et_send(c->q, 2, s, 0, s); /* to a stopped EO */
        c->settle = 0;
        c->step = 2;
        return false;
    case 2: /* stopped: nothing is received; then started again, nothing was lost */
        if (++c->settle < 40) return false;
        ck_assert_uint_eq(c->after_stop, 0);
        ck_assert_uint_eq(plat_load64(&c->got), c->at_stop);
        plat_store64(&c->stopped, 0);
        et_start(c->eo);
        ck_assert_uint_eq(c->starts, 2);
        c->step = 3;
        return false;
    default:
        return plat_load64(&c->got) >= 3 * EO_N && plat_load64(&c->local_starts) == 2 * n;
    }
}

static void eo_finish(void *ctx)
{
    struct eo_ctx *c = ctx;
    ck_assert_uint_eq(c->got, 3 * EO_N);
    ck_assert_msg(c->not_started == 0, "%llu receives while the EO was not started",
                  (unsigned long long)c->not_started);
    ck_assert_uint_eq(c->not_current, 0);
    /* queued events again, then stop and delete the queue with them in it:
     * em_eo_remove_queue_all_sync(.., EM_TRUE) frees them (et_run checks the
     * pool is empty at the end) */
    ck_assert_int_eq(em_eo_stop_sync(c->eo), EM_OK);
    for (uint64_t s = 0; s < EO_N; s++) et_send(c->q, 3, s, 0, s);
    ck_assert_uint_eq(em_queue_delete(c->q), EM_ERR_BAD_STATE); /* in an EO, holding events */
    ck_assert_uint_eq(em_eo_delete(c->eo), EM_ERR_BAD_STATE);   /* it has a queue */
    ck_assert_int_eq(em_eo_remove_queue_all_sync(c->eo, EM_TRUE), EM_OK);
    ck_assert_int_eq(em_eo_delete(c->eo), EM_OK);
    ck_assert(em_eo_find("life") == EM_EO_UNDEF);
    ck_assert_uint_eq(c->stops, 2);
}

static void case_eo_start_stop(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct eo_ctx),
                                      .setup = eo_setup,
                                      .done = eo_done,
                                      .finish = eo_finish,
                                      .errors = 2};
    et_run(&ops);
}

/* ---- em_eo_start_sync returns once every core's local start has run --------- */

static void sync_setup(void *ctx)
{
    struct eo_ctx *c = ctx;
    c->eo = em_eo_create("sync", eo_start, eo_local_start, eo_stop, eo_local_stop, eo_receive, c);
    ck_assert_msg(c->eo != EM_EO_UNDEF, "em_eo_create: EM_EO_UNDEF");
    c->q = et_queue("q", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q), EM_OK);
    for (uint64_t s = 0; s < EO_N; s++) et_send(c->q, 0, s, 0, s);
    em_status_t result = EM_ERROR;
    ck_assert_int_eq(em_eo_start_sync(c->eo, &result, NULL), EM_OK); /* not et_start: it waits */
    ck_assert_int_eq(result, EM_OK);
    ck_assert_msg(plat_load64(&c->local_starts) == (uint64_t)em_core_count(),
                  "em_eo_start_sync returned after %llu of %d local starts",
                  (unsigned long long)c->local_starts, em_core_count());
    ck_assert_uint_eq(em_eo_get_state(c->eo), EM_EO_STATE_RUNNING);
}

static bool sync_done(void *ctx)
{
    return plat_load64(&((struct eo_ctx *)ctx)->got) >= EO_N;
}

static void sync_finish(void *ctx)
{
    struct eo_ctx *c = ctx;
    ck_assert_msg(c->not_running == 0, "%llu receives before the EO was RUNNING",
                  (unsigned long long)c->not_running);
    ck_assert_int_eq(em_eo_stop_sync(c->eo), EM_OK);
    ck_assert_uint_eq(plat_load64(&c->local_stops), (uint64_t)em_core_count());
    ck_assert_uint_eq(c->stops, 1);
    ck_assert_int_eq(em_eo_remove_queue_all_sync(c->eo, EM_TRUE), EM_OK);
    ck_assert_int_eq(em_eo_delete(c->eo), EM_OK);
}

static void case_eo_start_sync(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct eo_ctx),
                                      .setup = sync_setup,
                                      .done = sync_done,
                                      .finish = sync_finish};
    et_run(&ops);
}

/* ---- EO names may repeat; an EO's global stop may delete it (em-odp's hello) -- */

struct twin_ctx {
    em_eo_t a, b;
    uint64_t stopped; /* a's global stop ran (and deleted a) */
};

static void twin_receive_none(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t q,
                              void *q_ctx)
{
    (void)eo_ctx, (void)type, (void)q, (void)q_ctx;
    em_free(ev);
}

static em_status_t twin_start(void *eo_ctx, em_eo_t eo, const em_eo_conf_t *conf)
{
    (void)eo_ctx, (void)eo, (void)conf;
    return EM_OK;
}

/* As hello's stop: remove (and delete) the queues, then delete the EO itself. */
static em_status_t twin_stop(void *eo_ctx, em_eo_t eo)
{
    struct twin_ctx *c = eo_ctx;
    ck_assert_uint_eq(em_eo_get_state(eo), EM_EO_STATE_CREATED);
    ck_assert_int_eq(em_eo_remove_queue_all_sync(eo, EM_TRUE), EM_OK);
    ck_assert_int_eq(em_eo_delete(eo), EM_OK);
    /* still inside the stop: em_eo_stop_sync must not have returned yet */
    et_spin(2000);
    plat_store64(&c->stopped, 1);
    return EM_OK;
}

static void twin_setup(void *ctx)
{
    struct twin_ctx *c = ctx;
    c->a = em_eo_create("twin", twin_start, NULL, twin_stop, NULL, twin_receive_none, c);
    c->b = em_eo_create("twin", twin_start, NULL, twin_stop, NULL, twin_receive_none, c);
    ck_assert_msg(c->a != EM_EO_UNDEF && c->b != EM_EO_UNDEF && c->a != c->b,
                  "two EOs of one name: %p %p", (void *)c->a, (void *)c->b);
    ck_assert(em_eo_find("twin") == c->a);
    em_queue_t q =
        et_queue("tq", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    em_queue_t q2 =
        et_queue("tq", EM_QUEUE_TYPE_PARALLEL_ORDERED, EM_QUEUE_PRIO_NORMAL,
                 EM_QUEUE_GROUP_DEFAULT); /* queue names repeat too (em-odp's ordered.c) */
    ck_assert(em_queue_find("tq") == q && q2 != q);
    ck_assert_int_eq(em_queue_delete(q2), EM_OK);
    /* and the groups' names (em-odp's atomic and queue group headers allow it) */
    em_core_mask_t mask;
    em_core_mask_zero(&mask);
    em_core_mask_set(0, &mask);
    em_queue_group_t g1 = em_queue_group_create_sync("tg", &mask),
                     g2 = em_queue_group_create_sync("tg", &mask);
    ck_assert(g1 != EM_QUEUE_GROUP_UNDEF && g2 != EM_QUEUE_GROUP_UNDEF && g1 != g2);
    ck_assert(em_queue_group_find("tg") == g1);
    em_atomic_group_t a1 = em_atomic_group_create("tag", EM_QUEUE_GROUP_DEFAULT),
                      a2 = em_atomic_group_create("tag", EM_QUEUE_GROUP_DEFAULT);
    ck_assert(a1 != EM_ATOMIC_GROUP_UNDEF && a2 != EM_ATOMIC_GROUP_UNDEF && a1 != a2);
    ck_assert(em_atomic_group_find("tag") == a1);
    ck_assert_int_eq(em_atomic_group_delete(a2), EM_OK);
    ck_assert_int_eq(em_atomic_group_delete(a1), EM_OK);
    ck_assert_int_eq(em_queue_group_delete_sync(g2), EM_OK);
    ck_assert_int_eq(em_queue_group_delete_sync(g1), EM_OK);
    ck_assert_int_eq(em_eo_add_queue_sync(c->a, q), EM_OK);
    et_start(c->a);
}

static void twin_finish(void *ctx)
{
    struct twin_ctx *c = ctx;
    ck_assert_int_eq(em_eo_stop_sync(c->a), EM_OK); /* returns after the stop deleted a */
    ck_assert_uint_eq(plat_load64(&c->stopped), 1);
    ck_assert(em_eo_find("twin") == c->b);
    ck_assert_int_eq(em_eo_delete(c->b), EM_OK);
    ck_assert(em_eo_find("twin") == EM_EO_UNDEF);
}

static void case_eo_self_delete(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {
        .ctx_size = sizeof(struct twin_ctx), .setup = twin_setup, .finish = twin_finish};
    et_run(&ops);
}

/* ---- em_eo_stop_sync of another EO from inside an atomic receive ------------ */

#define SIR_Q 8
#define SIR_N 8

struct sir_ctx {
    em_eo_t a, b;
    em_queue_t qa, qb[SIR_Q];
    uint64_t a_got, b_got, stopped;
};

static void sir_receive_a(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t q,
                          void *q_ctx)
{
    (void)type, (void)q, (void)q_ctx;
    struct sir_ctx *c = eo_ctx;
    if (plat_fetch_add64(&c->a_got, 1) == 0) {
        et_spin(200); /* with a scheduler core: B's events are assigned meanwhile */
        ck_assert_int_eq(em_eo_stop_sync(c->b), EM_OK);
        plat_store64(&c->stopped, 1);
    }
    em_free(ev);
}

static void sir_receive_b(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t q,
                          void *q_ctx)
{
    (void)type, (void)q, (void)q_ctx;
    et_spin(20);
    plat_fetch_add64(&((struct sir_ctx *)eo_ctx)->b_got, 1);
    em_free(ev);
}

static void sir_setup(void *ctx)
{
    struct sir_ctx *c = ctx;
    c->a = et_eo("sir_a", sir_receive_a, c);
    c->b = et_eo("sir_b", sir_receive_b, c);
    c->qa = et_queue("sir_qa", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->a, c->qa), EM_OK);
    for (int i = 0; i < SIR_Q; i++) {
        c->qb[i] =
            et_queue("sir_qb", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
        ck_assert_int_eq(em_eo_add_queue_sync(c->b, c->qb[i]), EM_OK);
    }
    et_start(c->a);
    et_start(c->b);
    for (int i = 0; i < SIR_Q; i++)
        for (uint64_t s = 0; s < SIR_N; s++) et_send(c->qb[i], (uint64_t)i, s, 0, s);
    et_send(c->qa, 0, 0, 0, 0);
    et_send(c->qa, 0, 1, 0, 1);
}

/* A's second event is received only if the stop left A's atomic queue
 * released at the end of the first receive. */
static bool sir_done(void *ctx)
{
    struct sir_ctx *c = ctx;
    return plat_load64(&c->a_got) == 2 && plat_load64(&c->stopped);
}

static void sir_finish(void *ctx)
{
    struct sir_ctx *c = ctx;
    et_start(c->b); /* B's events were kept across the stop: all arrive */
    uint64_t end = plat_now_ns() + HARNESS_WAIT_NS;
    while (plat_load64(&c->b_got) < SIR_Q * SIR_N) {
        ck_assert_msg(plat_now_ns() < end, "B received %llu of %d events after the restart",
                      (unsigned long long)plat_load64(&c->b_got), SIR_Q * SIR_N);
        em_dispatch(16);
    }
    ck_assert_uint_eq(plat_load64(&c->b_got), SIR_Q * SIR_N);
    et_end(c->a);
    et_end(c->b);
}

static void case_stop_in_receive(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct sir_ctx),
                                      .setup = sir_setup,
                                      .done = sir_done,
                                      .finish = sir_finish};
    et_run(&ops);
}

ET_SC(case_stop_in_receive)
ET_SC(case_unscheduled)
ET_SC(case_eo_start_stop)
ET_SC(case_eo_self_delete)

void et_queue_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "unscheduled", .core = case_unscheduled, .cores = 2},
        {.name = "eo_start_stop", .core = case_eo_start_stop, .cores = 4},
        {.name = "sc_unscheduled", .core = case_unscheduled_sc, .cores = 3},
        {.name = "sc_eo_start_stop", .core = case_eo_start_stop_sc, .cores = 5},
        {.name = "sc4_eo_start_stop", .core = case_eo_start_stop_sc4, .cores = 5},
        {.name = "stop_in_receive", .core = case_stop_in_receive, .cores = 4},
        {.name = "sc_stop_in_receive", .core = case_stop_in_receive_sc, .cores = 5},
        {.name = "sc4_stop_in_receive", .core = case_stop_in_receive_sc4, .cores = 5},
        {.name = "scd_stop_in_receive", .core = case_stop_in_receive_scd, .cores = 5},
        {.name = "scd_eo_start_stop", .core = case_eo_start_stop_scd, .cores = 5},
        {.name = "sc_eo_self_delete", .core = case_eo_self_delete_sc, .cores = 3},
        {.name = "eo_start_sync", .core = case_eo_start_sync, .cores = 4},
        {.name = "eo_self_delete", .core = case_eo_self_delete, .cores = 2},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
