/* bin/xmcli.c -- shared by xmcapi-echo and xmcapi-ping (xmcli.h). */
#define _POSIX_C_SOURCE 200809L /* getaddrinfo */
#include "xmcli.h"

#include "../xmcapi/topo.h"

#include <ctype.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v & 0xffffu);
}
static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)get16(p) << 16 | get16(p + 2);
}

void xmcli_hello_put(const struct xmcli_hello *h, uint8_t out[XMCLI_HELLO_BYTES])
{
    memcpy(out, "XPNG", 4);
    out[4] = h->mode;
    out[5] = 0;
    put16(out + 6, h->domain);
    put16(out + 8, h->node);
    put16(out + 10, h->port);
    put32(out + 12, h->count);
    put32(out + 16, h->bytes);
}

int xmcli_hello_get(const uint8_t *in, size_t n, struct xmcli_hello *h)
{
    if (n != XMCLI_HELLO_BYTES || memcmp(in, "XPNG", 4) != 0) return -1;
    h->mode = in[4];
    h->domain = (uint16_t)get16(in + 6);
    h->node = (uint16_t)get16(in + 8);
    h->port = (uint16_t)get16(in + 10);
    h->count = get32(in + 12);
    h->bytes = get32(in + 16);
    return h->mode == XMCLI_MSG || h->mode == XMCLI_PKT ? 0 : -1;
}

static struct xt_topo *load(const char *prog, const char *path)
{
    char err[512];
    struct xt_topo *t = xt_load(xt_path(path), err, sizeof err);
    if (!t) fprintf(stderr, "%s: %s\n", prog, err);
    return t;
}

int xmcli_node(const char *prog, const char *arg, const char *topo_path, mcapi_domain_t *dom,
               mcapi_node_t *node)
{
    unsigned d = 0, n = 0;
    char tail;
    bool both = sscanf(arg, "%u:%u%c", &d, &n, &tail) == 2;
    if (!both && sscanf(arg, "%u%c", &n, &tail) != 1) {
        fprintf(stderr, "%s: '%s' is not a node: give DOMAIN:NODE or NODE, e.g. 1:0\n", prog, arg);
        return -1;
    }
    struct xt_topo *t = load(prog, topo_path);
    if (!t) return -1;
    int found = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->nodes[i].node == n && (!both || t->nodes[i].domain == d)) {
            d = t->nodes[i].domain;
            found++;
        }
    xt_free(t);
    if (found != 1) {
        if (found)
            fprintf(stderr, "%s: node %u is in several domains of %s: give DOMAIN:NODE\n", prog, n,
                    xt_path(topo_path));
        else
            fprintf(stderr, "%s: node %s is not in the topology file %s\n", prog, arg,
                    xt_path(topo_path));
        return -1;
    }
    *dom = (mcapi_domain_t)d;
    *node = (mcapi_node_t)n;
    return 0;
}

/* Whether option character c (or long option name, n bytes) takes a value. */
static bool short_valued(const char *shortopts, char c)
{
    const char *p = c != ':' ? strchr(shortopts, c) : NULL;
    return p && p[1] == ':';
}
static bool long_valued(const struct option *longopts, const char *name, size_t n)
{
    for (const struct option *o = longopts; o && o->name; o++)
        if (strlen(o->name) == n && strncmp(o->name, name, n) == 0)
            return o->has_arg == required_argument;
    return false;
}

int xmcli_negative(int argc, char *const argv[], const char *shortopts,
                   const struct option *longopts, const char **arg)
{
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) return -1;
        if (a[0] == '-' && isdigit((unsigned char)a[1])) {
            *arg = a;
            return pos;
        }
        if (a[0] == '-' && a[1] == '-') { /* --name VALUE, --name=VALUE */
            if (!strchr(a, '=') && long_valued(longopts, a + 2, strlen(a + 2))) i++;
            continue;
        }
        if (a[0] == '-' && a[1]) { /* -abc, -tFILE, -t FILE */
            for (const char *c = a + 1; *c; c++)
                if (short_valued(shortopts, *c)) {
                    if (!c[1]) i++;
                    break;
                }
            continue;
        }
        pos++;
    }
    return -1;
}

int xmcli_resolves(const char *prog, const char *topo_path, mcapi_domain_t dom, mcapi_node_t node)
{
    struct xt_topo *t = load(prog, topo_path);
    if (!t) return -1;
    const struct xt_node *e = xt_find(t, dom, node);
    int rc = 0;
    if (e) {
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
        int err = getaddrinfo(e->host, NULL, &hints, &res);
        if (err) {
            fprintf(stderr, "%s: cannot resolve %s (node <%u,%u>, %s:%d): %s\n", prog, e->host,
                    (unsigned)dom, (unsigned)node, xt_path(topo_path), e->line, gai_strerror(err));
            rc = -1;
        }
        if (res) freeaddrinfo(res);
    }
    xt_free(t);
    return rc;
}

const char *xmcli_addr(const char *topo_path, mcapi_domain_t dom, mcapi_node_t node)
{
    static char buf[XT_HOST_MAX + 16];
    char err[8];
    struct xt_topo *t = xt_load(xt_path(topo_path), err, sizeof err);
    const struct xt_node *e = t ? xt_find(t, dom, node) : NULL;
    snprintf(buf, sizeof buf, "%s:%u", e ? e->host : "?", e ? e->port : 0u);
    xt_free(t);
    return buf;
}

const char *xmcli_status(mcapi_status_t st)
{
    static char buf[MCAPI_MAX_STATUS_MSG_LEN];
    return mcapi_display_status(st, buf, sizeof buf);
}

void xmcli_start(const char *prog, const char *topo_path, mcapi_domain_t dom, mcapi_node_t node)
{
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .transport = MCAPI_TRANSPORT_XMCAPI,
                           .topology = topo_path};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(dom, node, NULL, &param, &info, &st);
    if (st != MCAPI_SUCCESS) {
        fprintf(stderr, "%s: cannot start node <%u,%u>: %s\n", prog, (unsigned)dom, (unsigned)node,
                xmcli_status(st));
        exit(2);
    }
}

mcapi_endpoint_t xmcli_endpoint(mcapi_port_t port, mcapi_timeout_t timeout_ms)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    if (st == MCAPI_SUCCESS)
        mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &timeout_ms, sizeof timeout_ms,
                                     &st);
    return st == MCAPI_SUCCESS ? ep : MCAPI_NULL;
}

void xmcli_fill(uint8_t *b, size_t n, uint32_t seq)
{
    for (size_t i = 0; i < n; i++) b[i] = xmcli_byte(seq, i);
}

size_t xmcli_check(const uint8_t *b, size_t n, uint32_t seq)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != xmcli_byte(seq, i)) return i;
    return n;
}
