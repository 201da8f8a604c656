/*
 * transport/dma/dma_tp.h -- the DMA transport (FUNCAPI's way): internals.
 *
 * No shared memory: every node knows the domain from its static mapping
 * (mcapi_param_t.routes, one MCAPI_ROUTE_DMA line per node naming its core)
 * and moves data only with DMA into receive channels of the destination
 * core (drivers/rx.h). Endpoint <node, port> IS an address: core of the
 * node, channel of the port (dma_map.c). A node's state is its own (this
 * struct, allocated at initialise); nothing is shared with other nodes, so
 * nothing is locked.
 *
 * Channels of a node: its block of the core's receive channels, first the
 * control channel (handshakes, credits, closes: struct dt_ctl), then one
 * per port. What is posted on a port's channel decides where the next
 * transfer lands:
 *   DP_USER  the buffer of a pending mcapi_msg_recv (zero copy),
 *   DP_INT   an internal message buffer (the receive copies out later),
 *   DP_SET   a buffer of the receive end of a packet or scalar channel.
 * Every post rings the node's doorbell bit when it fills.
 *
 * Waiting: steps that return MCAPI_PENDING name what they wait for (a
 * channel, a DMA slot) in the watch list. sleep() polls that one thing
 * (plat_rx_wait, plat_dma_wait: no interrupt, as FUNCAPI's msg_recv polls
 * the DMA status), or waits for the doorbell when there are several or
 * none. `prog` counts arrivals and completions: epoch() returns it, sleep()
 * returns at once if it moved.
 */
#ifndef MCAPI_TRANSPORT_DMA_TP_H
#define MCAPI_TRANSPORT_DMA_TP_H

#include "mcapi.h"
#include "mcapi_transport.h"

#include "../../drivers/rx.h"

#include <stdbool.h>
#include <stdint.h>

#define DT_PORTS 64         /* ports of a node at most (more channels stay unused) */
#define DT_MSG_BUFS 16      /* internal message buffers of a node */
#define DT_RESERVE 1        /* of which one is kept for a receive cancelled as it filled */
#define DT_SLOTS 4          /* transfers of a node on its DMA engine at once */
#define DT_OUTBOX 32        /* control messages waiting for a slot */
#define DT_SETS 8           /* buffer sets of channel receive ends of a node */
#define DT_PKT_DEPTH 4      /* default buffers (credits) of a packet channel's receive end */
#define DT_SCL_DEPTH 16     /* of a scalar channel's */
#define DT_DEPTH_MAX 16     /* the larger of the two */
#define DT_PKT_DEFAULT 4096 /* default MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE */
#define DT_WATCH 8          /* things one pass may wait for */
/* While a node polls one channel or one transfer it looks at everything
 * else this often: the delay a peer stalled on one of its other channels
 * can see (not a hardware time: the software's service interval). */
#define DT_SLICE_NS 50000u

enum dt_route { DR_NONE, DR_DMA, DR_ACCEL };

/* The static mapping of the domain (dma_map.c), the same on every node. */
struct dt_map {
    uint8_t kind[MCA_MAX_NODES]; /* enum dt_route */
    int16_t core[MCA_MAX_NODES];
    uint16_t base[MCA_MAX_NODES]; /* its control channel; port p: base + 1 + p */
    uint16_t nports[MCA_MAX_NODES];
    uint32_t bell[MCA_MAX_NODES]; /* its doorbell bit on its core */
    plat_accel *accel[MCA_MAX_NODES];
    unsigned nodes; /* routed nodes */
};

/* A control message, DMAed into the destination node's control channel. */
enum dt_ctl_type { CTL_CONNECT = 1, CTL_HELLO, CTL_CREDIT, CTL_CLOSE };
struct dt_ctl {
    uint8_t type;
    uint8_t chan; /* TP_PKT or TP_SCL */
    uint8_t dir;  /* of the end at the destination (CONNECT), of the sender's (others) */
    uint8_t pad;
    uint16_t port;      /* the endpoint at the destination */
    uint16_t peer_node; /* the sender (CONNECT: the other end, maybe a third node's) */
    uint16_t peer_port; /* the sender's endpoint (CONNECT: the other end's) */
    uint16_t pad2;
    uint32_t arg;  /* HELLO: buffer size; CREDIT: count; CLOSE: transfers started */
    uint32_t arg2; /* HELLO: credits */
    uint32_t pad3;
};

/* A transfer on the node's engine: the record and, for control messages
 * and scalars, the bytes it reads (the engine reads them until it is
 * done, so they cannot live on a caller's stack). */
enum dt_slot_state { SL_FREE, SL_OP, SL_ORPHAN };
struct dt_slot {
    plat_dma d;
    uint32_t seq; /* issue order: the engine completes in this order */
    uint8_t state;
    _Alignas(16) unsigned char stage[sizeof(struct dt_ctl)];
};

/* What is posted on a port's channel. */
enum dt_post { DP_NONE, DP_INT, DP_USER, DP_SET };

/* One end of a channel, as its owner knows it. */
enum dt_cs { CS_NONE, CS_CONN, CS_OPEN };
struct dt_conn {
    uint8_t state;       /* CS_* */
    uint8_t type, dir;   /* TP_PKT/TP_SCL, TP_SEND/TP_RECV */
    uint8_t hello_sent;  /* our open announced */
    uint8_t hello_in;    /* the peer's open announced */
    uint8_t peer_closed; /* the peer closed its end */
    uint8_t close_sent;  /* send end: our CLOSE (with `sent`) went out */
    uint8_t opening;     /* an open request is under way */
    uint16_t peer_node, peer_port;
    uint32_t peer_cap; /* send end: the receiver's buffer size */
    uint32_t credits;  /* send end: transfers it may still start */
    uint32_t sent;     /* send end: transfers started */
    uint16_t chgen;    /* generation of channel handles */
    uint32_t chandle;  /* the handle the last open gave (0: none) */
    int8_t set;        /* receive end: its buffer set, -1 */
};

struct dt_endp {
    uint8_t live;
    /* Deleted: its channel keeps an internal buffer posted and whatever
     * lands there is dropped, so that a transfer a sender started to the
     * deleted endpoint does not wait in its engine for the next one. */
    uint8_t drain;
    uint8_t post;       /* enum dt_post */
    uint8_t post_idx;   /* DP_INT: the internal buffer; DP_SET: the set */
    struct tp_op *user; /* DP_USER: the receive whose buffer is posted */
    /* Messages that landed in internal buffers, oldest first. */
    uint8_t q[DT_MSG_BUFS];
    uint16_t qlen[DT_MSG_BUFS];
    uint8_t qhead, qn;
    /* Attributes. */
    struct tp_attrs a; /* settable attributes */
    uint32_t gets;
    struct dt_conn c;
};

/* The buffers of a channel's receive end; one is posted at a time. */
enum dt_buf { B_FREE, B_POSTED, B_FULL, B_HELD };
struct dt_set {
    uint8_t used, port, nbuf;
    uint8_t open; /* its end is connected; 0: closed (draining, or buffers still held) */
    uint32_t cap;
    unsigned char *mem;
    uint8_t st[DT_DEPTH_MAX];
    uint32_t len[DT_DEPTH_MAX];
    uint32_t dirty[DT_DEPTH_MAX]; /* bytes of the buffer that may be nonzero */
    uint8_t fifo[DT_DEPTH_MAX];   /* full buffers in arrival order */
    uint8_t fhead, fn;
    uint32_t got;    /* transfers arrived in all */
    uint32_t expect; /* transfers the sender started in all (its CLOSE); UINT32_MAX: unknown */
    uint32_t freed;  /* given back since the last CREDIT */
};

enum dt_watch_kind { W_CHAN, W_SLOT };

/* tp_op.state of a message receive. */
#define ST_POSTED 0x40u /* its buffer is posted on the endpoint's channel */
#define ST_FILLED 0x80u /* and a transfer filled it: op->value holds the length */

struct tp_node {
    mcapi_domain_t dom;
    mcapi_node_t node;
    int core;
    unsigned ctl;  /* the control channel */
    uint32_t bell; /* our doorbell bit */
    uint64_t xfer_cycles;
    unsigned pkt_depth; /* mcapi_param_t.pkt_depth */
    bool handshake;     /* mcapi_param_t.dma_handshake */
    struct dt_map map;
    unsigned nports;
    struct dt_endp ep[DT_PORTS];
    uint64_t refill; /* ports whose channel wants an internal buffer posted */
    unsigned nconn;  /* ends connected: control traffic to expect */
    /* Internal message buffers (local memory). */
    unsigned char *msgmem;
    uint8_t free_bufs[DT_MSG_BUFS];
    unsigned nfree;
    /* The control channel's buffer. */
    struct dt_ctl *ctlbuf;
    uint8_t ctl_posted;
    /* The DMA engine. */
    struct dt_slot *slot; /* DT_SLOTS, local memory */
    /* The TX buffer (local memory), for sends from memory the engine cannot
     * read; busy until the transfer with seq tx_seq is done. */
    unsigned char *tx;
    size_t tx_cap;
    uint32_t tx_seq;
    uint8_t tx_busy;
    unsigned orphans; /* slots nobody waits for (control, aborted sends) */
    uint32_t seq;
    struct {
        struct dt_ctl m;
        uint16_t to;
    } outbox[DT_OUTBOX];
    unsigned obhead, obn;
    struct dt_set set[DT_SETS];
    /* Waiting. */
    uint32_t prog;
    struct {
        uint8_t kind;
        uint16_t idx;
    } watch[DT_WATCH];
    unsigned nwatch;
};

extern const struct mcapi_transport mcapi_dma_transport;

/* dma_map.c: routes, channels, handles. */
mcapi_status_t dt_map_build(struct dt_map *m, mcapi_domain_t dom, const mcapi_param_t *p);
uint32_t dt_ep_handle(mcapi_domain_t dom, unsigned node, unsigned port);
/* The node and port an endpoint handle of the caller's domain names. */
bool dt_ep_decode(const struct tp_node *tp, uint32_t h, unsigned *node, unsigned *port);
/* The caller's own live endpoint h, or NULL. */
struct dt_endp *dt_own(struct tp_node *tp, uint32_t h);
/* MCAPI_SUCCESS (own, live), MCAPI_ERR_ENDP_REMOTE (another node's),
 * MCAPI_ERR_ENDP_INVALID. */
mcapi_status_t dt_own_check(struct tp_node *tp, uint32_t h);
uint32_t dt_chan_handle(const struct tp_node *tp, unsigned chan, unsigned dir, unsigned port,
                        unsigned gen);
/* The port of the caller's channel handle h (any kind, open or closed since), or -1. */
int dt_chan_port(const struct tp_node *tp, uint32_t h);
static inline unsigned dt_port_chan(const struct tp_node *tp, unsigned port)
{
    return tp->ctl + 1 + port;
}

/* dma_wait.c: the engine, the control channel, arrivals, waiting. */
void dt_watch(struct tp_node *tp, unsigned kind, unsigned idx);
int dt_slot_get(struct tp_node *tp);
bool dt_slot_done(struct tp_node *tp, int s); /* frees it when done */
void dt_slot_orphan(struct tp_node *tp, int s);
/* The bytes a send of n bytes at src gives the engine: src itself if the
 * engine reaches it, else the TX buffer with a copy of them. NULL: wait
 * (the TX buffer's transfer is watched) or, with *st set, no memory. */
const void *dt_tx_stage(struct tp_node *tp, const void *src, size_t n, mcapi_status_t *st);
/* Slot s now carries what dt_tx_stage staged at p. */
void dt_tx_issued(struct tp_node *tp, int s, const void *p);
int dt_slot_oldest(const struct tp_node *tp);
void dt_reap(struct tp_node *tp);
void dt_ctl_send(struct tp_node *tp, unsigned to, const struct dt_ctl *m);
/* Before an op's own work: reap, flush the outbox, read the control channel. */
void dt_service(struct tp_node *tp);
/* Post internal buffers where the channels want them. */
void dt_refill(struct tp_node *tp);
/* A filled buffer taken from channel ch: file it. */
void dt_filled(struct tp_node *tp, unsigned ch, size_t len);
/* Take what has arrived on ch, if anything: true if it had. */
bool dt_poll_chan(struct tp_node *tp, unsigned ch);
void dt_scan(struct tp_node *tp);
uint32_t dt_epoch(struct tp_node *tp);
void dt_sleep(struct tp_node *tp, uint32_t epoch, uint64_t timeout_ns);

/* dma_msg.c: internal buffers and messages. */
int dt_buf_get(struct tp_node *tp, bool reserve);
void dt_buf_put(struct tp_node *tp, unsigned b);
unsigned char *dt_buf(struct tp_node *tp, unsigned b);
void dt_q_push(struct dt_endp *e, unsigned b, size_t len);
/* Withdraw what is posted on port's channel; a buffer filled meanwhile is
 * filed (dt_filled). */
void dt_unpost(struct tp_node *tp, unsigned port);
void dt_msg_drop(struct tp_node *tp, struct dt_endp *e);
mcapi_status_t dt_msg_send(struct tp_node *tp, struct tp_op *op);
mcapi_status_t dt_msg_recv(struct tp_node *tp, struct tp_op *op);
void dt_msg_recv_abort(struct tp_node *tp, struct tp_op *op);

/* dma_endp.c: endpoints and attributes. */
mcapi_status_t dt_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep);
mcapi_status_t dt_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep);
mcapi_status_t dt_endp_release(struct tp_node *tp, mcapi_endpoint_t ep);
mcapi_status_t dt_endp_get(struct tp_node *tp, struct tp_op *op);
void dt_endp_remove(struct tp_node *tp, unsigned port);
mcapi_status_t dt_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size);
mcapi_status_t dt_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size);
mcapi_status_t dt_attr_node(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size);

/* dma_chan.c: connect, open, close and the control messages about them. */
mcapi_status_t dt_chan_connect(struct tp_node *tp, struct tp_op *op);
mcapi_status_t dt_chan_open(struct tp_node *tp, struct tp_op *op);
void dt_chan_open_abort(struct tp_node *tp, struct tp_op *op);
mcapi_status_t dt_chan_close(struct tp_node *tp, struct tp_op *op);
/* Close port's end whatever its state (close, delete, finalise). */
void dt_chan_end(struct tp_node *tp, unsigned port);
void dt_ctl_handle(struct tp_node *tp, const struct dt_ctl *m, unsigned from);

/* dma_pkt.c: packet and scalar transfers, buffer sets. */
int dt_set_new(struct tp_node *tp, unsigned port, unsigned nbuf, uint32_t cap);
void dt_set_filled(struct tp_node *tp, struct dt_set *s, size_t len);
void dt_set_post(struct tp_node *tp, struct dt_set *s);
void dt_set_close(struct tp_node *tp, struct dt_set *s);
/* A closed receive end of port whose transfers are still coming (its
 * sender has not said how many it started, or not all have arrived). */
struct dt_set *dt_set_draining(struct tp_node *tp, unsigned port);
void dt_set_free_all(struct tp_node *tp);
mcapi_status_t dt_chan_use(struct tp_node *tp, struct tp_op *op, struct dt_endp **e);
mcapi_status_t dt_pkt_send(struct tp_node *tp, struct tp_op *op);
mcapi_status_t dt_pkt_recv(struct tp_node *tp, struct tp_op *op);
mcapi_status_t dt_pkt_release(struct tp_node *tp, const void *buf, bool test);
mcapi_status_t dt_chan_available(struct tp_node *tp, struct tp_op *op, mcapi_uint_t *n);

/* dma_node.c */
mcapi_status_t dt_node_attach(struct tp_node **out, mcapi_domain_t dom, mcapi_node_t node,
                              const mcapi_param_t *param, mcapi_info_t *info);
void dt_node_detach(struct tp_node *tp);

#endif
