/* misuse.c -- wrong calls: the error handler sees the right EM_ERR_* and
 * escope, the call returns the error, nothing is lost or crashes. */
#include "et.h"

/* One misuse step: exactly one more error, with this code and scope. */
static void expect_error(uint64_t *count, em_status_t err, em_escope_t escope, const char *what)
{
    ++*count;
    ck_assert_msg(et_errors() == *count, "%s: %llu errors reported, expected %llu", what,
                  (unsigned long long)et_errors(), (unsigned long long)*count);
    ck_assert_msg(et_last_error() == err, "%s: error %" PRIxSTAT ", expected %" PRIxSTAT, what,
                  (em_status_t)et_last_error(), err);
    ck_assert_msg(et_last_escope() == escope, "%s: escope %" PRIxESCOPE ", expected %" PRIxESCOPE,
                  what, (em_escope_t)et_last_escope(), escope);
}

#define MIS_ERRORS 10

static void mis_setup(void *ctx)
{
    (void)ctx;
    uint64_t n = 0;
    em_queue_t u =
        et_queue("u", EM_QUEUE_TYPE_UNSCHEDULED, EM_QUEUE_PRIO_UNDEF, EM_QUEUE_GROUP_UNDEF);

    /* send to EM_QUEUE_UNDEF: refused, the event is still the caller's */
    em_event_t ev = et_alloc(0, 1, 0, 1);
    ck_assert_uint_eq(em_send(ev, EM_QUEUE_UNDEF), EM_ERR_BAD_ID);
    expect_error(&n, EM_ERR_BAD_ID, EM_ESCOPE_SEND, "em_send(EM_QUEUE_UNDEF)");
    ck_assert_uint_eq(et_msg(ev)->seq, 1);
    ck_assert_int_eq(em_send_multi(&ev, 1, EM_QUEUE_UNDEF), 0);
    expect_error(&n, EM_ERR_BAD_ID, EM_ESCOPE_SEND_MULTI, "em_send_multi(EM_QUEUE_UNDEF)");
    /* still usable: it goes through a real queue */
    et_msg(ev)->seq = 2;
    ck_assert_int_eq(em_send(ev, u), EM_OK);
    ev = em_queue_dequeue(u);
    ck_assert(ev != EM_EVENT_UNDEF);
    ck_assert_uint_eq(et_msg(ev)->seq, 2);

    /* send to a deleted queue */
    em_queue_t gone =
        et_queue("gone", EM_QUEUE_TYPE_UNSCHEDULED, EM_QUEUE_PRIO_UNDEF, EM_QUEUE_GROUP_UNDEF);
    ck_assert_int_eq(em_queue_delete(gone), EM_OK);
    ck_assert_uint_eq(em_send(ev, gone), EM_ERR_BAD_ID);
    expect_error(&n, EM_ERR_BAD_ID, EM_ESCOPE_SEND, "em_send(deleted queue)");
    ck_assert_uint_eq(et_msg(ev)->seq, 2);

    /* send of no event */
    ck_assert_uint_eq(em_send(EM_EVENT_UNDEF, u), EM_ERR_BAD_ARG);
    expect_error(&n, EM_ERR_BAD_ARG, EM_ESCOPE_SEND, "em_send(EM_EVENT_UNDEF)");

    /* free after send, send after send: the queue keeps the event intact */
    ck_assert_int_eq(em_send(ev, u), EM_OK);
    em_free(ev);
    expect_error(&n, EM_ERR_EVENT_STATE, EM_ESCOPE_FREE, "em_free after em_send");
    ck_assert_uint_eq(em_send(ev, u), EM_ERR_EVENT_STATE);
    expect_error(&n, EM_ERR_EVENT_STATE, EM_ESCOPE_SEND, "em_send after em_send");
    em_event_t back = em_queue_dequeue(u);
    ck_assert(back == ev);
    ck_assert_uint_eq(et_msg(back)->seq, 2);
    ck_assert(em_queue_dequeue(u) == EM_EVENT_UNDEF); /* queued once, not twice */

    /* double free: the second is refused, the pool counts the event once */
    uint64_t used = et_pool_used(EM_POOL_DEFAULT);
    em_free(back);
    ck_assert_uint_eq(et_pool_used(EM_POOL_DEFAULT), used - 1);
    em_free(back);
    expect_error(&n, EM_ERR_EVENT_STATE, EM_ESCOPE_FREE, "double em_free");
    ck_assert_uint_eq(et_pool_used(EM_POOL_DEFAULT), used - 1);
    ck_assert_uint_eq(em_send(back, u), EM_ERR_EVENT_STATE);
    expect_error(&n, EM_ERR_EVENT_STATE, EM_ESCOPE_SEND, "em_send after em_free");

    /* alloc beyond a small pool */
    em_pool_cfg_t cfg;
    em_pool_cfg_init(&cfg);
    cfg.event_type = EM_EVENT_TYPE_SW;
    cfg.num_subpools = 1;
    cfg.subpool[0].size = 64;
    cfg.subpool[0].num = 4;
    em_pool_t pool = em_pool_create("small", EM_POOL_UNDEF, &cfg);
    ck_assert_msg(pool != EM_POOL_UNDEF, "em_pool_create(4 x 64 B): EM_POOL_UNDEF");
    em_event_t evs[4];
    for (int i = 0; i < 4; i++) {
        evs[i] = em_alloc(64, EM_EVENT_TYPE_SW, pool);
        ck_assert_msg(evs[i] != EM_EVENT_UNDEF, "em_alloc %d of 4: EM_EVENT_UNDEF", i + 1);
        ck_assert(em_event_get_pool(evs[i]) == pool);
    }
    ck_assert_uint_eq(et_pool_used(pool), 4);
    ck_assert(em_alloc(8, EM_EVENT_TYPE_SW, pool) == EM_EVENT_UNDEF);
    expect_error(&n, EM_ERR_ALLOC_FAILED, EM_ESCOPE_ALLOC, "em_alloc from an empty pool");
    ck_assert(em_alloc(65, EM_EVENT_TYPE_SW, pool) == EM_EVENT_UNDEF);
    expect_error(&n, EM_ERR_TOO_LARGE, EM_ESCOPE_ALLOC, "em_alloc beyond the pool's size");
    ck_assert_uint_eq(et_pool_used(pool), 4);
    /* a pool with events out cannot go */
    ck_assert_uint_eq(em_pool_delete(pool), EM_ERR_BAD_STATE);
    ++n; /* its scope is not the point here, only that it refused */
    ck_assert_uint_eq(et_errors(), n);
    for (int i = 0; i < 4; i++) em_free(evs[i]);
    ck_assert_uint_eq(et_pool_used(pool), 0);
    em_event_t again = em_alloc(64, EM_EVENT_TYPE_SW, pool); /* freed buffers come back */
    ck_assert(again != EM_EVENT_UNDEF);
    em_free(again);
    ck_assert_int_eq(em_pool_delete(pool), EM_OK);
    ck_assert_int_eq(em_queue_delete(u), EM_OK);
    ck_assert_uint_eq(n, MIS_ERRORS + 1);
}

static void case_misuse(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {
        .ctx_size = 0, .setup = mis_setup, .done = NULL, .finish = NULL, .errors = MIS_ERRORS + 1};
    et_run(&ops);
}

/* ---- an error inside a receive goes to the EO's handler, not the global one -- */

struct eoh_ctx {
    em_eo_t eo;
    em_queue_t q;
    uint64_t calls, bad, got;
};

static struct eoh_ctx *eoh_ctx_of_run(void)
{
    /* the handler has no context argument: the case keeps its ctx in the
     * board's last word */
    return (struct eoh_ctx *)(uintptr_t)plat_load64(&harness_board()[HARNESS_BOARD_WORDS - 1]);
}

static em_status_t eoh_handler(em_eo_t eo, em_status_t error, em_escope_t escope, va_list args)
{
    (void)args;
    struct eoh_ctx *c = eoh_ctx_of_run();
    if (eo != c->eo || error != EM_ERR_BAD_ID || escope != EM_ESCOPE_SEND)
        plat_fetch_add64(&c->bad, 1);
    plat_fetch_add64(&c->calls, 1);
    return error;
}

static void eoh_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                        void *q_ctx)
{
    (void)type;
    (void)queue;
    (void)q_ctx;
    struct eoh_ctx *c = eo_ctx;
    if (em_send(ev, EM_QUEUE_UNDEF) != EM_ERR_BAD_ID) plat_fetch_add64(&c->bad, 1);
    em_free(ev); /* the failed send left it with us */
    plat_fetch_add64(&c->got, 1);
}

static void eoh_setup(void *ctx)
{
    struct eoh_ctx *c = ctx;
    plat_store64(&harness_board()[HARNESS_BOARD_WORDS - 1], (uint64_t)(uintptr_t)c);
    c->eo = et_eo("eoh", eoh_receive, c);
    ck_assert_int_eq(em_eo_register_error_handler(c->eo, eoh_handler), EM_OK);
    c->q = et_queue("q", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->q), EM_OK);
    et_start(c->eo);
    for (uint64_t s = 0; s < 8; s++) et_send(c->q, 0, s, 0, s);
}

static bool eoh_done(void *ctx)
{
    return plat_load64(&((struct eoh_ctx *)ctx)->got) >= 8;
}

static void eoh_finish(void *ctx)
{
    struct eoh_ctx *c = ctx;
    ck_assert_uint_eq(c->calls, 8);
    ck_assert_uint_eq(c->bad, 0);
    ck_assert_int_eq(em_eo_unregister_error_handler(c->eo), EM_OK);
    et_end(c->eo);
    /* outside any receive the global handler sees errors again */
    em_event_t ev = et_alloc(0, 0, 0, 0);
    ck_assert_uint_eq(em_send(ev, EM_QUEUE_UNDEF), EM_ERR_BAD_ID);
    em_free(ev);
    ck_assert_uint_eq(et_errors(), 1);
}

static void case_eo_error_handler(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct eoh_ctx),
                                      .setup = eoh_setup,
                                      .done = eoh_done,
                                      .finish = eoh_finish,
                                      .errors = 1};
    et_run(&ops);
}

/* ---- the scheduler core's errors ------------------------------------------ */

static em_status_t sc_handler(em_eo_t eo, em_status_t error, em_escope_t escope, va_list args)
{
    (void)eo, (void)args;
    uint64_t *b = harness_board();
    if (escope == EM_ESCOPE_IPCSIM_SCHED) plat_fetch_add64(&b[0], 1), plat_store64(&b[1], error);
    return error;
}

static em_status_t sc_init(int mode, int depth, int cores)
{
    em_conf_t conf;
    em_conf_init(&conf);
    conf.core_count = cores;
    em_core_mask_set_count(cores, &conf.phys_mask);
    conf.ipcsim.sched_mode = (em_ipcsim_sched_mode_t)mode;
    conf.ipcsim.sched_depth = depth;
    return em_init(&conf);
}

/* One core, no et_run: em_init's checks of the mode, the depth and the
 * device's queues, and em_ipcsim_sched_run where it must refuse. Each
 * refusal leaves EM uninitialised, so the next em_init succeeds. */
static void case_sc_misuse(void *arg)
{
    (void)arg;
    em_conf_t conf;
    em_conf_init(&conf);
    ck_assert_uint_eq(em_ipcsim_sched_run(), EM_ERR_NOT_INITIALIZED);
    ck_assert_uint_eq(sc_init(7, 0, 1), EM_ERR_BAD_ARG);
    ck_assert_uint_eq(sc_init(EM_IPCSIM_SCHED_CORE, -1, 1), EM_ERR_BAD_ARG);
    ck_assert_uint_eq(sc_init(EM_IPCSIM_SCHED_CORE, EM_IPCSIM_SCHED_DEPTH_MAX + 1, 1),
                      EM_ERR_BAD_ARG);
    /* ideal's hwq device has 64 queues: 64 dispatch queues leave none */
    ck_assert_uint_eq(sc_init(EM_IPCSIM_SCHED_CORE, 0, 64), EM_ERR_TOO_LARGE);
    /* the inline mode has no scheduler core */
    ck_assert_uint_eq(sc_init(EM_IPCSIM_SCHED_INLINE, 0, 1), EM_OK);
    ck_assert_uint_eq(em_ipcsim_sched_run(), EM_ERR_BAD_STATE);
    ck_assert_uint_eq(em_term(&conf), EM_OK);
    /* an EM core cannot be the scheduler core */
    ck_assert_uint_eq(sc_init(EM_IPCSIM_SCHED_CORE, EM_IPCSIM_SCHED_DEPTH_MAX, 1), EM_OK);
    ck_assert_uint_eq(em_init_core(), EM_OK);
    ck_assert_uint_eq(em_register_error_handler(sc_handler), EM_OK);
    ck_assert_uint_eq(em_ipcsim_sched_run(), EM_ERR_BAD_STATE);
    ck_assert_uint_eq(plat_load64(&harness_board()[0]), 1);
    /* dispatching with no scheduler core: said once, after a second */
    ck_assert_uint_eq(em_dispatch_ns(1500000000ull, NULL, NULL), EM_OK);
    ck_assert_uint_eq(plat_load64(&harness_board()[0]), 2);
    ck_assert_uint_eq(plat_load64(&harness_board()[1]), EM_ERR_BAD_STATE);
    ck_assert_uint_eq(em_dispatch_ns(100000000ull, NULL, NULL), EM_OK);
    ck_assert_uint_eq(plat_load64(&harness_board()[0]), 2);
    ck_assert_uint_eq(em_term_core(), EM_OK);
    ck_assert_uint_eq(em_term(&conf), EM_OK);
}

void et_misuse_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "misuse", .core = case_misuse, .cores = 2},
        {.name = "eo_error_handler", .core = case_eo_error_handler, .cores = 2},
        {.name = "sc_misuse", .core = case_sc_misuse, .cores = 1},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
