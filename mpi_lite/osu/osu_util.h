/*
 * osu_util.h -- what the OSU-compatible benchmarks share: options, the size
 * loop, iteration counts, buffers and the output lines.
 *
 * Written for ipcsim from the method that OSU micro-benchmarks 5.3
 * documents (sizes doubling, warm-up then timed iterations, the columns of
 * its output); no OSU code. Standard MPI and C11 only, so that the programs
 * build with any MPI's mpicc, and no mutable globals: in the simulator all
 * ranks of a program are threads of one process and share its globals.
 */
#ifndef OSU_UTIL_H
#define OSU_UTIL_H

#include <stddef.h>

/* The version the header lines name: the OSU release whose method and
 * output these programs follow, so scripts that parse OSU output read ours. */
#define OSU_VERSION "5.3"

/* Sizes above this use the large iteration counts (OSU: 8 KiB). */
#define OSU_LARGE_MESSAGE 8192
/* osu_bw and osu_bibw: messages in flight per iteration. */
#define OSU_WINDOW 64
/* The largest -m MAX accepted: MPI counts are int, and 1 GiB leaves room
 * for osu_gather's root buffer of MAX bytes from every rank. */
#define OSU_SIZE_LIMIT ((size_t)1 << 30)

enum osu_kind {
    OSU_LATENCY,   /* point to point, "Latency (us)" */
    OSU_BANDWIDTH, /* point to point, "Bandwidth (MB/s)" */
    OSU_COLLECTIVE /* "Avg Latency(us)" and, with -f, min, max, iterations */
};

struct osu_opts {
    const char *prog;  /* "osu_latency": usage and messages */
    const char *title; /* "Latency Test": the header line */
    enum osu_kind kind;
    size_t min_size, max_size;
    int iters, skip;             /* sizes up to OSU_LARGE_MESSAGE */
    int iters_large, skip_large; /* sizes above */
    int full;                    /* -f (collectives) */
};

/* What osu_options decided. */
enum osu_start {
    OSU_RUN,  /* measure */
    OSU_DONE, /* -h or -v answered: return 0 */
    OSU_BAD   /* a bad option, reported on rank 0's stderr: return 2 */
};

/* Fill *o with the defaults of `kind`, then apply argv's options. Only
 * `rank` 0 prints (help, version, errors); every rank gets the same answer
 * from the same argv. Call after MPI_Init (which may edit argv). */
enum osu_start osu_options(struct osu_opts *o, const char *prog, const char *title,
                           enum osu_kind kind, int argc, char **argv, int rank);

/* 0 if `nprocs` ranks suit the benchmark (exactly 2 point to point, at
 * least 2 for collectives), else rank 0 says why and it returns 2. */
int osu_check_procs(const struct osu_opts *o, int rank, int nprocs);

/* What a program measures once its options and rank count are right. */
typedef void osu_measure(const struct osu_opts *o, int rank, int nprocs);

/* A whole program's main: MPI_Init, the options, the rank count check,
 * measure, MPI_Finalize. Its exit status: 0, or 2 on a bad option or rank
 * count. */
int osu_main(int argc, char **argv, const char *prog, const char *title, enum osu_kind kind,
             osu_measure *measure);

/* The first size of the loop and the one after `size` (0, 1, 2, 4, ..). */
size_t osu_first_size(const struct osu_opts *o);
size_t osu_next_size(size_t size);

/* Timed and warm-up iterations for messages of `size` bytes. */
void osu_counts(const struct osu_opts *o, size_t size, int *iters, int *skip);

/* A page-aligned buffer of at least `bytes` (at least one page), filled
 * with `fill` so that its pages are mapped before timing. On failure it
 * says so and calls MPI_Abort: a benchmark without its buffers cannot run. */
void *osu_buffer(const struct osu_opts *o, size_t bytes, int fill, int rank);

/* Rank 0: the header lines, OSU's layout. */
void osu_header(const struct osu_opts *o, int rank);

/* Rank 0: one point-to-point line, "%-10d%20.2f". */
void osu_line(const struct osu_opts *o, int rank, size_t size, double value);

/* Rank 0: one collective line: average and, with -f, min, max, iterations. */
void osu_coll_line(const struct osu_opts *o, int rank, size_t size, double avg, double min,
                   double max, int iters);

/* A collective's result for one size: every rank's mean latency (us) is
 * reduced to rank 0 as the minimum, maximum and average over ranks, and
 * printed there. Called by every rank. */
void osu_coll_report(const struct osu_opts *o, int rank, int nprocs, size_t size, double latency_us,
                     int iters);

#endif
