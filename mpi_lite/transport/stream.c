/*
 * stream.c -- the second transport: pair slots as frames on a byte stream.
 *
 * A pair of ranks that shares no memory (two hosts natively, or any two
 * nodes when the parameter `inter` asks for it: the paper's "MPI over
 * Ethernet" baseline) gets one stream (plat_stream: TCP natively, the
 * network model in simulation). A frame is exactly a slot: its used bytes
 * (8) and its records, so fragmentation, bundling, reassembly, matching and
 * rendezvous are the shared-memory transport's, unchanged. TCP's window is
 * the pair's flow control: a sender holds one frame until the stream took
 * it, and composes no next frame before (that is its "queue full").
 *
 * Set-up in MPI_Init: every rank that has a stream peer above it listens at
 * plat_core_addr(rank); it connects to its stream peers below it (retrying
 * while they are not listening yet) and says who it is; then it accepts its
 * peers above it. Connections complete in the listener's backlog, so no
 * order of start-up deadlocks.
 */
#include <stdlib.h>
#include <string.h>

#include "tp.h"

#define HELLO_MAGIC 0x4d50494c49544531ull /* "MPILITE1" */
#define SETUP_NS 60000000000ull           /* a peer that never comes: fatal after 60 s */
#define RETRY_NS 1000000ull               /* between connection attempts to a peer not listening */
#define RX_FRAMES 4                       /* a receive buffer holds this many frames */

struct hello {
    uint64_t magic;
    uint32_t rank, size;
    uint64_t slot_bytes;
};

static void die(struct ml_rank *me, int peer, const char *what, int st)
{
    char addr[300] = "?";
    plat_core_addr(peer, addr, sizeof addr);
    ml_fatal("MPI_Init", MPI_ERR_OTHER, "rank %d: %s rank %d at %s: %s", me->rank, what, peer, addr,
             plat_strerror(st));
}

/* All n bytes, or a status. */
static int send_all(plat_stream *s, const void *buf, size_t n, uint64_t timeout_ns)
{
    for (size_t off = 0; off < n;) {
        long k = plat_stream_send(s, (const char *)buf + off, n - off, timeout_ns);
        if (k < 0) return (int)k;
        off += (size_t)k;
    }
    return PLAT_OK;
}

static int recv_all(plat_stream *s, void *buf, size_t n, uint64_t timeout_ns)
{
    for (size_t off = 0; off < n;) {
        long k = plat_stream_recv(s, (char *)buf + off, n - off, timeout_ns);
        if (k == 0) return PLAT_ECLOSED;
        if (k < 0) return (int)k;
        off += (size_t)k;
    }
    return PLAT_OK;
}

static plat_stream *connect_to(struct ml_rank *me, int peer)
{
    char addr[300];
    int st = plat_core_addr(peer, addr, sizeof addr);
    if (st) die(me, peer, "no address for", st);
    uint64_t t0 = plat_now_ns();
    for (;;) {
        plat_stream *s = plat_stream_connect(addr, SETUP_NS, &st);
        if (s) return s;
        if (st != PLAT_ECONNREFUSED || plat_now_ns() - t0 > SETUP_NS)
            die(me, peer, "cannot connect to", st);
        plat_sleep_ns(RETRY_NS); /* it has not reached MPI_Init yet */
    }
}

static void add(struct ml_rank *me, int peer, plat_stream *s)
{
    struct tp_world *w = me->tp;
    w->st[peer] = s;
    if (w->by_stream[peer]) { /* a wake stream needs no buffers */
        w->rx[peer].sbuf = malloc(RX_FRAMES * w->slot_bytes);
        w->tx[peer].stage = malloc(w->slot_bytes);
        if (!w->rx[peer].sbuf || !w->tx[peer].stage)
            ml_fatal("MPI_Init", MPI_ERR_NO_MEM, "out of memory for rank %d's stream buffers",
                     peer);
    }
    w->pbits[peer] = PLAT_POLL_IN;
    int st = plat_poller_add(w->poller, s, PLAT_POLL_IN, &w->st[peer]);
    if (st) die(me, peer, "cannot watch the stream of", st);
}

/* A stream to peer: for its data, or (a rank of this region, when this
 * rank is mixed) to wake it in its poller. */
static bool wake_peer(struct tp_world *w, struct ml_rank *me, int p)
{
    return w->mixed && p != me->rank && !w->by_stream[p];
}
static bool linked(struct tp_world *w, struct ml_rank *me, int p)
{
    return w->by_stream[p] || wake_peer(w, me, p);
}

void tp_stream_init(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    if (!w->nstream) return;
    int above = 0;
    for (int p = me->rank + 1; p < w->n; p++) above += linked(w, me, p);
    w->st = calloc((size_t)w->n, sizeof *w->st);
    w->pbits = calloc((size_t)w->n, sizeof *w->pbits);
    w->gone = calloc((size_t)w->n, sizeof *w->gone);
    w->poller = plat_poller_new();
    if (!w->st || !w->pbits || !w->gone || !w->poller)
        ml_fatal("MPI_Init", MPI_ERR_NO_MEM, "out of memory for %d streams", w->nstream);
    plat_stream *l = NULL;
    if (above) {
        char addr[300];
        int st = plat_core_addr(me->rank, addr, sizeof addr);
        if (st == PLAT_OK) l = plat_stream_listen(addr, &st);
        if (!l) die(me, me->rank, "cannot listen as", st);
    }
    struct hello h = {HELLO_MAGIC, (uint32_t)me->rank, (uint32_t)w->n, w->slot_bytes};
    for (int p = 0; p < me->rank; p++) {
        if (!linked(w, me, p)) continue;
        plat_stream *s = connect_to(me, p);
        int st = send_all(s, &h, sizeof h, SETUP_NS);
        if (st) die(me, p, "cannot greet", st);
        add(me, p, s);
    }
    for (int k = 0; k < above; k++) {
        int st;
        plat_stream *s = plat_stream_accept(l, SETUP_NS, &st);
        if (!s)
            ml_fatal("MPI_Init", MPI_ERR_OTHER,
                     "rank %d: %d of its %d peers above it did not connect within 60 s (%s)",
                     me->rank, above - k, above, plat_strerror(st));
        struct hello g;
        st = recv_all(s, &g, sizeof g, SETUP_NS);
        int p = (int)g.rank;
        if (st || g.magic != HELLO_MAGIC || g.size != (uint32_t)w->n || p <= me->rank ||
            p >= w->n || !linked(w, me, p) || w->st[p] || g.slot_bytes != w->slot_bytes)
            ml_fatal("MPI_Init", MPI_ERR_OTHER,
                     "rank %d: a connection that is not a stream peer of this job (rank %u of "
                     "%u, slot_bytes %llu; %s)",
                     me->rank, g.rank, g.size, (unsigned long long)g.slot_bytes,
                     st ? plat_strerror(st) : "unexpected greeting");
        add(me, p, s);
    }
    if (l) plat_stream_close(l);
}

void tp_stream_fini(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    if (!w->nstream) return;
    for (int p = 0; p < w->n; p++) {
        if (!w->st[p]) continue;
        if (!w->gone[p]) plat_poller_del(w->poller, w->st[p]);
        plat_stream_close(w->st[p]);
        free(w->rx[p].sbuf);
    }
    plat_poller_free(w->poller);
    free(w->st);
    free(w->pbits);
    free(w->gone);
}

static _Noreturn void lost(struct ml_rank *me, int peer, const char *call, long st)
{
    ml_fatal(call, MPI_ERR_OTHER, "rank %d: the stream of rank %d %s", me->rank, peer,
             st == 0 ? "closed (did it end without MPI_Finalize?)" : plat_strerror((int)st));
}

/* Hand the pending frame to the stream, as far as it takes it now: true
 * when nothing is left pending. */
bool tp_stream_flush(struct ml_rank *me, int peer)
{
    struct tp_tx *tx = &me->tp->tx[peer];
    while (tx->out_off < tx->out_len) {
        long k = plat_stream_send(me->tp->st[peer], tx->stage + tx->out_off,
                                  tx->out_len - tx->out_off, 0);
        if (k == PLAT_EAGAIN) return false;
        if (k < 0) lost(me, peer, "MPI_Send", k);
        tx->out_off += (size_t)k;
    }
    tx->out_off = tx->out_len = 0;
    return true;
}

/* A composed frame goes: the staging slot stays taken until it is sent. */
void tp_stream_publish(struct ml_rank *me, int peer, size_t used)
{
    struct tp_tx *tx = &me->tp->tx[peer];
    memcpy(tx->stage, &(uint64_t){used}, sizeof(uint64_t));
    tx->out_len = used;
    tx->out_off = 0;
    me->stats.stream_frames++;
    tp_stream_flush(me, peer);
}

bool tp_sent_all(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    for (int p = 0; p < w->n; p++)
        if (w->by_stream[p] && (w->tx[p].q || w->tx[p].open || w->tx[p].out_len)) return false;
    return true;
}

/* The end of peer's stream in MPI_Finalize's meeting: it has finished. */
static void ended(struct tp_world *w, int peer)
{
    plat_poller_del(w->poller, w->st[peer]);
    w->gone[peer] = true;
}

/* What arrived from peer, frame by frame, each read as a slot. */
static void rx_peer(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    struct tp_rx *rx = &w->rx[peer];
    size_t cap = RX_FRAMES * w->slot_bytes;
    for (;;) {
        size_t room = cap - rx->sfill;
        long k = plat_stream_recv(w->st[peer], rx->sbuf + rx->sfill, room, 0);
        if (k == PLAT_EAGAIN) return;
        if (k <= 0 && !w->finalizing) lost(me, peer, "MPI_Recv", k);
        if (k <= 0) {
            ended(w, peer);
            return;
        }
        rx->sfill += (size_t)k;
        size_t pos = 0;
        while (rx->sfill - pos >= sizeof(uint64_t)) {
            uint64_t used;
            memcpy(&used, rx->sbuf + pos, sizeof used);
            if (used < TP_SLOT_HDR || used > w->slot_bytes)
                ml_fatal("MPI_Recv", MPI_ERR_INTERN, "rank %d: a frame of %llu bytes from rank %d",
                         me->rank, (unsigned long long)used, peer);
            if (rx->sfill - pos < used) break;
            tp_read_slot(me, peer, rx->sbuf + pos, (size_t)used);
            pos += (size_t)used;
        }
        memmove(rx->sbuf, rx->sbuf + pos, rx->sfill - pos);
        rx->sfill -= pos;
        if ((size_t)k < room) return; /* the stream had no more for now */
    }
}

/* Wake bytes carry nothing but the wake-up itself. */
static void drain(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    char junk[64];
    long k;
    while ((k = plat_stream_recv(w->st[peer], junk, sizeof junk, 0)) > 0) {
    }
    if (k == PLAT_EAGAIN) return;
    if (!w->finalizing) lost(me, peer, "MPI_Recv", k);
    ended(w, peer);
}

void tp_stream_rx(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    for (int p = 0; p < w->n; p++) {
        if (!w->st[p] || w->gone[p]) continue;
        if (w->by_stream[p])
            rx_peer(me, p);
        else
            drain(me, p);
    }
}

void tp_stream_poke(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    if (w->gone[peer]) return;
    long k = plat_stream_send(w->st[peer], "!", 1, 0);
    /* EAGAIN: the stream is full of wake bytes already. */
    if (k < 0 && k != PLAT_EAGAIN && !w->finalizing) lost(me, peer, "MPI_Send", k);
}

/* Sleep until a stream is readable, a pending frame can go, or (with
 * peers in shared memory too) the bell moves from e: then the rank says it
 * sleeps (tp_asleep) before it looks at the bell a last time, and a peer
 * that rings the bell after that sees it and writes a byte on the pair's
 * wake stream (pair.c tp_ring). */
void tp_stream_wait(struct ml_rank *me, uint64_t e)
{
    struct tp_world *w = me->tp;
    for (int p = 0; p < w->n; p++) {
        if (!w->by_stream[p] || w->gone[p]) continue;
        unsigned bits = PLAT_POLL_IN | (w->tx[p].out_len ? PLAT_POLL_OUT : 0);
        if (bits != w->pbits[p] && plat_poller_mod(w->poller, w->st[p], bits, &w->st[p]) == 0)
            w->pbits[p] = bits;
    }
    struct plat_poll_event ev[8];
    if (!w->mixed) {
        plat_poller_wait(w->poller, ev, 8, PLAT_FOREVER);
        return;
    }
    plat_store64(tp_asleep(w, me->rank), 1);
    if (plat_load64(w->bell) == e) plat_poller_wait(w->poller, ev, 8, PLAT_FOREVER);
    plat_store64(tp_asleep(w, me->rank), 0);
}
