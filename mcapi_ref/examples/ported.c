/*
 * ported.c -- a program written the way the reference implementation's
 * (mca-2.0.3) tests are, run unchanged: its parameter block is left as the
 * reference lets it be (an int it ignores: here garbage, then zeros), one
 * thread opens both ends of its channels and waits for each open in turn,
 * and an _i call's status is ignored and only the wait looked at.
 * Exits 0 only if every step behaved as docs/mcapi.md ("Porting from the
 * reference implementation") says.
 */
#include "mcapi.h"

#include <stdio.h>
#include <string.h>

#define DOMAIN 1
#define NODE 0
#define WAIT_MS 5000

static int failed;

static void check(int ok, const char *what, mcapi_status_t st)
{
    char name[MCAPI_MAX_STATUS_SIZE];
    if (ok) return;
    fprintf(stderr, "ported: %s: %s\n", what, mcapi_display_status(st, name, sizeof name));
    failed = 1;
}

/* Wait for r as the reference's tests do: the wait's status is the call's. */
static mcapi_status_t wait_for(mcapi_request_t *r)
{
    size_t size = 0;
    mcapi_status_t st = MCAPI_SUCCESS;
    mcapi_wait(r, &size, WAIT_MS, &st);
    return st;
}

static void session(mcapi_param_t *parms)
{
    mcapi_node_attributes_t na;
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_request_t r;
    mcapi_node_init_attributes(&na, &st);
    mcapi_initialize(DOMAIN, NODE, &na, parms, &info, &st);
    check(st == MCAPI_SUCCESS, "mcapi_initialize", st);
    if (st != MCAPI_SUCCESS) return;

    mcapi_endpoint_t tx = mcapi_endpoint_create(1, &st);
    mcapi_endpoint_t rx = mcapi_endpoint_create(2, &st);
    check(st == MCAPI_SUCCESS, "mcapi_endpoint_create", st);

    /* A packet channel, both ends opened by this thread, one after the other. */
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_pktchan_connect_i(tx, rx, &r, &st);
    check(wait_for(&r) == MCAPI_SUCCESS, "connect", st);
    mcapi_pktchan_send_open_i(&sh, tx, &r, &st);
    st = wait_for(&r);
    check(st == MCAPI_SUCCESS, "send open, waited before the receive open", st);
    mcapi_pktchan_recv_open_i(&rh, rx, &r, &st);
    st = wait_for(&r);
    check(st == MCAPI_SUCCESS, "receive open", st);

    char big[256], small[] = "hello";
    memset(big, 'x', sizeof big);
    void *p = NULL;
    size_t n = 0;
    mcapi_pktchan_send(sh, big, sizeof big, &st);
    mcapi_pktchan_recv(rh, &p, &n, &st);
    check(st == MCAPI_SUCCESS && n == sizeof big, "first packet", st);
    mcapi_pktchan_release(p, &st);
    mcapi_pktchan_send(sh, small, sizeof small, &st);
    mcapi_pktchan_recv(rh, &p, &n, &st);
    check(st == MCAPI_SUCCESS && n == sizeof small && !strcmp(p, small), "second packet", st);
    mcapi_pktchan_release(p, &st);

    /* The same with a scalar channel. */
    mcapi_endpoint_t stx = mcapi_endpoint_create(3, &st);
    mcapi_endpoint_t srx = mcapi_endpoint_create(4, &st);
    mcapi_sclchan_send_hndl_t ssh;
    mcapi_sclchan_recv_hndl_t srh;
    mcapi_sclchan_connect_i(stx, srx, &r, &st);
    check(wait_for(&r) == MCAPI_SUCCESS, "scalar connect", st);
    mcapi_sclchan_send_open_i(&ssh, stx, &r, &st);
    check(wait_for(&r) == MCAPI_SUCCESS, "scalar send open", st);
    mcapi_sclchan_recv_open_i(&srh, srx, &r, &st);
    check(wait_for(&r) == MCAPI_SUCCESS, "scalar receive open", st);
    mcapi_sclchan_send_uint32(ssh, 0xC0FFEEu, &st);
    check(mcapi_sclchan_recv_uint32(srh, &st) == 0xC0FFEEu, "scalar", st);

    /* An _i call that fails, its status ignored: the wait tells. */
    mcapi_pktchan_send_hndl_t bad;
    mcapi_pktchan_send_open_i(&bad, (mcapi_endpoint_t)0xDEADBEEF, &r, &st);
    st = wait_for(&r);
    check(st != MCAPI_SUCCESS && st != MCAPI_ERR_REQUEST_INVALID && st != MCAPI_TIMEOUT,
          "a failed _i call's request", st);

    mcapi_finalize(&st);
    check(st == MCAPI_SUCCESS, "mcapi_finalize", st);
}

int main(void)
{
    mcapi_param_t parms;
    memset(&parms, 0xA5, sizeof parms); /* what an ignored int holds: garbage */
    session(&parms);
    memset(&parms, 0, sizeof parms); /* a zero-filled block */
    session(&parms);
    if (!failed) printf("ported: every step as documented\n");
    return failed;
}
