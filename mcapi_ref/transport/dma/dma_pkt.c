/*
 * transport/dma/dma_pkt.c -- packet and scalar transfers over DMA.
 *
 * The receiving end owns a set of buffers in its local memory (allocated
 * when it opens, dma_chan.c). One of them at a time is posted on its
 * channel; when the sender's DMA has filled it, the next free one is posted
 * at the receiver's next call. mcapi_pktchan_recv hands out the filled
 * buffer itself (no copy), mcapi_pktchan_release gives it back; a scalar
 * receive reads the word and gives its buffer back at once. Freed buffers
 * go back to the sender as credits (flow control: the sender never has
 * more transfers under way than the receiver has buffers, so its engine
 * never waits on this channel for longer than it takes the receiver to
 * post the next buffer).
 *
 * A packet handed out has zeros past its length up to the buffer's end, as
 * on shared memory (docs/mcapi.md, porting).
 *
 * A scalar is one transfer of its width (1, 2, 4 or 8 bytes); its length
 * tells the receiver the width (MCAPI_ERR_SCL_SIZE if it differs from the
 * receive's, the scalar stays).
 */
#include "dma_tp.h"
#include "../handle.h"

#include <string.h>

int dt_set_new(struct tp_node *tp, unsigned port, unsigned nbuf, uint32_t cap)
{
    for (unsigned i = 0; i < DT_SETS; i++) {
        struct dt_set *s = &tp->set[i];
        if (s->used) continue;
        unsigned char *mem = plat_local_alloc((size_t)nbuf * cap, 64);
        if (!mem) return -1;
        memset(s, 0, sizeof *s);
        s->used = 1;
        s->open = 1;
        s->port = (uint8_t)port;
        s->nbuf = (uint8_t)nbuf;
        s->cap = cap;
        s->mem = mem;
        s->expect = UINT32_MAX;
        return (int)i;
    }
    return -1;
}

struct dt_set *dt_set_draining(struct tp_node *tp, unsigned port)
{
    for (unsigned i = 0; i < DT_SETS; i++) {
        struct dt_set *s = &tp->set[i];
        if (s->used && !s->open && s->port == port &&
            (s->expect == UINT32_MAX || s->got < s->expect))
            return s;
    }
    return NULL;
}

static void set_free(struct tp_node *tp, struct dt_set *s)
{
    plat_local_free(s->mem);
    s->used = 0;
    s->mem = NULL;
    tp->refill |= 1ull << s->port; /* the port takes messages again */
}

/* A closed set with every transfer in and every buffer back: free it. */
static bool settle(struct tp_node *tp, struct dt_set *s)
{
    if (s->open || s->expect == UINT32_MAX || s->got < s->expect) return false;
    struct dt_endp *e = &tp->ep[s->port];
    if (e->post == DP_SET && e->post_idx == s - tp->set) dt_unpost(tp, s->port);
    if (!s->used) return true; /* a last transfer came as it was withdrawn, and settled it */
    for (unsigned i = 0; i < s->nbuf; i++)
        if (s->st[i] == B_HELD) return true; /* freed at the last release */
    set_free(tp, s);
    return true;
}

void dt_set_post(struct tp_node *tp, struct dt_set *s)
{
    if (settle(tp, s)) return;
    struct dt_endp *e = &tp->ep[s->port];
    if (e->post != DP_NONE) return;
    for (unsigned i = 0; i < s->nbuf; i++) {
        if (s->st[i] != B_FREE) continue;
        if (drv_rx_post(dt_port_chan(tp, s->port), s->mem + (size_t)i * s->cap, s->cap, tp->bell) !=
            PLAT_OK)
            return;
        s->st[i] = B_POSTED;
        e->post = DP_SET;
        e->post_idx = (uint8_t)(s - tp->set);
        return;
    }
}

void dt_set_filled(struct tp_node *tp, struct dt_set *s, size_t len)
{
    struct dt_endp *e = &tp->ep[s->port];
    e->post = DP_NONE;
    s->got++;
    for (unsigned i = 0; i < s->nbuf; i++) {
        if (s->st[i] != B_POSTED) continue;
        if (s->open) {
            s->st[i] = B_FULL;
            s->len[i] = (uint32_t)(len < s->cap ? len : s->cap);
            s->fifo[(s->fhead + s->fn++) % DT_DEPTH_MAX] = (uint8_t)i;
        } else {
            s->st[i] = B_FREE; /* draining: dropped */
        }
        break;
    }
    dt_set_post(tp, s);
}

void dt_set_close(struct tp_node *tp, struct dt_set *s)
{
    s->open = 0;
    while (s->fn) { /* drop what was not received */
        s->st[s->fifo[s->fhead]] = B_FREE;
        s->fhead = (uint8_t)((s->fhead + 1) % DT_DEPTH_MAX);
        s->fn--;
    }
    dt_set_post(tp, s);
}

void dt_set_free_all(struct tp_node *tp)
{
    for (unsigned i = 0; i < DT_SETS; i++) {
        struct dt_set *s = &tp->set[i];
        if (!s->used) continue;
        struct dt_endp *e = &tp->ep[s->port];
        if (e->post == DP_SET && e->post_idx == i) dt_unpost(tp, s->port);
        set_free(tp, s);
    }
}

/* Send the sender the credits of the buffers freed since the last time. */
static void credit(struct tp_node *tp, struct dt_set *s)
{
    const struct dt_conn *c = &tp->ep[s->port].c;
    if (!s->freed || !s->open || c->peer_closed) return;
    struct dt_ctl m = {.type = CTL_CREDIT,
                       .chan = c->type,
                       .dir = TP_RECV,
                       .port = c->peer_port,
                       .peer_node = (uint16_t)tp->node,
                       .peer_port = s->port,
                       .arg = s->freed};
    s->freed = 0;
    dt_ctl_send(tp, c->peer_node, &m);
}

/* Give buffer i back: post it if the channel is bare; credits go back in
 * batches of half the buffers (fewer transfers on the control channel). */
static void give_back(struct tp_node *tp, struct dt_set *s, unsigned i)
{
    s->st[i] = B_FREE;
    dt_set_post(tp, s);
    if (!s->open) return;
    s->freed++;
    if (2u * s->freed >= s->nbuf) credit(tp, s);
}

mcapi_status_t dt_chan_use(struct tp_node *tp, struct tp_op *op, struct dt_endp **e)
{
    int p = dt_chan_port(tp, op->h);
    if (p < 0 || h_kind(op->h) != h_chan_kind(op->chan, op->dir)) return MCAPI_ERR_CHAN_INVALID;
    *e = &tp->ep[p];
    return (*e)->c.state == CS_OPEN ? MCAPI_SUCCESS : MCAPI_ERR_CHAN_NOTOPEN;
}

mcapi_status_t dt_pkt_send(struct tp_node *tp, struct tp_op *op)
{
    if (!op->held) {
        struct dt_endp *e = NULL;
        mcapi_status_t st = dt_chan_use(tp, op, &e);
        if (st != MCAPI_SUCCESS) return st;
        struct dt_conn *c = &e->c;
        if (c->peer_closed) return MCAPI_ERR_CHAN_NOTOPEN;
        if (!c->hello_in) { /* the receive end has not opened: no buffers, no credits yet */
            dt_watch(tp, W_CHAN, tp->ctl);
            return MCAPI_PENDING;
        }
        if (op->kind == TP_PKT_SEND && op->len > c->peer_cap) return MCAPI_ERR_PKT_SIZE;
        bool fail = (e->a.memtype & MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT) != 0;
        if (!c->credits) {
            if (fail) return MCAPI_ERR_MEM_LIMIT;
            dt_watch(tp, W_CHAN, tp->ctl); /* a CREDIT comes there */
            return MCAPI_PENDING;
        }
        int s = dt_slot_get(tp);
        if (s < 0) {
            if (fail) return MCAPI_ERR_MEM_LIMIT;
            dt_watch(tp, W_SLOT, (unsigned)dt_slot_oldest(tp));
            return MCAPI_PENDING;
        }
        struct dt_slot *sl = &tp->slot[s];
        const void *src = op->src;
        if (op->kind == TP_SCL_SEND) { /* the word, least significant byte first */
            for (size_t i = 0; i < op->len; i++) sl->stage[i] = (unsigned char)(op->value >> 8 * i);
            src = sl->stage;
        } else if (!op->len) {
            src = sl->stage;
        } else {
            mcapi_status_t st = MCAPI_SUCCESS;
            if (!(src = dt_tx_stage(tp, op->src, op->len, &st))) {
                sl->state = SL_FREE;
                return st == MCAPI_SUCCESS ? MCAPI_PENDING : (fail ? MCAPI_ERR_MEM_LIMIT : st);
            }
        }
        unsigned peer = c->peer_node;
        if (drv_dma_send(&sl->d, tp->map.core[peer], tp->map.base[peer] + 1u + c->peer_port, src,
                         op->len) != PLAT_OK) {
            sl->state = SL_FREE;
            return MCAPI_ERR_TRANSMISSION;
        }
        dt_tx_issued(tp, s, src);
        c->credits--;
        c->sent++;
        op->held = (uint32_t)s + 1;
        op->started = 1; /* later sends here may start behind it: the engine keeps order */
        plat_work_cycles(tp->xfer_cycles);
        dt_refill(tp);
    }
    if (!dt_slot_done(tp, (int)op->held - 1)) {
        dt_watch(tp, W_SLOT, op->held - 1);
        return MCAPI_PENDING;
    }
    op->held = 0;
    op->size = op->len;
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_pkt_recv(struct tp_node *tp, struct tp_op *op)
{
    struct dt_endp *e = NULL;
    mcapi_status_t st = dt_chan_use(tp, op, &e);
    if (st != MCAPI_SUCCESS) return st;
    struct dt_set *s = &tp->set[e->c.set];
    unsigned ch = dt_port_chan(tp, s->port);
    if (!s->fn) (void)dt_poll_chan(tp, ch);
    if (!s->fn) {
        if (e->c.peer_closed && s->expect != UINT32_MAX && s->got >= s->expect)
            return MCAPI_ERR_CHAN_NOTOPEN; /* the sender closed and all of it was received */
        credit(tp, s);                     /* the sender may be waiting for these */
        dt_watch(tp, W_CHAN, ch);
        return MCAPI_PENDING;
    }
    unsigned i = s->fifo[s->fhead];
    if (op->kind == TP_SCL_RECV && s->len[i] != op->len) return MCAPI_ERR_SCL_SIZE;
    s->fhead = (uint8_t)((s->fhead + 1) % DT_DEPTH_MAX);
    s->fn--;
    unsigned char *buf = s->mem + (size_t)i * s->cap;
    plat_work_cycles(tp->xfer_cycles);
    op->size = s->len[i];
    if (op->kind == TP_SCL_RECV) {
        uint64_t v = 0;
        for (size_t k = 0; k < op->len; k++) v |= (uint64_t)buf[k] << 8 * k;
        op->value = v;
        give_back(tp, s, i);
    } else {
        /* A ported program may compare past the received size: the bytes
         * an older, longer packet left there are cleared (host work, not
         * charged: the hardware does not do it). */
        if (s->dirty[i] > s->len[i]) memset(buf + s->len[i], 0, s->dirty[i] - s->len[i]);
        s->dirty[i] = s->len[i];
        s->st[i] = B_HELD;
        *op->out_buf = buf;
    }
    return MCAPI_SUCCESS;
}

mcapi_status_t dt_pkt_release(struct tp_node *tp, const void *buf, bool test)
{
    uintptr_t p = (uintptr_t)buf;
    for (unsigned k = 0; k < DT_SETS; k++) {
        struct dt_set *s = &tp->set[k];
        uintptr_t base = (uintptr_t)s->mem;
        if (!s->used || p < base || p >= base + (size_t)s->nbuf * s->cap || (p - base) % s->cap)
            continue;
        unsigned i = (unsigned)((p - base) / s->cap);
        if (s->st[i] != B_HELD) return MCAPI_ERR_BUF_INVALID;
        if (!test) give_back(tp, s, i);
        return MCAPI_SUCCESS;
    }
    return MCAPI_ERR_BUF_INVALID;
}

mcapi_status_t dt_chan_available(struct tp_node *tp, struct tp_op *op, mcapi_uint_t *n)
{
    struct dt_endp *e = NULL;
    mcapi_status_t st = dt_chan_use(tp, op, &e);
    if (st != MCAPI_SUCCESS) return st;
    struct dt_set *s = &tp->set[e->c.set];
    (void)dt_poll_chan(tp, dt_port_chan(tp, s->port));
    *n = s->fn;
    return MCAPI_SUCCESS;
}
