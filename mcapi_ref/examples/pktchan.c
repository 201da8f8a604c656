/*
 * pktchan.c -- a packet channel from a producer node to a consumer node.
 *
 * Node 0 of domain 1 (the main thread) produces, node 1 (a second thread)
 * consumes. The producer connects its send endpoint (port 1) to the
 * consumer's receive endpoint (port 2); each side opens its end; PACKETS
 * packets of 16 bytes to MCAPI_MAX_PKT_SIZE go through, each stamped with its
 * number and filled with a pattern; the consumer checks every one and hands
 * the buffer back with mcapi_pktchan_release. Then both ends close.
 *
 * The channel's calls exist only as _i (non-blocking) forms for connect,
 * open and close: each is followed by mcapi_wait here.
 *
 *     cc -std=c11 pktchan.c $(pkg-config --cflags --libs mcapi)
 *
 * Exit status 0 only if every packet arrived intact and in order.
 */
#define _POSIX_C_SOURCE 200809L
#include <mcapi.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOMAIN 1
#define PRODUCER 0
#define CONSUMER 1
#define SEND_PORT 1
#define RECV_PORT 2
#define PACKETS 200
#define TIMEOUT_MS 10000 /* a lost packet fails the example instead of hanging it */

static const size_t sizes[] = {16, 100, 1024, 4096, MCAPI_MAX_PKT_SIZE};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static pthread_barrier_t done; /* references dropped: now finalize */

static void check(mcapi_status_t st, const char *node, const char *what)
{
    if (st == MCAPI_SUCCESS) return;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "pktchan: %s: %s: %s\n", node, what,
            mcapi_display_status(st, name, sizeof name));
    exit(EXIT_FAILURE);
}

/* Complete a non-blocking call. */
static void finish(mcapi_request_t *req, mcapi_status_t st, const char *node, const char *what)
{
    if (st != MCAPI_PENDING) check(st, node, what); /* PENDING: started, not done */
    size_t size;
    mcapi_wait(req, &size, TIMEOUT_MS, &st);
    check(st, node, what);
}

static unsigned char pattern(size_t i, uint32_t seq)
{
    return (unsigned char)(i * 13u + seq * 5u + 3u);
}

static mcapi_endpoint_t start(mcapi_node_t me, const char *name, mcapi_port_t port)
{
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, me, NULL, NULL, &info, &st);
    check(st, name, "mcapi_initialize");
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    check(st, name, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS; /* for pktchan_send and _recv */
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    check(st, name, "mcapi_endpoint_set_attribute");
    return ep;
}

static void *consumer(void *arg)
{
    int *ok = arg;
    mcapi_endpoint_t ep = start(CONSUMER, "consumer", RECV_PORT);
    mcapi_status_t st;
    mcapi_request_t req;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_pktchan_recv_open_i(&rh, ep, &req, &st);
    finish(&req, st, "consumer", "mcapi_pktchan_recv_open_i");

    for (uint32_t k = 0; k < PACKETS; k++) {
        void *buf = NULL;
        size_t n = 0, want = sizes[k % NSIZES];
        mcapi_pktchan_recv(rh, &buf, &n, &st);
        check(st, "consumer", "mcapi_pktchan_recv");
        const unsigned char *b = buf;
        uint32_t seq;
        memcpy(&seq, b, sizeof seq);
        int intact = n == want && seq == k;
        for (size_t i = sizeof seq; intact && i < n; i++) intact = b[i] == pattern(i, k);
        if (!intact) {
            fprintf(stderr, "pktchan: packet %u (%zu bytes, stamped %u) is not what was sent\n", k,
                    n, seq);
            *ok = 0;
        }
        mcapi_pktchan_release(buf, &st);
        check(st, "consumer", "mcapi_pktchan_release");
    }
    mcapi_pktchan_recv_close_i(rh, &req, &st);
    finish(&req, st, "consumer", "mcapi_pktchan_recv_close_i");
    pthread_barrier_wait(&done);
    mcapi_finalize(&st);
    check(st, "consumer", "mcapi_finalize");
    return NULL;
}

int main(void)
{
    int ok = 1;
    pthread_t t;
    pthread_barrier_init(&done, NULL, 2);
    if (pthread_create(&t, NULL, consumer, &ok) != 0) {
        perror("pktchan: pthread_create");
        return EXIT_FAILURE;
    }
    mcapi_endpoint_t ep = start(PRODUCER, "producer", SEND_PORT);
    mcapi_status_t st;
    mcapi_request_t req;
    mcapi_endpoint_t peer = mcapi_endpoint_get(DOMAIN, CONSUMER, RECV_PORT, TIMEOUT_MS, &st);
    check(st, "producer", "mcapi_endpoint_get");
    mcapi_pktchan_connect_i(ep, peer, &req, &st);
    finish(&req, st, "producer", "mcapi_pktchan_connect_i");
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_send_open_i(&sh, ep, &req, &st);
    finish(&req, st, "producer", "mcapi_pktchan_send_open_i");

    unsigned char *buf = malloc(MCAPI_MAX_PKT_SIZE);
    if (!buf) return EXIT_FAILURE;
    size_t bytes = 0;
    for (uint32_t k = 0; k < PACKETS; k++) {
        size_t n = sizes[k % NSIZES];
        memcpy(buf, &k, sizeof k);
        for (size_t i = sizeof k; i < n; i++) buf[i] = pattern(i, k);
        mcapi_pktchan_send(sh, buf, n, &st);
        check(st, "producer", "mcapi_pktchan_send");
        bytes += n;
    }
    free(buf);
    mcapi_pktchan_send_close_i(sh, &req, &st);
    finish(&req, st, "producer", "mcapi_pktchan_send_close_i");
    mcapi_endpoint_release(peer, &st);
    check(st, "producer", "mcapi_endpoint_release");
    pthread_barrier_wait(&done);
    mcapi_finalize(&st);
    check(st, "producer", "mcapi_finalize");
    pthread_join(t, NULL);
    pthread_barrier_destroy(&done);
    if (!ok) return EXIT_FAILURE;
    printf("pktchan: %d packets (%zu bytes) from node 0 to node 1 arrived intact, in order\n",
           PACKETS, bytes);
    return EXIT_SUCCESS;
}
