/*
 * ml.h -- mpi_lite's internals: one rank's state and what the files share.
 *
 * All of a rank's state hangs off its core slot (PLAT_SLOT_MPI): in
 * simulation every rank runs on one host thread, so nothing lives in globals.
 */
#ifndef MPI_LITE_ML_H
#define MPI_LITE_ML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipcsim/plat.h"
#include "mpi.h"
#include "mpi_lite.h"

#define ML_MAX_COMMS 64
#define ML_MAX_TYPES 128
#define ML_NBASIC 27 /* basic datatype handles are 1 .. ML_NBASIC-1 */

/* ---- transport (transport/tp.h has the layout) ---- */
struct tp_world;
struct tp_rx;
struct tp_tx;

/* ---- datatypes (type.c) ---- */
struct ml_block {
    size_t off, len;
};
struct ml_type {
    bool used, committed;
    size_t size, extent;  /* packed bytes of one element; its span in memory */
    int base;             /* the basic type it is made of (reductions), or 0 if mixed */
    bool contig;          /* one block at offset 0 of length size */
    struct ml_block *blk; /* derived types: the blocks of one element */
    size_t nblk;
};

/* ---- communicators (comm.c) ---- */
struct ml_comm {
    bool used;
    int ctx;  /* context id: point-to-point uses ctx, collectives ctx + 1 */
    int rank; /* the caller's rank in it */
    int size;
    int *world; /* comm rank -> world rank */
    MPI_Errhandler eh;
};

/* ---- requests (req.c) ---- */
enum ml_rkind { ML_SEND, ML_RECV };
struct ml_request {
    enum ml_rkind kind;
    bool done;
    bool cts;      /* a rendezvous send: the receiver's CTS arrived */
    MPI_Status st; /* filled at completion */
    /* receive: where the bytes go (packed; unpacked at completion) */
    void *user; /* the user's buffer */
    int count;
    MPI_Datatype type;
    char *pack;      /* bytes land here; == user for contiguous types */
    size_t cap, got; /* capacity, bytes stored (<= cap) */
    size_t seen;     /* bytes of the message arrived (> got when truncated) */
    size_t total;    /* the message's length */
    int src_world;   /* receive: source filter (world rank) or MPI_ANY_SOURCE */
    int tag, ctx;
    struct ml_request *next; /* posted queue */
    /* send */
    const char *sdata; /* packed bytes to send */
    char *sown;        /* a packed copy this request owns, freed at completion */
};

/* An unexpected message (match.c): arrived before its receive was posted. */
struct ml_unexp {
    int src_world, tag, ctx;
    size_t total, got;
    char *data;             /* eager: the bytes so far */
    bool rts;               /* rendezvous: only the envelope; data comes after CTS */
    uint64_t sreq;          /* the sender's request (rendezvous) */
    struct ml_request *req; /* a receive that matched it while it was still arriving */
    struct ml_unexp *next;
};

struct ml_rank {
    bool initialized, finalized;
    struct mpix_lite_params par;
    int rank, size; /* in MPI_COMM_WORLD */
    int next_ctx;
    struct tp_world *tp; /* the transport's state of this rank */
    struct ml_comm comms[ML_MAX_COMMS];
    struct ml_type types[ML_MAX_TYPES];
    struct ml_request *posted, *posted_tail;
    struct ml_unexp *unexp, *unexp_tail;
    uint64_t call_cycles, rec_cycles; /* core.costs.mpi_call, mpi_record */
    struct mpix_lite_stats stats;
};

struct ml_rank *ml_me(void); /* the calling rank, NULL before set_params/Init */
/* The calling rank after MPI_Init and before MPI_Finalize, or fatal naming call. */
struct ml_rank *ml_rank_or_die(const char *call);

/* ---- errors (err.c) ---- */
/* Report error class code of call on comm: fatal by default (message naming
 * call, the printf-formatted argument and the class, then plat_abort with
 * ML_FATAL_EXIT), returns code when the comm's handler is MPI_ERRORS_RETURN. */
#define ML_FATAL_EXIT 1
int ml_err(MPI_Comm comm, int code, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ml_fatal(const char *call, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
const char *ml_class_name(int code);

/* ---- argument checks (comm.c, type.c) ---- */
struct ml_comm *ml_comm(struct ml_rank *me, MPI_Comm c);     /* NULL if invalid */
struct ml_type *ml_type(struct ml_rank *me, MPI_Datatype t); /* NULL if invalid or uncommitted */
/* Checks shared by the point-to-point calls: 0 or the error's return value. */
int ml_check_buf(MPI_Comm c, const char *call, int count, MPI_Datatype t, struct ml_type **ty);

/* ---- datatypes (type.c) ---- */
void ml_types_init(struct ml_rank *me);
void ml_types_fini(struct ml_rank *me);
void ml_pack(const struct ml_type *t, const void *user, int count, char *out);
void ml_unpack(const struct ml_type *t, const char *in, size_t bytes, void *user);

/* ---- reductions (op.c) ---- */
/* inout[i] = in[i] op inout[i] for n elements of basic type base: 0 or MPI_ERR_OP. */
int ml_op_apply(MPI_Op op, int base, const void *in, void *inout, size_t n);
bool ml_op_valid(MPI_Op op);

/* ---- matching (match.c) ---- */
bool ml_match(const struct ml_request *r, int src_world, int tag, int ctx);
/* An arriving envelope: the posted receive it matches (removed), or NULL. */
struct ml_request *ml_match_posted(struct ml_rank *me, int src_world, int tag, int ctx);
/* A new receive: the unexpected message it matches (removed), or NULL. */
struct ml_unexp *ml_match_unexp(struct ml_rank *me, const struct ml_request *r);
struct ml_unexp *ml_probe_unexp(struct ml_rank *me, int src_world, int tag, int ctx);
void ml_post(struct ml_rank *me, struct ml_request *r);
void ml_unexp_add(struct ml_rank *me, struct ml_unexp *u);
/* A complete unexpected eager message delivered to r: copies, completes. */
void ml_unexp_deliver(struct ml_unexp *u, struct ml_request *r);

/* ---- requests (req.c) ---- */
struct ml_request *ml_req_new(enum ml_rkind k);
void ml_req_complete_recv(struct ml_request *r);
void ml_req_free(struct ml_request *r);

/* ---- point to point core (p2p.c), used by the collectives ---- */
/* Start a send / receive of packed bytes on context ctx (world ranks). */
int ml_isend(struct ml_rank *me, const void *buf, int count, struct ml_type *ty, MPI_Datatype t,
             int dst_world, int tag, int ctx, bool sync, MPI_Request *out);
int ml_irecv(struct ml_rank *me, void *buf, int count, MPI_Datatype t, struct ml_type *ty,
             int src_world, int tag, int ctx, MPI_Request *out);
/* Wait for r, fill st (may be NULL), free r; returns the status's error. */
int ml_wait(struct ml_rank *me, MPI_Request *r, MPI_Status *st);

/* ---- transport (transport/) ---- */
int tp_init(struct ml_rank *me);
void tp_fini(struct ml_rank *me);
/* Queue a message to dst_world: eager or rendezvous by size (sync forces rendezvous). */
void tp_send(struct ml_rank *me, struct ml_request *r, int dst_world, int tag, int ctx, size_t len,
             bool sync);
/* A posted receive matched an unexpected rendezvous envelope: send the CTS. */
void tp_cts(struct ml_rank *me, struct ml_unexp *u, struct ml_request *r);
/* Move what can move: send queues, incoming slots; publish open slots. */
void tp_progress(struct ml_rank *me);
/* Wait until done(arg) holds, progressing and sleeping on the rank's bell. */
void tp_wait(struct ml_rank *me, bool (*done)(void *), void *arg);
/* The barrier of MPI_Init / MPI_Finalize (counter index 0 or 1) among the
 * ranks that share this rank's region (all of them unless some need streams). */
void tp_world_barrier(struct ml_rank *me, int which);
/* Whether some pair of this rank uses a stream (the barrier above is then
 * not world-wide). */
bool tp_streams(struct ml_rank *me);
/* Nothing queued or unsent towards any stream peer. */
bool tp_sent_all(struct ml_rank *me);
/* The node of a world rank: node_ranks's grouping, else the platform's. */
int tp_node(struct ml_rank *me, int rank);

#endif
