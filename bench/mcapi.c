/*
 * mcapi.c -- native cost of mcapi_ref against its floor, a bare SPSC ring.
 *
 * Two threads pinned to two different CPUs are MCAPI nodes 0 (A) and 1 (B)
 * of domain 1. In the same run, interleaved round by round (the order of the
 * two alternates), the same exchanges go once through MCAPI and once through
 * a lock-free single-producer single-consumer ring written here with C11
 * atomics, the least any shared-memory transport must do:
 *
 *   msg_rtt_<n>B     A sends n bytes (4 and 1024), B sends them back, A
 *                    checks them: mean round trip. MCAPI: mcapi_msg_send +
 *                    mcapi_msg_recv on both sides (a copy into a message
 *                    buffer and a copy out, each way). Ring: one ring each
 *                    way, the same copy in and copy out.
 *   pktchan_<n>B     A streams packets of n bytes (16 .. 64 KiB) to B; B
 *                    checks each packet's sequence number and gives the
 *                    buffer back; after the last one B answers with a 4-byte
 *                    message. MCAPI: mcapi_pktchan_send (copy in) and
 *                    mcapi_pktchan_recv + mcapi_pktchan_release (no copy
 *                    out). Ring: copy into a slot, read in place, free the
 *                    slot. Throughput = bytes / time from the first send to
 *                    the answer. Both have 64 slots (MCAPI_MAX_QUEUE_ELEMENTS
 *                    is 64; the packet pool holds more).
 *
 *   cacheline_rtt    calibration: one word each way in a cache line of its
 *                    own, nothing else. Two cross-CPU cache-line transfers.
 *
 * Output: CSV `metric,value,unit` on stdout. For every metric the median,
 * min and max over ROUNDS rounds (each round's value is the mean over its
 * repetitions) of both, the ratio of the medians, mcapi/ring (> 1 for
 * round trips and < 1 for throughput means MCAPI is slower), and for round
 * trips each median in units of the run's cacheline_rtt (`_lines`).
 *
 * How the two sides wait, and why that matters here. On this 2-vCPU VM a
 * blocking wake-up of a thread on another CPU (futex, condvar, pipe) costs
 * about 23 us, far more than any exchange measured here. Comparing a
 * sleeping MCAPI against a spinning ring would measure the kernel, so both
 * sides busy-wait:
 *   - ring: spins on the other side's index with the CPU's pause
 *     instruction, forever;
 *   - MCAPI: blocking calls (mcapi_msg_recv, mcapi_pktchan_recv, and a send
 *     that finds the queue full or no buffer) wait in plat_event_wait, which
 *     the native backend spins for 30 us before it sleeps on a futex
 *     (docs/native.md); its locks are glibc adaptive mutexes, which spin a
 *     little, then sleep. Every partner here answers within microseconds, so
 *     MCAPI spins too; a round in which the hypervisor took a vCPU away can
 *     push a wait into a 23-us sleep, and that is what the max rows show.
 *
 * Why the numbers look as they do. A cross-CPU cache-line transfer is what
 * everything costs here, and on this VM it is slow and unsteady: the same
 * idle machine gave cacheline_rtt medians from 165 ns to 1.9 us in one
 * evening (the host, not the guest, decides). Ratios and `_lines` stay put
 * when the absolute numbers move by 5x, so read those. The ring moves a
 * message with about two line transfers (the index and the slot). An MCAPI
 * message moves more, each one on the critical path: the pool lock (both
 * nodes take and give buffers), the receiving endpoint's lock and queue,
 * the node's event the receiver spins on, then the receiver locks its
 * endpoint again to dequeue and the pool to give the buffer back. Profiles
 * (perf) put a third of the time in pthread_mutex_lock/unlock. Streaming
 * small packets, the ring amortises its index line over many packets while
 * every MCAPI packet takes the two locks: the ratio falls to about 0.1. For
 * large packets the copy dominates both, but the ring copies with memcpy
 * (AVX-512 here) and MCAPI with plat_copy, which natively stores word by
 * word (relaxed atomics, because another core may plat_poll64 any word of
 * the destination): that, not MCAPI's bookkeeping, caps MCAPI near
 * 20 GB/s at 64 KiB while the ring reaches 60 GB/s in cache.
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench/mcapi"
#include "bench.h"
#include "mcapi.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 9
#define LINE_REPS 20000
#define RTT_REPS 10000
#define RTT_WARMUP 1000
#define STREAM_BYTES (32u << 20) /* per throughput measurement ... */
#define STREAM_MIN 2000          /* ... but at least and at most this many packets */
#define STREAM_MAX 200000
#define SLOTS 64
#define SLOT_BYTES MCAPI_MAX_PKT_SIZE
#define DOMAIN 1
#define MSG_PORT 1
#define PKT_SEND_PORT 2
#define PKT_RECV_PORT 3
#define TIMEOUT_MS 10000 /* a lost message fails the bench instead of hanging it */

static const size_t rtt_sizes[] = {4, 1024};
static const size_t stream_sizes[] = {16, 64, 256, 1024, 4096, 16384, 65536};
#define NRTT (sizeof rtt_sizes / sizeof rtt_sizes[0])
#define NSTREAM (sizeof stream_sizes / sizeof stream_sizes[0])
#define NTESTS (NRTT + NSTREAM)

enum impl { MCAPI, RING, NIMPL };
static const char *const impl_name[NIMPL] = {"mcapi", "ring"};

/* ---- the floor: a bounded SPSC ring of fixed-size slots ----------------- */

struct ring {
    _Alignas(64) atomic_size_t head; /* next slot the producer fills */
    _Alignas(64) atomic_size_t tail; /* next slot the consumer frees */
    _Alignas(64) size_t len[SLOTS];
    unsigned char *slot; /* SLOTS x SLOT_BYTES */
};

static void ring_init(struct ring *r)
{
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    r->slot = aligned_alloc(64, (size_t)SLOTS * SLOT_BYTES);
    if (!r->slot) {
        fprintf(stderr, "bench/mcapi: out of memory\n");
        exit(EXIT_FAILURE);
    }
}

static void ring_push(struct ring *r, const void *p, size_t n)
{
    size_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
    while (h - atomic_load_explicit(&r->tail, memory_order_acquire) == SLOTS) relax();
    memcpy(r->slot + (h % SLOTS) * SLOT_BYTES, p, n);
    r->len[h % SLOTS] = n;
    atomic_store_explicit(&r->head, h + 1, memory_order_release);
}

/* The oldest slot, in place, once there is one. */
static const unsigned char *ring_peek(struct ring *r, size_t *n)
{
    size_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
    while (atomic_load_explicit(&r->head, memory_order_acquire) == t) relax();
    *n = r->len[t % SLOTS];
    return r->slot + (t % SLOTS) * SLOT_BYTES;
}

static void ring_free(struct ring *r)
{
    size_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
    atomic_store_explicit(&r->tail, t + 1, memory_order_release);
}

static size_t ring_pop(struct ring *r, void *buf)
{
    size_t n;
    const unsigned char *p = ring_peek(r, &n);
    memcpy(buf, p, n);
    ring_free(r);
    return n;
}

/* ---- the two sides -------------------------------------------------------- */

struct side {
    int node;
    int cpu;
    mcapi_endpoint_t msg, peer_msg; /* message endpoints: ours, the other's */
    mcapi_pktchan_send_hndl_t tx;   /* A */
    mcapi_pktchan_recv_hndl_t rx;   /* B */
    unsigned char *buf;             /* MCAPI_MAX_PKT_SIZE bytes to send from / receive into */
};

static struct {
    pthread_barrier_t bar;
    struct ring ab, ba;                  /* rings A -> B and B -> A */
    double value[NTESTS][NIMPL][ROUNDS]; /* ns per round trip, or MB/s */
    _Alignas(64) atomic_ulong ping;      /* the cache-line calibration's two flags */
    _Alignas(64) atomic_ulong pong;
    double line[ROUNDS]; /* ns per cache-line round trip */
} g;

static void die(const char *who, const char *what, mcapi_status_t st)
{
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "bench/mcapi: node %s: %s: %s\n", who, what,
            mcapi_display_status(st, name, sizeof name));
    exit(EXIT_FAILURE);
}

static void ok(const struct side *s, mcapi_status_t st, const char *what)
{
    if (st != MCAPI_SUCCESS) die(s->node ? "1" : "0", what, st);
}

/* An _i call: started (MCAPI_PENDING) or already done. */
static void started(const struct side *s, mcapi_status_t st, const char *what)
{
    if (st != MCAPI_PENDING) ok(s, st, what);
}

static unsigned char pattern(size_t i, long rep)
{
    return (unsigned char)(i * 7u + (size_t)rep);
}

static void fill(unsigned char *b, size_t n, long rep)
{
    b[0] = pattern(0, rep);
    b[n - 1] = pattern(n - 1, rep);
}

/* The first and last byte: enough to catch a lost or stale message without
 * making the check cost more than the transfer. */
static void expect(const unsigned char *b, size_t got, size_t n, long rep, const char *what)
{
    if (got != n || b[0] != pattern(0, rep) || b[n - 1] != pattern(n - 1, rep)) {
        fprintf(stderr, "bench/mcapi: %s: message %ld of %zu bytes came back wrong\n", what, rep,
                n);
        exit(EXIT_FAILURE);
    }
}

static void stamp(unsigned char *b, uint32_t seq)
{
    memcpy(b, &seq, sizeof seq);
}

static void check_stamp(const void *p, size_t got, size_t n, uint32_t seq, const char *what)
{
    uint32_t s;
    memcpy(&s, p, sizeof s);
    if (got != n || s != seq) {
        fprintf(stderr, "bench/mcapi: %s: packet %u of %zu bytes arrived as %u (%zu bytes)\n", what,
                seq, n, s, got);
        exit(EXIT_FAILURE);
    }
}

/* The calibration: one word in a cache line of its own each way, nothing
 * else. A returns the mean round trip in ns: what two cross-CPU cache-line
 * transfers cost on this machine right now. */
static double line_rtt(const struct side *s, int round)
{
    unsigned long base = (unsigned long)round * LINE_REPS;
    uint64_t t0 = now_ns();
    for (unsigned long k = base + 1; k <= base + LINE_REPS; k++) {
        if (s->node == 0) {
            atomic_store_explicit(&g.ping, k, memory_order_release);
            while (atomic_load_explicit(&g.pong, memory_order_acquire) != k) relax();
        } else {
            while (atomic_load_explicit(&g.ping, memory_order_acquire) != k) relax();
            atomic_store_explicit(&g.pong, k, memory_order_release);
        }
    }
    return (double)(now_ns() - t0) / LINE_REPS;
}

/* One round-trip measurement; A returns the mean in ns. */
static double rtt(struct side *s, enum impl im, size_t n)
{
    mcapi_status_t st;
    uint64_t t0 = 0;
    size_t got = 0;
    for (long rep = 0; rep < RTT_WARMUP + RTT_REPS; rep++) {
        if (rep == RTT_WARMUP) t0 = now_ns();
        if (s->node == 0) {
            fill(s->buf, n, rep);
            if (im == MCAPI) {
                mcapi_msg_send(s->msg, s->peer_msg, s->buf, n, 0, &st);
                ok(s, st, "mcapi_msg_send");
                mcapi_msg_recv(s->msg, s->buf, MCAPI_MAX_MSG_SIZE, &got, &st);
                ok(s, st, "mcapi_msg_recv");
            } else {
                ring_push(&g.ab, s->buf, n);
                got = ring_pop(&g.ba, s->buf);
            }
            expect(s->buf, got, n, rep, impl_name[im]);
        } else if (im == MCAPI) {
            mcapi_msg_recv(s->msg, s->buf, MCAPI_MAX_MSG_SIZE, &got, &st);
            ok(s, st, "mcapi_msg_recv");
            mcapi_msg_send(s->msg, s->peer_msg, s->buf, got, 0, &st);
            ok(s, st, "mcapi_msg_send");
        } else {
            got = ring_pop(&g.ab, s->buf);
            ring_push(&g.ba, s->buf, got);
        }
    }
    return (double)(now_ns() - t0) / RTT_REPS;
}

/* One throughput measurement; A returns MB/s (10^6 bytes per second). */
static double stream(struct side *s, enum impl im, size_t n)
{
    size_t count = STREAM_BYTES / n;
    count = count < STREAM_MIN ? STREAM_MIN : count > STREAM_MAX ? STREAM_MAX : count;
    mcapi_status_t st;
    size_t got = 0;
    uint32_t done = 0;
    if (s->node == 0) {
        uint64_t t0 = now_ns();
        for (uint32_t k = 0; k < count; k++) {
            stamp(s->buf, k);
            if (im == MCAPI) {
                mcapi_pktchan_send(s->tx, s->buf, n, &st);
                ok(s, st, "mcapi_pktchan_send");
            } else {
                ring_push(&g.ab, s->buf, n);
            }
        }
        if (im == MCAPI) {
            mcapi_msg_recv(s->msg, &done, sizeof done, &got, &st);
            ok(s, st, "mcapi_msg_recv (end of stream)");
        } else {
            got = ring_pop(&g.ba, &done);
        }
        uint64_t dt = now_ns() - t0;
        if (got != sizeof done || done != count) {
            fprintf(stderr, "bench/mcapi: %s: B saw %u of %zu packets\n", impl_name[im], done,
                    count);
            exit(EXIT_FAILURE);
        }
        return (double)count * (double)n * 1e3 / (double)dt;
    }
    for (uint32_t k = 0; k < count; k++) {
        if (im == MCAPI) {
            void *p = NULL;
            mcapi_pktchan_recv(s->rx, &p, &got, &st);
            ok(s, st, "mcapi_pktchan_recv");
            check_stamp(p, got, n, k, "mcapi");
            mcapi_pktchan_release(p, &st);
            ok(s, st, "mcapi_pktchan_release");
        } else {
            const unsigned char *p = ring_peek(&g.ab, &got);
            check_stamp(p, got, n, k, "ring");
            ring_free(&g.ab);
        }
        done++;
    }
    if (im == MCAPI) {
        mcapi_msg_send(s->msg, s->peer_msg, &done, sizeof done, 0, &st);
        ok(s, st, "mcapi_msg_send (end of stream)");
    } else {
        ring_push(&g.ba, &done, sizeof done);
    }
    return 0;
}

/* Node setup: endpoints, the A -> B packet channel. */
static void setup(struct side *s)
{
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_request_t req;
    size_t size;
    mcapi_initialize(DOMAIN, (mcapi_node_t)s->node, NULL, NULL, &info, &st);
    ok(s, st, "mcapi_initialize");
    s->msg = mcapi_endpoint_create(MSG_PORT, &st);
    ok(s, st, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS;
    mcapi_endpoint_set_attribute(s->msg, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    ok(s, st, "mcapi_endpoint_set_attribute");
    mcapi_endpoint_t pkt = mcapi_endpoint_create(s->node ? PKT_RECV_PORT : PKT_SEND_PORT, &st);
    ok(s, st, "mcapi_endpoint_create");
    mcapi_endpoint_set_attribute(pkt, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    ok(s, st, "mcapi_endpoint_set_attribute");
    s->peer_msg = mcapi_endpoint_get(DOMAIN, (mcapi_node_t)!s->node, MSG_PORT, TIMEOUT_MS, &st);
    ok(s, st, "mcapi_endpoint_get");
    if (s->node == 0) {
        mcapi_endpoint_t rx = mcapi_endpoint_get(DOMAIN, 1, PKT_RECV_PORT, TIMEOUT_MS, &st);
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
    pin(s->cpu);
    s->buf = aligned_alloc(64, MCAPI_MAX_PKT_SIZE);
    if (!s->buf) die("?", "malloc", MCAPI_ERR_MEM_LIMIT);
    memset(s->buf, 0, MCAPI_MAX_PKT_SIZE);
    setup(s);
    for (int r = 0; r < ROUNDS; r++) {
        pthread_barrier_wait(&g.bar);
        double line = line_rtt(s, r);
        if (s->node == 0) g.line[r] = line;
        for (size_t t = 0; t < NTESTS; t++)
            for (int i = 0; i < NIMPL; i++) {
                enum impl im = (enum impl)((i + r + (int)t) % NIMPL); /* alternate who goes first */
                pthread_barrier_wait(&g.bar);
                double v =
                    t < NRTT ? rtt(s, im, rtt_sizes[t]) : stream(s, im, stream_sizes[t - NRTT]);
                if (s->node == 0) g.value[t][im][r] = v;
            }
    }
    /* Nothing of MCAPI is torn down: the process ends here, and finalize
     * with the other node's endpoint still in use would need one more
     * handshake that measures nothing. */
    pthread_barrier_wait(&g.bar);
    return NULL;
}

static double report_one(const char *metric, const double *v, const char *unit)
{
    return print_stats(metric, "_median", v, ROUNDS, unit, "%.1f");
}

/* Median, min and max of both, the ratio of the medians, and for round
 * trips (line > 0) each median in cache-line round trips of this run. */
static void report(const char *metric, const double (*v)[ROUNDS], const char *unit, double line)
{
    double med[NIMPL];
    char name[96];
    for (int i = 0; i < NIMPL; i++) {
        snprintf(name, sizeof name, "%s_%s", metric, impl_name[i]);
        med[i] = report_one(name, v[i], unit);
    }
    printf("%s_ratio,%.3f,mcapi/ring\n", metric, med[MCAPI] / med[RING]);
    for (int i = 0; line > 0 && i < NIMPL; i++)
        printf("%s_%s_lines,%.2f,cacheline_rtt\n", metric, impl_name[i], med[i] / line);
}

int main(int argc, char **argv)
{
    bench_args(argc, argv,
               "mcapi_ref against a bare SPSC ring on two pinned threads, interleaved\n"
               "round by round: message round trips of 4 B and 1 KiB, packet channel\n"
               "throughput from 16 B to 64 KiB, and a cache-line round trip to calibrate.\n"
               "Metrics: the header of bench/mcapi.c.\n");
    int cpu[2];
    pick_cpus(cpu);
    pthread_barrier_init(&g.bar, NULL, 2);
    ring_init(&g.ab);
    ring_init(&g.ba);
    atomic_init(&g.ping, 0);
    atomic_init(&g.pong, 0);
    struct side a = {.node = 0, .cpu = cpu[0]}, b = {.node = 1, .cpu = cpu[1]};
    pthread_t tb;
    if (pthread_create(&tb, NULL, side_main, &b) != 0) {
        perror("bench/mcapi: pthread_create");
        return EXIT_FAILURE;
    }
    side_main(&a);
    pthread_join(tb, NULL);

    printf("metric,value,unit\n");
    printf("rounds,%d,count\n", ROUNDS);
    double line = report_one("cacheline_rtt", g.line, "ns");
    char metric[64];
    for (size_t t = 0; t < NTESTS; t++) {
        if (t < NRTT) {
            snprintf(metric, sizeof metric, "msg_rtt_%zuB", rtt_sizes[t]);
            report(metric, (const double(*)[ROUNDS])g.value[t], "ns", line);
        } else {
            snprintf(metric, sizeof metric, "pktchan_%zuB", stream_sizes[t - NRTT]);
            report(metric, (const double(*)[ROUNDS])g.value[t], "MB/s", 0);
        }
    }
    return EXIT_SUCCESS;
}
