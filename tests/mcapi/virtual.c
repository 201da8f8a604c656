/* virtual.c -- a virtual node: a plat_accel device routed with
 * MCAPI_ROUTE_ACCEL. A message to <domain, virtual node, any port> is the
 * device's input; its output comes back as a message to the sending
 * endpoint (docs/mcapi.md). */
#include "mt.h"

#include <string.h>

#define VNODE 40

/* The "hardware": the input reversed. */
static int reverse(void *ctx, const void *in, size_t in_len, void *out, size_t out_len)
{
    (void)ctx;
    if (out_len < in_len) return PLAT_EINVAL;
    const uint8_t *i = in;
    uint8_t *o = out;
    for (size_t k = 0; k < in_len; k++) o[in_len - 1 - k] = i[k];
    return (int)in_len;
}

static const struct mcapi_route route = {MT_DOMAIN, VNODE, MCAPI_ROUTE_ACCEL, "accel", 0};

/* Node 0 declares the route; node 1 (which declares nothing) uses it too.
 * Several sizes, several ports of the virtual node. */
static void case_reverse(void *arg)
{
    (void)arg;
    int me = plat_core();
    if (me == 0) ck_assert_int_eq(plat_accel_bind("accel", reverse, NULL), PLAT_OK);
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &route, .nroutes = 1};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, (mcapi_node_t)me, NULL, me == 0 ? &p : NULL, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();
    mcapi_endpoint_t ep = mt_ep(1);
    static const size_t sizes[] = {1, 2, 64, 1000, MCAPI_MAX_MSG_SIZE};
    uint8_t in[MCAPI_MAX_MSG_SIZE], out[MCAPI_MAX_MSG_SIZE];
    for (size_t i = 0; i < HARNESS_COUNT(sizes); i++) {
        size_t n = sizes[i];
        mcapi_endpoint_t v = mt_get(VNODE, (mcapi_port_t)i);
        mt_fill(in, n, (unsigned)(i + 10 * me));
        st = 0;
        mcapi_msg_send(ep, v, in, n, 1, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "%zu bytes", n);
        size_t got = 0;
        memset(out, 0, sizeof out);
        st = 0;
        mcapi_msg_recv(ep, out, sizeof out, &got, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "%zu bytes", n);
        ck_assert_uint_eq(got, n);
        for (size_t k = 0; k < n; k++)
            ck_assert_msg(out[k] == in[n - 1 - k], "%zu bytes: byte %zu not reversed", n, k);
    }
    harness_barrier();
    mt_fini();
}

/* In simulation a reply takes at least the block's compute time. */
static void case_sim_time(void *arg)
{
    ck_assert_int_eq(plat_accel_bind("accel", reverse, NULL), PLAT_OK);
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &route, .nroutes = 1};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mt_ep(1), v = mt_get(VNODE, 0);
    uint8_t b[256];
    mt_fill(b, sizeof b, 1);
    uint64_t t0 = plat_now_ns();
    st = 0;
    mcapi_msg_send(ep, v, b, sizeof b, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    size_t n;
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    uint64_t dt = plat_now_ns() - t0;
    double need = mt_num(arg, "devices.accel.latency_ns") +
                  2.0 * (double)sizeof b / (mt_num(arg, "devices.accel.bandwidth_MBps") / 1000.0);
    ck_assert_msg((double)dt >= need,
                  "a %zu-byte job came back after %llu ns, the block needs %.0f", sizeof b,
                  (unsigned long long)dt, need);
    mt_fini();
}

/* Nothing bound to the device: the send fails (MCAPI_ERR_TRANSMISSION) and
 * nothing comes back; the endpoint stays usable. */
static void case_unbound(void *arg)
{
    (void)arg;
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &route, .nroutes = 1};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mt_ep(1), v = mt_get(VNODE, 0);
    st = 0;
    mcapi_msg_send(ep, v, "abc", 4, 1, &st);
    MT_EQ(st, MCAPI_ERR_TRANSMISSION);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(ep, &st), 0);
    ck_assert_int_eq(plat_accel_bind("accel", reverse, NULL), PLAT_OK);
    st = 0;
    mcapi_msg_send(ep, v, "abc", 4, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    char b[8] = "";
    size_t n;
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(memcmp(b, "\0cba", 4), 0);
    mt_fini();
}

/* Routes that cannot be: malformed ones are a parameter error, ones that
 * contradict the domain's nodes fail the initialise. The virtual node is
 * not a node a thread can become. */
static void case_bad_routes(void *arg)
{
    (void)arg;
    int me = plat_core();
    mcapi_info_t info;
    mcapi_status_t st = 0;
    if (me == 1) mt_init(1);
    harness_barrier();
    if (me == 0) {
        const struct mcapi_route bad[] = {
            {MT_DOMAIN, MCAPI_MAX_NODE + 1, MCAPI_ROUTE_ACCEL, "accel", 0},
            {MT_DOMAIN, VNODE, MCAPI_ROUTE_ACCEL, NULL, 0},
            {MT_DOMAIN, VNODE, MCAPI_ROUTE_ACCEL, "", 0},
        };
        for (size_t i = 0; i < HARNESS_COUNT(bad); i++) {
            mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &bad[i], .nroutes = 1};
            st = 0;
            mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
            MT_EQ_AT(st, MCAPI_ERR_PARAMETER, "route %zu", i);
        }
        mcapi_param_t none = {MCAPI_PARAM_INITIALIZER, .routes = NULL, .nroutes = 1};
        st = 0;
        mcapi_initialize(MT_DOMAIN, 0, NULL, &none, &info, &st);
        MT_EQ(st, MCAPI_ERR_PARAMETER);
        /* Node 1 is a regular node; node 0 cannot route to itself. */
        const struct mcapi_route clash[] = {
            {MT_DOMAIN, 1, MCAPI_ROUTE_ACCEL, "accel", 0},
            {MT_DOMAIN, 0, MCAPI_ROUTE_ACCEL, "accel", 0},
        };
        for (size_t i = 0; i < HARNESS_COUNT(clash); i++) {
            mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &clash[i], .nroutes = 1};
            st = 0;
            mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
            MT_EQ_AT(st, MCAPI_ERR_NODE_INITFAILED, "route %zu", i);
            st = 0;
            mcapi_node_id_get(&st);
            MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
        }
        mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &route, .nroutes = 1};
        st = 0;
        mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 1) {
        mt_fini();
        st = 0;
        mcapi_initialize(MT_DOMAIN, VNODE, NULL, mt_params(), &info, &st);
        MT_EQ(st, MCAPI_ERR_NODE_INITIALIZED);
        mt_init(1);
    }
    harness_barrier();
    mt_fini();
}

/* The input reversed, or a failure for inputs starting with '!'. */
static int picky(void *ctx, const void *in, size_t in_len, void *out, size_t out_len)
{
    if (in_len && *(const char *)in == '!') return PLAT_EIO;
    return reverse(ctx, in, in_len, out, out_len);
}

/* What a virtual node's endpoints are (docs/mcapi.md): always there, owned
 * by nobody, not for channels; the reply keeps the request's priority and
 * needs room in the sender's own queue. */
static void case_endpoints(void *arg)
{
    (void)arg;
    ck_assert_int_eq(plat_accel_bind("accel", picky, NULL), PLAT_OK);
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = &route, .nroutes = 1};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mt_ep(1), other = mt_ep(2);
    st = 0;
    mcapi_endpoint_t v =
        mcapi_endpoint_get(MT_DOMAIN, VNODE, MCAPI_MAX_PORT, MCAPI_TIMEOUT_IMMEDIATE, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endp_attr_timeout_t t = 5;
    st = 0;
    mcapi_endpoint_set_attribute(v, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
    char b[8];
    size_t n;
    st = 0;
    mcapi_msg_recv(v, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_REMOTE);
    st = 0;
    mcapi_endpoint_delete(v, &st);
    MT_EQ(st, MCAPI_ERR_ENDP_NOTOWNER);
    mcapi_request_t r;
    st = 0;
    mcapi_pktchan_connect_i(ep, v, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);
    st = 0;
    mcapi_sclchan_connect_i(ep, v, &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_ERR_ATTR_INCOMPATIBLE);

    /* A job that fails: no reply. */
    st = 0;
    mcapi_msg_send(ep, v, "!no", 4, 1, &st);
    MT_EQ(st, MCAPI_ERR_TRANSMISSION);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(ep, &st), 0);

    /* The reply has the request's priority: a later, more urgent message
     * overtakes it. */
    st = 0;
    mcapi_msg_send(ep, v, "ab", 3, 5, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_send(other, ep, "hi", 3, 0, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(b, "hi");
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(memcmp(b, "\0ba", 3), 0);

    /* No room for the reply in the sender's queue. */
    for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        mcapi_msg_send(other, ep, &i, 1, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    mt_set_timeout(ep, MT_SHORT_MS);
    st = 0;
    mcapi_msg_send(ep, v, "xy", 3, 1, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    mt_set_memtype(ep, MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT);
    st = 0;
    mcapi_msg_send(ep, v, "xy", 3, 1, &st);
    MT_EQ(st, MCAPI_ERR_MEM_LIMIT);
    st = 0;
    ck_assert_uint_eq(mcapi_msg_available(ep, &st), MCAPI_MAX_QUEUE_ELEMENTS);
    st = 0;
    mcapi_endpoint_release(v, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

void mt_virtual(void)
{
    static const struct harness_case cases[] = {
        {.name = "virtual_reverse", .core = case_reverse, .cores = 2},
        {.name = "virtual_sim_time", .core = case_sim_time, .cores = 1, .backends = HARNESS_SIM},
        {.name = "virtual_unbound", .core = case_unbound, .cores = 1},
        {.name = "virtual_endpoints", .core = case_endpoints, .cores = 1},
        {.name = "virtual_bad_routes", .core = case_bad_routes, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
