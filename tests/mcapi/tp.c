/*
 * tp.c -- the transports the conformance cases run over.
 *
 * Every topic file registers its cases with mt_add, which registers them
 * once per transport: suites "mcapi-{native,sim}" (shared memory),
 * "mcapi-dma-{native,sim}" (FUNCAPI's DMA transport, node i on core i) and
 * "mcapi-xm-{native,sim}" (XMCAPI, nodes over loopback TCP natively and
 * the ideal platform's network in simulation). A case that cannot hold on
 * a transport is listed in that transport's skips with the reason, and the
 * reasons are printed when its suite is registered. MT_SKIPPED=1 in the
 * environment runs the skipped cases only.
 */
#include "mt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Why a case is skipped: the transport is built that way (documented), or
 * it falls short and should not (to do). */
enum { MT_BY_DESIGN = 1, MT_NOT_YET };
struct mt_skip {
    const char *name;
    int kind;
    const char *reason;
};

struct mt_tp {
    const char *prefix;
    enum mcapi_transport_kind kind;
    const struct mt_skip *skips;
};

#define MT_DMA_NODES 8            /* the mapping lists node i on core i, i < cores */
#define MT_XM_NODES MCA_MAX_NODES /* the topology lists every node of MT_DOMAIN */

static const struct mt_skip shm_skips[] = {{NULL, 0, NULL}};

/* FUNCAPI's DMA transport: a static mapping, one receive channel per port
 * (7 ports per node on the ideal platform), credits instead of queues. */
#define DMA_PORTS "needs ports above the 7 a node of the DMA mapping has (one receive channel each)"
#define DMA_MAP "needs nodes outside the static mapping (node i on core i)"
#define DMA_HELLO                                                                                  \
    "a send waits for the receive end's open (its HELLO brings the buffers and credits)"
#define DMA_GETS                                                                                   \
    "a get is computed from the mapping and sends nothing (FUNCAPI): the owner counts and limits " \
    "only its own gets"
#define DMA_FULL                                                                                   \
    "fills a port while its node makes no call (the 2nd send waits in the engine, as "             \
    "msg_full_queue), and a sender is not told of a remote delete"
#define DMA_FLIGHT                                                                                 \
    "a sent message is still in the DMA engine when the sender returns: an immediate receive "     \
    "sees only what has landed"
static const struct mt_skip dma_skips[] = {
    {"node_init", MT_BY_DESIGN, "number_of_ports is the node's 7 channels, not 1024"},
    {"node_count", MT_BY_DESIGN, "number_of_nodes counts the mapping's nodes, not the initialised"},
    {"node_invalid", MT_BY_DESIGN, DMA_MAP},
    {"node_region_clash", MT_BY_DESIGN, "tests shared-memory regions"},
    {"endp_create", MT_BY_DESIGN, DMA_PORTS},
    {"endp_limit", MT_BY_DESIGN, DMA_PORTS},
    {"endp_get", MT_BY_DESIGN, DMA_PORTS},
    {"endp_release", MT_BY_DESIGN, DMA_PORTS},
    {"req_wait_any", MT_BY_DESIGN, DMA_PORTS},
    {"req_limit", MT_BY_DESIGN, DMA_PORTS},
    {"lim_channels", MT_BY_DESIGN, DMA_PORTS},
    {"lim_msg_buffers", MT_BY_DESIGN, DMA_PORTS},
    {"lim_reclaim_msg", MT_BY_DESIGN, DMA_PORTS},
    {"err_null_status", MT_BY_DESIGN, DMA_PORTS},
    {"err_stale", MT_BY_DESIGN, DMA_PORTS},
    {"churn_channels", MT_BY_DESIGN, DMA_PORTS},
    {"endp_get_late_node", MT_BY_DESIGN,
     "an endpoint handle is an address: a get succeeds before the node exists"},
    {"endp_get_bad", MT_BY_DESIGN,
     "an endpoint handle is an address: a get succeeds before the endpoint exists"},
    {"endp_get_limit", MT_BY_DESIGN, DMA_GETS},
    {"endp_delete", MT_BY_DESIGN,
     "an endpoint handle is an address: a send to a deleted endpoint completes (its port drops "
     "it), and a re-created one has the same handle"},
    {"endp_deleted_pending", MT_BY_DESIGN, DMA_FULL},
    {"endp_finalize_pending", MT_BY_DESIGN, DMA_FULL},
    {"attr_get", MT_BY_DESIGN, "MAX_PAYLOAD_SIZE is the transport's 4096"},
    {"attr_set", MT_BY_DESIGN, DMA_GETS},
    {"attr_payload_remote", MT_BY_DESIGN,
     "a connect sends CONNECT and completes, unanswered: another node's attributes are not known "
     "to the connecting node (a packet larger than the receive end's buffers is refused at send, "
     "MCAPI_ERR_PKT_SIZE)"},
    {"attr_buffers", MT_BY_DESIGN, "buffers are the 4 credits of a channel, not the domain's pool"},
    {"port_recv_buffers", MT_BY_DESIGN,
     "NUM_RECV_BUFFERS counts the node's free internal message buffers, not a queue's 64"},
    {"msg_priority", MT_BY_DESIGN,
     "a port is one receive channel, one FIFO: priorities are checked, not used (FUNCAPI)"},
    {"msg_full_queue", MT_BY_DESIGN,
     "a message to a full port waits in the sender's engine (the hardware's one transmit in "
     "flight) and the sender's later sends wait behind it"},
    {"msg_order_pending", MT_BY_DESIGN, DMA_FLIGHT},
    {"to_msg_recv", MT_BY_DESIGN, DMA_FLIGHT},
    {"req_immediate", MT_BY_DESIGN, DMA_FLIGHT},
    {"pkt_basic", MT_BY_DESIGN, DMA_HELLO},
    {"churn_endpoints", MT_BY_DESIGN,
     "an endpoint handle is an address: a send with a deleted endpoint's handle reaches the "
     "port's next endpoint"},
    {"pkt_send_before_open", MT_BY_DESIGN, DMA_HELLO},
    {"pkt_errors", MT_BY_DESIGN,
     "a connected endpoint's one receive channel holds its channel's buffers: a message to it "
     "lands as a packet (and the case needs port 7)"},
    {"pkt_msg_to_end", MT_BY_DESIGN,
     "a port has one receive channel and a transfer no header: a message sent to a channel's "
     "receive end lands in the channel's buffers as a packet"},
    {"pkt_close", MT_BY_DESIGN, "a sender has 4 credits: the 5th packet waits for a release"},
    {"pkt_close_midstream", MT_BY_DESIGN,
     "a sender has 4 credits: the 5th packet waits for a release, not for the close"},
    {"lim_pkt_buffers", MT_BY_DESIGN, "tests the shared-memory packet pool"},
    {"lim_reclaim_pkt", MT_BY_DESIGN, "tests the shared-memory packet pool"},
    {"pkt_stream", MT_BY_DESIGN, "packets are at most 4096 bytes"},
    {"sim_pkt_copy", MT_BY_DESIGN, "packets are at most 4096 bytes"},
    {"scl_basic", MT_BY_DESIGN,
     "a scalar channel's receive end has 16 buffers: a sender of more waits for receives"},
    {"scl_full", MT_BY_DESIGN, "a scalar channel has 16 buffers, not the shared queue's depth"},
    {"thr_ring", MT_BY_DESIGN, DMA_MAP},
    {"thr_many_to_one", MT_BY_DESIGN, DMA_MAP},
    {"thr_channels", MT_BY_DESIGN, DMA_MAP},
    {"thr_all_nodes", MT_BY_DESIGN, DMA_MAP},
    {"proc_exchange", MT_BY_DESIGN,
     "nodes in two processes share memory: the DMA engine is a process's"},
    {"virtual_bad_routes", MT_BY_DESIGN, "the case's routes replace the DMA mapping"},
    {NULL, 0, NULL}};

/* XMCAPI over TCP: nodes listed in a topology, messages in flight on a
 * socket, queues limited per sending node by its credits. */
static const struct mt_skip xm_skips[] = {
    {"node_init", MT_BY_DESIGN, "number_of_nodes counts the topology's nodes"},
    {"node_count", MT_BY_DESIGN, "number_of_nodes counts the topology's nodes"},
    {"node_invalid", MT_BY_DESIGN, "only nodes of the topology exist (one domain listed)"},
    {"node_region_clash", MT_BY_DESIGN, "tests shared-memory regions"},
    {"lim_channels", MT_BY_DESIGN,
     "MCAPI_MAX_CHANNELS counts the domain's channels: no node of a TCP domain sees every "
     "connect (a node's channel ends are bounded by its 32 endpoints)"},
    {"lim_pkt_buffers", MT_BY_DESIGN, "tests the shared-memory packet pool"},
    {"lim_reclaim_pkt", MT_BY_DESIGN, "tests the shared-memory packet pool"},
    {"pkt_reuse_clean", MT_BY_DESIGN,
     "a received packet is a buffer of its own size: there is nothing past it to read"},
    {"proc_exchange", MT_BY_DESIGN, "tests a shared-memory region between processes"},
    {"virtual_bad_routes", MT_BY_DESIGN, "routes ask for the shared-memory transport"},
    {NULL, 0, NULL}};

static const struct mt_tp tps[] = {
    {"mcapi", MCAPI_TRANSPORT_SHM, shm_skips},
    {"mcapi-dma", MCAPI_TRANSPORT_DMA, dma_skips},
    {"mcapi-xm", MCAPI_TRANSPORT_XMCAPI, xm_skips},
};

static const struct mt_tp *current(void)
{
    const struct mt_tp *t = harness_param();
    return t ? t : &tps[0];
}

enum mcapi_transport_kind mt_transport(void)
{
    return current()->kind;
}

/* Ports from the process id, as tests/xmcapi: runs at the same time (plain,
 * ASan, TSan) do not meet; below Linux's first ephemeral port. */
static unsigned xm_port(unsigned n)
{
    return 21000u + (unsigned)(getpid() % 160) * MT_XM_NODES + n;
}

/* The parameters of the running test: the same for every node, built once
 * (cores initialise at the same time). */
static struct mcapi_route routes[MT_DMA_NODES];
static char topo[MT_XM_NODES * 64 + 16];
static mcapi_param_t params;
static pthread_once_t built = PTHREAD_ONCE_INIT;

static void build(void)
{
    mcapi_param_init(&params);
    params.transport = mt_transport();
    if (params.transport == MCAPI_TRANSPORT_DMA) {
        for (int c = 0; c < plat_cores() && params.nroutes < MT_DMA_NODES; c++)
            routes[params.nroutes++] =
                (struct mcapi_route){MT_DOMAIN, (mca_node_t)c, MCAPI_ROUTE_DMA, NULL, c};
        params.routes = routes;
    } else if (params.transport == MCAPI_TRANSPORT_XMCAPI) {
        size_t k = (size_t)snprintf(topo, sizeof topo, "nodes:\n");
        for (unsigned i = 0; i < MT_XM_NODES; i++)
            k += (size_t)snprintf(topo + k, sizeof topo - k,
                                  "  - {domain: %d, node: %u, host: 127.0.0.1, port: %u}\n",
                                  MT_DOMAIN, i, xm_port(i));
        params.topology = topo;
    }
}

mcapi_param_t *mt_params(void)
{
    if (mt_transport() == MCAPI_TRANSPORT_SHM) return NULL; /* the defaults, as ever */
    pthread_once(&built, build);
    return &params;
}

static const struct mt_skip *skipped(const struct mt_tp *t, const char *name)
{
    for (const struct mt_skip *s = t->skips; s->name; s++)
        if (!strcmp(s->name, name)) return s;
    return NULL;
}

/* MT_SKIPPED=1 runs only the skipped cases instead (to see whether they
 * still fail: a "not yet" that passes should leave its list). */
void mt_add(const struct harness_case *cases, size_t n)
{
    const char *only = getenv("CK_RUN_SUITE");
    const char *inverse = getenv("MT_SKIPPED");
    bool want_skipped = inverse && *inverse == '1';
    /* The harness keeps pointers to the cases: they live here. */
    static struct harness_case kept[HARNESS_COUNT(tps) * 256];
    static size_t nkept;
    for (size_t t = 0; t < HARNESS_COUNT(tps); t++) {
        if (nkept + n > HARNESS_COUNT(kept)) abort(); /* raise the 256 */
        struct harness_case *mine = &kept[nkept];
        size_t len = strlen(tps[t].prefix), m = 0;
        bool told = !only || (!strncmp(only, tps[t].prefix, len) && only[len] == '-');
        for (size_t i = 0; i < n; i++) {
            const struct mt_skip *why = skipped(&tps[t], cases[i].name);
            if (why && told && !want_skipped)
                fprintf(stderr, "%s: skipped %s (%s): %s\n", tps[t].prefix, cases[i].name,
                        why->kind == MT_BY_DESIGN ? "by design" : "not yet", why->reason);
            if (!why == want_skipped) continue;
            mine[m] = cases[i];
            mine[m++].param = &tps[t];
        }
        nkept += m;
        harness_add_cases(tps[t].prefix, mine, m);
    }
}
