/*
 * transport/shm/shm_tp.c -- the shared-memory transport's function table: the
 * only thing the top layer sees of it.
 */
#include "db.h"
#include "../handle.h"

static uint32_t epoch(struct tp_node *tp)
{
    return drv_shm_epoch(&tp->db->node[tp->node].ev);
}

/* Between processes a waiter also wakes every SHARED_RECHECK_NS to look
 * again: a process that died between changing an object and notifying its
 * waiters (repair.c) leaves no lock to repair and would otherwise leave
 * them asleep for good. The top layer steps the request again and sleeps
 * on; threads of one program (and simulated cores) do not die alone, so
 * they sleep until notified, and simulated time is not charged with
 * rechecks. */
#define SHARED_RECHECK_NS 20000000ull

static void sleep_(struct tp_node *tp, uint32_t e, uint64_t timeout_ns)
{
    if (tp->shared && timeout_ns > SHARED_RECHECK_NS) timeout_ns = SHARED_RECHECK_NS;
    drv_shm_sleep(&tp->db->node[tp->node].ev, e, timeout_ns);
}

/* A channel handle op may use: its end, kind and timeout. */
static mcapi_status_t check_chan(struct tp_node *tp, struct tp_op *op)
{
    int s = 0;
    mcapi_status_t st = tp_chan_handle(tp, op->h, &s);
    if (st == MCAPI_ERR_CHAN_INVALID) return st;
    mcapi_status_t fit = tp_chan_fits(op, h_chan_type(op->h), h_chan_dir(op->h));
    if (fit != MCAPI_SUCCESS) return fit;
    if (st != MCAPI_SUCCESS) return st;
    const struct db_endp *e = &tp->db->endp[s];
    if (op->kind == TP_PKT_SEND && op->len > (size_t)e->a.max_payload) return MCAPI_ERR_PKT_SIZE;
    op->timeout = e->a.timeout;
    return MCAPI_SUCCESS;
}

static mcapi_status_t check(struct tp_node *tp, struct tp_op *op)
{
    mcapi_status_t st = MCAPI_SUCCESS;
    switch (op->kind) {
    case TP_GET:
        return op->dom == tp->dom ? MCAPI_SUCCESS : MCAPI_ERR_DOMAIN_INVALID;
    case TP_MSG_SEND:
        if (!tp_own_endp(tp, op->h)) return tp_own_check(tp, op->h);
        if (tp_endp_slot(tp, op->to) >= DB_SLOTS &&
            tp_own_check(tp, op->to) != MCAPI_ERR_ENDP_REMOTE)
            return MCAPI_ERR_ENDP_INVALID;
        st = tp_endp_slot(tp, op->to) < 0 ? MCAPI_ERR_ENDP_INVALID : MCAPI_SUCCESS;
        break;
    case TP_MSG_RECV:
    case TP_OPEN:
        st = tp_own_check(tp, op->h);
        break;
    case TP_CONNECT:
        return tp_endp_slot(tp, op->h) < 0 || tp_endp_slot(tp, op->to) < 0 ? MCAPI_ERR_ENDP_INVALID
                                                                           : MCAPI_SUCCESS;
    default:
        return check_chan(tp, op);
    }
    if (st == MCAPI_SUCCESS) op->timeout = tp_own_endp(tp, op->h)->a.timeout;
    return st;
}

static tp_step_fn *const steps[TP_NKINDS] = {
    [TP_GET] = tp_endp_get,      [TP_MSG_SEND] = tp_msg_send,    [TP_MSG_RECV] = tp_msg_recv,
    [TP_PKT_SEND] = tp_pkt_send, [TP_PKT_RECV] = tp_pkt_recv,    [TP_SCL_SEND] = tp_scl_send,
    [TP_SCL_RECV] = tp_scl_recv, [TP_CONNECT] = tp_chan_connect, [TP_OPEN] = tp_chan_open,
    [TP_CLOSE] = tp_chan_close,
};

static mcapi_status_t step(struct tp_node *tp, struct tp_op *op)
{
    return tp_step(steps, tp, op);
}

static void abort_(struct tp_node *tp, struct tp_op *op)
{
    if (op->kind == TP_MSG_SEND && tp_endp_slot(tp, op->to) >= DB_SLOTS) {
        tp_route_accel_abort(tp, op);
    } else if (op->held) {
        if (op->kind == TP_PKT_SEND)
            tp_pkts_put(tp, op->held - 1);
        else
            tp_pool_put(tp, &tp->db->msg, op->held - 1);
        op->held = 0;
    } else if (op->kind == TP_OPEN) {
        tp_chan_open_abort(tp, op);
    }
}

static mcapi_status_t available(struct tp_node *tp, enum tp_kind kind, mcapi_uint32_t h,
                                mcapi_uint_t *n)
{
    struct tp_op op = {.kind = (uint8_t)kind, .h = h, .dir = TP_RECV};
    if (kind == TP_MSG_RECV) {
        struct db_endp *e = tp_own_endp(tp, h);
        if (!e) return tp_own_check(tp, h);
        tp_lock(tp->db, &e->lock);
        *n = tp_q_count(&e->q);
        drv_shm_unlock(&e->lock);
        return MCAPI_SUCCESS;
    }
    op.chan = kind == TP_PKT_RECV ? TP_PKT : TP_SCL;
    struct db_chan *c = NULL;
    mcapi_status_t st = tp_chan_use(tp, &op, &c);
    if (st != MCAPI_SUCCESS) return st;
    *n = tp_ring_count(&c->ring);
    return MCAPI_SUCCESS;
}

const struct mcapi_transport mcapi_shm_transport = {
    .name = "shm",
    .kind = MCAPI_TRANSPORT_SHM,
    .attach = tp_node_attach,
    .detach = tp_node_detach,
    .epoch = epoch,
    .sleep = sleep_,
    .check = check,
    .step = step,
    .abort = abort_,
    .endp_create = tp_endp_create,
    .endp_delete = tp_endp_delete,
    .endp_release = tp_endp_release,
    .endp_get_attr = tp_attr_get,
    .endp_set_attr = tp_attr_set,
    .node_get_attr = tp_attr_node,
    .available = available,
    .pkt_release = tp_pkt_release,
};
