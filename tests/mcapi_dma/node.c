/* node.c -- initialise, the mapping's checks, local endpoint gets. */
#include "dt.h"

#include <string.h>

/* Initialisation and gets are local: node 0 gets node 1's endpoint and
 * sends to it before node 1 has even initialised; the message waits in
 * node 0's DMA engine until node 1 creates the endpoint. */
static void case_static(void *arg)
{
    (void)arg;
    int me = plat_core();
    struct mcapi_route r[DT_MAX_ROUTES];
    unsigned nr = dt_routes(r, NULL, 0);
    mcapi_status_t st;
    char msg[16] = "before you were";
    if (me == 0) {
        mcapi_info_t info;
        memset(&info, 0xA5, sizeof info);
        mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = r, .nroutes = nr,
                           .transport = MCAPI_TRANSPORT_DMA};
        st = 0;
        mcapi_initialize(DT_DOMAIN, 0, NULL, &p, &info, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(info.mcapi_version, MCAPI_VERSION);
        ck_assert_uint_eq(info.number_of_domains, 1);
        ck_assert_uint_eq(info.number_of_nodes, 2);
        ck_assert_uint_eq(info.number_of_ports, DT_PORTS_IDEAL);
        st = 0;
        mcapi_initialize(DT_DOMAIN, 0, NULL, &p, &info, &st);
        DT_EQ(st, MCAPI_ERR_NODE_INITIALIZED);
        mcapi_endpoint_t ep = dt_ep(0);
        mcapi_endpoint_t far = dt_get(1, 3); /* node 1 is not even initialised */
        mcapi_node_attr_type_t t = 99;
        st = 0;
        mcapi_node_get_attribute(DT_DOMAIN, 1, MCAPI_NODE_ATTR_TYPE, &t, sizeof t, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(t, MCAPI_NODE_ATTR_TYPE_REGULAR);
        st = 0;
        mcapi_node_get_attribute(DT_DOMAIN, 9, MCAPI_NODE_ATTR_TYPE, &t, sizeof t, &st);
        DT_EQ(st, MCAPI_ERR_NODE_INVALID);
        mcapi_request_t req;
        st = 0;
        mcapi_msg_send_i(ep, far, msg, sizeof msg, 0, &req, &st);
        ck_assert_msg(st == MCAPI_PENDING || st == MCAPI_SUCCESS, "send_i: %s", mcx_name(st));
        harness_barrier(); /* node 1 starts now */
        DT_EQ(mcx_done(&req, st, NULL), MCAPI_SUCCESS);
        harness_barrier();
    } else {
        harness_barrier();
        dt_init_map(1, r, nr);
        mcapi_endpoint_t ep = dt_ep(3);
        char got[sizeof msg];
        size_t n = 0;
        st = 0;
        mcapi_msg_recv(ep, got, sizeof got, &n, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(n, sizeof msg);
        ck_assert_str_eq(got, msg);
        harness_barrier();
    }
    dt_fini();
}

/* What the mapping refuses, and that a refused initialise leaves nothing
 * behind (the next one succeeds). */
static void case_bad_maps(void *arg)
{
    (void)arg;
    int me = plat_core();
    struct mcapi_route good[DT_MAX_ROUTES];
    unsigned ng = dt_routes(good, NULL, 0);
    if (me == 0) {
        const struct mcapi_route bad[][2] = {
            {{DT_DOMAIN, 0, MCAPI_ROUTE_SHM, NULL, 0}, {DT_DOMAIN, 1, MCAPI_ROUTE_DMA, NULL, 1}},
            {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, -1}, {DT_DOMAIN, 1, MCAPI_ROUTE_DMA, NULL, 1}},
            {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0}, {DT_DOMAIN, 1, MCAPI_ROUTE_DMA, NULL, 2}},
            {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0}, {DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 1}},
            {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0}, {DT_DOMAIN, 7, MCAPI_ROUTE_ACCEL, NULL, 0}},
            {{DT_DOMAIN, 0, MCAPI_ROUTE_DMA, NULL, 0}, {DT_DOMAIN, 64, MCAPI_ROUTE_DMA, NULL, 1}},
        };
        for (size_t i = 0; i < HARNESS_COUNT(bad); i++)
            DT_EQ_AT(dt_try_init(0, bad[i], 2), MCAPI_ERR_PARAMETER, "mapping %zu", i);
        DT_EQ(dt_try_init(0, NULL, 1), MCAPI_ERR_PARAMETER);
        /* Not in the mapping; on another core than its line says. */
        DT_EQ(dt_try_init(5, good, ng), MCAPI_ERR_NODE_INITFAILED);
        DT_EQ(dt_try_init(1, good, ng), MCAPI_ERR_NODE_INITFAILED);
        DT_EQ(dt_try_init(0, NULL, 0), MCAPI_ERR_NODE_INITFAILED); /* an empty mapping */
        /* Five nodes on one core of 8 channels: no room for control + a port. */
        struct mcapi_route crowd[5];
        for (unsigned i = 0; i < 5; i++)
            crowd[i] = (struct mcapi_route){DT_DOMAIN, (mca_node_t)i, MCAPI_ROUTE_DMA, NULL, 0};
        DT_EQ(dt_try_init(0, crowd, 5), MCAPI_ERR_NODE_INITFAILED);
        /* An unknown transport. */
        mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .routes = good, .nroutes = ng, .transport = 7};
        mcapi_info_t info;
        mcapi_status_t st = 0;
        mcapi_initialize(DT_DOMAIN, 0, NULL, &p, &info, &st);
        DT_EQ(st, MCAPI_ERR_PARAMETER);
        /* More packet buffers than a receive end can have. */
        DT_EQ(dt_try_init_depth(0, good, ng, 17, 0), MCAPI_ERR_PARAMETER);
        /* Lines of another domain do not count. */
        struct mcapi_route other[DT_MAX_ROUTES + 1];
        memcpy(other, good, ng * sizeof good[0]);
        other[ng] = (struct mcapi_route){2, 0, MCAPI_ROUTE_DMA, NULL, 1};
        dt_init_map(0, other, ng + 1);
        dt_fini();
    }
    harness_barrier();
    dt_init();
    dt_fini();
}

/* Finalise and initialise again, as the same node and after another
 * mapping of the same node; what was posted does not leak into the next
 * life: a message sent after re-initialise arrives intact. */
static void case_again(void *arg)
{
    (void)arg;
    int me = plat_core();
    for (unsigned round = 0; round < 3; round++) {
        dt_init();
        mcapi_endpoint_t ep = dt_ep(2), peer = dt_get((mcapi_node_t)(1 - me), 2);
        uint32_t v = round * 100 + (unsigned)me, got = 0;
        size_t n = 0;
        mcapi_status_t st = 0;
        mcapi_msg_send(ep, peer, &v, sizeof v, 0, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        mcapi_msg_recv(ep, &got, sizeof got, &n, &st);
        DT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(got, round * 100 + (unsigned)(1 - me));
        harness_barrier();
        dt_fini();
        harness_barrier();
    }
}

struct claim {
    mcapi_status_t st;
};

static void claim_node0(void *arg)
{
    struct claim *c = arg;
    struct mcapi_route r[DT_MAX_ROUTES];
    unsigned n = dt_routes(r, NULL, 0);
    c->st = dt_try_init(0, r, n);
    if (c->st == MCAPI_SUCCESS) dt_fini();
}

/* A second thread of the core cannot be the node the first one is. */
static void case_one_owner(void *arg)
{
    (void)arg;
    dt_init();
    if (plat_core() == 0) {
        struct claim c = {0};
        plat_thread *t = plat_thread_spawn(claim_node0, &c, "claim");
        ck_assert_ptr_nonnull(t);
        plat_thread_join(t);
        DT_EQ(c.st, MCAPI_ERR_NODE_INITIALIZED);
    }
    harness_barrier();
    dt_fini();
}

void dt_node_cases(void)
{
    static const struct harness_case cases[] = {
        {.name = "static", .core = case_static, .cores = 2},
        {.name = "bad_maps", .core = case_bad_maps, .cores = 2},
        {.name = "again", .core = case_again, .cores = 2},
        {.name = "one_owner", .core = case_one_owner, .cores = 2},
    };
    harness_add_cases("mcapi_dma", cases, HARNESS_COUNT(cases));
}
