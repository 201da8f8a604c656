/*
 * coro.h -- coroutines, executors and channels (paper 004: coroutine
 * communication on the Sunway SW26010).
 *
 * RUNTIME
 *   A runtime is a set of executors, one per core (or per thread) that
 *   hosts one, and a scheduler that places new coroutines on them. On the
 *   SW26010 the scheduler runs on the MPE and the 64 executors on the CPEs.
 *
 *     coro_rt *rt = coro_rt_new("demo", cores, 64, NULL);   scheduler core
 *     coro_exec_run("demo");                                 each executor core
 *     coro_spawn(rt, fn, arg);                               scheduler core
 *     coro_rt_free(rt);   waits for every coroutine, then stops the executors
 *
 *   Each executor has a runnable queue and a blocked queue. A coroutine
 *   stays on the executor it was placed on; a coroutine (or thread) on
 *   another core that wakes it posts it to that executor's inbox.
 *
 * COROUTINES
 *   Cooperative: one runs at a time on its executor until it yields,
 *   sleeps, blocks on a channel, or returns. The switch is our own (a few
 *   instructions on x86-64 and aarch64; elsewhere a portable fallback that
 *   hands over between threads). In simulation each switch is charged the
 *   core's cost `coro_switch`.
 *
 * CHANNELS
 *   A ring buffer of fixed-size elements in shared memory, with the paper's
 *   counters read/to_read/write/to_write and two wait lists. Any number of
 *   producers and consumers, on any cores, in coroutines or plain threads.
 *   Producers (and consumers) take turns through write/to_write (read/
 *   to_read) with compare-and-swap where the calling core has it (the
 *   paper's Algorithm 2) and with add-only atomics and rollback where it
 *   has not (Algorithm 3); coro_chan_stats counts the rollbacks. A channel
 *   made with coro_chan_new_spsc (one producer, one consumer) skips the
 *   turns: no CAS or add, two timed stores and a load or two per operation.
 *   A coroutine that finds the channel full (empty) is swapped out onto its
 *   wait list, and the next consumer (producer) wakes it: the paper's
 *   mutual wake-up. A plain thread waits by polling instead.
 *   Close: sends fail at once with CORO_ECLOSED; receives drain what was
 *   sent and then fail with CORO_ECLOSED. No element is lost or duplicated.
 *
 * REGISTER COMMUNICATION
 *   coro_reg_*: 32-byte words along a row or column of a register mesh
 *   (plat_mesh), row/column broadcast, and routing through a relay core for
 *   cores in another row and column.
 *
 * ERRORS
 *   Functions that can fail return 0 or a negative CORO_E* code. Misuse (a
 *   NULL channel, coro_yield outside a coroutine) stops the run.
 */
#ifndef IPCSIM_CORO_H
#define IPCSIM_CORO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum coro_status {
    CORO_OK = 0,
    CORO_ETIMEDOUT = -1, /* the timeout expired first */
    CORO_EAGAIN = -2,    /* not ready and asked not to wait */
    CORO_EINVAL = -3,    /* bad argument */
    CORO_ENOMEM = -5,    /* out of memory */
    CORO_ENOENT = -6,    /* no such runtime, or not on the mesh */
    CORO_ECLOSED = -7,   /* the channel is closed (and, for receives, drained) */
};
const char *coro_strerror(int status);

#define CORO_FOREVER UINT64_MAX

/* ---- runtime ------------------------------------------------------------ */

typedef struct coro_rt coro_rt;
typedef struct coro coro;

struct coro_rt_attr {
    size_t stack_bytes; /* per coroutine; 0: 256 KiB */
    /* Executors (by index into cores) that synchronise channels with
     * add-only atomics even though their core has CAS: both algorithms can
     * then run side by side on a workstation. */
    const bool *no_cas;
};

/* Create the runtime called `name` for executors on cores[0..n-1]; the
 * calling core is its scheduler. The executors start when those cores call
 * coro_exec_run(name). NULL on a bad argument or a name already in use. */
coro_rt *coro_rt_new(const char *name, const int *cores, int n, const struct coro_rt_attr *attr);
/* Wait until every coroutine has returned, stop the executors, free. */
void coro_rt_free(coro_rt *rt);

/* Run the executor of the calling core (the first of the runtime's list
 * that is this core and has no executor yet) until coro_rt_free. Waits for
 * the runtime to be created. CORO_ENOENT if this core is not in its list. */
int coro_exec_run(const char *name);

/* Start fn(arg) as a coroutine on the least-loaded executor (fewest live
 * coroutines), or on executor `exec` (an index into the runtime's cores).
 * Callable from the scheduler and from coroutines. NULL when out of memory
 * or exec is out of range. The handle is valid until coro_join. */
coro *coro_spawn(coro_rt *rt, void (*fn)(void *), void *arg);
coro *coro_spawn_on(coro_rt *rt, int exec, void (*fn)(void *), void *arg);
/* Wait until c has returned and free it (each coroutine is joined once). */
void coro_join(coro *c);

/* Inside a coroutine. */
void coro_yield(void);
void coro_sleep_ns(uint64_t ns);
coro *coro_self(void);     /* NULL outside a coroutine */
int coro_exec_index(void); /* the running executor's index, -1 outside one */

/* ---- channels ----------------------------------------------------------- */

typedef struct coro_chan coro_chan;

/* A channel of `capacity` elements of elem_size bytes in shared memory. */
coro_chan *coro_chan_new(size_t elem_size, size_t capacity);
/* The same for exactly one producer and one consumer (a coroutine or a
 * thread each, for the channel's life): as the paper notes, that needs no
 * synchronisation between producers, so sends and receives take no CAS or
 * add, only timed loads and stores (and the other side's counter is
 * cached). A second producer or consumer is undefined behaviour. Select,
 * blocking and close work as on any channel. */
coro_chan *coro_chan_new_spsc(size_t elem_size, size_t capacity);
void coro_chan_free(coro_chan *ch);

/* Block while full (empty), then copy one element in (out). */
int coro_chan_send(coro_chan *ch, const void *elem);
int coro_chan_recv(coro_chan *ch, void *elem);
/* CORO_EAGAIN instead of blocking. */
int coro_chan_try_send(coro_chan *ch, const void *elem);
int coro_chan_try_recv(coro_chan *ch, void *elem);
/* Refuse further sends; receivers drain what was sent, then get
 * CORO_ECLOSED. Wakes every waiter. Closing twice is harmless. */
void coro_chan_close(coro_chan *ch);
size_t coro_chan_len(coro_chan *ch); /* elements in the buffer now */

struct coro_chan_stats {
    uint64_t sends, recvs;    /* completed */
    uint64_t retries;         /* turns lost to another producer/consumer */
    uint64_t rollbacks;       /* add-only attempts undone (Algorithm 3) */
    uint64_t blocks, wakeups; /* coroutines swapped out / woken by the other side */
    uint64_t spsc;            /* 1: made by coro_chan_new_spsc (takes no turns) */
};
void coro_chan_stats(coro_chan *ch, struct coro_chan_stats *st);

/* Wait for the first of several operations: returns the index of the case
 * that completed, or CORO_ETIMEDOUT, or CORO_EAGAIN (timeout 0: try each
 * once), or CORO_ECLOSED when every case's channel is closed (and
 * drained). Cases are tried from a random one on, so none starves. */
enum coro_op { CORO_SEND, CORO_RECV };
struct coro_case {
    coro_chan *ch;
    enum coro_op op;
    void *elem; /* the element to send, or where to receive */
};
int coro_select(struct coro_case *cases, int n, uint64_t timeout_ns);

/* ---- register communication ------------------------------------------------ */

/* One transfer: 256 bits, as on the SW26010. */
typedef struct coro_word {
    uint64_t w[4];
} coro_word;

enum coro_dir { CORO_ROW, CORO_COL };
#define CORO_BCAST (-1)

/* Open the mesh device `name` ("mesh") for the calling core. */
int coro_reg_open(const char *name);
/* The calling core's (row, col); CORO_ENOENT if it is not on the mesh. */
int coro_reg_pos(int *row, int *col);
int coro_reg_pos_of(int core, int *row, int *col);
/* Put a word to position dest of the caller's row or column, or to all of
 * it (CORO_BCAST); blocks while the receiver's buffer is full. */
int coro_reg_put(enum coro_dir dir, int dest, const coro_word *w);
/* Block until a word arrives on the row or column buffer. */
int coro_reg_get(enum coro_dir dir, coro_word *w);

/* Routed messages. Word 0 of a routed word is its header (coro_reg_send
 * fills it); words 1-3 are the payload. A core in another row and column is
 * reached through relays in column relay_col: along the sender's row to the
 * relay (row, relay_col), down that column to the relay (dest row,
 * relay_col), along the destination's row -- the paper's whole-array
 * pattern with column 0 as relays. A word for the sender's own row goes
 * straight along it; every other word goes through the relay column, so a
 * receiver outside that column hears everything on its row buffer. */
#define CORO_REG_END 1u /* flag: the sender's last word to this destination */
int coro_reg_send(int row, int col, int relay_col, unsigned flags, coro_word *w);
/* As a relay: forward the words arriving in the `from` buffer until `ends`
 * words flagged CORO_REG_END have passed. */
int coro_reg_relay(enum coro_dir from, long ends);
/* Receive a routed word from the `from` buffer; *flags gets its flags. */
int coro_reg_recv(enum coro_dir from, coro_word *w, unsigned *flags);

#ifdef __cplusplus
}
#endif
#endif
