/*
 * pool.c -- the domain's packet pool (shared-memory transport): its
 * default size, mcapi_param_t.pkt_buffers and .pkt_pool_bytes, what a
 * packet takes of it, and the agreement the nodes of a domain need on its
 * values (docs/mcapi.md, "Limits").
 */
#include "mt.h"

#include <stdlib.h>
#include <string.h>

static const mcapi_endp_attr_memory_type_t FAIL =
    MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT;

static mcapi_status_t try_init(mcapi_node_t n, unsigned pkt_buffers, size_t pkt_pool_bytes)
{
    mcapi_param_t p;
    mcapi_param_init(&p);
    p.pkt_buffers = pkt_buffers;
    p.pkt_pool_bytes = pkt_pool_bytes;
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, n, NULL, &p, &info, &st);
    return st;
}

void mt_init_pool(mcapi_node_t n, unsigned pkt_buffers, size_t pkt_pool_bytes)
{
    mcapi_status_t st = try_init(n, pkt_buffers, pkt_pool_bytes);
    ck_assert_msg(st == MCAPI_SUCCESS, "mcapi_initialize(%u, pool %u, %zu B): %s", n, pkt_buffers,
                  pkt_pool_bytes, mt_name(st));
}

/* A local channel whose ends fail instead of waiting when the pool is full. */
static void channel(mcapi_port_t port, mcapi_pktchan_send_hndl_t *sh, mcapi_pktchan_recv_hndl_t *rh)
{
    mcapi_endpoint_t tx = mt_ep(port), rx = mt_ep(port + 1);
    mt_set_memtype(tx, FAIL);
    mt_set_memtype(rx, FAIL);
    mt_pkt_local(tx, rx, sh, rh);
}

static mcapi_status_t send(mcapi_pktchan_send_hndl_t sh, const void *b, size_t n)
{
    mcapi_status_t st = 0;
    mcapi_pktchan_send(sh, (void *)b, n, &st);
    return st;
}

static void *recv(mcapi_pktchan_recv_hndl_t rh, size_t want)
{
    void *p = NULL;
    size_t n = 0;
    mcapi_status_t st = 0;
    mcapi_pktchan_recv(rh, &p, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(n, want);
    return p;
}

static void release(void *p)
{
    mcapi_status_t st = 0;
    mcapi_pktchan_release(p, &st);
    MT_EQ(st, MCAPI_SUCCESS);
}

/* With the default pool a program holds MCAPI_MAX_PKT_BUFFERS packets
 * received and not released at once, each intact (64 before the pool was
 * configurable; the reference implementation's pool is 1284 buffers); the
 * next send finds the pool full. */
static void case_default_many(void *arg)
{
    (void)arg;
    enum { N = MCAPI_MAX_PKT_BUFFERS, LEN = 100 };
    ck_assert_uint_ge(N, 1284);
    mt_init(0);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    channel(1, &sh, &rh);
    void **held = calloc(N, sizeof *held);
    ck_assert_ptr_nonnull(held);
    unsigned char b[LEN];
    for (unsigned i = 0; i < N; i++) {
        mt_fill(b, sizeof b, i);
        MT_EQ_AT(send(sh, b, sizeof b), MCAPI_SUCCESS, "packet %u", i);
        held[i] = recv(rh, sizeof b);
    }
    MT_EQ(send(sh, b, sizeof b), MCAPI_ERR_MEM_LIMIT);
    for (unsigned i = 0; i < N; i++)
        ck_assert_msg(mt_bad(held[i], LEN, i) == LEN, "packet %u: byte %zu differs", i,
                      mt_bad(held[i], LEN, i));
    release(held[N / 2]);
    MT_EQ(send(sh, b, sizeof b), MCAPI_SUCCESS);
    held[N / 2] = recv(rh, sizeof b);
    for (unsigned i = 0; i < N; i++) release(held[i]);
    free(held);
    mt_fini();
}

/* pkt_buffers = 8: the ninth packet held fails with FAIL_ON_MEM_LIMIT,
 * times out otherwise; NUM_SEND_BUFFERS counts the free places. */
static void case_count(void *arg)
{
    (void)arg;
    enum { N = 8 };
    mt_init_pool(0, N, 0);
    mcapi_pktchan_send_hndl_t sh, bsh;
    mcapi_pktchan_recv_hndl_t rh, brh;
    channel(1, &sh, &rh);
    mcapi_endpoint_t btx = mt_ep(3);
    mt_pkt_local(btx, mt_ep(4), &bsh, &brh);
    char b[16] = "packet";
    for (int i = 0; i < N; i++) MT_EQ_AT(send(sh, b, sizeof b), MCAPI_SUCCESS, "packet %d", i);
    MT_EQ(send(sh, b, sizeof b), MCAPI_ERR_MEM_LIMIT);
    mt_set_timeout(btx, MT_SHORT_MS);
    MT_EQ(send(bsh, b, sizeof b), MCAPI_TIMEOUT);
    mcapi_endp_attr_num_send_buffers_t free_ = -1;
    mcapi_status_t st = 0;
    mcapi_endpoint_get_attribute(btx, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &free_, sizeof free_, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_int_eq(free_, 0);
    release(recv(rh, sizeof b));
    mcapi_endpoint_get_attribute(btx, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &free_, sizeof free_, &st);
    ck_assert_int_eq(free_, 1);
    MT_EQ(send(bsh, b, sizeof b), MCAPI_SUCCESS);
    mt_fini();
}

/* pkt_pool_bytes = MCAPI_MAX_PKT_SIZE (1024 granules): a packet takes its
 * size rounded up to MCAPI_PKT_POOL_GRANULE, so 1024 packets of one granule
 * fit, 512 of one byte more; one largest packet fills the pool. */
static void case_bytes(void *arg)
{
    (void)arg;
    enum { G = MCAPI_PKT_POOL_GRANULE, GRANULES = MCAPI_MAX_PKT_SIZE / G };
    mt_init_pool(0, 0, MCAPI_MAX_PKT_SIZE);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    channel(1, &sh, &rh);
    static void *held[GRANULES];
    static unsigned char b[MCAPI_MAX_PKT_SIZE];
    for (size_t len = G; len <= G + 1; len++) {
        size_t fit = GRANULES / ((len + G - 1) / G);
        for (size_t i = 0; i < fit; i++) {
            MT_EQ_AT(send(sh, b, len), MCAPI_SUCCESS, "%zu B packet %zu", len, i);
            held[i] = recv(rh, len);
        }
        MT_EQ_AT(send(sh, b, 1), MCAPI_ERR_MEM_LIMIT, "%zu B packets", len);
        for (size_t i = 0; i < fit; i++) release(held[i]);
    }
    MT_EQ(send(sh, b, sizeof b), MCAPI_SUCCESS);
    MT_EQ(send(sh, b, 0), MCAPI_ERR_MEM_LIMIT);
    release(recv(rh, sizeof b));
    mt_fini();
}

/* Freed runs merge with their neighbours: two adjacent quarters freed hold
 * a half, and everything freed holds the largest packet again; a reused
 * run reads as zeros past its packet. */
static void case_merge(void *arg)
{
    (void)arg;
    enum { Q = MCAPI_MAX_PKT_SIZE / 4 };
    mt_init_pool(0, 0, MCAPI_MAX_PKT_SIZE);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_recv_hndl_t rh;
    channel(1, &sh, &rh);
    static unsigned char b[MCAPI_MAX_PKT_SIZE];
    memset(b, 0xAB, sizeof b);
    void *q[4];
    for (int i = 0; i < 4; i++) {
        MT_EQ_AT(send(sh, b, Q), MCAPI_SUCCESS, "quarter %d", i);
        q[i] = recv(rh, Q);
    }
    MT_EQ(send(sh, b, 1), MCAPI_ERR_MEM_LIMIT);
    release(q[1]);
    MT_EQ(send(sh, b, 2 * Q), MCAPI_ERR_MEM_LIMIT);
    release(q[2]);
    MT_EQ(send(sh, b, 2 * Q - 1), MCAPI_SUCCESS);
    void *half = recv(rh, 2 * Q - 1);
    ck_assert_ptr_eq(half, q[1]);
    ck_assert_uint_eq(((unsigned char *)half)[2 * Q - 1], 0);
    ck_assert_uint_eq(((unsigned char *)half)[2 * Q - 2], 0xAB);
    release(q[0]);
    release(q[3]);
    MT_EQ(send(sh, b, sizeof b), MCAPI_ERR_MEM_LIMIT);
    release(half);
    MT_EQ(send(sh, b, sizeof b), MCAPI_SUCCESS);
    release(recv(rh, sizeof b));
    mt_fini();
}

/* Values out of range are refused, and the node stays uninitialised. */
static void case_bad_values(void *arg)
{
    (void)arg;
    MT_EQ(try_init(0, MCAPI_PKT_BUFFERS_LIMIT + 1, 0), MCAPI_ERR_PARAMETER);
    MT_EQ(try_init(0, 0, MCAPI_MAX_PKT_SIZE - 1), MCAPI_ERR_PARAMETER);
    MT_EQ(try_init(0, 0, (size_t)MCAPI_PKT_POOL_BYTES_LIMIT + 1), MCAPI_ERR_PARAMETER);
    mcapi_status_t st = 0;
    mcapi_node_id_get(&st);
    MT_EQ(st, MCAPI_ERR_NODE_NOTINIT);
    mt_init_pool(0, MCAPI_PKT_BUFFERS_LIMIT, MCAPI_MAX_PKT_SIZE);
    mt_fini();
}

/* The node that creates the domain's region decides its pool; another node
 * must give the same values (0 and the default are one value), else its
 * initialise fails with MCAPI_ERR_PARAMETER and it may try again. */
static void case_agree(void *arg)
{
    (void)arg;
    int me = plat_core();
    if (me == 0) mt_init_pool(0, 8, 0);
    harness_barrier();
    if (me == 1) {
        MT_EQ(try_init(1, 0, 0), MCAPI_ERR_PARAMETER);
        MT_EQ(try_init(1, 16, 0), MCAPI_ERR_PARAMETER);
        MT_EQ(try_init(1, 8, MCAPI_PKT_POOL_BYTES * 2), MCAPI_ERR_PARAMETER);
        mt_init_pool(1, 8, MCAPI_PKT_POOL_BYTES);
    }
    harness_barrier();
    mt_fini();
    harness_barrier();
    /* All gone: the next creator decides afresh. */
    if (me == 1) {
        mt_init(1);
        mt_fini();
    }
}

void mt_pool(void)
{
    static const struct harness_case cases[] = {
        {.name = "pool_default_many", .core = case_default_many, .cores = 1},
        {.name = "pool_count", .core = case_count, .cores = 1},
        {.name = "pool_bytes", .core = case_bytes, .cores = 1},
        {.name = "pool_merge", .core = case_merge, .cores = 1},
        {.name = "pool_bad_values", .core = case_bad_values, .cores = 1},
        {.name = "pool_agree", .core = case_agree, .cores = 2},
    };
    harness_add_cases("mcapi", cases, HARNESS_COUNT(cases));
}
