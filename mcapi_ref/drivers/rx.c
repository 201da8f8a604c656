/*
 * drivers/rx.c -- the DMA driver on the platform interface.
 *
 * One plat.h call each: in simulation a post or a send is the descriptor
 * write of the model's DMA engine, a take is a status read, a wait polls
 * the status; natively they are the software receive channels. Nothing
 * here spins in host code.
 */
#include "rx.h"

unsigned drv_rx_channels(void)
{
    return plat_rx_channels();
}

int drv_rx_post(unsigned ch, void *buf, size_t cap, uint32_t bell)
{
    return plat_rx_post(ch, buf, cap, bell);
}

int drv_rx_take(unsigned ch, size_t *len)
{
    return plat_rx_take(ch, len);
}

int drv_rx_wait(unsigned ch, size_t *len, uint64_t timeout_ns)
{
    return plat_rx_wait(ch, len, timeout_ns);
}

int drv_rx_cancel(unsigned ch)
{
    return plat_rx_cancel(ch);
}

int drv_dma_send(plat_dma *d, int core, unsigned ch, const void *src, size_t n)
{
    return plat_dma_send(d, core, ch, src, n);
}

bool drv_dma_done(plat_dma *d)
{
    return plat_dma_test(d) == PLAT_OK;
}

bool drv_dma_wait(plat_dma *d, uint64_t timeout_ns)
{
    return plat_dma_wait(d, timeout_ns) == PLAT_OK;
}

uint32_t drv_bell_wait(uint32_t mask, uint64_t timeout_ns)
{
    return plat_doorbell_wait(mask, timeout_ns);
}
