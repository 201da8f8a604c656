/*
 * mcapi_transport.h -- the transport interface: what mcapi_ref's top layer
 * asks of a transport, and what it offers one.
 *
 * The top layer (mcapi_ref/top/: the API, argument checks, node state,
 * requests) reaches a transport only through a struct mcapi_transport, a
 * table of functions, as OpenMCAPI's generic layer reaches its transports.
 * Three fill it: shared memory (mcapi_shm_transport, transport/shm/, the
 * default), DMA (mcapi_dma_transport, transport/dma/) and, in libxmcapi.a
 * only, XMCAPI over TCP (xmcapi/). A transport is found by this header's
 * name (the Makefile's -Imcapi_ref/transport for mcapi_ref and xmcapi/).
 *
 * Who calls. Every member is called by the top layer, on the node's own
 * thread (the one that called mcapi_initialize), one call at a time: a
 * node is one thread. A transport with threads of its own (XMCAPI's
 * communicator) synchronises them with that thread itself. The top layer
 * has checked the arguments the API defines before it calls (NULL
 * pointers, sizes and ranges: domain, node, port, priority, message size);
 * the transport checks handles, ownership and everything that depends on
 * its state, and returns the status the caller gets.
 *
 * Ops. Work that may have to wait -- a get, send, receive, connect, open or
 * close -- is a struct tp_op, with its kind (enum tp_kind). The top layer
 * fills in the fields its kind uses and zeroes the rest, calls check()
 * once, then step() until step() returns anything but MCAPI_PENDING (the
 * op is then done: its status is the call's), or calls abort() instead to
 * give up a pending op. A blocking call keeps its op on its stack; an _i
 * call's op is copied into the node's request table after check() and
 * stays there, at one address, until it is done or aborted. A transport
 * may keep a pointer to a pending op between steps (the DMA transport
 * does, for a receive posted in advance) but none once it is done or
 * aborted. Pending ops are stepped oldest first, on every test, wait and
 * later send or receive of the node (top/reqs.c), and an op that waits
 * holds back the later ones on its endpoint or channel unless it sets
 * `started`.
 *
 * Waking. A step that returns MCAPI_PENDING must see to it that sleep()
 * returns once the op may have become able to proceed: by a notification
 * of the node's event (its epoch moves), or by sleep() itself polling what
 * the node waits for. A round of waiting is epoch(), the steps of every
 * pending op, then sleep() with that epoch, so a transport may note during
 * the steps what to watch (the DMA transport: a channel or a transfer).
 * sleep() returns at once if the epoch has moved since, else when it moves
 * or timeout_ns passes. Returning early is allowed (the top layer steps
 * again), sleeping past a change is not. No other waiting is allowed: in
 * simulation only plat.h calls advance time.
 *
 * Ownership. The caller's buffers are the caller's: a send's src may be
 * reused once its op is done, a receive's dst is written until then. A
 * packet a receive hands out (*out_buf) is the transport's until the
 * application gives it back through pkt_release(). What a pending op holds
 * (a buffer, a queue place, a transfer slot: op->held, op->state) is given
 * back by abort(), or by the step that finishes it.
 *
 * Costs. The top layer charges "mcapi_call" and "mcapi_init"; a transport
 * charges "mcapi_transport" once per message, packet or scalar queued by a
 * sender and once per one taken by a receiver (plat_work_cycles;
 * docs/mcapi.md, "Cost in simulation").
 */
#ifndef MCAPI_TRANSPORT_H
#define MCAPI_TRANSPORT_H

#include "mcapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_node; /* a transport's state of one node: each transport defines it */

/* ---- Ops ------------------------------------------------------------------ */

/* The kinds of op, with the fields of struct tp_op each reads (and, after
 * "->", writes when it succeeds). */
enum tp_kind {
    TP_GET,      /* endpoint_get: dom, node, port -> *out_h */
    TP_MSG_SEND, /* from endpoint h to endpoint `to`: src, len, prio -> size */
    TP_MSG_RECV, /* on endpoint h: dst, len -> size (MCAPI_ERR_MSG_TRUNCATED: len bytes) */
    TP_PKT_SEND, /* on send handle h: src, len -> size */
    TP_PKT_RECV, /* on receive handle h -> *out_buf, size */
    TP_SCL_SEND, /* on send handle h: value, len (the width) -> size */
    TP_SCL_RECV, /* on receive handle h, len (the width) -> value, size */
    TP_CONNECT,  /* send endpoint h, receive endpoint `to`, chan */
    TP_OPEN,     /* endpoint h, chan, dir -> *out_h (the channel handle) */
    TP_CLOSE,    /* channel handle h, chan, dir */
    TP_NKINDS
};

enum tp_chan { TP_PKT, TP_SCL };
enum tp_dir { TP_SEND, TP_RECV };

struct tp_op {
    uint8_t kind, chan, dir; /* enum tp_kind, tp_chan, tp_dir */
    uint8_t state;           /* the transport's progress marks; 0 when new */
    /* The transport's: nonzero while the op, though pending, no longer holds
     * back later ops on its endpoint or channel (a transfer already handed
     * to an engine that completes in order; top/reqs.c). A blocking call
     * whose op has started does not time out: the engine reads the
     * caller's buffer until the transfer ends. */
    uint8_t started;
    mcapi_uint32_t h, to;
    mcapi_priority_t prio;
    mcapi_domain_t dom;
    mcapi_node_t node;
    mcapi_port_t port;
    const void *src;
    void *dst;
    void **out_buf;
    mcapi_uint32_t *out_h;
    size_t len;
    uint64_t value;
    uint32_t held; /* the transport's: what the op holds (e.g. a buffer index + 1) */
    size_t size;   /* result: bytes moved */
    /* check(): MCAPI_ENDP_ATTR_TIMEOUT of the op's endpoint; for TP_GET the
     * top layer's: the blocking get's timeout, MCAPI_TIMEOUT_INFINITE for
     * get_i (XMCAPI asks a remote node for an answer at once when it is
     * MCAPI_TIMEOUT_IMMEDIATE). */
    mcapi_timeout_t timeout;
};

/* What a transport does with an op of one kind (step, below). */
typedef mcapi_status_t tp_step_fn(struct tp_node *tp, struct tp_op *op);

/* The one dispatch on an op's kind: steps[op->kind], a transport's table
 * of its functions per enum tp_kind. Every transport's step() ends in it,
 * after what it does before any step (a lock, a look at its engine). */
static inline mcapi_status_t tp_step(tp_step_fn *const steps[TP_NKINDS], struct tp_node *tp,
                                     struct tp_op *op)
{
    return steps[op->kind](tp, op);
}

/* ---- The table ------------------------------------------------------------ */

struct mcapi_transport {
    /* A short name, for people reading a log or a debugger. */
    const char *name;
    /* The mcapi_param_t.transport value that asks for this transport. */
    enum mcapi_transport_kind kind;
    /* Optional (NULL: never). Whether the transport takes a node whose
     * parameters name no transport (NULL, or MCAPI_TRANSPORT_SHM, the zero
     * value) instead of the default. Asked by mcapi_initialize
     * (top/select.c), in table order, before any kind is matched; must not
     * keep anything (attach comes next, or another transport's). */
    bool (*claims)(const mcapi_param_t *param, mcapi_domain_t dom, mcapi_node_t node);

    /* mcapi_initialize: join domain dom as node, with the caller's
     * parameters (param may be NULL). On MCAPI_SUCCESS *tp is the node's
     * state, which every later call gets, and info is filled; on an error
     * nothing is left behind (the top layer frees its own state). */
    mcapi_status_t (*attach)(struct tp_node **tp, mcapi_domain_t dom, mcapi_node_t node,
                             const mcapi_param_t *param, mcapi_info_t *info);
    /* mcapi_finalize, after every pending op of the node was aborted: leave
     * the domain. The node's channel ends are closed, its endpoints deleted,
     * the packets it holds given back, tp freed. Cannot fail. */
    void (*detach)(struct tp_node *tp);

    /* The node's wake-up (see Waking above): epoch() before stepping, then
     * sleep(epoch, timeout_ns); timeout_ns PLAT_FOREVER: no timeout. */
    uint32_t (*epoch)(struct tp_node *tp);
    void (*sleep)(struct tp_node *tp, uint32_t epoch, uint64_t timeout_ns);

    /* Once per new op, before its first step: whether its handles are
     * valid and the caller's where they must be (MCAPI_SUCCESS, or the
     * status the call returns, taking no request), and op->timeout, the
     * timeout of the op's endpoint, for blocking calls. Keeps no pointer
     * to op (an _i call's op is copied afterwards). */
    mcapi_status_t (*check)(struct tp_node *tp, struct tp_op *op);
    /* One try of a checked op: MCAPI_PENDING (waking arranged, see above),
     * or the op's final status with its results written (the fields after
     * "->" in enum tp_kind). Ends in tp_step(). */
    mcapi_status_t (*step)(struct tp_node *tp, struct tp_op *op);
    /* Give up a pending op (mcapi_cancel, a blocking call's timeout,
     * finalize): give back what it holds; it is never stepped again. A
     * send already handed to hardware may still complete. */
    void (*abort)(struct tp_node *tp, struct tp_op *op);

    /* Calls that are no ops: each returns the status the API call gives.
     * They do not wait for the node's ops; XMCAPI's delete and release wait
     * (through plat.h) for other nodes' answers (docs/xmcapi.md). */
    /* port: MCAPI_PORT_ANY or a valid port. */
    mcapi_status_t (*endp_create)(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep);
    mcapi_status_t (*endp_delete)(struct tp_node *tp, mcapi_endpoint_t ep);
    mcapi_status_t (*endp_release)(struct tp_node *tp, mcapi_endpoint_t ep);
    /* attr is not NULL; num and size are unchecked (tp_attr_check). */
    mcapi_status_t (*endp_get_attr)(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                                    void *attr, size_t size);
    mcapi_status_t (*endp_set_attr)(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                                    const void *attr, size_t size);
    /* dom and node are in range; attr is not NULL. */
    mcapi_status_t (*node_get_attr)(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                                    mcapi_uint_t num, void *attr, size_t size);
    /* What a receive could take now: kind TP_MSG_RECV on endpoint h, or
     * TP_PKT_RECV or TP_SCL_RECV on receive handle h. */
    mcapi_status_t (*available)(struct tp_node *tp, enum tp_kind kind, mcapi_uint32_t h,
                                mcapi_uint_t *n);
    /* mcapi_pktchan_release (test false) or _release_test (true: only
     * whether buf could be given back now); buf is not NULL. */
    mcapi_status_t (*pkt_release)(struct tp_node *tp, const void *buf, bool test);
};

/* ---- What the top layer offers a transport (top/api_node.c) -------------- */

/* For a transport's own additions to the API (xmcapi_stats): the calling
 * thread's node's state if the node uses transport t, else NULL with
 * MCAPI_ERR_NODE_NOTINIT (the thread is no node) or MCAPI_ERR_PARAMETER
 * (its node uses another transport). Charges nothing. */
struct tp_node *top_self(const struct mcapi_transport *t, mcapi_status_t *status);

/* ---- What every transport shares (attr_def.c, check.c) -------------------- */

/* For check() of an op on a channel handle: whether the end the handle
 * names, of type chan (enum tp_chan) and direction dir (enum tp_dir), is
 * the end op needs. A close says which is wrong (MCAPI_ERR_CHAN_TYPE, then
 * MCAPI_ERR_CHAN_DIRECTION); sends, receives and available have neither in
 * their lists of statuses: MCAPI_ERR_CHAN_INVALID. */
mcapi_status_t tp_chan_fits(const struct tp_op *op, unsigned chan, unsigned dir);

/* The endpoint attributes their owner may set, as every transport keeps
 * them (MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, _MEMORY_TYPE, _PRIORITY, _TIMEOUT). */
struct tp_attrs {
    mcapi_timeout_t timeout;
    uint32_t memtype, priority;
    int32_t max_payload;
};
/* Every endpoint attribute at one instant: a transport fills one, then
 * tp_attr_put copies out the one asked for (attr_def.c). */
struct tp_attr_vals {
    mcapi_endp_attr_type_t type;
    mcapi_endp_attr_get_count_t gets;
    mcapi_endp_attr_get_source_t source;
    mcapi_endp_attr_max_payload_size_t max_payload;
    mcapi_endp_attr_buffer_type_t buffer_type;
    mcapi_endp_attr_memory_type_t memtype;
    mcapi_endp_attr_num_priorities_t nprio;
    mcapi_endp_attr_priority_t prio;
    mcapi_endp_attr_num_send_buffers_t send_bufs;
    mcapi_endp_attr_num_recv_buffers_t recv_bufs;
    mcapi_endp_attr_status_t status;
    mcapi_endp_attr_timeout_t timeout;
};
/* Attribute num (< MCAPI_ENDP_ATTR_END) of v into attr, tp_attr_size bytes. */
void tp_attr_put(const struct tp_attr_vals *v, mcapi_uint_t num, void *attr);
/* The settable ones of v from a. */
void tp_attr_from(struct tp_attr_vals *v, const struct tp_attrs *a);

/* Store the value at attr of attribute num, which tp_attr_settable accepted
 * (MCAPI_ENDP_ATTR_BUFFER_TYPE stays FIFO). */
void tp_attr_store(struct tp_attrs *a, mcapi_uint_t num, const void *attr);
/* MCAPI_ENDP_ATTR_ENDP_STATUS of an endpoint from its channel end's state
 * (chan and dir matter only when connected). */
mcapi_uint_t tp_attr_status(bool opening, bool open, bool connected, unsigned chan, unsigned dir);

/* What every transport's attributes share (attr_def.c): an endpoint
 * attribute is read or written whole, with exactly the size of its type in
 * mcapi.h. MCAPI_SUCCESS, MCAPI_ERR_ATTR_SIZE, or what an unknown number
 * gets (tp_attr_unknown). */
mcapi_status_t tp_attr_check(mcapi_uint_t num, size_t size);
size_t tp_attr_size(mcapi_uint_t num); /* num < MCAPI_ENDP_ATTR_END */
/* MCAPI_ERR_ATTR_NOTSUPPORTED in the organisations' ranges (none of which
 * this implementation has), else MCAPI_ERR_ATTR_NUM. */
mcapi_status_t tp_attr_unknown(mcapi_uint_t num);
/* Whether an endpoint's owner may set attribute num to the value at attr:
 * tp_attr_check, then MCAPI_ERR_ATTR_READONLY or MCAPI_ERR_ATTR_VALUE. */
mcapi_status_t tp_attr_settable(mcapi_uint_t num, const void *attr, size_t size);

/* ---- The transports ------------------------------------------------------ */

/* The transports a library holds, NULL-terminated, in the order
 * top/select.c asks their claims. Exactly one archive member defines it:
 * transport/transports.c in libmcapi.a, xmcapi/xm_transports.c in
 * libxmcapi.a (docs/mcapi.md, "Choosing a transport"). */
extern const struct mcapi_transport *const mcapi_transports[];

/* Queues and buffers in one shared region per domain (transport/shm/). */
extern const struct mcapi_transport mcapi_shm_transport;
/* DMA into receive channels, a static mapping of nodes to cores, no shared
 * memory (FUNCAPI's way; transport/dma/). */
extern const struct mcapi_transport mcapi_dma_transport;

#endif
