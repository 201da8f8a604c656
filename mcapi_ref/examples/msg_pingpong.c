/*
 * msg_pingpong.c -- connectionless messages between two MCAPI nodes.
 *
 * The main thread is node 0 of domain 1 ("ping"), a second thread node 1
 * ("pong"). Each creates an endpoint on port 1 and looks up the other's with
 * mcapi_endpoint_get. Ping sends ROUNDS messages of sizes from 1 byte to
 * MCAPI_MAX_MSG_SIZE, each with a pattern that changes every round; pong
 * sends every message back unchanged and ping checks the echo byte for byte.
 *
 * Plain MCAPI 2.0 and POSIX threads, nothing else:
 *
 *     cc -std=c11 msg_pingpong.c $(pkg-config --cflags --libs mcapi)
 *
 * Exit status 0 only if every echo came back intact.
 */
#define _POSIX_C_SOURCE 200809L
#include <mcapi.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOMAIN 1
#define PING 0
#define PONG 1
#define PORT 1
#define ROUNDS 1000
#define TIMEOUT_MS 10000 /* a lost message fails the example instead of hanging it */

static const size_t sizes[] = {1, 4, 64, 333, MCAPI_MAX_MSG_SIZE};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Both nodes drop their reference to the other's endpoint before either
 * finalizes (which deletes its endpoints). */
static pthread_barrier_t done;

static void check(mcapi_status_t st, const char *node, const char *what)
{
    if (st == MCAPI_SUCCESS) return;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "msg_pingpong: %s: %s: %s\n", node, what,
            mcapi_display_status(st, name, sizeof name));
    exit(EXIT_FAILURE);
}

static unsigned char pattern(size_t i, int round)
{
    return (unsigned char)(i * 31u + (unsigned)round * 7u + 1u);
}

/* Become node `me`, create our endpoint, find the peer's. */
static mcapi_endpoint_t start(mcapi_node_t me, const char *name, mcapi_endpoint_t *peer)
{
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, me, NULL, NULL, &info, &st);
    check(st, name, "mcapi_initialize");
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT, &st);
    check(st, name, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS; /* for mcapi_msg_send and _recv */
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    check(st, name, "mcapi_endpoint_set_attribute");
    *peer = mcapi_endpoint_get(DOMAIN, me == PING ? PONG : PING, PORT, TIMEOUT_MS, &st);
    check(st, name, "mcapi_endpoint_get");
    return ep;
}

static void stop(mcapi_endpoint_t peer, const char *name)
{
    mcapi_status_t st;
    mcapi_endpoint_release(peer, &st);
    check(st, name, "mcapi_endpoint_release");
    pthread_barrier_wait(&done);
    mcapi_finalize(&st);
    check(st, name, "mcapi_finalize");
}

static void *pong(void *arg)
{
    (void)arg;
    mcapi_endpoint_t peer;
    mcapi_endpoint_t ep = start(PONG, "pong", &peer);
    static unsigned char buf[MCAPI_MAX_MSG_SIZE];
    for (int r = 0; r < ROUNDS; r++) {
        size_t n = 0;
        mcapi_status_t st;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        check(st, "pong", "mcapi_msg_recv");
        mcapi_msg_send(ep, peer, buf, n, 1, &st);
        check(st, "pong", "mcapi_msg_send");
    }
    stop(peer, "pong");
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_barrier_init(&done, NULL, 2);
    if (pthread_create(&t, NULL, pong, NULL) != 0) {
        perror("msg_pingpong: pthread_create");
        return EXIT_FAILURE;
    }
    mcapi_endpoint_t peer;
    mcapi_endpoint_t ep = start(PING, "ping", &peer);
    static unsigned char out[MCAPI_MAX_MSG_SIZE], in[MCAPI_MAX_MSG_SIZE];
    size_t bytes = 0;
    for (int r = 0; r < ROUNDS; r++) {
        size_t n = sizes[(size_t)r % NSIZES], got = 0;
        for (size_t i = 0; i < n; i++) out[i] = pattern(i, r);
        memset(in, 0, n);
        mcapi_status_t st;
        mcapi_msg_send(ep, peer, out, n, 1, &st);
        check(st, "ping", "mcapi_msg_send");
        mcapi_msg_recv(ep, in, sizeof in, &got, &st);
        check(st, "ping", "mcapi_msg_recv");
        if (got != n || memcmp(in, out, n) != 0) {
            fprintf(stderr,
                    "msg_pingpong: round %d: sent %zu bytes, the echo differs (%zu bytes)\n", r, n,
                    got);
            return EXIT_FAILURE;
        }
        bytes += n;
    }
    stop(peer, "ping");
    pthread_join(t, NULL);
    pthread_barrier_destroy(&done);
    printf("msg_pingpong: %d messages (%zu bytes) echoed intact between nodes 0 and 1\n", ROUNDS,
           bytes);
    return EXIT_SUCCESS;
}
