/*
 * em_preload.c -- the ipcsim preload extension (EM_QUEUE_FLAG_IPCSIM_PRELOAD):
 * before a receive, the event's payload is copied by the core's DMA engine
 * into a buffer of its local memory; em_event_pointer returns that copy until
 * the receive sends the event (written back first), frees it (dropped) or
 * returns keeping it (written back). No-op without local memory or DMA.
 */
#include "em_internal.h"

static int can_preload(void)
{
    unsigned caps = plat_core_caps(plat_core());
    return (caps & PLAT_CAP_LOCAL_MEM) && (caps & PLAT_CAP_DMA);
}

static int dma_copy(void *dst, const void *src, size_t n)
{
    plat_dma d;
    if (plat_dma_start(&d, dst, src, n, 0, 0, 0) != PLAT_OK) return -1;
    return plat_dma_wait(&d, PLAT_FOREVER) == PLAT_OK ? 0 : -1;
}

void em_preload_begin(struct em_core *c, struct em_ev *ev)
{
    if (!can_preload() || !plat_dma_reach(ev->payload, ev->size)) return;
    if (c->pre_cap < ev->size) {
        if (c->pre_buf) plat_local_free(c->pre_buf);
        c->pre_buf = plat_local_alloc(ev->size, 64);
        c->pre_cap = c->pre_buf ? ev->size : 0;
        if (!c->pre_buf) return; /* local memory full: the receive reads shared memory */
    }
    if (dma_copy(c->pre_buf, ev->payload, ev->size) == 0) c->pre_ev = ev, c->pre_cur = c->pre_buf;
}

void em_preload_writeback(struct em_core *c, struct em_ev *ev)
{
    if (c->pre_ev != ev) return;
    c->pre_ev = NULL;
    if (dma_copy(ev->payload, c->pre_cur, ev->size) != 0)
        em_err(EM_ERR_OPERATION_FAILED, EM_ESCOPE_IPCSIM_SCHED,
               "preload: the DMA write-back of event %p failed", (void *)ev);
}
