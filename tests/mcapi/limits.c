/* limits.c -- the domain-wide limits of mcapi_impl_spec.h, exactly. */
#include "mt.h"

#include <stdlib.h>

enum { PER_NODE = MCAPI_MAX_CHANNELS / 4 }; /* channels nodes 0..3 connect */

/* MCAPI_MAX_CHANNELS connected channels in the domain: nodes 0..3 each
 * connect PER_NODE channels to the next node (taking turns), then node 4's
 * packet and scalar connects fail; closing one channel makes room. */
static void case_channels(void *arg)
{
    (void)arg;
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    /* Ports 0..: receive ends (from node me-1); 100..: send ends. */
    int nrecv = me == 0 ? 0 : me == 4 ? PER_NODE + 2 : PER_NODE;
    int nsend = me == 4 ? 2 : PER_NODE;
    mcapi_endpoint_t rx[PER_NODE + 2], tx[PER_NODE];
    for (int i = 0; i < nrecv; i++) rx[i] = mt_ep((mcapi_port_t)i);
    for (int i = 0; i < nsend; i++) tx[i] = mt_ep((mcapi_port_t)(100 + i));
    harness_barrier();
    mcapi_status_t st;
    mcapi_request_t r;
    for (int turn = 0; turn < 4; turn++) {
        if (me == turn) {
            for (int i = 0; i < PER_NODE; i++) {
                st = 0;
                mcapi_pktchan_connect_i(tx[i], mt_get((mcapi_node_t)(me + 1), (mcapi_port_t)i), &r,
                                        &st);
                MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_SUCCESS, "channel %d", turn * PER_NODE + i);
            }
        }
        harness_barrier();
    }
    /* Free endpoints, but no channel left. */
    if (me == 4) {
        st = 0;
        mcapi_pktchan_connect_i(tx[0], rx[PER_NODE], &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_MEM_LIMIT);
        st = 0;
        mcapi_sclchan_connect_i(tx[1], rx[PER_NODE + 1], &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_MEM_LIMIT);
    }
    harness_barrier();
    /* Node 1 and node 0 close channel 0 (node 0 -> node 1). */
    if (me == 0) mt_pkt_close_send(mt_pkt_open_send(tx[0]));
    if (me == 1) mt_pkt_close_recv(mt_pkt_open_recv(rx[0]));
    harness_barrier();
    if (me == 4) {
        st = 0;
        mcapi_pktchan_connect_i(tx[0], rx[PER_NODE], &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_sclchan_connect_i(tx[1], rx[PER_NODE + 1], &r, &st);
        MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_MEM_LIMIT);
    }
    harness_barrier();
    mt_fini();
}

/* MCAPI_MAX_MSG_BUFFERS messages in flight in the domain, spread over
 * queues that are not full: the next send behaves as with a full queue. */
static void case_msg_buffers(void *arg)
{
    (void)arg;
    enum { QUEUES = MCAPI_MAX_MSG_BUFFERS / MCAPI_MAX_QUEUE_ELEMENTS };
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), spare = mt_ep(2), rx[QUEUES];
    mcapi_status_t st;
    int sent = 0;
    for (int q = 0; q < QUEUES; q++) {
        rx[q] = mt_ep((mcapi_port_t)(10 + q));
        /* One short of full, so only the pool can be what stops the next. */
        for (int k = 0; k < MCAPI_MAX_QUEUE_ELEMENTS - 1; k++, sent++) {
            st = 0;
            mcapi_msg_send(tx, rx[q], &sent, sizeof sent, 1, &st);
            MT_EQ_AT(st, MCAPI_SUCCESS, "message %d", sent);
        }
    }
    for (; sent < MCAPI_MAX_MSG_BUFFERS; sent++) {
        st = 0;
        mcapi_msg_send(tx, spare, &sent, sizeof sent, 1, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "message %d", sent);
    }
    mt_set_timeout(tx, MT_SHORT_MS);
    st = 0;
    mcapi_msg_send(tx, rx[0], &sent, sizeof sent, 1, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    mt_set_memtype(tx, MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    mt_set_memtype(rx[1], MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    st = 0;
    mcapi_msg_send(tx, rx[1], &sent, sizeof sent, 1, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    /* A received message frees its buffer. */
    int v = -1;
    size_t got;
    st = 0;
    mcapi_msg_recv(spare, &v, sizeof v, &got, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_send(tx, rx[1], &sent, sizeof sent, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_send(tx, rx[2], &sent, sizeof sent, 1, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(rx[0], &st), MCAPI_MAX_QUEUE_ELEMENTS - 1);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(rx[1], &st), MCAPI_MAX_QUEUE_ELEMENTS);
    mt_fini();
}

/* A pool's packets (pkt_buffers) held in the domain, received but not
 * released ones included: the next send waits (channels a, b), or fails
 * with FAIL_ON_MEM_LIMIT (channel c); a release makes room. */
static void case_pkt_buffers(void *arg)
{
    (void)arg;
    enum { HELD = 40, POOL = 64 }; /* a configured pool: pool.c has the default */
    const mcapi_endp_attr_memory_type_t fail =
        MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT;
    mt_init_pool(0, POOL, 0);
    mcapi_endpoint_t atx = mt_ep(1), btx = mt_ep(3), ctx = mt_ep(5), crx = mt_ep(6);
    mt_set_memtype(ctx, fail);
    mt_set_memtype(crx, fail);
    mcapi_pktchan_send_hndl_t ash, bsh, csh;
    mcapi_pktchan_recv_hndl_t arh, brh, crh;
    mt_pkt_local(atx, mt_ep(2), &ash, &arh);
    mt_pkt_local(btx, mt_ep(4), &bsh, &brh);
    mt_pkt_local(ctx, crx, &csh, &crh);
    void **held = calloc(HELD, sizeof *held);
    ck_assert_ptr_nonnull(held);
    mcapi_status_t st;
    size_t size;
    char b[16] = "packet";
    for (int i = 0; i < HELD; i++) {
        st = 0;
        mcapi_pktchan_send(ash, b, sizeof b, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
        st = 0;
        mcapi_pktchan_recv(arh, &held[i], &size, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
    }
    for (int i = HELD; i < POOL; i++) {
        st = 0;
        mcapi_pktchan_send(bsh, b, sizeof b, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "packet %d", i);
    }
    mt_set_timeout(atx, MT_SHORT_MS);
    mt_set_timeout(btx, MT_SHORT_MS);
    uint64_t t0 = plat_now_ns();
    st = 0;
    mcapi_pktchan_send(bsh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    ck_assert_msg(plat_now_ns() - t0 >= MT_SHORT_MS * MT_MS, "timed out after %.3f ms",
                  mt_ms_since(t0));
    /* Channels a and c have empty queues: the pool is what is full. */
    st = 0;
    mcapi_pktchan_send(ash, b, sizeof b, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    st = 0;
    mcapi_pktchan_send(csh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    mcapi_request_t r;
    st = 0;
    mcapi_pktchan_send_i(csh, b, sizeof b, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_MEM_LIMIT);
    st = 0;
    mcapi_pktchan_release(held[7], &st);
    MT_EQ(st, MCAPI_SUCCESS);
    held[7] = NULL;
    st = 0;
    mcapi_pktchan_send(csh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_pktchan_send(csh, b, sizeof b, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    st = 0;
    ck_assert_uint_eq(mcapi_pktchan_available(brh, &st), POOL - HELD);
    st = 0;
    ck_assert_uint_eq(mcapi_pktchan_available(crh, &st), 1);
    st = 0;
    ck_assert_uint_eq(mcapi_pktchan_available(arh, &st), 0);
    for (int i = 0; i < HELD; i++)
        if (held[i]) {
            st = 0;
            mcapi_pktchan_release(held[i], &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
    free(held);
    mt_fini();
}

/* Deleting endpoints gives back the buffers of the messages queued at
 * them: the whole pool is usable again (a leak would fail the sends, which
 * may not wait: FAIL_ON_MEM_LIMIT). */
static void case_reclaim_msg(void *arg)
{
    (void)arg;
    enum { QUEUES = MCAPI_MAX_MSG_BUFFERS / MCAPI_MAX_QUEUE_ELEMENTS };
    mt_init(0);
    mcapi_endpoint_t tx = mt_ep(1), rx[QUEUES];
    mt_set_memtype(tx, MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    mcapi_status_t st;
    for (int round = 0; round < 2; round++) {
        for (int q = 0; q < QUEUES; q++) {
            rx[q] = mt_ep((mcapi_port_t)(10 + q));
            for (int k = 0; k < MCAPI_MAX_QUEUE_ELEMENTS; k++) {
                st = 0;
                mcapi_msg_send(tx, rx[q], &k, sizeof k, 1, &st);
                MT_EQ_AT(st, MCAPI_SUCCESS, "round %d queue %d message %d", round, q, k);
            }
        }
        for (int q = 0; q < QUEUES; q++) {
            st = 0;
            mcapi_endpoint_delete(rx[q], &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
    }
    mt_fini();
}

/* A node that finalises gives back every packet buffer it holds, received
 * or queued: another node keeps the domain alive meanwhile, and the node
 * coming back can use the whole pool again. */
static void case_reclaim_pkt(void *arg)
{
    (void)arg;
    enum { POOL = 64, HELD = POOL / 2 }; /* a configured pool: pool.c has the default */
    int me = plat_core();
    mt_init_pool((mcapi_node_t)me, POOL, 0);
    if (me == 0) {
        const mcapi_endp_attr_memory_type_t fail =
            MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT;
        char b[32] = "packet";
        for (int round = 0; round < 2; round++) {
            mcapi_endpoint_t tx = mt_ep(1);
            mt_set_memtype(tx, fail);
            mcapi_pktchan_send_hndl_t sh;
            mcapi_pktchan_recv_hndl_t rh;
            mt_pkt_local(tx, mt_ep(2), &sh, &rh);
            mcapi_status_t st;
            for (int i = 0; i < POOL; i++) {
                st = 0;
                mcapi_pktchan_send(sh, b, sizeof b, &st);
                MT_EQ_AT(st, MCAPI_SUCCESS, "round %d packet %d", round, i);
                if (i < HELD) {
                    void *p;
                    size_t n;
                    st = 0;
                    mcapi_pktchan_recv(rh, &p, &n, &st);
                    MT_EQ(st, MCAPI_SUCCESS);
                }
            }
            st = 0;
            mcapi_pktchan_send(sh, b, sizeof b, &st);
            MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
            mt_fini();
            mt_init_pool(0, POOL, 0);
        }
    }
    harness_barrier();
    mt_fini();
}

/* The reference implementation's names a ported program uses, where they
 * do not clash with the specification (docs/mcapi.md, porting). */
static void case_reference_names(void *arg)
{
    (void)arg;
    mt_init(0);
    char text[MCAPI_MAX_STATUS_SIZE];
    ck_assert_ptr_nonnull(mcapi_display_status(MCAPI_ERR_PARAMETER, text, sizeof text));
    ck_assert_str_eq(text, "MCAPI_ERR_PARAMETER");
    ck_assert_uint_eq(MCAPI_MAX_BUFFERS, MCAPI_MAX_MSG_BUFFERS + MCAPI_MAX_PKT_BUFFERS);
    mca_request_t r;
    mcapi_status_t st = 0;
    mcapi_endpoint_t a = mt_ep(1);
    char buf[4];
    mcapi_msg_recv_i(a, buf, sizeof buf, &r, &st);
    MT_EQ(st, MCAPI_PENDING);
    size_t size;
    st = 0;
    ck_assert_int_eq(mcapi_wait(&r, &size, 1, &st), MCAPI_FALSE);
    MT_EQ(st, MCAPI_TIMEOUT);
    mcapi_cancel(&r, &st);
    mcapi_wait(&r, &size, MCA_INFINITE, &st);
    MT_EQ(st, MCAPI_ERR_REQUEST_CANCELLED);
    mt_fini();
}

void mt_limits(void)
{
    static const struct harness_case cases[] = {
        {.name = "lim_channels", .core = case_channels, .cores = 5},
        {.name = "lim_msg_buffers", .core = case_msg_buffers, .cores = 1},
        {.name = "lim_pkt_buffers", .core = case_pkt_buffers, .cores = 1},
        {.name = "lim_reclaim_msg", .core = case_reclaim_msg, .cores = 1},
        {.name = "lim_reclaim_pkt", .core = case_reclaim_pkt, .cores = 2},
        {.name = "lim_reference_names", .core = case_reference_names, .cores = 1},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
