/*
 * hello.c -- two EOs play ping-pong with one event (our own program, after
 * the behaviour em-odp documents for its hello example).
 *
 * EO "hello" and EO "world" each own an atomic queue. Core 0 sends one event
 * to "hello"; each receive prints who got it on which core, counts it and
 * sends it to the other EO. After ROUNDS round trips the run stops; the last
 * line is "hello: ok: 20 receives, 10 rounds". Exit status 1 on any error.
 */
#include "launch.h"

#include <event_machine.h>
#include <event_machine/platform/env/environment.h>

#include <stdint.h>
#include <stdio.h>

#define ROUNDS 10
#define SHM "hello_shm"

struct hello_eo {
    em_eo_t eo;
    em_queue_t queue;
    const char *name;
    struct hello_eo *peer;
};

struct hello_shm {
    struct hello_eo eo[2];
};

struct ping {
    uint32_t seq; /* receives so far */
};

static em_status_t eo_start(void *ctx, em_eo_t eo, const em_eo_conf_t *conf)
{
    (void)conf;
    const struct hello_eo *h = ctx;
    printf("%s: EO %s started on core %d\n", h->name, h->name, em_core_id());
    return eo == h->eo ? EM_OK : EM_ERR_BAD_ID;
}

static em_status_t eo_stop(void *ctx, em_eo_t eo)
{
    (void)ctx;
    return em_eo_remove_queue_all_sync(eo, 1);
}

static void receive(void *ctx, em_event_t event, em_event_type_t type, em_queue_t queue,
                    void *q_ctx)
{
    (void)type;
    (void)q_ctx;
    struct hello_eo *h = ctx;
    struct ping *p = em_event_pointer(event);
    if (queue != h->queue) {
        printf("hello: error: EO %s received on a queue not its own\n", h->name);
        em_free(event);
        launch_stop(1);
        return;
    }
    p->seq++;
    printf("Hello world from EO %s! I'm on core %d. Event seq is %u.\n", h->name, em_core_id(),
           p->seq);
    if (p->seq == 2 * ROUNDS) {
        printf("hello: ok: %u receives, %d rounds\n", p->seq, ROUNDS);
        em_free(event);
        launch_stop(0);
        return;
    }
    em_status_t s = em_send(event, h->peer->queue);
    if (s != EM_OK) {
        printf("hello: error: em_send to EO %s: 0x%x\n", h->peer->name, s);
        em_free(event);
        launch_stop(1);
    }
}

static void test_init(const struct launch_conf *conf)
{
    (void)conf;
    if (em_core_id() == 0 && !env_shared_reserve(SHM, sizeof(struct hello_shm)))
        printf("hello: error: env_shared_reserve(%s)\n", SHM);
}

static int make_eo(struct hello_eo *h, const char *name, struct hello_eo *peer)
{
    h->name = name;
    h->peer = peer;
    h->queue = em_queue_create(name, EM_QUEUE_TYPE_ATOMIC, EM_QUEUE_PRIO_NORMAL,
                               EM_QUEUE_GROUP_DEFAULT, NULL);
    h->eo = em_eo_create(name, eo_start, NULL, eo_stop, NULL, receive, h);
    if (h->queue == EM_QUEUE_UNDEF || h->eo == EM_EO_UNDEF) {
        printf("hello: error: em_queue_create / em_eo_create(%s)\n", name);
        return -1;
    }
    em_status_t s = em_eo_add_queue_sync(h->eo, h->queue), r = EM_OK;
    if (s == EM_OK) s = em_eo_start_sync(h->eo, &r, NULL);
    if (s != EM_OK || r != EM_OK) {
        printf("hello: error: starting EO %s: 0x%x (start: 0x%x)\n", name, s, r);
        return -1;
    }
    return 0;
}

static void test_start(const struct launch_conf *conf)
{
    struct hello_shm *shm = env_shared_lookup(SHM);
    if (!shm) {
        launch_stop(1);
        return;
    }
    printf("hello: %d cores, %d rounds\n", conf->cores, ROUNDS);
    if (make_eo(&shm->eo[0], "hello", &shm->eo[1]) != 0 ||
        make_eo(&shm->eo[1], "world", &shm->eo[0]) != 0) {
        launch_stop(1);
        return;
    }
    em_event_t ev = em_alloc(sizeof(struct ping), EM_EVENT_TYPE_SW, EM_POOL_DEFAULT);
    if (ev == EM_EVENT_UNDEF) {
        printf("hello: error: em_alloc\n");
        launch_stop(1);
        return;
    }
    ((struct ping *)em_event_pointer(ev))->seq = 0;
    if (em_send(ev, shm->eo[0].queue) != EM_OK) {
        printf("hello: error: first em_send\n");
        em_free(ev);
        launch_stop(1);
    }
}

static void test_stop(const struct launch_conf *conf)
{
    (void)conf;
    struct hello_shm *shm = env_shared_lookup(SHM);
    for (int i = 0; shm && i < 2; i++) {
        struct hello_eo *h = &shm->eo[i];
        if (h->eo == EM_EO_UNDEF) continue;
        em_status_t s = em_eo_stop_sync(h->eo);
        if (s == EM_OK) s = em_eo_delete(h->eo);
        if (s != EM_OK) {
            printf("hello: error: stopping EO %s: 0x%x\n", h->name, s);
            launch_stop(1);
        }
    }
}

static void test_term(const struct launch_conf *conf)
{
    (void)conf;
    void *shm = env_shared_lookup(SHM);
    if (em_core_id() == 0 && shm) env_shared_free(shm);
}

static const struct launch_prog prog = {
    "hello",   "two EOs ping-pong one event for 10 rounds", test_init, test_start, test_stop,
    test_term,
};

int main(int argc, char **argv)
{
    return launch(argc, argv, &prog);
}
