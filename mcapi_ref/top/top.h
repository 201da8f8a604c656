/*
 * top/top.h -- the top layer: a node's state and its requests.
 *
 * A node is a thread (any thread may mcapi_initialize as a node of its
 * own): its state hangs off plat_thread_slot(PLAT_SLOT_MCAPI), never a
 * global or a thread-local, because in simulation every core runs on one
 * host thread. The state holds the node's request table, allocated once at
 * initialise, and the transport the node uses.
 *
 * Requests: an _i call fills a struct tp_op and issues it as a request; a
 * blocking call runs the same op on its stack (no request of the node's is
 * taken). Pending requests are advanced in the order they were issued, by
 * test, wait, wait_any and every later send or receive, so a later
 * operation never overtakes an earlier one on the same endpoint or channel.
 */
#ifndef MCAPI_TOP_H
#define MCAPI_TOP_H

#include "mcapi.h"

#include "mcapi_transport.h"

enum req_state { REQ_FREE, REQ_PENDING, REQ_DONE, REQ_CANCELLED };

struct req {
    uint32_t gen;
    uint8_t state;
    int16_t next; /* the pending list (oldest first) or the free list */
    mcapi_status_t status;
    struct tp_op op;
};

struct top_node {
    const struct mcapi_transport *t;
    struct tp_node *tp;
    mcapi_domain_t dom;
    mcapi_node_t node;
    uint64_t call_cycles; /* plat_cost("mcapi_call"), looked up once */
    int16_t head, tail, free;
    struct req req[MCAPI_MAX_REQUESTS];
};

/* Every call's entry: charges "mcapi_call" and gives the calling thread's
 * node, or NULL with MCAPI_ERR_NODE_NOTINIT. */
struct top_node *top_enter(mcapi_status_t *status);

/* select.c: the transport of mcapi_transports[] a node with these
 * parameters uses, or NULL if this library has none such. */
const struct mcapi_transport *top_transport(const mcapi_param_t *param, mcapi_domain_t dom,
                                            mcapi_node_t node);

/* api_pkt.c: connect, open and close of either channel kind. */
void top_chan_i(enum tp_kind kind, enum tp_chan chan, enum tp_dir dir, mcapi_uint32_t h,
                mcapi_uint32_t to, mcapi_uint32_t *out, mcapi_request_t *request,
                mcapi_status_t *status);

/* reqs.c */
void top_req_init(struct top_node *n);
/* An _i call: check, take a request, try once. An error (found before the
 * operation could start, or at once) is returned, takes no request and
 * sets *request to a failed request (top_req_fail). */
mcapi_status_t top_req_issue(struct top_node *n, struct tp_op *op, mcapi_request_t *request);
/* An _i call that failed with st: unless request is NULL, *request becomes a
 * request test and wait report as finished with st (size 0), holding no
 * slot of the table. Returns st. */
mcapi_status_t top_req_fail(const struct top_node *n, mcapi_request_t *request, mcapi_status_t st);
/* Whether *request is such a failed request of node n, and its status. */
bool top_req_failed(const struct top_node *n, const mcapi_request_t *request,
                    mcapi_status_t *status);
/* A blocking call: op until done, or MCAPI_TIMEOUT after timeout ms. */
mcapi_status_t top_req_block(struct top_node *n, struct tp_op *op, mcapi_timeout_t timeout);
/* Like top_req_block with the op's own endpoint's MCAPI_ENDP_ATTR_TIMEOUT. */
mcapi_status_t top_req_call(struct top_node *n, struct tp_op *op);
/* The request handle names, or NULL. */
struct req *top_req_find(struct top_node *n, const mcapi_request_t *request);
/* Advance every pending request, oldest first. */
void top_req_progress(struct top_node *n);
/* The index of the first of reqs[0..count-1] to finish, waiting up to
 * timeout ms; -1 if none has when it expires. */
int top_req_await(struct top_node *n, struct req *const *reqs, size_t count,
                  mcapi_timeout_t timeout);
/* Report a finished request (size, status) and free it. */
void top_req_report(struct top_node *n, struct req *r, size_t *size, mcapi_status_t *status);
mcapi_status_t top_req_cancel(struct top_node *n, struct req *r);
/* Cancel everything (finalise). */
void top_req_abort_all(struct top_node *n);

#endif
