/*
 * chan.c -- the paper's ring-buffer channel (Algorithms 1-3) with mutual
 * wake-up, close and select.
 *
 * Producers take turns through write/to_write: one whose `write` equals
 * `to_write` (nobody else in the middle of a send) reserves slot `write` by
 * advancing it -- with CAS (Algorithm 2) or with an add it checks and rolls
 * back if another producer added too (Algorithm 3) -- copies the element,
 * and advances `to_write`, which publishes it. Consumers do the same with
 * read/to_read. One deviation from the paper's listings: fullness
 * (emptiness) is judged on the `write` (`read`) value that is then
 * reserved, not before reading it; judged before, a producer that read a
 * stale "not full" could overwrite an unread element.
 */
#include "cr.h"

#include <stdlib.h>
#include <string.h>

enum { SEND = 0, RECV = 1 };             /* a side, and the wait list its waiters join */
enum { CH_OPEN, CH_CLOSING, CH_CLOSED }; /* CLOSED: no send in flight any more */

struct coro_chan {
    /* The paper's fields. Natively each group below has cache lines of its
     * own: the producers' counters, the consumers', what every operation
     * reads and nobody writes (state: only at close), the wait lists and
     * their lengths, the statistics. The announce counter (write, read) and
     * the publish counter (to_write, to_read) are 128 bytes apart (x86
     * fetches lines in pairs): the other side reads the publish counter,
     * and an announce on its line waited for it (SPSC between two threads,
     * fast cache-line mode, 16 -> 22-45 M msg/s). In simulation the layout
     * is free. */
    _Alignas(128) uint64_t write;
    uint64_t rcache; /* SPSC: to_read as the producer last saw it */
    _Alignas(128) uint64_t to_write;
    _Alignas(128) uint64_t read;
    uint64_t wcache; /* SPSC: to_write as the consumer last saw it */
    _Alignas(128) uint64_t to_read;
    _Alignas(128) unsigned char *buffer;
    uint64_t elem_size, capacity;
    uint64_t mask; /* capacity - 1 for a power of two (no division), else ~0 */
    uint64_t state;
    bool spsc; /* one producer, one consumer (coro_chan_new_spsc) */
    /* read_wait (producers waiting for a read) and write_wait (consumers
     * waiting for a write), their lengths (read without the lock), and the
     * lock. */
    _Alignas(64) struct cr_lock lock;
    uint64_t nwait[2];
    struct cr_list wait[2];
    _Alignas(64) struct coro_chan_stats st;
};

coro_chan *coro_chan_new(size_t elem_size, size_t capacity)
{
    if (!elem_size || !capacity || capacity > SIZE_MAX / elem_size) return NULL;
    coro_chan *ch = plat_shared_alloc(sizeof *ch, _Alignof(coro_chan));
    if (!ch) return NULL;
    ch->buffer = plat_shared_alloc(elem_size * capacity, 64);
    if (!ch->buffer) {
        plat_shared_free(ch);
        return NULL;
    }
    ch->elem_size = elem_size;
    ch->capacity = capacity;
    ch->mask = (capacity & (capacity - 1)) == 0 ? capacity - 1 : ~(uint64_t)0;
    return ch;
}

/* The buffer slot of position pos. A 64-bit division costs more than the
 * rest of an SPSC operation's own code. */
static unsigned char *slot_at(const coro_chan *ch, uint64_t pos)
{
    uint64_t i = ch->mask != ~(uint64_t)0 ? pos & ch->mask : pos % ch->capacity;
    return ch->buffer + i * ch->elem_size;
}

coro_chan *coro_chan_new_spsc(size_t elem_size, size_t capacity)
{
    coro_chan *ch = coro_chan_new(elem_size, capacity);
    if (ch) ch->spsc = true;
    return ch;
}

void coro_chan_free(coro_chan *ch)
{
    if (!ch) return;
    plat_shared_free(ch->buffer);
    plat_shared_free(ch);
}

size_t coro_chan_len(coro_chan *ch)
{
    return (size_t)(plat_load64(&ch->to_write) - plat_load64(&ch->to_read));
}

void coro_chan_stats(coro_chan *ch, struct coro_chan_stats *st)
{
    st->retries = __atomic_load_n(&ch->st.retries, __ATOMIC_RELAXED);
    st->rollbacks = __atomic_load_n(&ch->st.rollbacks, __ATOMIC_RELAXED);
    st->blocks = __atomic_load_n(&ch->st.blocks, __ATOMIC_RELAXED);
    st->wakeups = __atomic_load_n(&ch->st.wakeups, __ATOMIC_RELAXED);
    st->sends = __atomic_load_n(&ch->to_write, __ATOMIC_RELAXED);
    st->recvs = __atomic_load_n(&ch->to_read, __ATOMIC_RELAXED);
    st->spsc = ch->spsc;
}

/* ---- one attempt ----------------------------------------------------------------- */

/* Can side s go ahead with slot `pos`? */
static bool room(coro_chan *ch, int s, uint64_t pos)
{
    if (s == SEND) return pos - plat_load64(&ch->to_read) < ch->capacity;
    return pos != plat_load64(&ch->to_write);
}

static void undo(uint64_t *head, uint64_t pos, bool cas)
{
    if (!cas) {
        cr_add(head, (uint64_t)-1);
        return;
    }
    for (;;) { /* a stale add-only contender may hold head above pos+1 for a moment */
        uint64_t e = pos + 1;
        if (plat_cas64(head, &e, pos)) return;
    }
}

/* After a rollback, wait a random whole number of "slots" (a slot: the
 * attempt that just failed, as long as it took) plus a random part of one,
 * from 0..1 slots after the first rollback in a row up to 0..1023 after
 * the tenth: Ethernet's binary exponential back-off. Contenders that added
 * together and rolled back together would otherwise retry together -- on
 * the deterministic simulator in lock step for ever, on hardware for as
 * long as their timing happens to match -- and with many contenders the
 * window has to grow to their number before one gets through. The paper's
 * Algorithm 3 retries at once; this is what we add to it (docs/coro.md).
 * The wait is charged work: natively it is not taken. */
static void backoff(unsigned *rollbacks, uint64_t slot_ns)
{
    unsigned n = *rollbacks < 10 ? *rollbacks + 1 : 10;
    ++*rollbacks;
    uint64_t slot = (uint64_t)((double)slot_ns * plat_core_clock_mhz(plat_core()) / 1000.0) + 1;
    uint64_t r = plat_random();
    plat_work_cycles((r % (1u << n)) * slot + (r >> 32) % slot);
}

/* 1: done; 0: full (empty); CORO_ECLOSED. */
static int attempt(coro_chan *ch, int s, void *elem, bool cas, bool thread)
{
    uint64_t *head = s == SEND ? &ch->write : &ch->read;
    uint64_t *turn = s == SEND ? &ch->to_write : &ch->to_read;
    unsigned rolled = 0;
    for (;;) {
        uint64_t t0 = cas ? 0 : plat_now_ns();
        uint64_t pos = plat_load64(head);
        if (pos != plat_load64(turn)) { /* another one is in the middle */
            cr_count(&ch->st.retries, 1);
            /* It may be a thread of this core: let it finish. (A
             * coroutine's rival is on another core: it never yields
             * in the middle of an attempt.) */
            if (thread) plat_yield();
            continue;
        }
        if (!room(ch, s, pos)) {
            if (s == SEND) return plat_load64(&ch->state) != CH_OPEN ? CORO_ECLOSED : 0;
            /* CLOSED means no send is in flight: empty now is empty for good. */
            if (plat_load64(&ch->state) == CH_CLOSED && !room(ch, s, pos)) return CORO_ECLOSED;
            return 0;
        }
        if (cas) { /* Algorithm 2 */
            uint64_t e = pos;
            if (!plat_cas64(head, &e, pos + 1)) {
                cr_count(&ch->st.retries, 1);
                continue;
            }
        } else { /* Algorithm 3: add, look, roll back if someone else added */
            cr_add(head, 1);
            if (plat_load64(head) != pos + 1) {
                cr_add(head, (uint64_t)-1);
                cr_count(&ch->st.rollbacks, 1);
                backoff(&rolled, plat_now_ns() - t0);
                continue;
            }
        }
        if (s == SEND && plat_load64(&ch->state) != CH_OPEN) {
            undo(head, pos, cas);
            return CORO_ECLOSED;
        }
        unsigned char *slot = slot_at(ch, pos);
        if (s == SEND)
            plat_copy(slot, elem, ch->elem_size);
        else
            plat_copy(elem, slot, ch->elem_size);
        if (cas) {
            uint64_t e = pos;
            plat_cas64(turn, &e, pos + 1); /* cannot fail: only we move it now */
        } else {
            cr_add(turn, 1);
        }
        return 1;
    }
}

/* ---- waiting and waking ----------------------------------------------------------- */

/* One attempt of the only producer (consumer) of an SPSC channel: nobody
 * else moves its side's counters, so there is no turn to take and no CAS or
 * add. Its own counter it reads back plainly; the other side's it caches,
 * and reads again (a timed load) only when the cached value says full
 * (empty). `write` and `to_write` (`read`, `to_read`) stay equal between
 * operations, so attempt() may take over (a select, a blocking wait).
 *
 * One store-load order per operation, the store of `write` (`read`) that
 * announces it: the closer stores CLOSING and then loads `write`; a waiter
 * counts itself in nwait and then loads the other side's announce counter
 * (ready()). After that store the operation loads the state and nwait, so
 * either the closer waits for the send, or the send sees CLOSING; either
 * the waiter stays awake (and retries until the element or slot is
 * published), or the operation wakes it (wake_one's load of nwait, after
 * the publish). The publishing store of `to_write` (`to_read`) needs only
 * release order: a store-load fence on a line the other side reads is most
 * of what a message costs between two CPUs (the issue-20 profile,
 * docs/performance.md).
 * 1: done; 0: full (empty); CORO_ECLOSED. */
static int spsc_send(coro_chan *ch, const void *elem)
{
    uint64_t pos = __atomic_load_n(&ch->write, __ATOMIC_RELAXED);
    if (pos - ch->rcache >= ch->capacity) {
        ch->rcache = plat_load64(&ch->to_read);
        if (pos - ch->rcache >= ch->capacity)
            return plat_load64(&ch->state) != CH_OPEN ? CORO_ECLOSED : 0;
    }
    plat_store64(&ch->write, pos + 1); /* announces the send */
    if (plat_load64(&ch->state) != CH_OPEN) {
        plat_store64(&ch->write, pos);
        return CORO_ECLOSED;
    }
    plat_copy(slot_at(ch, pos), elem, ch->elem_size);
    plat_store64_release(&ch->to_write, pos + 1); /* publishes the element */
    return 1;
}

static int spsc_recv(coro_chan *ch, void *elem)
{
    uint64_t pos = __atomic_load_n(&ch->read, __ATOMIC_RELAXED);
    if (ch->wcache <= pos) { /* below: attempt() took elements past the cache */
        ch->wcache = plat_load64(&ch->to_write);
        if (ch->wcache == pos) {
            /* CLOSED means no send is in flight: empty now is empty for good. */
            if (plat_load64(&ch->state) == CH_CLOSED && pos == plat_load64(&ch->to_write))
                return CORO_ECLOSED;
            return 0;
        }
    }
    plat_store64(&ch->read, pos + 1); /* announces the receive */
    plat_copy(elem, slot_at(ch, pos), ch->elem_size);
    plat_store64_release(&ch->to_read, pos + 1); /* gives the slot back */
    return 1;
}

/* wake_one with a waiter counted. */
static void wake_counted(coro_chan *ch, int l)
{
    cr_lock(&ch->lock);
    struct cr_link *k;
    while ((k = cr_list_pop(&ch->wait[l]))) {
        plat_store64(&ch->nwait[l], plat_load64(&ch->nwait[l]) - 1);
        struct cr_waiter *w = k->w;
        struct coro *co = w->co; /* read first: a claimed thread waiter may return */
        if (cr_claim(w)) {
            if (co) cr_wake(co);
            cr_count(&ch->st.wakeups, 1);
            break;
        }
        /* Already claimed (woken through another channel, or timed out). */
    }
    cr_unlock(&ch->lock);
}

/* Wake one waiter of list `l` (after the other side made room or data).
 * Inline: nobody waits on almost every operation. */
static inline void wake_one(coro_chan *ch, int l)
{
    if (plat_load64(&ch->nwait[l])) wake_counted(ch, l);
}

static void wake_all(coro_chan *ch)
{
    cr_lock(&ch->lock);
    for (int l = 0; l < 2; l++) {
        struct cr_link *k;
        while ((k = cr_list_pop(&ch->wait[l]))) {
            struct cr_waiter *w = k->w;
            struct coro *co = w->co;
            if (cr_claim(w) && co) cr_wake(co);
        }
        plat_store64(&ch->nwait[l], 0);
    }
    cr_unlock(&ch->lock);
}

static int side(const struct coro_case *c)
{
    return c->op == CORO_SEND ? SEND : RECV;
}

/* Would the case go ahead (or fail as closed) now? On an SPSC channel it
 * also says yes while the other side is between its announce and its
 * publish (spsc_send, spsc_recv), which is the hand-shake's half that keeps a
 * waiter awake; the retry then waits for the publish. */
static bool ready(const struct coro_case *c)
{
    coro_chan *ch = c->ch;
    if (side(c) == SEND) {
        if (plat_load64(&ch->state) != CH_OPEN) return true;
        uint64_t pos = plat_load64(&ch->write);
        if (ch->spsc) return pos - plat_load64(&ch->read) < ch->capacity;
        return room(ch, SEND, pos);
    }
    uint64_t pos = plat_load64(&ch->read);
    bool data = ch->spsc ? pos != plat_load64(&ch->write) : room(ch, RECV, pos);
    return data || plat_load64(&ch->state) == CH_CLOSED;
}

/* Join the wait lists of every case, look again, and sleep unless one is
 * ready: a waker that committed before we joined is seen by the second
 * look, one after it finds us on its list. True if the timeout ended it. */
static bool wait_cases(struct coro_case *cs, int n, struct cr_link *links, uint64_t timeout_ns)
{
    struct cr_waiter w = {coro_self(), 0, false};
    for (int i = 0; i < n; i++) {
        coro_chan *ch = cs[i].ch;
        int l = side(&cs[i]);
        links[i] = (struct cr_link){NULL, NULL, &w, i, false};
        cr_lock(&ch->lock);
        cr_list_push(&ch->wait[l], &links[i]);
        plat_store64(&ch->nwait[l], plat_load64(&ch->nwait[l]) + 1);
        cr_unlock(&ch->lock);
    }
    bool any = false;
    for (int i = 0; i < n && !any; i++) any = ready(&cs[i]);
    if (!any || !cr_claim(&w)) {
        cr_count(&cs[0].ch->st.blocks, 1);
        cr_block(&w, timeout_ns); /* returns at once if a waker already claimed it */
    }
    for (int i = 0; i < n; i++) {
        coro_chan *ch = cs[i].ch;
        int l = side(&cs[i]);
        cr_lock(&ch->lock);
        if (links[i].linked) {
            cr_list_del(&ch->wait[l], &links[i]);
            plat_store64(&ch->nwait[l], plat_load64(&ch->nwait[l]) - 1);
        }
        cr_unlock(&ch->lock);
    }
    return w.timed_out;
}

/* ---- the operations ----------------------------------------------------------------- */

#define CR_SELECT_STACK 8

int coro_select(struct coro_case *cs, int n, uint64_t timeout_ns)
{
    if (!cs || n <= 0) return CORO_EINVAL;
    for (int i = 0; i < n; i++)
        if (!cs[i].ch || !cs[i].elem) return CORO_EINVAL;
    struct cr_link small[CR_SELECT_STACK], *links = small;
    if (n > CR_SELECT_STACK && !(links = malloc(sizeof *links * (size_t)n))) return CORO_ENOMEM;
    uint64_t deadline = 0;
    if (timeout_ns && timeout_ns != CORO_FOREVER) deadline = plat_now_ns() + timeout_ns;
    const struct cr_exec *ex = cr_exec_self();
    bool cas = cr_use_cas(ex), thread = !ex, woken = false, last = false;
    int ret;
    /* Start at a random case: in order, a busy first case would starve the
     * others. */
    int first = n > 1 ? (int)(plat_random() % (uint64_t)n) : 0;
    for (;;) {
        int closed = 0, done = -1;
        for (int k = 0; k < n && done < 0; k++) {
            int i = (first + k) % n;
            int r = attempt(cs[i].ch, side(&cs[i]), cs[i].elem, cas, thread);
            if (r == 1)
                done = i;
            else if (r == CORO_ECLOSED)
                closed++;
        }
        if (done >= 0) {
            wake_one(cs[done].ch, side(&cs[done]) == SEND ? RECV : SEND);
            /* A wake meant for another case of ours must not be lost. */
            for (int i = 0; woken && i < n; i++)
                if (i != done && ready(&cs[i])) wake_one(cs[i].ch, side(&cs[i]));
            ret = done;
            break;
        }
        if (closed == n) {
            ret = CORO_ECLOSED;
            break;
        }
        if (!timeout_ns || last) {
            ret = timeout_ns ? CORO_ETIMEDOUT : CORO_EAGAIN;
            break;
        }
        uint64_t left = CORO_FOREVER;
        if (deadline) {
            uint64_t now = plat_now_ns();
            left = deadline > now ? deadline - now : 0;
        }
        if (left == 0 || wait_cases(cs, n, links, left)) last = true; /* one more look */
        woken = true;
    }
    if (links != small) free(links);
    return ret;
}

static int one(coro_chan *ch, enum coro_op op, void *elem, uint64_t timeout_ns)
{
    if (ch && elem && ch->spsc) {
        /* The common case without coro_select's set-up, the executor
         * lookup or the random start; a wait goes the general way. */
        int s = op == CORO_SEND ? SEND : RECV;
        int r = s == SEND ? spsc_send(ch, elem) : spsc_recv(ch, elem);
        if (r == 1) {
            wake_one(ch, s == SEND ? RECV : SEND);
            return CORO_OK;
        }
        if (r == CORO_ECLOSED) return r;
        if (!timeout_ns) return CORO_EAGAIN;
    }
    struct coro_case c = {ch, op, elem};
    int r = coro_select(&c, 1, timeout_ns);
    return r == 0 ? CORO_OK : r;
}

int coro_chan_send(coro_chan *ch, const void *elem)
{
    return one(ch, CORO_SEND, (void *)elem, CORO_FOREVER);
}

int coro_chan_recv(coro_chan *ch, void *elem)
{
    return one(ch, CORO_RECV, elem, CORO_FOREVER);
}

int coro_chan_try_send(coro_chan *ch, const void *elem)
{
    return one(ch, CORO_SEND, (void *)elem, 0);
}

int coro_chan_try_recv(coro_chan *ch, void *elem)
{
    return one(ch, CORO_RECV, elem, 0);
}

void coro_chan_close(coro_chan *ch)
{
    if (plat_load64(&ch->state) == CH_CLOSED) return;
    plat_store64(&ch->state, CH_CLOSING);
    /* Sends that reserved a slot before they could see CLOSING finish (or
     * undo); after that no element can appear. */
    for (;;) {
        uint64_t w = plat_load64(&ch->write);
        if (w == plat_load64(&ch->to_write)) break;
        plat_poll64(&ch->write, w, 1000);
    }
    plat_store64(&ch->state, CH_CLOSED);
    wake_all(ch);
}

const char *coro_strerror(int status)
{
    switch (status) {
    case CORO_OK:
        return "ok";
    case CORO_ETIMEDOUT:
        return "timed out";
    case CORO_EAGAIN:
        return "not ready";
    case CORO_EINVAL:
        return "invalid argument";
    case CORO_ENOMEM:
        return "out of memory";
    case CORO_ENOENT:
        return "no such runtime or position";
    case CORO_ECLOSED:
        return "channel closed";
    default:
        return "unknown status";
    }
}
