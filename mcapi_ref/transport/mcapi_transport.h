/*
 * transport/mcapi_transport.h -- what the top layer asks of a transport.
 *
 * The top layer (API, argument checks, requests) reaches a transport only
 * through struct mcapi_transport, as OpenMCAPI's generic layer reaches its
 * transports. The shared-memory transport (mcapi_shm_transport) is the
 * default; the DMA transport (mcapi_dma_transport) is chosen with
 * mcapi_param_t.transport; another one (XMCAPI over TCP) can plug in under
 * the same top layer by filling the same table.
 *
 * Work that may have to wait is a struct tp_op. The top layer fills in the
 * fields its kind uses, asks check() once, then step() until step() stops
 * returning MCAPI_PENDING; abort() gives back what a pending op holds (on
 * cancel, timeout or finalize). A blocking call keeps its op on the stack,
 * a request keeps it in the node's request table. step() either finishes
 * the op (MCAPI_SUCCESS or an error, results written through the op's out
 * pointers) or arranges a wake-up of the node's event when it may proceed
 * and returns MCAPI_PENDING; the top layer then sleeps with epoch() and
 * sleep().
 */
#ifndef MCAPI_TRANSPORT_H
#define MCAPI_TRANSPORT_H

#include "mcapi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_node; /* a transport's state of one node */

enum tp_kind {
    TP_GET,      /* endpoint_get: dom, node, port -> *out_h */
    TP_MSG_SEND, /* from h to `to`: src, len, prio */
    TP_MSG_RECV, /* on h: dst, len -> size */
    TP_PKT_SEND, /* on send handle h: src, len */
    TP_PKT_RECV, /* on receive handle h -> *out_buf, size */
    TP_SCL_SEND, /* on send handle h: value, len (the width) */
    TP_SCL_RECV, /* on receive handle h, len (the width) -> value */
    TP_CONNECT,  /* send endpoint h, receive endpoint `to`, chan */
    TP_OPEN,     /* endpoint h, chan, dir -> *out_h */
    TP_CLOSE,    /* channel handle h, chan, dir */
    TP_NKINDS
};

enum tp_chan { TP_PKT, TP_SCL };
enum tp_dir { TP_SEND, TP_RECV };

struct tp_op {
    uint8_t kind, chan, dir;
    uint8_t state; /* the transport's progress marks; 0 when new */
    /* The transport's: nonzero while the op, though pending, no longer holds
     * back later ops on its endpoint or channel (a transfer already handed
     * to an engine that completes in order; top/reqs.c). */
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
    uint32_t held;           /* the transport's: a buffer the op holds (index + 1) */
    size_t size;             /* result: bytes moved */
    mcapi_timeout_t timeout; /* check(): MCAPI_ENDP_ATTR_TIMEOUT of the op's endpoint */
};

/* What a transport does with an op of one kind (step, below). */
typedef mcapi_status_t tp_step_fn(struct tp_node *tp, struct tp_op *op);

/* The one dispatch on an op's kind: steps[op->kind], a transport's table
 * of its functions per enum tp_kind. Every transport's step() ends in it. */
static inline mcapi_status_t tp_step(tp_step_fn *const steps[TP_NKINDS], struct tp_node *tp,
                                     struct tp_op *op)
{
    return steps[op->kind](tp, op);
}

/* For check() of an op on a channel handle: whether the end the handle
 * names, of type chan (enum tp_chan) and direction dir (enum tp_dir), is
 * the end op needs. A close says which is wrong (MCAPI_ERR_CHAN_TYPE, then
 * MCAPI_ERR_CHAN_DIRECTION); sends, receives and available have neither in
 * their lists of statuses: MCAPI_ERR_CHAN_INVALID (check.c). */
mcapi_status_t tp_chan_fits(const struct tp_op *op, unsigned chan, unsigned dir);

struct mcapi_transport {
    const char *name;
    /* The mcapi_param_t.transport value that asks for this transport. */
    enum mcapi_transport_kind kind;
    /* Optional (NULL: never). Whether the transport takes a node whose
     * parameters name no transport (NULL, or MCAPI_TRANSPORT_SHM, the zero
     * value) instead of the default; asked before any kind is matched. */
    bool (*claims)(const mcapi_param_t *param, mcapi_domain_t dom, mcapi_node_t node);
    /* Join domain dom as node; fills *tp and info. */
    mcapi_status_t (*attach)(struct tp_node **tp, mcapi_domain_t dom, mcapi_node_t node,
                             const mcapi_param_t *param, mcapi_info_t *info);
    /* Leave: the node's endpoints are deleted, what it holds given back. */
    void (*detach)(struct tp_node *tp);
    /* The node's wake-up: take epoch() before trying, then sleep(). */
    uint32_t (*epoch)(struct tp_node *tp);
    void (*sleep)(struct tp_node *tp, uint32_t epoch, uint64_t timeout_ns);
    /* Handles and ownership of a new op; fills op->timeout. */
    mcapi_status_t (*check)(struct tp_node *tp, struct tp_op *op);
    mcapi_status_t (*step)(struct tp_node *tp, struct tp_op *op);
    void (*abort)(struct tp_node *tp, struct tp_op *op);
    /* Calls that never wait. */
    mcapi_status_t (*endp_create)(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep);
    mcapi_status_t (*endp_delete)(struct tp_node *tp, mcapi_endpoint_t ep);
    mcapi_status_t (*endp_release)(struct tp_node *tp, mcapi_endpoint_t ep);
    mcapi_status_t (*endp_get_attr)(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                                    void *attr, size_t size);
    mcapi_status_t (*endp_set_attr)(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                                    const void *attr, size_t size);
    mcapi_status_t (*node_get_attr)(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                                    mcapi_uint_t num, void *attr, size_t size);
    /* What a receive could take now: kind TP_MSG_RECV, TP_PKT_RECV or
     * TP_SCL_RECV on endpoint or handle h. */
    mcapi_status_t (*available)(struct tp_node *tp, enum tp_kind kind, mcapi_uint32_t h,
                                mcapi_uint_t *n);
    /* Give back (or, test: only look at) a packet buffer. */
    mcapi_status_t (*pkt_release)(struct tp_node *tp, const void *buf, bool test);
};

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

/* The transports a library holds, NULL-terminated, for top/select.c. Exactly
 * one archive member defines it: transport/transports.c in libmcapi.a,
 * xmcapi/xm_transports.c in libxmcapi.a (docs/mcapi.md, "Choosing a
 * transport"). */
extern const struct mcapi_transport *const mcapi_transports[];

extern const struct mcapi_transport mcapi_shm_transport;
/* DMA into receive channels, a static mapping of nodes to cores, no shared
 * memory (FUNCAPI's way; transport/dma/dma_tp.h). */
extern const struct mcapi_transport mcapi_dma_transport;

#endif
