/*
 * transport/shm/route.c -- the static mapping: which route a node's traffic
 * takes.
 *
 * As in FUNCAPI's mcapi_mapping.h, a node's route is one line: a
 * struct mcapi_route in mcapi_param_t.routes. A regular node (MCAPI_ROUTE_SHM,
 * the default for any node without a line) is reached through the queues of
 * the shared region. A virtual node (MCAPI_ROUTE_ACCEL) is a fixed-function
 * block: a message sent to any of its ports is the block's input, and the
 * block's output -- as many bytes -- comes back as a message to the sending
 * endpoint, with the same priority. Routes are kept in the region's node
 * table, so every node of the domain sees the routes any node declared.
 */
#include "db.h"
#include "../handle.h"
#include "../../drivers/accel.h"

#include <string.h>

/* Routes of domain dom in param: MCAPI_SUCCESS, or MCAPI_ERR_NODE_INITFAILED
 * when one contradicts the node table (domain lock held). *added: the nodes
 * that became virtual. */
mcapi_status_t tp_route_add(struct db *db, mcapi_domain_t dom, mcapi_node_t self,
                            const mcapi_param_t *param, uint64_t *added)
{
    *added = 0;
    unsigned n = param ? param->nroutes : 0;
    for (unsigned i = 0; i < n; i++) {
        const struct mcapi_route *r = &param->routes[i];
        if (r->domain != dom) continue;
        const struct db_node *d = &db->node[r->node];
        bool accel = r->kind == MCAPI_ROUTE_ACCEL;
        if (accel && (r->node == self || d->state == NODE_REGULAR ||
                      (d->state == NODE_VIRTUAL && strcmp(d->device, r->device) != 0)))
            return MCAPI_ERR_NODE_INITFAILED;
        if (!accel && d->state == NODE_VIRTUAL) return MCAPI_ERR_NODE_INITFAILED;
    }
    for (unsigned i = 0; i < n; i++) {
        const struct mcapi_route *r = &param->routes[i];
        struct db_node *d = &db->node[r->node];
        if (r->domain != dom || r->kind != MCAPI_ROUTE_ACCEL || d->state == NODE_VIRTUAL) continue;
        tp_lock(db, &d->lock);
        d->state = NODE_VIRTUAL;
        d->type = MCAPI_NODE_ATTR_TYPE_REGULAR;
        strcpy(d->device, r->device);
        *added |= tp_take_waiters(&d->waiters); /* gets of its endpoints */
        drv_shm_unlock(&d->lock);
    }
    return MCAPI_SUCCESS;
}

/* The device of virtual node vn, opened once per node. */
static plat_accel *device(struct tp_node *tp, unsigned vn)
{
    if (tp->accel[vn]) return tp->accel[vn];
    struct db_node *d = &tp->db->node[vn];
    char name[DB_DEVICE_LEN];
    tp_lock(tp->db, &d->lock);
    bool ok = d->state == NODE_VIRTUAL;
    if (ok) memcpy(name, d->device, sizeof name);
    drv_shm_unlock(&d->lock);
    return ok ? (tp->accel[vn] = drv_accel_open(name)) : NULL;
}

/* Give back the reply slot reserved in the sender's own queue. */
static void unreserve(struct db *db, struct db_endp *from, mcapi_uint32_t h)
{
    tp_lock(db, &from->lock);
    if (from->ident == h && from->q.reserved) from->q.reserved--;
    drv_shm_unlock(&from->lock);
}

/* TP_MSG_SEND to a virtual node. The reply needs a place in the sender's
 * queue and a buffer before the block runs: op->state 1 holds the place,
 * op->held the buffer. */
mcapi_status_t tp_route_accel(struct tp_node *tp, struct tp_op *op)
{
    struct db *db = tp->db;
    struct db_endp *from = tp_own_endp(tp, op->h);
    if (!from) { /* check() saw it: deleted while the send waited */
        tp_route_accel_abort(tp, op);
        return MCAPI_ERR_ENDP_DELETED;
    }
    bool fail = tp_endp_fail(from);
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!op->state) {
        tp_lock(tp->db, &from->lock);
        if (!tp_q_full(&from->q)) {
            from->q.reserved++;
            op->state = 1;
        } else if (fail) {
            st = MCAPI_ERR_MEM_LIMIT;
        } else {
            from->waiters |= tp->bit;
            st = MCAPI_PENDING;
        }
        drv_shm_unlock(&from->lock);
        if (st != MCAPI_SUCCESS) return st;
    }
    if (!op->held && tp_pool_get(tp, &db->msg, &op->held) != MCAPI_SUCCESS) {
        if (!fail) return MCAPI_PENDING;
        tp_route_accel_abort(tp, op);
        return MCAPI_ERR_MEM_LIMIT;
    }
    plat_accel *a = device(tp, h_slot(op->to) - DB_SLOTS);
    if (!a || !drv_accel_run(a, op->src, db->msgbuf[op->held - 1], op->len)) {
        tp_route_accel_abort(tp, op);
        return MCAPI_ERR_TRANSMISSION;
    }
    tp_lock(tp->db, &from->lock);
    from->q.reserved--;
    tp_q_push(&from->q, op->held - 1, (uint32_t)op->len, op->prio);
    uint64_t w = tp_take_waiters(&from->waiters);
    drv_shm_unlock(&from->lock);
    op->held = 0;
    op->state = 0;
    tp_wake(tp, w);
    plat_work_cycles(tp->xfer_cycles);
    op->size = op->len;
    return MCAPI_SUCCESS;
}

void tp_route_accel_abort(struct tp_node *tp, struct tp_op *op)
{
    struct db_endp *from = &tp->db->endp[h_slot(op->h) % DB_SLOTS];
    if (op->state) unreserve(tp->db, from, op->h);
    if (op->held) tp_pool_put(tp, &tp->db->msg, op->held - 1);
    op->state = 0;
    op->held = 0;
}
