/*
 * ipcsim/plat.h -- the platform interface.
 *
 * The only thing the IPC libraries (mcapi_ref, xmcapi, mpi_lite, em, coro) may
 * call. Two backends implement it:
 *
 *   native  POSIX threads, clocks, shared memory and sockets: real execution.
 *   sim     SystemC/TLM-2.0 models: every call below is a TLM transaction on the
 *           calling core's initiator socket or a timed wait, so simulated time
 *           advances only inside these calls. Host code between calls takes no
 *           simulated time unless charged with plat_work().
 *
 * A library never learns which backend it runs on. Anything a library needs to
 * know about the hardware it asks here (core type, capabilities, costs).
 *
 * CORES AND THREADS
 *   A run has plat_cores() cores, numbered from 0. Each core runs an entry
 *   function in its main thread; more threads may be spawned on a core and share
 *   it (in simulation their charged work is serialised on the core, and a switch
 *   between them costs the core's "switch" cost). Per-core and per-thread state
 *   lives in slots (plat_core_slot, plat_thread_slot): never in globals or
 *   thread-locals, because in simulation all cores share one host thread.
 *
 *   Natively, a thread that was not started by a run (e.g. a plain program's
 *   main thread) becomes a core of its own the first time it calls here, with
 *   every capability (plat_load64, plat_store64 and plat_copy act on their
 *   address alone: they neither make the thread a core nor need it to be one).
 *
 * JOBS (native)
 *   A run may also span processes: a launcher (mpirun) starts each process
 *   with IPCSIM_JOB=<name unique on the host, 1-64 of A-Z a-z 0-9 _ ->,
 *   IPCSIM_CORE=<i> and IPCSIM_CORES=<n> (1..4096). Such a process is core i
 *   of n: its threads that no run started (its main thread first) are threads
 *   of core i, plat_core() answers i and plat_cores() n, and every named
 *   shared region (plat_shared_map) is the job's: POSIX shared memory
 *   "/ipcsim.<job>.<name>" that the job's other processes map too (a name
 *   holding '/' is refused there, PLAT_EINVAL). Atomics, plat_copy and
 *   plat_poll64 on those regions work across the processes (a write wakes a
 *   poller sleeping in another process); mutexes and events there need
 *   PLAT_SHARED_PROCESS. The other cores' doorbells, DMA channels, devices
 *   and plat_shared_alloc memory stay in their own processes. A bad or
 *   missing variable (with IPCSIM_JOB set) ends the process at its first
 *   platform call: "ipcsim: IPCSIM_CORE=5: not a core of the job (0..1)",
 *   exit status 2. Without IPCSIM_JOB nothing changes.
 *   Its processes may sit on several hosts: IPCSIM_HOSTS=<h0,h1,...> names
 *   each core's host (one per core; cores with the same name are one node,
 *   plat_core_node) and IPCSIM_PORT=<P> is where their streams meet: core i
 *   listens at hi:(P + i) (plat_core_addr). Unset: every core on this host,
 *   at 127.0.0.1, P from the job's name. A named region is then the node's
 *   alone in effect: map it under a name of the node's own (the netns hosts
 *   of a test share /dev/shm, real hosts do not).
 *
 * TIME
 *   Nanoseconds as uint64_t. Timeouts are relative; PLAT_FOREVER never expires,
 *   0 means "do not wait".
 *
 * MEMORY
 *   All memory is addressed with ordinary pointers. The sim backend decodes a
 *   pointer to the memory block that holds it (a core's local memory, the shared
 *   memory, or -- for anything else, like the stack or malloc -- the calling
 *   core's private memory) and routes timed accesses through the interconnect.
 *   Plain C loads and stores are allowed everywhere but take no simulated time
 *   and wake nobody; use plat_copy/plat_load64/plat_store64/atomics where the
 *   cost matters or another core polls.
 *
 * ERRORS
 *   Calls that can fail return a plat_status (0 or negative). Misuse that no
 *   correct program does -- CAS on a core without CAS, a bad core index, a NULL
 *   object -- stops the run with a message naming the core and the call.
 */
#ifndef IPCSIM_PLAT_H
#define IPCSIM_PLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define PLAT_ALIGN16 alignas(16)
extern "C" {
#else
#define PLAT_ALIGN16 _Alignas(16)
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

enum plat_status {
    PLAT_OK = 0,
    PLAT_ETIMEDOUT = -1,    /* the timeout expired first */
    PLAT_EAGAIN = -2,       /* not ready and asked not to wait */
    PLAT_EINVAL = -3,       /* bad argument (size, address, index) */
    PLAT_ENOTSUP = -4,      /* this core or platform lacks the feature */
    PLAT_ENOMEM = -5,       /* memory block or buffer exhausted */
    PLAT_ENOENT = -6,       /* no such device, name or address */
    PLAT_ECLOSED = -7,      /* the other end closed */
    PLAT_ECONNREFUSED = -8, /* nobody listens at that address */
    PLAT_EADDRINUSE = -9,   /* somebody already listens there */
    PLAT_EIO = -10,         /* the transport failed (connection reset, ...) */
    PLAT_EBUSY = -11,       /* the resource is taken (a posted buffer, ...) */
    PLAT_EOWNERDEAD = -12,  /* taken, but its previous holder died holding it */
};

/* Short English text for a status ("timed out", ...). Never NULL. */
const char *plat_strerror(int status);

#define PLAT_FOREVER UINT64_MAX

/* ------------------------------------------------------------------------ */
/* Who am I                                                                  */
/* ------------------------------------------------------------------------ */

/* Capability bits of a core (plat_core_caps). */
enum plat_cap {
    PLAT_CAP_CAS = 1u << 0,       /* compare-and-swap (plat_cas64) */
    PLAT_CAP_FETCH_ADD = 1u << 1, /* atomic add (plat_fetch_add64) */
    PLAT_CAP_LOCAL_MEM = 1u << 2, /* a local scratchpad (plat_local_alloc) */
    PLAT_CAP_DMA = 1u << 3,       /* a DMA engine (plat_dma_start) */
    PLAT_CAP_THREADS = 1u << 4,   /* more than one thread (plat_thread_spawn) */
};

int plat_core(void);  /* index of the calling core, 0 .. plat_cores()-1 */
int plat_cores(void); /* number of cores in the run */

/* Core type name from the platform file ("generic", "nios2", "cpe", ...). */
const char *plat_core_type(int core);
unsigned plat_core_caps(int core);    /* PLAT_CAP_* bits */
double plat_core_clock_mhz(int core); /* 0 when unknown (native adopted threads) */

/* Where a core lives, for a library that picks a transport per pair of
 * cores. Cores of one node share named regions (plat_shared_map); cores of
 * different nodes meet only by streams. plat_core_node answers the node
 * (0..); plat_core_addr writes the stream address ("host:port") at which
 * core listens for its peers and they connect to it: 0, PLAT_EINVAL (no
 * such core) or PLAT_ENOMEM (len too small).
 *   native  a threaded run: one node, core i at 127.0.0.1:(P + i), P from
 *           IPCSIM_PORT or else from the process id. A job (JOBS above):
 *           the launcher's hosts and port (include/ipcsim/job.h).
 *   sim     one node (every core reaches every region); core i at
 *           "coreI:(10000 + i)" (the network model keys listeners by port). */
int plat_core_node(int core);
int plat_core_addr(int core, char *buf, size_t len);

/* Per-core and per-thread state. Each library owns one slot; the slot is a
 * void * initialised to NULL. plat_core_slot is shared by all threads of the
 * calling core; plat_thread_slot belongs to the calling thread alone. */
enum plat_slot {
    PLAT_SLOT_MCAPI,
    PLAT_SLOT_XMCAPI,
    PLAT_SLOT_MPI,
    PLAT_SLOT_EM,
    PLAT_SLOT_CORO,
    PLAT_SLOT_APP,
    PLAT_SLOT_TEST,
    PLAT_SLOTS
};
void **plat_core_slot(enum plat_slot slot);
void **plat_thread_slot(enum plat_slot slot);

/* Deterministic pseudo-random numbers: one stream per core, seeded from the
 * run's seed and the core index (the same seed gives the same sequence). */
uint64_t plat_random(void);

/* ------------------------------------------------------------------------ */
/* Time and work                                                             */
/* ------------------------------------------------------------------------ */

uint64_t plat_now_ns(void); /* sim: simulated time; native: CLOCK_MONOTONIC */
void plat_sleep_ns(uint64_t ns);

/* The cost, in cycles of the calling core, of the named entry of the core's
 * cost table in the platform file (key core.costs.<name>). Native: 0.
 * Sim: an entry missing from the table stops the run naming the key. */
uint64_t plat_cost(const char *name);

/* Charge computation to the calling core: sim waits cycles / clock while the
 * core is busy; native returns at once (the real work took real time). */
void plat_work_cycles(uint64_t cycles);
void plat_work(const char *cost_name); /* plat_work_cycles(plat_cost(name)) */

/* Set the calling core's mark, a one-bit signal of the program's own (1:
 * on): sim traces it as top.coreN.mark in the run's VCD (ipcsim run
 * --trace), e.g. while a receive runs; native: nothing. No time is charged. */
void plat_mark(int on);

/* ------------------------------------------------------------------------ */
/* Threads on a core                                                         */
/* ------------------------------------------------------------------------ */

typedef struct plat_thread plat_thread;

/* Start fn(arg) in a new thread on the calling core. NULL if the core cannot
 * (no PLAT_CAP_THREADS or out of resources). */
plat_thread *plat_thread_spawn(void (*fn)(void *), void *arg, const char *name);
/* The same on another core of the run (core index), which must have
 * PLAT_CAP_THREADS: a host's second core running a helper thread (XMCAPI's
 * communicator on a dual-core host). The thread has that core's identity
 * (plat_core, core slots, costs); what fn shares with its creator is the
 * memory arg points to, so both cores must be able to reach it. */
plat_thread *plat_thread_spawn_on(int core, void (*fn)(void *), void *arg, const char *name);
void plat_thread_join(plat_thread *t); /* waits for fn to return, frees t */
void plat_yield(void);                 /* let other threads of this core run */

/* ------------------------------------------------------------------------ */
/* Mutexes and events                                                        */
/* ------------------------------------------------------------------------ */

/* Both are plain structs the caller places anywhere (a struct, shared memory)
 * and initialises; no allocation. With PLAT_SHARED_PROCESS the object works
 * between processes when it lives in a region from plat_shared_map("/...").
 *
 * A mutex initialised with PLAT_MUTEX_ROBUST survives the death of its
 * holder: a process that ends (killed, crashed, exited) while holding it
 * does not leave it held. The next plat_mutex_lock takes it and returns
 * PLAT_EOWNERDEAD instead of PLAT_OK: the caller holds the mutex, which is
 * usable again, but what it guards may be half-updated, so the caller
 * repairs that before unlocking (if the caller dies too, the next locker
 * gets PLAT_EOWNERDEAD again). plat_mutex_trylock takes such a mutex too
 * and returns true without saying so: use plat_mutex_lock where a death
 * matters. Without the flag a mutex whose holder died stays held.
 *   native  a PTHREAD_MUTEX_ROBUST mutex (pthread_mutex_consistent on
 *           EOWNERDEAD); it is per thread, so a thread that ends holding
 *           it counts as a dead holder too.
 *   sim     no core dies: plat_mutex_lock always returns PLAT_OK.
 */
#define PLAT_SHARED_PROCESS 1u
#define PLAT_MUTEX_ROBUST 2u

typedef struct plat_mutex {
    PLAT_ALIGN16 unsigned char opaque[64];
} plat_mutex;
void plat_mutex_init(plat_mutex *m, unsigned flags);
void plat_mutex_destroy(plat_mutex *m);
/* PLAT_OK, or PLAT_EOWNERDEAD (PLAT_MUTEX_ROBUST only; above). */
int plat_mutex_lock(plat_mutex *m);
bool plat_mutex_trylock(plat_mutex *m);
void plat_mutex_unlock(plat_mutex *m);

/* Processes, for data shared between them that outlives one (a named
 * region's records of who uses it). plat_proc_token names the calling
 * process: never 0, equal for all its cores and threads, and never given
 * to another process while the host runs (natively the process id with
 * its start time, so a reused id does not match). plat_proc_alive is false
 * once that process has ended (natively also while it is a zombie), true
 * for a running one; 0 is never alive.
 *   sim     the run is one process that never dies: the token is 1 and
 *           alive(1) is true. */
uint64_t plat_proc_token(void);
bool plat_proc_alive(uint64_t token);

/* An event is an event count: a 32-bit epoch that plat_event_notify advances
 * and every waiter sees. The race-free way to sleep until a condition holds:
 *
 *     for (;;) {
 *         uint32_t e = plat_event_epoch(&ev);
 *         if (condition()) break;
 *         if (plat_event_wait(&ev, e, timeout) == PLAT_ETIMEDOUT) ...;
 *     }
 *
 * and on the other side: make the condition true, then plat_event_notify(&ev).
 */
typedef struct plat_event {
    PLAT_ALIGN16 unsigned char opaque[128];
} plat_event;
void plat_event_init(plat_event *ev, unsigned flags);
void plat_event_destroy(plat_event *ev);
uint32_t plat_event_epoch(plat_event *ev);
/* Returns PLAT_OK once the epoch differs from `epoch` (at once if it already
 * does), PLAT_ETIMEDOUT otherwise. */
int plat_event_wait(plat_event *ev, uint32_t epoch, uint64_t timeout_ns);
void plat_event_notify(plat_event *ev); /* advance the epoch, wake all waiters */

/* ------------------------------------------------------------------------ */
/* Atomics and timed accesses                                                */
/* ------------------------------------------------------------------------ */

/* Sequentially consistent. In simulation each is one transaction to the memory
 * block that holds p, and a write wakes cores polling that address. */
uint64_t plat_load64(const uint64_t *p);
void plat_store64(uint64_t *p, uint64_t v);
/* A release store, for publishing: a core that loads v also sees every
 * store and copy the caller made before it. Unlike plat_store64 it is not
 * ordered before the caller's later loads (natively no store-load fence,
 * which stalls the caller when another core reads the line), so it cannot
 * stand in a hand-shake where each side stores, then loads what the other
 * stored; and natively a plat_poll64 of p that is falling asleep as it is
 * made may see it only at the poller's periodic recheck, as with plat_copy.
 * In simulation the same timed write as plat_store64. */
void plat_store64_release(uint64_t *p, uint64_t v);
/* Needs PLAT_CAP_CAS. On failure *expected receives the current value. */
bool plat_cas64(uint64_t *p, uint64_t *expected, uint64_t desired);
/* Needs PLAT_CAP_FETCH_ADD. Returns the old value (delta may "be negative",
 * i.e. wrap around, as on add-only hardware). */
uint64_t plat_fetch_add64(uint64_t *p, uint64_t delta);

/* Wait until *p != old (a polled load). Returns PLAT_OK or PLAT_ETIMEDOUT. In
 * simulation the poller is woken by interface writes to p (plat_store64,
 * atomics, plat_copy, DMA) and then pays one load. */
int plat_poll64(const uint64_t *p, uint64_t old, uint64_t timeout_ns);

/* Copy n bytes with the calling core's loads and stores (timed by where src
 * and dst live; wakes pollers of dst). dst and src must not overlap. Like a
 * DMA transfer, a copy is not word-atomic: a core polling a word of dst sees
 * it change, but one that needs all of dst should wait for a plat_store64
 * made after the copy. */
void plat_copy(void *dst, const void *src, size_t n);

/* The calling core reads n bytes at p with its own loads, in address order,
 * from memory its data cache does not hold: a kernel streaming an array
 * larger than the cache. Only the time is charged; the bytes stay where they
 * are (host C reads them). sim: through the core's data-cache model where
 * the platform has one (keystone_c6678's L1D: every line misses and the
 * core waits for each fill), else one timed read of n bytes, as plat_copy's
 * loads; native: nothing. */
void plat_touch(const void *p, size_t n);

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */
/* ------------------------------------------------------------------------ */

/* The calling core's local memory (scratchpad, LDM, on-chip RAM). NULL when
 * the block is full or the core has none (no PLAT_CAP_LOCAL_MEM). Zeroed. */
void *plat_local_alloc(size_t size, size_t align);
void plat_local_free(void *p);

/* Memory every core of the run can reach (DDR, MSMC, main memory). Zeroed. */
void *plat_shared_alloc(size_t size, size_t align);
void plat_shared_free(void *p);

/* Memory every core of the run can reach, in the shared memory called
 * `memory`: a platform may have more than one (an on-chip SRAM beside the
 * DRAM, as KeyStone's MSMC SRAM and DDR3). Freed with plat_shared_free.
 * Zeroed. Every plat_* call that takes shared memory (plat_shared_home,
 * plat_copy, DMA, atomics) takes it. Returns NULL with *status set on
 * failure: PLAT_ENOENT for a name the platform has no memory of,
 * PLAT_EINVAL for a NULL name or an align that is not a power of two,
 * PLAT_ENOMEM when the memory is full. status may be NULL.
 *   native  one host memory: any name is plat_shared_alloc.
 *   sim     the memories the platform kind names; every kind's default
 *           shared memory (plat_shared_alloc's, plat_shared_map's) is
 *           called "shared". Bookkeeping: no simulated time. */
void *plat_mem_alloc(const char *memory, size_t size, size_t align, int *status);

/* A named shared region: every caller with the same name gets the same bytes;
 * the first creates it zeroed (*created = true). A name starting with '/'
 * natively also reaches other processes on the host (POSIX shared memory),
 * and in a job (JOBS above) every name reaches the job's processes.
 * Returns NULL with *status set on failure (PLAT_EINVAL: size differs from the
 * existing region's). created and status may be NULL. */
void *plat_shared_map(const char *name, size_t size, bool *created, int *status);
/* Whether plat_shared_map(name) reaches other processes, so that mutexes
 * and events placed in it need PLAT_SHARED_PROCESS: natively a name starting
 * with '/' and, in a job, every name; in the simulator never (one process). */
bool plat_shared_crosses(const char *name);
void plat_shared_unmap(void *p); /* the last unmap in the run frees it */
/* A POSIX region (natively "/..." or a job's) outlives a process that dies
 * with it mapped, but not all of them: the last live process's unmap
 * removes it (from /dev/shm too), and a region whose mappers have all died
 * without unmapping (a crashed run) is not joined by the next mapper, which
 * removes it and creates a fresh one (*created = true, zeroed). Natively a
 * mapping process holds a shared record lock on the object, which the
 * kernel drops when the process ends; a fork()ed child does not inherit it
 * (map in the child itself). */

/* Place [p, p+n) of shared memory (a named region or plat_shared_alloc memory) with core `core`:
 * on a platform whose memory is split among boards or groups, each with its own DRAM, the bytes
 * live in that core's memory, so its own accesses stay local and the others' cross the
 * interconnect. A placement hint: it moves no data and changes no value; a platform with one
 * shared memory only records it. A later call for overlapping bytes wins. PLAT_OK; PLAT_EINVAL
 * for a bad core, n == 0 or p not in shared memory (sim; natively any p but NULL).
 *   native  nothing to place (no-op, PLAT_OK after the argument checks it can make).
 *   sim     [p, p+n) must lie in one allocation (a region or a plat_shared_alloc block); kept
 *           by the kernel (Kernel::home_of) until the memory is freed or unmapped. Takes no
 *           simulated time (bookkeeping, like the allocators). */
int plat_shared_home(const void *p, size_t n, int core);

/* ------------------------------------------------------------------------ */
/* DMA and doorbells                                                         */
/* ------------------------------------------------------------------------ */

/* A DMA transfer's completion record, owned by the caller (no allocation on
 * the data path). Do not touch it between plat_dma_start and completion. */
typedef struct plat_dma {
    PLAT_ALIGN16 unsigned char opaque[64];
} plat_dma;

/* Ring `ring_core` with doorbell `ring_bits` when the transfer completes. */
#define PLAT_DMA_RING 1u

/* Queue a copy of n bytes from src to dst on the calling core's DMA engine
 * (transfers of one engine complete in order; keystone_c6678's packet DMA,
 * one engine of several channels for every core, completes each when it
 * ends). Returns PLAT_OK, or
 * PLAT_ENOTSUP without PLAT_CAP_DMA. With PLAT_DMA_RING the doorbell rings
 * after the last byte is written, at the destination. */
int plat_dma_start(plat_dma *d, void *dst, const void *src, size_t n, unsigned flags, int ring_core,
                   uint32_t ring_bits);
/* plat_dma_start_push's d may instead complete with PLAT_ENOMEM. */
int plat_dma_test(plat_dma *d);                      /* PLAT_OK or PLAT_EAGAIN */
int plat_dma_wait(plat_dma *d, uint64_t timeout_ns); /* PLAT_OK or PLAT_ETIMEDOUT */

typedef struct plat_hwq plat_hwq;
/* A transfer that completes by pushing a descriptor into a hardware queue,
 * as a packet DMA completes by pushing its descriptor to a queue (KeyStone's
 * Multicore Navigator, SPRUGR9H 2.5). Queued as plat_dma_start on the calling
 * core's engine, in order with its other transfers; after the last byte is
 * written, desc is pushed to `queue` of q, so a core that pops desc finds
 * the bytes; d completes after the push. Returns PLAT_OK, PLAT_ENOTSUP
 * without PLAT_CAP_DMA (or on an engine that cannot push, below),
 * PLAT_EINVAL for a NULL q or desc or a bad queue.
 * A queue at its depth refuses the push: the engine does not retry; the data
 * is written, desc is not in the queue, and d completes with PLAT_ENOMEM
 * (what plat_dma_wait and plat_dma_test return).
 *   native  the push follows the copy in the thread that runs the engine
 *           (the caller, or the poster of a receive buffer it waited for).
 *   sim     the engine pushes at the queue manager, when the copy completes
 *           plus the device's push cost (push_latency_ns): no crossing. The
 *           generic crossbar engine can (ideal, sw26010, mpc8640_srio); the
 *           FUNCAPI board's engines cannot (PLAT_ENOTSUP). */
int plat_dma_start_push(plat_dma *d, void *dst, const void *src, size_t n, plat_hwq *q,
                        unsigned queue, void *desc);

/* Receive channels: DMA addressed to a channel of a core instead of to a
 * pointer. The receiving core posts, per channel, the buffer the next
 * transfer to that channel fills; a sender names only (core, channel) and
 * needs no address in the receiver's memory. This is how DMA engines with
 * receive channels work (the HIBI PE DMA, RapidIO inbound message units,
 * KeyStone packet DMA). A core with PLAT_CAP_DMA has plat_rx_channels()
 * channels, each holding at most one posted buffer. */
unsigned plat_rx_channels(void);
/* Post buf (cap bytes) on channel chan of the calling core: the next
 * transfer to (this core, chan) fills it, then, if ring_bits != 0, rings this
 * core's doorbell with ring_bits. PLAT_EBUSY if chan holds a buffer not yet
 * taken; PLAT_EINVAL for a bad channel; PLAT_ENOTSUP without PLAT_CAP_DMA
 * or when plat_rx_channels() is 0 (an engine without receive channels, as
 * KeyStone's PKTDMA here); the same for plat_rx_take/wait/cancel. */
int plat_rx_post(unsigned chan, void *buf, size_t cap, uint32_t ring_bits);
/* Take chan's filled buffer: PLAT_OK with *len = the transfer's length (if
 * that exceeds the buffer's cap, only cap bytes were written), and chan is
 * free for the next post. PLAT_EAGAIN if nothing has arrived (the buffer
 * stays posted), PLAT_EINVAL if nothing is posted. */
int plat_rx_take(unsigned chan, size_t *len);
/* plat_rx_take, waiting up to timeout_ns for the transfer: PLAT_ETIMEDOUT. */
int plat_rx_wait(unsigned chan, size_t *len, uint64_t timeout_ns);
/* Withdraw a buffer no transfer has filled yet: PLAT_OK; PLAT_EAGAIN if one
 * has (take it instead); PLAT_EINVAL if nothing is posted. */
int plat_rx_cancel(unsigned chan);
/* Queue a transfer of n bytes from src to channel chan of core on the calling
 * core's DMA engine, in order with its plat_dma_start transfers. The engine
 * waits until that channel has a buffer posted (holding back the engine's
 * later transfers, as hardware does); d completes when the data is written
 * at the receiver. PLAT_ENOTSUP without PLAT_CAP_DMA or when the calling
 * core has no receive channels itself, PLAT_EINVAL for a bad core or
 * channel. */
int plat_dma_send(plat_dma *d, int core, unsigned chan, const void *src, size_t n);
/* Whether the calling core's DMA engine can itself read or write the n bytes
 * at p. Many cannot reach every memory the core can: a HIBI PE DMA masters
 * only its PE's dual-port RAM (the plat_local_alloc memory), so software
 * stages data from anywhere else through a buffer there, as FUNCAPI's driver
 * does with its TX buffer. 0 without PLAT_CAP_DMA. Native: any memory. */
bool plat_dma_reach(const void *p, size_t n);

/* Doorbells: 32 interrupt bits per core. Ringing sets bits in the target
 * core's pending mask (a small transaction to it); waiting takes them. */
void plat_doorbell_ring(int core, uint32_t bits);
/* Wait until a bit of `mask` is pending, clear and return the pending bits of
 * mask; 0 on timeout. */
uint32_t plat_doorbell_wait(uint32_t mask, uint64_t timeout_ns);

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Devices are opened by name. In simulation the name must be a device of the
 * platform file (section `devices`) of the right type, or the call returns
 * NULL with PLAT_ENOENT. Natively a name not in the platform file gets a
 * software device with default parameters on first open; every opener of the
 * same name in the process shares it.
 */

/* Hardware queues (a queue manager such as KeyStone QMSS): numbered FIFO
 * queues of descriptor pointers (plat_hwq is declared with the DMA calls). */
plat_hwq *plat_hwq_open(const char *name, int *status);
unsigned plat_hwq_queues(plat_hwq *q); /* number of queues */
/* PLAT_ENOMEM when the queue is at its depth. */
int plat_hwq_push(plat_hwq *q, unsigned queue, void *desc);
void *plat_hwq_pop(plat_hwq *q, unsigned queue); /* NULL when empty */
unsigned plat_hwq_count(plat_hwq *q, unsigned queue);
/* Wait until the queue is non-empty: PLAT_OK or PLAT_ETIMEDOUT. */
int plat_hwq_wait(plat_hwq *q, unsigned queue, uint64_t timeout_ns);

/* Register mesh (SW26010 row/column register communication): cores at
 * (row, col) positions; fixed-size words (plat_mesh_word bytes) go to a core
 * in the same row or column and land in its row or column receive buffer. */
typedef struct plat_mesh plat_mesh;
enum plat_mesh_dir { PLAT_MESH_ROW, PLAT_MESH_COL };
#define PLAT_MESH_BCAST (-1) /* dest: every other core of the row/column */
plat_mesh *plat_mesh_open(const char *name, int *status);
size_t plat_mesh_word(plat_mesh *m); /* bytes per transfer (32 on SW26010) */
void plat_mesh_dims(plat_mesh *m, int *rows, int *cols);
/* Position of a core in the mesh; PLAT_ENOENT if it is not on it. */
int plat_mesh_pos(plat_mesh *m, int core, int *row, int *col);
/* Send one word along the calling core's row (dest = column index) or column
 * (dest = row index); blocks while the receive buffer is full. */
int plat_mesh_put(plat_mesh *m, enum plat_mesh_dir dir, int dest, const void *word);
/* Take one word from the calling core's row or column receive buffer. */
int plat_mesh_get(plat_mesh *m, enum plat_mesh_dir dir, void *word, uint64_t timeout_ns);

/* Fixed-function accelerators (an MCAPI virtual node, e.g. a DCT block). The
 * function that computes the result is bound by software (natively it *is*
 * the hardware; in simulation the model adds the block's timing around it). */
typedef struct plat_accel plat_accel;
typedef int (*plat_accel_fn)(void *ctx, const void *in, size_t in_len, void *out, size_t out_len);
int plat_accel_bind(const char *name, plat_accel_fn fn, void *ctx);
plat_accel *plat_accel_open(const char *name, int *status);
/* Run one job: in -> accelerator -> out. Returns fn's result (>= 0) or a
 * status (PLAT_ENOENT: nothing bound). */
int plat_accel_run(plat_accel *a, const void *in, size_t in_len, void *out, size_t out_len);

/* Byte streams (TCP sockets natively; a modelled network in simulation).
 * Addresses are "host:port"; natively host is an IP address or name. */
typedef struct plat_stream plat_stream;
plat_stream *plat_stream_listen(const char *addr, int *status);
plat_stream *plat_stream_accept(plat_stream *listener, uint64_t timeout_ns, int *status);
plat_stream *plat_stream_connect(const char *addr, uint64_t timeout_ns, int *status);
/* A connected pair inside the run (pipe()/socketpair() natively). */
int plat_stream_pair(plat_stream *ends[2]);
/* Bytes moved (> 0), or a status: PLAT_EAGAIN when timeout_ns == 0 and
 * nothing could move, PLAT_ETIMEDOUT, PLAT_ECLOSED (peer gone), PLAT_EIO.
 * recv returns 0 on an orderly close by the peer. send may be partial. */
long plat_stream_send(plat_stream *s, const void *buf, size_t n, uint64_t timeout_ns);
long plat_stream_recv(plat_stream *s, void *buf, size_t n, uint64_t timeout_ns);
void plat_stream_close(plat_stream *s);

/* Readiness of many streams at once (epoll natively). */
typedef struct plat_poller plat_poller;
enum plat_poll_bits { PLAT_POLL_IN = 1, PLAT_POLL_OUT = 2, PLAT_POLL_ERR = 4 };
struct plat_poll_event {
    void *user;    /* as given to plat_poller_add; NULL for a wake-up */
    unsigned bits; /* PLAT_POLL_* */
};
plat_poller *plat_poller_new(void);
void plat_poller_free(plat_poller *p);
int plat_poller_add(plat_poller *p, plat_stream *s, unsigned bits, void *user);
int plat_poller_mod(plat_poller *p, plat_stream *s, unsigned bits, void *user);
int plat_poller_del(plat_poller *p, plat_stream *s);
/* Make a concurrent or later plat_poller_wait return (with an event whose
 * user is NULL): the cheap alternative to a notification pipe. */
void plat_poller_wake(plat_poller *p);
/* Fill up to max events; returns how many (0 on timeout) or a status. */
int plat_poller_wait(plat_poller *p, struct plat_poll_event *ev, int max, uint64_t timeout_ns);

/* ------------------------------------------------------------------------ */
/* Fatal errors                                                              */
/* ------------------------------------------------------------------------ */

/* A fatal error of a library or program (MPI_Abort, an MPI error under
 * MPI_ERRORS_ARE_FATAL): never returns. msg is one line (no newline needed).
 *   native  writes msg to stderr, flushes stdio and ends the process with
 *           exit status code (code modulo 256; 1 when that is 0, so it never
 *           reads as success). In a job (JOBS above) the process is one core:
 *           mpirun reports it and stops the job's other processes. In a
 *           threaded run (plat_native_run) every core lives in the process,
 *           so all of them end.
 *   sim     the run fails with "ipcsim: core N (type): msg (plat_abort, exit
 *           code C)": plat_run returns it, ipcsim exits non-zero, the other
 *           cores stop where they are; nothing hangs. */
#ifdef __cplusplus
[[noreturn]] void plat_abort(int code, const char *msg);
#else
_Noreturn void plat_abort(int code, const char *msg);
#endif

#ifdef __cplusplus
}
#endif
#endif
