/* coll.c -- every collective on 1..8 ranks, every op and datatype, rooted
 * at every rank. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

#define CNT 3 /* elements per rank */

enum kind { INTEGER, FLOATING, PAIR };

/* One basic datatype: how to store a long into element i and read it back. */
struct ty {
    MPI_Datatype t;
    const char *name;
    size_t size;
    enum kind kind;
    void (*set)(void *b, int i, long v, int idx);
    long (*get)(const void *b, int i, int *idx);
};

#define SCALAR(T, N)                                                                               \
    static void set_##N(void *b, int i, long v, int idx)                                           \
    {                                                                                              \
        (void)idx;                                                                                 \
        ((T *)b)[i] = (T)v;                                                                        \
    }                                                                                              \
    static long get_##N(const void *b, int i, int *idx)                                            \
    {                                                                                              \
        (void)idx;                                                                                 \
        return (long)((const T *)b)[i];                                                            \
    }
#define PAIRT(T, N)                                                                                \
    struct p_##N {                                                                                 \
        T v;                                                                                       \
        int i;                                                                                     \
    };                                                                                             \
    static void set_##N(void *b, int i, long v, int idx)                                           \
    {                                                                                              \
        ((struct p_##N *)b)[i].v = (T)v;                                                           \
        ((struct p_##N *)b)[i].i = idx;                                                            \
    }                                                                                              \
    static long get_##N(const void *b, int i, int *idx)                                            \
    {                                                                                              \
        *idx = ((const struct p_##N *)b)[i].i;                                                     \
        return (long)((const struct p_##N *)b)[i].v;                                               \
    }

SCALAR(char, char)
SCALAR(signed char, schar)
SCALAR(unsigned char, uchar)
SCALAR(unsigned char, byte)
SCALAR(short, short)
SCALAR(unsigned short, ushort)
SCALAR(int, int)
SCALAR(unsigned, uint)
SCALAR(long, long)
SCALAR(unsigned long, ulong)
SCALAR(long long, ll)
SCALAR(unsigned long long, ull)
SCALAR(float, float)
SCALAR(double, double)
SCALAR(int8_t, i8)
SCALAR(uint8_t, u8)
SCALAR(int16_t, i16)
SCALAR(uint16_t, u16)
SCALAR(int32_t, i32)
SCALAR(uint32_t, u32)
SCALAR(int64_t, i64)
SCALAR(uint64_t, u64)
PAIRT(int, 2int)
PAIRT(float, fi)
PAIRT(double, di)
PAIRT(long, li)

#define T(h, n, T_, k)                                                                             \
    {                                                                                              \
        h, #h, sizeof(T_), k, set_##n, get_##n                                                     \
    }
static const struct ty types[] = {
    T(MPI_CHAR, char, char, INTEGER),
    T(MPI_SIGNED_CHAR, schar, signed char, INTEGER),
    T(MPI_UNSIGNED_CHAR, uchar, unsigned char, INTEGER),
    T(MPI_BYTE, byte, unsigned char, INTEGER),
    T(MPI_SHORT, short, short, INTEGER),
    T(MPI_UNSIGNED_SHORT, ushort, unsigned short, INTEGER),
    T(MPI_INT, int, int, INTEGER),
    T(MPI_UNSIGNED, uint, unsigned, INTEGER),
    T(MPI_LONG, long, long, INTEGER),
    T(MPI_UNSIGNED_LONG, ulong, unsigned long, INTEGER),
    T(MPI_LONG_LONG, ll, long long, INTEGER),
    T(MPI_UNSIGNED_LONG_LONG, ull, unsigned long long, INTEGER),
    T(MPI_FLOAT, float, float, FLOATING),
    T(MPI_DOUBLE, double, double, FLOATING),
    T(MPI_INT8_T, i8, int8_t, INTEGER),
    T(MPI_UINT8_T, u8, uint8_t, INTEGER),
    T(MPI_INT16_T, i16, int16_t, INTEGER),
    T(MPI_UINT16_T, u16, uint16_t, INTEGER),
    T(MPI_INT32_T, i32, int32_t, INTEGER),
    T(MPI_UINT32_T, u32, uint32_t, INTEGER),
    T(MPI_INT64_T, i64, int64_t, INTEGER),
    T(MPI_UINT64_T, u64, uint64_t, INTEGER),
    T(MPI_2INT, 2int, struct p_2int, PAIR),
    T(MPI_FLOAT_INT, fi, struct p_fi, PAIR),
    T(MPI_DOUBLE_INT, di, struct p_di, PAIR),
    T(MPI_LONG_INT, li, struct p_li, PAIR),
};

static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX,    MPI_LAND,
                             MPI_LOR, MPI_BAND, MPI_BOR, MPI_MAXLOC, MPI_MINLOC};

static bool applies(MPI_Op op, enum kind k)
{
    if (k == PAIR) return op == MPI_MAXLOC || op == MPI_MINLOC;
    if (op == MPI_MAXLOC || op == MPI_MINLOC) return false;
    return k == INTEGER || (op != MPI_BAND && op != MPI_BOR);
}

/* Rank r's element i: small values with ties (MAXLOC/MINLOC) and, in the
 * last element, zeros (LAND, PROD, MIN). Sums and products that leave a
 * small type wrap around as the type does; expect() compares in the type. */
static long val(int r, int i)
{
    return i < 2 ? 1 + (r * 5 + i) % 2 : r % 3;
}

static long fold(MPI_Op op, long a, long b)
{
    switch (op) {
    case MPI_SUM:
        return a + b;
    case MPI_PROD:
        return a * b;
    case MPI_MIN:
        return a < b ? a : b;
    case MPI_MAX:
        return a > b ? a : b;
    case MPI_LAND:
        return a && b;
    case MPI_LOR:
        return a || b;
    case MPI_BAND:
        return a & b;
    case MPI_BOR:
        return a | b;
    default:
        return 0;
    }
}

/* What every reduction of (type, op) over n ranks gives, element i. */
static void expect(const struct ty *ty, MPI_Op op, int n, const void *got, int i)
{
    int idx = 0;
    long g = ty->get(got, i, &idx);
    long want = val(0, i);
    int widx = 0;
    for (int r = 1; r < n; r++) {
        long v = val(r, i);
        if (op == MPI_MAXLOC || op == MPI_MINLOC) {
            if (op == MPI_MAXLOC ? v > want : v < want) {
                want = v;
                widx = r;
            }
        } else {
            want = fold(op, want, v);
        }
    }
    char tmp[16];
    ty->set(tmp, 0, want, widx);
    int dummy = 0;
    want = ty->get(tmp, 0, &dummy); /* in the type's own range */
    if (ty->kind == PAIR)
        ck_assert_msg(idx == widx, "%s op %d: index %d, want %d", ty->name, op, idx, widx);
    ck_assert_msg(g == want, "%s op %d element %d over %d ranks: %ld, want %ld", ty->name, op, i, n,
                  g, want);
}

static void reductions(int r, int n)
{
    char in[CNT * 16], out[CNT * 16];
    for (size_t t = 0; t < HARNESS_COUNT(types); t++) {
        const struct ty *ty = &types[t];
        for (int i = 0; i < CNT; i++) ty->set(in, i, val(r, i), r);
        for (size_t o = 0; o < HARNESS_COUNT(ops); o++) {
            if (!applies(ops[o], ty->kind)) continue;
            for (int root = 0; root < n; root++) {
                memset(out, 0, sizeof out);
                OK(MPI_Reduce(in, out, CNT, ty->t, ops[o], root, MPI_COMM_WORLD));
                if (r == root)
                    for (int i = 0; i < CNT; i++) expect(ty, ops[o], n, out, i);
            }
            memset(out, 0, sizeof out);
            OK(MPI_Allreduce(in, out, CNT, ty->t, ops[o], MPI_COMM_WORLD));
            for (int i = 0; i < CNT; i++) expect(ty, ops[o], n, out, i);
            memcpy(out, in, sizeof out); /* MPI_IN_PLACE */
            OK(MPI_Allreduce(MPI_IN_PLACE, out, CNT, ty->t, ops[o], MPI_COMM_WORLD));
            for (int i = 0; i < CNT; i++) expect(ty, ops[o], n, out, i);
        }
    }
}

static void movers(int r, int n)
{
    int *all = malloc((size_t)n * CNT * sizeof *all), mine[CNT], got[CNT];
    ck_assert_ptr_nonnull(all);
    for (int root = 0; root < n; root++) {
        int b[CNT] = {0, 0, 0};
        if (r == root)
            for (int i = 0; i < CNT; i++) b[i] = root * 10 + i;
        OK(MPI_Bcast(b, CNT, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < CNT; i++) ck_assert_int_eq(b[i], root * 10 + i);
        for (int i = 0; i < CNT; i++) mine[i] = r * 100 + i;
        memset(all, 0, (size_t)n * CNT * sizeof *all);
        OK(MPI_Gather(mine, CNT, MPI_INT, all, CNT, MPI_INT, root, MPI_COMM_WORLD));
        if (r == root)
            for (int k = 0; k < n * CNT; k++) ck_assert_int_eq(all[k], (k / CNT) * 100 + k % CNT);
        for (int k = 0; k < n * CNT; k++) all[k] = root * 1000 + k;
        OK(MPI_Scatter(all, CNT, MPI_INT, got, CNT, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < CNT; i++) ck_assert_int_eq(got[i], root * 1000 + r * CNT + i);
    }
    memset(all, 0, (size_t)n * CNT * sizeof *all);
    OK(MPI_Allgather(mine, CNT, MPI_INT, all, CNT, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < n * CNT; k++) ck_assert_int_eq(all[k], (k / CNT) * 100 + k % CNT);
    /* MPI_IN_PLACE: each rank's part is in recvbuf already */
    for (int k = 0; k < n * CNT; k++) all[k] = k / CNT == r ? (k / CNT) * 100 + k % CNT : -1;
    OK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, CNT, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < n * CNT; k++) ck_assert_int_eq(all[k], (k / CNT) * 100 + k % CNT);
    int *send = malloc((size_t)n * sizeof *send), *recv = malloc((size_t)n * sizeof *recv);
    ck_assert(send && recv);
    for (int k = 0; k < n; k++) send[k] = r * 100 + k;
    OK(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < n; k++) ck_assert_int_eq(recv[k], k * 100 + r);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    int acc[CNT];
    for (int i = 0; i < CNT; i++) acc[i] = r + i;
    if (r == 0) /* MPI_IN_PLACE at the root */
        OK(MPI_Reduce(MPI_IN_PLACE, acc, CNT, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    else
        OK(MPI_Reduce(acc, NULL, CNT, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (r == 0)
        for (int i = 0; i < CNT; i++) ck_assert_int_eq(acc[i], n * (n - 1) / 2 + n * i);
    free(send);
    free(recv);
    free(all);
}

/* A bcast of a derived datatype, bigger than one slot, across nodes of two
 * ranks (store-and-forward through each node's first rank). */
static void bcast_nodes(int r, int n)
{
    enum { LEN = 3000 };
    double *m = malloc(2 * LEN * sizeof *m); /* per rank: ranks share globals */
    ck_assert_ptr_nonnull(m);
    MPI_Datatype every_other;
    OK(MPI_Type_vector(LEN, 1, 2, MPI_DOUBLE, &every_other));
    OK(MPI_Type_commit(&every_other));
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < 2 * LEN; i++) m[i] = r == root ? i : -1;
        OK(MPI_Bcast(m, 1, every_other, root, MPI_COMM_WORLD));
        for (int i = 0; i < 2 * LEN; i++)
            ck_assert_msg(m[i] == (i % 2 == 0 || r == root ? i : -1), "rank %d root %d: m[%d] = %g",
                          r, root, i, m[i]);
    }
    OK(MPI_Type_free(&every_other));
    free(m);
}

static void coll(unsigned inter)
{
    struct mpix_lite_params p = {.node_ranks = 2, .inter = inter};
    mt_init(&p);
    int r = mt_rank(), n = mt_size();
    movers(r, n);
    reductions(r, n);
    bcast_nodes(r, n);
    OK(MPI_Finalize());
}

static void case_coll(void *arg)
{
    (void)arg;
    coll(MPIX_LITE_INTER_AUTO);
}
/* Nodes of two ranks joined by streams: store-and-forward between nodes. */
static void case_coll_stream(void *arg)
{
    (void)arg;
    coll(MPIX_LITE_INTER_STREAM);
}

static const struct harness_case cases[] = {
    {.name = "coll1", .core = case_coll, .cores = 1},
    {.name = "coll2", .core = case_coll, .cores = 2},
    {.name = "coll3", .core = case_coll, .cores = 3},
    {.name = "coll4", .core = case_coll, .cores = 4},
    {.name = "coll5", .core = case_coll, .cores = 5},
    {.name = "coll6", .core = case_coll, .cores = 6},
    {.name = "coll7", .core = case_coll, .cores = 7},
    {.name = "coll8", .core = case_coll, .cores = 8},
    {.name = "coll_stream3", .core = case_coll_stream, .cores = 3},
    {.name = "coll_stream8", .core = case_coll_stream, .cores = 8},
};

void mt_coll_cases(void)
{
    harness_add_cases("mpi_coll", cases, HARNESS_COUNT(cases));
}
