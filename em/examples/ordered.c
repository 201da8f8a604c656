/*
 * ordered.c -- a parallel-ordered queue feeding an atomic one keeps order
 * (our own program).
 *
 * Core 0 sends EVENTS events numbered 0.. to a parallel-ordered queue. Its
 * receive runs on every core at once, spends a time that depends on the
 * number (so events overtake each other there) and forwards the event to an
 * atomic queue. EM restores the order downstream: the atomic receive checks
 * that the numbers arrive 0, 1, 2, ... The last line is "ordered: ok: 1000
 * events in order, N on core 0 .." or "ordered: FAILED: ..." with exit 1.
 */
#include "launch.h"

#include <event_machine.h>
#include <event_machine/platform/env/environment.h>

#include <stdint.h>
#include <stdio.h>

#define EVENTS 1000
#define SHM "ordered_shm"

struct ordered_shm {
    em_eo_t eo;
    em_queue_t q_ordered, q_atomic;
    uint32_t expect, misordered;           /* atomic receive only */
    uint32_t first_bad, first_bad_seen;    /* atomic receive only */
    env_atomic64_t per_core[EM_MAX_CORES]; /* ordered receives per core */
    int cores;
};

struct item {
    uint32_t seq;
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

/* Work that differs per event, so later events can finish first. */
static uint32_t spin(uint32_t seq)
{
    volatile uint32_t x = seq;
    for (uint32_t i = 0; i < (seq * 2654435761u) % 2000u; i++) x = x * 1103515245u + 12345u;
    return x;
}

static void finish(struct ordered_shm *s)
{
    if (s->misordered)
        printf("ordered: FAILED: %u of %d events out of order (first: %u where %u was due)\n",
               s->misordered, EVENTS, s->first_bad_seen, s->first_bad);
    else {
        printf("ordered: ok: %d events in order;", EVENTS);
        for (int c = 0; c < s->cores; c++)
            printf(" core %d: %llu", c, (unsigned long long)env_atomic64_get(&s->per_core[c]));
        printf("\n");
    }
    launch_stop(s->misordered != 0);
}

static void receive(void *ctx, em_event_t event, em_event_type_t type, em_queue_t queue,
                    void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct ordered_shm *s = ctx;
    struct item *it = em_event_pointer(event);
    if (queue == s->q_ordered) {
        (void)spin(it->seq);
        env_atomic64_inc(&s->per_core[em_core_id()]);
        em_status_t st = em_send(event, s->q_atomic);
        if (st != EM_OK) {
            printf("ordered: error: em_send to the atomic queue: 0x%x\n", st);
            em_free(event);
            launch_stop(1);
        }
        return;
    }
    if (it->seq != s->expect && s->misordered++ == 0) {
        s->first_bad = s->expect;
        s->first_bad_seen = it->seq;
    }
    s->expect++;
    em_free(event);
    if (s->expect == EVENTS) finish(s);
}

static void test_init(const struct launch_conf *conf)
{
    (void)conf;
    if (em_core_id() == 0 && !env_shared_reserve(SHM, sizeof(struct ordered_shm)))
        printf("ordered: error: env_shared_reserve(%s)\n", SHM);
}

static void test_start(const struct launch_conf *conf)
{
    struct ordered_shm *s = env_shared_lookup(SHM);
    if (!s) {
        launch_stop(1);
        return;
    }
    s->cores = conf->cores;
    printf("ordered: %d cores, %d events: parallel-ordered -> atomic\n", conf->cores, EVENTS);
    s->q_ordered = em_queue_create("ordered", EM_QUEUE_TYPE_PARALLEL_ORDERED, EM_QUEUE_PRIO_NORMAL,
                                   EM_QUEUE_GROUP_DEFAULT, NULL);
    s->q_atomic = em_queue_create("atomic", EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL,
                                  EM_QUEUE_GROUP_DEFAULT, NULL);
    s->eo = em_eo_create("ordered", eo_start, NULL, eo_stop, NULL, receive, s);
    em_status_t r = EM_OK, st = EM_ERR;
    if (s->q_ordered != EM_QUEUE_UNDEF && s->q_atomic != EM_QUEUE_UNDEF && s->eo != EM_EO_UNDEF &&
        (st = em_eo_add_queue_sync(s->eo, s->q_ordered)) == EM_OK &&
        (st = em_eo_add_queue_sync(s->eo, s->q_atomic)) == EM_OK)
        st = em_eo_start_sync(s->eo, &r, NULL);
    if (st != EM_OK || r != EM_OK) {
        printf("ordered: error: creating and starting the EO: 0x%x (start 0x%x)\n", st, r);
        launch_stop(1);
        return;
    }
    for (uint32_t i = 0; i < EVENTS; i++) {
        em_event_t ev = em_alloc(sizeof(struct item), EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
        if (ev == EM_EVENT_UNDEF) {
            printf("ordered: error: em_alloc of event %u\n", i);
            launch_stop(1);
            return;
        }
        ((struct item *)em_event_pointer(ev))->seq = i;
        if ((st = em_send(ev, s->q_ordered)) != EM_OK) {
            printf("ordered: error: em_send of event %u: 0x%x\n", i, st);
            em_free(ev);
            launch_stop(1);
            return;
        }
    }
}

static void test_stop(const struct launch_conf *conf)
{
    (void)conf;
    struct ordered_shm *s = env_shared_lookup(SHM);
    if (!s || s->eo == EM_EO_UNDEF) return;
    em_status_t st = em_eo_stop_sync(s->eo);
    if (st == EM_OK) st = em_eo_delete(s->eo);
    if (st != EM_OK) {
        printf("ordered: error: stopping the EO: 0x%x\n", st);
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
    "ordered", "parallel-ordered into atomic: sequence numbers checked",
    test_init, test_start,
    test_stop, test_term,
};

int main(int argc, char **argv)
{
    return launch(argc, argv, &prog);
}
