/* map.c -- the static mapping: moving a node to another core is editing
 * its route line; two nodes may share a core; virtual nodes still work. */
#include "dt.h"

#include <string.h>

#define VNODE 40

/* The node the mapping puts on the calling core (the first), or -1. */
static int my_node(const struct mcapi_route *r, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (r[i].kind == MCAPI_ROUTE_DMA && r[i].core == plat_core()) return (int)r[i].node;
    return -1;
}

/* The application: node 0 and node 1 exchange a message each way, then
 * node 0 streams packets to node 1 and node 1 answers with a scalar. It
 * never names a core: the mapping does. Ports 0..2: every mapping below
 * leaves a node at least three. */
static void exchange(mcapi_node_t me)
{
    mcapi_endpoint_t ep = dt_ep(0);
    mcapi_endpoint_t peer = dt_get(1 - me, 0);
    mcapi_status_t st = 0;
    uint32_t v = 7 + me, got = 0;
    size_t n = 0;
    mcapi_msg_send(ep, peer, &v, sizeof v, 0, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_recv(ep, &got, sizeof got, &n, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(got, 7 + (1 - me));
    mcapi_request_t r;
    mcapi_endpoint_t pe = dt_ep(1), se = dt_ep(2);
    if (me == 0) {
        st = 0;
        mcapi_pktchan_connect_i(pe, dt_get(1, 1), &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        st = 0;
        mcapi_sclchan_connect_i(dt_get(1, 2), se, &r, &st);
        DT_EQ(mcx_done(&r, st, NULL), MCAPI_SUCCESS);
        mcapi_pktchan_send_hndl_t ph = dt_pkt_open_send(pe);
        mcapi_sclchan_recv_hndl_t sh = dt_scl_open_recv(se);
        uint8_t b[512];
        for (unsigned i = 0; i < 20; i++) {
            mcx_fill(b, sizeof b, i);
            st = 0;
            mcapi_pktchan_send(ph, b, sizeof b, &st);
            DT_EQ(st, MCAPI_SUCCESS);
        }
        st = 0;
        ck_assert_uint_eq(mcapi_sclchan_recv_uint64(sh, &st), 20ull * 512);
        DT_EQ(st, MCAPI_SUCCESS);
    } else {
        mcapi_pktchan_recv_hndl_t ph = dt_pkt_open_recv(pe);
        mcapi_sclchan_send_hndl_t sh = dt_scl_open_send(se);
        uint64_t total = 0;
        for (unsigned i = 0; i < 20; i++) {
            void *p;
            st = 0;
            mcapi_pktchan_recv(ph, &p, &n, &st);
            DT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(mcx_bad(p, n, i), n);
            total += n;
            mcapi_pktchan_release(p, &st);
        }
        st = 0;
        mcapi_sclchan_send_uint64(sh, total, &st);
        DT_EQ(st, MCAPI_SUCCESS);
    }
}

static void run_mapping(const struct mcapi_route *r, unsigned nr)
{
    int node = my_node(r, nr);
    if (node >= 0) {
        dt_init_map((mcapi_node_t)node, r, nr);
        exchange((mcapi_node_t)node);
    } else { /* an idle core: it may not pretend to be a node of the mapping */
        DT_EQ(dt_try_init(1, r, nr), MCAPI_ERR_NODE_INITFAILED);
    }
    harness_barrier();
    if (node >= 0) dt_fini();
}

/* Mapping A: node 0 on core 0, node 1 on core 1. */
static void case_map_a(void *arg)
{
    (void)arg;
    static const struct mcapi_route r[] = {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0},
                                           {DT_DOMAIN, 1, MCAPI_ROUTE_DMA, NULL, 1}};
    run_mapping(r, 2);
}

/* Mapping B: node 1 moved to core 2 (one line edited); core 1 idles. */
static void case_map_b(void *arg)
{
    (void)arg;
    static const struct mcapi_route r[] = {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0},
                                           {DT_DOMAIN, 1, MCAPI_ROUTE_DMA, NULL, 2}};
    run_mapping(r, 2);
}

/* Mapping C: node 1 moved onto core 0, next to node 0 (a thread of the
 * core): the core's 8 channels are split, 4 each, ports 0..2. */
static const struct mcapi_route map_c[] = {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0},
                                           {DT_DOMAIN, 1, MCAPI_ROUTE_DMA, NULL, 0}};

static void node1_thread(void *arg)
{
    (void)arg;
    dt_init_map(1, map_c, 2);
    mcapi_status_t st = 0;
    (void)mcapi_endpoint_create(3, &st);
    DT_EQ(st, MCAPI_ERR_PORT_INVALID); /* its half of the channels: ports 0..2 */
    exchange(1);
    dt_fini();
}

static void case_map_c(void *arg)
{
    (void)arg;
    if (plat_core() == 0) {
        plat_thread *t = plat_thread_spawn(node1_thread, NULL, "node1");
        ck_assert_ptr_nonnull(t);
        dt_init_map(0, map_c, 2);
        exchange(0);
        /* Finalise alongside node 1: each one's CLOSE lands in the other's
         * control channel only while that one still serves it. */
        dt_fini();
        plat_thread_join(t);
    }
    harness_barrier();
}

/* The "hardware" of the virtual node: the input reversed. */
static int reverse(void *ctx, const void *in, size_t in_len, void *out, size_t out_len)
{
    (void)ctx;
    if (out_len < in_len) return PLAT_EINVAL;
    const uint8_t *i = in;
    uint8_t *o = out;
    for (size_t k = 0; k < in_len; k++) o[in_len - 1 - k] = i[k];
    return (int)in_len;
}

/* A virtual node listed in the DMA mapping: a message to any of its ports
 * runs the accelerator, the reply comes back to the sending endpoint;
 * channels to it are refused. */
static void case_accel(void *arg)
{
    (void)arg;
    int me = plat_core();
    if (me == 0) ck_assert_int_eq(plat_accel_bind("accel", reverse, NULL), PLAT_OK);
    harness_barrier();
    static const struct mcapi_route v = {DT_DOMAIN, VNODE, MCAPI_ROUTE_ACCEL, "accel", 0};
    struct mcapi_route r[DT_MAX_ROUTES];
    unsigned nr = dt_routes(r, &v, 1);
    dt_init_map((mcapi_node_t)me, r, nr);
    mcapi_endpoint_t ep = dt_ep(1);
    static const size_t sizes[] = {1, 2, 64, 1000, MCAPI_MAX_MSG_SIZE};
    uint8_t in[MCAPI_MAX_MSG_SIZE], out[MCAPI_MAX_MSG_SIZE];
    mcapi_status_t st;
    for (size_t i = 0; i < HARNESS_COUNT(sizes); i++) {
        size_t n = sizes[i];
        mcapi_endpoint_t vep = dt_get(VNODE, (mcapi_port_t)(i * 100));
        mcx_fill(in, n, (unsigned)(i + 10 * (unsigned)me));
        st = 0;
        mcapi_msg_send(ep, vep, in, n, 0, &st);
        DT_EQ_AT(st, MCAPI_SUCCESS, "%zu bytes", n);
        size_t got = 0;
        memset(out, 0, sizeof out);
        st = 0;
        mcapi_msg_recv(ep, out, sizeof out, &got, &st);
        DT_EQ_AT(st, MCAPI_SUCCESS, "%zu bytes", n);
        ck_assert_uint_eq(got, n);
        for (size_t k = 0; k < n; k++)
            ck_assert_msg(out[k] == in[n - 1 - k], "%zu bytes: byte %zu not reversed", n, k);
    }
    mcapi_endpoint_t vep = dt_get(VNODE, MCAPI_MAX_PORT);
    mcapi_request_t q;
    st = 0;
    mcapi_pktchan_connect_i(ep, vep, &q, &st);
    DT_EQ(mcx_done(&q, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
    char b[4];
    size_t n;
    st = 0;
    mcapi_msg_recv(vep, b, sizeof b, &n, &st);
    DT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
    /* And the regular nodes still talk to each other (once both are done
     * with the accelerator: the other's "hey" must not meet our replies). */
    harness_barrier();
    mcapi_endpoint_t peer = dt_get((mcapi_node_t)(1 - me), 1);
    st = 0;
    mcapi_msg_send(ep, peer, "hey", 4, 0, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    DT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(b, "hey");
    harness_barrier();
    dt_fini();
}

void dt_map_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "map_a", .core = case_map_a, .cores = 2},
        {.name = "map_b", .core = case_map_b, .cores = 3},
        {.name = "map_c", .core = case_map_c, .cores = 2},
        {.name = "map_accel", .core = case_accel, .cores = 2},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
