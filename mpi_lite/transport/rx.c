/* rx.c -- the receive side: read pair slots, reassemble, match, free slots. */
#include <stdlib.h>
#include <string.h>

#include "tp.h"

#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

/* Payload for a matched receive: what fits is stored, the rest counted
 * (truncation is reported at completion). */
static void into_req(struct ml_request *r, const char *p, size_t n)
{
    size_t room = r->cap - r->got;
    size_t k = n < room ? n : room;
    if (k) plat_copy(r->pack + r->got, p, k);
    r->got += k;
    r->seen += n;
    if (r->seen == r->total) ml_req_complete_recv(r);
}

static void into_unexp(struct ml_unexp *u, const char *p, size_t n)
{
    if (n) plat_copy(u->data + u->got, p, n);
    u->got += n;
    if (u->got == u->total && u->req) {
        ml_unexp_deliver(u, u->req); /* matched while still arriving */
    }
}

static void matched_envelope(struct ml_request *r, int src, const struct tp_rec *h)
{
    r->total = h->total;
    r->st.MPI_SOURCE = src; /* world rank; the receive converts to the comm's */
    r->st.MPI_TAG = h->tag;
}

static void on_first(struct ml_rank *me, int src, struct tp_rx *rx, const struct tp_rec *h,
                     const char *p)
{
    rx->cur_r = NULL;
    rx->cur_u = NULL;
    struct ml_request *r = ml_match_posted(me, src, h->tag, h->ctx);
    if (h->type == TP_RTS) {
        if (r) {
            matched_envelope(r, src, h);
            struct ml_unexp tmp = {.src_world = src, .sreq = h->sreq};
            tp_cts(me, &tmp, r);
            return;
        }
        struct ml_unexp *u = calloc(1, sizeof *u);
        if (!u) ml_fatal("MPI_Recv", MPI_ERR_NO_MEM, "out of memory for an envelope");
        *u = (struct ml_unexp){.src_world = src,
                               .tag = h->tag,
                               .ctx = h->ctx,
                               .total = h->total,
                               .rts = true,
                               .sreq = h->sreq};
        ml_unexp_add(me, u);
        return;
    }
    if (r) {
        matched_envelope(r, src, h);
        rx->cur_r = r;
        into_req(r, p, h->chunk);
        return;
    }
    struct ml_unexp *u = calloc(1, sizeof *u);
    char *d = malloc(h->total ? h->total : 1);
    if (!u || !d)
        ml_fatal("MPI_Recv", MPI_ERR_NO_MEM, "out of memory for %llu unexpected bytes",
                 (unsigned long long)h->total);
    *u = (struct ml_unexp){
        .src_world = src, .tag = h->tag, .ctx = h->ctx, .total = h->total, .data = d};
    ml_unexp_add(me, u);
    rx->cur_u = u;
    into_unexp(u, p, h->chunk);
}

static void on_record(struct ml_rank *me, int src, const struct tp_rec *h, const char *p)
{
    struct tp_rx *rx = &me->tp->rx[src];
    switch (h->type) {
    case TP_EAGER:
    case TP_RTS:
        on_first(me, src, rx, h, p);
        break;
    case TP_CTS: {
        /* Our rendezvous send may go: its data follows on this pair. */
        struct ml_request *s = (struct ml_request *)(uintptr_t)h->sreq;
        struct tp_sop *o = calloc(1, sizeof *o);
        if (!o) ml_fatal("MPI_Send", MPI_ERR_NO_MEM, "out of memory");
        o->rec.type = TP_DATA;
        o->rec.total = s->total;
        o->rec.rreq = h->rreq;
        o->data = s->sdata;
        o->len = s->total;
        o->req = s;
        s->cts = true;
        tp_queue(me->tp, src, o);
        break;
    }
    case TP_DATA: {
        struct ml_request *r = (struct ml_request *)(uintptr_t)h->rreq;
        rx->cur_r = r;
        rx->cur_u = NULL;
        into_req(r, p, h->chunk);
        break;
    }
    case TP_CONT:
        if (rx->cur_r)
            into_req(rx->cur_r, p, h->chunk);
        else if (rx->cur_u)
            into_unexp(rx->cur_u, p, h->chunk);
        else
            ml_fatal("MPI_Recv", MPI_ERR_INTERN, "continuation from rank %d with no message", src);
        break;
    default:
        ml_fatal("MPI_Recv", MPI_ERR_INTERN, "record type %u from rank %d", h->type, src);
    }
}

void tp_read_slot(struct ml_rank *me, int src, const char *slot, size_t used)
{
    size_t off = TP_SLOT_HDR;
    while (off + sizeof(struct tp_rec) <= used) {
        struct tp_rec h;
        plat_copy(&h, slot + off, sizeof h);
        plat_work_cycles(me->rec_cycles);
        on_record(me, src, &h, slot + off + sizeof h);
        off += ALIGN8(sizeof h + h.chunk);
    }
}

void tp_rx_progress(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    for (int src = 0; src < w->n; src++) {
        if (w->by_stream[src]) continue; /* stream.c reads those */
        struct tp_rx *rx = &w->rx[src];
        uint64_t tail = plat_load64(tp_tail(w, src, me->rank));
        uint64_t h0 = rx->h;
        while (rx->h < tail) {
            char *slot = tp_slot(w, src, me->rank, rx->h);
            tp_read_slot(me, src, slot, (size_t)plat_load64((uint64_t *)slot));
            /* V(empty): the slot is the sender's again. The sender is woken
             * only if it sleeps for space (tx.c tp_tx_want_space): want is
             * loaded after the pass's last head store, so a sender that
             * missed that store has its want seen here; and after its first,
             * so that a sender asleep on the full queue the pass began with
             * refills while the rest is read. Once per want value: a sender
             * that sees this head does not sleep for it. */
            rx->h++;
            plat_store64(tp_head(w, src, me->rank), rx->h);
            if (rx->h == h0 + 1 || rx->h == tail) {
                uint64_t want = plat_load64(tp_want(w, src, me->rank));
                if (want > rx->rung && rx->h >= want) {
                    rx->rung = want;
                    tp_ring(me, src);
                }
            }
        }
    }
}
