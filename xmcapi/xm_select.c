/*
 * xmcapi/xm_select.c -- which transport a node uses (libxmcapi.a).
 *
 * Replaces mcapi_ref/top/select.c in libxmcapi.a. A node that names no
 * transport (no parameters, or MCAPI_TRANSPORT_SHM, the zero value, with no
 * shared region or routes named) goes over XMCAPI when a topology file is
 * found (mcapi_param_t.topology or $XMCAPI_TOPOLOGY) and lists it: an unmodified MCAPI program
 * reaches other hosts by being linked with libxmcapi.a and run with XMCAPI_TOPOLOGY set.
 */
#include "topo.h"
#include "xm.h"

#include "../mcapi_ref/top/top.h"

#include <string.h>

static bool listed(const mcapi_param_t *param, mcapi_domain_t dom, mcapi_node_t node)
{
    const char *path = xt_path(param ? param->topology : NULL);
    if (!path) return false;
    char err[8];
    struct xt_topo *t =
        strchr(path, '\n') ? xt_parse("", path, err, sizeof err) : xt_load(path, err, sizeof err);
    bool yes = t && xt_find(t, dom, node);
    xt_free(t);
    return yes;
}

const struct mcapi_transport *top_transport(const mcapi_param_t *param, mcapi_domain_t dom,
                                            mcapi_node_t node)
{
    if (param && param->transport == MCAPI_TRANSPORT_XMCAPI) return &mcapi_xm_transport;
    if (param && param->transport == MCAPI_TRANSPORT_DMA) return &mcapi_dma_transport;
    if (param && param->transport != MCAPI_TRANSPORT_SHM) return NULL;
    /* Parameters that name a shared region or routes ask for shared memory. */
    bool shm = param && ((param->shm_name && *param->shm_name) || param->nroutes);
    return !shm && listed(param, dom, node) ? &mcapi_xm_transport : &mcapi_shm_transport;
}
