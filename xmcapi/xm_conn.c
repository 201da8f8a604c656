/*
 * xmcapi/xm_conn.c -- connections and the communicator thread.
 *
 * The communicator waits on the node's poller (epoll natively) for the
 * listener, the connections, and its notification (the poller's wake-up,
 * or the pipe in PIPE mode). Each round it accepts, reads and dispatches
 * what arrived, connects the peers someone wants to send to, writes what
 * waits in the peers' output buffers, frees the connections that died,
 * and wakes the user thread.
 *
 * Reading: bytes go into the connection's read buffer and whole frames are
 * dispatched from there. A packet's payload is read straight into the
 * buffer that mcapi_pktchan_recv will hand the application, so a large
 * packet is copied once, by the kernel. A frame that breaks the wire rules
 * or the node's (xm_dispatch), or a stream that ends inside a frame, closes
 * the connection.
 */
#include "xm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest payload a frame of each type may carry to this node. */
static uint32_t type_limit(unsigned type)
{
    switch (type) {
    case XW_PKT:
        return MCAPI_MAX_PKT_SIZE;
    case XW_MSG:
        return MCAPI_MAX_MSG_SIZE;
    default:
        return 64; /* control frames: a few ids */
    }
}

static struct xm_conn *conn_new(struct tp_node *tp, plat_stream *s, int peer, bool out)
{
    struct xm_conn *c = calloc(1, sizeof *c);
    if (c) c->rbuf = malloc(XM_RBUF);
    if (!c || !c->rbuf || plat_poller_add(tp->poller, s, PLAT_POLL_IN, c) != PLAT_OK) {
        if (c) free(c->rbuf);
        free(c);
        plat_stream_close(s);
        return NULL;
    }
    c->s = s;
    c->peer = peer;
    c->out = out;
    c->bits = PLAT_POLL_IN;
    c->next = tp->conns;
    tp->conns = c;
    return c;
}

static void conn_free(struct tp_node *tp, struct xm_conn *c)
{
    (void)plat_poller_del(tp->poller, c->s);
    plat_stream_close(c->s);
    free(c->rbuf);
    if (c->dst) xm_buf_free(tp, c->dst, c->cur.size);
    free(c);
}

/* Our connection to peer p broke, or could not be made: what waits for it
 * is dropped, and what depends on it fails. The connection from p is
 * left alone: what p sent before it went is still read, in order. */
static void peer_down(struct tp_node *tp, unsigned p)
{
    struct xm_peer *pe = &tp->peer[p];
    if (pe->c) pe->c->dead = 1;
    pe->c = NULL;
    pe->state = XP_FAILED;
    pe->fails++;
    tp->conn_fails++;
    pe->olen = pe->ooff = 0;
    if (pe->stopped) memset(pe->stopped, 0, (MCAPI_MAX_PORT + 8) / 8);
    xm_peer_failed(tp, p, true);
}

static void conn_fail(struct tp_node *tp, struct xm_conn *c)
{
    c->dead = 1;
    if (c->peer < 0) return;
    if (c->out)
        peer_down(tp, (unsigned)c->peer);
    else
        xm_peer_failed(tp, (unsigned)c->peer, false); /* everything it sent is in */
}

/* Have the communicator write what is queued. Not from inside its own
 * round, which ends by writing anyway: a kick it sent itself could be
 * read, later in the same round, together with one a user thread relied
 * on (found as a lost RESUME: a sender held back for ever). */
void xm_kick(struct tp_node *tp)
{
    if (tp->kicked || tp->in_round) return;
    tp->kicked = 1;
    if (tp->notify == MCAPI_XM_PIPE)
        (void)plat_stream_send(tp->pipe[1], "k", 1, 0); /* full: a kick is pending anyway */
    else
        plat_poller_wake(tp->poller);
}

/* Write what waits for peer p, as far as the socket takes it now. */
static void flush(struct tp_node *tp, unsigned p)
{
    struct xm_peer *pe = &tp->peer[p];
    while (pe->c && pe->ooff < pe->olen) {
        long k = plat_stream_send(pe->c->s, pe->obuf + pe->ooff, pe->olen - pe->ooff, 0);
        if (k == PLAT_EAGAIN) return;
        if (k < 0) {
            conn_fail(tp, pe->c);
            return;
        }
        pe->ooff += (size_t)k;
    }
    pe->olen = pe->ooff = 0;
}

bool xm_send_frame(struct tp_node *tp, struct xw_header *h, const void *payload)
{
    unsigned p = XM_PEER(h->dst_domain, h->dst_node);
    struct xm_peer *pe = &tp->peer[p];
    h->src_domain = tp->dom;
    h->src_node = tp->node;
    size_t need = pe->olen + XW_HEADER_SIZE + h->size;
    if (need > pe->ocap && pe->ooff) { /* drop what was written rather than grow */
        memmove(pe->obuf, pe->obuf + pe->ooff, pe->olen - pe->ooff);
        pe->olen -= pe->ooff;
        need -= pe->ooff;
        pe->ooff = 0;
    }
    if (need > pe->ocap) {
        size_t cap = pe->ocap ? pe->ocap : 4096;
        while (cap < need) cap *= 2;
        uint8_t *b = realloc(pe->obuf, cap);
        if (!b) return false;
        pe->obuf = b;
        pe->ocap = cap;
    }
    if (xw_encode(h, pe->obuf + pe->olen) != XW_OK) return false; /* a bug: refuse it */
    if (h->size) memcpy(pe->obuf + pe->olen + XW_HEADER_SIZE, payload, h->size);
    bool was_empty = pe->olen == pe->ooff;
    pe->olen = need;
    plat_work_cycles(tp->xfer_cycles);
    if (pe->state != XP_UP) {
        if (pe->state != XP_CONNECTING) pe->state = XP_WANT;
        xm_kick(tp);
    } else if (tp->notify == MCAPI_XM_DIRECT && was_empty) {
        flush(tp, p);
        if (pe->olen) xm_kick(tp); /* the rest when the socket has room */
    } else {
        xm_kick(tp);
    }
    return true;
}

/* Whether peer p can take a frame now: MCAPI_SUCCESS, MCAPI_PENDING (a
 * connect is under way, or the output buffer is full), or
 * MCAPI_ERR_TRANSMISSION if it failed since `since` (a fails count). */
static mcapi_status_t peer_ready(struct tp_node *tp, unsigned p, uint32_t since, size_t need)
{
    struct xm_peer *pe = &tp->peer[p];
    if (pe->fails != since) return MCAPI_ERR_TRANSMISSION;
    switch (pe->state) {
    case XP_UP:
        /* An output buffer holding a frame takes more only up to XM_OUT_MAX. */
        if (pe->olen > pe->ooff && pe->olen - pe->ooff + need > XM_OUT_MAX) return MCAPI_PENDING;
        return MCAPI_SUCCESS;
    case XP_IDLE:
    case XP_FAILED:
        pe->state = XP_WANT;
        xm_kick(tp);
        return MCAPI_PENDING;
    default:
        return MCAPI_PENDING;
    }
}

/* Connect to peer p (mu held; released while connecting). */
static void dial(struct tp_node *tp, unsigned p)
{
    struct xm_peer *pe = &tp->peer[p];
    const struct xt_node *n = xt_find(tp->topo, p / MCA_MAX_NODES, p % MCA_MAX_NODES);
    if (!n) {
        peer_down(tp, p);
        return;
    }
    char addr[XT_HOST_MAX + 16];
    snprintf(addr, sizeof addr, "%s:%u", n->host, (unsigned)n->port);
    pe->state = XP_CONNECTING;
    tp->in_round = 0; /* what is queued meanwhile needs a kick: this round is past it */
    plat_mutex_unlock(&tp->mu);
    int st = PLAT_OK;
    plat_stream *s = plat_stream_connect(addr, XM_CONNECT_NS, &st);
    plat_mutex_lock(&tp->mu);
    tp->in_round = 1;
    if (tp->stop || pe->state != XP_CONNECTING) { /* finalising */
        plat_stream_close(s);
        return;
    }
    struct xm_conn *c = s ? conn_new(tp, s, (int)p, true) : NULL;
    if (!c) {
        peer_down(tp, p);
        return;
    }
    /* HELLO goes first, ahead of whatever was queued while connecting. */
    struct xw_header h = {.type = XW_HELLO,
                          .src_domain = tp->dom,
                          .src_node = tp->node,
                          .dst_domain = (uint16_t)(p / MCA_MAX_NODES),
                          .dst_node = (uint16_t)(p % MCA_MAX_NODES)};
    uint8_t hello[XW_HEADER_SIZE];
    (void)xw_encode(&h, hello);
    if (plat_stream_send(s, hello, sizeof hello, XM_CONNECT_NS) != (long)sizeof hello) {
        conn_fail(tp, c);
        return;
    }
    pe->c = c;
    pe->state = XP_UP;
    flush(tp, p);
}

/* A read from c without the node's mutex: the copy of a large packet
 * need not hold up the user thread. Only the communicator reads a
 * connection or frees it, so c stays valid; whether it died meanwhile (a
 * user thread's failed write) is looked at under the mutex again. */
static long recv_unlocked(struct tp_node *tp, struct xm_conn *c, void *buf, size_t n)
{
    plat_mutex_unlock(&tp->mu);
    long k = plat_stream_recv(c->s, buf, n, 0);
    plat_mutex_lock(&tp->mu);
    return k;
}

/* Read and dispatch what connection c has. A read that fills less than
 * it asked for has (as good as) drained the socket: the poller, level
 * triggered, reports anything that came since, so no read is spent on
 * finding the socket empty. */
static void readable(struct tp_node *tp, struct xm_conn *c)
{
    bool more = true;
    for (int round = 0; round < 8 && more && !c->dead; round++) {
        if (c->dst) { /* a packet's payload, straight into its buffer */
            long k = recv_unlocked(tp, c, c->dst + c->dhave, c->cur.size - c->dhave);
            if (c->dead) return;
            if (k == PLAT_EAGAIN) return;
            if (k <= 0) {
                tp->bad_frames++; /* ended inside a frame */
                conn_fail(tp, c);
                return;
            }
            more = (size_t)k == c->cur.size - c->dhave;
            c->dhave += (size_t)k;
            if (c->dhave < c->cur.size) continue;
            uint8_t *b = c->dst;
            c->dst = NULL;
            if (!xm_dispatch(tp, c, &c->cur, b)) conn_fail(tp, c);
            continue;
        }
        /* After a large packet another may follow: read its header alone,
         * so that its payload goes straight into its buffer too instead of
         * a read chunk's worth being copied out of rbuf. */
        size_t ask = c->bulk && !c->rlen ? XW_HEADER_SIZE : XM_RBUF - c->rlen;
        long k = recv_unlocked(tp, c, c->rbuf + c->rlen, ask);
        if (c->dead) return;
        if (k == PLAT_EAGAIN) return;
        if (k <= 0) {
            if (c->rlen) tp->bad_frames++; /* truncated */
            if (!k && !c->rlen && c->peer >= 0) xm_endp_peer_ended(tp, (unsigned)c->peer);
            conn_fail(tp, c);
            return;
        }
        more = (size_t)k == ask;
        c->rlen += (size_t)k;
        size_t off = 0;
        while (!c->dead && c->rlen - off >= XW_HEADER_SIZE) {
            struct xw_header h;
            const uint8_t *f = c->rbuf + off;
            if (xw_decode(f, MCAPI_MAX_PKT_SIZE, &h) != XW_OK || h.size > type_limit(h.type)) {
                tp->bad_frames++;
                conn_fail(tp, c);
                return;
            }
            size_t have = c->rlen - off - XW_HEADER_SIZE;
            c->bulk = h.type == XW_PKT && h.size >= XM_BULK;
            if (h.type == XW_PKT) {
                uint8_t *b = xm_pkt_alloc(tp, &h);
                if (!b) {
                    conn_fail(tp, c);
                    return;
                }
                size_t take = have < h.size ? have : h.size;
                if (take) memcpy(b, f + XW_HEADER_SIZE, take);
                off += XW_HEADER_SIZE + take;
                if (take < h.size) {
                    c->cur = h;
                    c->dst = b;
                    c->dhave = take;
                    break;
                }
                if (!xm_dispatch(tp, c, &h, b)) conn_fail(tp, c);
                continue;
            }
            if (have < h.size) break;
            if (!xm_dispatch(tp, c, &h, f + XW_HEADER_SIZE)) conn_fail(tp, c);
            off += XW_HEADER_SIZE + h.size;
        }
        /* Not even our magic: refuse now rather than wait for a header. */
        if (!c->dead && !c->dst && c->rlen - off >= 2 &&
            (c->rbuf[off] != XW_MAGIC0 || c->rbuf[off + 1] != XW_MAGIC1)) {
            tp->bad_frames++;
            conn_fail(tp, c);
            return;
        }
        memmove(c->rbuf, c->rbuf + off, c->rlen - off);
        c->rlen -= off;
    }
}

static void accept_all(struct tp_node *tp)
{
    for (;;) {
        plat_stream *s = plat_stream_accept(tp->listener, 0, NULL);
        if (!s) return;
        (void)conn_new(tp, s, -1, false);
    }
}

/* One round's writing and connecting, then the poller interests. */
static void serve_peers(struct tp_node *tp)
{
    for (unsigned p = 0; p < XM_PEERS && !tp->stop; p++) {
        struct xm_peer *pe = &tp->peer[p];
        if (pe->state == XP_WANT) dial(tp, p);
        if (pe->state != XP_UP || !pe->c) continue;
        if (pe->olen > pe->ooff) flush(tp, p);
        if (!pe->c) continue;
        unsigned bits = PLAT_POLL_IN | (pe->olen > pe->ooff ? PLAT_POLL_OUT : 0u);
        if (bits != pe->c->bits && plat_poller_mod(tp->poller, pe->c->s, bits, pe->c) == PLAT_OK)
            pe->c->bits = bits;
    }
}

static void reap(struct tp_node *tp)
{
    for (struct xm_conn **pp = &tp->conns; *pp;) {
        struct xm_conn *c = *pp;
        if (!c->dead) {
            pp = &c->next;
            continue;
        }
        *pp = c->next;
        conn_free(tp, c);
    }
}

void xm_comm_main(void *arg)
{
    struct tp_node *tp = arg;
    struct plat_poll_event ev[32];
    plat_mutex_lock(&tp->mu);
    while (!tp->stop) {
        plat_mutex_unlock(&tp->mu);
        int n = plat_poller_wait(tp->poller, ev, 32, PLAT_FOREVER);
        plat_mutex_lock(&tp->mu);
        tp->kicked = 0;
        tp->in_round = 1;
        for (int i = 0; i < n && !tp->stop; i++) {
            if (!ev[i].user) continue; /* the wake-up */
            if (ev[i].user == (void *)&tp->listener) {
                accept_all(tp);
                continue;
            }
            struct xm_conn *c = ev[i].user;
            if (c->dead) continue;
            if (c->is_pipe) {
                /* One read: a kick is one byte and `kicked` stops a second
                 * until this round; anything left wakes the poller again. */
                char drain[64];
                (void)plat_stream_recv(c->s, drain, sizeof drain, 0);
                continue;
            }
            if (ev[i].bits & (PLAT_POLL_IN | PLAT_POLL_ERR)) readable(tp, c);
        }
        serve_peers(tp);
        tp->in_round = 0;
        reap(tp);
        plat_event_notify(&tp->ev);
    }
    plat_mutex_unlock(&tp->mu);
}

mcapi_status_t xm_op_ready(struct tp_node *tp, struct tp_op *op, unsigned p, size_t need)
{
    if (!(op->state & XM_ST_SINCE)) {
        op->state |= XM_ST_SINCE;
        op->held = tp->peer[p].fails;
    }
    return peer_ready(tp, p, op->held, XW_HEADER_SIZE + need);
}
