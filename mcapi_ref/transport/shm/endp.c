/*
 * transport/shm/endp.c -- the endpoint table: handles, create, get, delete,
 * release.
 *
 * Endpoint i of node n is slot n * MCAPI_MAX_ENDPOINTS + i, so a handle
 * names its owner. Each node has a port map (port -> slot), which makes
 * create's MCAPI_ERR_ENDP_EXISTS and get's lookup one index each.
 */
#include "db.h"
#include "../handle.h"

/* A virtual node's endpoints exist whenever its route does. */
static bool virtual_ok(struct tp_node *tp, unsigned node)
{
    struct db_node *n = &tp->db->node[node];
    tp_lock(tp->db, &n->lock);
    bool ok = n->state == NODE_VIRTUAL;
    drv_shm_unlock(&n->lock);
    return ok;
}

/* The slot an endpoint handle of this domain names (>= DB_SLOTS: a virtual
 * node's endpoint), or -1. Says nothing about whether it exists. */
int tp_endp_slot(const struct tp_node *tp, mcapi_uint32_t h)
{
    if (h_kind(h) != HK_EP || h_dom(h) != tp->dom) return -1;
    unsigned s = h_slot(h);
    if (s < DB_SLOTS) return (int)s;
    if (s < DB_SLOTS + MCA_MAX_NODES && h_gen(h) <= MCAPI_MAX_PORT) return (int)s;
    return -1;
}

/* The caller's own endpoint h, or NULL. Only the owner changes an
 * endpoint's identity, so the owner may read it without the lock. */
struct db_endp *tp_own_endp(struct tp_node *tp, mcapi_uint32_t h)
{
    int s = tp_endp_slot(tp, h);
    if (s < 0 || s >= DB_SLOTS || (unsigned)s / MCAPI_MAX_ENDPOINTS != tp->node) return NULL;
    struct db_endp *e = &tp->db->endp[s];
    return e->ident == h ? e : NULL;
}

/* MCAPI_SUCCESS for an own endpoint, MCAPI_ERR_ENDP_REMOTE for another
 * node's (virtual ones included), else MCAPI_ERR_ENDP_INVALID. */
mcapi_status_t tp_own_check(struct tp_node *tp, mcapi_uint32_t h)
{
    if (tp_own_endp(tp, h)) return MCAPI_SUCCESS;
    int s = tp_endp_slot(tp, h);
    if (s < 0) return MCAPI_ERR_ENDP_INVALID;
    if (s >= DB_SLOTS)
        return virtual_ok(tp, (unsigned)s - DB_SLOTS) ? MCAPI_ERR_ENDP_REMOTE
                                                      : MCAPI_ERR_ENDP_INVALID;
    if ((unsigned)s / MCAPI_MAX_ENDPOINTS == tp->node) return MCAPI_ERR_ENDP_INVALID;
    struct db_endp *e = &tp->db->endp[s];
    tp_lock(tp->db, &e->lock);
    bool exists = e->ident == h;
    drv_shm_unlock(&e->lock);
    return exists ? MCAPI_ERR_ENDP_REMOTE : MCAPI_ERR_ENDP_INVALID;
}

bool tp_endp_fail(const struct db_endp *e)
{
    return (e->a.memtype & MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT) != 0;
}

/* Drop every queued message (lock held). */
static void discard(struct tp_node *tp, struct db_endp *e)
{
    struct db_entry x;
    while (tp_q_count(&e->q)) {
        tp_q_pop(&e->q, &x);
        tp_pool_put(tp, &tp->db->msg, (uint32_t)x.data);
    }
    tp_q_init(&e->q);
}

mcapi_status_t tp_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep)
{
    struct db *db = tp->db;
    struct db_node *n = &db->node[tp->node];
    unsigned base = tp->node * MCAPI_MAX_ENDPOINTS, i = 0;
    tp_lock(tp->db, &n->lock);
    while (i < MCAPI_MAX_ENDPOINTS && db->endp[base + i].ident) i++;
    if (port == (mcapi_port_t)MCAPI_PORT_ANY) {
        port = MCAPI_MIN_PORT;
        while (port <= MCAPI_MAX_PORT && n->port[port]) port++;
    }
    mcapi_status_t st = MCAPI_SUCCESS;
    if (port > MCAPI_MAX_PORT || n->port[port])
        st = MCAPI_ERR_ENDP_EXISTS; /* MCAPI_PORT_ANY cannot run out first */
    else if (i == MCAPI_MAX_ENDPOINTS)
        st = MCAPI_ERR_MEM_LIMIT;
    uint64_t w = 0;
    if (st == MCAPI_SUCCESS) {
        struct db_endp *e = &db->endp[base + i];
        tp_lock(tp->db, &e->lock);
        e->gen = (uint16_t)((e->gen + 1u) & H_GEN_MASK);
        e->ident = h_make(HK_EP, tp->dom, e->gen, base + i);
        e->port = (uint16_t)port;
        e->a.timeout = MCAPI_TIMEOUT_INFINITE;
        e->a.memtype = MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_BLOCK_ON_MEM_LIMIT;
        e->a.priority = MCAPI_MAX_PRORITY;
        e->a.max_payload = MCAPI_MAX_PKT_SIZE;
        e->gets = 0;
        e->get_dom = MCAPI_DOMAIN_INVALID;
        e->get_node = MCAPI_NODE_INVALID;
        e->chan = -1;
        e->opening = 0;
        e->chopen = 0;
        e->chandle = 0;
        tp_q_init(&e->q);
        *ep = e->ident;
        drv_shm_unlock(&e->lock);
        n->port[port] = (uint8_t)(i + 1);
        w = tp_take_waiters(&n->waiters);
    }
    drv_shm_unlock(&n->lock);
    tp_wake(tp, w);
    return st;
}

/* TP_GET: <dom, node, port> once it exists. */
mcapi_status_t tp_endp_get(struct tp_node *tp, struct tp_op *op)
{
    struct db *db = tp->db;
    struct db_node *n = &db->node[op->node];
    mcapi_status_t st = MCAPI_SUCCESS;
    tp_lock(tp->db, &n->lock);
    if (n->state == NODE_VIRTUAL) {
        *op->out_h = h_make(HK_EP, tp->dom, op->port, DB_SLOTS + op->node);
    } else if (!n->port[op->port]) {
        n->waiters |= tp->bit;
        st = MCAPI_PENDING;
    } else {
        struct db_endp *e = &db->endp[op->node * MCAPI_MAX_ENDPOINTS + n->port[op->port] - 1];
        tp_lock(tp->db, &e->lock);
        if (e->gets >= MCAPI_MAX_ENDPOINT_GETS) {
            st = MCAPI_ERR_ENDP_GET_LIMIT;
        } else {
            e->gets++;
            e->get_dom = tp->dom;
            e->get_node = tp->node;
            *op->out_h = e->ident;
        }
        drv_shm_unlock(&e->lock);
    }
    drv_shm_unlock(&n->lock);
    return st;
}

/* Delete slot (the caller's): close its channel end, drop its queue. */
void tp_endp_remove(struct tp_node *tp, int slot)
{
    tp_lock(tp->db, &tp->db->lock);
    tp_endp_remove_locked(tp, slot);
    drv_shm_unlock(&tp->db->lock);
}

void tp_endp_remove_locked(struct tp_node *tp, int slot)
{
    struct db *db = tp->db;
    struct db_endp *e = &db->endp[slot];
    struct db_node *n = &db->node[tp->node];
    tp_lock(tp->db, &n->lock);
    tp_lock(tp->db, &e->lock);
    e->opening = 0; /* a pending open request finds the endpoint gone */
    e->chopen = 0;
    e->chandle = 0;
    if (e->chan >= 0) tp_chan_detach(tp, e);
    discard(tp, e);
    n->port[e->port] = 0;
    e->ident = 0;
    uint64_t w = tp_take_waiters(&e->waiters);
    drv_shm_unlock(&e->lock);
    drv_shm_unlock(&n->lock);
    tp_wake(tp, w); /* blocked senders: the endpoint is gone */
}

mcapi_status_t tp_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep)
{
    struct db_endp *e = tp_own_endp(tp, ep);
    if (!e) {
        mcapi_status_t st = tp_own_check(tp, ep);
        return st == MCAPI_ERR_ENDP_REMOTE ? MCAPI_ERR_ENDP_NOTOWNER : st;
    }
    if (e->chopen) return MCAPI_ERR_CHAN_OPEN;
    tp_endp_remove(tp, (int)(e - tp->db->endp));
    return MCAPI_SUCCESS;
}

mcapi_status_t tp_endp_release(struct tp_node *tp, mcapi_endpoint_t ep)
{
    int s = tp_endp_slot(tp, ep);
    if (s < 0) return MCAPI_ERR_ENDP_INVALID;
    if (s >= DB_SLOTS)
        return virtual_ok(tp, (unsigned)s - DB_SLOTS) ? MCAPI_SUCCESS : MCAPI_ERR_ENDP_INVALID;
    struct db_endp *e = &tp->db->endp[s];
    mcapi_status_t st = MCAPI_ERR_ENDP_INVALID;
    tp_lock(tp->db, &e->lock);
    if (e->ident == ep && e->gets > 0) {
        e->gets--;
        st = MCAPI_SUCCESS;
    }
    drv_shm_unlock(&e->lock);
    return st;
}
