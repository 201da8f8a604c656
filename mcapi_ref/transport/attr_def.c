/*
 * transport/attr_def.c -- the endpoint attributes' sizes and the status of
 * an unknown number, the values they may take: the same for every
 * transport.
 */
#include "mcapi_transport.h"

#include <string.h>

static const size_t sizes[MCAPI_ENDP_ATTR_END] = {
    [MCAPI_ENDP_ATTR_TYPE] = sizeof(mcapi_endp_attr_type_t),
    [MCAPI_ENDP_ATTR_GET_COUNT] = sizeof(mcapi_endp_attr_get_count_t),
    [MCAPI_ENDP_ATTR_GET_SOURCE] = sizeof(mcapi_endp_attr_get_source_t),
    [MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE] = sizeof(mcapi_endp_attr_max_payload_size_t),
    [MCAPI_ENDP_ATTR_BUFFER_TYPE] = sizeof(mcapi_endp_attr_buffer_type_t),
    [MCAPI_ENDP_ATTR_MEMORY_TYPE] = sizeof(mcapi_endp_attr_memory_type_t),
    [MCAPI_ENDP_ATTR_NUM_PRIORITIES] = sizeof(mcapi_endp_attr_num_priorities_t),
    [MCAPI_ENDP_ATTR_PRIORITY] = sizeof(mcapi_endp_attr_priority_t),
    [MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS] = sizeof(mcapi_endp_attr_num_send_buffers_t),
    [MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS] = sizeof(mcapi_endp_attr_num_recv_buffers_t),
    [MCAPI_ENDP_ATTR_ENDP_STATUS] = sizeof(mcapi_endp_attr_status_t),
    [MCAPI_ENDP_ATTR_TIMEOUT] = sizeof(mcapi_endp_attr_timeout_t),
};

size_t tp_attr_size(mcapi_uint_t num)
{
    return num < MCAPI_ENDP_ATTR_END ? sizes[num] : 0;
}

mcapi_status_t tp_attr_unknown(mcapi_uint_t num)
{
    return num >= (mcapi_uint_t)mcapi_start_endp_attribute(MCA_ORG_ID_PSI) &&
                   num < (mcapi_uint_t)mcapi_end_endp_attribute(MCA_ORG_ID_TBA)
               ? MCAPI_ERR_ATTR_NOTSUPPORTED
               : MCAPI_ERR_ATTR_NUM;
}

mcapi_status_t tp_attr_check(mcapi_uint_t num, size_t size)
{
    if (num >= MCAPI_ENDP_ATTR_END) return tp_attr_unknown(num);
    return size == sizes[num] ? MCAPI_SUCCESS : MCAPI_ERR_ATTR_SIZE;
}

static bool valid(mcapi_uint_t num, const void *attr)
{
    mcapi_uint_t u;
    mcapi_int_t i;
    switch (num) {
    case MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE:
        memcpy(&i, attr, sizeof i);
        return i > 0 && i <= MCAPI_MAX_PKT_SIZE;
    case MCAPI_ENDP_ATTR_BUFFER_TYPE:
        memcpy(&u, attr, sizeof u);
        return u == MCAPI_ENDP_ATTR_FIFO_BUFFER;
    case MCAPI_ENDP_ATTR_MEMORY_TYPE:
        memcpy(&u, attr, sizeof u);
        return (u & 0xffffu) <= MCAPI_ENDP_ATTR_REMOTE_MEMORY &&
               (u & ~0xffffu & ~(mcapi_uint_t)MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT) == 0;
    case MCAPI_ENDP_ATTR_PRIORITY:
        memcpy(&u, attr, sizeof u);
        return u <= MCAPI_MAX_PRIORITY;
    default: /* MCAPI_ENDP_ATTR_TIMEOUT: any number of ms */
        return true;
    }
}

mcapi_status_t tp_attr_settable(mcapi_uint_t num, const void *attr, size_t size)
{
    mcapi_status_t st = tp_attr_check(num, size);
    if (st != MCAPI_SUCCESS) return st;
    switch (num) {
    case MCAPI_ENDP_ATTR_TYPE: /* follows from what the endpoint is connected to */
    case MCAPI_ENDP_ATTR_GET_COUNT:
    case MCAPI_ENDP_ATTR_GET_SOURCE:
    case MCAPI_ENDP_ATTR_NUM_PRIORITIES: /* always all of them */
    case MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS:
    case MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS:
    case MCAPI_ENDP_ATTR_ENDP_STATUS:
        return MCAPI_ERR_ATTR_READONLY;
    default:
        return valid(num, attr) ? MCAPI_SUCCESS : MCAPI_ERR_ATTR_VALUE;
    }
}

void tp_attr_store(struct tp_attrs *a, mcapi_uint_t num, const void *attr)
{
    switch (num) {
    case MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE:
        memcpy(&a->max_payload, attr, sizeof a->max_payload);
        break;
    case MCAPI_ENDP_ATTR_MEMORY_TYPE:
        memcpy(&a->memtype, attr, sizeof a->memtype);
        break;
    case MCAPI_ENDP_ATTR_PRIORITY:
        memcpy(&a->priority, attr, sizeof a->priority);
        break;
    case MCAPI_ENDP_ATTR_TIMEOUT:
        memcpy(&a->timeout, attr, sizeof a->timeout);
        break;
    default: /* MCAPI_ENDP_ATTR_BUFFER_TYPE: FIFO, as it was */
        break;
    }
}

mcapi_uint_t tp_attr_status(bool opening, bool open, bool connected, unsigned chan, unsigned dir)
{
    mcapi_uint_t v = 0;
    if (opening) v |= MCAPI_ENDP_ATTR_STATUS_OPEN_PENDING;
    if (open) v |= MCAPI_ENDP_ATTR_STATUS_OPEN;
    if (connected) /* The second group shares the first's values: the high half (mcapi.h). */
        v |= MCAPI_ENDP_ATTR_STATUS_CONNECTED |
             (chan == TP_PKT ? MCAPI_ENDP_ATTR_STATUS_PKTCHAN : MCAPI_ENDP_ATTR_STATUS_SCLCHAN)
                 << 16 |
             (dir == TP_SEND ? MCAPI_ENDP_ATTR_STATUS_SEND : MCAPI_ENDP_ATTR_STATUS_RECEIVE) << 16;
    return v;
}

void tp_attr_put(const struct tp_attr_vals *v, mcapi_uint_t num, void *attr)
{
    const void *from[MCAPI_ENDP_ATTR_END] = {
        [MCAPI_ENDP_ATTR_TYPE] = &v->type,
        [MCAPI_ENDP_ATTR_GET_COUNT] = &v->gets,
        [MCAPI_ENDP_ATTR_GET_SOURCE] = &v->source,
        [MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE] = &v->max_payload,
        [MCAPI_ENDP_ATTR_BUFFER_TYPE] = &v->buffer_type,
        [MCAPI_ENDP_ATTR_MEMORY_TYPE] = &v->memtype,
        [MCAPI_ENDP_ATTR_NUM_PRIORITIES] = &v->nprio,
        [MCAPI_ENDP_ATTR_PRIORITY] = &v->prio,
        [MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS] = &v->send_bufs,
        [MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS] = &v->recv_bufs,
        [MCAPI_ENDP_ATTR_ENDP_STATUS] = &v->status,
        [MCAPI_ENDP_ATTR_TIMEOUT] = &v->timeout,
    };
    memcpy(attr, from[num], tp_attr_size(num));
}

void tp_attr_from(struct tp_attr_vals *v, const struct tp_attrs *a)
{
    v->max_payload = a->max_payload;
    v->memtype = a->memtype;
    v->prio = a->priority;
    v->timeout = a->timeout;
}
