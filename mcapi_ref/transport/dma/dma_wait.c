/*
 * transport/dma/dma_wait.c -- the DMA transport's engine, control channel,
 * arrivals and waiting.
 *
 * Engine: DT_SLOTS transfers of the node at once, each with its own record
 * (and staging bytes for control messages and scalars) in local memory, so
 * that a transfer that outlives the call which started it (a cancelled or
 * timed-out send: the engine has no abort) still has its record. Control
 * messages that find no free slot wait in the outbox, in order.
 *
 * Arrivals: a transfer fills what is posted on a channel; whoever takes it
 * (a step polling its own channel, a scan, a sleep) files it with
 * dt_filled. Nothing moves behind the node's back: arrivals are filed only
 * while the node is inside an MCAPI call.
 */
#include "dma_tp.h"

#include <stddef.h>
#include <string.h>

void dt_watch(struct tp_node *tp, unsigned kind, unsigned idx)
{
    for (unsigned i = 0; i < tp->nwatch; i++)
        if (tp->watch[i].kind == kind && tp->watch[i].idx == idx) return;
    if (tp->nwatch == DT_WATCH) return; /* too many: sleep waits for the doorbell */
    tp->watch[tp->nwatch].kind = (uint8_t)kind;
    tp->watch[tp->nwatch].idx = (uint16_t)idx;
    tp->nwatch++;
}

void dt_reap(struct tp_node *tp)
{
    for (unsigned i = 0; tp->orphans && i < DT_SLOTS; i++) {
        struct dt_slot *s = &tp->slot[i];
        if (s->state == SL_ORPHAN && drv_dma_done(&s->d)) {
            s->state = SL_FREE;
            tp->orphans--;
            tp->prog++;
        }
    }
}

int dt_slot_get(struct tp_node *tp)
{
    for (unsigned i = 0; i < DT_SLOTS; i++)
        if (tp->slot[i].state == SL_FREE) {
            tp->slot[i].state = SL_OP;
            tp->slot[i].seq = tp->seq++;
            return (int)i;
        }
    return -1;
}

bool dt_slot_done(struct tp_node *tp, int s)
{
    if (!drv_dma_done(&tp->slot[s].d)) return false;
    tp->slot[s].state = SL_FREE;
    return true;
}

void dt_slot_orphan(struct tp_node *tp, int s)
{
    tp->slot[s].state = SL_ORPHAN;
    tp->orphans++;
}

/* FUNCAPI's driver sends from one TX buffer in the dual-port RAM (the only
 * memory the HIBI PE DMA masters); the Nios copies the data in, and the
 * next copy waits until the engine has read the last one out. */
const void *dt_tx_stage(struct tp_node *tp, const void *src, size_t n, mcapi_status_t *st)
{
    *st = MCAPI_SUCCESS;
    if (!n || plat_dma_reach(src, n)) return src;
    if (tp->tx_busy) {
        for (unsigned i = 0; i < DT_SLOTS; i++) {
            struct dt_slot *s = &tp->slot[i];
            if (s->state != SL_FREE && s->seq == tp->tx_seq && !drv_dma_done(&s->d)) {
                dt_watch(tp, W_SLOT, i);
                return NULL;
            }
        }
        tp->tx_busy = 0; /* its slot is done (or freed, or reused since) */
    }
    if (n > tp->tx_cap) {
        unsigned char *p = plat_local_alloc(n, 64);
        if (!p) {
            *st = MCAPI_ERR_MEM_LIMIT;
            return NULL;
        }
        if (tp->tx) plat_local_free(tp->tx);
        tp->tx = p;
        tp->tx_cap = n;
    }
    plat_copy(tp->tx, src, n);
    return tp->tx;
}

void dt_tx_issued(struct tp_node *tp, int s, const void *p)
{
    if (p != tp->tx || !p) return;
    tp->tx_busy = 1;
    tp->tx_seq = tp->slot[s].seq;
}

int dt_slot_oldest(const struct tp_node *tp)
{
    int best = -1;
    for (unsigned i = 0; i < DT_SLOTS; i++)
        if (tp->slot[i].state != SL_FREE &&
            (best < 0 || (int32_t)(tp->slot[i].seq - tp->slot[best].seq) < 0))
            best = (int)i;
    return best;
}

/* The bytes of m that go on the wire: every bus word counts (a credit per
 * packet), so only HELLO carries arg2 and nobody sends the padding. */
static size_t ctl_len(const struct dt_ctl *m)
{
    return m->type == CTL_HELLO ? offsetof(struct dt_ctl, pad3) : offsetof(struct dt_ctl, arg2);
}

/* Start control message m to node `to` in a free slot: false if none. */
static bool issue(struct tp_node *tp, unsigned to, const struct dt_ctl *m)
{
    int s = dt_slot_get(tp);
    if (s < 0) return false;
    struct dt_slot *sl = &tp->slot[s];
    memcpy(sl->stage, m, sizeof *m);
    if (drv_dma_send(&sl->d, tp->map.core[to], tp->map.base[to], sl->stage, ctl_len(m)) !=
        PLAT_OK) {
        sl->state = SL_FREE; /* the mapping was checked at initialise: cannot happen */
        return true;
    }
    dt_slot_orphan(tp, s);
    plat_work_cycles(tp->xfer_cycles);
    return true;
}

static void flush(struct tp_node *tp)
{
    while (tp->obn && issue(tp, tp->outbox[tp->obhead].to, &tp->outbox[tp->obhead].m)) {
        tp->obhead = (tp->obhead + 1) % DT_OUTBOX;
        tp->obn--;
    }
}

void dt_ctl_send(struct tp_node *tp, unsigned to, const struct dt_ctl *m)
{
    if (to == tp->node) { /* both ends are ours: no transfer */
        plat_work_cycles(tp->xfer_cycles);
        dt_ctl_handle(tp, m, to);
        return;
    }
    dt_reap(tp);
    flush(tp);
    if (!tp->obn && issue(tp, to, m)) return;
    /* Credits to the same end add up instead of queueing twice. */
    for (unsigned i = 0; m->type == CTL_CREDIT && i < tp->obn; i++) {
        unsigned k = (tp->obhead + i) % DT_OUTBOX;
        struct dt_ctl *o = &tp->outbox[k].m;
        if (o->type == CTL_CREDIT && tp->outbox[k].to == to && o->port == m->port) {
            o->arg += m->arg;
            return;
        }
    }
    while (tp->obn == DT_OUTBOX) { /* full: wait for the engine, serving arrivals */
        int s = dt_slot_oldest(tp);
        if (s >= 0) (void)drv_dma_wait(&tp->slot[s].d, DT_SLICE_NS);
        dt_scan(tp);
        dt_reap(tp);
        flush(tp);
    }
    unsigned i = (tp->obhead + tp->obn++) % DT_OUTBOX;
    tp->outbox[i].m = *m;
    tp->outbox[i].to = (uint16_t)to;
}

void dt_service(struct tp_node *tp)
{
    dt_reap(tp);
    flush(tp);
    if (tp->nconn) (void)dt_poll_chan(tp, tp->ctl);
}

void dt_refill(struct tp_node *tp)
{
    while (tp->refill) {
        unsigned p = (unsigned)__builtin_ctzll(tp->refill);
        struct dt_endp *e = &tp->ep[p];
        if ((e->live || e->drain) && e->post == DP_NONE && e->c.set < 0 &&
            !dt_set_draining(tp, p)) {
            int b = dt_buf_get(tp, false);
            if (b < 0) return; /* none to spare: senders wait until a receive frees one */
            if (drv_rx_post(dt_port_chan(tp, p), dt_buf(tp, (unsigned)b), MCAPI_MAX_MSG_SIZE,
                            tp->bell) != PLAT_OK) {
                dt_buf_put(tp, (unsigned)b);
            } else {
                e->post = DP_INT;
                e->post_idx = (uint8_t)b;
            }
        }
        tp->refill &= ~(1ull << p);
    }
}

void dt_filled(struct tp_node *tp, unsigned ch, size_t len)
{
    tp->prog++;
    if (ch == tp->ctl) {
        struct dt_ctl m = {0};
        if (len <= sizeof m) memcpy(&m, tp->ctlbuf, len);
        /* Re-arm first: the next sender may be stalled on this channel. */
        tp->ctl_posted = drv_rx_post(ch, tp->ctlbuf, sizeof *tp->ctlbuf, tp->bell) == PLAT_OK;
        if (len >= offsetof(struct dt_ctl, arg2) && len <= sizeof m && len == ctl_len(&m) &&
            m.peer_node < MCA_MAX_NODES) {
            plat_work_cycles(tp->xfer_cycles);
            dt_ctl_handle(tp, &m, m.peer_node);
        }
        return;
    }
    unsigned port = ch - tp->ctl - 1;
    struct dt_endp *e = &tp->ep[port];
    switch (e->post) {
    case DP_INT:
        e->post = DP_NONE;
        if (e->live && e->c.set < 0)
            dt_q_push(e, e->post_idx, len);
        else
            dt_buf_put(tp, e->post_idx); /* a message to nobody */
        tp->refill |= 1ull << port;
        break;
    case DP_USER:
        e->user->value = len;
        e->user->state |= ST_FILLED;
        e->user = NULL;
        e->post = DP_NONE;
        tp->refill |= 1ull << port;
        break;
    case DP_SET:
        dt_set_filled(tp, &tp->set[e->post_idx], len);
        break;
    default:
        break;
    }
    /* Re-arm at once (one register write): a node that goes idle after
     * this still takes the next message on this endpoint. */
    dt_refill(tp);
}

bool dt_poll_chan(struct tp_node *tp, unsigned ch)
{
    bool any = false;
    size_t len = 0;
    /* Loop: what was posted next may already be filled (a stalled sender). */
    for (;;) {
        if (ch == tp->ctl ? !tp->ctl_posted : tp->ep[ch - tp->ctl - 1].post == DP_NONE) break;
        if (drv_rx_take(ch, &len) != PLAT_OK) break;
        dt_filled(tp, ch, len);
        any = true;
    }
    return any;
}

void dt_scan(struct tp_node *tp)
{
    (void)dt_poll_chan(tp, tp->ctl);
    for (unsigned p = 0; p < tp->nports; p++)
        if (tp->ep[p].post != DP_NONE) (void)dt_poll_chan(tp, dt_port_chan(tp, p));
}

uint32_t dt_epoch(struct tp_node *tp)
{
    tp->nwatch = 0;
    return tp->prog;
}

/* What to wait for: the oldest watched transfer (or, with control messages
 * waiting for the engine, the oldest one), else the one watched channel;
 * -1 for both: several channels or none. */
static int pick(const struct tp_node *tp, int *chan)
{
    int slot = -1, ch = -1;
    unsigned nch = 0;
    for (unsigned i = 0; i < tp->nwatch; i++) {
        unsigned idx = tp->watch[i].idx;
        if (tp->watch[i].kind == W_SLOT) {
            if (tp->slot[idx].state != SL_FREE &&
                (slot < 0 || (int32_t)(tp->slot[idx].seq - tp->slot[slot].seq) < 0))
                slot = (int)idx;
        } else {
            ch = (int)idx;
            nch++;
        }
    }
    if (slot < 0 && tp->obn) slot = dt_slot_oldest(tp);
    *chan = nch == 1 && tp->nwatch < DT_WATCH ? ch : -1;
    return slot;
}

void dt_sleep(struct tp_node *tp, uint32_t epoch, uint64_t timeout_ns)
{
    dt_refill(tp);
    uint64_t deadline = timeout_ns == PLAT_FOREVER ? PLAT_FOREVER : plat_now_ns() + timeout_ns;
    while (tp->prog == epoch) {
        uint64_t now = plat_now_ns();
        if (deadline != PLAT_FOREVER && now >= deadline) break;
        uint64_t left = deadline == PLAT_FOREVER ? PLAT_FOREVER : deadline - now;
        uint64_t slice = left < DT_SLICE_NS ? left : DT_SLICE_NS;
        int ch;
        int slot = pick(tp, &ch);
        if (slot >= 0) {
            /* A transfer of ours: the engine says when, nothing rings. */
            if (drv_dma_wait(&tp->slot[slot].d, slice)) {
                tp->prog++;
                dt_reap(tp);
                flush(tp);
                break;
            }
        } else if (ch >= 0) {
            /* One channel: poll it, as FUNCAPI's msg_recv polls the DMA. */
            size_t len = 0;
            int r = drv_rx_wait((unsigned)ch, &len, slice);
            if (r == PLAT_OK) {
                dt_filled(tp, (unsigned)ch, len);
                break;
            }
            if (r != PLAT_ETIMEDOUT) { /* nothing posted any more: look again */
                tp->prog++;
                break;
            }
        } else {
            /* Several things or none: every post rings the doorbell. */
            if (drv_bell_wait(tp->bell, left)) dt_scan(tp);
            continue;
        }
        /* A slice passed: serve whatever else arrived meanwhile. */
        if (drv_bell_wait(tp->bell, 0)) dt_scan(tp);
        dt_reap(tp);
        flush(tp);
        dt_refill(tp);
    }
    tp->nwatch = 0;
}
