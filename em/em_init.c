/*
 * em_init.c -- the shared instance: em_conf_init, em_init, em_init_core,
 * em_term_core, em_term, em_core_id, em_core_count, em_device_id.
 */
#include "em_internal.h"

#include <stdio.h>
#include <string.h>

static struct em_shared *map_instance(int *status)
{
    bool created = false;
    return plat_shared_map("em", sizeof(struct em_shared), &created, status);
}

struct em_core *em_self(void)
{
    return *plat_core_slot(PLAT_SLOT_EM);
}

struct em_shared *em_sh(void)
{
    struct em_core *c = em_self();
    if (!c) return NULL;
    return (struct em_shared *)((char *)(c - c->id) - offsetof(struct em_shared, core));
}

void em_conf_init(em_conf_t *conf)
{
    if (!conf) {
        em_err(EM_ERR_BAD_POINTER, EM_ESCOPE_CONF_INIT, "em_conf_init: conf is NULL");
        return;
    }
    memset(conf, 0, sizeof(*conf));
    em_pool_cfg_init(&conf->default_pool_cfg);
    conf->default_pool_cfg.num_subpools = 0; /* the library's default */
    conf->ipcsim.hwq_device = "hwq";
    conf->__internal_check = EM_CONF_MAGIC;
}

/* The default pool when the program leaves num_subpools at 0. */
static void default_pool(em_pool_cfg_t *cfg)
{
    em_pool_cfg_init(cfg);
    cfg->event_type = EM_EVENT_TYPE_SW;
    cfg->num_subpools = 4;
    static const uint32_t size[4] = {256, 1024, 4096, 16384};
    static const uint32_t num[4] = {4096, 1024, 256, 64};
    for (int i = 0; i < 4; i++) {
        cfg->subpool[i].size = size[i];
        cfg->subpool[i].num = num[i];
    }
}

em_pool_t em_pool_create_locked(struct em_shared *sh, const char *name, int idx,
                                const em_pool_cfg_t *cfg, em_status_t *err);

em_status_t em_init(const em_conf_t *conf)
{
    if (!conf || conf->__internal_check != EM_CONF_MAGIC)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_INIT,
                      "em_init: conf not initialised with em_conf_init()");
    /* not bounded by plat_cores(): natively, threads a run did not start
     * become cores as they first call the platform */
    if (conf->core_count < 1 || conf->core_count > EM_MAX_CORES)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_INIT,
                      "em_init: core_count %d not in 1..%d (EM_MAX_CORES)", conf->core_count,
                      EM_MAX_CORES);
    if (conf->event_timer)
        return em_err(EM_ERR_NOT_SUPPORTED, EM_ESCOPE_INIT,
                      "em_init: event_timer %d: no event timer in this EM", conf->event_timer);
    if (conf->ipcsim.sched_mode != EM_IPCSIM_SCHED_INLINE &&
        conf->ipcsim.sched_mode != EM_IPCSIM_SCHED_CORE)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_INIT,
                      "em_init: ipcsim.sched_mode %d: not EM_IPCSIM_SCHED_INLINE (0) or "
                      "EM_IPCSIM_SCHED_CORE (1)",
                      (int)conf->ipcsim.sched_mode);
    if (conf->ipcsim.sched_depth < 0 || conf->ipcsim.sched_depth > EM_IPCSIM_SCHED_DEPTH_MAX)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_INIT,
                      "em_init: ipcsim.sched_depth %d not in 0..%d (EM_IPCSIM_SCHED_DEPTH_MAX)",
                      conf->ipcsim.sched_depth, EM_IPCSIM_SCHED_DEPTH_MAX);
    int st = 0;
    struct em_shared *sh = map_instance(&st);
    if (!sh)
        return em_err(EM_ERR_ALLOC_FAILED, EM_ESCOPE_INIT,
                      "em_init: plat_shared_map(\"em\", %zu): %s", sizeof(*sh), plat_strerror(st));
    if (sh->inited) {
        plat_shared_unmap(sh);
        return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_INIT, "em_init: EM is already initialised");
    }
    const char *dev = conf->ipcsim.hwq_device ? conf->ipcsim.hwq_device : "hwq";
    plat_hwq *hq = plat_hwq_open(dev, &st);
    if (!hq) {
        plat_shared_unmap(sh);
        return em_err(EM_ERR_NOT_FOUND, EM_ESCOPE_INIT, "em_init: plat_hwq_open(\"%s\"): %s", dev,
                      plat_strerror(st));
    }
    memset(sh, 0, sizeof(*sh));
    sh->conf = *conf;
    snprintf(sh->hwq_name, sizeof(sh->hwq_name), "%s", dev);
    sh->conf.ipcsim.hwq_device = NULL; /* the caller's pointer; sh->hwq_name is ours */
    sh->hwq_total = plat_hwq_queues(hq);
    if (sh->hwq_total > sizeof(sh->hwq_used)) sh->hwq_total = sizeof(sh->hwq_used);
    sh->core_count = conf->core_count;
    sh->device_id = conf->device_id;
    sh->sched_core = conf->ipcsim.sched_mode == EM_IPCSIM_SCHED_CORE;
    sh->init_ns = plat_now_ns();
    sh->sched_depth = conf->ipcsim.sched_depth ? (uint32_t)conf->ipcsim.sched_depth : 1;
    sh->preload_bytes = sh->sched_core ? conf->ipcsim.preload_bytes : 0;
    sh->sched_demand = sh->sched_core && conf->ipcsim.sched_on_demand;
    if (sh->sched_core && em_sched_init(sh) != EM_OK) {
        unsigned total = sh->hwq_total;
        plat_shared_unmap(sh);
        return em_err(EM_ERR_TOO_LARGE, EM_ESCOPE_INIT,
                      "em_init: EM_IPCSIM_SCHED_CORE needs a dispatch queue per core and one "
                      "queue more: %d cores, device \"%s\" has %u queues (--set "
                      "devices.%s.queues=N)",
                      conf->core_count, dev, total, dev);
    }
    plat_mutex_init(&sh->lock, 0);
    plat_event_init(&sh->work, 0);
    for (int p = 0; p < EM_QUEUE_PRIO_NUM; p++) sh->prio_head[p] = sh->prio_tail[p] = -1;
    for (int i = 0; i < EM_MAX_CORES; i++) sh->core[i].plat_core = -1, sh->core[i].id = i;
    sh->qgrp[0].used = 1;
    snprintf(sh->qgrp[0].name, sizeof(sh->qgrp[0].name), "%s", EM_QUEUE_GROUP_DEFAULT_NAME);
    em_core_mask_set_count(conf->core_count, &sh->qgrp[0].mask);
    em_pool_cfg_t cfg = conf->default_pool_cfg;
    if (cfg.num_subpools == 0) default_pool(&cfg);
    em_status_t err = EM_OK;
    if (em_pool_create_locked(sh, EM_POOL_DEFAULT_NAME, 0, &cfg, &err) == EM_POOL_UNDEF) {
        plat_shared_unmap(sh);
        return em_err(err, EM_ESCOPE_INIT, "em_init: the default pool could not be created");
    }
    sh->magic = EM_CONF_MAGIC;
    sh->inited = 1;
    return EM_OK;
}

em_status_t em_init_core(void)
{
    if (em_self())
        return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_INIT_CORE,
                      "em_init_core: plat core %d is already EM core %d", plat_core(),
                      em_self()->id);
    int st = 0;
    struct em_shared *sh = map_instance(&st);
    if (!sh || !sh->inited) {
        if (sh) plat_shared_unmap(sh);
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_INIT_CORE,
                      "em_init_core: em_init has not been called");
    }
    plat_hwq *hq = plat_hwq_open(sh->hwq_name, &st);
    if (!hq) {
        plat_shared_unmap(sh);
        return em_err(EM_ERR_NOT_FOUND, EM_ESCOPE_INIT_CORE,
                      "em_init_core: plat_hwq_open(\"%s\"): %s", sh->hwq_name, plat_strerror(st));
    }
    plat_mutex_lock(&sh->lock);
    if (sh->cores_in >= sh->core_count) {
        int n = sh->core_count;
        plat_mutex_unlock(&sh->lock);
        plat_shared_unmap(sh);
        return em_err(EM_ERR_TOO_LARGE, EM_ESCOPE_INIT_CORE,
                      "em_init_core: all %d EM cores (em_conf_t.core_count) are taken", n);
    }
    struct em_core *c = &sh->core[sh->cores_in++];
    int id = c->id;
    unsigned disp = c->disp_hwq; /* reserved by em_init */
    memset(c, 0, sizeof(*c));
    c->id = id;
    c->disp_hwq = disp;
    c->cur_slot = -1;
    c->plat_core = plat_core();
    c->hwq = hq;
    em_eo_core_joined(sh, c);
    plat_mutex_unlock(&sh->lock);
    *plat_core_slot(PLAT_SLOT_EM) = c;
    em_sched_slots_alloc(sh, c);
    return EM_OK;
}

em_status_t em_term_core(void)
{
    struct em_core *c = em_self();
    if (!c)
        return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_TERM_CORE,
                      "em_term_core: plat core %d is not an EM core", plat_core());
    struct em_shared *sh = em_sh();
    em_eo_run_pending(sh, c); /* local stops due here, so that stop_sync elsewhere ends */
    plat_mutex_lock(&sh->lock);
    c->termed = 1; /* the scheduler core assigns no more */
    /* back to their queues, also those whose preload is still in flight */
    for (uint64_t end = plat_now_ns() + 1000000000ull;;) {
        em_sched_purge_locked(sh, c, 1);
        if (!c->assigned || plat_now_ns() >= end) break;
        plat_mutex_unlock(&sh->lock);
        plat_hwq_wait(c->hwq, c->disp_hwq, EM_IDLE_SLICE_NS);
        plat_mutex_lock(&sh->lock);
    }
    if (c->waiting) sh->waiters--, c->waiting = 0;
    if (c->pre_buf) plat_local_free(c->pre_buf);
    c->pre_buf = NULL;
    plat_mutex_unlock(&sh->lock);
    em_sched_slots_free(c);
    plat_event_notify(&sh->work);
    *plat_core_slot(PLAT_SLOT_EM) = NULL;
    plat_shared_unmap(sh);
    return EM_OK;
}

void em_pool_free_all_locked(struct em_shared *sh);

em_status_t em_term(const em_conf_t *conf)
{
    (void)conf;
    int st = 0;
    struct em_shared *sh = map_instance(&st);
    if (!sh || !sh->inited) {
        if (sh) plat_shared_unmap(sh);
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_TERM, "em_term: EM is not initialised");
    }
    plat_mutex_lock(&sh->lock);
    sh->stop = 1; /* ends em_dispatch(0) loops */
    int live = 0;
    for (int i = 0; i < sh->cores_in; i++) live += !sh->core[i].termed;
    plat_mutex_unlock(&sh->lock);
    plat_event_notify(&sh->work);
    if (live) {
        plat_shared_unmap(sh);
        return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_TERM,
                      "em_term: %d EM core(s) have not called em_term_core (their dispatch "
                      "loops are told to stop; call em_term again after)",
                      live);
    }
    /* a scheduler core leaves once it sees stop (inline: none to wait for) */
    uint64_t end = plat_now_ns() + 1000000000ull;
    while (sh->sched_core) {
        plat_mutex_lock(&sh->lock);
        uint32_t epoch = plat_event_epoch(&sh->work);
        int running = sh->sched_running;
        plat_mutex_unlock(&sh->lock);
        if (!running) break;
        if (plat_now_ns() >= end) {
            plat_shared_unmap(sh);
            return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_TERM,
                          "em_term: the scheduler core (em_ipcsim_sched_run) has not returned "
                          "within 1 s of the stop");
        }
        plat_event_wait(&sh->work, epoch, EM_IDLE_SLICE_NS);
    }
    em_pool_free_all_locked(sh);
    plat_event_destroy(&sh->work);
    plat_mutex_destroy(&sh->lock);
    sh->inited = 0;
    plat_shared_unmap(sh); /* this call's mapping */
    plat_shared_unmap(sh); /* em_init's: the last one frees the region */
    return EM_OK;
}

int em_core_id(void)
{
    struct em_core *c = em_self();
    return c ? c->id : -1;
}

int em_core_count(void)
{
    struct em_shared *sh = em_sh();
    return sh ? sh->core_count : 0;
}

uint16_t em_device_id(void)
{
    struct em_shared *sh = em_sh();
    return sh ? sh->device_id : 0;
}
