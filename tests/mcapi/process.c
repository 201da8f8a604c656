/* process.c -- nodes in separate processes sharing a "/..." region
 * (native only: the sim has one process). */
#define _GNU_SOURCE
#include "mt.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child reports: its Check assertions would be lost (harness.h). */
struct report {
    int line; /* of the first failed check, 0 if none */
    unsigned got, want;
    int done;
};

static struct report *child_report;

/* Record the first failure and end the child. */
#define C_EQ(got_, want_)                                                                          \
    do {                                                                                           \
        unsigned c_g_ = (unsigned)(got_), c_w_ = (unsigned)(want_);                                \
        if (c_g_ != c_w_) {                                                                        \
            child_report->line = __LINE__;                                                         \
            child_report->got = c_g_;                                                              \
            child_report->want = c_w_;                                                             \
            _exit(2);                                                                              \
        }                                                                                          \
    } while (0)

static void region_name(char *name, size_t n, int k)
{
    snprintf(name, n, "/ipcsim-mt-%ld-%d", (long)getpid(), k);
}

static pid_t spawn(void (*fn)(const char *), const char *name)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        fn(name);
        child_report->done = 1;
        _exit(0);
    }
    return pid;
}

/* Wait for the child at most timeout_s; kill it after that. */
static void reap(pid_t pid, int timeout_s)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        ck_assert_int_ge(r, 0);
        if (r == pid) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec > timeout_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            ck_abort_msg("child did not finish in %d s (report line %d)", timeout_s,
                         child_report->line);
        }
        usleep(1000);
    }
    ck_assert_msg(child_report->line == 0,
                  "child failed at process.c:%d: got %u (%s), want %u (%s)", child_report->line,
                  child_report->got, mt_name(child_report->got), child_report->want,
                  mt_name(child_report->want));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0 && child_report->done,
                  "child ended with wait status %#x", status);
}

static mcapi_endpoint_t c_ep(mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &st);
    C_EQ(st, MCAPI_SUCCESS);
    mcapi_endp_attr_timeout_t t = MT_WAIT_MS;
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    C_EQ(st, MCAPI_SUCCESS);
    return ep;
}

static mcapi_endpoint_t c_get(mcapi_node_t node, mcapi_port_t port)
{
    mcapi_status_t st = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_get(MT_DOMAIN, node, port, MT_WAIT_MS, &st);
    C_EQ(st, MCAPI_SUCCESS);
    return ep;
}

static mcapi_status_t c_done(mcapi_request_t *r, mcapi_status_t st)
{
    if (st != MCAPI_SUCCESS && st != MCAPI_PENDING) return st;
    size_t size;
    mcapi_wait(r, &size, MT_WAIT_MS, &st);
    return st;
}

static const size_t pkt_sizes[] = {100, 5000, MCAPI_MAX_PKT_SIZE};
#define SCALARS 100

/* Node 1, finding the region through MCAPI_SHM: echoes a message
 * reversed, sends packets, receives scalars. */
static void exchange_child(const char *name)
{
    setenv("MCAPI_SHM", name, 1);
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 1, NULL, mt_params(), &info, &st);
    C_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = c_ep(1), parent = c_get(0, 1);

    uint8_t m[MCAPI_MAX_MSG_SIZE], back[MCAPI_MAX_MSG_SIZE];
    size_t n = 0;
    mcapi_msg_recv(ep, m, sizeof m, &n, &st);
    C_EQ(st, MCAPI_SUCCESS);
    for (size_t i = 0; i < n; i++) back[i] = m[n - 1 - i];
    mcapi_msg_send(ep, parent, back, n, 1, &st);
    C_EQ(st, MCAPI_SUCCESS);

    /* Packets: child -> parent. */
    mcapi_endpoint_t tx = c_ep(2);
    mcapi_request_t r;
    mcapi_pktchan_connect_i(tx, c_get(0, 2), &r, &st);
    C_EQ(c_done(&r, st), MCAPI_SUCCESS);
    mcapi_msg_send(ep, parent, "pkt", 4, 1, &st);
    C_EQ(st, MCAPI_SUCCESS);
    mcapi_pktchan_send_hndl_t sh;
    mcapi_pktchan_send_open_i(&sh, tx, &r, &st);
    C_EQ(c_done(&r, st), MCAPI_SUCCESS);
    uint8_t *buf = malloc(MCAPI_MAX_PKT_SIZE);
    C_EQ(buf != NULL, 1);
    for (size_t i = 0; i < HARNESS_COUNT(pkt_sizes); i++) {
        mt_fill(buf, pkt_sizes[i], (unsigned)i);
        mcapi_pktchan_send(sh, buf, pkt_sizes[i], &st);
        C_EQ(st, MCAPI_SUCCESS);
    }
    free(buf);
    mcapi_pktchan_send_close_i(sh, &r, &st);
    C_EQ(c_done(&r, st), MCAPI_SUCCESS);

    /* Scalars: parent -> child. */
    mcapi_endpoint_t rx = c_ep(3);
    mcapi_msg_send(ep, parent, "scl", 4, 1, &st);
    C_EQ(st, MCAPI_SUCCESS);
    mcapi_sclchan_recv_hndl_t rh;
    mcapi_sclchan_recv_open_i(&rh, rx, &r, &st);
    C_EQ(c_done(&r, st), MCAPI_SUCCESS);
    for (uint64_t i = 0; i < SCALARS; i++) {
        uint64_t v = mcapi_sclchan_recv_uint64(rh, &st);
        C_EQ(st, MCAPI_SUCCESS);
        C_EQ(v == (i << 40 | i), 1);
    }
    mcapi_sclchan_recv_close_i(rh, &r, &st);
    C_EQ(c_done(&r, st), MCAPI_SUCCESS);
    mcapi_finalize(&st);
    C_EQ(st, MCAPI_SUCCESS);
}

static void expect_msg(mcapi_endpoint_t ep, const char *what)
{
    char m[8] = "";
    size_t n;
    mcapi_status_t st = 0;
    mcapi_msg_recv(ep, m, sizeof m, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_str_eq(m, what);
}

/* A parent (node 0, shm_name) and a child process (node 1, MCAPI_SHM)
 * exchange a message, packets and scalars. */
static void test_exchange(const struct harness_env *env)
{
    (void)env;
    char name[64];
    region_name(name, sizeof name, 0);
    child_report = harness_page(sizeof *child_report);
    pid_t pid = spawn(exchange_child, name);

    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = name};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mt_ep(1), child = mt_get(1, 1);
    /* Both processes have the region mapped: its name is no longer needed,
     * and a failure below leaves nothing behind in /dev/shm. */
    shm_unlink(name);
    uint8_t m[1000], back[MCAPI_MAX_MSG_SIZE];
    mt_fill(m, sizeof m, 5);
    st = 0;
    mcapi_msg_send(ep, child, m, sizeof m, 1, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    size_t n = 0;
    st = 0;
    mcapi_msg_recv(ep, back, sizeof back, &n, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    ck_assert_uint_eq(n, sizeof m);
    for (size_t i = 0; i < n; i++) ck_assert_uint_eq(back[i], m[n - 1 - i]);

    mcapi_endpoint_t rx = mt_ep(2);
    expect_msg(ep, "pkt");
    mcapi_pktchan_recv_hndl_t rh = mt_pkt_open_recv(rx);
    for (size_t i = 0; i < HARNESS_COUNT(pkt_sizes); i++) {
        void *pkt;
        st = 0;
        mcapi_pktchan_recv(rh, &pkt, &n, &st);
        MT_EQ(st, MCAPI_SUCCESS);
        ck_assert_uint_eq(n, pkt_sizes[i]);
        ck_assert_uint_eq(mt_bad(pkt, n, (unsigned)i), n);
        st = 0;
        mcapi_pktchan_release(pkt, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    mt_pkt_close_recv(rh);

    mcapi_endpoint_t tx = mt_ep(3);
    expect_msg(ep, "scl");
    mcapi_request_t r;
    st = 0;
    mcapi_sclchan_connect_i(tx, mt_get(1, 3), &r, &st);
    MT_EQ(mt_done(&r, st, NULL), MCAPI_SUCCESS);
    mcapi_sclchan_send_hndl_t sh = mt_scl_open_send(tx);
    for (uint64_t i = 0; i < SCALARS; i++) {
        st = 0;
        mcapi_sclchan_send_uint64(sh, i << 40 | i, &st);
        MT_EQ(st, MCAPI_SUCCESS);
    }
    mt_scl_close_send(sh);
    reap(pid, 20);
    mt_fini();
}

/* Node 1 makes an endpoint and waits to be killed, never finalising. */
static void dead_child(const char *name)
{
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = name};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 1, NULL, &p, &info, &st);
    C_EQ(st, MCAPI_SUCCESS);
    c_ep(1);
    child_report->done = 1;
    pause();
}

/* A node whose process died: the survivor is not stuck -- its sends fill
 * the dead node's queue and then time out, its receives and gets time out,
 * it finalises. */
static void test_dead_child(const struct harness_env *env)
{
    (void)env;
    char name[64];
    region_name(name, sizeof name, 1);
    child_report = harness_page(sizeof *child_report);
    pid_t pid = spawn(dead_child, name);
    for (int i = 0; i < 10000 && !child_report->done; i++) usleep(1000);
    ck_assert_msg(child_report->done, "the child did not start (line %d)", child_report->line);

    /* Join while the child lives (a region whose users have all died is a
     * crashed run's, which the next one does not join: docs/mcapi.md). */
    uint64_t t0 = plat_now_ns();
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = name};
    mcapi_info_t info;
    mcapi_status_t st = 0;
    mcapi_initialize(MT_DOMAIN, 0, NULL, &p, &info, &st);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    MT_EQ(st, MCAPI_SUCCESS);
    mcapi_endpoint_t ep = mt_ep(1), dead = mt_get(1, 1);
    /* Its node stays taken (docs/mcapi.md). */
    mcapi_node_attr_type_t type;
    st = 0;
    mcapi_node_get_attribute(MT_DOMAIN, 1, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &st);
    MT_EQ(st, MCAPI_SUCCESS);
    mt_set_timeout(ep, MT_SHORT_MS);
    for (int i = 0; i < MCAPI_MAX_QUEUE_ELEMENTS; i++) {
        st = 0;
        mcapi_msg_send(ep, dead, &i, sizeof i, 1, &st);
        MT_EQ_AT(st, MCAPI_SUCCESS, "message %d", i);
    }
    st = 0;
    mcapi_msg_send(ep, dead, "x", 2, 1, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    char b[8];
    size_t n;
    st = 0;
    mcapi_msg_recv(ep, b, sizeof b, &n, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    st = 0;
    mcapi_endpoint_get(MT_DOMAIN, 1, 2, MT_SHORT_MS, &st);
    MT_EQ(st, MCAPI_TIMEOUT);
    mt_fini();
    ck_assert_msg(plat_now_ns() - t0 < 5000 * MT_MS, "took %.0f ms", mt_ms_since(t0));
}

void mt_process(void)
{
    static const struct harness_case cases[] = {
        {.name = "proc_exchange", .test = test_exchange, .backends = HARNESS_NATIVE},
        {.name = "proc_dead_child", .test = test_dead_child, .backends = HARNESS_NATIVE},
    };
    mt_add(cases, HARNESS_COUNT(cases));
}
