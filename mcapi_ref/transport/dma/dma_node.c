/*
 * transport/dma/dma_node.c -- a node of the DMA transport starts and stops.
 *
 * Initialise is local (FUNCAPI, Fig. 4 steps 1-6: "no data is sent during
 * initialisation"): compute the mapping from the routes, check that the
 * calling thread runs on its node's core, take the node's buffers from the
 * core's local memory and arm its control channel. Nothing is allocated
 * after that except a channel's receive buffers when it opens.
 *
 * Two threads of a core cannot both be one node: the node's control
 * channel is the claim. Arming it fails with PLAT_EBUSY while the other
 * thread's node holds it (posted, or filled and not yet taken), atomically
 * in the platform. Only a node that has just taken a control message and
 * not yet re-armed its channel leaves a moment in which a second
 * initialise of the same node could slip in.
 *
 * Finalise closes the node's channel ends (their CLOSE messages get a
 * moment to leave), withdraws every buffer posted on its channels and
 * gives its memory back. Transfers other nodes start to it afterwards wait
 * in their engines until a node posts on those channels again.
 */
#include "dma_tp.h"

#include <stdlib.h>
#include <string.h>

static void release_memory(struct tp_node *tp)
{
    if (tp->msgmem) plat_local_free(tp->msgmem);
    if (tp->ctlbuf) plat_local_free(tp->ctlbuf);
    if (tp->tx) plat_local_free(tp->tx); /* its transfers were reaped (or never read it again) */
    if (tp->slot) {
        /* A transfer still under way (to a node that never posts again)
         * keeps its record: the slots stay allocated, a small leak. */
        dt_reap(tp);
        if (!tp->orphans && dt_slot_oldest(tp) < 0) plat_local_free(tp->slot);
    }
}

mcapi_status_t dt_node_attach(struct tp_node **out, mcapi_domain_t dom, mcapi_node_t node,
                              const mcapi_param_t *param, mcapi_info_t *info)
{
    struct tp_node *tp = calloc(1, sizeof *tp);
    if (!tp) return MCAPI_ERR_NODE_INITFAILED;
    mcapi_status_t st = dt_map_build(&tp->map, dom, param);
    tp->pkt_depth = param && param->pkt_depth ? param->pkt_depth : DT_PKT_DEPTH;
    tp->handshake = param && param->dma_handshake;
    if (st == MCAPI_SUCCESS && tp->pkt_depth > DT_DEPTH_MAX) st = MCAPI_ERR_PARAMETER;
    tp->dom = dom;
    tp->node = node;
    tp->core = plat_core();
    if (st == MCAPI_SUCCESS && (tp->map.kind[node] != DR_DMA || tp->map.core[node] != tp->core))
        st = MCAPI_ERR_NODE_INITFAILED; /* not in the mapping, or on another core */
    if (st != MCAPI_SUCCESS) {
        free(tp);
        return st;
    }
    tp->ctl = tp->map.base[node];
    tp->bell = tp->map.bell[node];
    tp->nports = tp->map.nports[node];
    tp->xfer_cycles = plat_cost("mcapi_transport");
    tp->msgmem = plat_local_alloc((size_t)DT_MSG_BUFS * MCAPI_MAX_MSG_SIZE, 64);
    tp->ctlbuf = plat_local_alloc(sizeof *tp->ctlbuf, 16);
    tp->slot = plat_local_alloc(DT_SLOTS * sizeof *tp->slot, 16);
    for (unsigned i = 0; i < DT_MSG_BUFS; i++) tp->free_bufs[i] = (uint8_t)i;
    tp->nfree = DT_MSG_BUFS;
    for (unsigned p = 0; p < DT_PORTS; p++) tp->ep[p].c.set = -1;
    int posted = tp->msgmem && tp->ctlbuf && tp->slot
                     ? drv_rx_post(tp->ctl, tp->ctlbuf, sizeof *tp->ctlbuf, tp->bell)
                     : PLAT_ENOMEM;
    if (posted != PLAT_OK) {
        release_memory(tp);
        free(tp);
        return posted == PLAT_EBUSY ? MCAPI_ERR_NODE_INITIALIZED : MCAPI_ERR_NODE_INITFAILED;
    }
    tp->ctl_posted = 1;
    info->mcapi_version = MCAPI_VERSION;
    info->organization_id = MCAPI_ORG_ID;
    info->implementation_version = MCAPI_IMPL_VERSION;
    info->number_of_domains = 1;
    info->number_of_nodes = tp->map.nodes;
    info->number_of_ports = tp->nports;
    *out = tp;
    return MCAPI_SUCCESS;
}

void dt_node_detach(struct tp_node *tp)
{
    for (unsigned p = 0; p < tp->nports; p++)
        if (tp->ep[p].live || tp->ep[p].c.state != CS_NONE) dt_endp_remove(tp, p);
    /* Let the CLOSE messages leave and land (a moment: the peers may be
     * gone), serving our control channel meanwhile: a peer finalising at
     * the same time needs it for its own CLOSEs. */
    for (unsigned i = 0; (tp->obn || dt_slot_oldest(tp) >= 0) && i < 20; i++) {
        int s = dt_slot_oldest(tp);
        if (s >= 0) (void)drv_dma_wait(&tp->slot[s].d, DT_SLICE_NS);
        dt_service(tp);
    }
    dt_set_free_all(tp);
    tp->refill = 0;
    for (unsigned p = 0; p < tp->nports; p++) {
        tp->ep[p].drain = 0; /* nothing is posted again */
        dt_unpost(tp, p);
        dt_msg_drop(tp, &tp->ep[p]);
    }
    if (drv_rx_cancel(tp->ctl) == PLAT_EAGAIN) {
        size_t len;
        (void)drv_rx_wait(tp->ctl, &len, PLAT_FOREVER);
    }
    release_memory(tp);
    free(tp);
}
