/* threads.c -- threads of a core as MCAPI nodes of their own. */
#include "mt.h"

#include <stdlib.h>

#define RING 3
#define RING_N 50
#define RING_NODE 10 /* thread t of core c is node RING_NODE + c * RING + t */

struct ring {
    int t;
    mcapi_node_t base;    /* node of thread 0 */
    mcapi_status_t claim; /* what claiming the main thread's node gave */
    int done;
};

/* Thread t: node RING_NODE + t, sends to the next thread's node and
 * receives from the previous one. */
static void ring_thread(void *arg)
{
    struct ring *r = arg;
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, (mcapi_node_t)plat_core(), NULL, mt_params(), &info, &st);
    r->claim = st;
    mt_init(r->base + (mcapi_node_t)r->t);
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), r->base + (mcapi_node_t)r->t);
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_endpoint_t next = mt_get(r->base + (mcapi_node_t)((r->t + 1) % RING), 1);
    for (uint32_t i = 0; i < RING_N; i++) {
        uint32_t m[2] = {(uint32_t)r->t, i};
        st = 0;
        mcapi_msg_send(ep, next, m, sizeof m, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    int prev = (r->t + RING - 1) % RING;
    for (uint32_t i = 0; i < RING_N; i++) {
        uint32_t m[2];
        size_t got;
        st = 0;
        mcapi_msg_recv(ep, m, sizeof m, &got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(m[0], (uint32_t)prev);
        ck_assert_uint_eq(m[1], i);
    }
    /* Everyone has received everything before anyone leaves. */
    r->done = 1;
    mcapi_endpoint_t main_ep = mt_get((mcapi_node_t)plat_core(), 1);
    st = 0;
    mcapi_msg_send(ep, main_ep, &r->t, sizeof r->t, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    uint32_t go;
    size_t got;
    st = 0;
    mcapi_msg_recv(ep, &go, sizeof go, &got, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* Threads of one core are nodes of their own; one cannot claim the node
 * its core's main thread already is. */
static void case_ring(void *arg)
{
    (void)arg;
    mt_init((mcapi_node_t)plat_core());
    mcapi_endpoint_t ep = mt_ep(1);
    struct ring r[RING];
    plat_thread *th[RING];
    for (int t = 0; t < RING; t++) {
        r[t] = (struct ring){.t = t, .base = (mcapi_node_t)(RING_NODE + plat_core() * RING)};
        th[t] = plat_thread_spawn(ring_thread, &r[t], "node");
        ck_assert_ptr_nonnull(th[t]);
    }
    for (int t = 0; t < RING; t++) {
        int who;
        size_t got;
        mcapi_status_t st = 0;
        mcapi_msg_recv(ep, &who, sizeof who, &got, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    for (int t = 0; t < RING; t++) {
        mcapi_status_t st = 0;
        mcapi_msg_send(ep, mt_get(r[t].base + (mcapi_node_t)t, 1), &t, sizeof t, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    for (int t = 0; t < RING; t++) plat_thread_join(th[t]);
    for (int t = 0; t < RING; t++) {
        MT_EQ(r[t].claim, MCAPI_ERR_NODE_INITIALIZED);
        ck_assert_int_eq(r[t].done, 1);
    }
    /* The main thread is still its node. */
    mcapi_status_t st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), (unsigned)plat_core());
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

#define M2O_THREADS 2 /* extra sender threads per core */
#define M2O_N 150     /* messages per sender */
#define M2O_SENDERS(cores) ((cores) * (M2O_THREADS + 1) - 1)

static mcapi_node_t m2o_node(int core, int t)
{
    return t < 0 ? (mcapi_node_t)core : (mcapi_node_t)(20 + core * M2O_THREADS + t);
}

struct sender {
    mcapi_node_t node;
};

static void m2o_send(mcapi_node_t node)
{
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_endpoint_t rx = mt_get(0, 1);
    for (uint32_t i = 0; i < M2O_N; i++) {
        uint32_t m[2] = {node, i};
        mcapi_status_t st = 0;
        mcapi_msg_send(ep, rx, m, sizeof m, i % (MCAPI_MAX_PRIORITY + 1), &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "node %u message %u", node, i);
    }
}

static void m2o_thread(void *arg)
{
    const struct sender *s = arg;
    mt_init(s->node);
    m2o_send(s->node);
    /* Stay a node until the receiver has everything (finalise deletes
     * the endpoint, not what it sent, but keep the test about delivery). */
    mcapi_status_t st = 0;
    mcapi_endpoint_get(MT_DOMAIN, 0, 2, MT_WAIT_MS, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* Many nodes on four cores (main threads and spawned threads) send to one
 * endpoint of node 0: every message arrives exactly once. Priorities mix,
 * so order is only checked within a priority. */
static void case_many_to_one(void *arg)
{
    (void)arg;
    int me = plat_core(), cores = plat_cores();
    mt_init((mcapi_node_t)me);
    struct sender s[M2O_THREADS];
    plat_thread *th[M2O_THREADS];
    for (int t = 0; t < M2O_THREADS; t++) {
        s[t].node = m2o_node(me, t);
        th[t] = plat_thread_spawn(m2o_thread, &s[t], "sender");
        ck_assert_ptr_nonnull(th[t]);
    }
    if (me == 0) {
        mcapi_endpoint_t rx = mt_ep(1);
        int total = M2O_SENDERS(cores) * M2O_N;
        /* next[node][priority]: the next sequence number expected */
        uint32_t(*next)[MCAPI_MAX_PRIORITY + 1] = calloc(64, sizeof *next);
        int *count = calloc(64, sizeof *count);
        ck_assert_ptr_nonnull(next);
        ck_assert_ptr_nonnull(count);
        for (int k = 0; k < total; k++) {
            uint32_t m[2];
            size_t got;
            mcapi_status_t st = 0;
            mcapi_msg_recv(rx, m, sizeof m, &got, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "message %d of %d", k, total);
            ck_assert_uint_eq(got, sizeof m);
            ck_assert_uint_lt(m[0], 64);
            ck_assert_uint_ne(m[0], 0);
            unsigned p = m[1] % (MCAPI_MAX_PRIORITY + 1);
            ck_assert_msg(m[1] >= next[m[0]][p], "node %u: message %u twice or out of order", m[0],
                          m[1]);
            next[m[0]][p] = m[1] + 1;
            count[m[0]]++;
        }
        for (int c = 0; c < cores; c++)
            for (int t = -1; t < M2O_THREADS; t++) {
                mcapi_node_t n = m2o_node(c, t);
                if (n == 0) continue;
                ck_assert_msg(count[n] == M2O_N, "node %u: %d messages, expected %d", n, count[n],
                              M2O_N);
            }
        mcapi_status_t st = 0;
        ck_assert_uint_eq(mcapi_msg_available(rx, &st), 0);
        free(next);
        free(count);
        mt_ep(2); /* everything arrived */
    } else {
        m2o_send((mcapi_node_t)me);
    }
    for (int t = 0; t < M2O_THREADS; t++) plat_thread_join(th[t]);
    harness_barrier();
    mt_fini();
}

#define CH_N 50
#define CH_NODE 30

/* The spawned thread's side: node CH_NODE; packets come in from the main
 * thread's node, scalars go out to it. */
static void channel_thread(void *arg)
{
    (void)arg;
    mt_init(CH_NODE);
    mcapi_endpoint_t tx = mt_ep(1), rx = mt_ep(2);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_sclchan_connect_i(tx, mt_get((mcapi_node_t)plat_core(), 1), &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mcapi_pktchan_recv_hndl_t rh = mt_pkt_open_recv(rx);
    mcapi_sclchan_send_hndl_t sh = mt_scl_open_send(tx);
    for (int i = 0; i < CH_N; i++) {
        void *p;
        size_t n;
        st = 0;
        mcapi_pktchan_recv(rh, &p, &n, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
        ck_assert_uint_eq(n, 100u + (unsigned)i);
        ck_assert_uint_eq(mt_bad(p, n, (unsigned)i), n);
        mcapi_pktchan_release(p, &st);
        st = 0;
        mcapi_sclchan_send_uint32(sh, (uint32_t)i * 7u, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "scalar %d", i);
    }
    mt_pkt_close_recv(rh);
    mt_scl_close_send(sh);
    mt_fini();
}

/* Channels between two nodes that are threads of one core. */
static void case_channels(void *arg)
{
    (void)arg;
    mt_init((mcapi_node_t)plat_core());
    mcapi_endpoint_t rx = mt_ep(1), tx = mt_ep(2);
    plat_thread *th = plat_thread_spawn(channel_thread, NULL, "node");
    ck_assert_ptr_nonnull(th);
    mcapi_request_t r;
    mcapi_status_t st = 0;
    mcapi_pktchan_connect_i(tx, mt_get(CH_NODE, 2), &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh = mt_pkt_open_send(tx);
    mcapi_sclchan_recv_hndl_t rh = mt_scl_open_recv(rx);
    uint8_t buf[100 + CH_N];
    for (int i = 0; i < CH_N; i++) {
        mt_fill(buf, 100u + (unsigned)i, (unsigned)i);
        st = 0;
        mcapi_pktchan_send(sh, buf, 100u + (unsigned)i, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
        st = 0;
        ck_assert_uint_eq(mcapi_sclchan_recv_uint32(rh, &st), (uint32_t)i * 7u);
        MT_EQ_AT(st, MCAPI_SUCCESS, "scalar %d", i);
    }
    plat_thread_join(th);
    mt_pkt_close_send(sh);
    mt_scl_close_recv(rh);
    mt_fini();
}

#define ALL_PER_CORE (MCA_MAX_NODES / 4) /* nodes per core: main thread + threads */
#define ALL_N 5                          /* messages per node */

/* Node n sends to node n + ALL_PER_CORE (another core), receives from
 * n - ALL_PER_CORE; the main thread waits for everyone to be done before
 * anyone leaves (so no endpoint disappears under a sender). */
static void all_node(mcapi_node_t n)
{
    mcapi_endpoint_t ep = mt_ep(1);
    mcapi_endpoint_t next = mt_get((n + ALL_PER_CORE) % MCA_MAX_NODES, 1);
    mcapi_node_t prev = (n + MCA_MAX_NODES - ALL_PER_CORE) % MCA_MAX_NODES;
    for (uint32_t i = 0; i < ALL_N; i++) {
        uint32_t m[2] = {n, i};
        mcapi_status_t st = 0;
        mcapi_msg_send(ep, next, m, sizeof m, 1, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "node %u message %u", n, i);
    }
    for (uint32_t i = 0; i < ALL_N; i++) {
        uint32_t m[2];
        size_t got;
        mcapi_status_t st = 0;
        mcapi_msg_recv(ep, m, sizeof m, &got, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "node %u message %u", n, i);
        ck_assert_uint_eq(m[0], prev);
        ck_assert_uint_eq(m[1], i);
    }
}

static void all_thread(void *arg)
{
    mcapi_node_t n = (mcapi_node_t)(uintptr_t)arg;
    mt_init(n);
    all_node(n);
    plat_fetch_add64(&harness_board()[0], 1);
    /* Leave only once everybody has everything. */
    mcapi_status_t st = 0;
    mcapi_endpoint_get(MT_DOMAIN, 0, 2, MT_WAIT_MS, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* Every node id of the domain at once (MCA_MAX_NODES), as the threads of
 * four cores, wakes and is woken across cores: ids at the top of the
 * range included. */
static void case_all_nodes(void *arg)
{
    (void)arg;
    int me = plat_core();
    mcapi_node_t base = (mcapi_node_t)(me * ALL_PER_CORE);
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, base, NULL, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    plat_thread *th[ALL_PER_CORE];
    for (int t = 1; t < ALL_PER_CORE; t++) {
        th[t] = plat_thread_spawn(all_thread, (void *)(uintptr_t)(base + (mcapi_node_t)t), "n");
        ck_assert_ptr_nonnull(th[t]);
    }
    all_node(base);
    plat_fetch_add64(&harness_board()[0], 1);
    if (me == 0) {
        /* All ids are taken once every node has done its exchange. */
        uint64_t done, t0 = plat_now_ns();
        while ((done = mt_take(0)) < MCA_MAX_NODES) {
            ck_assert_msg(plat_now_ns() - t0 < MT_WAIT_MS * MT_MS, "%llu nodes done",
                          (unsigned long long)done);
            plat_poll64(&harness_board()[0], done, MT_MS);
        }
        mcapi_node_attr_type_t type;
        for (mcapi_node_t n = 0; n < MCA_MAX_NODES; n++) {
            st = 0;
            mcapi_node_get_attribute(MT_DOMAIN, n, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "node %u", n);
        }
        mt_ep(2);
    }
    for (int t = 1; t < ALL_PER_CORE; t++) plat_thread_join(th[t]);
    harness_barrier();
    mt_fini();
}

void mt_threads(void)
{
    static const struct harness_case cases[] = {
        {.name = "thr_ring", .core = case_ring, .cores = 2},
        {.name = "thr_many_to_one", .core = case_many_to_one, .cores = 4},
        {.name = "thr_channels", .core = case_channels, .cores = 1},
        {.name = "thr_all_nodes", .core = case_all_nodes, .cores = 4},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
