/*
 * top/api_endp.c -- endpoints: create, get, delete, release, attributes.
 */
#include "top.h"

mcapi_endpoint_t mcapi_endpoint_create(MCAPI_IN mcapi_port_t port_id,
                                       MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_NULL;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return MCAPI_NULL;
    mcapi_endpoint_t ep = MCAPI_NULL;
    if (port_id != (mcapi_port_t)MCAPI_PORT_ANY &&
        port_id - MCAPI_MIN_PORT > MCAPI_MAX_PORT - MCAPI_MIN_PORT)
        *mcapi_status = MCAPI_ERR_PORT_INVALID;
    else
        *mcapi_status = n->t->endp_create(n->tp, port_id, &ep);
    return *mcapi_status == MCAPI_SUCCESS ? ep : MCAPI_NULL;
}

/* The op of a get of <domain, node, port>, or an argument's error. */
static mcapi_status_t get_op(struct tp_op *op, mcapi_domain_t d, mcapi_node_t nd, mcapi_port_t p,
                             mcapi_endpoint_t *out)
{
    if (d > MCAPI_MAX_DOMAIN) return MCAPI_ERR_DOMAIN_INVALID;
    if (nd > MCAPI_MAX_NODE) return MCAPI_ERR_NODE_INVALID;
    if (p - MCAPI_MIN_PORT > MCAPI_MAX_PORT - MCAPI_MIN_PORT) return MCAPI_ERR_PORT_INVALID;
    /* The timeout is get_i's until the blocking get says its own. */
    *op = (struct tp_op){.kind = TP_GET,
                         .dom = d,
                         .node = nd,
                         .port = p,
                         .out_h = out,
                         .timeout = MCAPI_TIMEOUT_INFINITE};
    return MCAPI_SUCCESS;
}

void mcapi_endpoint_get_i(MCAPI_IN mcapi_domain_t domain_id, MCAPI_IN mcapi_node_t node_id,
                          MCAPI_IN mcapi_port_t port_id, MCAPI_OUT mcapi_endpoint_t *endpoint,
                          MCAPI_OUT mcapi_request_t *request,
                          MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    struct tp_op op;
    mcapi_status_t st = !endpoint || !request ? MCAPI_ERR_PARAMETER
                                              : get_op(&op, domain_id, node_id, port_id, endpoint);
    *mcapi_status =
        st == MCAPI_SUCCESS ? top_req_issue(n, &op, request) : top_req_fail(n, request, st);
}

mcapi_endpoint_t mcapi_endpoint_get(MCAPI_IN mcapi_domain_t domain_id,
                                    MCAPI_IN mcapi_node_t node_id, MCAPI_IN mcapi_port_t port_id,
                                    MCAPI_IN mcapi_timeout_t timeout,
                                    MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_NULL;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return MCAPI_NULL;
    mcapi_endpoint_t ep = MCAPI_NULL;
    struct tp_op op;
    mcapi_status_t st = get_op(&op, domain_id, node_id, port_id, &ep);
    op.timeout = timeout;
    if (st == MCAPI_SUCCESS) st = top_req_block(n, &op, timeout);
    *mcapi_status = st;
    return st == MCAPI_SUCCESS ? ep : MCAPI_NULL;
}

void mcapi_endpoint_delete(MCAPI_IN mcapi_endpoint_t endpoint,
                           MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (n) *mcapi_status = n->t->endp_delete(n->tp, endpoint);
}

void mcapi_endpoint_release(MCAPI_IN mcapi_endpoint_t endpoint,
                            MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (n) *mcapi_status = n->t->endp_release(n->tp, endpoint);
}

void mcapi_endpoint_get_attribute(MCAPI_IN mcapi_endpoint_t endpoint,
                                  MCAPI_IN mcapi_uint_t attribute_num, MCAPI_OUT void *attribute,
                                  MCAPI_IN size_t attribute_size,
                                  MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    *mcapi_status =
        attribute ? n->t->endp_get_attr(n->tp, endpoint, attribute_num, attribute, attribute_size)
                  : MCAPI_ERR_PARAMETER;
}

void mcapi_endpoint_set_attribute(MCAPI_IN mcapi_endpoint_t endpoint,
                                  MCAPI_IN mcapi_uint_t attribute_num, MCAPI_IN void *attribute,
                                  MCAPI_IN size_t attribute_size,
                                  MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    *mcapi_status =
        attribute ? n->t->endp_set_attr(n->tp, endpoint, attribute_num, attribute, attribute_size)
                  : MCAPI_ERR_PARAMETER;
}
