/*
 * plat/native/native.h -- what the native backend's files share (internal).
 *
 * Every plat_foo of plat.h is implemented as nat_foo (declared below from the
 * PLAT_OPS list); ops.c gathers them into plat_native_ops. docs/native.md
 * explains the choices.
 */
#ifndef IPCSIM_NATIVE_H
#define IPCSIM_NATIVE_H

#include "../backend.h"
#include "ipcsim/job.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define NAT_DECL(ret, name, params, args) ret nat_##name params;
#define NAT_DECL_V(name, params, args) void nat_##name params;
PLAT_OPS(NAT_DECL, NAT_DECL_V)
#undef NAT_DECL
#undef NAT_DECL_V
/* plat_abort (core.c): msg on stderr, then the process ends with code. */
_Noreturn void nat_abort(int code, const char *msg);

/* Opaque storage of plat.h types is accessed through these structs. */
#define NAT_ALIAS __attribute__((may_alias))

/* ---- cores and threads (core.c) ---------------------------------------- */

struct nat_ctx;
struct nat_rx;

/* One per thread: its core and its thread slots. */
struct nat_thr {
    struct nat_ctx *core;
    void *slots[PLAT_SLOTS];
};

/* A wait queue: waiters sleep on `epoch` (a futex word) after counting
 * themselves in `waiters`, so a waker with nobody asleep pays one load. */
struct nat_wq {
    uint32_t epoch;
    uint32_t waiters;
};

/* A transfer of a core's DMA engine, stored in the caller's plat_dma. */
enum nat_xfer { NAT_COPY, NAT_SEND, NAT_PUSH };
struct nat_dma {
    uint64_t done;        /* 1 once complete (atomic) */
    struct nat_dma *next; /* in the engine's queue */
    const void *src;
    void *dst; /* NAT_COPY */
    size_t n;
    union {
        struct nat_ctx *to; /* NAT_COPY: core to ring, or NULL; NAT_SEND: the receiver */
        plat_hwq *q;        /* NAT_PUSH: the queues desc goes to after the copy */
    };
    void *desc; /* NAT_PUSH */
    /* NAT_COPY: ring bits; NAT_SEND: the channel; NAT_PUSH: the queue, then
     * (once done) the push's status */
    uint32_t arg;
    uint32_t kind; /* enum nat_xfer */
} NAT_ALIAS;

/* A core's DMA engine. Its queue holds the transfers that wait behind a send
 * to a channel with nothing posted; whoever runs the engine holds `lock`. */
struct nat_engine {
    pthread_mutex_t lock;
    struct nat_dma *head, *tail; /* under lock, oldest first */
    uint64_t queued;             /* transfers in the queue (atomic): 0 lets a copy run at once */
    /* The channel FIFO this engine waits in (under that channel's core's rx lock). */
    struct nat_engine *wait_next;
    bool waiting;
};

struct nat_ctx {
    int index;
    char *type;
    unsigned caps;
    double clock_mhz;
    void *slots[PLAT_SLOTS];
    size_t local_bytes; /* the local block's size; 0: unbounded (heap) */
    size_t local_used;  /* atomic */
    uint64_t rng;       /* splitmix64 state, advanced atomically */
    uint32_t bell;      /* pending doorbell bits */
    struct nat_wq bell_wq;
    struct nat_engine engine; /* dma.c */
    struct nat_rx *rx;        /* receive channels (rx.c) */
    struct nat_thr main;      /* the core's main (or adopted) thread */
    struct nat_ctx *all_next;
};

/* The calling thread, adopted as a new core if no run started it. */
struct nat_thr *nat_self(void);
/* Make the calling thread `t` of generation `gen` (nat_gen(): the current). */
void nat_bind(struct nat_thr *t, unsigned gen);
unsigned nat_gen(void);
/* Core by index, NULL if there is none. */
struct nat_ctx *nat_core_find(int index);
/* Core by index; stops the run naming `call` if there is none. */
struct nat_ctx *nat_core_at(int index, const char *call);
/* Replace the cores by a run's (n == 0: none, between runs), each with a
 * local block of its desc's local_bytes (0: unbounded) and its rx_channels
 * receive channels. Returns the new generation:
 * threads bound to an older one are adopted afresh. */
unsigned nat_cores_reset(const struct plat_core_desc *cores, int n, uint64_t seed);

/* Print "ipcsim: core N (type): <message>" and abort. */
void nat_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#define NAT_NEED(ptr, call)                                                                        \
    do {                                                                                           \
        if (!(ptr)) nat_die("%s: NULL object", call);                                              \
    } while (0)

/* ---- jobs: a run of processes (job.c) ----------------------------------- */

/* The launcher's side of the contract, and the limits: include/ipcsim/job.h. */
struct nat_job {
    char id[IPCSIM_JOB_ID_MAX + 1];
    int core, cores;
    int port; /* core i listens at its host:(port + i) */
};
/* The job this process is a core of (from the environment, read once), or
 * NULL when it is not in one. A bad variable ends the process (exit 2). */
const struct nat_job *nat_job(void);
/* The POSIX object of region `name` into out: names starting with '/' as
 * they are, others in a job "/ipcsim.<job>.<name>", else as they are.
 * PLAT_EINVAL if it does not fit or (in a job) name holds a '/'. */
int nat_job_shm_name(const char *name, char *out, size_t n);

/* ---- waiting (wait.c) --------------------------------------------------- */

/* How long a waiter spins before it sleeps: a little more than the ~23 us a
 * futex/condvar wake-up across cores costs on the 2-vCPU VM (docs/native.md). */
#define NAT_SPIN_NS 30000u
/* plat_poll64 sleepers recheck at least this often: plain C stores and other
 * processes write without waking anybody. */
#define NAT_POLL_RECHECK_NS 100000u
/* The same for words of a region other processes map (nat_shm_span): their
 * interface writes wake the sleepers in every process, so the recheck only
 * catches plain C stores and can be rare. */
#define NAT_SHM_RECHECK_NS 20000000u

/* The CPU's spin-wait hint, between two looks at a word another CPU writes. */
static inline void nat_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

uint64_t nat_now(void);
/* now + timeout, saturating at PLAT_FOREVER. */
uint64_t nat_deadline(uint64_t timeout_ns);

typedef bool (*nat_ready_fn)(const void *arg);
/* Wait until ready(arg): check, spin up to NAT_SPIN_NS, then sleep on w
 * (futex, process-shared if `shared`; waking at least every recheck_ns when
 * non-zero). PLAT_OK or PLAT_ETIMEDOUT. */
int nat_wait(struct nat_wq *w, bool shared, uint64_t recheck_ns, nat_ready_fn ready,
             const void *arg, uint64_t timeout_ns);
/* After making a waiter's condition true with plain or release stores. */
void nat_wake(struct nat_wq *w, bool shared);
/* The same after a seq_cst atomic (no fence needed). */
void nat_wake_sc(struct nat_wq *w, bool shared);
/* Advance the epoch and wake every sleeper (plat_event_notify). */
void nat_bump(struct nat_wq *w, bool shared);

/* Sleepers of plat_poll64 and plat_dma_wait; every interface write and
 * every DMA completion wakes it. */
/* Where plat_poll64 (and plat_dma_wait) sleep: one queue per hash bucket of
 * the polled address, so a write wakes (and pays a system call for) only the
 * sleepers that may poll it, not every sleeper of the process. */
#define NAT_POLL_BUCKETS 1024
struct nat_wq *nat_poll_wq(const void *addr);
/* nat_wait in addr's bucket (rechecking every NAT_POLL_RECHECK_NS). */
int nat_poll_wait(const void *addr, nat_ready_fn ready, const void *arg, uint64_t timeout_ns);
/* A region other processes map too (shm.c): its words' wait queues live in
 * the region's POSIX object, NAT_SHM_WQS of them `stride` bytes apart,
 * hashed by the word's offset from lo; their futexes are process-shared. */
#define NAT_SHM_WQS 64
struct nat_span {
    uintptr_t lo, hi;
    struct nat_wq *wq;
    size_t stride;
    struct nat_span *retired; /* shm.c's list of unmapped spans */
};
/* The span holding addr, or NULL (one load when no such region is mapped). */
const struct nat_span *nat_shm_span(const void *addr);

/* Wake the pollers of one word, or of any word in [p, p + n): the looks
 * themselves (wait.c), made by the inline calls below unless nobody can be
 * polling. */
void nat_poll_look(const void *p);
void nat_poll_look_range(const void *p, size_t n);

/* What the looks read first: the spans mapped (shm.c; 0, no address is in
 * one) and the threads inside nat_poll_wait outside spans (wait.c). */
extern int nat_spans;
extern uint32_t nat_poll_waiters;

/* Neither a span nor a poller: the looks would return at once. Every write
 * of plat.h makes one, so that answer is given inline, without the two
 * calls (a fifth of an SPSC channel's send + receive). The same loads the
 * looks make first, in the same order, at least as strong; TSan builds
 * make the looks (theirs are read-modify-writes). */
static inline bool nat_unwatched(void)
{
#ifdef __SANITIZE_THREAD__
    return false;
#else
    return !__atomic_load_n(&nat_spans, __ATOMIC_ACQUIRE) &&
           !__atomic_load_n(&nat_poll_waiters, __ATOMIC_SEQ_CST);
#endif
}

static inline void nat_poll_wake(const void *p)
{
    if (!nat_unwatched()) nat_poll_look(p);
}

static inline void nat_poll_wake_range(const void *p, size_t n)
{
    if (!nat_unwatched()) nat_poll_look_range(p, n);
}

/* ---- DMA engine and receive channels (dma.c, rx.c) ------------------------ */

/* Receive channels of an adopted thread's core (it has every capability). */
#define NAT_ADOPTED_RX_CHANNELS 64u

/* The record inside d; stops the run naming `call` if d is NULL. */
struct nat_dma *nat_dma_rec(plat_dma *d, const char *call);
void nat_engine_init(struct nat_engine *e);
/* Queue r (fields set, done 0) on c's engine and run the engine. */
void nat_engine_push(struct nat_ctx *c, struct nat_dma *r);
/* Run e: complete its transfers in order until it is empty or its oldest is
 * a send to a channel with nothing posted. */
void nat_engine_run(struct nat_engine *e);
/* Set bits in c's doorbell mask and wake its waiters. */
void nat_ring(struct nat_ctx *c, uint32_t bits);

/* Give c `n` receive channels (nothing posted). */
void nat_rx_init(struct nat_ctx *c, unsigned n);
/* For the engine e (its lock held) whose oldest transfer is the send r: if
 * r's channel has a buffer posted and no engine waits for it before e, fill
 * it, ring the receiver and return true; else queue e on the channel (the
 * next plat_rx_post runs it) and return false. */
bool nat_rx_deliver(struct nat_engine *e, const struct nat_dma *r);

/* ---- streams (stream.c, poller.c) ---------------------------------------- */

struct plat_stream {
    int fd;
    bool listener;
};

/* ---- memory (mem.c) ------------------------------------------------------ */

/* The copy of plat_copy and DMA: memcpy (word-atomic under TSan). */
void nat_move(void *dst, const void *src, size_t n);

/* Zeroed memory aligned to max(align, 16); NULL if align is not a power of
 * two or memory is out. Free with free(). */
void *nat_zalloc(size_t size, size_t align);

/* ---- devices (dev.c) ----------------------------------------------------- */

enum nat_dev_type { NAT_HWQ, NAT_MESH, NAT_ACCEL, NAT_DEV_TYPES };

/* The shared device `name` of `type`, created on first open from the run's
 * platform file (or defaults). NULL with *status = PLAT_ENOENT when the name
 * is a device of another type. */
void *nat_dev_open(const char *name, enum nat_dev_type type, int *status);
/* PLAT_OK if `name` may be a device of `type`, else PLAT_ENOENT. */
int nat_dev_check(const char *name, enum nat_dev_type type);
/* A whole-number parameter `key` of a device's section (NULL: none) in
 * [min, max], else dflt. PLAT_OK or PLAT_EINVAL. */
int nat_dev_param(const struct plat_dev_desc *dev, const char *key, long dflt, long min, long max,
                  long *out);
/* Run boundaries: a new run gets fresh devices (old handles stay valid). */
void nat_devices_reset(const struct plat_dev_desc *devs, int n);
void nat_devices_end(void);

/* Constructors dev.c calls under its lock; `dev` is the platform section or
 * NULL. NULL with *status on failure. */
void *nat_hwq_new(const struct plat_dev_desc *dev, int *status);
void *nat_mesh_new(const struct plat_dev_desc *dev, int *status);
void *nat_accel_new(const char *name, int *status);

#endif
