/*
 * drivers/rx.h -- the DMA driver: receive channels, DMA sends, doorbells.
 *
 * FUNCAPI's HAL is a HIBI PE DMA driver (HPD_SEND configures a transfer to a
 * HIBI address; a receive channel is configured in advance with the buffer
 * the next transfer fills, and msg_recv polls its status). This is that
 * driver on ipcsim/plat.h: a receive channel of a core is plat_rx_*, a send
 * is plat_dma_send to (core, channel). The DMA transport (transport/dma/)
 * reaches the hardware only through these calls.
 */
#ifndef MCAPI_DRIVERS_RX_H
#define MCAPI_DRIVERS_RX_H

#include "ipcsim/plat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Receive channels of the calling core (0: it has no DMA engine). */
unsigned drv_rx_channels(void);
/* Post buf (cap bytes) on channel ch; the fill rings `bell` (0: no ring).
 * PLAT_OK or the plat status. */
int drv_rx_post(unsigned ch, void *buf, size_t cap, uint32_t bell);
/* PLAT_OK with *len (the filled buffer is the caller's again), PLAT_EAGAIN
 * (not yet), PLAT_EINVAL (nothing posted). */
int drv_rx_take(unsigned ch, size_t *len);
int drv_rx_wait(unsigned ch, size_t *len, uint64_t timeout_ns);
/* PLAT_OK: withdrawn; PLAT_EAGAIN: filled meanwhile (take it). */
int drv_rx_cancel(unsigned ch);

/* Queue n bytes from src to channel ch of core on the calling core's
 * engine; d completes when they are written at the receiver. */
int drv_dma_send(plat_dma *d, int core, unsigned ch, const void *src, size_t n);
bool drv_dma_done(plat_dma *d);
bool drv_dma_wait(plat_dma *d, uint64_t timeout_ns);

/* Take the pending doorbell bits of mask: 0 if none (timeout 0: a look). */
uint32_t drv_bell_wait(uint32_t mask, uint64_t timeout_ns);

#endif
