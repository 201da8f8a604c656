/*
 * top/api_node.c -- nodes: initialise, finalise, ids, node attributes.
 */
#include "top.h"

#include "ipcsim/plat.h"

#include <stdlib.h>
#include <string.h>

/* Set by mcapi_node_init_attributes: attributes nobody prepared are
 * refused (MCAPI_ERR_PARAMETER) rather than read as garbage. */
#define ATTR_MAGIC 0x4e4f4445u

struct top_node *top_enter(mcapi_status_t *status)
{
    struct top_node *n = *plat_thread_slot(PLAT_SLOT_MCAPI);
    if (!n) {
        plat_work("mcapi_call");
        *status = MCAPI_ERR_NODE_NOTINIT;
        return NULL;
    }
    plat_work_cycles(n->call_cycles);
    return n;
}

struct tp_node *top_self(const struct mcapi_transport *t, mcapi_status_t *status)
{
    const struct top_node *n = *plat_thread_slot(PLAT_SLOT_MCAPI);
    *status = !n ? MCAPI_ERR_NODE_NOTINIT : n->t != t ? MCAPI_ERR_PARAMETER : MCAPI_SUCCESS;
    return *status == MCAPI_SUCCESS ? n->tp : NULL;
}

void mcapi_initialize(MCAPI_IN mcapi_domain_t domain_id, MCAPI_IN mcapi_node_t node_id,
                      MCAPI_IN mcapi_node_attributes_t *mcapi_node_attributes,
                      MCAPI_IN mcapi_param_t *init_parameters, MCAPI_OUT mcapi_info_t *mcapi_info,
                      MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    plat_work("mcapi_call");
    plat_work("mcapi_init");
    void **slot = plat_thread_slot(PLAT_SLOT_MCAPI);
    mcapi_status_t st = MCAPI_SUCCESS;
    if (*slot)
        st = MCAPI_ERR_NODE_INITIALIZED;
    else if (domain_id > MCAPI_MAX_DOMAIN)
        st = MCAPI_ERR_DOMAIN_INVALID;
    else if (node_id > MCAPI_MAX_NODE)
        st = MCAPI_ERR_NODE_INVALID;
    else if (!mcapi_info || (mcapi_node_attributes && mcapi_node_attributes->magic != ATTR_MAGIC))
        st = MCAPI_ERR_PARAMETER;
    /* A block nobody prepared is the reference implementation's ignored
     * int: the defaults, as for NULL. */
    if (init_parameters && init_parameters->magic != MCAPI_PARAM_MAGIC) init_parameters = NULL;
    /* The transport is chosen here, per node, from the parameters: one
     * compiled library serves them all. */
    const struct mcapi_transport *t =
        st == MCAPI_SUCCESS ? top_transport(init_parameters, domain_id, node_id) : NULL;
    if (st == MCAPI_SUCCESS && !t) st = MCAPI_ERR_PARAMETER;
    if (st != MCAPI_SUCCESS) {
        *mcapi_status = st;
        return;
    }
    struct top_node *n = malloc(sizeof *n);
    if (!n) {
        *mcapi_status = MCAPI_ERR_NODE_INITFAILED;
        return;
    }
    n->t = t;
    n->dom = domain_id;
    n->node = node_id;
    n->call_cycles = plat_cost("mcapi_call");
    top_req_init(n);
    st = n->t->attach(&n->tp, domain_id, node_id, init_parameters, mcapi_info);
    if (st != MCAPI_SUCCESS) {
        free(n);
        *mcapi_status = st;
        return;
    }
    *slot = n;
    *mcapi_status = MCAPI_SUCCESS;
}

void mcapi_finalize(MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    top_req_abort_all(n);
    n->t->detach(n->tp);
    *plat_thread_slot(PLAT_SLOT_MCAPI) = NULL;
    free(n);
    *mcapi_status = MCAPI_SUCCESS;
}

mcapi_domain_t mcapi_domain_id_get(MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_DOMAIN_INVALID;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return MCAPI_DOMAIN_INVALID;
    *mcapi_status = MCAPI_SUCCESS;
    return n->dom;
}

mcapi_node_t mcapi_node_id_get(MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_NODE_INVALID;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return MCAPI_NODE_INVALID;
    *mcapi_status = MCAPI_SUCCESS;
    return n->node;
}

void mcapi_param_init(mcapi_param_t *param)
{
    if (!param) return;
    memset(param, 0, sizeof *param);
    param->magic = MCAPI_PARAM_MAGIC;
}

void mcapi_node_init_attributes(MCAPI_OUT mcapi_node_attributes_t *mcapi_node_attributes,
                                MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    plat_work("mcapi_call");
    if (!mcapi_node_attributes) {
        *mcapi_status = MCAPI_ERR_PARAMETER;
        return;
    }
    mcapi_node_attributes->type = MCAPI_NODE_ATTR_TYPE_REGULAR;
    mcapi_node_attributes->magic = ATTR_MAGIC;
    *mcapi_status = MCAPI_SUCCESS;
}

void mcapi_node_set_attribute(MCAPI_OUT mcapi_node_attributes_t *mcapi_node_attributes,
                              MCAPI_IN mcapi_uint_t attribute_num, MCAPI_IN void *attribute,
                              MCAPI_IN size_t attribute_size,
                              MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    plat_work("mcapi_call");
    mcapi_node_attr_type_t type = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    if (!mcapi_node_attributes || !attribute || mcapi_node_attributes->magic != ATTR_MAGIC)
        st = MCAPI_ERR_PARAMETER;
    else if (attribute_num >= MCAPI_NODE_ATTR_END)
        /* Organisation-specific numbers (mcapi_start_endp_attribute's
         * ranges) exist in principle; this implementation has none. */
        st = attribute_num >= (mcapi_uint_t)mcapi_start_endp_attribute(MCA_ORG_ID_PSI) &&
                     attribute_num < (mcapi_uint_t)mcapi_end_endp_attribute(MCA_ORG_ID_TBA)
                 ? MCAPI_ERR_ATTR_NOTSUPPORTED
                 : MCAPI_ERR_ATTR_NUM;
    else if (attribute_size != sizeof type)
        st = MCAPI_ERR_ATTR_SIZE;
    else if (memcpy(&type, attribute, sizeof type), type >= MCAPI_NODE_ATTR_TYPE_END)
        st = MCAPI_ERR_ATTR_VALUE;
    else
        mcapi_node_attributes->type = type;
    *mcapi_status = st;
}

void mcapi_node_get_attribute(MCAPI_IN mcapi_domain_t domain_id, MCAPI_IN mcapi_node_t node_id,
                              MCAPI_IN mcapi_uint_t attribute_num, MCAPI_OUT void *attribute,
                              MCAPI_IN size_t attribute_size,
                              MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return;
    if (!attribute)
        *mcapi_status = MCAPI_ERR_PARAMETER;
    else if (domain_id > MCAPI_MAX_DOMAIN)
        *mcapi_status = MCAPI_ERR_DOMAIN_INVALID;
    else if (node_id > MCAPI_MAX_NODE)
        *mcapi_status = MCAPI_ERR_NODE_INVALID;
    else
        *mcapi_status = n->t->node_get_attr(n->tp, domain_id, node_id, attribute_num, attribute,
                                            attribute_size);
}
