/* mcapi_job.c -- MCAPI's shared-memory transport between the processes of
 * a job: each process is node IPCSIM_CORE of domain 1 and names no region,
 * so all meet in the default one, which a job makes the job's (plat.h).
 * Node 0 sleeps before each send so that node 1 is asleep in its blocking
 * receive when the message comes: only an event that works across
 * processes wakes it before its 5 s timeout. Node 1 echoes every message
 * plus one; node 0 prints the round trips' median, in microseconds. */
#define _POSIX_C_SOURCE 200809L
#include <mcapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DOMAIN 1
#define PORT 1
#define TRIPS 9u
#define TIMEOUT_MS 5000

static mcapi_node_t node;

static void check(mcapi_status_t st, const char *what)
{
    if (st == MCAPI_SUCCESS) return;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "node %u: %s: %s\n", node, what, mcapi_display_status(st, name, sizeof name));
    exit(1);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int main(void)
{
    const char *core = getenv("IPCSIM_CORE");
    node = core ? (mcapi_node_t)atoi(core) : 0;
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, node, NULL, NULL, &info, &st);
    check(st, "mcapi_initialize");
    mcapi_endpoint_t me = mcapi_endpoint_create(PORT, &st);
    check(st, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS;
    mcapi_endpoint_set_attribute(me, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    check(st, "set MCAPI_ENDP_ATTR_TIMEOUT");
    mcapi_endpoint_t peer = mcapi_endpoint_get(DOMAIN, node ^ 1, PORT, TIMEOUT_MS, &st);
    check(st, "mcapi_endpoint_get");
    double trip[TRIPS];
    for (unsigned i = 0; i < TRIPS; i++) {
        unsigned v = i;
        size_t got;
        if (node == 0) {
            nanosleep(&(struct timespec){0, 20000000}, NULL);
            double t0 = now_us();
            mcapi_msg_send(me, peer, &v, sizeof v, 1, &st);
            check(st, "mcapi_msg_send");
            mcapi_msg_recv(me, &v, sizeof v, &got, &st);
            check(st, "mcapi_msg_recv");
            trip[i] = now_us() - t0;
            if (v != i + 1) {
                fprintf(stderr, "node 0: trip %u: got %u\n", i, v);
                return 1;
            }
        } else {
            mcapi_msg_recv(me, &v, sizeof v, &got, &st);
            check(st, "mcapi_msg_recv");
            v++;
            mcapi_msg_send(me, peer, &v, sizeof v, 1, &st);
            check(st, "mcapi_msg_send");
        }
    }
    /* Neither leaves while the other may still send to it. */
    if (node == 0) {
        unsigned done = 0;
        mcapi_msg_send(me, peer, &done, sizeof done, 1, &st);
        check(st, "mcapi_msg_send");
        qsort(trip, TRIPS, sizeof trip[0], cmp);
        printf("mcapi job: %u round trips, median %.0f us\n", TRIPS, trip[TRIPS / 2]);
    } else {
        unsigned done;
        size_t got;
        mcapi_msg_recv(me, &done, sizeof done, &got, &st);
        check(st, "mcapi_msg_recv");
    }
    mcapi_endpoint_release(peer, &st);
    mcapi_finalize(&st);
    check(st, "mcapi_finalize");
    return 0;
}
