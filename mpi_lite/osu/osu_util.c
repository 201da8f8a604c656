/*
 * osu_util.c -- options, size loop, buffers and output of the
 * OSU-compatible benchmarks (see osu_util.h). Only rank 0 prints.
 */
#include "osu_util.h"

#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Buffers are page-aligned, as OSU's are, so that a size's timing does not
 * depend on where malloc happened to put it. */
#define OSU_PAGE 4096

/* The columns of OSU's output: sizes left-aligned in 10, values in 20 with
 * 2 decimals, the iteration count of -f in 12. */
#define SIZE_W 10
#define FIELD_W 20
#define ITERS_W 12
#define PRECISION 2

static void defaults(struct osu_opts *o, const char *prog, const char *title, enum osu_kind kind)
{
    memset(o, 0, sizeof *o);
    o->prog = prog;
    o->title = title;
    o->kind = kind;
    switch (kind) {
    case OSU_LATENCY:
        o->min_size = 0;
        o->max_size = (size_t)4 << 20;
        o->iters = 10000;
        o->skip = 100;
        o->iters_large = 1000;
        o->skip_large = 10;
        break;
    case OSU_BANDWIDTH:
        o->min_size = 1;
        o->max_size = (size_t)4 << 20;
        o->iters = 100;
        o->skip = 10;
        o->iters_large = 20;
        o->skip_large = 2;
        break;
    case OSU_COLLECTIVE:
        o->min_size = 1;
        o->max_size = (size_t)1 << 20;
        o->iters = 1000;
        o->skip = 200;
        o->iters_large = 100;
        o->skip_large = 10;
        break;
    }
}

/* What each program measures, for -h. */
_Static_assert(OSU_WINDOW == 64, "osu_bw's and osu_bibw's help say 64");
static const struct {
    const char *prog, *text;
} about[] = {
    {"osu_latency", "Ranks 0 and 1 (exactly 2 ranks) send a message back and forth with MPI_Send\n"
                    "and MPI_Recv; prints half the mean round trip (us) for each size.\n"},
    {"osu_bw", "Rank 0 sends windows of 64 MPI_Isend of one buffer to rank 1 (exactly 2\n"
               "ranks), which answers each window with a 4-byte message; prints MB/s\n"
               "(10^6 bytes per second) for each size.\n"},
    {"osu_bibw", "Ranks 0 and 1 (exactly 2 ranks) each post 64 MPI_Irecv and 64 MPI_Isend\n"
                 "of one buffer, then MPI_Waitall; prints the bytes both moved per second\n"
                 "(MB/s, 10^6 bytes) for each size.\n"},
    {"osu_bcast", "Times MPI_Bcast from rank 0 (2 or more ranks), an MPI_Barrier between calls;\n"
                  "prints each size's latency (us) averaged over the ranks.\n"},
    {"osu_gather", "Times MPI_Gather to rank 0 (2 or more ranks), an MPI_Barrier between calls;\n"
                   "prints each size's latency (us) averaged over the ranks.\n"},
};

static void help(const struct osu_opts *o)
{
    struct osu_opts d;
    defaults(&d, o->prog, o->title, o->kind);
    printf("Usage: %s [options]\n", o->prog);
    for (size_t i = 0; i < sizeof about / sizeof about[0]; i++)
        if (strcmp(about[i].prog, o->prog) == 0) printf("%s", about[i].text);
    printf("Written for ipcsim from the method of OSU micro-benchmarks %s; same output.\n"
           "\n"
           "options:\n",
           OSU_VERSION);
    printf("  -m [MIN:]MAX  message sizes from MIN (rounded up to a power of two) to MAX\n"
           "                bytes, doubling (default %zu:%zu; at most %zu):\n"
           "                -m 128 (MAX only), -m 2:128, -m 2: (MIN only)\n",
           d.min_size, d.max_size, OSU_SIZE_LIMIT);
    printf("  -i ITER       timed iterations per size (default %d, %d above %d bytes)\n", d.iters,
           d.iters_large, OSU_LARGE_MESSAGE);
    printf("  -x ITER       warm-up iterations before timing (default %d, %d above %d bytes)\n",
           d.skip, d.skip_large, OSU_LARGE_MESSAGE);
    if (o->kind == OSU_COLLECTIVE)
        printf("  -f            full listing: also the minimum and maximum over ranks of each\n"
               "                rank's mean latency, and the iterations\n");
    printf("  -h, --help    print this help\n"
           "  -v, --version print the version line\n");
    fflush(stdout);
}

/* A whole decimal number in [lo, hi], nothing else: "-i 1e3" or "-i 10x"
 * would silently become 1 or 10 with atoi. */
static int parse_num(const char *s, long long lo, long long hi, long long *out)
{
    if (s[0] < '0' || s[0] > '9') return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int bad(const struct osu_opts *o, int rank, const char *opt, const char *val,
               const char *why)
{
    if (rank == 0) {
        if (val)
            fprintf(stderr, "%s: %s %s: %s\n", o->prog, opt, val, why);
        else
            fprintf(stderr, "%s: %s: %s\n", o->prog, opt, why);
        fprintf(stderr, "%s: -h lists the options\n", o->prog);
    }
    return -1;
}

/* -m MAX, MIN:MAX, MIN: or :MAX, as OSU reads it. */
static int parse_sizes(struct osu_opts *o, int rank, const char *val)
{
    char lo[32] = "", hi[32] = "";
    const char *colon = strchr(val, ':');
    size_t n = strlen(val);
    if (n >= sizeof lo || (colon && strchr(colon + 1, ':')))
        return bad(o, rank, "-m", val, "expected [MIN:]MAX, e.g. 128 or 2:128 or 2:");
    if (colon) {
        memcpy(lo, val, (size_t)(colon - val));
        strcpy(hi, colon + 1);
    } else {
        strcpy(hi, val);
    }
    if (!lo[0] && !hi[0])
        return bad(o, rank, "-m", val, "expected [MIN:]MAX, e.g. 128 or 2:128 or 2:");
    long long min = (long long)o->min_size, max = (long long)o->max_size;
    char why[128];
    snprintf(why, sizeof why, "sizes are whole numbers of bytes from %d to %zu",
             o->kind == OSU_LATENCY ? 0 : 1, OSU_SIZE_LIMIT);
    if (lo[0] && parse_num(lo, o->kind == OSU_LATENCY ? 0 : 1, (long long)OSU_SIZE_LIMIT, &min))
        return bad(o, rank, "-m", val, why);
    if (hi[0] && parse_num(hi, 0, (long long)OSU_SIZE_LIMIT, &max))
        return bad(o, rank, "-m", val, why);
    /* The loop doubles from MIN, so MIN is a power of two (or 0). */
    long long p = 1;
    while (min > 0 && p < min) p *= 2;
    if (min > 0 && p != min) {
        if (p > max) {
            snprintf(why, sizeof why, "no sizes: MIN %lld, rounded up to %lld, is above MAX %lld",
                     min, p, max);
            return bad(o, rank, "-m", val, why);
        }
        min = p;
    }
    if (min > max) {
        snprintf(why, sizeof why, "no sizes: MIN %lld is above MAX %lld", min, max);
        return bad(o, rank, "-m", val, why);
    }
    o->min_size = (size_t)min;
    o->max_size = (size_t)max;
    return 0;
}

enum osu_start osu_options(struct osu_opts *o, const char *prog, const char *title,
                           enum osu_kind kind, int argc, char **argv, int rank)
{
    defaults(o, prog, title, kind);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            if (rank == 0) help(o);
            return OSU_DONE;
        }
        if (strcmp(a, "-v") == 0 || strcmp(a, "--version") == 0) {
            if (rank == 0) {
                printf("# OSU MPI %s v%s\n", o->title, OSU_VERSION);
                fflush(stdout);
            }
            return OSU_DONE;
        }
        if (strcmp(a, "-f") == 0 && kind == OSU_COLLECTIVE) {
            o->full = 1;
            continue;
        }
        if (strcmp(a, "-f") == 0) {
            bad(o, rank, a, NULL, "the full listing is the collectives' (osu_bcast, osu_gather)");
            return OSU_BAD;
        }
        /* -m, -i, -x take a value, joined ("-i10") or next ("-i 10"). */
        if (a[0] != '-' || a[1] == '\0' || !strchr("mix", a[1])) {
            bad(o, rank, a, NULL, "unknown option");
            return OSU_BAD;
        }
        char opt[3] = {'-', a[1], '\0'};
        const char *val = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) {
            bad(o, rank, opt, NULL, "needs a value");
            return OSU_BAD;
        }
        long long v;
        if (a[1] == 'm') {
            if (parse_sizes(o, rank, val)) return OSU_BAD;
        } else if (a[1] == 'i') {
            if (parse_num(val, 1, INT_MAX, &v)) {
                bad(o, rank, opt, val, "iterations are a whole number from 1 to 2147483647");
                return OSU_BAD;
            }
            o->iters = o->iters_large = (int)v;
        } else {
            if (parse_num(val, 0, INT_MAX, &v)) {
                bad(o, rank, opt, val,
                    "warm-up iterations are a whole number from 0 to 2147483647");
                return OSU_BAD;
            }
            o->skip = o->skip_large = (int)v;
        }
    }
    return OSU_RUN;
}

int osu_check_procs(const struct osu_opts *o, int rank, int nprocs)
{
    if (o->kind == OSU_COLLECTIVE ? nprocs >= 2 : nprocs == 2) return 0;
    if (rank == 0)
        fprintf(stderr, "%s: this test requires %s two processes, not %d\n", o->prog,
                o->kind == OSU_COLLECTIVE ? "at least" : "exactly", nprocs);
    return 2;
}

size_t osu_first_size(const struct osu_opts *o)
{
    return o->min_size;
}

size_t osu_next_size(size_t size)
{
    return size ? size * 2 : 1;
}

void osu_counts(const struct osu_opts *o, size_t size, int *iters, int *skip)
{
    int large = size > OSU_LARGE_MESSAGE;
    *iters = large ? o->iters_large : o->iters;
    *skip = large ? o->skip_large : o->skip;
}

void *osu_buffer(const struct osu_opts *o, size_t bytes, int fill, int rank)
{
    size_t n = bytes <= OSU_PAGE ? OSU_PAGE : bytes;
    if (n > SIZE_MAX - OSU_PAGE)
        n = SIZE_MAX; /* fails below, with a message */
    else
        n = (n + OSU_PAGE - 1) / OSU_PAGE * OSU_PAGE;
    void *p = n == SIZE_MAX ? NULL : aligned_alloc(OSU_PAGE, n);
    if (!p) {
        fprintf(stderr, "%s: rank %d: cannot allocate a buffer of %zu bytes\n", o->prog, rank,
                bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return NULL;
    }
    memset(p, fill, n);
    return p;
}

void osu_header(const struct osu_opts *o, int rank)
{
    if (rank != 0) return;
    switch (o->kind) {
    case OSU_LATENCY:
    case OSU_BANDWIDTH:
        printf("# OSU MPI %s v%s\n", o->title, OSU_VERSION);
        printf("%-*s%*s\n", SIZE_W, "# Size", FIELD_W,
               o->kind == OSU_LATENCY ? "Latency (us)" : "Bandwidth (MB/s)");
        break;
    case OSU_COLLECTIVE:
        /* OSU's collectives start with an empty line. */
        printf("\n# OSU MPI %s v%s\n", o->title, OSU_VERSION);
        printf("%-*s%*s", SIZE_W, "# Size", FIELD_W, "Avg Latency(us)");
        if (o->full)
            printf("%*s%*s%*s", FIELD_W, "Min Latency(us)", FIELD_W, "Max Latency(us)", ITERS_W,
                   "Iterations");
        printf("\n");
        break;
    }
    fflush(stdout);
}

void osu_line(const struct osu_opts *o, int rank, size_t size, double value)
{
    (void)o;
    if (rank != 0) return;
    printf("%-*zu%*.*f\n", SIZE_W, size, FIELD_W, PRECISION, value);
    fflush(stdout);
}

void osu_coll_line(const struct osu_opts *o, int rank, size_t size, double avg, double min,
                   double max, int iters)
{
    if (rank != 0) return;
    printf("%-*zu%*.*f", SIZE_W, size, FIELD_W, PRECISION, avg);
    if (o->full)
        printf("%*.*f%*.*f%*d", FIELD_W, PRECISION, min, FIELD_W, PRECISION, max, ITERS_W, iters);
    printf("\n");
    fflush(stdout);
}

void osu_coll_report(const struct osu_opts *o, int rank, int nprocs, size_t size, double latency_us,
                     int iters)
{
    double min = 0.0, max = 0.0, sum = 0.0;
    MPI_Reduce(&latency_us, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency_us, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency_us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    osu_coll_line(o, rank, size, sum / nprocs, min, max, iters);
}

int osu_main(int argc, char **argv, const char *prog, const char *title, enum osu_kind kind,
             osu_measure *measure)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    struct osu_opts o;
    enum osu_start st = osu_options(&o, prog, title, kind, argc, argv, rank);
    int rc = st == OSU_BAD ? 2 : 0;
    if (st == OSU_RUN) rc = osu_check_procs(&o, rank, nprocs);
    if (st == OSU_RUN && rc == 0) measure(&o, rank, nprocs);
    MPI_Finalize();
    return rc;
}
