/*
 * xmcapi/xm_node.c -- a node of the XMCAPI transport starts and stops.
 *
 * Initialise loads the topology, finds the node in it, listens on its
 * address and starts the communicator thread on the calling core. Nothing
 * is connected yet: connections are made on the first send to a peer.
 * Finalise stops the communicator, then closes every connection: what was
 * still queued for a peer is lost, as the peer sees the close.
 */
#include "xm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void release(struct tp_node *tp)
{
    for (struct xm_conn *c = tp->conns; c;) {
        struct xm_conn *next = c->next;
        (void)plat_poller_del(tp->poller, c->s);
        plat_stream_close(c->s);
        free(c->rbuf);
        free(c->dst);
        free(c);
        c = next;
    }
    for (unsigned p = 0; p < XM_PEERS; p++) {
        free(tp->peer[p].obuf);
        free(tp->peer[p].stopped);
        free(tp->peer[p].got);
        free(tp->peer[p].gone);
        free(tp->peer[p].sent);
    }
    for (unsigned i = 0; i < XM_EPS; i++) xm_q_drop_all(tp, &tp->ep[i]);
    for (size_t i = 0; i < tp->nheld; i++) free(tp->held[i].buf);
    free(tp->held);
    while (tp->nspare) free(tp->spare[--tp->nspare]);
    if (tp->pipe[1]) plat_stream_close(tp->pipe[1]);
    plat_stream_close(tp->listener);
    plat_poller_free(tp->poller);
    xt_free(tp->topo);
    plat_event_destroy(&tp->ev);
    plat_mutex_destroy(&tp->mu);
    free(tp);
}

/* The notification pipe of PIPE mode: its read end is a connection. */
static bool make_pipe(struct tp_node *tp)
{
    if (plat_stream_pair(tp->pipe) != PLAT_OK) return false;
    struct xm_conn *c = calloc(1, sizeof *c);
    if (!c || plat_poller_add(tp->poller, tp->pipe[0], PLAT_POLL_IN, c) != PLAT_OK) {
        free(c);
        plat_stream_close(tp->pipe[0]);
        return false;
    }
    c->s = tp->pipe[0];
    c->peer = -1;
    c->is_pipe = 1;
    c->bits = PLAT_POLL_IN;
    tp->conns = c;
    return true;
}

/* The topology the parameters name (xt_path: a file, or the file's text
 * itself if it has a line break), or NULL with why not in err. */
static struct xt_topo *load_topo(const char *where, char *err, size_t errlen)
{
    return where && strchr(where, '\n') ? xt_parse("<topology text>", where, err, errlen)
                                        : xt_load(where, err, errlen);
}

bool xm_claims(const mcapi_param_t *param, mcapi_domain_t dom, mcapi_node_t node)
{
    /* Parameters that name a shared region or routes ask for shared memory. */
    if (param && ((param->shm_name && *param->shm_name) || param->nroutes)) return false;
    const char *where = xt_path(param ? param->topology : NULL);
    if (!where) return false;
    char err[8];
    struct xt_topo *t = load_topo(where, err, sizeof err);
    bool yes = t && xt_find(t, dom, node);
    xt_free(t);
    return yes;
}

mcapi_status_t xm_attach(struct tp_node **out, mcapi_domain_t dom, mcapi_node_t node,
                         const mcapi_param_t *param, mcapi_info_t *info)
{
    char err[512];
    const char *where = xt_path(param ? param->topology : NULL);
    struct xt_topo *topo = load_topo(where, err, sizeof err);
    if (!topo) {
        fprintf(stderr, "xmcapi: %s\n", err);
        return MCAPI_ERR_NODE_INITFAILED;
    }
    const struct xt_node *me = xt_find(topo, dom, node);
    if (!me) {
        fprintf(stderr, "xmcapi: node <%u,%u> is not in the topology file\n", (unsigned)dom,
                (unsigned)node);
        xt_free(topo);
        return MCAPI_ERR_NODE_INVALID;
    }
    struct tp_node *tp = calloc(1, sizeof *tp);
    if (!tp) {
        xt_free(topo);
        return MCAPI_ERR_NODE_INITFAILED;
    }
    tp->topo = topo;
    tp->dom = dom;
    tp->node = node;
    tp->self = XM_PEER(dom, node);
    tp->notify = param ? param->xm_notify : MCAPI_XM_DIRECT;
    tp->xfer_cycles = plat_cost("mcapi_transport");
    tp->next_qp = 1;
    plat_mutex_init(&tp->mu, 0);
    plat_event_init(&tp->ev, 0);
    int comm_core = param && param->xm_comm_core ? (int)param->xm_comm_core - 1 : plat_core();
    if (tp->notify > MCAPI_XM_PIPE || comm_core >= plat_cores()) {
        release(tp);
        return MCAPI_ERR_PARAMETER;
    }
    /* Listen on every address of the port: the host in the file is how
     * others reach us, which may not be an address of ours (NAT, names). */
    char addr[16];
    snprintf(addr, sizeof addr, "*:%u", (unsigned)me->port);
    int st = PLAT_OK;
    tp->poller = plat_poller_new();
    tp->listener = tp->poller ? plat_stream_listen(addr, &st) : NULL;
    if (!tp->listener) {
        /* Somebody listens there already: most likely the node itself, up
         * in this program or another process of this host. */
        fprintf(stderr, "xmcapi: %s:%d: node <%u,%u> cannot listen on port %u: %s%s\n",
                strchr(where, '\n') ? "<topology text>" : where, me->line, (unsigned)dom,
                (unsigned)node, (unsigned)me->port, plat_strerror(st),
                st == PLAT_EADDRINUSE ? " (is the node running already?)" : "");
        release(tp);
        return st == PLAT_EADDRINUSE ? MCAPI_ERR_NODE_INITIALIZED : MCAPI_ERR_NODE_INITFAILED;
    }
    if (plat_poller_add(tp->poller, tp->listener, PLAT_POLL_IN, &tp->listener) != PLAT_OK ||
        (tp->notify == MCAPI_XM_PIPE && !make_pipe(tp)) ||
        !(tp->comm = plat_thread_spawn_on(comm_core, xm_comm_main, tp, "xmcapi-comm"))) {
        release(tp);
        return MCAPI_ERR_NODE_INITFAILED;
    }
    info->mcapi_version = MCAPI_VERSION;
    info->organization_id = MCAPI_ORG_ID;
    info->implementation_version = MCAPI_IMPL_VERSION;
    info->number_of_domains = 0;
    info->number_of_nodes = (mcapi_uint_t)topo->n;
    for (size_t i = 0; i < topo->n; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++) seen |= topo->nodes[j].domain == topo->nodes[i].domain;
        info->number_of_domains += !seen;
    }
    info->number_of_ports = MCAPI_MAX_ENDPOINTS;
    *out = tp;
    return MCAPI_SUCCESS;
}

void xm_detach(struct tp_node *tp)
{
    plat_mutex_lock(&tp->mu);
    xm_endp_fini(tp);
    /* Our channel ends' CLOSEs and what is queued get a last chance to leave. */
    for (unsigned i = 0; i < XM_EPS; i++) {
        struct xm_ep *e = &tp->ep[i];
        if (e->live && e->cstate != XC_NONE && !e->failed && e->peer != tp->self)
            xm_ctl(tp, e->peer, XW_CLOSE, 0, e->peer_port, e->qp, NULL, 0);
    }
    tp->stop = 1;
    xm_kick(tp);
    plat_mutex_unlock(&tp->mu);
    plat_thread_join(tp->comm);
    /* What is still queued goes out now, each peer given at most
     * XM_LINGER_NS (a peer that reads nothing does not hold us longer). */
    for (unsigned p = 0; p < XM_PEERS; p++) {
        struct xm_peer *pe = &tp->peer[p];
        uint64_t until = plat_now_ns() + XM_LINGER_NS;
        while (pe->c && pe->olen > pe->ooff && plat_now_ns() < until) {
            long k = plat_stream_send(pe->c->s, pe->obuf + pe->ooff, pe->olen - pe->ooff,
                                      until - plat_now_ns());
            if (k <= 0) break;
            pe->ooff += (size_t)k;
        }
    }
    release(tp);
}

uint32_t xm_epoch(struct tp_node *tp)
{
    return plat_event_epoch(&tp->ev);
}

void xm_sleep(struct tp_node *tp, uint32_t epoch, uint64_t timeout_ns)
{
    plat_mutex_lock(&tp->mu);
    bool poll = tp->retrying > 0;
    plat_mutex_unlock(&tp->mu);
    if (poll && timeout_ns > XM_RETRY_NS) timeout_ns = XM_RETRY_NS;
    (void)plat_event_wait(&tp->ev, epoch, timeout_ns);
}
