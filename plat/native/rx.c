/*
 * rx.c -- receive channels (native).
 *
 * Each core has rx_channels channels under one lock per core. A channel is
 * EMPTY, POSTED (a buffer waits for a transfer), FILLING (a sender's engine
 * copies into it) or FILLED (the length is known, the buffer waits for
 * plat_rx_take). The state word is atomic so that take and wait can look
 * without the lock; it only changes under the lock (FILLING -> FILLED
 * excepted: nothing else may change a FILLING channel).
 *
 * plat_dma_send queues on the sender's engine (dma.c) and never blocks: if
 * the channel is posted the sender's thread copies at once; if not, the
 * engine joins the channel's FIFO of waiting engines and the next
 * plat_rx_post runs the first of them, so the poster's thread does the copy
 * (and the transfers the engine queued behind the send). One post is filled
 * by one send; the other engines of the FIFO wait for the next posts, in the
 * order they came. Locks nest engine -> channel core, never the other way.
 */
#include "native.h"

#include <stdio.h>
#include <stdlib.h>

enum { EMPTY, POSTED, FILLING, FILLED };

struct chan {
    uint32_t state; /* atomic */
    uint32_t ring_bits;
    void *buf;
    size_t cap;
    size_t len;                               /* FILLED: the transfer's length */
    struct nat_engine *wait_head, *wait_tail; /* engines whose oldest transfer is a send here */
};

struct nat_rx {
    pthread_mutex_t lock;
    struct nat_wq wq; /* threads in plat_rx_wait */
    unsigned n;
    struct chan chan[];
};

void nat_rx_init(struct nat_ctx *c, unsigned n)
{
    struct nat_rx *rx = calloc(1, sizeof *rx + (size_t)n * sizeof rx->chan[0]);
    if (!rx || pthread_mutex_init(&rx->lock, NULL) != 0) {
        fprintf(stderr, "ipcsim: native: out of memory for %u receive channels\n", n);
        abort();
    }
    rx->n = n;
    c->rx = rx;
}

static uint32_t state(const struct chan *ch)
{
    return __atomic_load_n(&ch->state, __ATOMIC_ACQUIRE);
}

static void set_state(struct chan *ch, uint32_t s)
{
    __atomic_store_n(&ch->state, s, __ATOMIC_RELEASE);
}

/* Channel chan of the calling core, or NULL with *rc set. */
static struct chan *own(unsigned chan, int *rc)
{
    struct nat_ctx *c = nat_self()->core;
    if (!(c->caps & PLAT_CAP_DMA) || !c->rx->n) { /* no engine, or one without channels */
        *rc = PLAT_ENOTSUP;
        return NULL;
    }
    if (chan >= c->rx->n) {
        *rc = PLAT_EINVAL;
        return NULL;
    }
    return &c->rx->chan[chan];
}

unsigned nat_rx_channels(void)
{
    struct nat_ctx *c = nat_self()->core;
    return c->caps & PLAT_CAP_DMA ? c->rx->n : 0;
}

int nat_rx_post(unsigned chan, void *buf, size_t cap, uint32_t ring_bits)
{
    int rc = PLAT_OK;
    struct chan *ch = own(chan, &rc);
    if (!ch) return rc;
    if (cap && !buf) return PLAT_EINVAL;
    struct nat_rx *rx = nat_self()->core->rx;
    pthread_mutex_lock(&rx->lock);
    if (state(ch) != EMPTY) {
        pthread_mutex_unlock(&rx->lock);
        return PLAT_EBUSY;
    }
    ch->buf = buf;
    ch->cap = cap;
    ch->ring_bits = ring_bits;
    ch->len = 0;
    set_state(ch, POSTED);
    struct nat_engine *first = ch->wait_head;
    pthread_mutex_unlock(&rx->lock);
    /* Only `first` may fill the buffer now (nat_rx_deliver): run it here.
     * Engines are never freed, and only its own run takes it off the FIFO,
     * so running it late is at worst a run with nothing to do. */
    if (first) nat_engine_run(first);
    return PLAT_OK;
}

/* plat_rx_take on ch of core c. */
static int take(struct nat_rx *rx, struct chan *ch, size_t *len)
{
    uint32_t s = state(ch);
    if (s == EMPTY) return PLAT_EINVAL;
    if (s != FILLED) return PLAT_EAGAIN; /* no lock while polling */
    pthread_mutex_lock(&rx->lock);
    int rc;
    s = state(ch); /* another thread of the core may have taken it */
    if (s == FILLED) {
        if (len) *len = ch->len;
        set_state(ch, EMPTY);
        rc = PLAT_OK;
    } else {
        rc = s == EMPTY ? PLAT_EINVAL : PLAT_EAGAIN;
    }
    pthread_mutex_unlock(&rx->lock);
    return rc;
}

int nat_rx_take(unsigned chan, size_t *len)
{
    int rc = PLAT_OK;
    struct chan *ch = own(chan, &rc);
    return ch ? take(nat_self()->core->rx, ch, len) : rc;
}

static bool settled(const void *p)
{
    uint32_t s = state(p);
    return s == FILLED || s == EMPTY;
}

int nat_rx_wait(unsigned chan, size_t *len, uint64_t timeout_ns)
{
    int rc = PLAT_OK;
    struct chan *ch = own(chan, &rc);
    if (!ch) return rc;
    struct nat_rx *rx = nat_self()->core->rx;
    uint64_t deadline = nat_deadline(timeout_ns);
    for (;;) {
        rc = take(rx, ch, len);
        if (rc != PLAT_EAGAIN) return rc;
        uint64_t now = nat_now();
        uint64_t left = deadline == PLAT_FOREVER ? PLAT_FOREVER
                        : deadline > now         ? deadline - now
                                                 : 0;
        if (nat_wait(&rx->wq, false, 0, settled, ch, left) != PLAT_OK) {
            rc = take(rx, ch, len);
            return rc == PLAT_EAGAIN ? PLAT_ETIMEDOUT : rc;
        }
        /* Filled, or emptied by another thread of the core: take says which. */
    }
}

int nat_rx_cancel(unsigned chan)
{
    int rc = PLAT_OK;
    struct chan *ch = own(chan, &rc);
    if (!ch) return rc;
    struct nat_rx *rx = nat_self()->core->rx;
    pthread_mutex_lock(&rx->lock);
    switch (state(ch)) {
    case EMPTY:
        rc = PLAT_EINVAL;
        break;
    case POSTED:
        set_state(ch, EMPTY); /* waiting engines stay in the FIFO for the next post */
        rc = PLAT_OK;
        break;
    default: /* a transfer fills it or has filled it */
        rc = PLAT_EAGAIN;
        break;
    }
    pthread_mutex_unlock(&rx->lock);
    if (rc == PLAT_OK) nat_wake(&rx->wq, false); /* a waiter on the channel: EINVAL now */
    return rc;
}

bool nat_rx_deliver(struct nat_engine *e, const struct nat_dma *r)
{
    struct nat_rx *rx = r->to->rx;
    struct chan *ch = &rx->chan[r->arg];
    pthread_mutex_lock(&rx->lock);
    if (state(ch) != POSTED || (ch->wait_head && ch->wait_head != e)) {
        if (!e->waiting) {
            e->waiting = true;
            e->wait_next = NULL;
            if (ch->wait_tail)
                ch->wait_tail->wait_next = e;
            else
                ch->wait_head = e;
            ch->wait_tail = e;
        }
        pthread_mutex_unlock(&rx->lock);
        return false;
    }
    if (ch->wait_head == e) {
        ch->wait_head = e->wait_next;
        if (!ch->wait_head) ch->wait_tail = NULL;
        e->waiting = false;
    }
    set_state(ch, FILLING);
    void *buf = ch->buf;
    size_t cap = ch->cap;
    uint32_t bits = ch->ring_bits;
    pthread_mutex_unlock(&rx->lock);

    /* Bytes beyond the buffer are dropped; the length says how many came. */
    size_t m = r->n < cap ? r->n : cap;
    if (m) nat_move(buf, r->src, m);
    ch->len = r->n;        /* FILLING: nobody else touches the channel */
    set_state(ch, FILLED); /* releases the data and len to the taker */
    nat_wake(&rx->wq, false);
    nat_poll_wake_range(buf, m); /* pollers of buf */
    nat_ring(r->to, bits);       /* after the data: a woken core can take it */
    return true;
}

int nat_dma_send(plat_dma *d, int core, unsigned chan, const void *src, size_t n)
{
    struct nat_dma *r = nat_dma_rec(d, "plat_dma_send");
    struct nat_ctx *self = nat_self()->core;
    if (!(self->caps & PLAT_CAP_DMA) || !self->rx->n) return PLAT_ENOTSUP;
    struct nat_ctx *to = nat_core_find(core);
    if (!to || !(to->caps & PLAT_CAP_DMA) || chan >= to->rx->n) return PLAT_EINVAL;
    if (n && !src) return PLAT_EINVAL;
    __atomic_store_n(&r->done, 0, __ATOMIC_RELAXED);
    r->kind = NAT_SEND;
    r->dst = NULL;
    r->src = src;
    r->n = n;
    r->to = to;
    r->arg = chan;
    nat_engine_push(self, r);
    return PLAT_OK;
}

/* A host DMA engine is a thread with the process's whole address space. */
bool nat_dma_reach(const void *p, size_t n)
{
    (void)p;
    (void)n;
    return (nat_self()->core->caps & PLAT_CAP_DMA) != 0;
}
