/*
 * event_group.c -- fork-join with an event group (our own program).
 *
 * Each round core 0 arms an event group for FORK events with one
 * notification to an atomic "join" queue, then sends the FORK events with
 * em_send_group to a parallel "work" queue. The work receives run on every
 * core; each marks its event's slot and counts it. EM sends the notification
 * after the last of the FORK events is done; the join receive checks that all
 * FORK arrived, each once, and starts the next round. After ROUNDS rounds the
 * last line is "event_group: ok: 8 rounds of 64 events joined" (exit 0), or
 * "event_group: FAILED: ..." (exit 1).
 */
#include "launch.h"

#include <event_machine.h>
#include <event_machine/platform/env/environment.h>

#include <stdint.h>
#include <stdio.h>

#define FORK 64
#define ROUNDS 8
#define SHM "event_group_shm"

struct eg_shm {
    em_eo_t eo;
    em_queue_t q_work, q_join;
    em_event_group_t group;
    uint32_t round;
    env_atomic64_t arrived;
    env_atomic64_t mark[FORK]; /* receives of event i this round */
    env_atomic64_t per_core[EM_MAX_CORES];
    int cores;
};

struct work {
    uint32_t round, index;
};

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

static void fail(const char *what, uint32_t a, uint32_t b)
{
    printf("event_group: FAILED: %s (%u, %u)\n", what, a, b);
    launch_stop(1);
}

/* Arm the group and fork FORK work events; the notification is `notif`. */
static void fork_round(struct eg_shm *s, em_event_t notif)
{
    env_atomic64_set(&s->arrived, 0);
    for (int i = 0; i < FORK; i++) env_atomic64_set(&s->mark[i], 0);
    em_notif_t n = {.event = notif, .queue = s->q_join, .egroup = EM_EVENT_GROUP_UNDEF};
    em_status_t st = em_event_group_apply(s->group, FORK, 1, &n);
    if (st != EM_OK) {
        em_free(notif);
        fail("em_event_group_apply: status, round", st, s->round);
        return;
    }
    for (uint32_t i = 0; i < FORK; i++) {
        em_event_t ev = em_alloc(sizeof(struct work), EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
        if (ev == EM_EVENT_UNDEF) {
            fail("em_alloc: event, round", i, s->round);
            return;
        }
        struct work *w = em_event_pointer(ev);
        w->round = s->round;
        w->index = i;
        if ((st = em_send_group(ev, s->q_work, s->group)) != EM_OK) {
            em_free(ev);
            fail("em_send_group: status, event", st, i);
            return;
        }
    }
}

static void receive(void *ctx, em_event_t event, em_event_type_t type, em_queue_t queue,
                    void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct eg_shm *s = ctx;
    if (queue == s->q_work) {
        struct work *w = em_event_pointer(event);
        if (w->round != s->round || w->index >= FORK)
            fail("a work event of another round: its round, this round", w->round, s->round);
        else
            env_atomic64_inc(&s->mark[w->index]);
        env_atomic64_inc(&s->arrived);
        env_atomic64_inc(&s->per_core[em_core_id()]);
        em_free(event);
        return;
    }
    /* The join: the notification, after the last work event's receive. */
    uint64_t n = env_atomic64_get(&s->arrived);
    if (n != FORK) {
        em_free(event);
        fail("notification before all events: arrived, expected", (uint32_t)n, FORK);
        return;
    }
    for (uint32_t i = 0; i < FORK; i++)
        if (env_atomic64_get(&s->mark[i]) != 1) {
            em_free(event);
            fail("event received not exactly once: index, times", i,
                 (uint32_t)env_atomic64_get(&s->mark[i]));
            return;
        }
    if (++s->round == ROUNDS) {
        em_free(event);
        printf("event_group: ok: %d rounds of %d events joined;", ROUNDS, FORK);
        for (int c = 0; c < s->cores; c++)
            printf(" core %d: %llu", c, (unsigned long long)env_atomic64_get(&s->per_core[c]));
        printf("\n");
        launch_stop(0);
        return;
    }
    fork_round(s, event); /* the notification event serves again */
}

static void test_init(const struct launch_conf *conf)
{
    (void)conf;
    if (em_core_id() == 0 && !env_shared_reserve(SHM, sizeof(struct eg_shm)))
        printf("event_group: error: env_shared_reserve(%s)\n", SHM);
}

static void test_start(const struct launch_conf *conf)
{
    struct eg_shm *s = env_shared_lookup(SHM);
    if (!s) {
        launch_stop(1);
        return;
    }
    s->cores = conf->cores;
    printf("event_group: %d cores, %d rounds of %d events\n", conf->cores, ROUNDS, FORK);
    s->q_work = em_queue_create("work", EM_QUEUE_TYPE_PARALLEL, EM_QUEUE_PRIO_NORMAL,
                                EM_QUEUE_GROUP_DEFAULT, NULL);
    s->q_join = em_queue_create("join", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL,
                                EM_QUEUE_GROUP_DEFAULT, NULL);
    s->group = em_event_group_create();
    s->eo = em_eo_create("event_group", eo_start, NULL, eo_stop, NULL, receive, s);
    em_status_t r = EM_OK, st = EM_ERR;
    if (s->q_work != EM_QUEUE_UNDEF && s->q_join != EM_QUEUE_UNDEF &&
        s->group != EM_EVENT_GROUP_UNDEF && s->eo != EM_EO_UNDEF &&
        (st = em_eo_add_queue_sync(s->eo, s->q_work)) == EM_OK &&
        (st = em_eo_add_queue_sync(s->eo, s->q_join)) == EM_OK)
        st = em_eo_start_sync(s->eo, &r, NULL);
    if (st != EM_OK || r != EM_OK) {
        printf("event_group: error: creating and starting the EO: 0x%x (start 0x%x)\n", st, r);
        launch_stop(1);
        return;
    }
    em_event_t notif = em_alloc(sizeof(uint32_t), EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
    if (notif == EM_EVENT_UNDEF) {
        fail("em_alloc of the notification", 0, 0);
        return;
    }
    fork_round(s, notif);
}

static void test_stop(const struct launch_conf *conf)
{
    (void)conf;
    struct eg_shm *s = env_shared_lookup(SHM);
    if (!s || s->eo == EM_EO_UNDEF) return;
    em_status_t st = em_eo_stop_sync(s->eo);
    if (st == EM_OK) st = em_eo_delete(s->eo);
    if (st == EM_OK && s->group != EM_EVENT_GROUP_UNDEF) st = em_event_group_delete(s->group);
    if (st != EM_OK) {
        printf("event_group: error: stopping: 0x%x\n", st);
        launch_stop(1);
    }
}

static void test_term(const struct launch_conf *conf)
{
    (void)conf;
    void *s = env_shared_lookup(SHM);
    if (em_core_id() == 0 && s) env_shared_free(s);
}

static const struct launch_prog prog = {
    "event_group", "fork-join: 64 events in an event group, joined by its notification",
    test_init,     test_start,
    test_stop,     test_term,
};

int main(int argc, char **argv)
{
    return launch(argc, argv, &prog);
}
