/*
 * xmcapi/topo.h -- the XMCAPI topology file: which node listens where.
 *
 * FORMAT
 *   A YAML file with one key, `nodes`, a list of every MCAPI node of the
 *   system and the TCP address it listens on:
 *
 *     nodes:
 *       - {domain: 1, node: 0, host: 127.0.0.1, port: 7100}
 *       - {domain: 1, node: 1, host: 127.0.0.1, port: 7101}
 *
 *   Each entry has exactly these four keys, all required:
 *     domain  whole number 0..MCAPI_MAX_DOMAIN (mcapi_impl_spec.h)
 *     node    whole number 0..MCAPI_MAX_NODE
 *     host    a host name or address, 1..XT_HOST_MAX characters, no spaces
 *             (not resolved here: that is the transport's job, when it
 *             connects)
 *     port    whole number 1..65535
 *
 * RULES (the first broken one is reported)
 *   - the file is a map whose only key is `nodes` (required);
 *   - `nodes` is a non-empty list of maps;
 *   - every entry passes the key rules above (unknown key, with a "did you
 *     mean" when one is close; wrong type; out of range; missing key);
 *   - host is not empty and has no white space;
 *   - no <domain, node> is listed twice;
 *   - no host:port is listed twice (two nodes cannot listen on one socket;
 *     the same host with different ports is fine).
 *
 * ERRORS
 *   Every error is one line "FILE:LINE: message" naming the offending key or
 *   value, e.g.
 *     topo.yaml:3: 'nodes.1.port' is 70000, must be between 1 and 65535
 *     topo.yaml:4: node <1,0> is listed twice (first at line 2)
 *   A file that cannot be read gives "FILE: cannot open: reason".
 *
 * FINDING THE FILE
 *   xt_path(param) picks the file a program uses: the explicit path if it
 *   is given (an initialize parameter, a command-line option), else the
 *   environment variable XMCAPI_TOPOLOGY, else none (NULL).
 *
 * No global state: a struct xt_topo is a plain value, read-only after
 * loading, safe to share between threads.
 */
#ifndef XMCAPI_TOPO_H
#define XMCAPI_TOPO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The environment variable xt_path falls back to. */
#define XT_ENV "XMCAPI_TOPOLOGY"
/* Longest host accepted: a DNS name's limit (RFC 1035), which also covers
 * every textual IPv4 and IPv6 address. */
#define XT_HOST_MAX 253

struct xt_node {
    uint16_t domain;
    uint16_t node;
    uint16_t port;
    int line; /* where the entry is in the file, for later messages */
    char host[XT_HOST_MAX + 1];
};

struct xt_topo {
    size_t n;              /* >= 1 */
    struct xt_node *nodes; /* n entries, in file order */
};

/* The topology file to use: `param` if non-NULL and non-empty, else
 * $XMCAPI_TOPOLOGY if set and non-empty, else NULL. The result is `param`
 * itself or getenv's string (valid until the environment changes). */
const char *xt_path(const char *param);

/* Load and check the file at `path`. NULL on failure, with err filled
 * ("FILE:LINE: message"; see ERRORS). A NULL path (no file found by
 * xt_path) is an error too, one that says how to give one. The message is
 * cut to errlen bytes; err may be NULL (with errlen 0) to drop it. */
struct xt_topo *xt_load(const char *path, char *err, size_t errlen);

/* The same from YAML text; `name` stands for the file name in messages. */
struct xt_topo *xt_parse(const char *name, const char *text, char *err, size_t errlen);

/* Free a topology from xt_load or xt_parse (NULL is fine). */
void xt_free(struct xt_topo *t);

/* The entry of <domain, node>, or NULL if the topology has none. A linear
 * scan (at most (MCAPI_MAX_DOMAIN + 1) * (MCAPI_MAX_NODE + 1) entries):
 * callers look a peer up once per connection, not per message. */
const struct xt_node *xt_find(const struct xt_topo *t, unsigned domain, unsigned node);

#ifdef __cplusplus
}
#endif
#endif
