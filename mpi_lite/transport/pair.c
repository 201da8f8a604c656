/* pair.c -- the N x N pair buffers: the shared region, P/V counters, waits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp.h"

#define LINE 64 /* counters of different writers on different cache lines */

static size_t hdr_bytes(void)
{
    return 2 * LINE;
}
static size_t bells_bytes(int n)
{
    return (size_t)n * LINE;
}
/* A pair's two lines: `tail` (written by the sender on every slot) and
 * `head` + `want` (head written by the receiver on every slot, want by the
 * sender only when it waits for space). The sender keeps a copy of head, so
 * the second line stays with the receiver while the queue is not full. */
static size_t pairs_bytes(int n)
{
    return (size_t)n * (size_t)n * 2 * LINE;
}

uint64_t *tp_bell(struct tp_world *w, int rank)
{
    return (uint64_t *)(w->base + hdr_bytes() + (size_t)rank * LINE);
}

uint64_t *tp_asleep(struct tp_world *w, int rank)
{
    return tp_bell(w, rank) + 1;
}

/* The bell's add and the asleep load against the sleeper's asleep store and
 * bell load (stream.c tp_stream_wait), all sequentially consistent: either
 * the sleeper sees the ring, or the ringer sees it asleep and wakes it. A
 * rank rings only peers of its region, which have its stream peers: they
 * are mixed when it is. */
void tp_ring(struct ml_rank *me, int peer)
{
    struct tp_world *w = me->tp;
    plat_fetch_add64(tp_bell(w, peer), 1);
    if (!w->mixed || peer == me->rank) return;
    uint64_t one = 1;
    if (plat_load64(tp_asleep(w, peer)) == 1 && plat_cas64(tp_asleep(w, peer), &one, 0))
        tp_stream_poke(me, peer);
}

static char *pair(struct tp_world *w, int from, int to)
{
    return w->base + hdr_bytes() + bells_bytes(w->n) +
           ((size_t)from * (size_t)w->n + (size_t)to) * 2 * LINE;
}

uint64_t *tp_tail(struct tp_world *w, int from, int to)
{
    return (uint64_t *)pair(w, from, to);
}
uint64_t *tp_head(struct tp_world *w, int from, int to)
{
    return (uint64_t *)(pair(w, from, to) + LINE);
}
uint64_t *tp_want(struct tp_world *w, int from, int to)
{
    return tp_head(w, from, to) + 1;
}

char *tp_slot(struct tp_world *w, int from, int to, uint64_t i)
{
    size_t p = (size_t)from * (size_t)w->n + (size_t)to;
    return w->base + hdr_bytes() + bells_bytes(w->n) + pairs_bytes(w->n) +
           (p * w->slots + (size_t)(i % w->slots)) * w->slot_bytes;
}

int tp_node(struct ml_rank *me, int rank)
{
    return me->tp->node[rank];
}

bool tp_same_node(struct ml_rank *me, int peer)
{
    return me->tp->node[me->rank] == me->tp->node[peer];
}

/* Whether ranks a and b talk over a stream: on different nodes, and asked
 * to (inter STREAM) or on different platform nodes (no memory in common). */
static bool stream_pair(const struct ml_rank *me, const struct tp_world *w, int a, int b)
{
    return w->node[a] != w->node[b] &&
           (me->par.inter == MPIX_LITE_INTER_STREAM || plat_core_node(a) != plat_core_node(b));
}

/* Nodes, and which pairs need a stream: natively, ranks on other hosts
 * (plat_core_node) share no memory at all. */
static void place(struct ml_rank *me, struct tp_world *w)
{
    int mine = plat_core_node(me->rank);
    unsigned nr = me->par.node_ranks;
    for (int r = 0; r < w->n; r++) w->node[r] = nr ? r / (int)nr : plat_core_node(r);
    bool shm_peers = false;
    for (int r = 0; r < w->n; r++) {
        int pn = plat_core_node(r);
        if (pn != mine && w->node[r] == w->node[me->rank])
            ml_fatal("MPI_Init", MPI_ERR_OTHER,
                     "rank %d is on node %d of the platform and rank %d on node %d: node_ranks %u "
                     "puts them on one node, but they share no memory",
                     me->rank, mine, r, pn, nr);
        if (pn != mine && me->par.inter == MPIX_LITE_INTER_DMA)
            ml_fatal("MPI_Init", MPI_ERR_OTHER,
                     "rank %d is on node %d of the platform and rank %d on node %d: no DMA reaches "
                     "it (inter DMA); use MPIX_LITE_INTER_STREAM or AUTO",
                     me->rank, mine, r, pn);
        w->by_stream[r] = stream_pair(me, w, me->rank, r);
        w->nstream += w->by_stream[r];
        if (pn == mine) w->local++;
        if (r != me->rank && !w->by_stream[r]) shm_peers = true;
        if (pn != plat_core_node(0)) w->spread = true;
    }
    w->mixed = shm_peers && w->nstream;
}

/* Paper 002's HPEPPM keeps a pair buffer with its receiver: the sender's
 * DMA writes it over RapidIO into the receiver's board memory, and the
 * receiver polls its bell and tails and reads its slots locally. So each
 * rank places its receive side with itself: its bell line and, for every
 * sender i, the lines and the slots of the pair (i -> me). On a platform
 * with one memory this is only recorded. */
static void home_receive_side(struct ml_rank *me, struct tp_world *w)
{
    int r = me->rank;
    size_t pair_slots = (size_t)w->slots * w->slot_bytes;
    const void *at = tp_bell(w, r);
    size_t n = LINE;
    int st = plat_shared_home(at, n, r);
    for (int i = 0; i < w->n && st == PLAT_OK; i++) {
        at = pair(w, i, r), n = 2 * LINE;
        st = plat_shared_home(at, n, r);
        if (st != PLAT_OK) break;
        at = tp_slot(w, i, r, 0), n = pair_slots;
        st = plat_shared_home(at, n, r);
    }
    if (st != PLAT_OK)
        ml_fatal("MPI_Init", MPI_ERR_OTHER,
                 "rank %d: plat_shared_home(region + %zu, %zu, %d) of its receive side: %s", r,
                 (size_t)((const char *)at - w->base), n, r, plat_strerror(st));
}

static void free_world(struct tp_world *w)
{
    if (w->base) plat_shared_unmap(w->base);
    free(w->tx);
    free(w->rx);
    free(w->node);
    free(w->by_stream);
    free(w);
}

int tp_init(struct ml_rank *me)
{
    struct tp_world *w = calloc(1, sizeof *w);
    if (!w) return MPI_ERR_NO_MEM;
    w->n = me->size;
    w->slot_bytes = me->par.slot_bytes;
    w->slots = me->par.slots;
    w->region = hdr_bytes() + bells_bytes(w->n) + pairs_bytes(w->n) +
                (size_t)w->n * (size_t)w->n * w->slots * w->slot_bytes;
    w->tx = calloc((size_t)w->n, sizeof *w->tx);
    w->rx = calloc((size_t)w->n, sizeof *w->rx);
    w->node = calloc((size_t)w->n, sizeof *w->node);
    w->by_stream = calloc((size_t)w->n, sizeof *w->by_stream);
    if (!w->tx || !w->rx || !w->node || !w->by_stream) {
        free_world(w);
        return MPI_ERR_NO_MEM;
    }
    me->tp = w;
    place(me, w);
    /* Every rank of a node maps the same name: the first creates it zeroed.
     * A size that differs (other parameters on another rank) fails here. */
    char name[64] = "mpi_lite.world";
    if (w->spread) snprintf(name, sizeof name, "mpi_lite.node%d", plat_core_node(me->rank));
    int st = 0;
    w->base = plat_shared_map(name, w->region, NULL, &st);
    if (!w->base) {
        me->tp = NULL;
        free_world(w);
        return st == PLAT_EINVAL ? MPI_ERR_ARG : MPI_ERR_NO_MEM;
    }
    w->bar = (uint64_t *)w->base;
    w->bell = tp_bell(w, me->rank);
    home_receive_side(me, w); /* before MPI_Init's barrier lets the peers write */
    tp_stream_init(me);
    return MPI_SUCCESS;
}

void tp_fini(struct ml_rank *me)
{
    struct tp_world *w = me->tp;
    tp_stream_fini(me);
    for (int p = 0; p < w->n; p++) {
        while (w->tx[p].q) {
            struct tp_sop *s = w->tx[p].q;
            w->tx[p].q = s->next;
            free(s);
        }
        free(w->tx[p].stage);
    }
    free_world(w);
    me->tp = NULL;
}

/* The ranks that map this rank's region meet at its counter `which`. */
void tp_world_barrier(struct ml_rank *me, int which)
{
    uint64_t *c = &me->tp->bar[which * (LINE / 8)];
    uint64_t v = plat_fetch_add64(c, 1) + 1;
    while (v < (uint64_t)me->tp->local) {
        plat_poll64(c, v, PLAT_FOREVER);
        v = plat_load64(c);
    }
}

void tp_finalizing(struct ml_rank *me)
{
    me->tp->finalizing = true;
}

bool tp_streams(struct ml_rank *me)
{
    return me->tp->nstream > 0;
}

void tp_progress(struct ml_rank *me)
{
    tp_rx_progress(me); /* first: frees slots and may queue CTSs */
    if (me->tp->nstream) tp_stream_rx(me);
    tp_tx_progress(me);
}

void tp_wait(struct ml_rank *me, bool (*done)(void *), void *arg)
{
    for (;;) {
        uint64_t e = plat_load64(me->tp->bell);
        tp_progress(me);
        if (done(arg)) return;
        if (tp_tx_want_space(me)) continue; /* space came while asking for it */
        if (!me->tp->nstream) {
            plat_poll64(me->tp->bell, e, PLAT_FOREVER);
        } else if (plat_load64(me->tp->bell) == e) {
            tp_stream_wait(me, e);
        }
    }
}
