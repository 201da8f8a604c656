/*
 * transport/shm/chan.c -- packet and scalar channels: connect, open, close.
 *
 * A channel is an entry of the domain's channel table holding the queue
 * of its receiving end and the state of both ends (db.h, enum db_side).
 * Connect (by anyone) links two endpoints to a free entry. Each owner then
 * opens its end; an open completes once the channel is connected, whether
 * or not the other end has opened (so one thread may open the send end,
 * wait, then open the receive end, as the reference implementation's tests
 * do): packets and scalars sent before the receiver opens wait in the
 * receiving end's queue, which exists from the connect. An open whose other
 * end was closed (or its endpoint deleted) without ever opening succeeds
 * too; the first send on it, or a receive once the queue is empty, is then
 * MCAPI_ERR_CHAN_NOTOPEN, as after a close. Closing an end detaches its endpoint at
 * once (it may be connected anew); the entry is freed when both ends are
 * closed. Closing the receiving end drops what is queued; a sender then
 * gets MCAPI_ERR_CHAN_NOTOPEN, and so does a receiver that has emptied
 * the queue of a channel whose sender closed.
 */
#include "db.h"
#include "../handle.h"

/* An end's state: sends and receives read it without the lock (ring.c). */
static void set_side(struct db_chan *c, unsigned d, enum db_side v)
{
    __atomic_store_n(&c->side[d], (uint8_t)v, __ATOMIC_SEQ_CST);
}

/* A channel handle of the caller's: MCAPI_SUCCESS (open), or
 * MCAPI_ERR_CHAN_NOTOPEN (closed since), or MCAPI_ERR_CHAN_INVALID. */
mcapi_status_t tp_chan_handle(struct tp_node *tp, mcapi_uint32_t h, int *slot)
{
    unsigned k = h_kind(h), s = h_slot(h);
    if (k < HK_CHAN || k > h_chan_kind(TP_SCL, TP_RECV) || h_dom(h) != tp->dom || s >= DB_SLOTS ||
        s / MCAPI_MAX_ENDPOINTS != tp->node)
        return MCAPI_ERR_CHAN_INVALID;
    const struct db_endp *e = &tp->db->endp[s];
    if (e->chandle != h) return MCAPI_ERR_CHAN_INVALID;
    *slot = (int)s;
    return e->chopen ? MCAPI_SUCCESS : MCAPI_ERR_CHAN_NOTOPEN;
}

/* The channel of a send or receive on handle op->h. While the caller's
 * end is open nobody else changes its endpoint's link. */
mcapi_status_t tp_chan_use(struct tp_node *tp, struct tp_op *op, struct db_chan **c)
{
    int s = 0;
    mcapi_status_t st = tp_chan_handle(tp, op->h, &s);
    if (st != MCAPI_SUCCESS) return st;
    if (h_kind(op->h) != h_chan_kind(op->chan, op->dir)) return MCAPI_ERR_CHAN_INVALID;
    *c = &tp->db->chan[tp->db->endp[s].chan];
    return MCAPI_SUCCESS;
}

mcapi_status_t tp_chan_connect(struct tp_node *tp, struct tp_op *op)
{
    struct db *db = tp->db;
    int ss = tp_endp_slot(tp, op->h), rs = tp_endp_slot(tp, op->to);
    if (ss < 0 || rs < 0) return MCAPI_ERR_ENDP_INVALID;
    if (ss >= DB_SLOTS || rs >= DB_SLOTS) {
        /* A virtual node's endpoints take messages only. */
        mcapi_status_t st = MCAPI_ERR_ATTR_INCOMPATIBLE;
        if (ss >= DB_SLOTS && tp_own_check(tp, op->h) == MCAPI_ERR_ENDP_INVALID)
            st = MCAPI_ERR_ENDP_INVALID;
        if (rs >= DB_SLOTS && tp_own_check(tp, op->to) == MCAPI_ERR_ENDP_INVALID)
            st = MCAPI_ERR_ENDP_INVALID;
        return st;
    }
    struct db_endp *s = &db->endp[ss], *r = &db->endp[rs];
    struct db_endp *first = ss < rs ? s : r, *second = ss < rs ? r : s;
    mcapi_status_t st = MCAPI_SUCCESS;
    uint64_t w = 0;
    tp_lock(tp->db, &db->lock);
    tp_lock(tp->db, &first->lock);
    if (second != first) tp_lock(tp->db, &second->lock);
    unsigned c = 0;
    if (s->ident != op->h || r->ident != op->to)
        st = MCAPI_ERR_ENDP_INVALID;
    else if (s == r || s->chan >= 0 || r->chan >= 0)
        st = MCAPI_ERR_CHAN_CONNECTED;
    else if (s->a.max_payload != r->a.max_payload || s->a.priority != r->a.priority)
        st = MCAPI_ERR_ATTR_INCOMPATIBLE;
    else {
        while (c < MCAPI_MAX_CHANNELS && db->chan[c].used) c++;
        if (c == MCAPI_MAX_CHANNELS) st = MCAPI_ERR_MEM_LIMIT;
    }
    if (st == MCAPI_SUCCESS) {
        struct db_chan *ch = &db->chan[c];
        tp_lock(tp->db, &ch->lock);
        ch->used = 1;
        ch->type = op->chan;
        set_side(ch, TP_SEND, SIDE_CONN);
        set_side(ch, TP_RECV, SIDE_CONN);
        ch->fail = tp_endp_fail(s) || tp_endp_fail(r);
        (void)tp_ring_take(ch);
        ch->taking = 0;
        tp_ring_init(&ch->ring); /* empty: the last end to close drained it */
        drv_shm_unlock(&ch->lock);
        s->chan = r->chan = (int16_t)c;
        s->dir = TP_SEND;
        r->dir = TP_RECV;
        /* Opens that waited for a connection. */
        w = tp_take_waiters(&s->waiters) | tp_take_waiters(&r->waiters);
    }
    if (second != first) drv_shm_unlock(&second->lock);
    drv_shm_unlock(&first->lock);
    drv_shm_unlock(&db->lock);
    tp_wake(tp, w);
    return st;
}

/* TP_OPEN: done at once if connected, else pending until the connect. */
mcapi_status_t tp_chan_open(struct tp_node *tp, struct tp_op *op)
{
    struct db_endp *e = tp_own_endp(tp, op->h);
    if (!e) return MCAPI_ERR_ENDP_DELETED; /* check() saw it: deleted while pending */
    mcapi_status_t st = MCAPI_PENDING;
    tp_lock(tp->db, &e->lock);
    if (!op->state) {
        if (e->opening || e->chopen) {
            drv_shm_unlock(&e->lock);
            return e->chopen ? MCAPI_ERR_CHAN_OPEN : MCAPI_ERR_CHAN_OPENPENDING;
        }
        e->opening = 1;
        op->state = 1;
    }
    if (e->chan >= 0) {
        struct db_chan *c = &tp->db->chan[e->chan];
        unsigned d = e->dir;
        tp_lock(tp->db, &c->lock);
        /* Connected: the open's outcome is known (a closed end has no chan). */
        if (c->type != op->chan)
            st = MCAPI_ERR_CHAN_TYPE;
        else if (d != op->dir)
            st = MCAPI_ERR_CHAN_DIRECTION;
        else {
            set_side(c, d, SIDE_OPEN);
            st = MCAPI_SUCCESS;
        }
        drv_shm_unlock(&c->lock);
    } else {
        e->waiters |= tp->bit; /* connect wakes us */
    }
    if (st != MCAPI_PENDING) e->opening = 0;
    if (st == MCAPI_SUCCESS) {
        e->chgen = (uint16_t)((e->chgen + 1u) & H_GEN_MASK);
        e->chandle =
            h_make(h_chan_kind(op->chan, op->dir), tp->dom, e->chgen, (unsigned)(e - tp->db->endp));
        e->chopen = 1;
        *op->out_h = e->chandle;
    }
    drv_shm_unlock(&e->lock);
    return st;
}

void tp_chan_open_abort(struct tp_node *tp, struct tp_op *op)
{
    struct db_endp *e = tp_own_endp(tp, op->h);
    if (!e || !op->state) return;
    tp_lock(tp->db, &e->lock);
    e->opening = 0; /* an open pends only before the connect: no side to undo */
    drv_shm_unlock(&e->lock);
}

/* Close e's end of its channel and unlink e (domain lock and e's lock
 * held). The other end learns of it through the channel's state. */
void tp_chan_detach(struct tp_node *tp, struct db_endp *e)
{
    struct db_chan *c = &tp->db->chan[e->chan];
    unsigned d = e->dir;
    tp_lock(tp->db, &c->lock);
    set_side(c, d, SIDE_CLOSED);
    bool gone = c->side[!d] == SIDE_CLOSED;
    /* A receiver that died before its pop left c->taking the ring's next
     * packet: the drain gives it back. */
    const struct db_slot *x = d == TP_RECV && c->taking ? tp_ring_peek(&c->ring) : NULL;
    if (x && x->data == c->taking - 1) c->taking = 0;
    /* Drop what is queued. The sender may still push until it sees the
     * close: its own close, the last, drops that. */
    if (d == TP_RECV || gone) {
        while ((x = tp_ring_peek(&c->ring))) {
            if (c->type == TP_PKT) tp_pkts_put(tp, (uint32_t)x->data);
            tp_ring_pop(&c->ring);
        }
    }
    /* Only a receiver that died between its pop and its hold leaves one. */
    if (d == TP_RECV && c->taking) tp_pkts_put_taken(tp, c->taking - 1);
    if (d == TP_RECV) c->taking = 0;
    if (gone) c->used = 0;
    uint64_t w = tp_ring_take(c);
    drv_shm_unlock(&c->lock);
    e->chan = -1;
    tp_wake(tp, w);
}

/* TP_CLOSE: completes at once. */
mcapi_status_t tp_chan_close(struct tp_node *tp, struct tp_op *op)
{
    int s = 0;
    mcapi_status_t st = tp_chan_handle(tp, op->h, &s); /* check() saw to its kind */
    if (st != MCAPI_SUCCESS) return st;
    struct db *db = tp->db;
    struct db_endp *e = &db->endp[s];
    tp_lock(tp->db, &db->lock);
    tp_lock(tp->db, &e->lock);
    tp_chan_detach(tp, e);
    e->chopen = 0;
    drv_shm_unlock(&e->lock);
    drv_shm_unlock(&db->lock);
    return MCAPI_SUCCESS;
}
