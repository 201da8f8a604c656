/* et.c -- the em test program: the set-up every case shares, its helpers. */
#include "et.h"

#include <stdlib.h>
#include <string.h>

/* Words of harness_board() that et uses; cases keep their state in ctx. */
enum { W_CTX, W_END, W_ERRS, W_ERR, W_ESCOPE, W_SPIN, W_SC, W_EMBAR, W_SCD };

/* The harness_board() words live in shared memory, so the handler's counts
 * are seen by every core (a receive on any core may report an error). */
static em_status_t et_handler(em_eo_t eo, em_status_t error, em_escope_t escope, va_list args)
{
    (void)eo;
    (void)args;
    uint64_t *b = harness_board();
    plat_store64(&b[W_ERR], error);
    plat_store64(&b[W_ESCOPE], escope);
    plat_fetch_add64(&b[W_ERRS], 1);
    return error;
}

uint64_t et_errors(void)
{
    return plat_load64(&harness_board()[W_ERRS]);
}
uint64_t et_last_error(void)
{
    return plat_load64(&harness_board()[W_ERR]);
}
uint64_t et_last_escope(void)
{
    return plat_load64(&harness_board()[W_ESCOPE]);
}

static void dispatch_until(const uint64_t *flag, const struct et_ops *ops, void *ctx)
{
    uint64_t wait = ops->wait_ns ? ops->wait_ns : HARNESS_WAIT_NS;
    /* the others wait for core 0's finish too */
    uint64_t end = plat_now_ns() + (flag ? 2 * wait : wait);
    for (;;) {
        if (flag ? plat_load64(flag) != 0 : (!ops->done || ops->done(ctx))) return;
        ck_assert_msg(plat_now_ns() < end, "core %d: the case did not end within %llu ns",
                      plat_core(), (unsigned long long)wait);
        em_dispatch(16);
    }
}

void et_sched_core_depth(int depth)
{
    plat_store64(&harness_board()[W_SC], (uint64_t)depth); /* every core, before et_run */
}

void et_sched_core(void)
{
    et_sched_core_depth(1);
}

void et_sched_core_demand(void)
{
    et_sched_core_depth(1);
    plat_store64(&harness_board()[W_SCD], 1);
}

bool et_is_sched_demand(void)
{
    return plat_load64(&harness_board()[W_SCD]) != 0;
}

int et_sched_depth(void)
{
    return (int)plat_load64(&harness_board()[W_SC]);
}

bool et_is_sched_core(void)
{
    return plat_load64(&harness_board()[W_SC]) != 0;
}

/* A barrier of the n EM cores (the scheduler core is in em_ipcsim_sched_run
 * until they have all called em_term_core). */
static void em_cores_barrier(int n)
{
    uint64_t *w = &harness_board()[W_EMBAR];
    uint64_t v = plat_fetch_add64(w, 1) + 1;
    uint64_t target = (v + (uint64_t)n - 1) / (uint64_t)n * (uint64_t)n;
    for (uint64_t cur = v; cur < target; cur = plat_load64(w))
        ck_assert_msg(plat_poll64(w, cur, HARNESS_WAIT_NS) == PLAT_OK,
                      "core %d: EM cores' barrier: %llu of %d after %llu s", plat_core(),
                      (unsigned long long)(cur % (uint64_t)n), n,
                      (unsigned long long)(HARNESS_WAIT_NS / 1000000000ull));
}

void et_run(const struct et_ops *ops)
{
    uint64_t *b = harness_board();
    int me = plat_core(), np = plat_cores();
    int sc = plat_load64(&b[W_SC]) != 0;
    int n = sc ? np - 1 : np; /* EM cores */
    ck_assert_msg(n >= 1, "a scheduler core and no EM core");
    em_conf_t conf;
    if (me == 0) {
        void *ctx = plat_shared_alloc(ops->ctx_size ? ops->ctx_size : 8, 64);
        ck_assert_ptr_nonnull(ctx);
        plat_store64(&b[W_CTX], (uint64_t)(uintptr_t)ctx);
        em_conf_init(&conf);
        conf.core_count = n;
        em_core_mask_set_count(n, &conf.phys_mask);
        if (sc) conf.ipcsim.sched_mode = EM_IPCSIM_SCHED_CORE;
        conf.ipcsim.sched_depth = (int)plat_load64(&b[W_SC]);
        conf.ipcsim.sched_on_demand = (int)plat_load64(&b[W_SCD]);
        conf.ipcsim.preload_bytes = 1024; /* the scheduler preloads (preload.c) */
        em_status_t st = em_init(&conf);
        ck_assert_msg(st == EM_OK, "em_init: %" PRI_STAT, st);
    }
    harness_barrier();
    void *ctx = (void *)(uintptr_t)plat_load64(&b[W_CTX]);
    /* In plat core order: em_init_core hands out EM ids in call order. */
    for (int i = 0; i < n; i++) {
        if (i == me) {
            em_status_t st = em_init_core();
            ck_assert_msg(st == EM_OK, "em_init_core on core %d: %" PRI_STAT, me, st);
            ck_assert_int_eq(em_core_id(), me);
        }
        harness_barrier();
    }
    if (sc && me == n) {
        em_status_t st = em_ipcsim_sched_run();
        ck_assert_msg(st == EM_OK, "em_ipcsim_sched_run: %" PRI_STAT, st);
        return;
    }
    ck_assert_int_eq(em_core_count(), n);
    if (me == 0) {
        /* an EM core's call: after em_init_core */
        em_status_t st = em_register_error_handler(et_handler);
        ck_assert_msg(st == EM_OK, "em_register_error_handler: %" PRI_STAT, st);
        if (ops->setup) ops->setup(ctx);
        dispatch_until(NULL, ops, ctx);
        if (ops->finish) ops->finish(ctx);
        plat_store64(&b[W_END], 1);
    } else {
        dispatch_until(&b[W_END], ops, ctx);
    }
    sc ? em_cores_barrier(n) : harness_barrier();
    if (me == 0) {
        ck_assert_msg(et_errors() == ops->errors,
                      "errors reported: %llu, expected %llu (the last: %" PRIxSTAT
                      " in escope %" PRIxESCOPE ")",
                      (unsigned long long)et_errors(), (unsigned long long)ops->errors,
                      (em_status_t)et_last_error(), (em_escope_t)et_last_escope());
        ck_assert_msg(et_pool_used(EM_POOL_DEFAULT) == 0,
                      "default pool: %llu events still allocated at the end",
                      (unsigned long long)et_pool_used(EM_POOL_DEFAULT));
    }
    sc ? em_cores_barrier(n) : harness_barrier();
    em_status_t st = em_term_core();
    ck_assert_msg(st == EM_OK, "em_term_core on core %d: %" PRI_STAT, me, st);
    sc ? em_cores_barrier(n) : harness_barrier();
    if (me == 0) {
        st = em_term(&conf);
        ck_assert_msg(st == EM_OK, "em_term: %" PRI_STAT, st);
        plat_shared_free(ctx);
    }
}

static em_status_t ok_start(void *eo_ctx, em_eo_t eo, const em_eo_conf_t *conf)
{
    (void)eo_ctx;
    (void)eo;
    (void)conf;
    return EM_OK;
}

static em_status_t ok_stop(void *eo_ctx, em_eo_t eo)
{
    (void)eo_ctx;
    (void)eo;
    return EM_OK;
}

em_eo_t et_eo(const char *name, em_receive_func_t receive, void *eo_ctx)
{
    em_eo_t eo = em_eo_create(name, ok_start, NULL, ok_stop, NULL, receive, eo_ctx);
    ck_assert_msg(eo != EM_EO_UNDEF, "em_eo_create(%s): EM_EO_UNDEF", name);
    return eo;
}

em_queue_t et_queue(const char *name, em_queue_type_t type, em_queue_prio_t prio,
                    em_queue_group_t group)
{
    em_queue_t q = em_queue_create(name, type, prio, group, NULL);
    ck_assert_msg(q != EM_QUEUE_UNDEF, "em_queue_create(%s, type %" PRI_QTYPE "): EM_QUEUE_UNDEF",
                  name, type);
    return q;
}

struct et_msg *et_msg(em_event_t ev)
{
    struct et_msg *m = em_event_pointer(ev);
    ck_assert_msg(m != NULL, "em_event_pointer(%" PRI_EVENT "): NULL", (void *)ev);
    return m;
}

em_event_t et_alloc(uint64_t flow, uint64_t seq, uint64_t aux, uint64_t id)
{
    em_event_t ev = em_alloc(sizeof(struct et_msg), EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
    ck_assert_msg(ev != EM_EVENT_UNDEF, "em_alloc(%zu): EM_EVENT_UNDEF", sizeof(struct et_msg));
    struct et_msg *m = et_msg(ev);
    m->seq = seq;
    m->flow = flow;
    m->aux = aux;
    m->id = id;
    return ev;
}

void et_send(em_queue_t q, uint64_t flow, uint64_t seq, uint64_t aux, uint64_t id)
{
    em_status_t st = em_send(et_alloc(flow, seq, aux, id), q);
    ck_assert_msg(st == EM_OK, "em_send(flow %llu, seq %llu): %" PRI_STAT, (unsigned long long)flow,
                  (unsigned long long)seq, st);
}

void et_start(em_eo_t eo)
{
    em_status_t result = EM_ERROR;
    em_status_t st = em_eo_start_sync(eo, &result, NULL);
    ck_assert_msg(st == EM_OK && result == EM_OK,
                  "em_eo_start_sync: %" PRI_STAT ", result %" PRI_STAT, st, result);
    /* em_eo_start_sync returns with every core's local start run (case eo_start_sync) */
    ck_assert_uint_eq(em_eo_get_state(eo), EM_EO_STATE_RUNNING);
}

void et_end(em_eo_t eo)
{
    em_status_t st = em_eo_stop_sync(eo);
    ck_assert_msg(st == EM_OK, "em_eo_stop_sync: %" PRI_STAT, st);
    st = em_eo_remove_queue_all_sync(eo, EM_TRUE);
    ck_assert_msg(st == EM_OK, "em_eo_remove_queue_all_sync: %" PRI_STAT, st);
    st = em_eo_delete(eo);
    ck_assert_msg(st == EM_OK, "em_eo_delete: %" PRI_STAT, st);
}

void et_spin(unsigned n)
{
    uint64_t *w = &harness_board()[W_SPIN];
    for (unsigned i = 0; i < n; i++) (void)plat_load64(w);
}

uint64_t et_pool_used(em_pool_t pool)
{
    em_pool_info_t info;
    em_status_t st = em_pool_info(pool, &info);
    ck_assert_msg(st == EM_OK, "em_pool_info: %" PRI_STAT, st);
    uint64_t used = 0;
    for (int i = 0; i < info.num_subpools; i++) used += info.subpool[i].used;
    return used;
}

void et_max(uint64_t *p, uint64_t v)
{
    uint64_t old = plat_load64(p);
    while (old < v && !plat_cas64(p, &old, v)) {
    }
}

uint64_t et_env_u64(const char *name, uint64_t def)
{
    const char *s = getenv(name);
    if (!s || !*s) return def;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end ? def : (uint64_t)v;
}

void tests_register(void)
{
    et_sched_cases();
    et_egrp_cases();
    et_queue_cases();
    et_misuse_cases();
    et_stress_cases();
    et_resend_cases();
    et_preload_cases();
}
