/*
 * xmcapi/xm_endp.c -- XMCAPI's endpoints: handles, get, create, delete,
 * release, attributes.
 *
 * An endpoint handle is the endpoint's address and generation (xm_h:
 * domain, node, generation, port), so a remote one needs no table here:
 * only the node's own endpoints have state (tp->ep). The generation tells
 * an endpoint from the one created on its port before it: a handle of a
 * deleted endpoint is refused here, and its owner drops a message sent to
 * it. The owner counts the gets of an endpoint (a remote get asks it,
 * XW_GET; a release gives one back, XW_RELEASE) and remembers which nodes
 * got it, whom a delete tells (XW_DELETED) and waits for, so that once the
 * delete returns their calls on the handle fail; a node that finalises
 * tells them by closing its connections (docs/xmcapi.md, "Endpoint
 * lifecycle"). Every entry takes the node's mutex but the get, a step,
 * which runs under step()'s (xm_tp.c).
 */
#include "xm.h"

#include <stdlib.h>
#include <string.h>

#define GET_NOW 1u /* XW_GET payload bit: answer at once, found or not */

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xffffu);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)get16(p) << 16 | get16(p + 2);
}

struct xm_ep *xm_ep_by_port(struct tp_node *tp, unsigned port)
{
    for (unsigned i = 0; i < XM_EPS; i++)
        if (tp->ep[i].live && tp->ep[i].port == port) return &tp->ep[i];
    return NULL;
}

/* A new endpoint's generation: the one after the last any endpoint of this
 * core had, so a node's next life (finalise, initialise) does not hand out
 * its last life's handles either. The core's XMCAPI slot keeps it, as a
 * number (no memory behind it). The first life on a core starts where the
 * clock says: a node restarted in another process likely starts elsewhere
 * than the one before. */
static uint16_t new_gen(struct tp_node *tp)
{
    /* Atomic: the nodes of threads on one core share its slot. */
    void **slot = plat_core_slot(PLAT_SLOT_XMCAPI);
    if (!tp->last_gen) {
        uintptr_t g = (uintptr_t)__atomic_load_n(slot, __ATOMIC_RELAXED);
        tp->last_gen =
            (uint16_t)(g ? g : (plat_now_ns() * 0x9E3779B97F4A7C15ull >> 40) % XM_GEN_MAX);
    }
    tp->last_gen = (uint16_t)(tp->last_gen % XM_GEN_MAX + 1);
    __atomic_store_n(slot, (void *)(uintptr_t)tp->last_gen, __ATOMIC_RELAXED);
    return tp->last_gen;
}

void xm_attrs_put(uint8_t *p, const struct tp_attrs *a)
{
    put32(p, (uint32_t)a->max_payload);
    put16(p + 4, a->priority);
}

bool xm_attrs_fit(const struct tp_attrs *a, const uint8_t *p)
{
    return (uint32_t)a->max_payload == get32(p) && a->priority == get16(p + 4);
}

bool xm_ep_gone(const struct tp_node *tp, uint32_t h)
{
    const struct xm_peer *pe = &tp->peer[XM_PEER(XM_H_DOM(h), XM_H_NODE(h))];
    return pe->gone && pe->gone[XM_H_PORT(h)] == XM_H_GEN(h);
}

/* Whether endpoint handle h names an endpoint: one of ours that exists, or
 * one of another node of the topology that its node has not said it
 * deleted. */
bool xm_ep_valid(const struct tp_node *tp, uint32_t h)
{
    if (XM_H_KIND(h) != 1 || !XM_H_GEN(h) || !xt_find(tp->topo, XM_H_DOM(h), XM_H_NODE(h)))
        return false;
    if (!xm_is_self(tp, h)) return !xm_ep_gone(tp, h);
    for (unsigned i = 0; i < XM_EPS; i++)
        if (tp->ep[i].live && tp->ep[i].port == XM_H_PORT(h)) return tp->ep[i].gen == XM_H_GEN(h);
    return false;
}

/* The caller's own endpoint h, or NULL with the status why not
 * (MCAPI_ERR_ENDP_REMOTE: another node's, as the other transports say). */
struct xm_ep *xm_own(struct tp_node *tp, uint32_t h, mcapi_status_t *st)
{
    bool valid = xm_ep_valid(tp, h);
    struct xm_ep *e = valid && xm_is_self(tp, h) ? xm_ep_by_port(tp, XM_H_PORT(h)) : NULL;
    if (!e) *st = valid ? MCAPI_ERR_ENDP_REMOTE : MCAPI_ERR_ENDP_INVALID;
    return e;
}

/* Wait for the communicator's next round (mu held, released meanwhile);
 * false once deadline has passed. */
static bool nap(struct tp_node *tp, uint64_t deadline)
{
    uint64_t now = plat_now_ns();
    if (now >= deadline) return false;
    uint32_t epoch = plat_event_epoch(&tp->ev);
    plat_mutex_unlock(&tp->mu);
    (void)plat_event_wait(&tp->ev, epoch, deadline - now);
    plat_mutex_lock(&tp->mu);
    return true;
}

static void refuse(struct tp_node *tp, unsigned p, unsigned type, unsigned port, uint32_t qp,
                   mcapi_status_t st)
{
    uint8_t s4[4];
    put32(s4, (uint32_t)st);
    xm_ctl(tp, p, type, XW_F_ACK | XW_F_REFUSED, port, qp, s4, 4);
}

/* A get of e by peer p (ourselves included): counted, or refused past
 * MCAPI_MAX_ENDPOINT_GETS. */
static mcapi_status_t count_get(struct tp_node *tp, struct xm_ep *e, unsigned p)
{
    if (e->gets >= MCAPI_MAX_ENDPOINT_GETS) return MCAPI_ERR_ENDP_GET_LIMIT;
    e->gets++;
    e->get_src = (uint16_t)p;
    if (p != tp->self) e->getters[p / 8] |= (uint8_t)(1u << (p % 8));
    return MCAPI_SUCCESS;
}

/* Answer peer p's get (its id qp) of endpoint e. */
static void answer_get(struct tp_node *tp, struct xm_ep *e, unsigned p, uint32_t qp)
{
    mcapi_status_t st = count_get(tp, e, p);
    uint8_t g[2];
    put16(g, e->gen);
    if (st == MCAPI_SUCCESS)
        xm_ctl(tp, p, XW_GET, XW_F_ACK, e->port, qp, g, 2);
    else
        refuse(tp, p, XW_GET, e->port, qp, st);
}

/* A peer asks whether endpoint port exists: yes now, or once it is created
 * (MCAPI's get waits for it; the asker's timeout ends the wait), or, asked
 * for an answer at once (GET_NOW: an immediate get), no. */
static bool on_get(struct tp_node *tp, unsigned from, const struct xw_header *h, const uint8_t *pl)
{
    if (h->port > MCAPI_MAX_PORT) return false;
    if (tp->closing) return true; /* our endpoints are being deleted */
    struct xm_ep *e = xm_ep_by_port(tp, h->port);
    if (e) {
        answer_get(tp, e, from, h->qp);
        return true;
    }
    if (h->size && (pl[0] & GET_NOW)) {
        refuse(tp, from, XW_GET, h->port, h->qp, MCAPI_TIMEOUT);
        return true;
    }
    /* Every waiting slot taken: the asker is told to ask again (as for a
     * node not up yet), so a get waits, it does not fail for our table. */
    unsigned i = 0;
    while (i < XM_GETS && tp->gets[i].used) i++;
    if (i == XM_GETS) {
        refuse(tp, from, XW_GET, h->port, h->qp, MCAPI_ERR_TRANSMISSION);
        return true;
    }
    tp->gets[i].used = 1;
    tp->gets[i].peer = (uint16_t)from;
    tp->gets[i].port = h->port;
    tp->gets[i].qp = h->qp;
    return true;
}

/* Give back a get of e; false if it has none. */
static bool uncount_get(struct xm_ep *e)
{
    if (!e->gets) return false;
    e->gets--;
    return true;
}

/* An answer to our GET or RELEASE with id qp: fill its pending slot. A
 * get's answer that finds no slot (the get timed out meanwhile) was
 * counted at the owner all the same: give it back. */
static void on_answer(struct tp_node *tp, unsigned from, const struct xw_header *h,
                      const uint8_t *pl)
{
    bool found = h->type == XW_GET && !(h->flags & XW_F_REFUSED) && h->size == 2 &&
                 h->port <= MCAPI_MAX_PORT;
    struct xm_peer *pe = &tp->peer[from];
    if (found && (pe->got || (pe->got = calloc(MCAPI_MAX_PORT + 1, sizeof *pe->got))))
        pe->got[h->port] = (uint16_t)get16(pl);
    for (unsigned i = 0; i < XM_PENDING; i++) {
        struct xm_pend *q = &tp->pend[i];
        if (!q->used || q->id != h->qp || !q->left) continue;
        q->left = 0;
        if (h->flags & XW_F_REFUSED) q->st = (mcapi_status_t)get32(pl);
        if (found) q->gen = (uint16_t)get16(pl);
        return;
    }
    if (found) xm_ctl(tp, from, XW_RELEASE, 0, h->port, 0, pl, 2);
}

bool xm_endp_frame(struct tp_node *tp, unsigned from, const struct xw_header *h,
                   const uint8_t *payload)
{
    if (h->type == XW_DELETED && (h->flags & XW_F_ACK)) {
        if (tp->peer[from].unacked) tp->peer[from].unacked--;
        return true;
    }
    if (h->flags & XW_F_ACK) {
        on_answer(tp, from, h, payload);
        return true;
    }
    if (h->type == XW_GET) return on_get(tp, from, h, payload);
    if (h->port > MCAPI_MAX_PORT || h->size != 2) return false;
    unsigned gen = get16(payload);
    if (h->type == XW_RELEASE) {
        struct xm_ep *e = xm_ep_by_port(tp, h->port);
        bool ok = e && e->gen == gen && uncount_get(e);
        if (h->qp && ok) xm_ctl(tp, from, XW_RELEASE, XW_F_ACK, h->port, h->qp, NULL, 0);
        if (h->qp && !ok) refuse(tp, from, XW_RELEASE, h->port, h->qp, MCAPI_ERR_ENDP_INVALID);
        return true;
    }
    /* XW_DELETED: the handles of that endpoint are stale from now on. */
    struct xm_peer *pe = &tp->peer[from];
    if (!pe->gone && !(pe->gone = calloc(MCAPI_MAX_PORT + 1, sizeof *pe->gone))) return true;
    pe->gone[h->port] = (uint16_t)gen;
    if (pe->got && pe->got[h->port] == gen) pe->got[h->port] = 0;
    xm_ctl(tp, from, XW_DELETED, XW_F_ACK, h->port, h->qp, NULL, 0);
    return true;
}

/* Tell the nodes that got e that it is deleted (their answers: unacked). */
static void tell_deleted(struct tp_node *tp, struct xm_ep *e)
{
    uint8_t g[2];
    put16(g, e->gen);
    for (unsigned p = 0; p < XM_PEERS; p++) {
        if (!(e->getters[p / 8] & 1u << (p % 8)) || tp->peer[p].state != XP_UP) continue;
        xm_ctl(tp, p, XW_DELETED, 0, e->port, 0, g, 2);
        tp->peer[p].unacked++;
    }
}

/* Wait until every node told of a delete has answered, or its connection
 * failed, or XM_LINGER_NS has passed. */
static void await_deleted(struct tp_node *tp)
{
    uint64_t deadline = plat_now_ns() + XM_LINGER_NS;
    for (;;) {
        bool left = false;
        for (unsigned p = 0; p < XM_PEERS; p++) {
            struct xm_peer *pe = &tp->peer[p];
            if (pe->unacked && pe->state != XP_UP) pe->unacked = 0; /* it went away */
            left |= pe->unacked != 0;
        }
        if (!left || !nap(tp, deadline)) return;
    }
}

/* Finalise tells nobody: the nodes that got our endpoints learn it from
 * our connections' end (xm_endp_peer_ended), which a frame of its own
 * would only precede, costing the peer its reading while it may still be
 * at work (and moving simulated results). */
void xm_endp_fini(struct tp_node *tp)
{
    tp->closing = 1;
}

void xm_endp_peer_ended(struct tp_node *tp, unsigned p)
{
    struct xm_peer *pe = &tp->peer[p];
    for (unsigned port = 0; pe->got && port <= MCAPI_MAX_PORT; port++) {
        if (!pe->got[port]) continue;
        if (!pe->gone && !(pe->gone = calloc(MCAPI_MAX_PORT + 1, sizeof *pe->gone))) return;
        pe->gone[port] = pe->got[port];
        pe->got[port] = 0;
    }
}

/* A get: a local endpoint is looked up (endp_create wakes a waiting get);
 * a remote one is asked for (XW_GET), and its owner answers once it exists.
 * A peer that is not up yet is asked again every XM_RETRY_NS: MCAPI's get
 * waits for the endpoint, so for its node too (op->held: pending slot + 1,
 * op->state: 1 asked, 2 waiting to ask again). An immediate get (timeout
 * MCAPI_TIMEOUT_IMMEDIATE) asks for an answer at once, found or not, and
 * waits for it: op->started keeps the top layer from timing it out first. */
mcapi_status_t xm_endp_get(struct tp_node *tp, struct tp_op *op)
{
    unsigned p = XM_PEER(op->dom, op->node);
    uint16_t gen;
    if (p == tp->self) {
        struct xm_ep *e = xm_ep_by_port(tp, op->port);
        if (!e) return MCAPI_PENDING;
        mcapi_status_t st = count_get(tp, e, p);
        if (st != MCAPI_SUCCESS) return st;
        gen = e->gen;
    } else {
        bool now = op->timeout == MCAPI_TIMEOUT_IMMEDIATE;
        if (op->state != 1) {
            uint32_t id;
            int i = xm_pend_new(tp, p, p, &id);
            if (i < 0) return MCAPI_PENDING; /* an answer frees one */
            if (op->state == 2) tp->retrying--;
            op->state = 1;
            op->held = (uint32_t)i + 1;
            op->started = now;
            tp->pend[i].left = 1;
            uint8_t flags = now ? GET_NOW : 0;
            xm_ctl(tp, p, XW_GET, 0, op->port, id, &flags, 1);
        }
        struct xm_pend *q = &tp->pend[op->held - 1];
        if (q->left) return MCAPI_PENDING;
        mcapi_status_t st = q->st;
        gen = q->gen;
        q->used = 0;
        op->held = 0;
        op->started = 0;
        if (st == MCAPI_ERR_TRANSMISSION && now) return MCAPI_TIMEOUT; /* not up: not there */
        if (st == MCAPI_ERR_TRANSMISSION) { /* not up (yet): ask again later */
            op->state = 2;
            tp->retrying++;
            return MCAPI_PENDING;
        }
        op->state = 0;
        if (st != MCAPI_SUCCESS) return st;
    }
    *op->out_h = xm_h(1, op->dom, op->node, gen, op->port);
    return MCAPI_SUCCESS;
}

/* Answer the peers' gets of endpoint e, which waited for it. */
static void answer_waiting(struct tp_node *tp, struct xm_ep *e)
{
    for (unsigned i = 0; i < XM_GETS; i++) {
        if (!tp->gets[i].used || tp->gets[i].port != e->port) continue;
        tp->gets[i].used = 0;
        answer_get(tp, e, tp->gets[i].peer, tp->gets[i].qp);
    }
}

mcapi_status_t xm_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = NULL;
    for (unsigned i = 0; i < XM_EPS && !e; i++)
        if (!tp->ep[i].live) e = &tp->ep[i];
    if (port == (mcapi_port_t)MCAPI_PORT_ANY) {
        port = MCAPI_MIN_PORT;
        while (port <= MCAPI_MAX_PORT && xm_ep_by_port(tp, port)) port++;
    } else if (xm_ep_by_port(tp, port)) {
        st = MCAPI_ERR_ENDP_EXISTS;
    }
    if (st == MCAPI_SUCCESS && !e) st = MCAPI_ERR_MEM_LIMIT;
    if (st == MCAPI_SUCCESS) {
        *e = (struct xm_ep){.live = 1,
                            .port = (uint16_t)port,
                            .gen = new_gen(tp),
                            .depth = XM_MSG_DEPTH,
                            .a = {.timeout = MCAPI_TIMEOUT_INFINITE,
                                  .memtype = MCAPI_ENDP_ATTR_LOCAL_MEMORY,
                                  .priority = MCAPI_MAX_PRORITY,
                                  .max_payload = MCAPI_MAX_PKT_SIZE},
                            .cgen = e->cgen};
        *ep = xm_h(1, tp->dom, tp->node, e->gen, port);
        answer_waiting(tp, e);
    }
    plat_mutex_unlock(&tp->mu);
    plat_event_notify(&tp->ev); /* a get of ours may wait for it */
    return st;
}

mcapi_status_t xm_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
    if (!e && st == MCAPI_ERR_ENDP_REMOTE) st = MCAPI_ERR_ENDP_NOTOWNER;
    if (e && e->cstate == XC_OPEN) {
        st = MCAPI_ERR_CHAN_OPEN;
    } else if (e) {
        if (e->cstate != XC_NONE) xm_chan_detach(tp, e);
        xm_q_drop_all(tp, e);
        /* DELETED before RESUME: a send the STOP held back ends, not goes. */
        tell_deleted(tp, e);
        xm_q_taken(tp, e); /* the port's next endpoint is not full */
        e->live = 0;
        await_deleted(tp);
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}

/* A get given back: ours at once; another node's at its owner, whose
 * answer we wait for (up to XM_CONNECT_NS: it may have to connect first),
 * so that its GET_COUNT has dropped when we return. */
mcapi_status_t xm_endp_release(struct tp_node *tp, mcapi_endpoint_t ep)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
    unsigned p = XM_PEER(XM_H_DOM(ep), XM_H_NODE(ep));
    if (e) {
        st = uncount_get(e) ? MCAPI_SUCCESS : MCAPI_ERR_ENDP_INVALID;
    } else if (st == MCAPI_ERR_ENDP_REMOTE) {
        uint64_t deadline = plat_now_ns() + XM_CONNECT_NS;
        uint32_t id;
        int i;
        while ((i = xm_pend_new(tp, p, p, &id)) < 0 && nap(tp, deadline)) {
        }
        st = MCAPI_TIMEOUT;
        if (i >= 0) {
            struct xm_pend *q = &tp->pend[i];
            uint8_t g[2];
            put16(g, XM_H_GEN(ep));
            q->left = 1;
            xm_ctl(tp, p, XW_RELEASE, 0, XM_H_PORT(ep), id, g, 2);
            while (q->left && nap(tp, deadline)) {
            }
            /* A node that went away took its endpoints with it. */
            if (!q->left) st = q->st == MCAPI_ERR_TRANSMISSION ? MCAPI_ERR_ENDP_INVALID : q->st;
            q->used = 0;
        }
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}

mcapi_status_t xm_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
    if (e) st = tp_attr_check(num, size);
    if (st == MCAPI_SUCCESS) {
        bool chan = e->cstate != XC_NONE;
        struct tp_attr_vals v = {
            .type = !chan                ? MCAPI_ENDP_ATTR_TYPE_MESSAGE
                    : e->ctype == TP_PKT ? MCAPI_ENDP_ATTR_TYPE_PKTCHAN
                                         : MCAPI_ENDP_ATTR_TYPE_SCLCHAN,
            .gets = e->gets,
            .source = {e->gets ? (mcapi_domain_t)(e->get_src / MCA_MAX_NODES)
                               : (mcapi_domain_t)MCAPI_DOMAIN_INVALID,
                       e->gets ? (mcapi_node_t)(e->get_src % MCA_MAX_NODES)
                               : (mcapi_node_t)MCAPI_NODE_INVALID},
            .buffer_type = MCAPI_ENDP_ATTR_FIFO_BUFFER,
            .nprio = MCAPI_MAX_PRIORITY + 1, /* a message queue is kept in priority order */
            /* a message endpoint's: the node's message buffers left (a
             * send to our own endpoints takes one); a channel end's: the
             * frames the output buffer takes before sends wait */
            .send_bufs = !chan ? (mcapi_int_t)(MCAPI_MAX_MSG_BUFFERS - tp->msg_bufs)
                               : (mcapi_int_t)(XM_OUT_MAX / (XW_HEADER_SIZE + MCAPI_MAX_MSG_SIZE)),
            .recv_bufs = e->q.n < e->depth ? (mcapi_int_t)(e->depth - e->q.n) : 0,
            .status = tp_attr_status(e->opening, e->cstate == XC_OPEN, chan, e->ctype, e->cdir),
        };
        tp_attr_from(&v, &e->a);
        tp_attr_put(&v, num, attr);
    }
    plat_mutex_unlock(&tp->mu);
    return st;
}

mcapi_status_t xm_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    plat_mutex_lock(&tp->mu);
    struct xm_ep *e = xm_own(tp, ep, &st);
    if (e) st = tp_attr_settable(num, attr, size);
    if (st == MCAPI_SUCCESS && num != MCAPI_ENDP_ATTR_TIMEOUT && e->cstate != XC_NONE)
        st = MCAPI_ERR_CHAN_CONNECTED;
    if (st == MCAPI_SUCCESS) tp_attr_store(&e->a, num, attr);
    plat_mutex_unlock(&tp->mu);
    return st;
}

mcapi_status_t xm_node_attr(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size)
{
    if (!xt_find(tp->topo, dom, node)) return MCAPI_ERR_NODE_INVALID;
    if (num >= MCAPI_NODE_ATTR_END) return tp_attr_unknown(num);
    mcapi_node_attr_type_t type = MCAPI_NODE_ATTR_TYPE_REGULAR;
    if (size != sizeof type) return MCAPI_ERR_ATTR_SIZE;
    memcpy(attr, &type, sizeof type);
    return MCAPI_SUCCESS;
}
