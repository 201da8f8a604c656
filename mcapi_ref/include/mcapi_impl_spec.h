/*
 * mcapi_impl_spec.h -- what MCAPI 2.0 leaves to the implementation: ipcsim's.
 *
 * Types of the handles, the implementation limits, initialisation
 * parameters. Every limit below is exact: the (N+1)-th element fails with
 * the status named beside it, the N-th succeeds (docs/mcapi.md).
 */
#ifndef MCAPI_IMPL_SPEC_H
#define MCAPI_IMPL_SPEC_H

#include "mca.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Handles: 32-bit scalars, comparable with ==. ---------------------- */

/* An endpoint: its slot in the domain's endpoint table and a generation
 * that changes when the slot is reused, so a deleted endpoint's handle is
 * recognised as such (MCAPI_ERR_ENDP_INVALID). 0 is never a valid handle. */
typedef mca_uint32_t mcapi_endpoint_t;
typedef mca_uint32_t mcapi_pktchan_recv_hndl_t;
typedef mca_uint32_t mcapi_pktchan_send_hndl_t;
typedef mca_uint32_t mcapi_sclchan_recv_hndl_t;
typedef mca_uint32_t mcapi_sclchan_send_hndl_t;
/* A request: an entry of the calling node's request table (plus a
 * generation). The caller owns the storage of the handle. */
typedef mca_uint32_t mcapi_request_t;
typedef mcapi_request_t mca_request_t; /* the reference implementation's name */

/* ---- Ranges of identifiers (specification names). --------------------- */

#define MCAPI_MAX_DOMAIN 3 /* domains 0..3 */
#define MCAPI_MAX_NODE 63  /* nodes 0..63 in each domain */
#define MCAPI_MIN_PORT 0   /* ports MCAPI_MIN_PORT..MCAPI_MAX_PORT */
#define MCAPI_MAX_PORT 1023
#define MCAPI_NUM_RESERVED_PORTS 0 /* no port is reserved */
#define MCAPI_MAX_MESSAGE_SIZE MCAPI_MAX_MSG_SIZE
#define MCAPI_MAX_PACKET_SIZE MCAPI_MAX_PKT_SIZE
#define MCAPI_MIN_PRORITY MCAPI_MAX_PRIORITY /* (sic) the lowest priority */

/* ---- Implementation limits (exact). ------------------------------------ */

#define MCA_MAX_DOMAINS (MCAPI_MAX_DOMAIN + 1)
#define MCA_MAX_NODES (MCAPI_MAX_NODE + 1)
/* Largest message: larger sends fail with MCAPI_ERR_MSG_SIZE. */
#define MCAPI_MAX_MSG_SIZE 1024
/* Largest packet: larger sends fail with MCAPI_ERR_PKT_SIZE. */
#define MCAPI_MAX_PKT_SIZE 65536
/* Endpoints one node may own at once: the next create fails with
 * MCAPI_ERR_MEM_LIMIT. */
#define MCAPI_MAX_ENDPOINTS 32
/* Messages, packets or scalars queued at one receiving endpoint: with the
 * queue full a blocking send waits (its timeout gives MCAPI_TIMEOUT), a
 * non-blocking send stays MCAPI_PENDING, and with the endpoint attribute
 * MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT the send fails with MCAPI_ERR_MEM_LIMIT. */
#define MCAPI_MAX_QUEUE_ELEMENTS 64
/* Priorities 0 (highest, MCAPI_MAX_PRORITY) .. MCAPI_MAX_PRIORITY (lowest);
 * a larger value fails with MCAPI_ERR_PRIORITY. */
#define MCAPI_MAX_PRIORITY 7
/* Outstanding requests of one node: the next _i call fails with
 * MCAPI_ERR_REQUEST_LIMIT. */
#define MCAPI_MAX_REQUESTS 128
/* Channels (packet and scalar) connected at once in a domain: the next
 * connect fails with MCAPI_ERR_MEM_LIMIT. */
#define MCAPI_MAX_CHANNELS 64
/* Outstanding endpoint gets of one endpoint: the next get fails with
 * MCAPI_ERR_ENDP_GET_LIMIT. */
#define MCAPI_MAX_ENDPOINT_GETS 255
/* Buffers of a domain, shared by all its endpoints. A message takes a
 * message buffer from the moment it is sent until it is received. With none
 * free a send behaves as with a full queue. */
#define MCAPI_MAX_MSG_BUFFERS 512
/* The domain's packet pool (shared-memory transport): a packet takes a place
 * and its size rounded up to MCAPI_PKT_POOL_GRANULE bytes of the pool's
 * memory from the moment it is sent until it is released
 * (mcapi_pktchan_release). A send that finds no free place, or no free run
 * of memory long enough, behaves as with a full queue. Both are set per
 * domain by mcapi_param_t.pkt_buffers and .pkt_pool_bytes; these are the
 * defaults: 2048 packets (exact), 4 MiB (64 packets of MCAPI_MAX_PKT_SIZE,
 * 2048 of 2 KiB). docs/mcapi.md, "Limits". */
#define MCAPI_MAX_PKT_BUFFERS 2048
#define MCAPI_PKT_POOL_BYTES (4u << 20)
#define MCAPI_PKT_POOL_GRANULE 64
/* The largest values mcapi_param_t may give (larger: MCAPI_ERR_PARAMETER). */
#define MCAPI_PKT_BUFFERS_LIMIT 65536
#define MCAPI_PKT_POOL_BYTES_LIMIT (1u << 30)
/* The reference implementation's name: all the domain's buffers (with the
 * default packet pool). */
#define MCAPI_MAX_BUFFERS (MCAPI_MAX_MSG_BUFFERS + MCAPI_MAX_PKT_BUFFERS)

/* Timeouts (mcapi_timeout_t, MCAPI_ENDP_ATTR_TIMEOUT) count milliseconds. */
#define MCAPI_TIMEOUT_UNIT_NS 1000000u

/* ---- Node attributes (mcapi_node_init_attributes / _set_attribute). ---- */

typedef struct {
    mca_uint_t type;    /* MCAPI_NODE_ATTR_TYPE; MCAPI_NODE_ATTR_TYPE_REGULAR */
    mca_uint32_t magic; /* set by mcapi_node_init_attributes */
} mcapi_node_attributes_t;

/* ---- Initialisation parameters (mcapi_initialize's init_parameters). ----
 *
 * NULL (or zero fields) gives the defaults: the domain's nodes are threads
 * of this program sharing one region of memory. A block is read only if it
 * was prepared, by mcapi_param_init or with MCAPI_PARAM_INITIALIZER:
 *     mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = "/dom"};
 * Any other block (the reference implementation's mcapi_param_t is an int
 * it ignores, so ported programs pass one uninitialised) gives the
 * defaults, as NULL does (docs/mcapi.md, porting). */
#define MCAPI_PARAM_MAGIC 0x50524d31u /* "PRM1" */
#define MCAPI_PARAM_INITIALIZER .magic = MCAPI_PARAM_MAGIC

/* Where the transport sends what is addressed to a node. */
enum mcapi_route_kind {
    MCAPI_ROUTE_SHM,   /* a regular node: shared-memory queues (the default) */
    MCAPI_ROUTE_ACCEL, /* a virtual node: a fixed-function block (plat_accel) */
    MCAPI_ROUTE_DMA    /* a regular node of the DMA transport, on core `core` */
};

/* One line of the static mapping: moving a node means editing its line. */
struct mcapi_route {
    mca_domain_t domain;
    mca_node_t node;
    enum mcapi_route_kind kind;
    const char *device; /* MCAPI_ROUTE_ACCEL: the accelerator's name */
    int core;           /* MCAPI_ROUTE_DMA: the core the node runs on */
};

/* How the nodes of a domain reach each other (mcapi_param_t.transport). */
enum mcapi_transport_kind {
    /* Queues and buffers in a shared region; dynamic endpoints (default). */
    MCAPI_TRANSPORT_SHM,
    /* FUNCAPI's way: DMA straight into the receiving endpoint's channel
     * (plat_dma_send to plat_rx channels), a static mapping of nodes to cores
     * given by MCAPI_ROUTE_DMA routes, no shared memory (docs/mcapi.md). */
    MCAPI_TRANSPORT_DMA,
    /* XMCAPI: nodes in other processes or on other hosts, over TCP, listed in
     * a topology file (docs/xmcapi.md). Only in libxmcapi.a, which also picks
     * it for a node that names no transport when a topology file lists it. */
    MCAPI_TRANSPORT_XMCAPI
};

/* XMCAPI: how the user thread hands its sends to the node's communicator
 * thread (mcapi_param_t.xm_notify; docs/xmcapi.md compares them). */
enum mcapi_xm_notify {
    MCAPI_XM_DIRECT, /* the user thread writes the socket itself when it can (default) */
    MCAPI_XM_WAKE,   /* it wakes the communicator's poller, which writes */
    MCAPI_XM_PIPE    /* the paper's: one byte down a pipe, the communicator writes */
};

typedef struct {
    mca_uint32_t magic; /* MCAPI_PARAM_MAGIC: this block was prepared */
    /* The shared region holding the domain's endpoints, queues and buffers.
     * NULL: a region private to this program (threads). A name starting
     * with '/' is shared by the processes of the host that use it (every
     * node of a domain must give the same name). The environment variable
     * MCAPI_SHM, when set, supplies this name for programs that pass NULL. */
    const char *shm_name;
    /* Extra routes: virtual nodes, and with MCAPI_TRANSPORT_DMA the core of
     * every node of the domain. */
    const struct mcapi_route *routes;
    unsigned nroutes;
    enum mcapi_transport_kind transport;
    /* MCAPI_TRANSPORT_DMA: buffers of a packet channel's receive end, which
     * are also the packets a sender may have on their way (credits), 1 to 16;
     * 0: 4. FUNCAPI's receive end is one HIBI PE DMA channel: 1. */
    unsigned pkt_depth;
    /* MCAPI_TRANSPORT_DMA: 1, a channel end's open completes only when the
     * other end has opened too (FUNCAPI's two-way handshake, paper 000
     * Table 3); 0, once the channel is connected, as on the other
     * transports (one thread may open both ends; a send waits for the
     * receive end's HELLO, which brings its buffers and credits). */
    unsigned dma_handshake;
    /* MCAPI_TRANSPORT_XMCAPI: the topology file; NULL or "": the environment
     * variable XMCAPI_TOPOLOGY. Text with a line break is the file's text
     * itself (a program that carries its topology). */
    const char *topology;
    enum mcapi_xm_notify xm_notify;
    /* XMCAPI: the core the node's communicator thread runs on, plus one;
     * 0: the node's own core (the paper's SC host). Another core of the same
     * host gives the paper's DC host. */
    unsigned xm_comm_core;
    /* MCAPI_TRANSPORT_SHM: the domain's packet pool. pkt_buffers: packets
     * it holds at once (queued, or received and not released), 1 to
     * MCAPI_PKT_BUFFERS_LIMIT; 0: MCAPI_MAX_PKT_BUFFERS. pkt_pool_bytes: the
     * memory they share, MCAPI_MAX_PKT_SIZE to MCAPI_PKT_POOL_BYTES_LIMIT
     * (rounded up to MCAPI_PKT_POOL_GRANULE); 0: MCAPI_PKT_POOL_BYTES. Out
     * of range: MCAPI_ERR_PARAMETER. The node that creates the domain's
     * region decides; every other node must give the same values (0 and the
     * default are the same), else its mcapi_initialize fails with
     * MCAPI_ERR_PARAMETER. */
    unsigned pkt_buffers;
    size_t pkt_pool_bytes;
} mcapi_param_t;

/* Every field its default (zero), and the block marked as prepared. */
void mcapi_param_init(mcapi_param_t *param);

/* Implementation information returned through mcapi_info_t. */
#define MCAPI_ORG_ID 0x1C5        /* ipcsim (unassigned; informative only) */
#define MCAPI_IMPL_VERSION 0x1000 /* 1.000 */

#ifdef __cplusplus
}
#endif
#endif
