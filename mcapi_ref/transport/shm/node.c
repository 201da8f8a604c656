/*
 * transport/shm/node.c -- a node joins and leaves its domain's region.
 *
 * The region's name: mcapi_param_t.shm_name, else the environment's
 * MCAPI_SHM, else "mcapi.d<domain>" (private to the program: its threads).
 * Leaving deletes the node's endpoints (closing their channel ends), gives
 * back the packet buffers it holds and frees its node id; messages it sent
 * stay queued at their receivers. A node records the process it runs in
 * (owner); one whose process died without leaving is left in the same way
 * by the next process that initialises it (repair.c).
 */
#include "db.h"
#include "../../drivers/accel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Routes must name a node of the range and, for an accelerator, a device. */
static bool routes_ok(const mcapi_param_t *p)
{
    if (!p || !p->nroutes) return true;
    if (!p->routes) return false;
    for (unsigned i = 0; i < p->nroutes; i++) {
        const struct mcapi_route *r = &p->routes[i];
        if (r->domain > MCAPI_MAX_DOMAIN || r->node > MCAPI_MAX_NODE) return false;
        /* A DMA line (the DMA transport's core of a node) is a regular node
         * here, so one route table serves both transports. */
        if (r->kind != MCAPI_ROUTE_SHM && r->kind != MCAPI_ROUTE_ACCEL &&
            r->kind != MCAPI_ROUTE_DMA)
            return false;
        if (r->kind == MCAPI_ROUTE_ACCEL &&
            (!r->device || !r->device[0] || strlen(r->device) >= DB_DEVICE_LEN))
            return false;
        for (unsigned j = 0; j < i; j++) /* one line per node */
            if (p->routes[j].domain == r->domain && p->routes[j].node == r->node) return false;
    }
    return true;
}

/* The accelerators this node's routes name must exist on the platform. */
static bool devices_ok(struct tp_node *tp, const mcapi_param_t *p)
{
    for (unsigned i = 0; p && i < p->nroutes; i++) {
        const struct mcapi_route *r = &p->routes[i];
        if (r->domain != tp->dom || r->kind != MCAPI_ROUTE_ACCEL) continue;
        if (!(tp->accel[r->node] = drv_accel_open(r->device))) return false;
    }
    return true;
}

static const char *region_name(const mcapi_param_t *p, mcapi_domain_t dom, char *buf, size_t n)
{
    if (p && p->shm_name && p->shm_name[0]) return p->shm_name;
    const char *env = getenv("MCAPI_SHM");
    if (env && env[0]) return env;
    snprintf(buf, n, "mcapi.d%u", dom);
    return buf;
}

mcapi_status_t tp_node_attach(struct tp_node **out, mcapi_domain_t dom, mcapi_node_t node,
                              const mcapi_param_t *param, mcapi_info_t *info)
{
    if (!routes_ok(param)) return MCAPI_ERR_PARAMETER;
    struct db_layout l;
    if (tp_db_layout(&l, param ? param->pkt_buffers : 0, param ? param->pkt_pool_bytes : 0))
        return MCAPI_ERR_PARAMETER;
    struct tp_node *tp = calloc(1, sizeof *tp);
    if (!tp) return MCAPI_ERR_NODE_INITFAILED;
    tp->dom = dom;
    tp->node = node;
    tp->bit = 1ull << node;
    tp->xfer_cycles = plat_cost("mcapi_transport");
    char buf[32];
    mcapi_status_t mst = MCAPI_ERR_NODE_INITFAILED;
    const char *name = region_name(param, dom, buf, sizeof buf);
    tp->shared = drv_shm_crosses(name);
    if (!devices_ok(tp, param) || !(tp->db = tp_db_map(name, dom, &l, &mst))) {
        free(tp);
        return mst;
    }
    struct db *db = tp->db;
    unsigned char *base = (unsigned char *)db;
    tp->runs = (struct db_run *)(base + l.run_at);
    tp->len = (uint32_t *)(base + l.len_at);
    tp->holder = base + l.holder_at;
    tp->arena = base + l.arena_at;
    struct db_node *n = &db->node[node];
    uint64_t added = 0;
    mcapi_status_t st = MCAPI_ERR_NODE_INITIALIZED;
    uint64_t self = drv_shm_self();
    tp_lock(tp->db, &db->lock);
    /* A node whose process died without finalising: take it over. */
    if (n->state == NODE_REGULAR && !drv_shm_alive(n->owner)) tp_node_reclaim(tp);
    if (n->state == NODE_FREE) st = tp_route_add(db, dom, node, param, &added);
    if (st == MCAPI_SUCCESS) {
        tp_lock(tp->db, &n->lock);
        n->state = NODE_REGULAR;
        n->owner = self;
        n->type = MCAPI_NODE_ATTR_TYPE_REGULAR;
        drv_shm_unlock(&n->lock);
        info->mcapi_version = MCAPI_VERSION;
        info->organization_id = MCAPI_ORG_ID;
        info->implementation_version = MCAPI_IMPL_VERSION;
        info->number_of_domains = 1; /* nodes reach their own domain only */
        info->number_of_nodes = 0;
        for (unsigned i = 0; i < MCA_MAX_NODES; i++)
            info->number_of_nodes += db->node[i].state != NODE_FREE;
        info->number_of_ports = MCAPI_MAX_PORT - MCAPI_MIN_PORT + 1;
    }
    drv_shm_unlock(&db->lock);
    if (st != MCAPI_SUCCESS) {
        tp_db_unmap(db);
        free(tp);
        return st;
    }
    tp_wake(tp, added);
    *out = tp;
    return MCAPI_SUCCESS;
}

void tp_node_detach(struct tp_node *tp)
{
    struct db *db = tp->db;
    /* Packets first: a peer that sees this node's channel ends closed finds
     * the packets it held back in the pool. */
    tp_pkt_release_all(tp);
    for (unsigned i = 0; i < MCAPI_MAX_ENDPOINTS; i++) {
        int slot = (int)(tp->node * MCAPI_MAX_ENDPOINTS + i);
        if (db->endp[slot].ident) tp_endp_remove(tp, slot);
    }
    struct db_node *n = &db->node[tp->node];
    tp_lock(tp->db, &db->lock);
    tp_lock(tp->db, &n->lock);
    n->state = NODE_FREE;
    n->owner = 0;
    drv_shm_unlock(&n->lock);
    drv_shm_unlock(&db->lock);
    tp_db_unmap(db);
    free(tp);
}
