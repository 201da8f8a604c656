/* full.c -- full pair queues: more than `slots` slots queued to a receiver
 * that starts late, every pair in both directions at once, 1..8 ranks. A
 * sender that finds its queue full sleeps until the receiver frees a slot
 * (it is woken only then, transport/tx.c tp_tx_want_space): a lost wake-up
 * hangs the case until the harness's timeout fails it. */
#include <stdlib.h>

#include "mt.h"

enum {
    SLOTS = 2,
    SLOTB = 512,
    MAXLEN = 3 * SLOTB, /* up to four slots a message: full mid-message */
    K = 4 * SLOTS + 1,  /* messages per pair and direction */
    LATE_NS = 2000000   /* the last rank's late start */
};

static size_t len_of(unsigned m, int src, int dst)
{
    return (m * 131u + (unsigned)src * 37u + (unsigned)dst * 11u) % MAXLEN;
}
static unsigned id_of(unsigned m, int src, int dst)
{
    return m * 64u + (unsigned)src * 8u + (unsigned)dst;
}

/* Every rank sends K messages to every rank (itself too), round robin, then
 * receives them by source and tag; blocking sends wait for space, Isends
 * queue and Waitall waits. The last rank sleeps first, so the others fill
 * their queues to it and sleep asking for space. */
static void full(bool blocking, unsigned node_ranks, unsigned inter)
{
    struct mpix_lite_params p = {
        .slot_bytes = SLOTB, .slots = SLOTS, .node_ranks = node_ranks, .inter = inter};
    mt_init(&p);
    int r = mt_rank(), n = mt_size();
    unsigned char *sb = malloc((size_t)K * (size_t)n * MAXLEN);
    unsigned char *rb = malloc((size_t)K * (size_t)n * MAXLEN);
    MPI_Request *rq = malloc(2 * (size_t)K * (size_t)n * sizeof *rq);
    ck_assert(sb && rb && rq);
    if (r == n - 1) plat_sleep_ns(LATE_NS);
    int q = 0;
    for (unsigned m = 0; m < K; m++)
        for (int k = 1; k <= n; k++) {
            int d = (r + k) % n;
            size_t len = len_of(m, r, d);
            unsigned char *b = sb + (size_t)q * MAXLEN;
            mt_fill(b, len, id_of(m, r, d));
            if (blocking)
                OK(MPI_Send(b, (int)len, MPI_BYTE, d, (int)m, MPI_COMM_WORLD));
            else
                OK(MPI_Isend(b, (int)len, MPI_BYTE, d, (int)m, MPI_COMM_WORLD, &rq[q]));
            q++;
        }
    int nr = 0;
    for (unsigned m = 0; m < K; m++)
        for (int s = 0; s < n; s++, nr++)
            OK(MPI_Irecv(rb + (size_t)nr * MAXLEN, MAXLEN, MPI_BYTE, s, (int)m, MPI_COMM_WORLD,
                         &rq[q + nr]));
    if (blocking)
        OK(MPI_Waitall(nr, rq + q, MPI_STATUSES_IGNORE));
    else
        OK(MPI_Waitall(q + nr, rq, MPI_STATUSES_IGNORE));
    nr = 0;
    for (unsigned m = 0; m < K; m++)
        for (int s = 0; s < n; s++, nr++)
            mt_expect(rb + (size_t)nr * MAXLEN, len_of(m, s, r), id_of(m, s, r));
    free(sb);
    free(rb);
    free(rq);
    OK(MPI_Finalize());
}

static void case_full_send(void *arg)
{
    (void)arg;
    full(true, 0, 0);
}
static void case_full_isend(void *arg)
{
    (void)arg;
    full(false, 0, 0);
}
/* Every rank its own node on streams; and two ranks a node (shared memory
 * within, streams between: the mixed wait). */
static void case_full_stream(void *arg)
{
    (void)arg;
    full(true, 1, MPIX_LITE_INTER_STREAM);
}
static void case_full_mixed(void *arg)
{
    (void)arg;
    full(false, 2, MPIX_LITE_INTER_STREAM);
}

static const struct harness_case cases[] = {
    {.name = "full1", .core = case_full_send, .cores = 1},
    {.name = "full2", .core = case_full_send, .cores = 2},
    {.name = "full3", .core = case_full_send, .cores = 3},
    {.name = "full4", .core = case_full_send, .cores = 4},
    {.name = "full5", .core = case_full_send, .cores = 5},
    {.name = "full6", .core = case_full_send, .cores = 6},
    {.name = "full7", .core = case_full_send, .cores = 7},
    {.name = "full8", .core = case_full_send, .cores = 8},
    {.name = "full_isend2", .core = case_full_isend, .cores = 2},
    {.name = "full_isend8", .core = case_full_isend, .cores = 8},
    {.name = "full_stream2", .core = case_full_stream, .cores = 2},
    {.name = "full_stream5", .core = case_full_stream, .cores = 5},
    {.name = "full_mixed4", .core = case_full_mixed, .cores = 4},
    {.name = "full_mixed7", .core = case_full_mixed, .cores = 7},
};

void mt_full_cases(void)
{
    harness_add_cases("mpi_full", cases, HARNESS_COUNT(cases));
}
