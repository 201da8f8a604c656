/*
 * top/reqs.c -- the node's request table and how operations make progress.
 *
 * Nothing runs behind a node's back: a pending operation moves only when
 * its node calls in (test, wait, wait_any, or any send or receive), which
 * is what lets the same code run as a thread natively and as a simulated
 * core. Every such call first advances all pending requests, oldest
 * first; a request whose endpoint or channel is blocked (queue full or
 * empty) blocks the younger ones on the same endpoint or channel in that
 * pass, so messages, packets and scalars keep their order. A send the
 * transport has already started (tp_op.started: handed to a DMA engine that
 * completes in order) does not block them.
 *
 * A request handle is gen (19 bits) | node (6) | index (7): a handle of
 * another node, or of a freed request, does not match. Generation 0 is no
 * slot's: 0 | node | status is the handle of an _i call that failed
 * (top_req_fail), so a program that ignores the _i status and then tests or
 * waits gets the error (the reference implementation's behaviour).
 */
#include "top.h"

#include "ipcsim/plat.h"

#include <assert.h>

#define IDX_BITS 7
#define NODE_BITS 6
#define GEN_SHIFT (IDX_BITS + NODE_BITS)
#define GEN_MASK 0x7ffffu

static_assert(MCAPI_MAX_REQUESTS == 1 << IDX_BITS, "request index width");
static_assert(MCA_MAX_NODES == 1 << NODE_BITS, "request node width");

static uint32_t next_gen(uint32_t g)
{
    g = (g + 1) & GEN_MASK;
    return g ? g : 1;
}

void top_req_init(struct top_node *n)
{
    /* Generations start anywhere, so handles kept from before a finalise
     * do not match the requests of the node's next life. */
    uint32_t g = (uint32_t)plat_random();
    for (int i = 0; i < MCAPI_MAX_REQUESTS; i++) {
        n->req[i].gen = next_gen(g + (uint32_t)i * 4099u);
        n->req[i].state = REQ_FREE;
        n->req[i].next = (int16_t)(i + 1 < MCAPI_MAX_REQUESTS ? i + 1 : -1);
    }
    n->free = 0;
    n->head = n->tail = -1;
}

static mcapi_request_t handle(const struct top_node *n, int i)
{
    return n->req[i].gen << GEN_SHIFT | n->node << IDX_BITS | (uint32_t)i;
}

struct req *top_req_find(struct top_node *n, const mcapi_request_t *request)
{
    mcapi_request_t h = *request;
    unsigned i = h & (MCAPI_MAX_REQUESTS - 1);
    struct req *r = &n->req[i];
    if ((h >> IDX_BITS & (MCA_MAX_NODES - 1)) != n->node || r->state == REQ_FREE ||
        r->gen != h >> GEN_SHIFT)
        return NULL;
    return r;
}

static void release(struct top_node *n, struct req *r)
{
    r->state = REQ_FREE;
    r->gen = next_gen(r->gen);
    r->next = n->free;
    n->free = (int16_t)(r - n->req);
}

static void unlink_pending(struct top_node *n, int16_t prev, int16_t i)
{
    int16_t next = n->req[i].next;
    if (prev < 0)
        n->head = next;
    else
        n->req[prev].next = next;
    if (n->tail == i) n->tail = prev;
}

/* What a send or receive queues behind: its endpoint or channel. */
static uint64_t key(const struct tp_op *op)
{
    switch (op->kind) {
    case TP_MSG_SEND:
        return 1ull << 32 | op->to;
    case TP_PKT_SEND:
    case TP_SCL_SEND:
        return 1ull << 32 | op->h;
    case TP_MSG_RECV:
    case TP_PKT_RECV:
    case TP_SCL_RECV:
        return 2ull << 32 | op->h;
    default:
        return 0;
    }
}

static bool blocked(const uint64_t *keys, unsigned nkeys, uint64_t k)
{
    for (unsigned i = 0; k && i < nkeys; i++)
        if (keys[i] == k) return true;
    return false;
}

/* Advance the pending requests, then extra (a blocking call's op): its
 * status, MCAPI_PENDING without extra. */
static mcapi_status_t run(struct top_node *n, struct tp_op *extra)
{
    uint64_t keys[MCAPI_MAX_REQUESTS];
    unsigned nkeys = 0;
    int16_t prev = -1;
    for (int16_t i = n->head; i >= 0;) {
        struct req *r = &n->req[i];
        int16_t next = r->next;
        uint64_t k = key(&r->op);
        mcapi_status_t st = blocked(keys, nkeys, k) ? MCAPI_PENDING : n->t->step(n->tp, &r->op);
        if (st == MCAPI_PENDING) {
            if (k && !blocked(keys, nkeys, k) && !r->op.started) keys[nkeys++] = k;
            prev = i;
        } else {
            unlink_pending(n, prev, i);
            r->state = REQ_DONE;
            r->status = st;
        }
        i = next;
    }
    if (!extra || blocked(keys, nkeys, key(extra))) return MCAPI_PENDING;
    return n->t->step(n->tp, extra);
}

void top_req_progress(struct top_node *n)
{
    (void)run(n, NULL);
}

static uint64_t req_deadline(mcapi_timeout_t timeout)
{
    if (timeout == (mcapi_timeout_t)MCAPI_TIMEOUT_INFINITE) return PLAT_FOREVER;
    return plat_now_ns() + (uint64_t)timeout * MCAPI_TIMEOUT_UNIT_NS;
}

/* Sleep until the node's event moves past epoch, at most until deadline
 * (PLAT_FOREVER: none); false once the deadline has passed. */
static bool req_sleep(struct top_node *n, uint32_t epoch, uint64_t deadline)
{
    uint64_t now = plat_now_ns();
    if (deadline != PLAT_FOREVER && now >= deadline) return false;
    n->t->sleep(n->tp, epoch, deadline == PLAT_FOREVER ? PLAT_FOREVER : deadline - now);
    return true;
}

/* The first of reqs[0..count-1] that has finished, or -1. */
static int first_done(struct req *const *reqs, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (reqs[i]->state != REQ_PENDING) return (int)i;
    return -1;
}

int top_req_await(struct top_node *n, struct req *const *reqs, size_t count,
                  mcapi_timeout_t timeout)
{
    int i = first_done(reqs, count);
    if (i >= 0) return i;
    (void)run(n, NULL);
    if ((i = first_done(reqs, count)) >= 0) return i;
    uint64_t deadline = req_deadline(timeout);
    for (;;) {
        uint32_t e = n->t->epoch(n->tp);
        (void)run(n, NULL);
        if ((i = first_done(reqs, count)) >= 0 || !req_sleep(n, e, deadline)) return i;
    }
}

mcapi_status_t top_req_fail(const struct top_node *n, mcapi_request_t *request, mcapi_status_t st)
{
    static_assert(MCAPI_STATUSCODE_END <= 1 << IDX_BITS, "a status in a request's index");
    if (request && st != MCAPI_SUCCESS && st != MCAPI_PENDING)
        *request = n->node << IDX_BITS | (uint32_t)st;
    return st;
}

bool top_req_failed(const struct top_node *n, const mcapi_request_t *request,
                    mcapi_status_t *status)
{
    mcapi_request_t h = *request, st = h & (MCAPI_MAX_REQUESTS - 1);
    if (h >> GEN_SHIFT || (h >> IDX_BITS & (MCA_MAX_NODES - 1)) != n->node || st == MCAPI_SUCCESS ||
        st == MCAPI_PENDING || st >= MCAPI_STATUSCODE_END || !st)
        return false;
    *status = (mcapi_status_t)st;
    return true;
}

static mcapi_status_t issue(struct top_node *n, struct tp_op *op, mcapi_request_t *request)
{
    mcapi_status_t st = n->t->check(n->tp, op);
    if (st != MCAPI_SUCCESS) return st;
    if (n->free < 0) return MCAPI_ERR_REQUEST_LIMIT;
    int16_t i = n->free;
    struct req *r = &n->req[i];
    n->free = r->next;
    r->op = *op;
    r->state = REQ_PENDING;
    r->next = -1;
    if (n->tail < 0)
        n->head = i;
    else
        n->req[n->tail].next = i;
    n->tail = i;
    (void)run(n, NULL);
    if (r->state == REQ_DONE && r->status != MCAPI_SUCCESS) {
        st = r->status;
        release(n, r);
        return st;
    }
    *request = handle(n, i);
    return r->state == REQ_DONE ? MCAPI_SUCCESS : MCAPI_PENDING;
}

mcapi_status_t top_req_issue(struct top_node *n, struct tp_op *op, mcapi_request_t *request)
{
    return top_req_fail(n, request, issue(n, op, request));
}

static mcapi_status_t block(struct top_node *n, struct tp_op *op, mcapi_timeout_t timeout)
{
    /* Try once before reading the event: usually the data is there. */
    mcapi_status_t st = run(n, op);
    if (st != MCAPI_PENDING) return st;
    uint64_t deadline = req_deadline(timeout);
    for (;;) {
        uint32_t e = n->t->epoch(n->tp);
        st = run(n, op);
        if (st != MCAPI_PENDING) return st;
        if (req_sleep(n, e, deadline)) continue;
        /* A transfer the engine has started cannot be withdrawn, and it
         * reads the caller's buffer: the call returns when it is done. */
        if (!op->started) break;
        deadline = PLAT_FOREVER;
    }
    n->t->abort(n->tp, op);
    return MCAPI_TIMEOUT;
}

mcapi_status_t top_req_block(struct top_node *n, struct tp_op *op, mcapi_timeout_t timeout)
{
    mcapi_status_t st = n->t->check(n->tp, op);
    return st == MCAPI_SUCCESS ? block(n, op, timeout) : st;
}

mcapi_status_t top_req_call(struct top_node *n, struct tp_op *op)
{
    mcapi_status_t st = n->t->check(n->tp, op);
    return st == MCAPI_SUCCESS ? block(n, op, op->timeout) : st;
}

void top_req_report(struct top_node *n, struct req *r, size_t *size, mcapi_status_t *status)
{
    *size = r->op.size;
    *status = r->state == REQ_CANCELLED ? MCAPI_ERR_REQUEST_CANCELLED : r->status;
    release(n, r);
}

/* Withdraw pending r, what it holds given back. */
static void withdraw(struct top_node *n, struct req *r)
{
    int16_t prev = -1, i = n->head;
    while (&n->req[i] != r) {
        prev = i;
        i = n->req[i].next;
    }
    unlink_pending(n, prev, i);
    n->t->abort(n->tp, &r->op);
    r->state = REQ_CANCELLED;
}

mcapi_status_t top_req_cancel(struct top_node *n, struct req *r)
{
    /* A transfer the engine has started cannot be withdrawn and reads the
     * caller's buffer until it ends: the request completes normally, and
     * is then finished like one cancelled too late. */
    if (r->state == REQ_PENDING && r->op.started)
        (void)top_req_await(n, &r, 1, MCAPI_TIMEOUT_INFINITE);
    if (r->state != REQ_PENDING) return MCAPI_ERR_REQUEST_INVALID; /* done already */
    withdraw(n, r);
    return MCAPI_SUCCESS;
}

void top_req_abort_all(struct top_node *n)
{
    /* Finalise waits for nobody: a started transfer keeps running in the
     * engine (its record stays with the transport). */
    while (n->head >= 0) withdraw(n, &n->req[n->head]);
}
