/* preload.c -- the preload extension (EM_QUEUE_FLAG_IPCSIM_PRELOAD): the
 * receive reads a local copy with the payload's bytes, a send writes the
 * copy back; with a scheduler core and ipcsim.preload_bytes the scheduler's
 * DMA fills one of the core's preload slots before the hand-over. */
#include "et.h"

#define PL_N 64
#define PL_BYTES 240
#define PL_ADDRS 8

struct pl_msg {
    uint64_t id;
    uint64_t orig; /* em_event_pointer at alloc: the shared payload */
    uint8_t data[PL_BYTES];
};

struct pl_ctx {
    em_eo_t eo;
    em_queue_t p, u;
    uint64_t got, bad, local;
    /* per EM core: the distinct local addresses its receives saw */
    uint64_t naddr[EM_MAX_CORES];
    uint64_t addr[EM_MAX_CORES][PL_ADDRS];
};

static uint8_t pattern(uint64_t id, int i)
{
    return (uint8_t)(id * 7 + (uint64_t)i);
}

static void note_addr(struct pl_ctx *c, const void *p)
{
    int me = em_core_id();
    uint64_t a = (uint64_t)(uintptr_t)p;
    for (uint64_t i = 0; i < c->naddr[me]; i++)
        if (c->addr[me][i] == a) return;
    if (c->naddr[me] < PL_ADDRS) c->addr[me][c->naddr[me]++] = a;
}

static void pl_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t q, void *q_ctx)
{
    (void)type, (void)q, (void)q_ctx;
    struct pl_ctx *c = eo_ctx;
    struct pl_msg *m = em_event_pointer(ev);
    unsigned caps = plat_core_caps(plat_core());
    int can = (caps & PLAT_CAP_LOCAL_MEM) && (caps & PLAT_CAP_DMA);
    if ((uint64_t)(uintptr_t)m != m->orig) {
        plat_fetch_add64(&c->local, 1);
        note_addr(c, m);
    } else if (can) {
        plat_fetch_add64(&c->bad, 1); /* not preloaded although the core could */
    }
    for (int i = 0; i < PL_BYTES; i++) {
        if (m->data[i] != pattern(m->id, i)) plat_fetch_add64(&c->bad, 1);
        m->data[i]++; /* the send writes the copy back */
    }
    ck_assert_int_eq(em_send(ev, c->u), EM_OK);
    plat_fetch_add64(&c->got, 1);
}

static void pl_setup(void *ctx)
{
    struct pl_ctx *c = ctx;
    c->eo = et_eo("preload", pl_receive, c);
    em_queue_conf_t qc = {.flags = EM_QUEUE_FLAG_IPCSIM_PRELOAD};
    c->p = em_queue_create("pl", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL,
                           EM_QUEUE_GROUP_DEFAULT, &qc);
    ck_assert(c->p != EM_QUEUE_UNDEF);
    c->u = et_queue("pl_u", EM_QUEUE_TYPE_UNSCHEDULED, EM_QUEUE_PRIO_UNDEF, EM_QUEUE_GROUP_UNDEF);
    ck_assert_int_eq(em_eo_add_queue_sync(c->eo, c->p), EM_OK);
    et_start(c->eo);
    for (uint64_t id = 0; id < PL_N; id++) {
        em_event_t ev = em_alloc(sizeof(struct pl_msg), EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
        ck_assert(ev != EM_EVENT_UNDEF);
        struct pl_msg *m = em_event_pointer(ev);
        m->id = id;
        m->orig = (uint64_t)(uintptr_t)m;
        for (int i = 0; i < PL_BYTES; i++) m->data[i] = pattern(id, i);
        ck_assert_int_eq(em_send(ev, c->p), EM_OK);
    }
}

static bool pl_done(void *ctx)
{
    return plat_load64(&((struct pl_ctx *)ctx)->got) == PL_N;
}

static void pl_finish(void *ctx)
{
    struct pl_ctx *c = ctx;
    uint64_t seen = 0, written = 0;
    for (em_event_t ev; (ev = em_queue_dequeue(c->u)) != EM_EVENT_UNDEF; em_free(ev)) {
        struct pl_msg *m = em_event_pointer(ev);
        ck_assert_msg((uint64_t)(uintptr_t)m == m->orig, "outside a receive: the shared payload");
        int ok = 1;
        for (int i = 0; i < PL_BYTES; i++) ok &= m->data[i] == (uint8_t)(pattern(m->id, i) + 1);
        written += (uint64_t)ok;
        seen++;
    }
    ck_assert_uint_eq(seen, PL_N);
    ck_assert_msg(written == PL_N, "%llu of %d events came back with the receive's writes",
                  (unsigned long long)written, PL_N);
    ck_assert_msg(c->bad == 0, "%llu bad bytes or unpreloaded receives",
                  (unsigned long long)c->bad);
    /* the dispatcher's own preload reuses one buffer per core; the scheduler
     * core's rotates over sched_depth + 1 slots */
    uint64_t most = 0;
    for (int i = 0; i < em_core_count(); i++) most = c->naddr[i] > most ? c->naddr[i] : most;
    if (c->local) {
        if (et_sched_depth() > 1)
            ck_assert_msg(most > 1, "no core saw more than one preload buffer: the scheduler "
                                    "core did not preload");
        else if (!et_is_sched_core())
            ck_assert_uint_eq(most, 1);
        ck_assert_uint_le(most, (uint64_t)et_sched_depth() + 1);
    }
    et_end(c->eo);
    ck_assert_int_eq(em_queue_delete(c->u), EM_OK);
}

static void case_preload(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {
        .ctx_size = sizeof(struct pl_ctx), .setup = pl_setup, .done = pl_done, .finish = pl_finish};
    et_run(&ops);
}

ET_SC(case_preload)

void et_preload_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "preload", .core = case_preload, .cores = 2},
        {.name = "sc_preload", .core = case_preload_sc, .cores = 3},
        {.name = "sc4_preload", .core = case_preload_sc4, .cores = 5},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
