/*
 * sclchan.c -- a scalar channel: 8-, 16-, 32- and 64-bit words in order.
 *
 * Node 0 of domain 1 (the main thread) sends, node 1 (a second thread)
 * receives. The sender connects its endpoint (port 1) to the receiver's
 * (port 2) and both open their ends. Then SCALARS words go through, the
 * width cycling 64, 32, 16, 8 bits, each value a function of its number; the
 * receiver reads each with the call of the width it was sent with (the
 * specification requires the widths to match) and checks the value.
 *
 *     cc -std=c11 sclchan.c $(pkg-config --cflags --libs mcapi)
 *
 * Exit status 0 only if every scalar arrived with its value.
 */
#define _POSIX_C_SOURCE 200809L
#include <mcapi.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DOMAIN 1
#define SENDER 0
#define RECEIVER 1
#define SEND_PORT 1
#define RECV_PORT 2
#define SCALARS 4000
#define TIMEOUT_MS 10000 /* a lost scalar fails the example instead of hanging it */

static pthread_barrier_t done; /* references dropped: now finalize */

static void check(mcapi_status_t st, const char *node, const char *what)
{
    if (st == MCAPI_SUCCESS) return;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "sclchan: %s: %s: %s\n", node, what,
            mcapi_display_status(st, name, sizeof name));
    exit(EXIT_FAILURE);
}

static void finish(mcapi_request_t *req, mcapi_status_t st, const char *node, const char *what)
{
    if (st != MCAPI_PENDING) check(st, node, what); /* PENDING: started, not done */
    size_t size;
    mcapi_wait(req, &size, TIMEOUT_MS, &st);
    check(st, node, what);
}

/* The k-th value: all 64 bits busy, truncated to the width it travels in. */
static uint64_t value(uint32_t k)
{
    return (uint64_t)k * 0x9e3779b97f4a7c15ull ^ 0xa5a5a5a55a5a5a5aull;
}

static unsigned width(uint32_t k)
{
    return 64u >> (k % 4);
} /* 64, 32, 16, 8 */

static mcapi_endpoint_t start(mcapi_node_t me, const char *name, mcapi_port_t port)
{
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, me, NULL, NULL, &info, &st);
    check(st, name, "mcapi_initialize");
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    check(st, name, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS; /* for the blocking receives */
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    check(st, name, "mcapi_endpoint_set_attribute");
    return ep;
}

static void *receiver(void *arg)
{
    int *ok = arg;
    mcapi_endpoint_t ep = start(RECEIVER, "receiver", RECV_PORT);
    mcapi_status_t st;
    mcapi_request_t req;
    mcapi_sclchan_recv_hndl_t rh;
    mcapi_sclchan_recv_open_i(&rh, ep, &req, &st);
    finish(&req, st, "receiver", "mcapi_sclchan_recv_open_i");

    for (uint32_t k = 0; k < SCALARS; k++) {
        uint64_t got = 0, want = value(k);
        switch (width(k)) {
        case 64:
            got = mcapi_sclchan_recv_uint64(rh, &st);
            break;
        case 32:
            got = mcapi_sclchan_recv_uint32(rh, &st);
            want = (uint32_t)want;
            break;
        case 16:
            got = mcapi_sclchan_recv_uint16(rh, &st);
            want = (uint16_t)want;
            break;
        default:
            got = mcapi_sclchan_recv_uint8(rh, &st);
            want = (uint8_t)want;
            break;
        }
        check(st, "receiver", "mcapi_sclchan_recv_uint*");
        if (got != want) {
            fprintf(stderr, "sclchan: scalar %u (%u bits) is %#llx, sent %#llx\n", k, width(k),
                    (unsigned long long)got, (unsigned long long)want);
            *ok = 0;
        }
    }
    mcapi_sclchan_recv_close_i(rh, &req, &st);
    finish(&req, st, "receiver", "mcapi_sclchan_recv_close_i");
    pthread_barrier_wait(&done);
    mcapi_finalize(&st);
    check(st, "receiver", "mcapi_finalize");
    return NULL;
}

int main(void)
{
    int ok = 1;
    pthread_t t;
    pthread_barrier_init(&done, NULL, 2);
    if (pthread_create(&t, NULL, receiver, &ok) != 0) {
        perror("sclchan: pthread_create");
        return EXIT_FAILURE;
    }
    mcapi_endpoint_t ep = start(SENDER, "sender", SEND_PORT);
    mcapi_status_t st;
    mcapi_request_t req;
    mcapi_endpoint_t peer = mcapi_endpoint_get(DOMAIN, RECEIVER, RECV_PORT, TIMEOUT_MS, &st);
    check(st, "sender", "mcapi_endpoint_get");
    mcapi_sclchan_connect_i(ep, peer, &req, &st);
    finish(&req, st, "sender", "mcapi_sclchan_connect_i");
    mcapi_sclchan_send_hndl_t sh;
    mcapi_sclchan_send_open_i(&sh, ep, &req, &st);
    finish(&req, st, "sender", "mcapi_sclchan_send_open_i");

    for (uint32_t k = 0; k < SCALARS; k++) {
        uint64_t v = value(k);
        switch (width(k)) {
        case 64:
            mcapi_sclchan_send_uint64(sh, v, &st);
            break;
        case 32:
            mcapi_sclchan_send_uint32(sh, (uint32_t)v, &st);
            break;
        case 16:
            mcapi_sclchan_send_uint16(sh, (uint16_t)v, &st);
            break;
        default:
            mcapi_sclchan_send_uint8(sh, (uint8_t)v, &st);
            break;
        }
        check(st, "sender", "mcapi_sclchan_send_uint*");
    }
    mcapi_sclchan_send_close_i(sh, &req, &st);
    finish(&req, st, "sender", "mcapi_sclchan_send_close_i");
    mcapi_endpoint_release(peer, &st);
    check(st, "sender", "mcapi_endpoint_release");
    pthread_barrier_wait(&done);
    mcapi_finalize(&st);
    check(st, "sender", "mcapi_finalize");
    pthread_join(t, NULL);
    pthread_barrier_destroy(&done);
    if (!ok) return EXIT_FAILURE;
    printf("sclchan: %d scalars of 64, 32, 16 and 8 bits from node 0 to node 1 arrived intact\n",
           SCALARS);
    return EXIT_SUCCESS;
}
