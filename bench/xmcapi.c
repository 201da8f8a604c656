/*
 * xmcapi.c -- native cost of XMCAPI (MCAPI over TCP) against raw TCP.
 *
 * MCAPI nodes of domain 1 are threads of this process talking over
 * loopback TCP, each started by its own thread with mcapi_initialize
 * (transport MCAPI_TRANSPORT_XMCAPI, a topology file written here), each
 * with its own communicator thread. The notification mode is fixed when a
 * node starts, so there is one pair of nodes per mode: DIRECT (nodes 0 and
 * 1), WAKE (2, 3), PIPE (4, 5). The first node of a pair (A) runs on the
 * first CPU, the second (B) on the second; the communicator threads are
 * not pinned (a node is initialised before its thread is pinned, so its
 * communicator does not inherit the pinning). The raw TCP side is run by
 * the DIRECT pair's two threads, on the same CPUs. Only one pair works at a
 * time; the others wait on a barrier (asleep). In the same run,
 * interleaved round by round (the order rotates every round):
 *
 *   rtt_<impl>_<n>B  A sends n bytes (4, 64, 1024), B sends them back, A
 *                    checks them: mean round trip of a round. xmcapi:
 *                    mcapi_msg_send + mcapi_msg_recv on both sides, DIRECT
 *                    mode (the default); tcp: send() + recv() of n bytes on
 *                    one blocking TCP_NODELAY socket pair. At 4 bytes also
 *                    xmcapi in WAKE and PIPE mode.
 *   bw_<impl>_<n>    A streams n-byte units (1, 8, 32, 64 KiB) to B for
 *                    STREAM_NS, then B answers with the count; MB/s = 10^6
 *                    bytes/s from the first send to the answer. xmcapi: a
 *                    packet channel (mcapi_pktchan_send; mcapi_pktchan_recv
 *                    + mcapi_pktchan_release), DIRECT mode; tcp: send() of
 *                    n bytes, the reader recv()s until it has n bytes. B
 *                    checks every unit's sequence number, its end flag and
 *                    last byte.
 *   cacheline_rtt    context: one word each way in a cache line of its own
 *                    between the two pinned threads (what the host's
 *                    current mode makes a cross-CPU transfer cost).
 *
 * Output: CSV `metric,value,unit` on stdout: for every metric the median
 * (no suffix), min and max over ROUNDS rounds, and the ratios of medians
 * (xmcapi/tcp; WAKE and PIPE over DIRECT).
 *
 * How the sides wait. Raw TCP blocks in recv(): every one-way trip is a
 * cross-CPU wake-up (about 23 us on the 2-vCPU VM). An XMCAPI message
 * goes user thread -> socket -> the receiver's communicator, asleep in
 * epoll_wait (a wake-up), which files it and notifies the receiving user
 * thread, which spins in plat_event_wait for 30 us before it sleeps
 * (docs/native.md). In WAKE and PIPE mode the sender's communicator must
 * also be woken to write the socket: one more hand-over per trip.
 *
 * Reading the numbers (docs: the XMCAPI benchmark section). Four threads
 * take turns on two vCPUs, and where the scheduler puts the unpinned
 * communicators decides a whole round: a DIRECT round trip is either about
 * the raw TCP one (~25-35 us) or about three times it (~85-90 us; always
 * so when the communicators share their user thread's CPU), so its median
 * moves between runs while its min stays near TCP. WAKE and PIPE add the
 * sender's communicator to every trip. Streams of 32 and 64 KiB packets
 * reach a fraction of raw TCP's throughput; 1-8 KiB ones match it (the
 * output buffer batches small frames).
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench/xmcapi"
#include "bench.h"
#include "mcapi.h"

#include "../xmcapi/xmcapi.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9
#define DOMAIN 1
#define MSG_PORT 1
#define PKT_SEND_PORT 2
#define PKT_RECV_PORT 3
#define TIMEOUT_MS 10000 /* a lost message fails the bench instead of hanging it */
#define WATCHDOG_S 300   /* and so does anything else stuck */
#define LINE_REPS 20000
#define RTT_WARMUP 200
#define RTT_NS 150000000ull /* per round-trip measurement, at least ... */
#define RTT_MIN 200         /* ... and this many, at most RTT_MAX */
#define RTT_MAX 100000
#define STREAM_NS 200000000ull /* per throughput measurement, at least ... */
#define STREAM_MIN 64          /* ... and this many units */
#define NPAIRS 3
#define NTHREADS (2 * NPAIRS)

static const size_t rtt_sizes[] = {4, 64, 1024};
static const size_t stream_sizes[] = {1024, 8192, 32768, 65536};
#define NRTT (sizeof rtt_sizes / sizeof rtt_sizes[0])
#define NSTREAM (sizeof stream_sizes / sizeof stream_sizes[0])
#define NTESTS (NRTT + NSTREAM)

enum impl { TCP, DIRECT, WAKE, PIPE, NIMPL };
static const char *const impl_name[NIMPL] = {"tcp", "xmcapi", "xmcapi_wake", "xmcapi_pipe"};
static const enum mcapi_xm_notify pair_mode[NPAIRS] = {MCAPI_XM_DIRECT, MCAPI_XM_WAKE,
                                                       MCAPI_XM_PIPE};
static const int impl_pair[NIMPL] = {0, 0, 1, 2};

/* What each test compares: all four at 4 bytes, tcp and DIRECT elsewhere. */
static int impls(size_t t, enum impl *out)
{
    int n = 0;
    out[n++] = TCP;
    out[n++] = DIRECT;
    if (t == 0) {
        out[n++] = WAKE;
        out[n++] = PIPE;
    }
    return n;
}

struct side {
    int pair, node, cpu;
    bool a; /* the first node of its pair: it sends first and measures */
    mcapi_endpoint_t msg, peer_msg;
    mcapi_pktchan_send_hndl_t tx; /* DIRECT A */
    mcapi_pktchan_recv_hndl_t rx; /* DIRECT B */
    int fd;                       /* DIRECT pair: the raw TCP socket */
    unsigned char *buf;           /* MCAPI_MAX_PKT_SIZE bytes */
    struct xmcapi_stats stats;    /* the node's counters at the end */
};

static struct {
    pthread_barrier_t bar;
    char topo[64];
    unsigned port0; /* node i listens on port0 + i, raw TCP on port0 + NTHREADS */
    int listen_fd;  /* raw TCP, DIRECT A's */
    double value[NTESTS][NIMPL][ROUNDS]; /* us per round trip, or MB/s */
    double line[ROUNDS];                 /* ns per cache-line round trip */
    _Alignas(64) atomic_ulong ping;
    _Alignas(64) atomic_ulong pong;
} g;

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench/xmcapi: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_FAILURE);
}

static void ok(const struct side *s, mcapi_status_t st, const char *what)
{
    if (st == MCAPI_SUCCESS) return;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "bench/xmcapi: node %d: %s: %s\n", s->node, what,
            mcapi_display_status(st, name, sizeof name));
    exit(EXIT_FAILURE);
}

static void started(const struct side *s, mcapi_status_t st, const char *what)
{
    if (st != MCAPI_PENDING) ok(s, st, what);
}

static unsigned char pattern(size_t i, unsigned long k)
{
    return (unsigned char)(i * 7u + k);
}

/* ---- raw TCP ------------------------------------------------------------- */

static void tcp_send(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) fail("tcp send: %s", k < 0 ? strerror(errno) : "sent nothing");
        p += k;
        n -= (size_t)k;
    }
}

static void tcp_recv(int fd, unsigned char *p, size_t n)
{
    while (n) {
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) fail("tcp recv: %s", k ? strerror(errno) : "peer closed");
        p += k;
        n -= (size_t)k;
    }
}

static void tcp_opts(int fd)
{
    int one = 1;
    struct timeval tv = {.tv_sec = TIMEOUT_MS / 1000};
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0)
        fail("setsockopt: %s", strerror(errno));
}

static struct sockaddr_in tcp_addr(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)(g.port0 + NTHREADS)),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    return a;
}

static void tcp_listen(void)
{
    int one = 1;
    struct sockaddr_in a = tcp_addr();
    g.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (g.listen_fd < 0 || setsockopt(g.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(g.listen_fd, (struct sockaddr *)&a, sizeof a) || listen(g.listen_fd, 1))
        fail("tcp listen on port %u: %s", g.port0 + NTHREADS, strerror(errno));
}

/* After tcp_listen and a barrier: B connects, A accepts. */
static void tcp_join(struct side *s)
{
    if (s->a) {
        s->fd = accept4(g.listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (s->fd < 0) fail("tcp accept: %s", strerror(errno));
        close(g.listen_fd);
    } else {
        struct sockaddr_in a = tcp_addr();
        s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&a, sizeof a))
            fail("tcp connect: %s", strerror(errno));
    }
    tcp_opts(s->fd);
}

/* ---- the measurements ------------------------------------------------------ */

/* One word each way in a cache line of its own; A returns ns per round trip. */
static double line_rtt(const struct side *s, int round)
{
    unsigned long base = (unsigned long)round * LINE_REPS;
    uint64_t t0 = now_ns();
    for (unsigned long k = base + 1; k <= base + LINE_REPS; k++) {
        if (s->a) {
            atomic_store_explicit(&g.ping, k, memory_order_release);
            while (atomic_load_explicit(&g.pong, memory_order_acquire) != k) relax();
        } else {
            while (atomic_load_explicit(&g.ping, memory_order_acquire) != k) relax();
            atomic_store_explicit(&g.pong, k, memory_order_release);
        }
    }
    return (double)(now_ns() - t0) / LINE_REPS;
}

static size_t msg_exchange(struct side *s, enum impl im, size_t n, bool send_first)
{
    mcapi_status_t st;
    size_t got = n;
    if (im == TCP) {
        if (send_first) tcp_send(s->fd, s->buf, n);
        tcp_recv(s->fd, s->buf, n);
        if (!send_first) tcp_send(s->fd, s->buf, n);
        return got;
    }
    if (send_first) {
        mcapi_msg_send(s->msg, s->peer_msg, s->buf, n, 0, &st);
        ok(s, st, "mcapi_msg_send");
    }
    mcapi_msg_recv(s->msg, s->buf, MCAPI_MAX_MSG_SIZE, &got, &st);
    ok(s, st, "mcapi_msg_recv");
    if (!send_first) {
        mcapi_msg_send(s->msg, s->peer_msg, s->buf, got, 0, &st);
        ok(s, st, "mcapi_msg_send");
    }
    return got;
}

/* Round trips: A sends buf[0] = 1 on the last one (after RTT_NS and
 * RTT_MIN timed ones, or RTT_MAX); B echoes until it sees it. A returns
 * the mean in us. */
static double rtt(struct side *s, enum impl im, size_t n)
{
    if (!s->a) {
        do {
            size_t got = msg_exchange(s, im, n, false);
            if (got != n) fail("%s: B got a message of %zu bytes", impl_name[im], got);
        } while (s->buf[0] == 0);
        return 0;
    }
    uint64_t t0 = 0;
    unsigned long timed = 0;
    for (unsigned long rep = 0;; rep++) {
        if (rep == RTT_WARMUP) t0 = now_ns();
        unsigned char last = rep >= RTT_WARMUP && ((timed >= RTT_MIN && now_ns() - t0 >= RTT_NS) ||
                                                   timed + 1 >= RTT_MAX);
        s->buf[0] = last;
        s->buf[n - 1] = pattern(n - 1, rep);
        size_t got = msg_exchange(s, im, n, true);
        if (got != n || s->buf[0] != last || s->buf[n - 1] != pattern(n - 1, rep))
            fail("%s: round trip %lu came back wrong", impl_name[im], rep);
        if (rep >= RTT_WARMUP) timed++;
        if (last) break;
    }
    return (double)(now_ns() - t0) / 1e3 / (double)timed;
}

/* A unit of a stream: sequence number, end flag, and a last byte. */
static void unit_put(unsigned char *b, size_t n, uint32_t seq, bool end)
{
    memcpy(b, &seq, sizeof seq);
    b[4] = end;
    b[n - 1] = pattern(n - 1, seq);
}

static bool unit_get(const unsigned char *b, size_t got, size_t n, uint32_t seq, const char *who)
{
    uint32_t k;
    memcpy(&k, b, sizeof k);
    if (got != n || k != seq || b[4] > 1 || b[n - 1] != pattern(n - 1, seq)) {
        fprintf(stderr, "bench/xmcapi: %s: unit %u of %zu bytes arrived as %u (%zu bytes)\n", who,
                seq, n, k, got);
        exit(EXIT_FAILURE);
    }
    return b[4];
}

/* Streaming: A returns MB/s. */
static double stream(struct side *s, enum impl im, size_t n)
{
    mcapi_status_t st;
    uint32_t count = 0;
    size_t got = 0;
    if (s->a) {
        uint64_t t0 = now_ns();
        for (bool end = false; !end; count++) {
            end = count + 1 >= STREAM_MIN && now_ns() - t0 >= STREAM_NS;
            unit_put(s->buf, n, count, end);
            if (im == TCP) {
                tcp_send(s->fd, s->buf, n);
            } else {
                mcapi_pktchan_send(s->tx, s->buf, n, &st);
                ok(s, st, "mcapi_pktchan_send");
            }
        }
        uint32_t seen = 0;
        if (im == TCP) {
            tcp_recv(s->fd, (unsigned char *)&seen, sizeof seen);
            got = sizeof seen;
        } else {
            mcapi_msg_recv(s->msg, &seen, sizeof seen, &got, &st);
            ok(s, st, "mcapi_msg_recv (end of stream)");
        }
        uint64_t dt = now_ns() - t0;
        if (got != sizeof seen || seen != count)
            fail("%s: B saw %u of %u units", impl_name[im], seen, count);
        return (double)count * (double)n * 1e3 / (double)dt;
    }
    for (bool end = false; !end; count++) {
        if (im == TCP) {
            tcp_recv(s->fd, s->buf, n);
            end = unit_get(s->buf, n, n, count, "tcp");
        } else {
            void *p = NULL;
            mcapi_pktchan_recv(s->rx, &p, &got, &st);
            ok(s, st, "mcapi_pktchan_recv");
            end = unit_get(p, got, n, count, "xmcapi");
            mcapi_pktchan_release(p, &st);
            ok(s, st, "mcapi_pktchan_release");
        }
    }
    if (im == TCP) {
        tcp_send(s->fd, (const unsigned char *)&count, sizeof count);
    } else {
        mcapi_msg_send(s->msg, s->peer_msg, &count, sizeof count, 0, &st);
        ok(s, st, "mcapi_msg_send (end of stream)");
    }
    return 0;
}

/* ---- the nodes ----------------------------------------------------------- */

static mcapi_endpoint_t endpoint(const struct side *s, mcapi_port_t port)
{
    mcapi_status_t st;
    mcapi_endpoint_t e = mcapi_endpoint_create(port, &st);
    ok(s, st, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS;
    mcapi_endpoint_set_attribute(e, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    ok(s, st, "mcapi_endpoint_set_attribute");
    return e;
}

/* Endpoints, and for the DIRECT pair the A -> B packet channel and the raw
 * TCP connection. */
static void setup(struct side *s)
{
    mcapi_status_t st;
    mcapi_request_t req;
    size_t size;
    mcapi_node_t peer = (mcapi_node_t)(s->node ^ 1);
    s->msg = endpoint(s, MSG_PORT);
    mcapi_endpoint_t pkt = 0;
    if (s->pair == 0) pkt = endpoint(s, s->a ? PKT_SEND_PORT : PKT_RECV_PORT);
    if (s->pair == 0 && s->a) tcp_listen();
    pthread_barrier_wait(&g.bar);
    if (s->pair == 0) tcp_join(s);
    s->peer_msg = mcapi_endpoint_get(DOMAIN, peer, MSG_PORT, TIMEOUT_MS, &st);
    ok(s, st, "mcapi_endpoint_get");
    if (s->pair != 0) return;
    if (s->a) {
        mcapi_endpoint_t rx = mcapi_endpoint_get(DOMAIN, peer, PKT_RECV_PORT, TIMEOUT_MS, &st);
        ok(s, st, "mcapi_endpoint_get");
        mcapi_pktchan_connect_i(pkt, rx, &req, &st);
        started(s, st, "mcapi_pktchan_connect_i");
        mcapi_wait(&req, &size, TIMEOUT_MS, &st);
        ok(s, st, "mcapi_wait (connect)");
        mcapi_pktchan_send_open_i(&s->tx, pkt, &req, &st);
        started(s, st, "mcapi_pktchan_send_open_i");
    } else {
        mcapi_pktchan_recv_open_i(&s->rx, pkt, &req, &st);
        started(s, st, "mcapi_pktchan_recv_open_i");
    }
    mcapi_wait(&req, &size, TIMEOUT_MS, &st);
    ok(s, st, "mcapi_wait (open)");
}

static void *side_main(void *arg)
{
    struct side *s = arg;
    s->buf = aligned_alloc(64, MCAPI_MAX_PKT_SIZE);
    if (!s->buf) fail("out of memory");
    memset(s->buf, 0, MCAPI_MAX_PKT_SIZE);
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .transport = MCAPI_TRANSPORT_XMCAPI,
                           .topology = g.topo, .xm_notify = pair_mode[s->pair]};
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, (mcapi_node_t)s->node, NULL, &param, &info, &st);
    ok(s, st, "mcapi_initialize");
    pin(s->cpu);                  /* after initialize: the communicator keeps every CPU */
    pthread_barrier_wait(&g.bar); /* every node listens before anyone connects */
    setup(s);
    for (int r = 0; r < ROUNDS; r++) {
        pthread_barrier_wait(&g.bar);
        if (s->pair == 0) {
            double line = line_rtt(s, r);
            if (s->a) g.line[r] = line;
        }
        for (size_t t = 0; t < NTESTS; t++) {
            enum impl list[NIMPL];
            int n = impls(t, list);
            for (int i = 0; i < n; i++) {
                enum impl im = list[(i + r + (int)t) % n]; /* rotate who goes first */
                pthread_barrier_wait(&g.bar);
                if (impl_pair[im] != s->pair) continue;
                double v =
                    t < NRTT ? rtt(s, im, rtt_sizes[t]) : stream(s, im, stream_sizes[t - NRTT]);
                if (s->a) g.value[t][im][r] = v;
            }
        }
    }
    ok(s, xmcapi_stats(&s->stats), "xmcapi_stats");
    /* Nothing is torn down: the process ends here (finalize with the peer
     * still connected would need one more handshake that measures nothing). */
    pthread_barrier_wait(&g.bar);
    return NULL;
}

/* ---- output -------------------------------------------------------------- */

/* Median, min and max of one metric's rounds; returns the median. */
static double report(const char *metric, const double *v, const char *unit, const char *fmt)
{
    return print_stats(metric, "", v, ROUNDS, unit, fmt);
}

static const char *size_name(size_t n, char *buf, size_t len)
{
    if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%zuKiB", n / 1024);
    else
        snprintf(buf, len, "%zuB", n);
    return buf;
}

static void drop_topology(void)
{
    if (g.topo[0]) unlink(g.topo);
}

static void watchdog(int sig)
{
    static const char m[] = "bench/xmcapi: watchdog: the run is stuck, giving up\n";
    (void)sig;
    if (write(STDERR_FILENO, m, sizeof m - 1) < 0) _exit(3);
    _exit(3);
}

static void write_topology(void)
{
    /* Ports from the process id, above the ephemeral range (32768..60999)
     * and away from the tests' (20000 + (pid % 2000) * 16). */
    g.port0 = 61000u + (unsigned)(getpid() % 500) * 8u;
    snprintf(g.topo, sizeof g.topo, "/tmp/bench-xmcapi-%d.yaml", (int)getpid());
    FILE *f = fopen(g.topo, "w");
    if (!f) fail("cannot write %s", g.topo);
    atexit(drop_topology);
    fprintf(f, "nodes:\n");
    for (unsigned i = 0; i < NTHREADS; i++)
        fprintf(f, "  - {domain: %d, node: %u, host: 127.0.0.1, port: %u}\n", DOMAIN, i,
                g.port0 + i);
    if (fclose(f) != 0) fail("cannot write %s", g.topo);
}

int main(int argc, char **argv)
{
    bench_args(argc, argv,
               "XMCAPI (MCAPI over loopback TCP) against raw TCP, interleaved round by\n"
               "round: round trips of 4 B to 1 KiB (DIRECT, and at 4 B WAKE and PIPE\n"
               "modes) and streams of 1 KiB to 64 KiB. Metrics: the header of\n"
               "bench/xmcapi.c.\n");
    int cpu[2];
    pick_cpus(cpu);
    signal(SIGALRM, watchdog);
    alarm(WATCHDOG_S);
    write_topology();
    pthread_barrier_init(&g.bar, NULL, NTHREADS);
    atomic_init(&g.ping, 0);
    atomic_init(&g.pong, 0);
    struct side sd[NTHREADS];
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        sd[i] = (struct side){.pair = i / 2, .node = i, .cpu = cpu[i & 1], .a = !(i & 1), .fd = -1};
        if (i > 0 && pthread_create(&th[i], NULL, side_main, &sd[i]) != 0)
            fail("pthread_create failed");
    }
    side_main(&sd[0]);
    for (int i = 1; i < NTHREADS; i++) pthread_join(th[i], NULL);

    printf("metric,value,unit\n");
    printf("rounds,%d,count\n", ROUNDS);
    printf("cpus_online,%ld,count\n", sysconf(_SC_NPROCESSORS_ONLN));
    report("cacheline_rtt_ns", g.line, "ns", "%.0f");
    char sz[24], name[96];
    for (size_t t = 0; t < NTESTS; t++) {
        enum impl list[NIMPL];
        int n = impls(t, list);
        double med[NIMPL] = {0};
        bool bw = t >= NRTT;
        size_name(bw ? stream_sizes[t - NRTT] : rtt_sizes[t], sz, sizeof sz);
        for (int i = 0; i < n; i++) {
            snprintf(name, sizeof name, bw ? "bw_%s_%s_MBps" : "rtt_%s_%s_us", impl_name[list[i]],
                     sz);
            med[list[i]] =
                report(name, g.value[t][list[i]], bw ? "MB/s" : "us", bw ? "%.1f" : "%.2f");
        }
        printf("%s_xmcapi_over_tcp_%s,%.3f,ratio\n", bw ? "bw" : "rtt", sz, med[DIRECT] / med[TCP]);
        if (n > 2) {
            printf("rtt_wake_over_direct_%s,%.3f,ratio\n", sz, med[WAKE] / med[DIRECT]);
            printf("rtt_pipe_over_direct_%s,%.3f,ratio\n", sz, med[PIPE] / med[DIRECT]);
        }
    }
    /* The transport's counters over the whole run (all nodes): flow control
     * stops, refused frames, failed connections. */
    struct xmcapi_stats sum = {0};
    for (int i = 0; i < NTHREADS; i++) {
        sum.stops_sent += sd[i].stats.stops_sent;
        sum.bad_frames += sd[i].stats.bad_frames;
        sum.conn_fails += sd[i].stats.conn_fails;
    }
    printf("xm_stops_sent,%llu,count\n", (unsigned long long)sum.stops_sent);
    printf("xm_bad_frames,%llu,count\n", (unsigned long long)sum.bad_frames);
    printf("xm_conn_fails,%llu,count\n", (unsigned long long)sum.conn_fails);
    return EXIT_SUCCESS;
}
