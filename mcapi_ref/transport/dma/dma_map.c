/*
 * transport/dma/dma_map.c -- the DMA transport's static mapping.
 *
 * As FUNCAPI's mcapi_mapping.h: every node of the domain has one line in
 * mcapi_param_t.routes, MCAPI_ROUTE_DMA with the core it runs on, or
 * MCAPI_ROUTE_ACCEL for a virtual node; moving a node to another core is
 * editing its line. Every node gives the same lines, so every node computes
 * the same mapping, without talking to anyone.
 *
 * Channels: the C = plat_rx_channels() receive channels of a core are split
 * evenly among the DMA nodes on it, in node order: a node with rank r of n
 * on its core owns channels [r*k, r*k + k), k = C / n. The first is its
 * control channel, then port p is channel r*k + 1 + p, so a node has ports
 * 0 .. k-2 (at most DT_PORTS). Its doorbell bit is 1 << (r mod 32).
 *
 * Handles are addresses: an endpoint handle is <domain, node, port> (no
 * generation: <node, port> is the same endpoint whenever it exists), a
 * channel handle the port of the caller's end and the end's open count.
 */
#include "dma_tp.h"
#include "../handle.h"
#include "../../drivers/accel.h"

#include <string.h>

#define DEVICE_LEN 32 /* as the shared-memory transport's route table */

/* One line per node, known kinds, names and cores in range. */
static bool lines_ok(const mcapi_param_t *p)
{
    if (!p->nroutes) return true;
    if (!p->routes) return false;
    int cores = plat_cores();
    for (unsigned i = 0; i < p->nroutes; i++) {
        const struct mcapi_route *r = &p->routes[i];
        if (r->domain > MCAPI_MAX_DOMAIN || r->node > MCAPI_MAX_NODE) return false;
        if (r->kind == MCAPI_ROUTE_ACCEL) {
            if (!r->device || !r->device[0] || strlen(r->device) >= DEVICE_LEN) return false;
        } else if (r->kind != MCAPI_ROUTE_DMA || r->core < 0 || r->core >= cores) {
            return false; /* MCAPI_ROUTE_SHM means nothing without shared memory */
        }
        for (unsigned j = 0; j < i; j++)
            if (p->routes[j].domain == r->domain && p->routes[j].node == r->node) return false;
    }
    return true;
}

mcapi_status_t dt_map_build(struct dt_map *m, mcapi_domain_t dom, const mcapi_param_t *p)
{
    memset(m, 0, sizeof *m);
    if (!lines_ok(p)) return MCAPI_ERR_PARAMETER;
    for (unsigned i = 0; i < p->nroutes; i++) {
        const struct mcapi_route *r = &p->routes[i];
        if (r->domain != dom) continue;
        m->nodes++;
        if (r->kind == MCAPI_ROUTE_ACCEL) {
            m->kind[r->node] = DR_ACCEL;
            if (!(m->accel[r->node] = drv_accel_open(r->device))) return MCAPI_ERR_NODE_INITFAILED;
        } else {
            m->kind[r->node] = DR_DMA;
            m->core[r->node] = (int16_t)r->core;
        }
    }
    /* Every core is taken to have as many channels as ours: plat.h tells
     * only the calling core's count. */
    unsigned chans = drv_rx_channels();
    for (unsigned n = 0; n < MCA_MAX_NODES; n++) {
        if (m->kind[n] != DR_DMA) continue;
        unsigned rank = 0, count = 0;
        for (unsigned o = 0; o < MCA_MAX_NODES; o++) {
            if (m->kind[o] != DR_DMA || m->core[o] != m->core[n]) continue;
            count++;
            rank += o < n;
        }
        unsigned k = chans / count;
        if (k < 2) return MCAPI_ERR_NODE_INITFAILED; /* no room for a control channel and a port */
        unsigned ports = k - 1;
        m->base[n] = (uint16_t)(rank * k);
        m->nports[n] = (uint16_t)(ports < DT_PORTS ? ports : DT_PORTS);
        m->bell[n] = 1u << (rank % 32);
    }
    return MCAPI_SUCCESS;
}

uint32_t dt_ep_handle(mcapi_domain_t dom, unsigned node, unsigned port)
{
    return h_make(HK_EP, dom, port, node);
}

bool dt_ep_decode(const struct tp_node *tp, uint32_t h, unsigned *node, unsigned *port)
{
    if (h_kind(h) != HK_EP || h_dom(h) != tp->dom || h_slot(h) >= MCA_MAX_NODES) return false;
    unsigned n = h_slot(h), p = h_gen(h);
    switch (tp->map.kind[n]) {
    case DR_DMA:
        if (p >= tp->map.nports[n]) return false;
        break;
    case DR_ACCEL:
        if (p > MCAPI_MAX_PORT) return false;
        break;
    default:
        return false;
    }
    *node = n;
    *port = p;
    return true;
}

struct dt_endp *dt_own(struct tp_node *tp, uint32_t h)
{
    unsigned n, p;
    if (!dt_ep_decode(tp, h, &n, &p) || n != tp->node) return NULL;
    return tp->ep[p].live ? &tp->ep[p] : NULL;
}

mcapi_status_t dt_own_check(struct tp_node *tp, uint32_t h)
{
    unsigned n, p;
    if (!dt_ep_decode(tp, h, &n, &p)) return MCAPI_ERR_ENDP_INVALID;
    if (n != tp->node) return MCAPI_ERR_ENDP_REMOTE; /* nobody here can tell whether it exists */
    return tp->ep[p].live ? MCAPI_SUCCESS : MCAPI_ERR_ENDP_INVALID;
}

uint32_t dt_chan_handle(const struct tp_node *tp, unsigned chan, unsigned dir, unsigned port,
                        unsigned gen)
{
    return h_make(h_chan_kind(chan, dir), tp->dom, gen, tp->node << 6 | port);
}

int dt_chan_port(const struct tp_node *tp, uint32_t h)
{
    unsigned k = h_kind(h), s = h_slot(h);
    if (k < HK_CHAN || k > h_chan_kind(TP_SCL, TP_RECV) || h_dom(h) != tp->dom ||
        s >> 6 != tp->node || (s & 63u) >= tp->nports)
        return -1;
    unsigned p = s & 63u;
    return tp->ep[p].c.chandle == h ? (int)p : -1;
}
