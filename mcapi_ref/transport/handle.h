/*
 * transport/handle.h -- the handle layout of mcapi_ref's two transports.
 *
 * A handle is 32 bits: kind (3), domain (2), generation (15), slot (12).
 * Kinds start at 1, so 0 is never a handle.
 *
 * Shared memory (shm/): the slot indexes the domain's endpoint table; the
 * generation is the slot's (endpoints) or the endpoint's open count
 * (channel handles), so a handle of a deleted endpoint or a closed and
 * reopened channel no longer matches. A virtual node's endpoints exist
 * without a slot: their slot field is DB_SLOTS + node and their generation
 * field the port.
 *
 * DMA (dma/): a handle is an address, no table behind it: an endpoint's
 * slot is its node and its generation its port; a channel end's slot is
 * node << 6 | port (dma/dma_map.c).
 */
#ifndef MCAPI_TRANSPORT_HANDLE_H
#define MCAPI_TRANSPORT_HANDLE_H

#include <stdint.h>

enum h_kind { HK_EP = 1, HK_CHAN = 2 }; /* channel kinds: HK_CHAN + chan * 2 + dir */

#define H_GEN_MASK 0x7fffu

static inline uint32_t h_make(unsigned kind, unsigned dom, unsigned gen, unsigned slot)
{
    return (uint32_t)kind << 29 | (uint32_t)(dom & 3u) << 27 | (uint32_t)(gen & H_GEN_MASK) << 12 |
           (uint32_t)(slot & 0xfffu);
}
static inline unsigned h_kind(uint32_t h)
{
    return h >> 29;
}
static inline unsigned h_dom(uint32_t h)
{
    return (h >> 27) & 3u;
}
static inline unsigned h_gen(uint32_t h)
{
    return (h >> 12) & H_GEN_MASK;
}
static inline unsigned h_slot(uint32_t h)
{
    return h & 0xfffu;
}
static inline unsigned h_chan_kind(unsigned chan, unsigned dir)
{
    return HK_CHAN + chan * 2u + dir;
}
/* A channel handle's type (enum tp_chan) and direction (enum tp_dir). */
static inline unsigned h_chan_type(uint32_t h)
{
    return (h_kind(h) - HK_CHAN) / 2u;
}
static inline unsigned h_chan_dir(uint32_t h)
{
    return (h_kind(h) - HK_CHAN) % 2u;
}

#endif
