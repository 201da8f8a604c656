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
 * kind of work. In real mode (-C real) they run, and in simulation they take
 * no simulated time (host code is free), so the time is the messages only.
 * In charged mode (-C charged) they do not run: each rank charges the cycles
 * they would take (their exact flop counts, and the bytes of the row swaps
 * and copies, at the platform's core.costs.hpl_*) with plat_work_cycles and
 * moves every message as the real algorithm does, from buffers of zeros;
 * the N x N matrix is never allocated, so the paper's N fit in one host
 * process. Charged mode is for simulation only: natively every cost is 0.
 *
 * Standard MPI and C11 plus ipcsim's plat.h (charged mode), all state in
 * locals and on the heap, returns from main (no exit()): in simulation every
 * rank runs in one process.
 *     mpicc -std=c11 -I PREFIX/include hpl.c -lm -o hpl && mpirun -n 4 ./hpl -n 1000 -b 64
 */
#include <mpi.h>

#include "ipcsim/plat.h"

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
#define N_MAX 20000          /* real mode: the N x N matrix is on the heap */
#define N_MAX_CHARGED 100000 /* charged mode: N x NB doubles a rank */
#define NB_MAX 1024
#define THRESHOLD 16.0

struct opts {
    long n, nb;
    unsigned long long seed;
    int no_swaps; /* -X: skip the row swaps, so the check must fail */
    int charged;  /* -C charged: charge the arithmetic instead of doing it */
};

/* Charged mode's rates, cycles of the rank's core (plat_cost, read once in
 * main): per 1000 flops of trsm and update (BLAS-3), per 1000 flops of the
 * panel and the back substitution (BLAS-2), per KiB of row swaps and
 * copies. */
struct rates {
    uint64_t gemm_kflop, panel_kflop, copy_kB;
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

/* ---- what the flops cost (charged mode) ---------------------------------- */

/* The counts of the loops above, flop for flop (a multiply-add is 2), so
 * that charged and real mode do the same work: panel() per column c one
 * reciprocal, m - c - 1 scalings and a (m - c - 1) x (jb - c - 1) rank-1
 * update; trsm() jb (jb - 1) / 2 multiply-adds per column; update() m jb
 * per column. The pivot search's comparisons are no flops: the panel's
 * BLAS-2 rate covers them. */
static uint64_t panel_flops(int m, int jb)
{
    uint64_t f = 0;
    for (int c = 0; c < jb; c++) {
        uint64_t r = (uint64_t)(m - c - 1);
        f += 1 + r + 2 * r * (uint64_t)(jb - c - 1);
    }
    return f;
}

static uint64_t trsm_flops(int jb, int nc)
{
    return (uint64_t)jb * (uint64_t)(jb - 1) * (uint64_t)nc;
}

static uint64_t update_flops(int m, int jb, int nc)
{
    return 2 * (uint64_t)m * (uint64_t)jb * (uint64_t)nc;
}

static void charge_flops(uint64_t flops, uint64_t per_kflop)
{
    plat_work_cycles(flops * per_kflop / 1000);
}

static void charge_bytes(uint64_t bytes, uint64_t per_kB)
{
    plat_work_cycles(bytes * per_kB / 1024);
}

/* The cycles one rank charges for all of factor() and solve(), call by call
 * as they charge them with Q = 1: a one-rank run's time (T1), which a run
 * on Q ranks is measured against (speedup, efficiency). */
static uint64_t serial_cycles(int n, int nb, const struct rates *r)
{
    uint64_t cy = 0;
    for (int k0 = 0; k0 < n; k0 += nb) {
        int jb = n - k0 < nb ? n - k0 : nb, m = n - k0, nc = n + 1 - (k0 + jb);
        uint64_t b = (uint64_t)jb;
        cy += panel_flops(m, jb) * r->panel_kflop / 1000;
        cy += (16 * b * b + 8 * (uint64_t)m * b) * r->copy_kB / 1024;
        if (nc <= 0) continue;
        cy += 16 * b * (uint64_t)nc * r->copy_kB / 1024;
        cy += (trsm_flops(jb, nc) + update_flops(m - jb, jb, nc)) * r->gemm_kflop / 1000;
    }
    cy += 8 * (uint64_t)n * r->copy_kB / 1024;
    for (int k0 = (n - 1) / nb * nb; k0 >= 0; k0 -= nb) {
        uint64_t b = (uint64_t)(n - k0 < nb ? n - k0 : nb);
        cy += (b + b * b + 2 * (uint64_t)k0 * b) * r->panel_kflop / 1000;
        cy += 8 * b * r->copy_kB / 1024;
    }
    return cy;
}

/* ---- the distributed LU and solve --------------------------------------- */

/* Factor [A | b] in place: on return the local columns hold U (and L below
 * it) and column N holds L^-1 P b. buf holds N * NB doubles, piv NB ints.
 * Charged (r not NULL): a is NULL, the panel sent is buf as it is, the
 * pivots are the identity, and every step charges what it would cost, the
 * row swaps as if every pivot were another row (P = 1: HPL swaps locally). */
static void factor(const struct grid *g, const struct opts *o, const struct rates *r, double *a,
                   double *buf, int *piv)
{
    int n = g->n;
    for (int k0 = 0; k0 < n; k0 += g->nb) {
        int jb = n - k0 < g->nb ? n - k0 : g->nb, m = n - k0, root = owner(g, k0);
        if (g->rank == root && r) {
            charge_flops(panel_flops(m, jb), r->panel_kflop);
            /* jb swaps of jb doubles each way, then the panel into buf. */
            charge_bytes(16 * (uint64_t)jb * (uint64_t)jb + 8 * (uint64_t)m * (uint64_t)jb,
                         r->copy_kB);
            for (int c = 0; c < jb; c++) piv[c] = c;
        } else if (g->rank == root) {
            double *p = a + (size_t)below(g, k0) * n + k0;
            panel(p, n, m, jb, piv);
            for (int c = 0; c < jb; c++)
                memcpy(buf + (size_t)c * m, p + (size_t)c * n, (size_t)m * sizeof *buf);
        }
        MPI_Bcast(piv, jb, MPI_INT, root, MPI_COMM_WORLD);
        MPI_Bcast(buf, m * jb, MPI_DOUBLE, root, MPI_COMM_WORLD);
        int first = below(g, k0 + jb), nc = g->ncols - first;
        if (nc <= 0) continue;
        if (r) {
            /* jb swaps of nc doubles each way, trsm, update. */
            charge_bytes(16 * (uint64_t)jb * (uint64_t)nc, r->copy_kB);
            charge_flops(trsm_flops(jb, nc) + update_flops(m - jb, jb, nc), r->gemm_kflop);
            continue;
        }
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
 * rank on return. w and s hold N doubles each. Charged (r not NULL): a is
 * NULL, the same messages carry x's zeros, and the owner of a block charges
 * its triangle and its columns' partial sums at the BLAS-2 rate. */
static void solve(const struct grid *g, const struct rates *r, const double *a, double *x,
                  double *w, double *s)
{
    int n = g->n;
    /* y on every rank: the block owner needs its rows. */
    if (g->rank == owner(g, n) && r)
        charge_bytes(8 * (uint64_t)n, r->copy_kB);
    else if (g->rank == owner(g, n))
        memcpy(x, a + (size_t)below(g, n) * n, (size_t)n * sizeof *x);
    MPI_Bcast(x, n, MPI_DOUBLE, owner(g, n), MPI_COMM_WORLD);
    memset(w, 0, (size_t)n * sizeof *w); /* this rank's sum of U(:, j) x_j */
    int last = (n - 1) / g->nb * g->nb;
    for (int k0 = last; k0 >= 0; k0 -= g->nb) {
        int jb = n - k0 < g->nb ? n - k0 : g->nb, root = owner(g, k0);
        MPI_Reduce(w + k0, s, jb, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
        if (g->rank == root && r) {
            /* jb subtractions, the triangle's jb^2, 2 k0 jb for the sums. */
            uint64_t b = (uint64_t)jb;
            charge_flops(b + b * b + 2 * (uint64_t)k0 * b, r->panel_kflop);
        } else if (g->rank == root) {
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
        if (r) charge_bytes(8 * (uint64_t)jb, r->copy_kB);
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
            "Usage: %s [-n N] [-b NB] [-s SEED] [-C real|charged]\n"
            "Solves A x = b (A N x N from SEED) by LU with partial pivoting on a 1 x Q\n"
            "grid (Q = the number of ranks), column blocks of NB, and prints HPL's\n"
            "result line and scaled-residual check (PASSED below %.1f).\n"
            "  -n N     the order, 1 to %d (charged: to %d; default %d)\n"
            "  -b NB    the block size, 1 to %d (default %d)\n"
            "  -s SEED  the matrix generator's seed (default %d)\n"
            "  -C MODE  real: do the arithmetic (default); charged: in simulation,\n"
            "           charge its cycles instead (the platform's core.costs.\n"
            "           hpl_gemm_kflop, hpl_panel_kflop, hpl_copy_kB), move the same\n"
            "           messages, hold no matrix, check nothing\n"
            "Exit status 0 PASSED (charged: done), 1 FAILED, 2 a usage error or\n"
            "charged mode without its costs (natively every cost is 0).\n",
            prog, THRESHOLD, N_MAX, N_MAX_CHARGED, N_DEFAULT, NB_MAX, NB_DEFAULT, SEED_DEFAULT);
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
    *o = (struct opts){N_DEFAULT, NB_DEFAULT, SEED_DEFAULT, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return usage(prog, stdout) - 1;
        if (strcmp(a, "-X") == 0) { /* hidden: proves the check can fail */
            o->no_swaps = 1;
            continue;
        }
        long v;
        if (strcmp(a, "-n") && strcmp(a, "-b") && strcmp(a, "-s") && strcmp(a, "-C")) {
            fprintf(stderr, "%s: %s: unknown argument\n", prog, a);
            return usage(prog, stderr);
        }
        if (i + 1 == argc) {
            fprintf(stderr, "%s: %s: needs a value\n", prog, a);
            return usage(prog, stderr);
        }
        const char *s = argv[++i];
        if (a[1] == 'C' && (strcmp(s, "real") == 0 || strcmp(s, "charged") == 0))
            o->charged = s[0] == 'c';
        else if (a[1] == 'C') {
            fprintf(stderr, "%s: -C %s: must be real or charged\n", prog, s);
            return usage(prog, stderr);
        } else if (a[1] == 'n' && number(prog, a, s, 1, N_MAX_CHARGED, &v))
            o->n = v;
        else if (a[1] == 'b' && number(prog, a, s, 1, NB_MAX, &v))
            o->nb = v;
        else if (a[1] == 's' && number(prog, a, s, 0, 2147483647L, &v))
            o->seed = (unsigned long long)v;
        else
            return usage(prog, stderr);
    }
    if (!o->charged && o->n > N_MAX) {
        fprintf(stderr,
                "%s: -n %ld: real mode holds the N x N matrix: at most %d (-C charged: %d)\n", prog,
                o->n, N_MAX, N_MAX_CHARGED);
        return usage(prog, stderr);
    }
    return 0;
}

/* resid < 0: charged, nothing to check; t1 > 0: charged, the one-rank time. */
static void report(const struct grid *g, double secs, double resid, double t1)
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
    /* Not the check's words: mpi_progs.c reads a residual from those. */
    if (t1 > 0) printf("T1 (one rank, charged): %.9e s\n", t1);
    if (resid < 0)
        printf("Residual not checked (charged compute: the arithmetic was charged, not done)\n");
    else
        printf("||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= %16.8e ...... %s\n", resid,
               resid < THRESHOLD ? "PASSED" : "FAILED");
    printf("%s\n", rule);
}

/* Charged mode's costs into r; 0, or 2 (the first rank whose core lacks
 * one says which, in one line) on every rank. A cost the platform file does
 * not have stops a simulated run in plat_cost, naming the key; natively
 * plat_cost is 0 for every key, so charged mode is refused there. */
static int read_rates(const struct grid *g, const char *prog, struct rates *r)
{
    const char *const key[] = {"hpl_gemm_kflop", "hpl_panel_kflop", "hpl_copy_kB"};
    const char *const per[] = {"1000 flops", "1000 flops", "KiB"};
    uint64_t *v[] = {&r->gemm_kflop, &r->panel_kflop, &r->copy_kB};
    int bad = -1;
    for (int i = 0; i < 3; i++) {
        *v[i] = plat_cost(key[i]);
        if (!*v[i] && bad < 0) bad = i;
    }
    int mine = bad < 0 ? g->q : g->rank, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == g->q) return 0;
    if (g->rank == first)
        fprintf(stderr,
                "%s: -C charged: core.costs.%s is 0 on rank %d: charged mode needs the "
                "platform's cycles per %s (natively every cost is 0: charged mode is for "
                "simulation)\n",
                prog, key[bad], g->rank, per[bad]);
    return 2;
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
    struct rates rates, *r = NULL;
    if (o.charged) {
        if ((rc = read_rates(&g, argv[0], &rates))) {
            MPI_Finalize();
            return rc;
        }
        r = &rates;
    }

    /* Charged: no matrix; the messages' buffers zeroed, so that a run is
     * the same bit for bit. */
    size_t n = (size_t)g.n;
    double *a = r ? NULL : malloc((g.ncols ? (size_t)g.ncols : 1) * n * sizeof *a);
    double *buf = calloc(n * (size_t)g.nb, sizeof *buf);
    double *x = calloc(n, sizeof *x), *w = malloc(2 * n * sizeof *w), *s = calloc(2 * n, sizeof *s);
    int *piv = malloc((size_t)g.nb * sizeof *piv);
    if ((!a && !r) || !buf || !x || !w || !s || !piv) {
        fprintf(stderr, "%s: rank %d: out of memory for N %d\n", argv[0], g.rank, g.n);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    for (int j = 0; j <= g.n && !r; j++)
        if (owner(&g, j) == g.rank)
            for (int i = 0; i < g.n; i++) a[(size_t)below(&g, j) * n + i] = entry(o.seed, i, j);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    factor(&g, &o, r, a, buf, piv);
    solve(&g, r, a, x, w, s);
    double secs = MPI_Wtime() - t0;
    /* Charged: x is no solution; the check (and its reduction) is skipped. */
    double resid = r ? -1 : residual(&g, &o, x, w, s);
    if (g.rank == 0) {
        double mhz = plat_core_clock_mhz(plat_core());
        report(&g, secs, resid,
               r && mhz > 0 ? (double)serial_cycles(g.n, g.nb, r) / (mhz * 1e6) : 0);
        /* Before the other ranks can return 1: mpirun stops the job at a
         * rank's failure, and rank 0's lines must be out by then. */
        fflush(stdout);
    }
    rc = g.rank == 0 && !r && !(resid < THRESHOLD);
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
