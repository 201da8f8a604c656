/* egrp.c -- event groups: notification after exactly N events, several
 * notifications and a second apply, abort, increment, the current group. */
#include "et.h"

#define EG_N 16
#define EG_INC 7
#define EG_SETTLE 40 /* done() polls after the last notification: a late duplicate shows */
#define F_DATA 0
#define F_PLAIN 1
#define F_NOTIF 2 /* + notification index */

enum eg_mode { EG_COUNT, EG_MULTI, EG_ABORT, EG_INCREMENT };

struct eg_ctx {
    enum eg_mode mode;
    em_eo_t eo;
    em_queue_t dq, nq[2];
    em_event_group_t g;
    uint64_t round;     /* 1, 2: applies made */
    uint64_t expect;    /* data events of all rounds so far */
    uint64_t data_done; /* data receives that returned (counted just before) */
    uint64_t plain_done;
    uint64_t notifs, notif_q[2];
    uint64_t early, late, bad_current, not_ready, settle, aborted;
};

static void eg_data(struct eg_ctx *c, em_event_t ev, const struct et_msg *m)
{
    em_event_group_t cur = em_event_group_current();
    if (m->flow == F_PLAIN) {
        if (cur != EM_EVENT_GROUP_UNDEF) plat_fetch_add64(&c->bad_current, 1);
        em_free(ev);
        plat_fetch_add64(&c->plain_done, 1);
        return;
    }
    if (cur != c->g) plat_fetch_add64(&c->bad_current, 1);
    /* the notification of this round must wait for this receive to return */
    if (c->mode != EG_MULTI && plat_load64(&c->notifs) > 0) plat_fetch_add64(&c->early, 1);
    if (c->mode == EG_INCREMENT && m->seq == 0) {
        em_status_t st = em_event_group_increment(EG_INC);
        ck_assert_msg(st == EM_OK, "em_event_group_increment(%d): %" PRI_STAT, EG_INC, st);
        for (uint64_t s = 1; s <= EG_INC; s++) {
            st = em_send_group(et_alloc(F_DATA, s, 0, s), c->dq, em_event_group_current());
            ck_assert_msg(st == EM_OK, "em_send_group in the group's receive: %" PRI_STAT, st);
        }
    }
    et_spin(4);
    em_free(ev);
    plat_fetch_add64(&c->data_done, 1);
}

static void eg_receive(void *eo_ctx, em_event_t ev, em_event_type_t type, em_queue_t queue,
                       void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct eg_ctx *c = eo_ctx;
    struct et_msg *m = et_msg(ev);
    if (queue == c->dq) {
        eg_data(c, ev, m);
        return;
    }
    /* a notification: every data event of the round has been received */
    if (plat_load64(&c->data_done) != plat_load64(&c->expect)) plat_fetch_add64(&c->late, 1);
    if (!em_event_group_is_ready(c->g)) plat_fetch_add64(&c->not_ready, 1);
    if (em_event_group_current() != EM_EVENT_GROUP_UNDEF) plat_fetch_add64(&c->bad_current, 1);
    plat_fetch_add64(&c->notif_q[queue == c->nq[1]], 1);
    em_free(ev);
    plat_fetch_add64(&c->notifs, 1);
}

static void eg_apply(struct eg_ctx *c, int count, int num_notif)
{
    ck_assert(em_event_group_is_ready(c->g));
    em_notif_t n[2];
    for (int i = 0; i < num_notif; i++) {
        n[i].event = et_alloc(F_NOTIF + (uint64_t)i, plat_load64(&c->round), 0, 0);
        n[i].queue = c->nq[i];
        n[i].egroup = EM_EVENT_GROUP_UNDEF;
    }
    plat_store64(&c->round, plat_load64(&c->round) + 1);
    em_status_t st = em_event_group_apply(c->g, count, num_notif, n);
    ck_assert_msg(st == EM_OK, "em_event_group_apply(%d, %d notifs): %" PRI_STAT, count, num_notif,
                  st);
    ck_assert(!em_event_group_is_ready(c->g));
    /* a second apply while counting is refused */
    ck_assert_uint_eq(em_event_group_apply(c->g, count, 0, NULL), EM_ERR_BAD_STATE);
}

static void eg_send(struct eg_ctx *c, uint64_t n)
{
    plat_store64(&c->expect, plat_load64(&c->expect) + n);
    for (uint64_t s = 0; s < n; s++) {
        em_status_t st = em_send_group(et_alloc(F_DATA, s, 0, s), c->dq, c->g);
        ck_assert_msg(st == EM_OK, "em_send_group(seq %llu): %" PRI_STAT, (unsigned long long)s,
                      st);
    }
}

static void eg_setup(struct eg_ctx *c, enum eg_mode mode)
{
    c->mode = mode;
    c->eo = et_eo("egrp", eg_receive, c);
    c->dq = et_queue("data", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    c->nq[0] = et_queue("n0", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    c->nq[1] = et_queue("n1", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL, EM_QUEUE_GROUP_DEFAULT);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(em_eo_add_queue_sync(c->eo, i ? c->nq[i - 1] : c->dq), EM_OK);
    et_start(c->eo);
    c->g = em_event_group_create();
    ck_assert_msg(c->g != EM_EVENT_GROUP_UNDEF, "em_event_group_create: EM_EVENT_GROUP_UNDEF");
    ck_assert(em_event_group_is_ready(c->g));
    et_send(c->dq, F_PLAIN, 0, 0, 0); /* outside any group */
    switch (mode) {
    case EG_COUNT:
        eg_apply(c, EG_N, 1);
        eg_send(c, EG_N);
        break;
    case EG_MULTI:
        eg_apply(c, EG_N, 2);
        eg_send(c, EG_N);
        break;
    case EG_ABORT:
        eg_apply(c, EG_N, 1);
        eg_send(c, EG_N / 2); /* never reaches zero */
        break;
    case EG_INCREMENT:
        eg_apply(c, 1, 1);
        eg_send(c, 1);
        plat_store64(&c->expect, 1 + EG_INC);
        break;
    }
}

static void eg_setup_count(void *ctx)
{
    eg_setup(ctx, EG_COUNT);
}
static void eg_setup_multi(void *ctx)
{
    eg_setup(ctx, EG_MULTI);
}
static void eg_setup_abort(void *ctx)
{
    eg_setup(ctx, EG_ABORT);
}
static void eg_setup_increment(void *ctx)
{
    eg_setup(ctx, EG_INCREMENT);
}

/* Core 0 drives the later steps from here, between its dispatch rounds. */
static bool eg_done(void *ctx)
{
    struct eg_ctx *c = ctx;
    uint64_t notifs = plat_load64(&c->notifs);
    uint64_t want = c->mode == EG_MULTI ? 4 : c->mode == EG_ABORT ? 0 : 1;
    if (c->mode == EG_MULTI && c->round == 1 && notifs == 2) {
        eg_apply(c, EG_N, 2); /* the group is ready again: a second round */
        eg_send(c, EG_N);
        return false;
    }
    if (c->mode == EG_ABORT && !c->aborted) {
        if (plat_load64(&c->data_done) < EG_N / 2) return false;
        em_notif_t n[2];
        int k = em_event_group_get_notif(c->g, 2, n);
        ck_assert_int_eq(k, 1);
        ck_assert(n[0].queue == c->nq[0]);
        em_status_t st = em_event_group_abort(c->g);
        ck_assert_msg(st == EM_OK, "em_event_group_abort: %" PRI_STAT, st);
        ck_assert(em_event_group_is_ready(c->g));
        em_free(n[0].event); /* the notification was never sent: ours to free */
        c->aborted = 1;
        return false;
    }
    if (notifs < want || plat_load64(&c->plain_done) < 1) return false;
    return ++c->settle >= EG_SETTLE;
}

static void eg_finish(void *ctx)
{
    struct eg_ctx *c = ctx;
    et_end(c->eo);
    uint64_t want = c->mode == EG_MULTI ? 4 : c->mode == EG_ABORT ? 0 : 1;
    ck_assert_msg(c->notifs == want, "notifications: %llu, expected %llu",
                  (unsigned long long)c->notifs, (unsigned long long)want);
    if (c->mode == EG_MULTI) {
        ck_assert_uint_eq(c->notif_q[0], 2);
        ck_assert_uint_eq(c->notif_q[1], 2);
    }
    ck_assert_msg(c->early == 0, "a notification before the group's last receive returned: %llu",
                  (unsigned long long)c->early);
    ck_assert_msg(c->late == 0, "a notification with %llu of %llu data events done",
                  (unsigned long long)c->data_done, (unsigned long long)c->expect);
    ck_assert_msg(c->bad_current == 0, "em_event_group_current wrong in %llu receives",
                  (unsigned long long)c->bad_current);
    ck_assert_uint_eq(c->not_ready, 0);
    ck_assert_uint_eq(c->data_done, c->expect);
    ck_assert_uint_eq(c->plain_done, 1);
    ck_assert(em_event_group_is_ready(c->g));
    ck_assert_int_eq(em_event_group_delete(c->g), EM_OK);
}

#define EG_CASE(fn, setup_fn)                                                                      \
    static void fn(void *arg)                                                                      \
    {                                                                                              \
        (void)arg;                                                                                 \
        static const struct et_ops ops = {.ctx_size = sizeof(struct eg_ctx),                       \
                                          .setup = setup_fn,                                       \
                                          .done = eg_done,                                         \
                                          .finish = eg_finish,                                     \
                                          .errors = 1};                                            \
        et_run(&ops);                                                                              \
    }

/* Each case provokes one error on purpose: the second apply while counting. */
EG_CASE(case_egrp_count, eg_setup_count)
EG_CASE(case_egrp_abort, eg_setup_abort)
EG_CASE(case_egrp_increment, eg_setup_increment)

static void case_egrp_multi(void *arg)
{
    (void)arg;
    static const struct et_ops ops = {.ctx_size = sizeof(struct eg_ctx),
                                      .setup = eg_setup_multi,
                                      .done = eg_done,
                                      .finish = eg_finish,
                                      .errors = 2};
    et_run(&ops);
}

ET_SC(case_egrp_count)

void et_egrp_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "egrp_count", .core = case_egrp_count, .cores = 4},
        {.name = "sc_egrp_count", .core = case_egrp_count_sc, .cores = 5},
        {.name = "egrp_multi", .core = case_egrp_multi, .cores = 4},
        {.name = "egrp_abort", .core = case_egrp_abort, .cores = 4},
        {.name = "egrp_increment", .core = case_egrp_increment, .cores = 4},
    };
    harness_add_cases("em", cases, HARNESS_COUNT(cases));
}
