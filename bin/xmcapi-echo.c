/*
 * xmcapi-echo NODE -- serve xmcapi-ping sessions: echo every message or
 * packet back to its sender (bin/xmcli.h has the protocol).
 *
 * Sessions are served one after the other; a session ends after its count,
 * after XMCLI_IDLE_MS without traffic, or when its client fails, and the
 * node then serves the next. Runs until killed.
 */
#define _POSIX_C_SOURCE 200809L
#include "xmcli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "xmcapi-echo";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [--topology FILE] NODE\n"
            "Serve xmcapi-ping sessions as MCAPI node NODE (DOMAIN:NODE, or NODE if its number\n"
            "is unique in the topology): every message or packet is echoed back. Sessions\n"
            "start with a message to port %d. Runs until killed.\n"
            "  -t, --topology FILE  the topology file (default: $XMCAPI_TOPOLOGY)\n"
            "  -q, --quiet          no line per session\n"
            "  -h, --help           this text\n",
            prog, XMCLI_PORT);
}

static int quiet;

/* Echo messages: `count` of them, from session endpoint ep to the client. */
static mcapi_status_t echo_msgs(mcapi_endpoint_t ep, mcapi_endpoint_t client, uint32_t count,
                                uint32_t *done)
{
    static uint8_t buf[MCAPI_MAX_MSG_SIZE];
    mcapi_status_t st = MCAPI_SUCCESS;
    for (*done = 0; *done < count; ++*done) {
        size_t got = 0;
        mcapi_msg_recv(ep, buf, sizeof buf, &got, &st);
        if (st != MCAPI_SUCCESS) return st;
        mcapi_msg_send(ep, client, buf, got, 1, &st);
        if (st != MCAPI_SUCCESS) return st;
    }
    return st;
}

static mcapi_status_t echo_pkts(mcapi_endpoint_t in, mcapi_endpoint_t out, uint32_t count,
                                uint32_t *done)
{
    mcapi_status_t st = 0;
    mcapi_request_t r1, r2;
    mcapi_pktchan_recv_hndl_t rx;
    mcapi_pktchan_send_hndl_t tx;
    size_t n;
    *done = 0;
    mcapi_pktchan_recv_open_i(&rx, in, &r1, &st);
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) return st;
    mcapi_pktchan_send_open_i(&tx, out, &r2, &st);
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) return st;
    if (!mcapi_wait(&r1, &n, XMCLI_IDLE_MS, &st) || st != MCAPI_SUCCESS) return st;
    if (!mcapi_wait(&r2, &n, XMCLI_IDLE_MS, &st) || st != MCAPI_SUCCESS) return st;
    for (; *done < count; ++*done) {
        void *p;
        size_t got;
        mcapi_pktchan_recv(rx, &p, &got, &st);
        if (st != MCAPI_SUCCESS) break;
        mcapi_pktchan_send(tx, p, got, &st);
        mcapi_status_t rel;
        mcapi_pktchan_release(p, &rel);
        if (st != MCAPI_SUCCESS) break;
    }
    mcapi_status_t c;
    mcapi_pktchan_recv_close_i(rx, &r1, &c);
    mcapi_pktchan_send_close_i(tx, &r2, &c);
    return st;
}

/* A session endpoint on the next free port from XMCLI_PORT + 1 on (MCAPI
 * cannot tell the port of an endpoint made with MCAPI_PORT_ANY). */
static mcapi_endpoint_t session_ep(mcapi_port_t *port)
{
    static mcapi_port_t next = XMCLI_PORT + 1;
    for (int tries = 0; tries < MCAPI_MAX_PORT; tries++) {
        mcapi_port_t p = next;
        next = next >= MCAPI_MAX_PORT ? XMCLI_PORT + 1 : next + 1;
        mcapi_endpoint_t ep = xmcli_endpoint(p, XMCLI_IDLE_MS);
        if (ep) {
            *port = p;
            return ep;
        }
    }
    return MCAPI_NULL;
}

static void session(mcapi_endpoint_t svc, const struct xmcli_hello *h)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t client =
        mcapi_endpoint_get((mcapi_domain_t)h->domain, (mcapi_node_t)h->node, h->port, 1000, &st);
    if (st != MCAPI_SUCCESS) {
        fprintf(stderr, "%s: client <%u,%u> port %u: %s\n", prog, h->domain, h->node, h->port,
                xmcli_status(st));
        return;
    }
    mcapi_port_t pa = 0, pb = 0;
    mcapi_endpoint_t a = session_ep(&pa);
    mcapi_endpoint_t b = h->mode == XMCLI_PKT ? session_ep(&pb) : MCAPI_NULL;
    uint8_t ready[4] = {(uint8_t)(pa >> 8), (uint8_t)pa, (uint8_t)(pb >> 8), (uint8_t)pb};
    if (!a || (h->mode == XMCLI_PKT && !b)) memset(ready, 0xff, sizeof ready); /* refused */
    mcapi_msg_send(svc, client, ready, sizeof ready, 1, &st);
    uint32_t done = 0;
    if (st == MCAPI_SUCCESS && a && (h->mode == XMCLI_MSG || b))
        st = h->mode == XMCLI_MSG ? echo_msgs(a, client, h->count, &done)
                                  : echo_pkts(a, b, h->count, &done);
    if (!quiet || st != MCAPI_SUCCESS) {
        fprintf(
            st == MCAPI_SUCCESS ? stdout : stderr,
            "%s: session of <%u,%u>: %u of %u %s of %u bytes echoed%s%s\n", prog, h->domain,
            h->node, done, h->count, h->mode == XMCLI_MSG ? "messages" : "packets", h->bytes,
            st == MCAPI_SUCCESS ? "" : ", ended: ", st == MCAPI_SUCCESS ? "" : xmcli_status(st));
        fflush(stdout);
    }
    mcapi_status_t d;
    if (a) mcapi_endpoint_delete(a, &d);
    if (b) mcapi_endpoint_delete(b, &d);
}

int main(int argc, char **argv)
{
    const char *topo = NULL;
    static const struct option opts[] = {{"topology", required_argument, NULL, 't'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    /* "-1" as NODE: getopt would call it an unknown option. */
    const char *neg = NULL;
    if (xmcli_negative(argc, argv, "t:qh", opts, &neg) == 0) {
        fprintf(stderr, "%s: NODE '%s' is not a node: give DOMAIN:NODE or NODE, e.g. 1:1\n", prog,
                neg);
        return 2;
    }
    int c;
    while ((c = getopt_long(argc, argv, "t:qh", opts, NULL)) != -1) {
        if (c == 't')
            topo = optarg;
        else if (c == 'q')
            quiet = 1;
        else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return 2;
    }
    mcapi_domain_t dom;
    mcapi_node_t node;
    if (xmcli_node(prog, argv[optind], topo, &dom, &node) != 0) return 2;
    xmcli_start(prog, topo, dom, node);
    mcapi_endpoint_t svc = xmcli_endpoint(XMCLI_PORT, MCAPI_TIMEOUT_INFINITE);
    if (!svc) {
        fprintf(stderr, "%s: cannot create the service endpoint (port %d)\n", prog, XMCLI_PORT);
        return 2;
    }
    printf("%s: node <%u,%u> at %s serving on port %d\n", prog, (unsigned)dom, (unsigned)node,
           xmcli_addr(topo, dom, node), XMCLI_PORT);
    fflush(stdout);
    for (;;) {
        uint8_t buf[MCAPI_MAX_MSG_SIZE];
        size_t got = 0;
        mcapi_status_t st = 0;
        mcapi_msg_recv(svc, buf, sizeof buf, &got, &st);
        struct xmcli_hello h;
        if (st != MCAPI_SUCCESS || xmcli_hello_get(buf, got, &h) != 0) {
            fprintf(stderr, "%s: ignored a message of %zu bytes on port %d (%s)\n", prog, got,
                    XMCLI_PORT, st == MCAPI_SUCCESS ? "not a session hello" : xmcli_status(st));
            continue;
        }
        session(svc, &h);
    }
    return 0;
}
