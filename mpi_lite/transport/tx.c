/* tx.c -- the send queues: fragmentation and bundling into pair slots. */
#include <stdlib.h>
#include <string.h>

#include "tp.h"

#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

void tp_queue(struct tp_world *w, int peer, struct tp_sop *s)
{
    struct tp_tx *tx = &w->tx[peer];
    s->next = NULL;
    if (tx->qtail)
        tx->qtail->next = s;
    else
        tx->q = s;
    tx->qtail = s;
}

/* P(empty): a free slot in buff_{me,peer}? Opens it for composing. head
 * only grows, so the copy in tx->h errs on the full side: it is reloaded
 * only when it says full, not on every slot. */
static bool open_slot(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    struct tp_tx *tx = &w->tx[peer];
    if (w->by_stream[peer]) { /* one frame at a time: the last must have gone */
        tx->full = tx->out_len && !tp_stream_flush(me, peer);
        if (tx->full) return false;
        tx->open = true;
        tx->fill = TP_SLOT_HDR;
        tx->compose = tx->stage;
        return true;
    }
    if (tx->t - tx->h >= w->slots) {
        tx->h = plat_load64(tp_head(w, me->rank, peer));
        tx->full = tx->t - tx->h >= w->slots;
        if (tx->full) return false;
    }
    tx->open = true;
    tx->fill = TP_SLOT_HDR;
    /* Intra-node: compose in the receiver's slot (a memory copy). Inter-node:
     * compose locally, then the DMA engine writes the slot. */
    if (tp_same_node(me, peer)) {
        tx->compose = tp_slot(w, me->rank, peer, tx->t);
    } else {
        if (!tx->stage) tx->stage = malloc(w->slot_bytes);
        if (!tx->stage) ml_fatal("MPI_Send", MPI_ERR_NO_MEM, "out of memory for a staging slot");
        tx->compose = tx->stage;
    }
    return true;
}

/* V(full): publish the open slot and ring the receiver's bell. */
static void publish(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    struct tp_tx *tx = &w->tx[peer];
    uint64_t used = tx->fill;
    if (w->by_stream[peer]) {
        tp_stream_publish(me, peer, (size_t)used);
        me->stats.slots++;
        tx->open = false;
        return;
    }
    char *slot = tp_slot(w, me->rank, peer, tx->t);
    if (tx->compose == slot) {
        plat_store64((uint64_t *)slot, used);
    } else {
        memcpy(tx->compose, &used, sizeof used);
        if (plat_dma_reach(tx->compose, (size_t)used) && plat_dma_reach(slot, (size_t)used) &&
            plat_dma_start(&w->dma, slot, tx->compose, (size_t)used, 0, 0, 0) == PLAT_OK) {
            plat_dma_wait(&w->dma, PLAT_FOREVER);
            me->stats.dma_slots++;
        } else { /* an engine that cannot reach both: the core copies */
            plat_copy(slot, tx->compose, (size_t)used);
        }
    }
    plat_store64(tp_tail(w, me->rank, peer), tx->t + 1);
    me->stats.slots++;
    tx->t++;
    tx->open = false;
    tp_ring(me, peer);
}

static void sop_done(struct tp_sop *s)
{
    struct ml_request *r = s->req;
    if (r && s->rec.type != TP_RTS) {
        r->done = true;
        free(r->sown);
        r->sown = NULL;
    }
    free(s);
}

/* Write as much of peer's queue as fits; true if the queue emptied. */
static bool drain(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    struct tp_tx *tx = &w->tx[peer];
    while (tx->q) {
        struct tp_sop *s = tx->q;
        if (!tx->open && !open_slot(me, peer)) return false;
        size_t space = w->slot_bytes - tx->fill;
        size_t left = s->len - s->off;
        if (space < sizeof(struct tp_rec) + (left ? 1 : 0)) {
            publish(me, peer);
            continue;
        }
        size_t chunk = left < space - sizeof(struct tp_rec) ? left : space - sizeof(struct tp_rec);
        struct tp_rec rec = s->rec;
        if (s->started) rec.type = TP_CONT;
        rec.chunk = (uint32_t)chunk;
        plat_copy(tx->compose + tx->fill, &rec, sizeof rec);
        if (chunk) plat_copy(tx->compose + tx->fill + sizeof rec, s->data + s->off, chunk);
        plat_work_cycles(me->rec_cycles);
        me->stats.records++;
        tx->fill += ALIGN8(sizeof rec + chunk);
        if (tx->fill > w->slot_bytes) tx->fill = w->slot_bytes;
        s->off += chunk;
        s->started = true;
        if (s->off == s->len) {
            tx->q = s->next;
            if (!tx->q) tx->qtail = NULL;
            sop_done(s);
        }
    }
    return true;
}

void tp_tx_progress(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    for (int p = 0; p < w->n; p++) {
        if (w->tx[p].out_len) tp_stream_flush(me, p); /* a frame the stream refused before */
        drain(me, p);
        /* What this pass bundled goes out now: a slot is never held back
         * waiting for more. */
        if (w->tx[p].open) publish(me, p);
    }
}

/* Before tp_wait sleeps: for every pair found full, store in `want` the head
 * that frees a slot, then load head once more. The receiver stores head,
 * then loads want (rx.c), both sequentially consistent: either this load
 * sees the new head or the receiver sees want and rings the bell. True if
 * a slot is free now (do not sleep). */
bool tp_tx_want_space(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    bool space = false;
    for (int p = 0; p < w->n; p++) {
        struct tp_tx *tx = &w->tx[p];
        if (!tx->q || !tx->full) continue;
        if (w->by_stream[p]) { /* the poller watches the stream for room */
            if (tp_stream_flush(me, p)) space = true;
            continue;
        }
        uint64_t want = tx->t - w->slots + 1;
        if (tx->want != want) {
            plat_store64(tp_want(w, me->rank, p), want);
            tx->want = want;
        }
        tx->h = plat_load64(tp_head(w, me->rank, p));
        if (tx->t - tx->h < w->slots) space = true;
    }
    return space;
}

void tp_send(struct ml_rank *me, struct ml_request *r, int dst, int tag, int ctx, size_t len,
             bool sync)
{
    struct tp_sop *s = calloc(1, sizeof *s);
    if (!s) ml_fatal("MPI_Send", MPI_ERR_NO_MEM, "out of memory queueing %zu bytes", len);
    bool rndv = sync || len > me->par.eager_max;
    s->rec.type = rndv ? TP_RTS : TP_EAGER;
    if (rndv)
        me->stats.rndv++;
    else
        me->stats.eager++;
    s->rec.ctx = ctx;
    s->rec.tag = tag;
    s->rec.total = len;
    s->rec.sreq = (uint64_t)(uintptr_t)r;
    s->data = r->sdata;
    s->len = rndv ? 0 : len;
    s->req = r;
    r->total = len;
    tp_queue(me->tp, dst, s);
    /* Start at once what fits, without publishing a slot that is not full:
     * the next progress pass does, bundling whatever was queued meanwhile. */
    drain(me, dst);
}

void tp_cts(struct ml_rank *me, struct ml_unexp *u, struct ml_request *r)
{
    struct tp_sop *s = calloc(1, sizeof *s);
    if (!s) ml_fatal("MPI_Recv", MPI_ERR_NO_MEM, "out of memory");
    s->rec.type = TP_CTS;
    s->rec.sreq = u->sreq;
    s->rec.rreq = (uint64_t)(uintptr_t)r;
    tp_queue(me->tp, u->src_world, s);
}
