/* crash.c -- node processes killed at random points (native only: the sim
 * has one process and no core dies).
 *
 * The test process only orchestrates (it never initialises MCAPI, so every
 * node process it forks starts clean): it forks two survivors, node 0 and
 * node 2, and then, KILLS times, a victim process that initialises node 1
 * (taking over the node its killed predecessor left), creates an endpoint
 * and sends, receives, creates and deletes endpoints as fast as it can
 * until it is killed (SIGKILL) after a random delay -- a quarter of them
 * while still initialising. The victim's calls take the region's locks
 * (its receive queue's, the survivor's queue's, the message pool's, its
 * node's and the domain's), so kills land inside critical sections too.
 * Meanwhile node 0 receives the victims' messages, sends to the current
 * victim and pings node 2, which echoes. At the end a last victim
 * initialises node 1 and finalises cleanly. Checked:
 *
 *   the survivors go on  no call of theirs takes longer than MAX_OP_MS
 *                        (their timeouts are OP_MS: nothing hangs on a
 *                        lock a dead victim held) and every call ends with
 *                        a status it may (a send to a dead victim's
 *                        endpoint: success, timeout, deleted, invalid); the
 *                        pings all come back, in order;
 *   each message once    victim k's messages reach node 0 in order, none
 *                        twice, and all it completed, plus at most the one
 *                        its kill cut (queued before it learnt so);
 *   nothing leaks        every victim's initialise succeeds (the dead
 *                        node is reclaimed); after the last victim's
 *                        finalise and the drains, the message pool is full
 *                        again (MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS) and node
 *                        1 is free; after the survivors finalise, nothing
 *                        of the region is left in /dev/shm.
 *
 * crash_packets kills a receiver that holds packets it took (more queued to
 * it) and checks that they are all back in the pool once its node is
 * initialised again, before that node finalises. crash_packet_filled kills
 * a sender blocked on a full channel queue with its packet filled (fails
 * without the sender's mark on a packet it allocates: one place lost).
 * crash_kill_packets kills KILLS victims that trade packets with node 0
 * over a channel each way, at random points: node 0 goes on, gets each
 * victim's packets once and in order, and in the end the whole pool is
 * free (without the marks of packets filled and taken, 5 to 13 of its 16
 * places were lost in every run).
 *
 * TSan runs it too: it sees each process alone, and the processes share
 * only the region (which it does not track across processes) and this
 * test's page (atomics).
 */
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

#define KILLS 100
#define OP_MS 1u               /* timeouts of the nodes' calls */
#define MAX_OP_MS 2000u        /* a survivor's call that takes longer hangs */
#define STOP_SEQ 0xffffffffu   /* a ping that ends node 2 */
#define CRASH_SEED 0x5eed1234u /* the kill delays' sequence (a run's kills still land anywhere) */
#define FINAL_SENDS 20         /* the clean last victim's */

struct note {
    uint32_t iter, seq;
};

/* A process's first failed check. */
struct fail {
    int line;
    uint32_t got, want;
};

struct shared {
    char name[64];
    uint64_t ready[KILLS + 1]; /* victim k has its endpoint and node 0's */
    uint64_t sent[KILLS + 1];  /* messages victim k completed */
    uint64_t got[KILLS + 1];   /* messages of victim k node 0 received */
    uint64_t up[3];            /* node n is ready (0, 2) */
    uint64_t stop;             /* the last victim has finalised */
    uint64_t done[3];          /* node n finished its checks */
    uint64_t max_op_ns, sends, sends_refused, pings, pong_bufs, free_bufs;
    uint64_t conn[KILLS + 1]; /* crash_kill_packets: node 0 connected victim k */
    uint64_t pkts_in, pkts_out;
    struct fail fail[3]; /* node 0, victims, node 2 */
};

static struct shared *sh;

static uint64_t ld(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static void st(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Record the first failure of process kind `who` and end the process. */
#define C_EQ(who, got_, want_)                                                                     \
    do {                                                                                           \
        uint32_t c_g_ = (uint32_t)(got_), c_w_ = (uint32_t)(want_);                                \
        if (c_g_ != c_w_) {                                                                        \
            struct fail *c_f_ = &sh->fail[who];                                                    \
            if (!c_f_->line) {                                                                     \
                c_f_->got = c_g_;                                                                  \
                c_f_->want = c_w_;                                                                 \
                __atomic_store_n(&c_f_->line, __LINE__, __ATOMIC_RELEASE);                         \
            }                                                                                      \
            _exit(2);                                                                              \
        }                                                                                          \
    } while (0)

enum { W_SURVIVOR, W_VICTIM, W_ECHO };

static void init_node(int who, mcapi_node_t node)
{
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = sh->name};
    mcapi_info_t info;
    mcapi_status_t s = 0;
    mcapi_initialize(MT_DOMAIN, node, NULL, &p, &info, &s);
    C_EQ(who, s, MCAPI_SUCCESS);
}

static mcapi_endpoint_t make_ep(int who, mcapi_port_t port, mcapi_timeout_t ms)
{
    mcapi_status_t s = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_create(port, &s);
    C_EQ(who, s, MCAPI_SUCCESS);
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &ms, sizeof ms, &s);
    C_EQ(who, s, MCAPI_SUCCESS);
    return ep;
}

/* Wait for request r of process kind who: it must succeed. */
static void done_ok(int who, mcapi_request_t *r)
{
    size_t n;
    mcapi_status_t s = 0;
    mcapi_wait(r, &n, MT_WAIT_MS, &s);
    C_EQ(who, s, MCAPI_SUCCESS);
}

static mcapi_endpoint_t get_ep(int who, mcapi_node_t node, mcapi_port_t port)
{
    mcapi_status_t s = 0;
    mcapi_endpoint_t ep = mcapi_endpoint_get(MT_DOMAIN, node, port, MT_WAIT_MS, &s);
    C_EQ(who, s, MCAPI_SUCCESS);
    return ep;
}

/* Time one call of a survivor. */
static uint64_t t_start;
static void op_begin(void)
{
    t_start = plat_now_ns();
}
static void op_end(int who)
{
    uint64_t d = plat_now_ns() - t_start;
    uint64_t m = ld(&sh->max_op_ns);
    while (d > m && !__atomic_compare_exchange_n(&sh->max_op_ns, &m, d, false, __ATOMIC_ACQ_REL,
                                                 __ATOMIC_ACQUIRE)) {
    }
    C_EQ(who, d > MAX_OP_MS * MT_MS, 0);
}

/* A victim's message at node 0: the next of its sender, never again. */
static void account(const struct note *m, size_t n)
{
    C_EQ(W_SURVIVOR, n, sizeof *m);
    C_EQ(W_SURVIVOR, m->iter <= KILLS, 1);
    C_EQ(W_SURVIVOR, m->seq, ld(&sh->got[m->iter]));
    st(&sh->got[m->iter], m->seq + 1u);
}

/* Receive what the victims sent until the queue is empty. */
static void drain(mcapi_endpoint_t ep)
{
    for (;;) {
        struct note m;
        size_t n = 0;
        mcapi_status_t s = 0;
        op_begin();
        mcapi_msg_recv(ep, &m, sizeof m, &n, &s);
        op_end(W_SURVIVOR);
        if (s == MCAPI_TIMEOUT) return;
        C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
        account(&m, n);
    }
}

/* Node 0. */
static void survivor(void)
{
    init_node(W_SURVIVOR, 0);
    mcapi_endpoint_t ep = make_ep(W_SURVIVOR, 1, OP_MS), pong = make_ep(W_SURVIVOR, 2, OP_MS);
    st(&sh->up[0], 1);
    mcapi_endpoint_t echo = get_ep(W_SURVIVOR, 2, 1);
    mcapi_endpoint_t victim = 0;
    int seen = -1; /* the last victim whose endpoint was looked up */
    uint32_t pings = 0, pongs = 0;
    while (!ld(&sh->stop)) {
        struct note m;
        size_t n = 0;
        mcapi_status_t s = 0;
        op_begin();
        mcapi_msg_recv(ep, &m, sizeof m, &n, &s);
        op_end(W_SURVIVOR);
        if (s == MCAPI_SUCCESS)
            account(&m, n);
        else
            C_EQ(W_SURVIVOR, s, MCAPI_TIMEOUT);

        int k = seen;
        while (k < KILLS && ld(&sh->ready[k + 1])) k++;
        if (k > seen) { /* a newer victim: its endpoint */
            s = 0;
            op_begin();
            mcapi_endpoint_t h = mcapi_endpoint_get(MT_DOMAIN, 1, 1, OP_MS, &s);
            op_end(W_SURVIVOR);
            if (s == MCAPI_SUCCESS) {
                victim = h;
                seen = k;
            } else {
                C_EQ(W_SURVIVOR, s, MCAPI_TIMEOUT); /* killed, not yet replaced */
            }
        }
        if (victim) {
            struct note out = {KILLS + 1, 0};
            s = 0;
            op_begin();
            mcapi_msg_send(ep, victim, &out, sizeof out, 1, &s);
            op_end(W_SURVIVOR);
            if (s == MCAPI_SUCCESS) {
                sh->sends++;
            } else {
                C_EQ(W_SURVIVOR,
                     s == MCAPI_TIMEOUT || s == MCAPI_ERR_ENDP_DELETED ||
                         s == MCAPI_ERR_ENDP_INVALID,
                     1);
                sh->sends_refused++;
                if (s != MCAPI_TIMEOUT) victim = 0;
            }
        }
        if (pings - pongs < MCAPI_MAX_QUEUE_ELEMENTS / 2) {
            s = 0;
            op_begin();
            mcapi_msg_send(pong, echo, &pings, sizeof pings, 1, &s);
            op_end(W_SURVIVOR);
            C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
            pings++;
        }
        for (;;) {
            uint32_t v = 0;
            s = 0;
            op_begin();
            mcapi_uint_t avail = mcapi_msg_available(pong, &s);
            op_end(W_SURVIVOR);
            C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
            if (!avail) break;
            op_begin();
            mcapi_msg_recv(pong, &v, sizeof v, &n, &s);
            op_end(W_SURVIVOR);
            C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
            C_EQ(W_SURVIVOR, v, pongs);
            pongs++;
        }
    }
    /* The last victim has finalised: everything it and its predecessors
     * completed is queued here. */
    drain(ep);
    while (pongs < pings) {
        uint32_t v = 0;
        size_t n = 0;
        mcapi_status_t s = 0;
        mcapi_msg_recv(pong, &v, sizeof v, &n, &s);
        C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
        C_EQ(W_SURVIVOR, v, pongs);
        pongs++;
    }
    sh->pings = pings;
    /* Nothing queued anywhere, nothing held: the pool is full. */
    mcapi_endp_attr_num_send_buffers_t bufs = 0;
    mcapi_status_t s = 0;
    mcapi_endpoint_get_attribute(ep, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &bufs, sizeof bufs, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    sh->free_bufs = (uint64_t)bufs;
    C_EQ(W_SURVIVOR, bufs, MCAPI_MAX_MSG_BUFFERS);
    mcapi_node_attr_type_t type;
    mcapi_node_get_attribute(MT_DOMAIN, 1, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_ERR_NODE_INVALID); /* node 1 is free */
    uint32_t stop = STOP_SEQ;
    mcapi_msg_send(pong, echo, &stop, sizeof stop, 1, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    while (!ld(&sh->done[2])) usleep(1000); /* node 2 has finalised: its queue is gone */
    mcapi_finalize(&s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    st(&sh->done[0], 1);
}

/* Node 2: echoes node 0's pings. */
static void echo(void)
{
    init_node(W_ECHO, 2);
    mcapi_endpoint_t ep = make_ep(W_ECHO, 1, OP_MS);
    mcapi_endpoint_t back = get_ep(W_ECHO, 0, 2);
    st(&sh->up[2], 1);
    for (;;) {
        uint32_t v = 0;
        size_t n = 0;
        mcapi_status_t s = 0;
        op_begin();
        mcapi_msg_recv(ep, &v, sizeof v, &n, &s);
        op_end(W_ECHO);
        if (s == MCAPI_TIMEOUT) continue;
        C_EQ(W_ECHO, s, MCAPI_SUCCESS);
        if (v == STOP_SEQ) break;
        op_begin();
        mcapi_msg_send(ep, back, &v, sizeof v, 1, &s);
        op_end(W_ECHO);
        C_EQ(W_ECHO, s, MCAPI_SUCCESS);
    }
    mcapi_status_t s = 0;
    mcapi_finalize(&s);
    C_EQ(W_ECHO, s, MCAPI_SUCCESS);
    st(&sh->done[2], 1);
}

/* Node 1, the k-th process to be it: sends until killed (the last one
 * sends FINAL_SENDS and finalises). */
static void victim(int k)
{
    init_node(W_VICTIM, 1);
    mcapi_endpoint_t ep = make_ep(W_VICTIM, 1, OP_MS);
    mcapi_endpoint_t to = get_ep(W_VICTIM, 0, 1);
    st(&sh->ready[k], 1);
    uint32_t seq = 0;
    for (unsigned round = 0;; round++) {
        struct note m = {(uint32_t)k, seq};
        mcapi_status_t s = 0;
        mcapi_msg_send(ep, to, &m, sizeof m, 1, &s);
        if (s == MCAPI_SUCCESS) {
            st(&sh->sent[k], ++seq);
            if (k == KILLS && seq == FINAL_SENDS) break;
        } else {
            C_EQ(W_VICTIM, s, MCAPI_TIMEOUT);
        }
        while (mcapi_msg_available(ep, &s) > 0) {
            struct note in;
            size_t n = 0;
            mcapi_msg_recv(ep, &in, sizeof in, &n, &s);
            C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
        }
        if (round % 8 == 0) { /* the node's and the domain's locks too */
            mcapi_endpoint_t x = mcapi_endpoint_create(2, &s);
            C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
            mcapi_endpoint_delete(x, &s);
            C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
        }
    }
    mcapi_status_t s = 0;
    mcapi_finalize(&s);
    C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
}

static pid_t spawn(void (*fn)(void), int k)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (fn)
            fn();
        else
            victim(k);
        _exit(0);
    }
    return pid;
}

static const char *const who_name[] = {"node 0", "a victim (node 1)", "node 2"};

/* The node processes alive, so that a failing test leaves none behind. */
static pid_t kids[2];

static void kill_kids(void)
{
    for (int i = 0; i < 2; i++)
        if (kids[i] > 0) {
            kill(kids[i], SIGKILL);
            waitpid(kids[i], NULL, 0);
            kids[i] = 0;
        }
    shm_unlink(sh->name);
}

/* Fail (after ending the node processes) unless cond. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            kill_kids();                                                                           \
            ck_abort_msg(__VA_ARGS__);                                                             \
        }                                                                                          \
    } while (0)

static void check_fails(void)
{
    if (sh->fail[0].line || sh->fail[1].line || sh->fail[2].line) kill_kids();
    for (int w = 0; w < 3; w++) {
        const struct fail *f = &sh->fail[w];
        ck_assert_msg(f->line == 0, "%s failed at crash.c:%d: got %u (%s), want %u (%s)",
                      who_name[w], f->line, f->got, mt_name(f->got), f->want, mt_name(f->want));
    }
}

/* Wait for pid at most timeout_ms: its wait status, or -1 (then killed). */
static int reap(pid_t pid, unsigned timeout_ms)
{
    int status = 0;
    for (unsigned t = 0; t < timeout_ms; t++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return status;
        usleep(1000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

static uint32_t rnd_state = CRASH_SEED;
static uint32_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 17;
    rnd_state ^= rnd_state << 5;
    return rnd_state;
}

/* Wait until *flag is set; false if pid ended first or timeout_ms passed. */
static bool await(const uint64_t *flag, pid_t pid, unsigned timeout_ms)
{
    for (unsigned t = 0; t < timeout_ms * 10; t++) {
        if (ld(flag)) return true;
        if (waitpid(pid, NULL, WNOHANG) == pid) return ld(flag) != 0;
        usleep(100);
    }
    return false;
}

/* The shared page, the run's region name /ipcsim-<tag>-<pid> (none left
 * from before) and its path under /dev/shm. */
static void setup(const char *tag, char *path, size_t n)
{
    sh = harness_page(sizeof *sh);
    snprintf(sh->name, sizeof sh->name, "/ipcsim-%s-%ld", tag, (long)getpid());
    snprintf(path, n, "/dev/shm%s", sh->name);
    shm_unlink(sh->name);
}

static void test_kill_nodes(const struct harness_env *env)
{
    (void)env;
    char path[96];
    setup("crash", path, sizeof path);
    uint64_t t0 = plat_now_ns();

    pid_t s0 = kids[0] = spawn(survivor, 0);
    bool up = await(&sh->up[0], s0, MT_WAIT_MS);
    check_fails();
    CHECK(up, "node 0 did not start");
    pid_t s2 = kids[1] = spawn(echo, 0);
    up = await(&sh->up[2], s2, MT_WAIT_MS);
    check_fails();
    CHECK(up, "node 2 did not start");
    unsigned early = 0;
    for (int k = 0; k < KILLS; k++) {
        pid_t v = spawn(NULL, k);
        if (rnd() % 4 == 0) {
            early++; /* while it initialises (taking the dead node over) */
            usleep(rnd() % 2000);
        } else if (!await(&sh->ready[k], v, MT_WAIT_MS)) {
            kill(v, SIGKILL);
            waitpid(v, NULL, 0);
            check_fails();
            CHECK(false, "victim %d did not get ready", k);
        } else {
            usleep(rnd() % 3000);
        }
        kill(v, SIGKILL);
        int status = 0;
        CHECK(waitpid(v, &status, 0) == v, "waitpid");
        check_fails();
        CHECK(WIFSIGNALED(status), "victim %d ended with wait status %#x", k, status);
    }
    pid_t last = spawn(NULL, KILLS);
    int status = reap(last, 20000);
    check_fails();
    CHECK(status == 0, "the last victim ended with wait status %#x", status);
    st(&sh->stop, 1);
    int st0 = reap(s0, 30000), st2 = reap(s2, 30000);
    kids[0] = kids[1] = 0;
    check_fails();
    ck_assert_msg(st0 == 0 && st2 == 0, "survivors' wait status %#x, %#x (max call %.0f ms)", st0,
                  st2, sh->max_op_ns / 1e6);

    uint64_t sent = 0, got = 0, cut = 0;
    for (int k = 0; k <= KILLS; k++) {
        uint64_t s = ld(&sh->sent[k]), g = ld(&sh->got[k]);
        ck_assert_msg(g == s || (g == s + 1 && k < KILLS),
                      "victim %d: completed %llu sends, node 0 received %llu", k,
                      (unsigned long long)s, (unsigned long long)g);
        sent += s;
        got += g;
        cut += g - s;
    }
    ck_assert_uint_eq(ld(&sh->sent[KILLS]), FINAL_SENDS);
    ck_assert_msg(access(path, F_OK) != 0, "%s is left behind", path);
    fprintf(stderr,
            "crash_kill_nodes: %d kills (%u while initialising), %llu messages from victims "
            "(%llu cut by the kill and still delivered), %llu sends to victims (%llu refused), "
            "%llu pings, longest survivor call %.1f ms, pool %llu/%d free, %.2f s\n",
            KILLS, early, (unsigned long long)got, (unsigned long long)cut,
            (unsigned long long)sh->sends, (unsigned long long)sh->sends_refused,
            (unsigned long long)sh->pings, sh->max_op_ns / 1e6, (unsigned long long)sh->free_bufs,
            MCAPI_MAX_MSG_BUFFERS, mt_ms_since(t0) / 1000);
    (void)sent;
}

/* Node 1 fills its queue and is killed; nobody else had the region. */
static void lone_child(void)
{
    init_node(W_VICTIM, 1);
    mcapi_endpoint_t ep = make_ep(W_VICTIM, 1, OP_MS);
    for (int i = 0; i < 10; i++) {
        mcapi_status_t s = 0;
        mcapi_msg_send(ep, ep, &i, sizeof i, 1, &s);
        C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
    }
    st(&sh->ready[0], 1);
    pause();
}

/* The next run, in the killed one's region name: node 0. */
static void next_run(void)
{
    init_node(W_SURVIVOR, 0);
    mcapi_node_attr_type_t type;
    mcapi_status_t s = 0;
    mcapi_node_get_attribute(MT_DOMAIN, 1, MCAPI_NODE_ATTR_TYPE, &type, sizeof type, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_ERR_NODE_INVALID); /* not the dead run's node 1 */
    mcapi_endpoint_get(MT_DOMAIN, 1, 1, MT_SHORT_MS, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_TIMEOUT);
    mcapi_finalize(&s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
}

/* A crashed run's region: the next run's node finds a fresh domain (node 1
 * free, its endpoint gone), not the dead run's, and leaves nothing behind. */
static void test_next_run(const struct harness_env *env)
{
    (void)env;
    char path[96];
    setup("crash-next", path, sizeof path);
    pid_t v = spawn(lone_child, 0);
    bool up = await(&sh->ready[0], v, MT_WAIT_MS);
    kill(v, SIGKILL);
    waitpid(v, NULL, 0);
    check_fails();
    ck_assert(up);
    ck_assert_msg(access(path, F_OK) == 0, "the killed run left no region (nothing to test)");

    pid_t n = spawn(next_run, 0);
    int status = reap(n, 20000);
    check_fails();
    ck_assert_msg(status == 0, "the next run's node ended with wait status %#x", status);
    bool left = access(path, F_OK) == 0;
    shm_unlink(sh->name);
    ck_assert_msg(!left, "%s is left behind", path);
}

/* ---- A dead receiver's packets --------------------------------------------- */

#define POOL 8 /* the domain's packet places (every node gives the same) */
#define PKTS 5 /* sent to the victim; it takes HELD of them and keeps them */
#define HELD 3

static unsigned pool_places = POOL; /* a test's (its nodes are forked after it is set) */

static void init_pool_node(int who, mcapi_node_t node)
{
    mcapi_param_t p = {MCAPI_PARAM_INITIALIZER, .shm_name = sh->name, .pkt_buffers = pool_places};
    mcapi_info_t info;
    mcapi_status_t s = 0;
    mcapi_initialize(MT_DOMAIN, node, NULL, &p, &info, &s);
    C_EQ(who, s, MCAPI_SUCCESS);
}

/* Node 0: the whole packet pool is free: pool_places packets on a channel
 * of its own (ports 3 and 4), refused at once otherwise. */
static void pool_all_free(void)
{
    mcapi_status_t s = 0;
    mcapi_request_t r;
    size_t n;
    char b[64] = "packet";
    mcapi_endpoint_t a = make_ep(W_SURVIVOR, 3, MT_WAIT_MS), c = make_ep(W_SURVIVOR, 4, MT_WAIT_MS);
    mcapi_endp_attr_memory_type_t m =
        MCAPI_ENDP_ATTR_LOCAL_MEMORY | MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT;
    mcapi_endpoint_set_attribute(a, MCAPI_ENDP_ATTR_MEMORY_TYPE, &m, sizeof m, &s);
    mcapi_pktchan_send_hndl_t ah;
    mcapi_pktchan_recv_hndl_t ch;
    mcapi_pktchan_connect_i(a, c, &r, &s);
    done_ok(W_SURVIVOR, &r);
    mcapi_pktchan_send_open_i(&ah, a, &r, &s);
    mcapi_wait(&r, &n, MT_WAIT_MS, &s);
    mcapi_pktchan_recv_open_i(&ch, c, &r, &s);
    done_ok(W_SURVIVOR, &r);
    for (uint32_t i = 0; i < pool_places; i++) {
        mcapi_pktchan_send(ah, b, sizeof b, &s);
        C_EQ(W_SURVIVOR, s == MCAPI_SUCCESS ? pool_places : i,
             pool_places); /* a place still lost */
    }
}

/* Node 0: streams PKTS packets to node 1's endpoint; once node 1 has been
 * initialised again (the dead one's node taken over), the whole pool is
 * free: POOL packets on a channel of its own, refused at once otherwise. */
static void pkt_sender(void)
{
    init_pool_node(W_SURVIVOR, 0);
    mcapi_endpoint_t tx = make_ep(W_SURVIVOR, 1, MT_WAIT_MS);
    mcapi_status_t s = 0;
    mcapi_endpoint_t rx = mcapi_endpoint_get(MT_DOMAIN, 1, 2, MT_WAIT_MS, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    mcapi_request_t r;
    mcapi_pktchan_connect_i(tx, rx, &r, &s);
    done_ok(W_SURVIVOR, &r);
    mcapi_pktchan_send_hndl_t sh_;
    mcapi_pktchan_send_open_i(&sh_, tx, &r, &s);
    done_ok(W_SURVIVOR, &r);
    char b[64] = "packet";
    for (int i = 0; i < PKTS; i++) {
        mcapi_pktchan_send(sh_, b, sizeof b, &s);
        C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    }
    st(&sh->up[0], 1);
    while (!ld(&sh->stop)) usleep(100);
    pool_all_free();
    st(&sh->done[0], 1);
    mcapi_finalize(&s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
}

/* Node 1: takes HELD packets, keeps them, and waits to be killed. */
static void pkt_receiver(void)
{
    init_pool_node(W_VICTIM, 1);
    mcapi_endpoint_t rx = make_ep(W_VICTIM, 2, MT_WAIT_MS);
    mcapi_pktchan_recv_hndl_t h;
    mcapi_request_t r;
    mcapi_status_t s = 0;
    size_t n;
    mcapi_pktchan_recv_open_i(&h, rx, &r, &s);
    done_ok(W_VICTIM, &r);
    for (int i = 0; i < HELD; i++) {
        void *p = NULL;
        mcapi_pktchan_recv(h, &p, &n, &s);
        C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
    }
    st(&sh->ready[0], 1);
    pause();
}

/* The next process of node 1: its initialise takes the dead node over. It
 * finalises only after node 0's check (a finalise of node 1 gives back
 * what node 1 holds, the dead one's packets too). */
static void pkt_next(void)
{
    init_pool_node(W_VICTIM, 1);
    st(&sh->stop, 1);
    for (int t = 0; t < 200000 && !ld(&sh->done[0]); t++) usleep(100);
    mcapi_status_t s = 0;
    mcapi_finalize(&s);
    C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
}

/* A receiver killed holding packets it took (and with more queued to it):
 * when its node is initialised again, they all go back to the pool. */
static void test_packets(const struct harness_env *env)
{
    (void)env;
    char path[96];
    setup("crash-pkt", path, sizeof path);
    pid_t s0 = kids[0] = spawn(pkt_sender, 0);
    pid_t v = spawn(pkt_receiver, 0);
    bool up = await(&sh->ready[0], v, MT_WAIT_MS) && await(&sh->up[0], s0, MT_WAIT_MS);
    kill(v, SIGKILL);
    waitpid(v, NULL, 0);
    check_fails();
    CHECK(up, "the receiver did not take its packets");
    int status = reap(spawn(pkt_next, 0), 20000);
    int st0 = reap(s0, 20000);
    kids[0] = 0;
    check_fails();
    ck_assert_msg(status == 0 && st0 == 0, "wait status %#x (next node 1), %#x (node 0)", status,
                  st0);
    ck_assert_msg(access(path, F_OK) != 0, "%s is left behind", path);
}

/* ---- A dead sender's packet, filled but not queued ------------------------- */

#define QDEPTH MCAPI_MAX_QUEUE_ELEMENTS /* a channel's queue */
#define POOL2 (QDEPTH + 4)

/* Node 0: opens the receive end, and once node 1 has been taken over takes
 * the QDEPTH queued packets, releases them, and finds the whole pool free. */
static void fill_receiver(void)
{
    init_pool_node(W_SURVIVOR, 0);
    mcapi_endpoint_t rx = make_ep(W_SURVIVOR, 2, MT_WAIT_MS);
    mcapi_pktchan_recv_hndl_t h;
    mcapi_request_t r;
    mcapi_status_t s = 0;
    size_t n;
    st(&sh->up[0], 1);
    mcapi_pktchan_recv_open_i(&h, rx, &r, &s);
    done_ok(W_SURVIVOR, &r);
    while (!ld(&sh->stop)) usleep(100);
    for (int i = 0; i < QDEPTH; i++) {
        void *p = NULL;
        mcapi_pktchan_recv(h, &p, &n, &s);
        C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
        mcapi_pktchan_release(p, &s);
        C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    }
    mcapi_endp_attr_num_send_buffers_t free_places = 0;
    mcapi_endpoint_get_attribute(rx, MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, &free_places,
                                 sizeof free_places, &s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
    C_EQ(W_SURVIVOR, free_places, POOL2); /* POOL2 - 1: the blocked send's place lost */
    st(&sh->done[0], 1);
    mcapi_finalize(&s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
}

/* Node 1: fills the channel's queue, then blocks in one more send, which
 * has already taken and filled its packet, and waits to be killed there. */
static void fill_sender(void)
{
    init_pool_node(W_VICTIM, 1);
    mcapi_endpoint_t tx = make_ep(W_VICTIM, 1, MT_WAIT_MS);
    mcapi_endpoint_t rx = get_ep(W_VICTIM, 0, 2);
    mcapi_request_t r;
    mcapi_status_t s = 0;
    mcapi_pktchan_connect_i(tx, rx, &r, &s);
    done_ok(W_VICTIM, &r);
    mcapi_pktchan_send_hndl_t h;
    mcapi_pktchan_send_open_i(&h, tx, &r, &s);
    done_ok(W_VICTIM, &r);
    char b[64] = "packet";
    for (int i = 0; i < QDEPTH; i++) {
        mcapi_pktchan_send(h, b, sizeof b, &s);
        C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
    }
    st(&sh->ready[0], 1);
    mcapi_pktchan_send(h, b, sizeof b, &s); /* the queue is full: waits here */
    pause();
}

/* A sender killed inside a blocking send whose packet is filled but finds
 * the queue full: when its node is initialised again, that packet goes back
 * to the pool, and the packets it had queued are still delivered. */
static void test_packet_filled(const struct harness_env *env)
{
    (void)env;
    char path[96];
    pool_places = POOL2;
    setup("crash-fill", path, sizeof path);
    pid_t s0 = kids[0] = spawn(fill_receiver, 0);
    bool up = await(&sh->up[0], s0, MT_WAIT_MS);
    pid_t v = spawn(fill_sender, 0);
    up = up && await(&sh->ready[0], v, MT_WAIT_MS);
    usleep(100000); /* into the send's wait */
    kill(v, SIGKILL);
    waitpid(v, NULL, 0);
    check_fails();
    CHECK(up, "the sender did not fill the queue");
    int status = reap(spawn(pkt_next, 0), 20000);
    int st0 = reap(s0, 20000);
    kids[0] = 0;
    check_fails();
    ck_assert_msg(status == 0 && st0 == 0, "wait status %#x (next node 1), %#x (node 0)", status,
                  st0);
    ck_assert_msg(access(path, F_OK) != 0, "%s is left behind", path);
}

/* ---- Packet channels through random kills ------------------------------------ */

#define KPOOL 16 /* places: the pool runs dry, so sends wait for it too */
#define KHELD 2  /* packets a victim keeps */

static int victim_k; /* the victim a forked process is */

static size_t kpkt_size(uint32_t seq)
{
    return sizeof(struct note) + (seq * 37u) % 600u; /* runs of 1 to 5 granules */
}

/* One packet each way per round until both of node 0's ends see the
 * victim's closed (its node taken over, or its finalise); node 0's packets
 * of victim k arrive in order, once each. */
static void kpkt_traffic(mcapi_pktchan_send_hndl_t tx, mcapi_pktchan_recv_hndl_t rx, int k)
{
    uint32_t want = 0;
    bool tx_open = true, rx_open = true;
    uint8_t b[700] = {0};
    while (tx_open || rx_open) {
        mcapi_status_t s = 0;
        if (tx_open) {
            op_begin();
            mcapi_pktchan_send(tx, b, 64, &s);
            op_end(W_SURVIVOR);
            if (s == MCAPI_SUCCESS) sh->pkts_out++;
            if (s == MCAPI_ERR_CHAN_NOTOPEN)
                tx_open = false;
            else if (s != MCAPI_SUCCESS)
                C_EQ(W_SURVIVOR, s, MCAPI_TIMEOUT);
        }
        if (rx_open) {
            void *p = NULL;
            size_t n = 0;
            op_begin();
            mcapi_pktchan_recv(rx, &p, &n, &s);
            op_end(W_SURVIVOR);
            if (s == MCAPI_SUCCESS) {
                struct note m;
                memcpy(&m, p, sizeof m);
                C_EQ(W_SURVIVOR, m.iter, k);
                C_EQ(W_SURVIVOR, m.seq, want);
                C_EQ(W_SURVIVOR, n, kpkt_size(want));
                want++;
                sh->pkts_in++;
                mcapi_pktchan_release(p, &s);
                C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
            } else if (s == MCAPI_ERR_CHAN_NOTOPEN) {
                rx_open = false;
            } else {
                C_EQ(W_SURVIVOR, s, MCAPI_TIMEOUT);
            }
        }
    }
    mcapi_request_t r;
    mcapi_status_t s = 0;
    mcapi_pktchan_send_close_i(tx, &r, &s);
    done_ok(W_SURVIVOR, &r);
    mcapi_pktchan_recv_close_i(rx, &r, &s);
    done_ok(W_SURVIVOR, &r);
}

/* Node 0: for each victim in turn, connects a channel each way between
 * the victim's endpoints and its own and trades packets until the victim
 * is gone; at the end the whole pool is free. */
static void kpkt_survivor(void)
{
    init_pool_node(W_SURVIVOR, 0);
    mcapi_endpoint_t tx = make_ep(W_SURVIVOR, 1, OP_MS), rx = make_ep(W_SURVIVOR, 2, OP_MS);
    st(&sh->up[0], 1);
    for (int k = 0; k <= KILLS; k++) {
        for (unsigned t = 0; !ld(&sh->ready[k]); t++) {
            C_EQ(W_SURVIVOR, t < MT_WAIT_MS * 10, 1);
            usleep(100);
        }
        mcapi_endpoint_t vtx = get_ep(W_SURVIVOR, 1, 1), vrx = get_ep(W_SURVIVOR, 1, 2);
        mcapi_request_t r;
        mcapi_status_t s = 0;
        mcapi_pktchan_connect_i(tx, vrx, &r, &s);
        done_ok(W_SURVIVOR, &r);
        mcapi_pktchan_connect_i(vtx, rx, &r, &s);
        done_ok(W_SURVIVOR, &r);
        mcapi_pktchan_send_hndl_t th;
        mcapi_pktchan_recv_hndl_t rh;
        mcapi_pktchan_send_open_i(&th, tx, &r, &s);
        done_ok(W_SURVIVOR, &r);
        mcapi_pktchan_recv_open_i(&rh, rx, &r, &s);
        done_ok(W_SURVIVOR, &r);
        st(&sh->conn[k], 1);
        kpkt_traffic(th, rh, k);
        mcapi_endpoint_release(vtx, &s);
        mcapi_endpoint_release(vrx, &s);
    }
    pool_all_free();
    st(&sh->done[0], 1);
    mcapi_status_t s = 0;
    mcapi_finalize(&s);
    C_EQ(W_SURVIVOR, s, MCAPI_SUCCESS);
}

/* Victim k (node 1): opens its ends of node 0's channels, then sends
 * numbered packets of changing sizes and receives, keeping the last KHELD
 * it got, until it is killed (the last victim: FINAL_SENDS, then finalise). */
static void kpkt_victim(void)
{
    int k = victim_k;
    init_pool_node(W_VICTIM, 1);
    mcapi_endpoint_t tx = make_ep(W_VICTIM, 1, OP_MS), rx = make_ep(W_VICTIM, 2, OP_MS);
    mcapi_pktchan_send_hndl_t th;
    mcapi_pktchan_recv_hndl_t rh;
    mcapi_request_t r1, r2;
    size_t n;
    mcapi_status_t s = 0;
    mcapi_pktchan_send_open_i(&th, tx, &r1, &s);
    mcapi_pktchan_recv_open_i(&rh, rx, &r2, &s);
    st(&sh->ready[k], 1);
    done_ok(W_VICTIM, &r1);
    done_ok(W_VICTIM, &r2);
    void *held[KHELD] = {NULL};
    uint8_t b[700] = {0};
    for (uint32_t seq = 0, round = 0;; round++) {
        struct note m = {(uint32_t)k, seq};
        memcpy(b, &m, sizeof m);
        mcapi_pktchan_send(th, b, kpkt_size(seq), &s);
        if (s == MCAPI_SUCCESS) {
            if (++seq == FINAL_SENDS && k == KILLS) break;
        } else {
            C_EQ(W_VICTIM, s, MCAPI_TIMEOUT);
        }
        void *p = NULL;
        mcapi_pktchan_recv(rh, &p, &n, &s);
        if (s != MCAPI_SUCCESS) {
            C_EQ(W_VICTIM, s, MCAPI_TIMEOUT);
            continue;
        }
        if (held[round % KHELD]) {
            mcapi_pktchan_release(held[round % KHELD], &s);
            C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
        }
        held[round % KHELD] = p;
    }
    mcapi_finalize(&s); /* gives back what it holds */
    C_EQ(W_VICTIM, s, MCAPI_SUCCESS);
}

static pid_t spawn_victim(int k)
{
    victim_k = k;
    return spawn(kpkt_victim, k);
}

/* KILLS packet-trading victims killed at random points: node 0 goes on,
 * every packet it gets comes once and in order, and no place of the pool
 * is lost (their packets filled, queued, taken or held, and the pool's
 * lock, repaired from the packets' lengths when a kill lands in it: in
 * about one run of three, a few times). */
static void test_kill_packets(const struct harness_env *env)
{
    (void)env;
    char path[96];
    pool_places = KPOOL;
    setup("crash-kpkt", path, sizeof path);
    uint64_t t0 = plat_now_ns();
    pid_t s0 = kids[0] = spawn(kpkt_survivor, 0);
    bool up = await(&sh->up[0], s0, MT_WAIT_MS);
    check_fails();
    CHECK(up, "node 0 did not start");
    for (int k = 0; k < KILLS; k++) {
        pid_t v = spawn_victim(k);
        bool conn = await(&sh->conn[k], v, MT_WAIT_MS);
        usleep(rnd() % 3000);
        kill(v, SIGKILL);
        int status = 0;
        CHECK(waitpid(v, &status, 0) == v, "waitpid");
        check_fails();
        CHECK(conn, "victim %d was not connected", k);
        CHECK(WIFSIGNALED(status), "victim %d ended with wait status %#x", k, status);
    }
    int status = reap(spawn_victim(KILLS), 20000);
    check_fails();
    CHECK(status == 0, "the last victim ended with wait status %#x", status);
    int st0 = reap(s0, 30000);
    kids[0] = 0;
    check_fails();
    ck_assert_msg(st0 == 0, "node 0's wait status %#x (max call %.0f ms)", st0,
                  sh->max_op_ns / 1e6);
    ck_assert_msg(access(path, F_OK) != 0, "%s is left behind", path);
    fprintf(stderr,
            "crash_kill_packets: %d kills, %llu packets from victims, %llu to them, longest "
            "survivor call %.1f ms, pool %d/%d free, %.2f s\n",
            KILLS, (unsigned long long)sh->pkts_in, (unsigned long long)sh->pkts_out,
            sh->max_op_ns / 1e6, KPOOL, KPOOL, mt_ms_since(t0) / 1000);
}

void mt_crash(void)
{
    static const struct harness_case cases[] = {
        {.name = "crash_kill_nodes", .test = test_kill_nodes, .backends = HARNESS_NATIVE},
        {.name = "crash_next_run", .test = test_next_run, .backends = HARNESS_NATIVE},
        {.name = "crash_packets", .test = test_packets, .backends = HARNESS_NATIVE},
        {.name = "crash_packet_filled", .test = test_packet_filled, .backends = HARNESS_NATIVE},
        {.name = "crash_kill_packets", .test = test_kill_packets, .backends = HARNESS_NATIVE},
    };
    harness_add_cases("mcapi", cases, HARNESS_COUNT(cases));
}
