/*
 * mpi_lite.h -- mpi_lite's own settings, outside the MPI standard.
 *
 * The transport's parameters (docs/mpi_lite.md, "Parameters"). Call
 * MPIX_Lite_set_params on every rank before MPI_Init with the same values;
 * without it the defaults below hold. A field left 0 keeps its default.
 */
#ifndef MPI_LITE_MPI_LITE_H
#define MPI_LITE_MPI_LITE_H

#include <stddef.h>

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mpix_lite_params {
    size_t slot_bytes;   /* bytes per slot of a pair buffer, header included (default 4096) */
    unsigned slots;      /* slots per pair buffer (default 16) */
    size_t eager_max;    /* largest message sent eagerly; larger: rendezvous (default 16384) */
    unsigned node_ranks; /* ranks per node: rank / node_ranks is its node (default: the
                          * platform's nodes, plat_core_node: natively mpirun's hosts) */
    unsigned inter;      /* between nodes: MPIX_LITE_INTER_* (default AUTO) */
};

/* How a pair of ranks on different nodes talks. */
enum {
    MPIX_LITE_INTER_AUTO = 0, /* DMA into the receiver's pair buffer where the platform's
                               * memory reaches it (one platform node), else a stream */
    MPIX_LITE_INTER_DMA,      /* always DMA (MPI_Init fails if a peer is on another host) */
    MPIX_LITE_INTER_STREAM,   /* always a stream: TCP natively, the network model in
                               * simulation (the paper's "MPI over Ethernet") */
};

#define MPIX_LITE_SLOT_BYTES 4096
#define MPIX_LITE_SLOTS 16
#define MPIX_LITE_EAGER_MAX 16384

/* What the calling rank's transport did since MPI_Init (tests, benchmarks). */
struct mpix_lite_stats {
    unsigned long long slots;         /* slots published (V on a pair buffer) */
    unsigned long long dma_slots;     /* of them written by the DMA engine (another node) */
    unsigned long long records;       /* records written: fragments, envelopes, CTSs */
    unsigned long long eager;         /* messages sent eagerly */
    unsigned long long rndv;          /* messages sent by rendezvous (RTS, CTS, data) */
    unsigned long long stream_frames; /* of the slots, those sent as frames on a stream */
};
int MPIX_Lite_stats(struct mpix_lite_stats *s);

/* MPI_ERR_ARG for a slot too small for a record header (< 128 bytes) or 0 slots
 * after defaults, or an unknown inter; MPI_ERR_OTHER after MPI_Init. */
int MPIX_Lite_set_params(const struct mpix_lite_params *p);

#ifdef __cplusplus
}
#endif
#endif
