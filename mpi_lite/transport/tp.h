/*
 * tp.h -- the HPEPPM transport's layout (paper 002, section 2.1).
 *
 * One shared region, "mpi_lite.world", for the whole MPI_COMM_WORLD:
 *
 *   header      the two world barriers' counters
 *   bells       one word per rank: every change a rank must notice (a slot
 *               filled for it; a slot of its own freed while it waits for
 *               space) adds 1 to its bell, and a waiting rank polls its bell
 *               alone; beside it `asleep`, for a rank that also has stream
 *               peers and so sleeps in its poller (stream.c)
 *   pairs       N x N buffer heads, buff_ij for sender i, receiver j: a queue
 *               of `slots` slots guarded by two P/V counters, `tail` (slots
 *               filled, V by i, P by j) and `head` (slots freed, V by j, P by
 *               i), and `want` (by i: the head it sleeps for, queue full).
 *               One producer and one consumer each: loads and stores do.
 *   slots       N x N x slots x slot_bytes
 *
 * Pairs that share no memory use a stream instead (stream.c): the same
 * slots travel as frames, and the region's pair buffers of such a pair stay
 * unused. The region is then one node's: "mpi_lite.node<k>".
 *
 * A slot holds records, SCTP-like chunks: a 40-byte header and up to the
 * slot's rest of payload. A message longer than a slot is fragmented into a
 * first record and continuation records in the following slots; records of
 * several small messages queued together are bundled into one slot.
 */
#ifndef MPI_LITE_TP_H
#define MPI_LITE_TP_H

#include "../ml.h"

enum tp_rtype {
    TP_EAGER = 1, /* envelope + first fragment of an eager message */
    TP_RTS,       /* rendezvous: envelope only, the sender waits for a CTS */
    TP_CTS,       /* rendezvous: the receiver matched, send the data */
    TP_DATA,      /* rendezvous: first fragment of the data, addressed to rreq */
    TP_CONT,      /* next fragment of the message in flight on this pair */
};

struct tp_rec {
    uint32_t type, chunk; /* chunk: payload bytes following this header */
    int32_t ctx, tag;
    uint64_t total;      /* the message's length */
    uint64_t sreq, rreq; /* the sender's / receiver's request (rendezvous) */
};
#define TP_SLOT_HDR 8 /* a slot starts with its used bytes (uint64_t) */

/* One queued transfer to a peer. */
struct tp_sop {
    struct tp_rec rec; /* the first record's header */
    const char *data;
    size_t len, off;
    bool started;
    struct ml_request *req; /* completed when all bytes are in slots (eager, data) */
    struct tp_sop *next;
};

struct tp_tx { /* me -> peer */
    struct tp_sop *q, *qtail;
    uint64_t t;    /* slots filled so far (the next one to open) */
    uint64_t h;    /* head as last loaded: reloaded only when t - h is full */
    uint64_t want; /* the last value stored in the pair's want */
    bool full;     /* the last open_slot found no space */
    bool open;
    size_t fill;
    char *compose;           /* the open slot, or stage for a peer on another node */
    char *stage;             /* composing area for inter-node slots (the DMA's source, a frame) */
    size_t out_off, out_len; /* stream: the frame in stage not yet sent */
};

struct tp_rx {                /* peer -> me */
    uint64_t h;               /* slots consumed */
    uint64_t rung;            /* the last want the sender's bell was rung for */
    struct ml_request *cur_r; /* the message whose continuations follow */
    struct ml_unexp *cur_u;
    char *sbuf; /* stream: bytes received, frames not yet read */
    size_t sfill;
};

struct tp_world {
    char *base;
    size_t region;
    int n;
    size_t slot_bytes;
    unsigned slots;
    uint64_t *bar;
    uint64_t *bell; /* mine */
    struct tp_tx *tx;
    struct tp_rx *rx;
    plat_dma dma;
    int *node;        /* per rank: its node (tp_node) */
    int local;        /* ranks that map this rank's region (the counter barrier's count) */
    bool *by_stream;  /* per rank: the pair shares no memory, it uses a stream */
    int nstream;      /* how many */
    bool spread;      /* the ranks are on more than one platform node */
    plat_stream **st; /* per rank: its stream */
    unsigned *pbits;  /* per rank: the poller bits registered for it */
    plat_poller *poller;
    bool mixed;      /* peers in shared memory and on streams: sleeps in its poller */
    bool finalizing; /* in MPI_Finalize's meeting: a peer's end of stream is its exit */
    bool *gone;      /* per rank: its stream ended so */
};

uint64_t *tp_bell(struct tp_world *w, int rank);
/* Beside the bell, on its line: 1 while a mixed rank sleeps in its poller. */
uint64_t *tp_asleep(struct tp_world *w, int rank);
/* Ring peer's bell (a peer in this region); a mixed peer asleep in its
 * poller also gets a byte on the pair's wake stream. */
void tp_ring(struct ml_rank *me, int peer);
uint64_t *tp_tail(struct tp_world *w, int from, int to);
uint64_t *tp_head(struct tp_world *w, int from, int to);
uint64_t *tp_want(struct tp_world *w, int from, int to);
char *tp_slot(struct tp_world *w, int from, int to, uint64_t i);
bool tp_same_node(struct ml_rank *me, int peer);

void tp_tx_progress(struct ml_rank *me);
bool tp_tx_want_space(struct ml_rank *me);
void tp_rx_progress(struct ml_rank *me);
void tp_queue(struct tp_world *w, int peer, struct tp_sop *s);
/* Read one slot's records (from the pair buffer or a stream frame). */
void tp_read_slot(struct ml_rank *me, int src, const char *slot, size_t used);

/* stream.c */
void tp_stream_init(struct ml_rank *me);
void tp_stream_fini(struct ml_rank *me);
bool tp_stream_flush(struct ml_rank *me, int peer);
void tp_stream_publish(struct ml_rank *me, int peer, size_t used);
void tp_stream_rx(struct ml_rank *me);
void tp_stream_wait(struct ml_rank *me, uint64_t bell_seen);
void tp_stream_poke(struct ml_rank *me, int peer);

#endif
