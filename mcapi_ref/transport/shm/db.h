/*
 * transport/shm/db.h -- the shared-memory transport's database: one region per
 * domain, shared by every node of the domain.
 *
 * The region is plat_shared_map(name): threads of a program map the same
 * heap block, processes the same POSIX shared memory object ("/...", or
 * any name in a job), and
 * in simulation it lives in the platform's shared memory. Processes map it
 * at different addresses, so it holds no pointers: endpoints, channels and
 * buffers refer to each other by index. Everything in it is static: the
 * limits of mcapi_impl_spec.h are array sizes, and nothing is allocated
 * after mcapi_initialize. The packet pool alone is sized by the creator's
 * mcapi_param_t (pkt_buffers, pkt_pool_bytes): it follows struct db in the
 * region (struct db_layout), so the region's size depends on them and a
 * node that gives other values cannot map it (MCAPI_ERR_PARAMETER).
 *
 * Locking (plat_mutex in the region, PLAT_SHARED_PROCESS when the region
 * crosses processes, plat_shared_crosses): one
 * lock per endpoint (its message queue, identity, attributes, channel
 * link), per channel (the state of its two ends; its queue is a ring of
 * one sender and one receiver, without a lock: ring.c), per node
 * (its port map), per buffer pool, and the domain lock for what changes two
 * endpoints at once (connect, disconnect, delete) and for node states. Locks
 * are taken in the order domain, node, endpoint (two only under the domain
 * lock), channel, pool; no call takes more than one lock on the data path.
 * Fields an endpoint's owner alone writes (identity, attributes, the open
 * channel handle) are written under the endpoint lock; the owner reads them
 * without it, others under it. Every lock is robust and taken through
 * tp_lock: one whose holder died (a killed node process) is repaired
 * before use, and a dead node is finalised by the next process that
 * initialises it (repair.c).
 *
 * Waking: every node has an event (an event count, plat.h). A node that must
 * wait for a queue, pool, channel or node table to change sets its bit in
 * that object's `waiters` under the object's lock; whoever changes the
 * object takes the mask and notifies those nodes' events after unlocking
 * (a channel's ring: with atomics instead of the lock, ring.c).
 */
#ifndef MCAPI_TRANSPORT_DB_H
#define MCAPI_TRANSPORT_DB_H

#include "mcapi.h"
#include "mcapi_transport.h"

#include "../../drivers/shm.h"

#include <stdbool.h>
#include <stdint.h>

#define DB_SLOTS (MCA_MAX_NODES * MCAPI_MAX_ENDPOINTS) /* endpoint table */
#define DB_NPRIO (MCAPI_MAX_PRIORITY + 1)
#define DB_DEVICE_LEN 32
#define DB_READY 0x4d434150494442ull /* "MCAPIDB": the region is initialised */
#define DB_VERSION 5u
#define Q_NONE 0xffu

enum db_node_state { NODE_FREE, NODE_REGULAR, NODE_VIRTUAL };

/* One end of a channel. */
enum db_side {
    SIDE_CONN = 1, /* connected, not opened */
    SIDE_OPEN,
    SIDE_CLOSED /* closed, or its endpoint deleted */
};

/* A queued message, packet or scalar. */
struct db_entry {
    uint64_t data; /* buffer index, or the scalar */
    uint32_t size; /* bytes, or the scalar's width */
    uint8_t next, prio, pad[2];
};

/* A receive queue: a list per priority (0 first), FIFO within one. */
struct db_queue {
    uint8_t head[DB_NPRIO], tail[DB_NPRIO];
    uint8_t free, count, reserved, pad;
    struct db_entry e[MCAPI_MAX_QUEUE_ELEMENTS];
};

struct db_endp {
    plat_mutex lock;
    uint32_t ident; /* the endpoint's handle; 0: the slot is free */
    uint16_t gen;   /* of the slot: a new endpoint here gets a new handle */
    uint16_t port;
    struct tp_attrs a;                /* settable attributes */
    uint32_t gets, get_dom, get_node; /* endpoint_get references */
    int16_t chan;                     /* connected channel, -1 */
    uint8_t dir;                      /* its end: TP_SEND or TP_RECV */
    uint8_t opening;                  /* an open request waits */
    uint8_t chopen;                   /* the owner's end of the channel is open */
    uint16_t chgen;                   /* generation of channel handles */
    uint32_t chandle;                 /* the handle the last open gave */
    uint64_t waiters;
    struct db_queue q; /* messages */
};

/* A channel's queue (ring.c): slots from head to tail. tail and the
 * sender's look at head are the sender's line, head and the receiver's
 * look at tail the receiver's. */
struct db_slot {
    uint64_t data; /* buffer index (granule), or the scalar */
    uint32_t size; /* bytes, or the scalar's width */
    uint32_t pad;
};
struct db_ring {
    _Alignas(64) uint64_t tail;
    uint64_t head_seen;
    _Alignas(64) uint64_t head;
    uint64_t tail_seen;
    _Alignas(64) struct db_slot e[MCAPI_MAX_QUEUE_ELEMENTS];
};

struct db_chan {
    plat_mutex lock;  /* connect, open, close: the state of the two ends */
    uint32_t used;    /* taken and freed under the domain lock */
    uint8_t type;     /* TP_PKT or TP_SCL */
    uint8_t side[2];  /* SIDE_* of the send and the receive end (atomic: sends read it unlocked) */
    uint8_t fail;     /* an end has MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT */
    uint64_t waiters; /* atomic (ring.c) */
    /* The packet (granule + 1) the receiver pops and is about to hold:
     * stored just before its pop, cleared with the hold under the packet
     * pool's lock; written by the receiver alone, so a dead receiver's is
     * exact (equal to the ring's head slot if it died before its pop) and
     * a live one's only protects (tp_pkts_reclaim). */
    uint32_t taking;
    struct db_ring ring; /* packets or scalars */
};

struct db_node {
    plat_event ev; /* the node's wake-up */
    plat_mutex lock;
    uint32_t state, type;
    uint64_t owner;                   /* NODE_REGULAR: its process (drv_shm_self) */
    uint64_t waiters;                 /* nodes waiting for an endpoint here */
    char device[DB_DEVICE_LEN];       /* NODE_VIRTUAL: its route's accelerator */
    uint8_t port[MCAPI_MAX_PORT + 1]; /* port -> endpoint index + 1 */
};

struct db_pool {
    plat_mutex lock;
    uint64_t waiters;
    uint32_t top; /* free buffers */
    uint16_t free[MCAPI_MAX_MSG_BUFFERS];
    uint8_t own[MCAPI_MAX_MSG_BUFFERS]; /* node + 1 that has buffer i out, 0 (pool.c) */
};

/* A free run of the packet arena, in granules (MCAPI_PKT_POOL_GRANULE). */
struct db_run {
    uint32_t off, len;
};

/* Where the packet pool's parts lie, from the region's start: the free
 * runs (sorted by offset, neighbours merged; at most one more than the
 * packets held), per granule the length of the packet starting there (0:
 * none) and its holder (node + 1 once received; DB_FILLED | node + 1 from
 * the sender's allocation until then), and the arena itself. */
#define DB_FILLED 0x80u /* holder: still its sender's (nodes are < 64) */
struct db_layout {
    uint32_t max, granules; /* packets held at once, granules of the arena */
    uint64_t run_at, len_at, holder_at, arena_at, size;
};

/* The packet pool: packets take a place (of max) and a run of granules
 * from the moment they are sent until they are released. Bytes of the
 * arena that no packet holds are zero (a packet's are cleared when it is
 * freed), so a receiver reading past a packet sees no older one. */
struct db_pkts {
    plat_mutex lock;
    uint64_t waiters;
    struct db_layout at;
    uint32_t live; /* packets held */
    uint32_t runs; /* free runs */
};

struct db {
    uint64_t ready; /* DB_READY once the creator has initialised it */
    uint64_t size;  /* of the region: struct db and the packet pool */
    uint32_t version, domain;
    uint32_t seed; /* generations start here: handles differ between regions */
    plat_mutex lock;
    struct db_node node[MCA_MAX_NODES];
    struct db_endp endp[DB_SLOTS];
    struct db_chan chan[MCAPI_MAX_CHANNELS];
    struct db_pool msg;
    struct db_pkts pkt;
    _Alignas(64) unsigned char msgbuf[MCAPI_MAX_MSG_BUFFERS][MCAPI_MAX_MSG_SIZE];
    /* then the packet pool (struct db_layout) */
};

/* A node's view of its domain. */
struct tp_node {
    struct db *db;
    mcapi_domain_t dom;
    mcapi_node_t node;
    uint64_t bit;                     /* the node's bit in waiter masks */
    bool shared;                      /* the region is between processes */
    uint64_t xfer_cycles;             /* plat_cost("mcapi_transport") */
    plat_accel *accel[MCA_MAX_NODES]; /* virtual nodes' devices, opened on use */
    /* The packet pool's parts in this node's mapping of the region. */
    struct db_run *runs;
    uint32_t *len;
    uint8_t *holder;
    unsigned char *arena;
};

/* db.c: the region. tp_db_layout: 0, or MCAPI_ERR_PARAMETER for values
 * out of range (0 gives the defaults). tp_db_map: the region, or NULL with
 * *st the reason. */
mcapi_status_t tp_db_layout(struct db_layout *l, unsigned pkt_buffers, size_t pkt_pool_bytes);
struct db *tp_db_map(const char *name, mcapi_domain_t dom, const struct db_layout *l,
                     mcapi_status_t *st);
void tp_db_unmap(struct db *db);

/* repair.c: what a dead process leaves behind. tp_lock takes a lock of
 * the region and, if its holder died, repairs what it guards first. */
void tp_lock(struct db *db, plat_mutex *m);
void tp_node_reclaim(struct tp_node *tp);

/* wake.c: waiting and waking. */
void tp_wake(struct tp_node *tp, uint64_t mask);
uint64_t tp_take_waiters(uint64_t *waiters);

/* queue.c */
void tp_q_init(struct db_queue *q);
bool tp_q_full(const struct db_queue *q);
unsigned tp_q_count(const struct db_queue *q);
void tp_q_push(struct db_queue *q, uint64_t data, uint32_t size, unsigned prio);
const struct db_entry *tp_q_peek(const struct db_queue *q);
void tp_q_repair(struct db_queue *q);
void tp_q_mark(const struct db_queue *q, bool *mark, unsigned n);
void tp_q_pop(struct db_queue *q, struct db_entry *out);
/* ring.c: a channel's queue. Push: the sender (false: full); peek and pop:
 * the receiver (peek NULL: empty); count: anyone. tp_ring_send: push on
 * channel c from its sender, MCAPI_PENDING (the caller's bit set) while
 * full, MCAPI_ERR_CHAN_NOTOPEN once the receiving end closed, waking a
 * waiting receiver. tp_ring_next: the receiver's next slot, MCAPI_PENDING
 * (bit set) while empty, MCAPI_ERR_CHAN_NOTOPEN once empty with the
 * sending end closed; tp_ring_done pops it, waking a waiting sender.
 * tp_ring_take: take c's waiters (to wake them). tp_ring_mark: as
 * tp_q_mark (another node, the channel's lock held). */
void tp_ring_init(struct db_ring *r);
unsigned tp_ring_count(const struct db_ring *r);
bool tp_ring_push(struct db_ring *r, uint64_t data, uint32_t size);
const struct db_slot *tp_ring_peek(struct db_ring *r);
void tp_ring_pop(struct db_ring *r);
mcapi_status_t tp_ring_send(struct tp_node *tp, struct db_chan *c, uint64_t data, uint32_t size);
mcapi_status_t tp_ring_next(struct tp_node *tp, struct db_chan *c, const struct db_slot **x);
void tp_ring_done(struct tp_node *tp, struct db_chan *c);
uint64_t tp_ring_take(struct db_chan *c);
void tp_ring_mark(const struct db_ring *r, bool *mark, unsigned n);

/* pool.c: message and packet buffers. */
void tp_pool_init(struct db_pool *p, unsigned n, bool shared);
/* MCAPI_SUCCESS with *held = index + 1, or MCAPI_PENDING: none free, the
 * caller is woken by the next tp_pool_put. */
mcapi_status_t tp_pool_get(struct tp_node *tp, struct db_pool *p, uint32_t *held);
void tp_pool_put(struct tp_node *tp, struct db_pool *p, uint32_t idx);
unsigned tp_pool_free(struct db *db, struct db_pool *p);
void tp_pool_repair(struct db_pool *p, unsigned n);
unsigned tp_pool_reclaim(struct tp_node *tp, struct db_pool *p, unsigned n, unsigned node,
                         const bool *queued);
void tp_pkts_init(struct db *db, bool shared);
/* A packet of len bytes: MCAPI_SUCCESS with *held = its first granule + 1,
 * or MCAPI_PENDING (no place or no run long enough; woken by a free). */
mcapi_status_t tp_pkts_get(struct tp_node *tp, size_t len, uint32_t *held);
/* Free the packet at granule g, the pool lock held; clear: zero its run
 * first (false: the caller has, tp_pkts_clear). */
uint64_t tp_pkts_free_locked(struct tp_node *tp, uint32_t g, bool clear);
/* Zero the run of the packet at granule g (db_pkts: free bytes are zero). */
void tp_pkts_clear(struct tp_node *tp, uint32_t g);
void tp_pkts_put(struct tp_node *tp, uint32_t g);
/* A dead receiver's c->taking: back to the pool unless its hold was done
 * (then it is the receiver's, which its node's reclaim frees). */
void tp_pkts_put_taken(struct tp_node *tp, uint32_t g);
unsigned tp_pkts_free(struct tp_node *tp);
/* The packet pool's lock was abandoned: its runs and count are what the
 * lengths say (a packet is allocated iff its first granule has a length
 * and a holder; a length without one, or a holder without one, was cut
 * half way and is dropped). */
void tp_pkts_repair(struct db *db);
/* Free the packets node holds (received, or filled for a send) that no
 * queue holds and no receiver is taking (queued[g]: granule g starts a
 * queued or taken packet). Returns how many. */
unsigned tp_pkts_reclaim(struct tp_node *tp, unsigned node, const bool *queued);

/* endp.c: endpoint handles. */
struct db_endp *tp_own_endp(struct tp_node *tp, mcapi_uint32_t h);
mcapi_status_t tp_own_check(struct tp_node *tp, mcapi_uint32_t h);
int tp_endp_slot(const struct tp_node *tp, mcapi_uint32_t h);
bool tp_endp_fail(const struct db_endp *e);
mcapi_status_t tp_endp_get(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_endp_create(struct tp_node *tp, mcapi_port_t port, mcapi_endpoint_t *ep);
mcapi_status_t tp_endp_delete(struct tp_node *tp, mcapi_endpoint_t ep);
mcapi_status_t tp_endp_release(struct tp_node *tp, mcapi_endpoint_t ep);
void tp_endp_remove(struct tp_node *tp, int slot);
void tp_endp_remove_locked(struct tp_node *tp, int slot); /* domain lock held */

/* attr.c */
mcapi_status_t tp_attr_get(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num, void *attr,
                           size_t size);
mcapi_status_t tp_attr_set(struct tp_node *tp, mcapi_endpoint_t ep, mcapi_uint_t num,
                           const void *attr, size_t size);
mcapi_status_t tp_attr_node(struct tp_node *tp, mcapi_domain_t dom, mcapi_node_t node,
                            mcapi_uint_t num, void *attr, size_t size);

/* chan.c: connect, open, close. */
mcapi_status_t tp_chan_handle(struct tp_node *tp, mcapi_uint32_t h, int *slot);
mcapi_status_t tp_chan_use(struct tp_node *tp, struct tp_op *op, struct db_chan **c);
mcapi_status_t tp_chan_connect(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_chan_open(struct tp_node *tp, struct tp_op *op);
void tp_chan_open_abort(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_chan_close(struct tp_node *tp, struct tp_op *op);
void tp_chan_detach(struct tp_node *tp, struct db_endp *e);

/* route.c: the static mapping of nodes to routes. */
mcapi_status_t tp_route_add(struct db *db, mcapi_domain_t dom, mcapi_node_t self,
                            const mcapi_param_t *param, uint64_t *added);
mcapi_status_t tp_route_accel(struct tp_node *tp, struct tp_op *op);
void tp_route_accel_abort(struct tp_node *tp, struct tp_op *op);

/* msg.c, pkt.c, scl.c: transfers. */
mcapi_status_t tp_msg_send(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_msg_recv(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_pkt_send(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_pkt_recv(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_pkt_release(struct tp_node *tp, const void *buf, bool test);
void tp_pkt_release_all(struct tp_node *tp);
mcapi_status_t tp_scl_send(struct tp_node *tp, struct tp_op *op);
mcapi_status_t tp_scl_recv(struct tp_node *tp, struct tp_op *op);

/* node.c: joining and leaving the domain. */
mcapi_status_t tp_node_attach(struct tp_node **out, mcapi_domain_t dom, mcapi_node_t node,
                              const mcapi_param_t *param, mcapi_info_t *info);
void tp_node_detach(struct tp_node *tp);

#endif
