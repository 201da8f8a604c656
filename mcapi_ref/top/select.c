/*
 * top/select.c -- which transport a node uses.
 *
 * The choice exists once, here, over mcapi_transports[]: the transports the
 * library was linked with, each naming its MCAPI_TRANSPORT_* kind and,
 * where it wants them, claiming nodes that name no transport. libmcapi.a's
 * table (transport/transports.c) holds shared memory and DMA; libxmcapi.a
 * has xmcapi/xm_transports.c instead, which adds XMCAPI, whose claim takes
 * a node its topology file lists. So linking a program with libxmcapi.a
 * instead of libmcapi.a is all it takes to reach other hosts, and
 * libmcapi.a holds no XMCAPI code.
 */
#include "top.h"

const struct mcapi_transport *top_transport(const mcapi_param_t *param, mcapi_domain_t dom,
                                            mcapi_node_t node)
{
    enum mcapi_transport_kind kind = param ? param->transport : MCAPI_TRANSPORT_SHM;
    const struct mcapi_transport *const *t;
    /* MCAPI_TRANSPORT_SHM is the zero value: it also means "none named". */
    if (kind == MCAPI_TRANSPORT_SHM)
        for (t = mcapi_transports; *t; t++)
            if ((*t)->claims && (*t)->claims(param, dom, node)) return *t;
    for (t = mcapi_transports; *t; t++)
        if ((*t)->kind == kind) return *t;
    return NULL; /* not in this library (XMCAPI in libmcapi.a), or not a transport */
}
