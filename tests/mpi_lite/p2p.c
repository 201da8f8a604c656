/* p2p.c -- point-to-point: matching, order, truncation, counts, windows,
 * fragment and bundle boundaries, eager/rendezvous, Waitany, Test. */
#include <stdlib.h>
#include <string.h>

#include "mt.h"

#define SLOT 1024               /* the small slot of the boundary cases */
#define PAYLOAD (SLOT - 8 - 40) /* what one record of one slot carries */

/* Tags out of order, then by source with MPI_ANY_SOURCE and MPI_ANY_TAG. */
static void case_match(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int r = mt_rank(), n = mt_size();
    if (r == 0) {
        for (int tag = 1; tag <= 3; tag++) OK(MPI_Send(&tag, 1, MPI_INT, 1, tag, MPI_COMM_WORLD));
        int seen = 0;
        for (int k = 1; k < n; k++) {
            int v;
            MPI_Status st;
            OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            ck_assert_int_eq(v, st.MPI_SOURCE * 10);
            ck_assert_int_eq(st.MPI_TAG, 100 + st.MPI_SOURCE);
            seen |= 1 << st.MPI_SOURCE;
        }
        ck_assert_int_eq(seen, ((1 << n) - 1) & ~1);
    } else {
        if (r == 1) {
            int v;
            MPI_Status st;
            for (int tag = 3; tag >= 1; tag--) { /* matched by tag, not by arrival */
                OK(MPI_Recv(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &st));
                ck_assert_int_eq(v, tag);
                ck_assert_int_eq(st.MPI_TAG, tag);
                ck_assert_int_eq(st.MPI_SOURCE, 0);
            }
        }
        int v = r * 10;
        OK(MPI_Send(&v, 1, MPI_INT, 0, 100 + r, MPI_COMM_WORLD));
    }
    OK(MPI_Finalize());
}

/* Non-overtaking: eager and rendezvous messages of one tag alternate and
 * arrive in order through a receive with MPI_ANY_TAG. */
static void case_order(void *arg)
{
    (void)arg;
    struct mpix_lite_params p = {.eager_max = 2048};
    mt_init(&p);
    enum { N = 40, BIG = 9000 };
    unsigned char *b = malloc(BIG);
    ck_assert_ptr_nonnull(b);
    /* First all unexpected: the receiver starts once every message is in
     * (Isends: bundled, they fit the pair buffer; blocking sends of one
     * slot each would not, and MPI_Send may then wait for the receiver). */
    if (mt_rank() == 0) {
        MPI_Request rq[N];
        unsigned char small[N][N];
        for (unsigned m = 0; m < N; m++) {
            mt_fill(small[m], m, m);
            OK(MPI_Isend(small[m], (int)m, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &rq[m]));
        }
        OK(MPI_Waitall(N, rq, MPI_STATUSES_IGNORE));
        harness_barrier();
    } else {
        harness_barrier();
        for (unsigned m = 0; m < N; m++) {
            MPI_Status st;
            int c;
            OK(MPI_Recv(b, BIG, MPI_BYTE, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &st));
            OK(MPI_Get_count(&st, MPI_BYTE, &c));
            ck_assert_int_eq(c, (int)m);
            mt_expect(b, (size_t)c, m);
        }
    }
    if (mt_rank() == 0) {
        for (unsigned m = 0; m < N; m++) {
            size_t len = m % 2 ? BIG : m;
            mt_fill(b, len, m);
            OK(MPI_Send(b, (int)len, MPI_BYTE, 1, 5, MPI_COMM_WORLD));
        }
    } else {
        for (unsigned m = 0; m < N; m++) {
            MPI_Status st;
            int c;
            OK(MPI_Recv(b, BIG, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            OK(MPI_Get_count(&st, MPI_BYTE, &c));
            ck_assert_int_eq(c, m % 2 ? BIG : (int)m);
            mt_expect(b, (size_t)c, m);
        }
    }
    free(b);
    OK(MPI_Finalize());
}

/* MPI_ERR_TRUNCATE, eager and rendezvous; MPI_Get_count in several types. */
static void case_truncate(void *arg)
{
    (void)arg;
    struct mpix_lite_params p = {.eager_max = 256};
    mt_init(&p);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    double d[100];
    if (mt_rank() == 0) {
        for (int i = 0; i < 100; i++) d[i] = i;
        OK(MPI_Send(d, 7, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD));
        OK(MPI_Send(d, 10, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD));  /* eager, 80 B */
        OK(MPI_Send(d, 100, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD)); /* rendezvous, 800 B */
    } else {
        MPI_Status st;
        int c;
        OK(MPI_Probe(0, 1, MPI_COMM_WORLD, &st));
        OK(MPI_Get_count(&st, MPI_DOUBLE, &c));
        ck_assert_int_eq(c, 7);
        OK(MPI_Get_count(&st, MPI_INT, &c));
        ck_assert_int_eq(c, 14);
        OK(MPI_Get_count(&st, MPI_BYTE, &c));
        ck_assert_int_eq(c, 56);
        OK(MPI_Recv(d, 7, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &st));
        OK(MPI_Get_count(&st, MPI_LONG_LONG, &c));
        ck_assert_int_eq(c, 7);
        for (int tag = 2; tag <= 3; tag++) {
            memset(d, 0, sizeof d);
            int e = MPI_Recv(d, 5, MPI_DOUBLE, 0, tag, MPI_COMM_WORLD, &st);
            int cls;
            OK(MPI_Error_class(e, &cls));
            ck_assert_int_eq(cls, MPI_ERR_TRUNCATE);
            ck_assert_int_eq(st.MPI_ERROR, MPI_ERR_TRUNCATE);
            for (int i = 0; i < 5; i++) ck_assert(d[i] == i);
            ck_assert(d[5] == 0); /* nothing beyond the buffer */
        }
    }
    OK(MPI_Finalize());
}

/* Windows of 64 Isend/Irecv (OSU bw's pattern) of several sizes, with the
 * 4-byte ack of tag 101. */
static void window(const struct mpix_lite_params *p)
{
    mt_init(p);
    static const size_t sizes[] = {1, 8, 1000, 4096, 40000};
    enum { W = 64 };
    for (size_t s = 0; s < HARNESS_COUNT(sizes); s++) {
        size_t len = sizes[s];
        unsigned char *b = malloc(W * len);
        ck_assert_ptr_nonnull(b);
        MPI_Request rq[W];
        struct mpix_lite_stats s0, s1;
        OK(MPIX_Lite_stats(&s0));
        if (mt_rank() == 0) {
            for (unsigned w = 0; w < W; w++) {
                mt_fill(b + w * len, len, w);
                OK(MPI_Isend(b + w * len, (int)len, MPI_BYTE, 1, 100, MPI_COMM_WORLD, &rq[w]));
            }
            OK(MPI_Waitall(W, rq, MPI_STATUSES_IGNORE));
            OK(MPIX_Lite_stats(&s1));
            if (len <= 8) /* 64 small Isends bundled into one slot (56 B records) */
                ck_assert_uint_eq(s1.slots - s0.slots, 1);
            else /* fragmented: at least one slot per 4 KiB of data */
                ck_assert_uint_ge(s1.slots - s0.slots, W * len / MPIX_LITE_SLOT_BYTES);
            ck_assert_uint_eq(s1.eager - s0.eager, len <= MPIX_LITE_EAGER_MAX ? W : 0);
            int ack;
            OK(MPI_Recv(&ack, 1, MPI_INT, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            ck_assert_int_eq(ack, (int)len);
        } else {
            MPI_Status st[W];
            memset(b, 0, W * len);
            for (unsigned w = 0; w < W; w++)
                OK(MPI_Irecv(b + w * len, (int)len, MPI_BYTE, 0, 100, MPI_COMM_WORLD, &rq[w]));
            OK(MPI_Waitall(W, rq, st));
            for (unsigned w = 0; w < W; w++) {
                mt_expect(b + w * len, len, w);
                ck_assert_int_eq(st[w].MPI_SOURCE, 0);
                ck_assert_ptr_null(rq[w]);
            }
            int ack = (int)len;
            OK(MPI_Send(&ack, 1, MPI_INT, 0, 101, MPI_COMM_WORLD));
        }
        free(b);
    }
    OK(MPI_Finalize());
}

static void case_window(void *arg)
{
    (void)arg;
    window(NULL);
}
static void case_window_stream(void *arg)
{
    (void)arg;
    struct mpix_lite_params p = {.node_ranks = 1, .inter = MPIX_LITE_INTER_STREAM};
    window(&p);
}

/* Sizes around a slot's and a record's payload, 4 KiB, 1 MiB: there and
 * back, eager and (with a small threshold) rendezvous. The Isends of one
 * round are queued together, so small ones share (bundle into) slots. */
static void boundaries(size_t eager, unsigned node_ranks, unsigned inter)
{
    struct mpix_lite_params p = {.slot_bytes = SLOT,
                                 .slots = 4,
                                 .eager_max = eager,
                                 .node_ranks = node_ranks,
                                 .inter = inter};
    mt_init(&p);
    static const size_t sizes[] = {0,    1,        PAYLOAD - 1, PAYLOAD, PAYLOAD + 1, SLOT - 1,
                                   SLOT, SLOT + 1, 4095,        4096,    4097,        1u << 20};
    enum { K = HARNESS_COUNT(sizes) };
    unsigned char *b[K];
    MPI_Request rq[K];
    int r = mt_rank();
    for (unsigned k = 0; k < K; k++) {
        b[k] = malloc(sizes[k] + 1);
        ck_assert_ptr_nonnull(b[k]);
    }
    for (int round = 0; round < 2; round++) {
        int sender = round; /* rank 0 sends first, then 1 echoes */
        struct mpix_lite_stats s0, s1;
        OK(MPIX_Lite_stats(&s0));
        for (unsigned k = 0; k < K; k++) {
            if (r == sender) {
                if (round == 0) mt_fill(b[k], sizes[k], k);
                OK(MPI_Isend(b[k], (int)sizes[k], MPI_BYTE, 1 - r, (int)k, MPI_COMM_WORLD, &rq[k]));
            } else {
                memset(b[k], 0xee, sizes[k] + 1);
                OK(MPI_Irecv(b[k], (int)sizes[k] + 1, MPI_BYTE, 1 - r, (int)k, MPI_COMM_WORLD,
                             &rq[k]));
            }
        }
        MPI_Status st[K];
        OK(MPI_Waitall(K, rq, st));
        OK(MPIX_Lite_stats(&s1));
        if (r == sender) {
            size_t bytes = 0;
            for (unsigned k = 0; k < K; k++) bytes += sizes[k];
            /* Every payload byte went through a slot: fragments of at most PAYLOAD. */
            ck_assert_uint_ge(s1.slots - s0.slots, bytes / PAYLOAD);
            bool dma = node_ranks && inter != MPIX_LITE_INTER_STREAM;
            ck_assert_uint_eq(s1.dma_slots - s0.dma_slots, dma ? s1.slots - s0.slots : 0);
            ck_assert_uint_eq(s1.stream_frames - s0.stream_frames,
                              node_ranks && !dma ? s1.slots - s0.slots : 0);
        }
        if (r != sender)
            for (unsigned k = 0; k < K; k++) {
                int c;
                OK(MPI_Get_count(&st[k], MPI_BYTE, &c));
                ck_assert_int_eq(c, (int)sizes[k]);
                mt_expect(b[k], sizes[k], k);
                ck_assert_uint_eq(b[k][sizes[k]], 0xee);
            }
    }
    for (unsigned k = 0; k < K; k++) free(b[k]);
    OK(MPI_Finalize());
}

static void case_bound_eager(void *arg)
{
    (void)arg;
    boundaries(1u << 21, 0, 0);
}
static void case_bound_rndv(void *arg)
{
    (void)arg;
    boundaries(64, 0, 0);
}
/* Each rank its own node: slots are written by the DMA engine. */
static void case_bound_dma(void *arg)
{
    (void)arg;
    boundaries(2048, 1, 0);
}
/* Each rank its own node, on a stream: every slot is a frame. */
static void case_bound_stream(void *arg)
{
    (void)arg;
    boundaries(2048, 1, MPIX_LITE_INTER_STREAM);
}

/* Eager sends complete once their bytes are composed, not sent: a sender
 * that finalizes at once still has frames the stream has not taken (more
 * than the sockets buffer natively) while its receiver starts late.
 * MPI_Finalize must send them all before the streams close. */
static void case_stream_flush(void *arg)
{
    (void)arg;
    enum { M = 8, LEN = 1 << 20 };
    struct mpix_lite_params p = {
        .eager_max = LEN, .node_ranks = 1, .inter = MPIX_LITE_INTER_STREAM};
    mt_init(&p);
    unsigned char *b = malloc(LEN);
    ck_assert_ptr_nonnull(b);
    for (unsigned m = 0; m < M; m++) {
        if (mt_rank() == 0) {
            mt_fill(b, LEN, m);
            OK(MPI_Send(b, LEN, MPI_BYTE, 1, (int)m, MPI_COMM_WORLD));
        } else {
            if (m == 0) plat_sleep_ns(5000000);
            OK(MPI_Recv(b, LEN, MPI_BYTE, 0, (int)m, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            mt_expect(b, LEN, m);
        }
    }
    free(b);
    OK(MPI_Finalize());
}

/* The switch-over: up to eager_max a send completes with no receive posted;
 * above it (and any Issend) only once the receive matched. */
static void case_switch(void *arg)
{
    (void)arg;
    enum { E = 1000 };
    struct mpix_lite_params p = {.eager_max = E};
    mt_init(&p);
    char buf[3][E + 1]; /* rank 0's; the ranks share no globals */
    static const int len[3] = {E, E + 1, 1};
    static const int issend[3] = {0, 0, 1};
    if (mt_rank() == 0) {
        MPI_Request rq[3];
        for (int k = 0; k < 3; k++) {
            memset(buf[k], 'a' + k, sizeof buf[k]);
            if (issend[k])
                OK(MPI_Issend(buf[k], len[k], MPI_CHAR, 1, k, MPI_COMM_WORLD, &rq[k]));
            else
                OK(MPI_Isend(buf[k], len[k], MPI_CHAR, 1, k, MPI_COMM_WORLD, &rq[k]));
        }
        int flag[3];
        for (int spin = 0; spin < 50; spin++)
            for (int k = 0; k < 3; k++)
                if (rq[k]) OK(MPI_Test(&rq[k], &flag[k], MPI_STATUS_IGNORE));
        ck_assert_ptr_null(rq[0]);    /* eager: done */
        ck_assert_ptr_nonnull(rq[1]); /* rendezvous: waits for the receive */
        ck_assert_ptr_nonnull(rq[2]); /* synchronous */
        struct mpix_lite_stats s;
        OK(MPIX_Lite_stats(&s));
        ck_assert_uint_eq(s.eager, 1);
        ck_assert_uint_eq(s.rndv, 2);
        harness_barrier();
        OK(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
    } else {
        harness_barrier(); /* no receive posted until the sender has tested */
        for (int k = 2; k >= 0; k--) {
            char in[E + 1];
            MPI_Status st;
            OK(MPI_Recv(in, E + 1, MPI_CHAR, 0, k, MPI_COMM_WORLD, &st));
            ck_assert_uint_eq(st.ml_bytes, (size_t)len[k]);
            for (int i = 0; i < len[k]; i++) ck_assert_int_eq(in[i], 'a' + k);
        }
    }
    OK(MPI_Finalize());
}

/* Waitany returns the request that completed, in the order they complete. */
static void case_waitany(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int r = mt_rank();
    if (r == 0) {
        int v[3] = {0, 0, 0}, idx, go = 1;
        MPI_Request rq[3];
        for (int k = 0; k < 3; k++)
            OK(MPI_Irecv(&v[k], 1, MPI_INT, k + 1, 0, MPI_COMM_WORLD, &rq[k]));
        MPI_Status st;
        OK(MPI_Waitany(3, rq, &idx, &st));
        ck_assert_int_eq(idx, 1); /* only rank 2 sent */
        ck_assert_int_eq(st.MPI_SOURCE, 2);
        ck_assert_int_eq(v[1], 20);
        ck_assert_ptr_null(rq[1]);
        OK(MPI_Send(&go, 1, MPI_INT, 3, 1, MPI_COMM_WORLD));
        OK(MPI_Waitany(3, rq, &idx, &st));
        ck_assert_int_eq(idx, 2);
        OK(MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
        OK(MPI_Waitany(3, rq, &idx, &st));
        ck_assert_int_eq(idx, 0);
        OK(MPI_Waitany(3, rq, &idx, &st));
        ck_assert_int_eq(idx, MPI_UNDEFINED);
        ck_assert_int_eq(v[0] + v[2], 40);
    } else {
        int go, v = r * 10;
        if (r != 2) OK(MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        OK(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
    }
    OK(MPI_Finalize());
}

/* MPI_Test makes progress: a receive completes while only Test is called. */
static void case_test(void *arg)
{
    (void)arg;
    mt_init(NULL);
    enum { LEN = 100000 }; /* rendezvous: needs the receiver's CTS through Test */
    char *b = malloc(LEN);
    ck_assert_ptr_nonnull(b);
    if (mt_rank() == 1) {
        MPI_Request rq;
        int flag = 0;
        OK(MPI_Irecv(b, LEN, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &rq));
        OK(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
        ck_assert_int_eq(flag, 0);
        harness_barrier();
        long spins = 0;
        while (!flag) {
            OK(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
            spins++;
        }
        ck_assert_int_gt(spins, 0);
        for (int i = 0; i < LEN; i++) ck_assert_int_eq(b[i], (char)i);
    } else {
        for (int i = 0; i < LEN; i++) b[i] = (char)i;
        harness_barrier();
        OK(MPI_Send(b, LEN, MPI_CHAR, 1, 0, MPI_COMM_WORLD));
    }
    free(b);
    OK(MPI_Finalize());
}

/* Sendrecv around a ring, Iprobe, MPI_PROC_NULL, a vector datatype. */
static void case_ring(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int r = mt_rank(), n = mt_size(), in = -1, out = r;
    MPI_Status st;
    OK(MPI_Sendrecv(&out, 1, MPI_INT, (r + 1) % n, 7, &in, 1, MPI_INT, MPI_ANY_SOURCE, 7,
                    MPI_COMM_WORLD, &st));
    ck_assert_int_eq(in, (r + n - 1) % n);
    ck_assert_int_eq(st.MPI_SOURCE, (r + n - 1) % n);
    OK(MPI_Send(&out, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    /* a column of a 4 x 4 matrix to the next rank */
    int m[16], col[4];
    for (int i = 0; i < 16; i++) m[i] = r * 100 + i;
    MPI_Datatype column;
    OK(MPI_Type_vector(4, 1, 4, MPI_INT, &column));
    OK(MPI_Type_commit(&column));
    int sz;
    OK(MPI_Type_size(column, &sz));
    ck_assert_int_eq(sz, 16);
    OK(MPI_Sendrecv(m + 1, 1, column, (r + 1) % n, 8, col, 4, MPI_INT, (r + n - 1) % n, 8,
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < 4; i++) ck_assert_int_eq(col[i], ((r + n - 1) % n) * 100 + 1 + 4 * i);
    OK(MPI_Type_free(&column));
    if (r == 0) {
        int flag = 1;
        OK(MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, &st));
        ck_assert_int_eq(flag, 0);
    }
    OK(MPI_Finalize());
}

/* Comm_dup and Comm_split: separate contexts, ranks by key. */
static void case_comms(void *arg)
{
    (void)arg;
    mt_init(NULL);
    int r = mt_rank(), n = mt_size();
    MPI_Comm dup, half;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_split(MPI_COMM_WORLD, r % 2, -r, &half));
    int hr, hn;
    OK(MPI_Comm_rank(half, &hr));
    OK(MPI_Comm_size(half, &hn));
    ck_assert_int_eq(hn, (n + 1 - r % 2) / 2);
    ck_assert_int_eq(hr, hn - 1 - r / 2); /* key -r: reversed */
    int sum = 0;
    OK(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, half));
    int want = 0;
    for (int i = r % 2; i < n; i += 2) want += i;
    ck_assert_int_eq(sum, want);
    /* The same tag on WORLD and its dup: each receive gets its own comm's. */
    if (r == 0) {
        int a = 1, b = 2;
        OK(MPI_Send(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
        OK(MPI_Send(&b, 1, MPI_INT, 1, 0, dup));
    } else if (r == 1) {
        int x, y;
        OK(MPI_Recv(&y, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE));
        OK(MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        ck_assert_int_eq(x, 1);
        ck_assert_int_eq(y, 2);
    }
    OK(MPI_Comm_free(&dup));
    OK(MPI_Comm_free(&half));
    ck_assert_int_eq(half, MPI_COMM_NULL);
    OK(MPI_Finalize());
}

static const struct harness_case cases[] = {
    {.name = "match", .core = case_match, .cores = 4},
    {.name = "order", .core = case_order, .cores = 2},
    {.name = "truncate", .core = case_truncate, .cores = 2},
    {.name = "window64", .core = case_window, .cores = 2},
    {.name = "bound_eager", .core = case_bound_eager, .cores = 2},
    {.name = "bound_rndv", .core = case_bound_rndv, .cores = 2},
    {.name = "bound_dma", .core = case_bound_dma, .cores = 2},
    {.name = "bound_stream", .core = case_bound_stream, .cores = 2},
    {.name = "window64_stream", .core = case_window_stream, .cores = 2},
    {.name = "stream_flush", .core = case_stream_flush, .cores = 2},
    {.name = "switch", .core = case_switch, .cores = 2},
    {.name = "waitany", .core = case_waitany, .cores = 4},
    {.name = "test", .core = case_test, .cores = 2},
    {.name = "ring", .core = case_ring, .cores = 5},
    {.name = "comms", .core = case_comms, .cores = 5},
};

void mt_p2p_cases(void)
{
    harness_add_cases("mpi_p2p", cases, HARNESS_COUNT(cases));
}
