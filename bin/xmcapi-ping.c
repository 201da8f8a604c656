/*
 * xmcapi-ping NODE PEER COUNT BYTES -- send COUNT messages (or packets) of
 * BYTES to the xmcapi-echo at node PEER, check every echo byte for byte,
 * print the round-trip times, exit 0 only if all came back intact.
 */
#define _POSIX_C_SOURCE 200809L
#include "xmcli.h"

#include "../xmcapi/xmcapi.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *prog = "xmcapi-ping";

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: %s [options] NODE PEER COUNT BYTES\n"
        "As MCAPI node NODE, send COUNT messages of BYTES bytes to the xmcapi-echo running\n"
        "as node PEER (nodes: DOMAIN:NODE, or NODE if unique in the topology), check every\n"
        "echo byte for byte and print\n"
        "  rtt_us=<median> min_us=<min> max_us=<max> count=<COUNT> bytes=<BYTES> mode=<msg|pkt>\n"
        "  mismatched=<echoes that came back different or of another size>\n"
        "(one line). NODE and PEER differ; COUNT is 1 to 100000000, BYTES 0 to %d.\n"
        "Exit status: 0 all echoes matched; 1 a mismatch; 2 a usage error, PEER's host does\n"
        "not resolve, the peer does not answer within the timeout, or it went away (its\n"
        "connection closed: said at once).\n"
        "  -t, --topology FILE   the topology file (default: $XMCAPI_TOPOLOGY)\n"
        "  -m, --mode msg|pkt    messages (up to %d bytes) or a packet channel (up to %d);\n"
        "                        default: msg if BYTES fits a message, else pkt\n"
        "  -w, --timeout MS      give up on the peer after MS ms without an answer (5000)\n"
        "  -h, --help            this text\n",
        prog, MCAPI_MAX_PKT_SIZE, MCAPI_MAX_MSG_SIZE, MCAPI_MAX_PKT_SIZE);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned long number(const char *what, const char *s, unsigned long lo, unsigned long hi)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || *s == '-' || v < lo || v > hi) {
        fprintf(stderr, "%s: %s '%s' must be a whole number from %lu to %lu\n", prog, what, s, lo,
                hi);
        exit(2);
    }
    return v;
}

struct run {
    const char *topo;
    mcapi_domain_t pdom;
    mcapi_node_t pnode;
    uint32_t count, bytes;
    int pkt;
    mcapi_timeout_t wait_ms;
};

/* MCAPI_ERR_TRANSMISSION here: the peer's connection closed (recv_echo). */
static void gone(const struct run *r, uint32_t done, const char *what, mcapi_status_t st)
{
    fprintf(stderr, "%s: peer <%u,%u> at %s: %s after %u of %u: %s\n", prog, (unsigned)r->pdom,
            (unsigned)r->pnode, xmcli_addr(r->topo, r->pdom, r->pnode), what, done, r->count,
            st == MCAPI_TIMEOUT            ? "no answer (timed out)"
            : st == MCAPI_ERR_TRANSMISSION ? "the connection closed (MCAPI_ERR_TRANSMISSION)"
                                           : xmcli_status(st));
    exit(2);
}

/* Connections of this node that failed so far (xmcapi_stats). */
static uint64_t conn_fails(void)
{
    struct xmcapi_stats s;
    mcapi_status_t st = xmcapi_stats(&s);
    return st == MCAPI_SUCCESS ? s.conn_fails : 0;
}

/* A message's echo: a message to an endpoint has no connection to fail, so
 * a blocking receive would wait out the whole timeout for a peer that is
 * gone. Waiting in slices and looking at the node's failed connections in
 * between reports a closed peer within a slice. MCAPI_SUCCESS,
 * MCAPI_TIMEOUT or MCAPI_ERR_TRANSMISSION (the connection closed). */
#define SLICE_MS 20
static mcapi_status_t recv_echo(const struct run *r, mcapi_endpoint_t me, uint8_t *back,
                                size_t *got, uint64_t fails)
{
    mcapi_status_t st = 0;
    mcapi_request_t q;
    mcapi_msg_recv_i(me, back, MCAPI_MAX_MSG_SIZE + 1, &q, &st);
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) return st;
    for (mcapi_timeout_t waited = 0;; waited += SLICE_MS) {
        if (mcapi_wait(&q, got, SLICE_MS, &st)) return st;
        if (st != MCAPI_TIMEOUT) return st;
        mcapi_status_t c;
        if (conn_fails() != fails) {
            mcapi_cancel(&q, &c);
            return MCAPI_ERR_TRANSMISSION;
        }
        if (waited + SLICE_MS >= r->wait_ms) {
            mcapi_cancel(&q, &c);
            return MCAPI_TIMEOUT;
        }
    }
}

int main(int argc, char **argv)
{
    struct run r = {.wait_ms = 5000};
    int mode = 0;
    static const struct option opts[] = {{"topology", required_argument, NULL, 't'},
                                         {"mode", required_argument, NULL, 'm'},
                                         {"timeout", required_argument, NULL, 'w'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    /* "-1" as COUNT: getopt would call it an unknown option. */
    static const char *const what[] = {"NODE", "PEER", "COUNT", "BYTES"};
    const char *neg = NULL;
    int k = xmcli_negative(argc, argv, "t:m:w:h", opts, &neg);
    if (k == 2) number("COUNT", neg, 1, 100000000);
    if (k == 3) number("BYTES", neg, 0, MCAPI_MAX_PKT_SIZE);
    if (k >= 0 && k <= 1) {
        fprintf(stderr, "%s: %s '%s' is not a node: give DOMAIN:NODE or NODE, e.g. 1:0\n", prog,
                what[k], neg);
        return 2;
    }
    int c;
    while ((c = getopt_long(argc, argv, "t:m:w:h", opts, NULL)) != -1) {
        if (c == 't') {
            r.topo = optarg;
        } else if (c == 'm') {
            if (strcmp(optarg, "msg") && strcmp(optarg, "pkt")) {
                fprintf(stderr, "%s: --mode '%s' must be msg or pkt\n", prog, optarg);
                return 2;
            }
            mode = strcmp(optarg, "msg") ? XMCLI_PKT : XMCLI_MSG;
        } else if (c == 'w') {
            r.wait_ms = (mcapi_timeout_t)number("--timeout", optarg, 1, 3600000);
        } else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (argc - optind != 4) {
        usage(stderr);
        return 2;
    }
    mcapi_domain_t dom;
    mcapi_node_t node;
    if (xmcli_node(prog, argv[optind], r.topo, &dom, &node) ||
        xmcli_node(prog, argv[optind + 1], r.topo, &r.pdom, &r.pnode))
        return 2;
    if (dom == r.pdom && node == r.pnode) {
        fprintf(stderr,
                "%s: NODE and PEER are both <%u,%u>: a node cannot ping itself (PEER is the "
                "node an xmcapi-echo runs as; see %s --help)\n",
                prog, (unsigned)dom, (unsigned)node, prog);
        return 2;
    }
    r.count = (uint32_t)number("COUNT", argv[optind + 2], 1, 100000000);
    r.bytes = (uint32_t)number("BYTES", argv[optind + 3], 0, MCAPI_MAX_PKT_SIZE);
    if (!mode) mode = r.bytes <= MCAPI_MAX_MSG_SIZE ? XMCLI_MSG : XMCLI_PKT;
    if (mode == XMCLI_MSG && r.bytes > MCAPI_MAX_MSG_SIZE) {
        fprintf(stderr, "%s: BYTES %u is more than a message holds (%d): use --mode pkt\n", prog,
                r.bytes, MCAPI_MAX_MSG_SIZE);
        return 2;
    }
    r.pkt = mode == XMCLI_PKT;
    if (xmcli_resolves(prog, r.topo, r.pdom, r.pnode)) return 2;

    xmcli_start(prog, r.topo, dom, node);
    mcapi_status_t st = 0;
    const mcapi_port_t reply_port = 1, rx_port = 2;
    mcapi_endpoint_t me = xmcli_endpoint(reply_port, r.wait_ms);
    mcapi_endpoint_t svc = mcapi_endpoint_get(r.pdom, r.pnode, XMCLI_PORT, r.wait_ms, &st);
    if (!me || st != MCAPI_SUCCESS) {
        fprintf(stderr,
                "%s: no xmcapi-echo answers as node <%u,%u> at %s within %u ms (not running, or "
                "unreachable): %s\n",
                prog, (unsigned)r.pdom, (unsigned)r.pnode, xmcli_addr(r.topo, r.pdom, r.pnode),
                (unsigned)r.wait_ms, xmcli_status(st));
        return 2;
    }
    struct xmcli_hello h = {.mode = (uint8_t)mode,
                            .domain = dom,
                            .node = node,
                            .port = reply_port,
                            .count = r.count,
                            .bytes = r.bytes};
    uint8_t hello[XMCLI_HELLO_BYTES], ready[4];
    xmcli_hello_put(&h, hello);
    mcapi_msg_send(me, svc, hello, sizeof hello, 1, &st);
    if (st != MCAPI_SUCCESS) gone(&r, 0, "cannot start a session", st);
    size_t got = 0;
    mcapi_msg_recv(me, ready, sizeof ready, &got, &st);
    if (st != MCAPI_SUCCESS || got != sizeof ready) gone(&r, 0, "no session", st);
    if (ready[0] == 0xff) {
        fprintf(stderr, "%s: peer refused the session (out of endpoints)\n", prog);
        return 2;
    }
    mcapi_port_t pa = (mcapi_port_t)(ready[0] << 8 | ready[1]);
    mcapi_port_t pb = (mcapi_port_t)(ready[2] << 8 | ready[3]);
    mcapi_endpoint_t a = mcapi_endpoint_get(r.pdom, r.pnode, pa, r.wait_ms, &st);
    mcapi_pktchan_send_hndl_t tx = 0;
    mcapi_pktchan_recv_hndl_t rx = 0;
    if (r.pkt) {
        mcapi_endpoint_t b = mcapi_endpoint_get(r.pdom, r.pnode, pb, r.wait_ms, &st);
        mcapi_endpoint_t out = xmcli_endpoint(rx_port + 1, r.wait_ms),
                         in = xmcli_endpoint(rx_port, r.wait_ms);
        mcapi_request_t q1, q2;
        size_t n;
        mcapi_pktchan_connect_i(out, a, &q1, &st);
        if (st == MCAPI_SUCCESS || st == MCAPI_PENDING) mcapi_wait(&q1, &n, r.wait_ms, &st);
        if (st != MCAPI_SUCCESS) gone(&r, 0, "connect", st);
        mcapi_pktchan_connect_i(b, in, &q1, &st);
        if (st == MCAPI_SUCCESS || st == MCAPI_PENDING) mcapi_wait(&q1, &n, r.wait_ms, &st);
        if (st != MCAPI_SUCCESS) gone(&r, 0, "connect", st);
        mcapi_pktchan_send_open_i(&tx, out, &q1, &st);
        mcapi_pktchan_recv_open_i(&rx, in, &q2, &st);
        if (!mcapi_wait(&q1, &n, r.wait_ms, &st) || st != MCAPI_SUCCESS) gone(&r, 0, "open", st);
        if (!mcapi_wait(&q2, &n, r.wait_ms, &st) || st != MCAPI_SUCCESS) gone(&r, 0, "open", st);
    }

    uint8_t *buf = malloc(r.bytes + 1), *back = malloc(MCAPI_MAX_MSG_SIZE + 1);
    /* The samples grow as they come: a long COUNT, stopped early, holds
     * only what it measured (a 100000000 reserved 800 MB up front, which
     * LeakSanitizer's exit scan alone took 2 s to read). */
    size_t cap = r.count < 4096 ? r.count : 4096;
    double *rtt = malloc(cap * sizeof *rtt);
    if (!buf || !back || !rtt) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 2;
    }
    uint32_t bad = 0;
    const uint64_t fails = conn_fails(); /* the session's connections are up */
    for (uint32_t i = 0; i < r.count; i++) {
        xmcli_fill(buf, r.bytes, i);
        double t0 = now_us();
        const uint8_t *echo = back;
        void *pkt = NULL;
        if (r.pkt) {
            mcapi_pktchan_send(tx, buf, r.bytes, &st);
            if (st != MCAPI_SUCCESS) gone(&r, i, "send", st);
            mcapi_pktchan_recv(rx, &pkt, &got, &st);
            if (st != MCAPI_SUCCESS) gone(&r, i, "echo", st);
            echo = pkt;
        } else {
            mcapi_msg_send(me, a, buf, r.bytes, 1, &st);
            if (st != MCAPI_SUCCESS) gone(&r, i, "send", st);
            st = recv_echo(&r, me, back, &got, fails);
            if (st != MCAPI_SUCCESS) gone(&r, i, "echo", st);
        }
        if (i == cap) {
            cap = cap * 2 < r.count ? cap * 2 : r.count;
            double *more = realloc(rtt, cap * sizeof *rtt);
            if (!more) {
                fprintf(stderr, "%s: out of memory for %zu samples after %u echoes\n", prog, cap,
                        i);
                exit(2);
            }
            rtt = more;
        }
        rtt[i] = now_us() - t0;
        size_t at = got == r.bytes ? xmcli_check(echo, got, i) : 0;
        if (got != r.bytes || at != got) {
            if (bad++ < 5)
                fprintf(stderr, "%s: echo %u differs: %zu bytes (sent %u), first wrong byte %zu\n",
                        prog, i, got, r.bytes, at);
        }
        if (pkt) mcapi_pktchan_release(pkt, &st);
    }
    qsort(rtt, r.count, sizeof *rtt, cmp);
    double med = r.count % 2 ? rtt[r.count / 2] : (rtt[r.count / 2 - 1] + rtt[r.count / 2]) / 2;
    printf("rtt_us=%.1f min_us=%.1f max_us=%.1f count=%u bytes=%u mode=%s mismatched=%u\n", med,
           rtt[0], rtt[r.count - 1], r.count, r.bytes, r.pkt ? "pkt" : "msg", bad);
    if (r.pkt) {
        mcapi_request_t q;
        mcapi_pktchan_send_close_i(tx, &q, &st);
        mcapi_pktchan_recv_close_i(rx, &q, &st);
    }
    mcapi_finalize(&st);
    free(buf);
    free(back);
    free(rtt);
    return bad ? 1 : 0;
}
