/*
 * transport/shm/attr.c -- endpoint and node attributes.
 *
 * An attribute is read or written whole, with exactly the size of its type
 * in mcapi.h. Numbers past MCAPI_ENDP_ATTR_END are unknown
 * (MCAPI_ERR_ATTR_NUM), except the organisations' ranges
 * (mcapi_start_endp_attribute), none of which this implementation has
 * (MCAPI_ERR_ATTR_NOTSUPPORTED). Only the owner changes an endpoint's
 * attributes, and while the endpoint is connected only its timeout: the
 * others decide whether a channel may connect and how it behaves.
 */
#include "db.h"
#include "../handle.h"

#include <string.h>

static void defaults(struct tp_attr_vals *s)
{
    memset(s, 0, sizeof *s);
    s->type = MCAPI_ENDP_ATTR_TYPE_MESSAGE;
    s->source.domain_id = MCAPI_DOMAIN_INVALID;
    s->source.node_id = MCAPI_NODE_INVALID;
    s->max_payload = MCAPI_MAX_MSG_SIZE;
    s->buffer_type = MCAPI_ENDP_ATTR_FIFO_BUFFER;
    s->memtype = MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_BLOCK_ON_MEM_LIMIT;
    s->nprio = MCAPI_MAX_PRIORITY + 1;
    s->prio = MCAPI_MAX_PRORITY;
    s->recv_bufs = MCAPI_MAX_QUEUE_ELEMENTS;
    s->timeout = MCAPI_TIMEOUT_INFINITE;
}

/* Endpoint e's attributes (its lock held). */
static void take(struct tp_node *tp, const struct db_endp *e, struct tp_attr_vals *s)
{
    struct db *db = tp->db;
    const struct db_queue *q = &e->q;
    bool pkt = false;
    defaults(s);
    s->gets = e->gets;
    s->source.domain_id = e->get_dom;
    s->source.node_id = e->get_node;
    tp_attr_from(s, &e->a);
    if (e->opening) s->status |= MCAPI_ENDP_ATTR_STATUS_OPEN_PENDING;
    if (e->chopen) s->status |= MCAPI_ENDP_ATTR_STATUS_OPEN;
    if (e->chan >= 0) {
        struct db_chan *c = &db->chan[e->chan];
        tp_lock(tp->db, &c->lock);
        pkt = c->type == TP_PKT;
        s->type = pkt ? MCAPI_ENDP_ATTR_TYPE_PKTCHAN : MCAPI_ENDP_ATTR_TYPE_SCLCHAN;
        /* The second group of flags shares the first's values: the high
         * half (mcapi.h). */
        s->status |=
            MCAPI_ENDP_ATTR_STATUS_CONNECTED |
            (pkt ? MCAPI_ENDP_ATTR_STATUS_PKTCHAN : MCAPI_ENDP_ATTR_STATUS_SCLCHAN) << 16 |
            (e->dir == TP_SEND ? MCAPI_ENDP_ATTR_STATUS_SEND : MCAPI_ENDP_ATTR_STATUS_RECEIVE)
                << 16;
        s->recv_bufs =
            MCAPI_MAX_QUEUE_ELEMENTS -
            (e->dir == TP_RECV ? (mcapi_int_t)tp_ring_count(&c->ring) : q->count + q->reserved);
        drv_shm_unlock(&c->lock);
    } else {
        s->recv_bufs = MCAPI_MAX_QUEUE_ELEMENTS - q->count - q->reserved;
    }
    s->send_bufs = (mcapi_int_t)(pkt ? tp_pkts_free(tp) : tp_pool_free(db, &db->msg));
}

mcapi_status_t tp_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size)
{
    int slot = tp_endp_slot(tp, ep);
    struct tp_attr_vals s;
    if (slot < 0) return MCAPI_ERR_ENDP_INVALID;
    if (slot >= DB_SLOTS) {
        if (tp_own_check(tp, ep) == MCAPI_ERR_ENDP_INVALID) return MCAPI_ERR_ENDP_INVALID;
        defaults(&s);
        s.send_bufs = (mcapi_int_t)tp_pool_free(tp->db, &tp->db->msg);
    } else {
        struct db_endp *e = &tp->db->endp[slot];
        tp_lock(tp->db, &e->lock);
        bool ok = e->ident == ep;
        if (ok) take(tp, e, &s);
        drv_shm_unlock(&e->lock);
        if (!ok) return MCAPI_ERR_ENDP_INVALID;
    }
    mcapi_status_t chk = tp_attr_check(num, size);
    if (chk != MCAPI_SUCCESS) return chk;
    tp_attr_put(&s, num, attr);
    return MCAPI_SUCCESS;
}

mcapi_status_t tp_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size)
{
    struct db_endp *e = tp_own_endp(tp, ep);
    if (!e) return tp_own_check(tp, ep);
    mcapi_status_t chk = tp_attr_settable(num, attr, size);
    if (chk != MCAPI_SUCCESS) return chk;
    mcapi_status_t st = MCAPI_SUCCESS;
    tp_lock(tp->db, &e->lock);
    if (num != MCAPI_ENDP_ATTR_TIMEOUT && e->chan >= 0) {
        st = MCAPI_ERR_CHAN_CONNECTED;
    } else {
        tp_attr_store(&e->a, num, attr);
    }
    drv_shm_unlock(&e->lock);
    return st;
}

mcapi_status_t tp_attr_node(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size)
{
    if (dom != tp->dom) return MCAPI_ERR_DOMAIN_INVALID;
    struct db_node *n = &tp->db->node[node];
    tp_lock(tp->db, &n->lock);
    mcapi_node_attr_type_t type = n->type;
    bool live = n->state != NODE_FREE;
    drv_shm_unlock(&n->lock);
    if (!live) return MCAPI_ERR_NODE_INVALID;
    if (num >= MCAPI_NODE_ATTR_END) return tp_attr_unknown(num);
    if (size != sizeof type) return MCAPI_ERR_ATTR_SIZE;
    memcpy(attr, &type, sizeof type);
    return MCAPI_SUCCESS;
}
