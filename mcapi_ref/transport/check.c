/*
 * transport/check.c -- what every transport's check() of a channel op
 * shares: which end a handle must name (mcapi_transport.h).
 */
#include "mcapi_transport.h"

mcapi_status_t tp_chan_fits(const struct tp_op *op, unsigned chan, unsigned dir)
{
    if (chan == op->chan && dir == op->dir) return MCAPI_SUCCESS;
    if (op->kind != TP_CLOSE) return MCAPI_ERR_CHAN_INVALID;
    return chan != op->chan ? MCAPI_ERR_CHAN_TYPE : MCAPI_ERR_CHAN_DIRECTION;
}
