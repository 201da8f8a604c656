/* churn.c -- the domain's tables under concurrent change: channels that
 * come and go on every core, endpoints deleted and re-created while other
 * nodes send to them. */
#include "mt.h"

#define CHURN_CHANS 8  /* channels each node sends on per round */
#define CHURN_ROUNDS 6 /* rounds of connect, open, transfer, close */
#define CHURN_PKTS 2   /* per channel and round: 4 x 8 x 2 packets fill the pool exactly */

/* Every node connects CHURN_CHANS channels to the next node, all nodes at
 * once; both sides open, transfer, close; packet and scalar rounds
 * alternate. Channels are freed every round, so the domain's table (64)
 * is never exhausted although 4 x 8 x 6 channels are made. */
static void case_channels(void *arg)
{
    (void)arg;
    int me = plat_core(), n = plat_cores();
    mcapi_node_t next = (mcapi_node_t)((me + 1) % n);
    mt_init((mcapi_node_t)me);
    mcapi_endpoint_t tx[CHURN_CHANS], rx[CHURN_CHANS], peer[CHURN_CHANS];
    for (int k = 0; k < CHURN_CHANS; k++) {
        tx[k] = mt_ep((mcapi_port_t)(100 + k));
        rx[k] = mt_ep((mcapi_port_t)k);
    }
    for (int k = 0; k < CHURN_CHANS; k++) peer[k] = mt_get(next, (mcapi_port_t)k);
    mcapi_status_t st;
    mcapi_request_t r;
    for (int round = 0; round < CHURN_ROUNDS; round++) {
        bool pkt = round % 2 == 0;
        for (int k = 0; k < CHURN_CHANS; k++) {
            st = 0;
            if (pkt)
                mcapi_pktchan_connect_i(tx[k], peer[k], &r, &st);
            else
                mcapi_sclchan_connect_i(tx[k], peer[k], &r, &st);
            MT_EQ_AT(mt_done(&r, st, NULL), MCAPI_SUCCESS, "round %d channel %d", round, k);
        }
        /* Opens complete once both sides opened, whatever the order. */
        mcapi_uint32_t sh[CHURN_CHANS], rh[CHURN_CHANS];
        mcapi_request_t rs[CHURN_CHANS], rr[CHURN_CHANS];
        mcapi_status_t ss[CHURN_CHANS], sr[CHURN_CHANS];
        for (int k = 0; k < CHURN_CHANS; k++) {
            ss[k] = sr[k] = 0;
            if (pkt) {
                mcapi_pktchan_send_open_i(&sh[k], tx[k], &rs[k], &ss[k]);
                mcapi_pktchan_recv_open_i(&rh[k], rx[k], &rr[k], &sr[k]);
            } else {
                mcapi_sclchan_send_open_i(&sh[k], tx[k], &rs[k], &ss[k]);
                mcapi_sclchan_recv_open_i(&rh[k], rx[k], &rr[k], &sr[k]);
            }
        }
        for (int k = 0; k < CHURN_CHANS; k++) {
            MT_EQ_AT(mt_done(&rs[k], ss[k], NULL), MCAPI_SUCCESS, "round %d open %d", round, k);
            MT_EQ_AT(mt_done(&rr[k], sr[k], NULL), MCAPI_SUCCESS, "round %d open %d", round, k);
        }
        for (int k = 0; k < CHURN_CHANS; k++)
            for (uint32_t i = 0; i < CHURN_PKTS; i++) {
                uint32_t v = (uint32_t)(me << 16 | round << 8 | k << 4) | i;
                st = 0;
                if (pkt)
                    mcapi_pktchan_send(sh[k], &v, sizeof v, &st);
                else
                    mcapi_sclchan_send_uint32(sh[k], v, &st);
                MT_EQ_AT(st, MCAPI_SUCCESS, "round %d channel %d item %u", round, k, i);
            }
        int from = (me + n - 1) % n;
        for (int k = 0; k < CHURN_CHANS; k++)
            for (uint32_t i = 0; i < CHURN_PKTS; i++) {
                uint32_t want = (uint32_t)(from << 16 | round << 8 | k << 4) | i, v = 0;
                st = 0;
                if (pkt) {
                    void *p;
                    size_t size;
                    mcapi_pktchan_recv(rh[k], &p, &size, &st);
                    MT_EQ_AT(st, MCAPI_SUCCESS, "round %d channel %d item %u", round, k, i);
                    ck_assert_uint_eq(size, sizeof v);
                    v = *(const uint32_t *)p;
                    mcapi_pktchan_release(p, &st);
                } else {
                    v = mcapi_sclchan_recv_uint32(rh[k], &st);
                    MT_EQ_AT(st, MCAPI_SUCCESS, "round %d channel %d item %u", round, k, i);
                }
                ck_assert_msg(v == want, "round %d channel %d: %#x, expected %#x", round, k, v,
                              want);
            }
        /* Senders close after the receivers have everything. */
        harness_barrier();
        for (int k = 0; k < CHURN_CHANS; k++) {
            if (pkt) {
                mt_pkt_close_send(sh[k]);
                mt_pkt_close_recv(rh[k]);
            } else {
                mt_scl_close_send(sh[k]);
                mt_scl_close_recv(rh[k]);
            }
        }
        harness_barrier();
    }
    mt_fini();
}

#define INCARNATIONS 12 /* times node 0 re-creates its endpoint */
#define PER_LIFE 8      /* messages it takes in each */

/* Node 0 deletes and re-creates its endpoint on port 5 while the other
 * nodes keep sending to whatever handle it last published, tagged with
 * the incarnation they believe in. A message may be refused
 * (MCAPI_ERR_ENDP_INVALID, _DELETED: a stale handle) but never delivered
 * to a later incarnation. */
static void case_endpoints(void *arg)
{
    (void)arg;
    enum { WORD = 0, DONE = 1 };
    int me = plat_core();
    mt_init((mcapi_node_t)me);
    mcapi_status_t st;
    mcapi_endpoint_t mine = me ? mt_ep(1) : 0;
    if (me) mt_set_timeout(mine, 2);
    harness_barrier(); /* every sender is up before node 0 starts */
    if (me == 0) {
        for (uint32_t k = 1; k <= INCARNATIONS; k++) {
            mcapi_endpoint_t ep = mt_ep(5);
            mt_put(WORD, (uint64_t)k << 32 | ep);
            for (int i = 0; i < PER_LIFE; i++) {
                uint32_t tag[2];
                size_t got;
                st = 0;
                mcapi_msg_recv(ep, tag, sizeof tag, &got, &st);
                MT_EQ_AT(st, MCAPI_SUCCESS, "incarnation %u message %d", k, i);
                ck_assert_msg(tag[0] == k, "incarnation %u got a message for incarnation %u", k,
                              tag[0]);
            }
            st = 0;
            mcapi_endpoint_delete(ep, &st);
            MT_EQ(st, MCAPI_SUCCESS);
        }
        mt_put(DONE, 1);
    } else {
        uint64_t t0 = plat_now_ns();
        long sent = 0;
        while (!mt_take(DONE)) {
            ck_assert_msg(plat_now_ns() - t0 < MT_WAIT_MS * MT_MS, "node 0 never finished");
            uint64_t w = mt_take(WORD);
            if (!w) {
                plat_sleep_ns(10000);
                continue;
            }
            uint32_t tag[2] = {(uint32_t)(w >> 32), (uint32_t)me};
            st = 0;
            mcapi_msg_send(mine, (mcapi_endpoint_t)w, tag, sizeof tag, 1, &st);
            ck_assert_msg(st == MCAPI_SUCCESS || st == MCAPI_ERR_ENDP_INVALID ||
                              st == MCAPI_ERR_ENDP_DELETED || st == MCAPI_TIMEOUT,
                          "send to a changing endpoint: %s", mt_name(st));
            if (st == MCAPI_SUCCESS) sent++;
            plat_sleep_ns(20000);
        }
        ck_assert_int_gt(sent, 0);
    }
    harness_barrier();
    mt_fini();
}

void mt_churn(void)
{
    static const struct harness_case cases[] = {
        {.name = "churn_channels", .core = case_channels, .cores = 4},
        {.name = "churn_endpoints", .core = case_endpoints, .cores = 3},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
