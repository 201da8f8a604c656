/*
 * transport/transports.c -- the transports libmcapi.a holds, for
 * top/select.c.
 *
 * The one member of libmcapi.a that libxmcapi.a leaves out: its own table,
 * xmcapi/xm_transports.c, lists these and XMCAPI. Data only, so the choice
 * of transport is the same code in both libraries.
 */
#include "mcapi_transport.h"

const struct mcapi_transport *const mcapi_transports[] = {&mcapi_shm_transport,
                                                          &mcapi_dma_transport, NULL};
