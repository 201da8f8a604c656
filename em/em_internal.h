/*
 * em_internal.h -- the shared instance and per-core state of the em library.
 *
 * One struct em_shared lives in the named shared region "em". Every table
 * (pools, queues, EOs, groups) is in it; handles are table index + 1, so that
 * the undefined handle (NULL) is never valid. Events are headers in pool
 * memory (plat_shared_alloc); an event handle is its header's address.
 *
 * Concurrency: one plat mutex (sh->lock) guards every table and the scheduler
 * state. User code (receive, start/stop, error handlers, callbacks) never runs
 * with it held. Correct first: the lock is the simple way to keep atomic
 * holding, ordered tickets and event groups consistent on every backend.
 */
#ifndef EM_INTERNAL_H
#define EM_INTERNAL_H

#include <event_machine.h>
#include <ipcsim/plat.h>

#define EM_CONF_MAGIC 0x454d4346u /* em_conf_init was called */
#define EM_POOL_CFG_MAGIC 0x454d5043u
#define EM_MULTIRCV_MAGIC 0x454d4d52u
#define EM_DISPATCH_OPT_MAGIC 0x454d444fu
#define EM_ORDER_WINDOW 16 /* tickets of one ordered queue in flight at once */
#define EM_QGROUPS 64      /* queue groups besides EM_QUEUE_GROUP_DEFAULT */
#define EM_IDLE_SLICE_NS 100000u

/* Event states (the state word of the check level). */
enum { EV_FREE = 0, EV_USER = 1, EV_QUEUED = 2, EV_HELD = 3 };

struct em_ev {
    uint64_t state;
    struct em_ev *next; /* free list, local FIFO, ordered hold list */
    void *payload;
    void *uarea;
    uint32_t size; /* asked at alloc */
    em_event_type_t type;
    int pool, subpool;
    int egrp; /* event group index + 1, 0: none */
    uint64_t egrp_gen;
    int held_q; /* destination while held by an ordered ticket */
    /* EM_IPCSIM_SCHED_CORE: the assignment this event heads in a core's
     * dispatch queue (queue index, events in it, the ordered ticket) */
    int disp_q, disp_n;
    int disp_slot; /* preloaded into that slot of the core, -1: not */
    uint64_t disp_ticket;
};

struct em_subpool {
    uint32_t size, num, used;
    struct em_ev *free;
    void *mem;
};

struct em_pool {
    int used;
    char name[EM_POOL_NAME_LEN];
    em_pool_cfg_t cfg;
    struct em_subpool sp[EM_MAX_SUBPOOLS];
};

struct em_order_slot {
    int done;
    struct em_ev *head, *tail;
};

struct em_queue {
    int used;
    char name[EM_QUEUE_NAME_LEN];
    em_queue_type_t type;
    em_queue_prio_t prio;
    int qgrp; /* index into sh->qgrp */
    int agrp; /* atomic group index + 1, 0: none */
    int eo;   /* EO index + 1, 0: none */
    uint32_t flags;
    void *ctx;
    unsigned hwq;     /* hardware queue of the device */
    uint64_t nqueued; /* events in the hardware queue (or the local FIFOs) */
    int held;         /* atomic: a core holds it */
    int next_prio;    /* next queue of the same priority list, -1: end */
    int in_list;
    uint32_t nassigned;            /* events in cores' dispatch queues (sched core) */
    uint64_t next_ticket, release; /* ordered: first unissued, first unended */
    struct em_order_slot slot[EM_ORDER_WINDOW];
};

struct em_eo {
    int used;
    char name[EM_EO_NAME_LEN];
    em_eo_state_t state;
    em_start_func_t start;
    em_start_local_func_t local_start;
    em_stop_func_t stop;
    em_stop_local_func_t local_stop;
    em_receive_func_t receive;
    em_receive_multi_func_t receive_multi;
    int max_events;
    void *ctx;
    em_error_handler_t errh;
    uint64_t started[(EM_MAX_CORES + 63) / 64]; /* cores that ran local_start */
    uint64_t pending[(EM_MAX_CORES + 63) / 64]; /* cores still to run local start/stop */
    int nqueues;
    int num_notif;
    em_notif_t notif[EM_EVENT_GROUP_MAX_NOTIF];
};

struct em_egrp {
    int used;
    int counting;
    int64_t count;
    uint64_t gen;
    int num_notif;
    em_notif_t notif[EM_EVENT_GROUP_MAX_NOTIF];
};

struct em_qgrp {
    int used;
    char name[EM_QUEUE_GROUP_NAME_LEN];
    em_core_mask_t mask;
    int nqueues;
};

struct em_agrp {
    int used;
    char name[EM_ATOMIC_GROUP_NAME_LEN];
    int qgrp;
    int held;
    int nqueues;
};

/* Per-core state: what the running receive holds. */
struct em_core {
    int id;        /* EM core id */
    int plat_core; /* -1: slot free */
    int termed;
    plat_hwq *hwq;
    int cur_eo, cur_q; /* index + 1 of the EO / queue in receive, 0: none */
    int atomic_q;      /* index + 1 of the atomic queue held, 0: none */
    int ordered_q;     /* index + 1 of the ordered queue whose ticket runs */
    uint64_t ticket;
    int egrp; /* current event group index + 1 */
    uint64_t egrp_gen;
    struct em_ev *cur_ev[EM_EO_MULTIRCV_MAX_EVENTS];
    int ncur;
    /* preload: the local copy of the event in receive */
    struct em_ev *pre_ev;
    void *pre_cur; /* the local copy of pre_ev: pre_buf or a slot */
    void *pre_buf;
    size_t pre_cap;
    /* EM_IPCSIM_SCHED_CORE with ipcsim.preload_bytes: buffers of this core's
     * local memory the scheduler core preloads into (sched_depth + 1: the
     * waiting assignments and the running one), and their transfers */
    void *slot[EM_IPCSIM_SCHED_DEPTH_MAX + 1];
    int slot_busy[EM_IPCSIM_SCHED_DEPTH_MAX + 1];
    int slot_dma_used[EM_IPCSIM_SCHED_DEPTH_MAX + 1];
    plat_dma slot_dma[EM_IPCSIM_SCHED_DEPTH_MAX + 1];
    int nslots, cur_slot; /* cur_slot: the running event's, -1: none */
    int asks; /* sched_on_demand: its dispatcher found nothing and waits for an assignment */
    struct em_ev *local_head, *local_tail; /* events of LOCAL queues */
    /* EO local starts/stops to run; written under the lock by any core, read
     * by its own without it: plat_load64 / plat_store64 */
    uint64_t pending_ops;
    int egrp_iter;
    int waiting;       /* counted in sh->waiters (an idle round's wait) */
    unsigned disp_hwq; /* EM_IPCSIM_SCHED_CORE: this core's dispatch queue */
    int sched_checked; /* saw a scheduler core, or said that none runs */
    uint32_t assigned; /* assignments waiting in it */
    /* an error found with the lock held, reported once it is released */
    em_status_t deferred;
    em_escope_t deferred_escope;
    /* Sends of the running receive to the atomic queue this core holds,
     * kept here without the lock (no other core can take their queue while
     * it is held) and pushed, in order, under the lock that releases it or
     * before any other push of this core's: one lock less per re-send. */
    struct em_ev *resend_head, *resend_tail;
    /* The atomic context of the receive that ended is still held; it is
     * released in this core's next locked section (the next round's
     * schedule, or em_dispatch's return), as ODP releases it at the next
     * schedule call: one lock less per event. */
    int release_due;
};

struct em_shared {
    uint32_t magic;
    int inited;
    int core_count, cores_in, stop;
    uint16_t device_id;
    char hwq_name[32];
    unsigned hwq_total;
    em_conf_t conf;
    plat_mutex lock;
    plat_event work;   /* advanced on every change that may make work ready */
    int waiters;       /* cores in (or entering) an idle wait on work */
    int stops_running; /* EO global stop functions running now */
    int sched_core;    /* EM_IPCSIM_SCHED_CORE */
    int sched_running, sched_waiting, sched_next;
    uint64_t sched_ever; /* a scheduler core has run (plat_load64 / plat_store64) */
    uint64_t init_ns;    /* em_init's time: how long cores wait for one */
    uint32_t sched_depth;
    uint32_t preload_bytes; /* conf.ipcsim.preload_bytes */
    int sched_demand;       /* conf.ipcsim.sched_on_demand */
    em_error_handler_t errh;
    em_dispatch_enter_func_t enter_cb[EM_CALLBACKS_MAX];
    em_dispatch_exit_func_t exit_cb[EM_CALLBACKS_MAX];
    uint8_t hwq_used[4096];
    int prio_head[EM_QUEUE_PRIO_NUM], prio_tail[EM_QUEUE_PRIO_NUM];
    struct em_pool pool[EM_CONFIG_POOLS];
    struct em_queue q[EM_MAX_QUEUES];
    struct em_eo eo[EM_MAX_EOS];
    struct em_egrp eg[EM_MAX_EVENT_GROUPS];
    struct em_qgrp qgrp[EM_QGROUPS + 1]; /* [0]: EM_QUEUE_GROUP_DEFAULT */
    struct em_agrp ag[EM_MAX_ATOMIC_GROUPS];
    struct em_core core[EM_MAX_CORES];
};

/* The instance and the calling core's state (NULL before em_init /
 * em_init_core). */
struct em_shared *em_sh(void);
struct em_core *em_self(void);

/* Errors: report after the lock is released. */
em_status_t em_err(em_status_t err, em_escope_t escope, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Lock held: add delta to a core's pending local starts/stops. */
static inline void em_pending_add(struct em_core *c, int64_t delta)
{
    plat_store64(&c->pending_ops, plat_load64(&c->pending_ops) + (uint64_t)delta);
}

/* Lock held: wake idle dispatchers, if any (work became ready). */
static inline void em_wake_locked(struct em_shared *sh)
{
    if (sh->waiters) plat_event_notify(&sh->work);
}

/* Report the error deferred by a *_locked function (lock not held). */
void em_report_deferred(struct em_core *c);

/* Handle <-> index (-1 for a bad handle). */
int em_queue_idx(struct em_shared *sh, em_queue_t q);
int em_eo_idx(struct em_shared *sh, em_eo_t eo);
int em_egrp_idx(struct em_shared *sh, em_event_group_t eg);
int em_qgrp_idx(struct em_shared *sh, em_queue_group_t g);
static inline em_queue_t em_queue_hdl(int i)
{
    return (em_queue_t)(uintptr_t)(i + 1);
}

/* With sh->lock held: put ev (owned by the caller) into queue qi, honouring
 * the caller's ordered context. EM_OK or the error code (ev unchanged). */
em_status_t em_send_locked(struct em_shared *sh, struct em_core *c, struct em_ev *ev, int qi,
                           int egrp, uint64_t gen);
/* With the lock held: push to the queue now (no ordering). */
em_status_t em_enqueue_locked(struct em_shared *sh, struct em_core *c, struct em_ev *ev, int qi);
/* With the lock held: send notifications (status of the first failure). */
em_status_t em_notif_send_locked(struct em_shared *sh, struct em_core *c, int num,
                                 const em_notif_t *tbl);
/* With the lock held: end the ordered ticket the core holds, flushing held
 * sends that are now in order. */
void em_ordered_end_locked(struct em_shared *sh, struct em_core *c);
/* With the lock held: count ev out of its event group (receive ended). */
void em_egrp_done_locked(struct em_shared *sh, struct em_core *c, int egrp, uint64_t gen);
/* With the lock held: run no user code; free an event to its pool. */
void em_ev_free_locked(struct em_shared *sh, struct em_ev *ev);
/* With the lock held: a buffer of pool pi of at least size bytes, or NULL
 * with *err EM_ERR_TOO_LARGE / EM_ERR_ALLOC_FAILED. */
struct em_ev *em_ev_alloc_locked(struct em_shared *sh, int pi, uint32_t size, em_status_t *err);
int em_pool_idx(struct em_shared *sh, em_pool_t pool);
/* em_send, em_send_group and the multi forms: one event. */
em_status_t em_send_one(em_event_t event, em_queue_t queue, em_event_group_t egrp,
                        em_escope_t escope);
/* Unlocked: write back the preloaded copy of ev if it is the one in use. */
void em_preload_writeback(struct em_core *c, struct em_ev *ev);
/* Run this core's pending EO local starts / stops (lock not held). */
void em_eo_run_pending(struct em_shared *sh, struct em_core *c);
/* em_init_core, lock held: the joining core owes the local starts of the
 * EOs already started. */
void em_eo_core_joined(struct em_shared *sh, struct em_core *c);
/* Lock held: EO ei is RUNNING and ran its local start on core. */
int em_eo_dispatchable(const struct em_shared *sh, int ei, int core);
/* Register a queue in its priority list (lock held). */
void em_sched_add_queue(struct em_shared *sh, int qi);
void em_sched_remove_queue(struct em_shared *sh, int qi);
/* With the lock held: push the re-sends kept in c->resend_head. */
void em_resend_flush_locked(struct em_shared *sh, struct em_core *c);
/* The scheduling function (lock held): pick a ready queue for core c, pop
 * its event(s) into c->cur_ev / c->ncur and take the queue's context
 * (atomic hold, ordered ticket). The queue index, or -1 with nothing ready. */
int em_schedule(struct em_shared *sh, struct em_core *c);
/* Lock held: the next event of c's LOCAL queues into c->cur_ev, or -1. */
int em_pick_local(struct em_shared *sh, struct em_core *c);
/* Lock held: end the atomic context c holds, if any. */
void em_atomic_release_locked(struct em_shared *sh, struct em_core *c);
/* EM_IPCSIM_SCHED_CORE, lock held (em_sched.c): take the next assignment of
 * c's dispatch queue as em_schedule would have picked it; -1: none. */
int em_sched_take_locked(struct em_shared *sh, struct em_core *c);
/* Idle, EM_IPCSIM_SCHED_CORE, lock not held: report once when no scheduler
 * core has run for a while after em_init. */
void em_sched_check_missing(struct em_shared *sh, struct em_core *c);
/* Lock held: put back the assignments of c's dispatch queue that c cannot
 * run now (all of them if all != 0), each to the tail of its queue. */
void em_sched_purge_locked(struct em_shared *sh, struct em_core *c, int all);
/* em_init_core / em_term_core, EM_IPCSIM_SCHED_CORE: the core's preload
 * slots (lock not held; calling core's local memory). */
void em_sched_slots_alloc(struct em_shared *sh, struct em_core *c);
void em_sched_slots_free(struct em_core *c);
/* Lock held: the running event's slot is free again. */
void em_sched_slot_done_locked(struct em_core *c);
/* em_init, EM_IPCSIM_SCHED_CORE, before the instance is shared: reserve a
 * dispatch queue per core. */
em_status_t em_sched_init(struct em_shared *sh);

#endif
