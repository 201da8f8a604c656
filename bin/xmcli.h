/*
 * bin/xmcli.h -- what xmcapi-echo and xmcapi-ping share: the node argument,
 * starting a node from the topology, and their little session protocol.
 *
 * A session: the client sends a HELLO message to the echo node's service
 * port (XMCLI_PORT) naming its reply endpoint, the mode, the count and the
 * size; the echo node creates the session's endpoints (any free ports) and
 * answers with their ports. Messages: the client sends to the session
 * endpoint, and each message comes back to its reply endpoint. Packets: the
 * client connects its send endpoint to the echo's receive endpoint and the
 * echo's send endpoint to its receive endpoint, both sides open, and each
 * packet comes back on the other channel. The echo ends the session after
 * `count` echoes or XMCLI_IDLE_MS without one.
 */
#ifndef XMCAPI_BIN_XMCLI_H
#define XMCAPI_BIN_XMCLI_H

#include "mcapi.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#define XMCLI_PORT 1000     /* the echo node's service endpoint */
#define XMCLI_IDLE_MS 10000 /* a session with no traffic this long ends */

enum xmcli_mode { XMCLI_MSG = 1, XMCLI_PKT = 2 };

struct xmcli_hello {
    uint8_t mode;                /* enum xmcli_mode */
    uint16_t domain, node, port; /* the client's reply endpoint */
    uint32_t count, bytes;
};
#define XMCLI_HELLO_BYTES 20

void xmcli_hello_put(const struct xmcli_hello *h, uint8_t out[XMCLI_HELLO_BYTES]);
/* 0, or -1 if it is not a hello. */
int xmcli_hello_get(const uint8_t *in, size_t n, struct xmcli_hello *h);

/* "D:N" or "N" (the domain of the one topology entry with node N). 0, or -1
 * with a message on stderr. */
int xmcli_node(const char *prog, const char *arg, const char *topo_path, mcapi_domain_t *dom,
               mcapi_node_t *node);
/* The place among the positional arguments (0: the first) of the first
 * one that reads as a negative number ("-1"), or -1 if none. getopt would
 * take it for options ("invalid option -- '1'"); the caller gives the
 * argument's range instead. shortopts and longopts as for getopt_long (only
 * which options take a value matters); argument "--" ends the scan. */
int xmcli_negative(int argc, char *const argv[], const char *shortopts,
                   const struct option *longopts, const char **arg);
/* 0 if the host of <dom, node> in the topology resolves, else -1 with
 * "PROG: cannot resolve HOST (node <D,N>, FILE:LINE): reason" on stderr:
 * said at once, where the transport would retry the name until its
 * timeout. */
int xmcli_resolves(const char *prog, const char *topo_path, mcapi_domain_t dom, mcapi_node_t node);
/* Start node <dom, node> over XMCAPI; exits 2 with a message on failure. */
void xmcli_start(const char *prog, const char *topo_path, mcapi_domain_t dom, mcapi_node_t node);
/* "host:port" of <dom, node> from the topology, for messages. */
const char *xmcli_addr(const char *topo_path, mcapi_domain_t dom, mcapi_node_t node);
const char *xmcli_status(mcapi_status_t st);
mcapi_endpoint_t xmcli_endpoint(mcapi_port_t port, mcapi_timeout_t timeout_ms);

/* The test pattern: byte i of message seq. */
static inline uint8_t xmcli_byte(uint32_t seq, size_t i)
{
    return (uint8_t)(seq * 131u + i * 7u + (i >> 8) + 1u);
}
void xmcli_fill(uint8_t *b, size_t n, uint32_t seq);
size_t xmcli_check(const uint8_t *b, size_t n, uint32_t seq); /* first wrong byte, n if none */

#endif
