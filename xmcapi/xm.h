/*
 * xmcapi/xm.h -- the XMCAPI transport's internals (paper 001).
 *
 * One node = one user thread (the MCAPI node) + one communicator thread,
 * as in xmcapi/ip. The communicator owns the sockets' receive side: it
 * accepts, reads, decodes (wire.h) and files what arrives into the node's
 * endpoints, then wakes the user thread through the node's event. What the
 * user thread sends is appended, framed, to the output buffer of the
 * connection to the peer; how the bytes then reach the socket is the
 * notification mode (enum mcapi_xm_notify):
 *   PIPE    the paper's: one byte down a pipe tells the communicator,
 *           which writes (the communicator polls the pipe's read end);
 *   WAKE    the same through the poller's own wake-up (an eventfd);
 *   DIRECT  the user thread writes what it can itself and leaves only
 *           the rest to the communicator (the default: no hand-over).
 * Everything below is guarded by the node's mutex `mu`, taken by both
 * threads; nothing else is shared.
 *
 * Connections are one-way for data: a node sends its frames only on the
 * connection it opened to the peer (lazily, on the first send, by the
 * communicator), and receives on the ones it accepted. So what one node
 * sends another arrives in order, and a peer's STOP and RESUME for one
 * flow arrive in the order they were sent.
 *
 * Message credits: a sender may have XM_MSG_CREDITS messages to one remote
 * endpoint that the receiver has not credited back (xm_peer.sent); a send
 * past that waits (or fails with FAIL_ON_MEM_LIMIT), so a queue fed by one
 * node never holds more than MCAPI_MAX_QUEUE_ELEMENTS. The receiver credits
 * taken messages back on the qp field of its next message to the sender
 * (XM_QP_CREDIT: free on a ping-pong), or in an XW_CREDIT frame once half
 * the credits are owed or the sender has none left (xm_queue.c).
 *
 * Flow control (the paper's stop ACK): a receive queue (an endpoint's
 * messages, a channel's packets or scalars) holds up to `depth` items.
 * What arrives beyond that is kept all the same (it was on the wire
 * already; nothing is dropped), and the sender is told XW_ACK|STOP. The
 * sender then holds back what it sends to that endpoint until the queue
 * has drained to depth/2 and XW_ACK|RESUME comes. What a receiver keeps
 * beyond depth is bounded by what one sender can have on the way when its
 * STOP arrives: its output buffer (XM_OUT_MAX) and the sockets' buffers.
 */
#ifndef XMCAPI_XM_H
#define XMCAPI_XM_H

#include "mcapi.h"
#include "topo.h"
#include "wire.h"

#include "mcapi_transport.h"
#include "ipcsim/plat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XM_EPS MCAPI_MAX_ENDPOINTS  /* endpoints of a node */
#define XM_MSG_DEPTH 64             /* messages an endpoint queues before STOP */
#define XM_PKT_DEPTH 16             /* packets a channel's receive end queues before STOP */
#define XM_SCL_DEPTH 256            /* scalars, likewise */
#define XM_MSG_CREDITS XM_MSG_DEPTH /* messages a sender may have at one remote endpoint */
/* An XW_MSG's qp: credits for messages to its sender's `port` (bit 31 set;
 * count in bits 0-7, port in 8-17) and the generation of the endpoint it is
 * sent to (bits 18-28). */
#define XM_QP_CREDIT(port, n) (1u << 31 | (uint32_t)(port) << 8 | (uint32_t)(n))
#define XM_QP_MSG(gen, credit) ((uint32_t)(gen) << 18 | (credit))
#define XM_QP_GEN(qp) ((unsigned)((qp) >> 18) & 0x7ffu)
#define XM_QP_HAS_CREDIT(qp) (((qp) >> 31) != 0)
#define XM_QP_CREDIT_PORT(qp) ((unsigned)((qp) >> 8) & 0x3ffu)
#define XM_QP_CREDIT_N(qp) ((unsigned)(qp)&0xffu)
#define XM_OUT_MAX (1u << 20)     /* bytes a connection's output buffer holds before sends wait */
#define XM_RBUF (64u << 10)       /* read chunk; a frame split across reads (not a packet) fits */
#define XM_BULK (16u << 10)       /* a packet this large is followed by a header-only read */
#define XM_SPARE 8                /* freed buffers of large packets a node keeps for the next */
#define XM_CONNECT_NS 2000000000u /* a connect gives up after this */
#define XM_LINGER_NS                                                                               \
    1000000000u /* finalise waits this long at most for a peer to take what is queued */
#define XM_PEERS (MCA_MAX_DOMAINS * MCA_MAX_NODES)
#define XM_PENDING 16          /* connects and gets of a node waiting for their answers */
#define XM_GETS (2 * XM_PEERS) /* peers' gets waiting for an endpoint of ours */
#define XM_RETRY_NS 10000000u  /* a get retries a peer that is not up this often */

/* Endpoint and channel handles: kind (3) | domain (2) | node (6) | generation
 * (11) | port (10). An endpoint is named by where it is, so a remote one
 * needs no table here; its generation (1..XM_GEN_MAX, a new one per create,
 * xm_endp.c) tells a re-created endpoint from the one before. A channel
 * end's generation counts its endpoint's opens. */
static inline uint32_t xm_h(unsigned kind, unsigned dom, unsigned node, unsigned gen, unsigned port)
{
    return (uint32_t)kind << 29 | (uint32_t)(dom & 3u) << 27 | (uint32_t)(node & 63u) << 21 |
           (uint32_t)(gen & 0x7ffu) << 10 | (uint32_t)(port & 0x3ffu);
}
#define XM_H_KIND(h) ((unsigned)((h) >> 29))
#define XM_H_DOM(h) ((unsigned)((h) >> 27) & 3u)
#define XM_H_NODE(h) ((unsigned)((h) >> 21) & 63u)
#define XM_H_GEN(h) ((unsigned)((h) >> 10) & 0x7ffu)
#define XM_H_PORT(h) ((unsigned)(h)&0x3ffu)
#define XM_GEN_MAX 0x7ffu
/* A channel handle's type and direction (its kind is 2 + chan * 2 + dir). */
#define XM_H_CHAN(h) ((XM_H_KIND(h) - 2u) / 2u)
#define XM_H_DIR(h) ((XM_H_KIND(h) - 2u) % 2u)
#define XM_PEER(dom, node) ((unsigned)(dom)*MCA_MAX_NODES + (unsigned)(node))

/* What a receive queue holds: a message or packet (buf, len) or a scalar. */
struct xm_item {
    uint8_t *buf;
    uint32_t len;
    uint16_t from; /* XM_PEER of the sender */
    uint8_t prio;  /* a message's MCAPI priority (0 first); 0 on channels */
    uint64_t value;
};

struct xm_queue {
    struct xm_item *it;
    uint32_t head, n, cap; /* a ring that grows */
};

enum xm_cstate { XC_NONE, XC_CONN, XC_OPEN };

struct xm_ep {
    uint8_t live;
    uint16_t port;
    uint16_t gen;       /* the generation in its handle */
    struct xm_queue q;  /* messages; a channel end's packets or scalars */
    struct xm_queue mq; /* a channel end's messages (xm_msgq) */
    uint32_t depth;
    uint8_t stopped[XM_PEERS / 8]; /* senders told STOP, not yet RESUME */
    uint8_t held[XM_PEERS];        /* messages from each peer not credited back: queued or owed */
    uint8_t owe[XM_PEERS];         /* of those, taken or dropped: credits to send back */
    uint32_t gets;
    uint16_t get_src;              /* XM_PEER of the last getter */
    uint8_t getters[XM_PEERS / 8]; /* remote nodes that got it: told of its delete */
    /* Attributes. */
    struct tp_attrs a; /* settable attributes */
    /* The channel this endpoint is an end of. */
    uint8_t cstate, ctype, cdir;
    uint8_t opening, peer_closed;
    uint8_t held_back; /* send end: the peer said STOP */
    uint8_t failed;    /* the peer's node went away */
    uint16_t peer;     /* XM_PEER of the other end's node */
    uint16_t peer_port;
    uint32_t qp;     /* the channel's id (its connect's) */
    uint32_t self_q; /* receive end: items our own send end sent, not yet taken */
    uint16_t cgen;   /* generation of channel handles */
    uint32_t chandle;
};

/* One TCP connection (or, in PIPE mode, the pipe's read end): its reading
 * side. What the node sends a peer waits in the peer's output buffer. */
struct xm_conn {
    plat_stream *s;
    int peer;     /* XM_PEER; -1 until an accepted connection's HELLO */
    uint8_t out;  /* we opened it: our frames to `peer` go here */
    uint8_t dead; /* failed or closed: freed at the end of the communicator's round */
    uint8_t is_pipe;
    uint8_t bulk;  /* the last header was a large packet's: read the next header alone */
    unsigned bits; /* poller interest */
    uint8_t *rbuf;
    size_t rlen;
    struct xw_header cur; /* a packet whose payload is read straight into dst */
    uint8_t *dst;
    size_t dhave;
    struct xm_conn *next;
};

enum xm_pstate { XP_IDLE, XP_WANT, XP_CONNECTING, XP_UP, XP_FAILED };

struct xm_peer {
    uint8_t state;
    uint32_t fails; /* failures so far: an op that began before one ends with an error */
    struct xm_conn *c;
    uint8_t *obuf; /* frames for the peer not yet written */
    size_t olen, ooff, ocap;
    uint8_t *stopped; /* MCAPI_MAX_PORT + 1 bits: its ports that said STOP to us */
    /* MCAPI_MAX_PORT + 1 each, per port: the generation of the endpoint its
     * last answered get gave us, and of the last it deleted (XW_DELETED, or
     * all it gave us once its connection ends cleanly: it finalised). */
    uint16_t *got, *gone;
    uint16_t unacked; /* DELETED frames sent to it not answered yet */
    uint8_t *sent;    /* MCAPI_MAX_PORT + 1: messages to each of its ports not credited */
};

struct xm_pend { /* a connect, get or release waiting for its owners' answers */
    uint32_t id;
    uint8_t used, left;
    uint16_t peers[2]; /* the owners asked (left of them still to answer) */
    uint16_t gen;      /* a get's answer: the endpoint's generation */
    mcapi_status_t st;
};

struct tp_node {
    mcapi_domain_t dom;
    mcapi_node_t node;
    unsigned self; /* XM_PEER */
    enum mcapi_xm_notify notify;
    struct xt_topo *topo;
    plat_mutex mu;
    plat_event ev; /* the user thread's wake-up */
    plat_poller *poller;
    plat_stream *listener;
    plat_stream *pipe[2]; /* PIPE mode: user writes [1], communicator reads [0] */
    plat_thread *comm;
    volatile int stop; /* guarded by mu */
    uint8_t kicked;    /* a notification is on its way to the communicator */
    uint8_t in_round;  /* the communicator holds mu in a round that ends writing */
    struct xm_conn *conns;
    struct xm_peer peer[XM_PEERS];
    struct xm_ep ep[XM_EPS];
    struct xm_pend pend[XM_PENDING];
    struct { /* peers' gets of our endpoints not created yet */
        uint16_t peer, port;
        uint32_t qp;
        uint8_t used;
    } gets[XM_GETS];
    unsigned retrying; /* gets waiting for a peer to come up: sleep polls */
    uint16_t last_gen; /* the generation the last endpoint created got */
    uint8_t closing;   /* finalising (xm_endp_fini) */
    uint32_t next_qp;
    struct xm_held {
        uint8_t *buf;
        uint32_t len;
    } * held; /* packet buffers the user holds */
    size_t nheld, cheld;
    uint8_t *spare[XM_SPARE]; /* large packets' buffers freed, for reuse (xm_pkt_alloc) */
    unsigned nspare;
    uint64_t xfer_cycles;
    uint32_t msg_bufs; /* messages queued at our endpoints (MCAPI_MAX_MSG_BUFFERS) */
    /* Counters (tests, tools). */
    uint64_t stops_sent, resumes_sent, stops_got, bad_frames, conn_fails, credit_waits,
        credits_sent, pkt_bufs_reused;
};

/* xm_node.c */
/* Whether XMCAPI takes a node that names no transport (mcapi_transport.h,
 * claims): one its topology file lists, unless its parameters name a
 * shared region or routes, which ask for shared memory. */
bool xm_claims(const mcapi_param_t *param, mcapi_domain_t dom, mcapi_node_t node);
mcapi_status_t xm_attach(struct tp_node **tp, mcapi_domain_t dom, mcapi_node_t node,
                         const mcapi_param_t *param, mcapi_info_t *info);
void xm_detach(struct tp_node *tp);
uint32_t xm_epoch(struct tp_node *tp);
void xm_sleep(struct tp_node *tp, uint32_t epoch, uint64_t timeout_ns);

/* xm_conn.c (mu held) */
/* Append a frame to the output buffer of the peer h->dst_*, filling in the
 * sender; a peer not connected is connected first. False: out of memory. */
bool xm_send_frame(struct tp_node *tp, struct xw_header *h, const void *payload);
/* Whether peer p can take a send op's frame of `need` payload bytes now:
 * MCAPI_SUCCESS, MCAPI_PENDING (a connect is under way, or the output
 * buffer is full), or MCAPI_ERR_TRANSMISSION if the peer failed since the
 * op's first call, which keeps the peer's failure count in op->held and
 * sets XM_ST_SINCE in op->state. */
#define XM_ST_SINCE 0x80
#define XM_ST_CREDIT 0x40 /* a message send that waited for a credit (counted once) */
#define XM_ST_COPY 0x20   /* a message send's src is its own copy (xm_msg.c) */
mcapi_status_t xm_op_ready(struct tp_node *tp, struct tp_op *op, unsigned p, size_t need);
void xm_kick(struct tp_node *tp); /* have the communicator look at its work */
void xm_comm_main(void *arg);     /* the communicator thread */

/* xm_recv.c: a frame that arrived (mu held); false: bad, close the connection. */
bool xm_dispatch(struct tp_node *tp, struct xm_conn *c, const struct xw_header *h,
                 const uint8_t *payload);
/* A packet's buffer, allocated before its payload is read into it. */
uint8_t *xm_pkt_alloc(struct tp_node *tp, const struct xw_header *h);
/* Free a queued item's buffer (a packet's or a message's, len bytes). */
void xm_buf_free(struct tp_node *tp, uint8_t *buf, uint32_t len);
/* A connection with peer p ended: ours to it (out: sends and connects
 * waiting on p fail) or its to us (channel receive ends from p learn that
 * nothing more comes). */
void xm_peer_failed(struct tp_node *tp, unsigned p, bool out);
/* Make local endpoint `port` an end of channel qp (a connect, local or
 * from a CONNECT frame). */
mcapi_status_t xm_chan_attach(struct tp_node *tp, unsigned port, unsigned type, unsigned dir,
                              unsigned peer, unsigned peer_port, uint32_t qp);
/* A new pending slot for a request to peer p (MCAPI_PENDING if none is free). */
int xm_pend_new(struct tp_node *tp, unsigned p0, unsigned p1, uint32_t *id);
/* Send a control frame (CONNECT, OPEN, CLOSE) to peer p about port/qp. */
void xm_ctl(struct tp_node *tp, unsigned p, unsigned type, unsigned flags, unsigned port,
            uint32_t qp, const void *payload, uint32_t size);

/* xm_queue.c */
bool xm_q_push(struct xm_queue *q, const struct xm_item *it);
bool xm_q_pop(struct xm_queue *q, struct xm_item *it);
void xm_q_free(struct xm_queue *q);
/* Taking from ep's queue: RESUME the senders it stopped once it is low. */
void xm_q_taken(struct tp_node *tp, struct xm_ep *e);
/* Empty ep's queue (a delete, a close, finalise): a message endpoint's
 * messages are credited back; xm_q_drop_all also its channel end's
 * messages (mq). */
void xm_q_drop(struct tp_node *tp, struct xm_ep *e);
void xm_q_drop_all(struct tp_node *tp, struct xm_ep *e);
/* Whether a send that finds no room fails (MCAPI_ERR_MEM_LIMIT) rather
 * than waits: endpoint e (NULL: not ours) has FAIL_ON_MEM_LIMIT. */
bool xm_fails(const struct xm_ep *e);
/* File an arrival (it.from: its sender); STOP the sender if past depth.
 * False if out of memory. */
bool xm_q_arrive(struct tp_node *tp, struct xm_ep *e, const struct xm_item *it);
/* Message endpoint e's message from peer p was taken or dropped: its
 * credit goes back, now or on a later message to p. */
void xm_credit_owe(struct tp_node *tp, struct xm_ep *e, unsigned p);
/* The qp of a message to peer p: credits owed to p, which it carries. */
uint32_t xm_credit_carry(struct tp_node *tp, unsigned p);
/* Credit n messages to our port back to peer p now (an XW_CREDIT): for
 * messages that found no endpoint of theirs there. */
void xm_credit_port(struct tp_node *tp, unsigned p, unsigned port, unsigned n);
/* Peer p credits n messages to its port (an XW_CREDIT, an XW_MSG's qp). */
void xm_credit_got(struct tp_node *tp, unsigned p, unsigned port, unsigned n);

/* Where endpoint e's messages queue: a channel end still takes them
 * (docs/mcapi.md), beside the channel's items, without flow control. */
static inline struct xm_queue *xm_msgq(struct xm_ep *e)
{
    return e->cstate != XC_NONE ? &e->mq : &e->q;
}

/* Whether handle h names an endpoint (or channel end) of this node. */
static inline bool xm_is_self(const struct tp_node *tp, uint32_t h)
{
    return XM_PEER(XM_H_DOM(h), XM_H_NODE(h)) == tp->self;
}

/* The steps (xm_endp.c, xm_msg.c, xm_chan.c) run with mu held, under
 * step() (xm_tp.c); the other entries take mu themselves. */

/* xm_endp.c */
struct xm_ep *xm_ep_by_port(struct tp_node *tp, unsigned port);
bool xm_ep_valid(const struct tp_node *tp, uint32_t h);
struct xm_ep *xm_own(struct tp_node *tp, uint32_t h, mcapi_status_t *st);
mcapi_status_t xm_endp_get(struct tp_node *tp, struct tp_op *op);
mcapi_status_t xm_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep);
mcapi_status_t xm_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep);
mcapi_status_t xm_endp_release(struct tp_node *tp, mcapi_endpoint_t ep);
mcapi_status_t xm_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size);
mcapi_status_t xm_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size);
mcapi_status_t xm_node_attr(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size);
/* The attributes the two ends of a channel must share (MAX_PAYLOAD_SIZE,
 * PRIORITY, as on shared memory): a CONNECT carries them, XM_ATTRS bytes
 * after its endpoints, when the connecting node has one of the ends. */
#define XM_ATTRS 6
void xm_attrs_put(uint8_t *p, const struct tp_attrs *a);
bool xm_attrs_fit(const struct tp_attrs *a, const uint8_t *p);
/* Whether remote endpoint h is one its owner said it deleted (XW_DELETED). */
bool xm_ep_gone(const struct tp_node *tp, uint32_t h);
/* A GET, RELEASE or DELETED frame, or an answer to one (from xm_dispatch);
 * false: bad. */
bool xm_endp_frame(struct tp_node *tp, unsigned from, const struct xw_header *h,
                   const uint8_t *payload);
/* Finalise: peers' gets go unanswered from now on (the asker's next try
 * finds our next life). */
void xm_endp_fini(struct tp_node *tp);
/* Peer p's connection ended cleanly (between frames): it finalised or
 * died, and the endpoints it gave us are deleted. */
void xm_endp_peer_ended(struct tp_node *tp, unsigned p);

/* xm_msg.c */
mcapi_status_t xm_msg_send(struct tp_node *tp, struct tp_op *op);
void xm_msg_forget(struct tp_op *op); /* a send given up: free its copy */
mcapi_status_t xm_msg_recv(struct tp_node *tp, struct tp_op *op);

/* xm_chan.c */
struct xm_ep *xm_chan_end(struct tp_node *tp, uint32_t h, mcapi_status_t *st);
mcapi_status_t xm_chan_send(struct tp_node *tp, struct tp_op *op);
mcapi_status_t xm_chan_recv(struct tp_node *tp, struct tp_op *op);
mcapi_status_t xm_chan_connect(struct tp_node *tp, struct tp_op *op);
mcapi_status_t xm_chan_open(struct tp_node *tp, struct tp_op *op);
mcapi_status_t xm_chan_close(struct tp_node *tp, struct tp_op *op);
/* Close local end e at once (a close, a delete); the peer learns it from
 * a CLOSE frame. */
void xm_chan_detach(struct tp_node *tp, struct xm_ep *e);
mcapi_status_t xm_pkt_release(struct tp_node *tp, const void *buf, bool test);

/* xm_tp.c */
extern const struct mcapi_transport mcapi_xm_transport;

#endif
