/*
 * drivers/shm.h -- the shared-memory driver: how bytes and wake-ups move
 * between nodes that share a region.
 *
 * FUNCAPI's lowest layer is a DMA driver (HPD_SEND); ours is this file and
 * accel.h. The transport reaches the hardware only through them, and they
 * reach it only through ipcsim/plat.h, so a platform with another way of
 * moving data (a DMA engine, a mailbox) changes this layer alone.
 */
#ifndef MCAPI_DRIVERS_SHM_H
#define MCAPI_DRIVERS_SHM_H

#include "ipcsim/plat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The region called name (plat_shared_map): NULL on failure, with *status
 * plat_shared_map's (PLAT_EINVAL: it exists with another size). */
void *drv_shm_map(const char *name, size_t size, bool *created, int *status);
/* Whether the region of that name is shared with other processes (its
 * locks and events must then be process-shared). */
bool drv_shm_crosses(const char *name);
void drv_shm_unmap(void *region);

/* Locks and events inside the region; shared: between processes too.
 * Locks are robust (PLAT_MUTEX_ROBUST): drv_shm_lock returns true when the
 * lock's previous holder died holding it; the caller holds it and repairs
 * what it guards. */
void drv_shm_lock_init(plat_mutex *m, bool shared);
bool drv_shm_lock(plat_mutex *m);
void drv_shm_unlock(plat_mutex *m);
void drv_shm_event_init(plat_event *ev, bool shared);
uint32_t drv_shm_epoch(plat_event *ev);
void drv_shm_notify(plat_event *ev);
/* Sleep until the event moves past epoch or timeout_ns passes. */
void drv_shm_sleep(plat_event *ev, uint32_t epoch, uint64_t timeout_ns);

/* Who uses the region: a token naming the calling process, and whether
 * the process a token names still runs (plat_proc_token, plat_proc_alive). */
uint64_t drv_shm_self(void);
bool drv_shm_alive(uint64_t token);

/* Move n bytes with the calling core's loads and stores (timed). */
void drv_shm_copy(void *dst, const void *src, size_t n);

/* Publish a word others wait for, and wait for it (false: timed out). */
void drv_shm_publish(uint64_t *word, uint64_t v);
bool drv_shm_await(const uint64_t *word, uint64_t v, uint64_t timeout_ns);

#endif
