/*
 * hpl.c -- an HPL-style LU of our own (docs/mpi_lite.md, "An HPL-style LU"):
 * solves A x = b for a random N x N matrix by right-looking LU with partial
 * pivoting on a 1 x Q process grid (Q = the world size), then prints HPL's
 * result line and its scaled-residual check, as HPL.out does.
 *
 * The augmented matrix [A | b] (N + 1 columns) is distributed by column
 * blocks of NB, block k on rank k % Q. For each panel of NB columns its owner
 * factors it (P = 1: the whole column is local, the pivot search needs no
 * message), MPI_Bcast sends the panel (L and its pivots) to every rank, and
 * every rank swaps the rows of its trailing columns (b included), solves its
 * part of the U block row with the unit lower triangle and updates its
 * trailing columns. Back substitution goes block by block from the last: an
 * MPI_Reduce (rank order: the same sum on both backends) brings the block's
 * rows of sum U x to its owner, which solves its triangle and broadcasts
 * x_k. The check regenerates A and b from (seed, i, j).
 *
 * Where the flops are: panel(), trsm() and update() below, one function per
 * kind of work. They are the hook for a later step that charges their flops
 * as simulated time instead of executing them (in simulation host code takes
 * no simulated time, so today the simulated time is the messages only).
 *
 * Standard MPI and C11, all state in locals and on the heap, returns from
 * main (no exit()): in simulation every rank runs in one process.
 *     mpicc -std=c11 hpl.c -lm -o hpl && mpirun -n 4 ./hpl -n 1000 -b 64
 */
#include <mpi.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_DEFAULT 500
#define NB_DEFAULT 64
#define SEED_DEFAULT 42
#define N_MAX 20000
#define NB_MAX 1024
#define THRESHOLD 16.0

struct opts {
    long n, nb;
    unsigned long long seed;
    int no_swaps; /* -X: skip the row swaps, so the check must fail */
};

/* The distribution: global column j of [A | b] on rank owner(j), at local
 * column local(j) of that rank. */
struct grid {
    int n, nb, q, rank;
    int ncols; /* this rank's columns of the N + 1 */
};

static int owner(const struct grid *g, int j)
{
    return (j / g->nb) % g->q;
}

/* This rank's columns whose global index is below j. */
static int below(const struct grid *g, int j)
{
    int blk = j / g->nb, full = blk / g->q; /* full rounds: one block each */
    int k = full * g->nb;
    for (int b = full * g->q; b < blk; b++)
        if (b % g->q == g->rank) k += g->nb;
    if (blk % g->q == g->rank) k += j - blk * g->nb;
    return k;
}

/* A's entry (i, j) (j = N: b), in [-0.5, 0.5): splitmix64 of (seed, i, j). */
static double entry(unsigned long long seed, int i, int j)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(uint32_t)i << 32 | (uint32_t)j);
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (double)(x >> 11) * (1.0 / 9007199254740992.0) - 0.5;
}

/* ---- the flops: one function per kind (the charging hook) ---------------- */

/* Factor the m x jb panel a (column-major, leading dimension lda) in place
 * with partial pivoting: L below the diagonal (unit, not stored), U on and
 * above; piv[c] = the panel row swapped with row c. */
static void panel(double *a, int lda, int m, int jb, int *piv)
{
    for (int c = 0; c < jb; c++) {
        double *col = a + (size_t)c * lda;
        int p = c;
        for (int i = c + 1; i < m; i++)
            if (fabs(col[i]) > fabs(col[p])) p = i;
        piv[c] = p;
        if (p != c)
            for (int k = 0; k < jb; k++) {
                double t = a[(size_t)k * lda + c];
                a[(size_t)k * lda + c] = a[(size_t)k * lda + p];
                a[(size_t)k * lda + p] = t;
            }
        /* A zero pivot (singular A) gives inf/nan, which the check fails. */
        double r = 1.0 / col[c];
        for (int i = c + 1; i < m; i++) col[i] *= r;
        for (int k = c + 1; k < jb; k++) {
            double *ck = a + (size_t)k * lda, f = ck[c];
            for (int i = c + 1; i < m; i++) ck[i] -= col[i] * f;
        }
    }
}

/* B (jb x nc, leading dimension ldb) = L^-1 B, L the unit lower triangle of
 * the jb x jb l (leading dimension ldl). */
static void trsm(const double *l, int ldl, int jb, double *b, int ldb, int nc)
{
    for (int j = 0; j < nc; j++) {
        double *bj = b + (size_t)j * ldb;
        for (int k = 0; k < jb; k++) {
            double f = bj[k];
            const double *lk = l + (size_t)k * ldl;
            for (int i = k + 1; i < jb; i++) bj[i] -= lk[i] * f;
        }
    }
}

/* C (m x nc, ldc) -= A (m x jb, lda) * B (jb x nc, ldb): the trailing update
 * (HPL's DGEMM), plain loops, the inner one down a column. */
static void update(const double *a, int lda, const double *b, int ldb, double *c, int ldc, int m,
                   int jb, int nc)
{
    for (int j = 0; j < nc; j++) {
        double *cj = c + (size_t)j * ldc;
        const double *bj = b + (size_t)j * ldb;
        for (int k = 0; k < jb; k++) {
            const double *ak = a + (size_t)k * lda;
            double f = bj[k];
            for (int i = 0; i < m; i++) cj[i] -= ak[i] * f;
        }
    }
}

/* ---- the distributed LU and solve --------------------------------------- */

/* Factor [A | b] in place: on return the local columns hold U (and L below
 * it) and column N holds L^-1 P b. buf holds N * NB doubles, piv NB ints. */
static void factor(const struct grid *g, const struct opts *o, double *a, double *buf, int *piv)
{
    int n = g->n;
    for (int k0 = 0; k0 < n; k0 += g->nb) {
        int jb = n - k0 < g->nb ? n - k0 : g->nb, m = n - k0, root = owner(g, k0);
        if (g->rank == root) {
            double *p = a + (size_t)below(g, k0) * n + k0;
            panel(p, n, m, jb, piv);
            for (int c = 0; c < jb; c++)
                memcpy(buf + (size_t)c * m, p + (size_t)c * n, (size_t)m * sizeof *buf);
        }
        MPI_Bcast(piv, jb, MPI_INT, root, MPI_COMM_WORLD);
        MPI_Bcast(buf, m * jb, MPI_DOUBLE, root, MPI_COMM_WORLD);
        int first = below(g, k0 + jb), nc = g->ncols - first;
        if (nc <= 0) continue;
        double *t = a + (size_t)first * n + k0; /* the trailing columns, from row k0 */
        if (!o->no_swaps)
            for (int c = 0; c < jb; c++) {
                if (piv[c] == c) continue;
                for (int j = 0; j < nc; j++) {
                    double *tj = t + (size_t)j * n, s = tj[c];
                    tj[c] = tj[piv[c]];
                    tj[piv[c]] = s;
                }
            }
        trsm(buf, m, jb, t, n, nc);
        update(buf + jb, m, t, n, t + jb, n, m - jb, jb, nc);
    }
}

/* x = U^-1 y, y = column N of the factored [A | b]; x (N) is whole on every
 * rank on return. w and s hold N doubles each. */
static void solve(const struct grid *g, const double *a, double *x, double *w, double *s)
{
    int n = g->n;
    /* y on every rank: the block owner needs its rows. */
    if (g->rank == owner(g, n)) memcpy(x, a + (size_t)below(g, n) * n, (size_t)n * sizeof *x);
    MPI_Bcast(x, n, MPI_DOUBLE, owner(g, n), MPI_COMM_WORLD);
    memset(w, 0, (size_t)n * sizeof *w); /* this rank's sum of U(:, j) x_j */
    int last = (n - 1) / g->nb * g->nb;
    for (int k0 = last; k0 >= 0; k0 -= g->nb) {
        int jb = n - k0 < g->nb ? n - k0 : g->nb, root = owner(g, k0);
        MPI_Reduce(w + k0, s, jb, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
        if (g->rank == root) {
            const double *u = a + (size_t)below(g, k0) * n + k0;
            for (int i = 0; i < jb; i++) s[i] = x[k0 + i] - s[i];
            for (int c = jb - 1; c >= 0; c--) {
                s[c] /= u[(size_t)c * n + c];
                for (int i = 0; i < c; i++) s[i] -= u[(size_t)c * n + i] * s[c];
            }
            /* Its columns' share of the rows above the block. */
            for (int c = 0; c < jb; c++) {
                const double *col = a + (size_t)(below(g, k0) + c) * n;
                for (int i = 0; i < k0; i++) w[i] += col[i] * s[c];
            }
        }
        MPI_Bcast(s, jb, MPI_DOUBLE, root, MPI_COMM_WORLD);
        memcpy(x + k0, s, (size_t)jb * sizeof *x);
    }
}

/* HPL's check: ||Ax-b||_oo / (eps * (||A||_oo * ||x||_oo + ||b||_oo) * N),
 * A and b regenerated; on rank 0 (-1 elsewhere). r and t hold 2 N doubles
 * each. */
static double residual(const struct grid *g, const struct opts *o, const double *x, double *r,
                       double *t)
{
    int n = g->n;
    memset(r, 0, 2 * (size_t)n * sizeof *r); /* r[i]: (A x)_i, r[n + i]: sum_j |a_ij| */
    for (int j = 0; j < n; j++) {
        if (owner(g, j) != g->rank) continue;
        for (int i = 0; i < n; i++) {
            double v = entry(o->seed, i, j);
            r[i] += v * x[j];
            r[n + i] += fabs(v);
        }
    }
    MPI_Reduce(r, t, 2 * n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (g->rank != 0) return -1;
    double rn = 0, an = 0, xn = 0, bn = 0;
    for (int i = 0; i < n; i++) {
        double b = entry(o->seed, i, n);
        rn = fmax(rn, fabs(t[i] - b));
        an = fmax(an, t[n + i]);
        xn = fmax(xn, fabs(x[i]));
        bn = fmax(bn, fabs(b));
    }
    /* HPL's eps is LAPACK's dlamch('E'): the unit roundoff 2^-53. */
    double eps = DBL_EPSILON / 2;
    double d = eps * (an * xn + bn) * n;
    /* A nan (zero pivot) must fail the check, not compare false. */
    return isnan(rn) || isnan(d) ? INFINITY : rn / d;
}

/* ---- arguments and output ------------------------------------------------ */

static int usage(const char *prog, FILE *f)
{
    fprintf(f,
            "Usage: %s [-n N] [-b NB] [-s SEED]\n"
            "Solves A x = b (A N x N from SEED) by LU with partial pivoting on a 1 x Q\n"
            "grid (Q = the number of ranks), column blocks of NB, and prints HPL's\n"
            "result line and scaled-residual check (PASSED below %.1f).\n"
            "  -n N     the order, 1 to %d (default %d)\n"
            "  -b NB    the block size, 1 to %d (default %d)\n"
            "  -s SEED  the matrix generator's seed (default %d)\n"
            "Exit status 0 PASSED, 1 FAILED, 2 a usage error.\n",
            prog, THRESHOLD, N_MAX, N_DEFAULT, NB_MAX, NB_DEFAULT, SEED_DEFAULT);
    return f == stdout ? 0 : 2;
}

static int number(const char *prog, const char *opt, const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || *end || end == s || x < lo || x > hi) {
        fprintf(stderr, "%s: %s %s: must be a whole number from %ld to %ld\n", prog, opt, s, lo,
                hi);
        return 0;
    }
    *v = x;
    return 1;
}

/* 0 to run, else the exit status (0 for --help). */
static int parse(int argc, char **argv, struct opts *o)
{
    const char *prog = argv[0];
    *o = (struct opts){N_DEFAULT, NB_DEFAULT, SEED_DEFAULT, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return usage(prog, stdout) - 1;
        if (strcmp(a, "-X") == 0) { /* hidden: proves the check can fail */
            o->no_swaps = 1;
            continue;
        }
        long v;
        if (strcmp(a, "-n") && strcmp(a, "-b") && strcmp(a, "-s")) {
            fprintf(stderr, "%s: %s: unknown argument\n", prog, a);
            return usage(prog, stderr);
        }
        if (i + 1 == argc) {
            fprintf(stderr, "%s: %s: needs a value\n", prog, a);
            return usage(prog, stderr);
        }
        const char *s = argv[++i];
        if (a[1] == 'n' && number(prog, a, s, 1, N_MAX, &v))
            o->n = v;
        else if (a[1] == 'b' && number(prog, a, s, 1, NB_MAX, &v))
            o->nb = v;
        else if (a[1] == 's' && number(prog, a, s, 0, 2147483647L, &v))
            o->seed = (unsigned long long)v;
        else
            return usage(prog, stderr);
    }
    return 0;
}

static void report(const struct grid *g, double secs, double resid)
{
    double n = g->n, gflops = (2.0 / 3.0 * n * n * n + 1.5 * n * n) / secs / 1e9;
    const char *rule =
        "================================================================================";
    const char *dash =
        "--------------------------------------------------------------------------------";
    printf("%s\n", rule);
    printf("T/V                N    NB     P     Q               Time                 Gflops\n");
    printf("%s\n", dash);
    printf("WR00L2L2%12d %5d %5d %5d %18.2f %18.3e\n", g->n, g->nb, 1, g->q, secs, gflops);
    /* Where HPL prints its start and end times: the time in full, for
     * simulated times far below the line's 0.01 s. */
    printf("HPL_pdgesv() time %.9e s\n", secs);
    printf("%s\n", dash);
    printf("||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= %16.8e ...... %s\n", resid,
           resid < THRESHOLD ? "PASSED" : "FAILED");
    printf("%s\n", rule);
}

int main(int argc, char **argv)
{
    struct opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    MPI_Init(&argc, &argv);
    struct grid g = {.n = (int)o.n, .nb = (int)o.nb};
    MPI_Comm_size(MPI_COMM_WORLD, &g.q);
    MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    g.ncols = below(&g, g.n + 1);

    size_t n = (size_t)g.n;
    double *a = malloc((g.ncols ? (size_t)g.ncols : 1) * n * sizeof *a);
    double *buf = malloc(n * (size_t)g.nb * sizeof *buf);
    double *x = malloc(n * sizeof *x), *w = malloc(2 * n * sizeof *w),
           *s = malloc(2 * n * sizeof *s);
    int *piv = malloc((size_t)g.nb * sizeof *piv);
    if (!a || !buf || !x || !w || !s || !piv) {
        fprintf(stderr, "%s: rank %d: out of memory for N %d\n", argv[0], g.rank, g.n);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    for (int j = 0; j <= g.n; j++)
        if (owner(&g, j) == g.rank)
            for (int i = 0; i < g.n; i++) a[(size_t)below(&g, j) * n + i] = entry(o.seed, i, j);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    factor(&g, &o, a, buf, piv);
    solve(&g, a, x, w, s);
    double secs = MPI_Wtime() - t0;
    double resid = residual(&g, &o, x, w, s);
    if (g.rank == 0) {
        report(&g, secs, resid);
        /* Before the other ranks can return 1: mpirun stops the job at a
         * rank's failure, and rank 0's lines must be out by then. */
        fflush(stdout);
    }
    rc = g.rank == 0 && !(resid < THRESHOLD);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(a);
    free(buf);
    free(x);
    free(w);
    free(s);
    free(piv);
    MPI_Finalize();
    return rc;
}
