/* node.c -- mcapi_initialize/finalize, ids, node attributes, NODE_NOTINIT. */
#include "mt.h"

#include <string.h>

/* Initialise, check what mcapi_info_t reports, fail a second initialise of
 * the same thread (as the same node and as another), finalise twice, and
 * initialise again. */
static void case_init(void *arg)
{
    (void)arg;
    mcapi_info_t info;
    memset(&info, 0xA5, sizeof info);
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(info.mcapi_version, MCAPI_VERSION);
    ck_assert_uint_eq(info.mcapi_version, 2015);
    ck_assert_uint_eq(info.organization_id, MCAPI_ORG_ID);
    ck_assert_uint_eq(info.implementation_version, MCAPI_IMPL_VERSION);
    ck_assert_uint_ge(info.number_of_domains, 1);
    ck_assert_uint_le(info.number_of_domains, MCA_MAX_DOMAINS);
    ck_assert_uint_eq(info.number_of_nodes, 1);
    ck_assert_uint_eq(info.number_of_ports, MCAPI_MAX_PORT - MCAPI_MIN_PORT + 1);

    st = 0;
    ck_assert_uint_eq(mcapi_domain_id_get(&st), MT_DOMAIN);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), 0);
    MT_EQ(st, MCAPI_SUCCESS);

    st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_ERR_NODE_INITIALIZED);
    st = 0;
    mcapi_initialize(MT_DOMAIN, 5, NULL, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_ERR_NODE_INITIALIZED);
    /* ... and the node is still node 0. */
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), 0);
    MT_EQ(st, MCAPI_SUCCESS);

    mt_fini();
    st = 0;
    mcapi_finalize(&st);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), (mcapi_node_t)MCAPI_NODE_INVALID);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
    st = 0;
    ck_assert_uint_eq(mcapi_domain_id_get(&st), (mcapi_domain_t)MCAPI_DOMAIN_INVALID);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);

    /* The node can come back, as itself or as another node. */
    mt_init(0);
    mt_fini();
    mt_init(7);
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), 7);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* Four cores join one at a time: number_of_nodes counts them; a core may
 * not claim a node another core already is. */
static void case_count(void *arg)
{
    (void)arg;
    int me = plat_core();
    for (int k = 0; k < plat_cores(); k++) {
        if (me == k) {
            mcapi_info_t info;
            mcapi_status_t st = 0;
            if (k > 0) {
                mcapi_initialize(MT_DOMAIN, 0, NULL, mt_params(), &info, &st);
                MT_EQ(st, MCAPI_ERR_NODE_INITIALIZED);
                st = 0;
                mcapi_node_id_get(&st);
                MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
            }
            st = 0;
            mcapi_initialize(MT_DOMAIN, (mcapi_node_t)me, NULL, mt_params(), &info, &st);
            MT_EQ(st, MCAPI_SUCCESS);
            ck_assert_uint_eq(info.number_of_nodes, (unsigned)k + 1);
        }
        harness_barrier();
    }
    mcapi_status_t st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), (unsigned)me);
    MT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();
    /* A node that left can be claimed again by another core. */
    if (me == 3) mt_fini();
    harness_barrier();
    if (me == 2) {
        mt_fini();
        mt_init(3);
        st = 0;
        ck_assert_uint_eq(mcapi_node_id_get(&st), 3);
    }
    harness_barrier();
    if (me != 3) mt_fini();
}

/* Ids out of range, NULL info, unprepared attributes: the node stays
 * uninitialised. The largest ids are valid. */
static void case_invalid(void *arg)
{
    (void)arg;
    mcapi_info_t info;
    mcapi_status_t st = 0;
    const struct {
        mcapi_domain_t d;
        mcapi_node_t n;
        mcapi_status_t want;
    } bad[] = {
        {MCAPI_MAX_DOMAIN + 1, 0, MCAPI_ERR_DOMAIN_INVALID},
        {MCAPI_DOMAIN_INVALID, 0, MCAPI_ERR_DOMAIN_INVALID},
        {MT_DOMAIN, MCAPI_MAX_NODE + 1, MCAPI_ERR_NODE_INVALID},
        {MT_DOMAIN, MCAPI_NODE_INVALID, MCAPI_ERR_NODE_INVALID},
    };
    for (size_t i = 0; i < HARNESS_COUNT(bad); i++) {
        st = 0;
        mcapi_initialize(bad[i].d, bad[i].n, NULL, mt_params(), &info, &st);
        MT_EQ_AT(st, bad[i].want, "domain %u node %u", bad[i].d, bad[i].n);
        st = 0;
        mcapi_node_id_get(&st);
        MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
    }
    st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, mt_params(), NULL, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    mcapi_node_id_get(&st);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);

    /* Attributes not prepared by mcapi_node_init_attributes. */
    mcapi_node_attributes_t raw;
    memset(&raw, 0, sizeof raw);
    st = 0;
    mcapi_initialize(MT_DOMAIN, 0, &raw, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    mcapi_node_id_get(&st);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);

    /* A NULL status: the call does nothing. */
    mcapi_initialize(MT_DOMAIN, 0, NULL, mt_params(), &info, NULL);
    st = 0;
    mcapi_node_id_get(&st);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);

    st = 0;
    mcapi_initialize(MCAPI_MAX_DOMAIN, MCAPI_MAX_NODE, NULL, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    ck_assert_uint_eq(mcapi_domain_id_get(&st), MCAPI_MAX_DOMAIN);
    st = 0;
    ck_assert_uint_eq(mcapi_node_id_get(&st), MCAPI_MAX_NODE);
    mt_fini();
    st = 0;
    mcapi_initialize(0, 0, NULL, mt_params(), &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_fini();
}

/* What a test holds to call everything: stale or garbage. */
struct handles {
    mcapi_endpoint_t ep, other;
    mcapi_pktchan_send_hndl_t psh;
    mcapi_pktchan_recv_hndl_t prh;
    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    mcapi_request_t req;
    void *pkt;
};

/* Every call that needs a node reports MCAPI_ERR_NODE_NOTINIT. */
static void expect_notinit(const struct handles *h)
{
    const mcapi_status_t want = MCAPI_ERR_NODE_NOTINIT;
    mcapi_status_t st;
    mcapi_request_t r = h->req;
    mcapi_request_t *rp[1] = {&r};
    size_t size;
    char buf[16] = "x";
    void *p;
    mcapi_uint_t u;
    mcapi_endpoint_t e;
    mcapi_pktchan_send_hndl_t psh;
    mcapi_pktchan_recv_hndl_t prh;
    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    mcapi_node_attr_type_t type;

#define NOTINIT(call)                                                                              \
    do {                                                                                           \
        st = 0;                                                                                    \
        call;                                                                                      \
        ck_assert_msg(st == want, "%s: status %s, expected MCAPI_ERR_NODE_NOTINIT", #call,         \
                      mt_name(st));                                                                \
    } while (0)
    NOTINIT(mcapi_finalize(&st));
    NOTINIT(mcapi_domain_id_get(&st));
    NOTINIT(mcapi_node_id_get(&st));
    NOTINIT(mcapi_node_get_attribute(MT_DOMAIN, 0, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st));
    NOTINIT(mcapi_endpoint_create(1, &st));
    NOTINIT(mcapi_endpoint_get_i(MT_DOMAIN, 0, 1, &e, &r, &st));
    NOTINIT(mcapi_endpoint_get(MT_DOMAIN, 0, 1, MCAPI_TIMEOUT_IMMEDIATE, &st));
    NOTINIT(mcapi_endpoint_delete(h->ep, &st));
    NOTINIT(mcapi_endpoint_get_attribute(h->ep, MCAPI_ENDP_ATTR_TIMEOUT, &u, sizeof u, &st));
    u = 5;
    NOTINIT(mcapi_endpoint_set_attribute(h->ep, MCAPI_ENDP_ATTR_TIMEOUT, &u, sizeof u, &st));
    NOTINIT(mcapi_endpoint_release(h->other, &st));
    NOTINIT(mcapi_msg_send_i(h->ep, h->other, buf, 1, 0, &r, &st));
    NOTINIT(mcapi_msg_send(h->ep, h->other, buf, 1, 0, &st));
    NOTINIT(mcapi_msg_recv_i(h->ep, buf, sizeof buf, &r, &st));
    NOTINIT(mcapi_msg_recv(h->ep, buf, sizeof buf, &size, &st));
    NOTINIT(mcapi_msg_available(h->ep, &st));
    NOTINIT(mcapi_pktchan_connect_i(h->ep, h->other, &r, &st));
    NOTINIT(mcapi_pktchan_recv_open_i(&prh, h->other, &r, &st));
    NOTINIT(mcapi_pktchan_send_open_i(&psh, h->ep, &r, &st));
    NOTINIT(mcapi_pktchan_send_i(h->psh, buf, 1, &r, &st));
    NOTINIT(mcapi_pktchan_send(h->psh, buf, 1, &st));
    NOTINIT(mcapi_pktchan_recv_i(h->prh, &p, &r, &st));
    NOTINIT(mcapi_pktchan_recv(h->prh, &p, &size, &st));
    NOTINIT(mcapi_pktchan_available(h->prh, &st));
    NOTINIT(mcapi_pktchan_release(h->pkt, &st));
    NOTINIT(mcapi_pktchan_release_test(h->pkt, &st));
    NOTINIT(mcapi_pktchan_recv_close_i(h->prh, &r, &st));
    NOTINIT(mcapi_pktchan_send_close_i(h->psh, &r, &st));
    NOTINIT(mcapi_sclchan_connect_i(h->ep, h->other, &r, &st));
    NOTINIT(mcapi_sclchan_recv_open_i(&srh, h->other, &r, &st));
    NOTINIT(mcapi_sclchan_send_open_i(&ssh, h->ep, &r, &st));
    NOTINIT(mcapi_sclchan_send_uint64(h->ssh, 1, &st));
    NOTINIT(mcapi_sclchan_send_uint32(h->ssh, 1, &st));
    NOTINIT(mcapi_sclchan_send_uint16(h->ssh, 1, &st));
    NOTINIT(mcapi_sclchan_send_uint8(h->ssh, 1, &st));
    NOTINIT(mcapi_sclchan_recv_uint64(h->srh, &st));
    NOTINIT(mcapi_sclchan_recv_uint32(h->srh, &st));
    NOTINIT(mcapi_sclchan_recv_uint16(h->srh, &st));
    NOTINIT(mcapi_sclchan_recv_uint8(h->srh, &st));
    NOTINIT(mcapi_sclchan_available(h->srh, &st));
    NOTINIT(mcapi_sclchan_recv_close_i(h->srh, &r, &st));
    NOTINIT(mcapi_sclchan_send_close_i(h->ssh, &r, &st));
    r = h->req;
    NOTINIT(mcapi_test(&r, &size, &st));
    NOTINIT(mcapi_wait(&r, &size, MCAPI_TIMEOUT_IMMEDIATE, &st));
    NOTINIT(mcapi_wait_any(1, rp, &size, MCAPI_TIMEOUT_IMMEDIATE, &st));
    NOTINIT(mcapi_cancel(&r, &st));
#undef NOTINIT
}

/* Before initialise (garbage handles) and after finalise (stale handles of
 * every kind): nothing works, nothing crashes. */
static void case_notinit(void *arg)
{
    (void)arg;
    char junk[16];
    struct handles h = {MT_GARBAGE,     MT_GARBAGE + 1, MT_GARBAGE + 2, MT_GARBAGE + 3,
                        MT_GARBAGE + 4, MT_GARBAGE + 5, MT_GARBAGE + 6, junk};
    expect_notinit(&h);

    mt_init(0);
    mcapi_endpoint_t ep[6];
    for (int i = 0; i < 6; i++) ep[i] = mt_ep((mcapi_port_t)i);
    h.ep = ep[0];
    h.other = mt_get(0, 1);
    mt_pkt_local(ep[2], ep[3], &h.psh, &h.prh);
    mt_scl_local(ep[4], ep[5], &h.ssh, &h.srh);
    char msg[4] = "pkt";
    mcapi_status_t st = 0;
    mcapi_pktchan_send(h.psh, msg, sizeof msg, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    size_t size = 0;
    st = 0;
    mcapi_pktchan_recv(h.prh, &h.pkt, &size, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_msg_recv_i(ep[1], junk, sizeof junk, &h.req, &st);
    MT_EQ(st, MCAPI_PENDING);
    mt_fini();
    expect_notinit(&h);
}

/* mcapi_node_init_attributes / _set_attribute before initialise, then
 * mcapi_node_get_attribute of this node and of another. */
static void case_attributes(void *arg)
{
    (void)arg;
    int me = plat_core();
    mcapi_node_attributes_t a;
    mcapi_status_t st = 0;
    mcapi_node_init_attributes(&a, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_node_init_attributes(NULL, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);

    mcapi_node_attr_type_t type = MCAPI_NODE_ATTR_TYPE_REGULAR;
    st = 0;
    mcapi_node_set_attribute(&a, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    st = 0;
    mcapi_node_set_attribute(&a, MCAPI_NODE_ATTR_END, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_ATTR_NUM);
    st = 0;
    mcapi_node_set_attribute(&a, MCAPI_NODE_ATTR_TYPE, &type, 1, &st);
    MT_EQ(st, MCAPI_ERR_ATTR_SIZE);
    st = 0;
    mcapi_node_set_attribute(&a, MCAPI_NODE_ATTR_TYPE, NULL, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    mcapi_node_set_attribute(NULL, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    mcapi_node_attr_type_t bad = MCAPI_NODE_ATTR_TYPE_END;
    st = 0;
    mcapi_node_set_attribute(&a, MCAPI_NODE_ATTR_TYPE, &bad, sizeof bad, &st);
    MT_EQ(st, MCAPI_ERR_ATTR_VALUE);

    mcapi_info_t info;
    st = 0;
    mcapi_initialize(MT_DOMAIN, (mcapi_node_t)me, &a, NULL, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    harness_barrier();

    for (int n = 0; n < 2; n++) {
        type = 0xFFFF;
        st = 0;
        mcapi_node_get_attribute(MT_DOMAIN, (mcapi_node_t)n, MCAPI_NODE_ATTR_TYPE, &type,
                                 sizeof type, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "node %d", n);
        ck_assert_uint_eq(type, MCAPI_NODE_ATTR_TYPE_REGULAR);
    }
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN, 1, MCAPI_NODE_ATTR_END, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_ATTR_NUM);
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN, 1, MCAPI_NODE_ATTR_TYPE, &type, 2, &st);
    MT_EQ(st, MCAPI_ERR_ATTR_SIZE);
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN, 1, MCAPI_NODE_ATTR_TYPE, NULL, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    st = 0;
    mcapi_node_get_attribute(MCAPI_MAX_DOMAIN + 1, 1, MCAPI_NODE_ATTR_TYPE, &type, sizeof type,
                             &st);
    MT_EQ(st, MCAPI_ERR_DOMAIN_INVALID);
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN, MCAPI_MAX_NODE + 1, MCAPI_NODE_ATTR_TYPE, &type,
                             sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_NODE_INVALID);
    /* A node nobody is; a valid domain this node is not in (docs/mcapi.md:
     * one domain per region). */
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN, 9, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_NODE_INVALID);
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN + 1, 1, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_ERR_DOMAIN_INVALID);
    harness_barrier();
    mt_fini();
}

/* Two domains cannot share one region (docs/mcapi.md): the second
 * initialise under the same name fails, and succeeds under its own. */
static void case_region_clash(void *arg)
{
    (void)arg;
    int me = plat_core();
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = "mt.clash"};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    if (me == 0) {
        mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    harness_barrier();
    if (me == 1) {
        mcapi_initialize(MT_DOMAIN + 1, 0, NULL, &p, &info, &st);
        MT_EQ(st, MCAPI_ERR_NODE_INITFAILED);
        st = 0;
        mcapi_node_id_get(&st);
        MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
        st = 0;
        mcapi_initialize(MT_DOMAIN + 1, 0, NULL, mt_params(), &info, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        st = 0;
        ck_assert_uint_eq(mcapi_domain_id_get(&st), MT_DOMAIN + 1);
    }
    harness_barrier();
    mt_fini();
}

/* A parameter block nobody prepared (ported code: the reference's
 * mcapi_param_t is an int it ignores) gives the defaults, as NULL does:
 * garbage is never read as a region name or a transport. A block from
 * mcapi_param_init, or with MCAPI_PARAM_INITIALIZER, is read. */
static void case_param_unprepared(void *arg)
{
    (void)arg;
    int me = plat_core();
    mcapi_param_t p;
    memset(&p, me == 0 ? 0xA5 : 0, sizeof p); /* garbage; all zero */
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, (mcapi_node_t)me, NULL, &p, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mt_ep(1);
    harness_barrier();
    if (me == 0) { /* the default region: node 1 is there */
        st = 0;
        mcapi_msg_send(ep, mt_get(1, 1), "hi", 3, 1, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    } else {
        char buf[8];
        size_t n = 0;
        st = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_str_eq(buf, "hi");
    }
    harness_barrier();
    mt_fini();
    if (me != 0) return;
    mcapi_param_init(&p);
    p.transport = (enum mcapi_transport_kind)99; /* read: no such transport */
    st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    mcapi_param_t q = {MCAPI_PARAM_INITIALIZER, .transport = (enum mcapi_transport_kind)99};
    st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &q, &info, &st);
    MT_EQ(st, MCAPI_ERR_PARAMETER);
    mcapi_param_init(&p); /* all defaults */
    mt_init(0);
    mt_fini();
}

void mt_node(void)
{
    static const struct harness_case cases[] = {
        {.name = "node_init", .core = case_init, .cores = 1},
        {.name = "node_count", .core = case_count, .cores = 4},
        {.name = "node_invalid", .core = case_invalid, .cores = 1},
        {.name = "node_notinit", .core = case_notinit, .cores = 1},
        {.name = "node_attributes", .core = case_attributes, .cores = 2},
        {.name = "node_region_clash", .core = case_region_clash, .cores = 2},
        {.name = "node_param_unprepared", .core = case_param_unprepared, .cores = 2},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
