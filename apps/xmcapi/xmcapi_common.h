/*
 * apps/xmcapi/xmcapi_common.h -- what the XMCAPI apps share (paper 001).
 *
 * Roles: a and b are the two hosts' user threads (MCAPI nodes 0 and 1 of
 * domain 1); a2 and b2, when mapped, are the hosts' second cores, where a
 * dual-core (DC) host runs its communicator thread. The topology is carried
 * in the app (mcapi_param_t.topology as text): 127.0.0.1 and ports from
 * `port`; in simulation only the ports matter.
 */
#ifndef IPCSIM_APPS_XMCAPI_COMMON_H
#define IPCSIM_APPS_XMCAPI_COMMON_H

#include "ipcsim/app.h"
#include "mcapi.h"

#include <stdbool.h>
#include <stddef.h>

extern const char *const xa_roles[]; /* a, b, a2, b2 */

#define XA_WAIT_MS 10000 /* how long a side waits for the other to start */

struct xa {
    struct app_ctx *ctx;
    const char *app;
    int side;    /* 0: a, 1: b, -1: a core with nothing to do */
    int core[4]; /* of a, b, a2, b2 (-1: unmapped) */
    long port;   /* the first TCP port; each session takes the next two */
    int session; /* sessions started so far */
    enum mcapi_xm_notify notify;
    mcapi_endpoint_t ep, peer;
};

/* Roles and common arguments; false if this core has no part. */
bool xa_setup(struct xa *x, struct app_ctx *ctx, const char *app);
/* Start node `side` for a new session, the communicator on the host's
 * second core if dc, then meet the peer (each side's first message).
 * False after app_fail. */
bool xa_start(struct xa *x, bool dc);
void xa_stop(struct xa *x);
/* A message exchange with a status check: false after app_fail. */
bool xa_send(struct xa *x, const void *buf, size_t n);
bool xa_recv(struct xa *x, void *buf, size_t cap, size_t *got);

#define XA_ARGS                                                                                    \
    {"port", APP_INT, "7100", "first TCP port; each session uses the next two", 1, 65000, 0},      \
    {                                                                                              \
        "notify", APP_STR, "pipe",                                                                 \
            "how the user thread hands sends to its communicator: pipe (the paper's), wake, "      \
            "direct",                                                                              \
            0, 0, 0                                                                                \
    }

#endif
