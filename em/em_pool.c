/*
 * em_pool.c -- event pools: em_pool_cfg_init, em_pool_create, em_pool_delete,
 * em_pool_find, em_pool_get_name, em_pool_info, em_pool_get_num_subpools.
 *
 * A subpool is one plat_shared_alloc block of num buffers, each an event
 * header, the user area and the payload; free buffers are a list under the
 * instance lock.
 */
#include "em_internal.h"

#include <stdio.h>
#include <string.h>

void em_pool_cfg_init(em_pool_cfg_t *const pool_cfg)
{
    if (!pool_cfg) {
        em_err(EM_ERR_BAD_POINTER, EM_ESCOPE_POOL_CFG_INIT, "em_pool_cfg_init: NULL");
        return;
    }
    memset(pool_cfg, 0, sizeof(*pool_cfg));
    pool_cfg->event_type = EM_EVENT_TYPE_SW;
    pool_cfg->__internal_check = EM_POOL_CFG_MAGIC;
}

static size_t round16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

static const char *check_cfg(const em_pool_cfg_t *cfg)
{
    if (!cfg) return "pool_cfg is NULL";
    if (cfg->__internal_check != EM_POOL_CFG_MAGIC)
        return "pool_cfg not initialised with em_pool_cfg_init()";
    if (cfg->num_subpools < 1 || cfg->num_subpools > EM_MAX_SUBPOOLS)
        return "num_subpools not in 1..EM_MAX_SUBPOOLS";
    if (cfg->user_area.in_use && cfg->user_area.size > EM_EVENT_USER_AREA_MAX_SIZE)
        return "user_area.size above EM_EVENT_USER_AREA_MAX_SIZE";
    for (int i = 0; i < cfg->num_subpools; i++) {
        if (cfg->subpool[i].size == 0 || cfg->subpool[i].num == 0)
            return "a subpool has size or num 0";
        if (i && cfg->subpool[i].size < cfg->subpool[i - 1].size)
            return "subpool sizes not in increasing order";
    }
    return NULL;
}

static void free_subpools(struct em_pool *p)
{
    for (int s = 0; s < EM_MAX_SUBPOOLS; s++)
        if (p->sp[s].mem) plat_shared_free(p->sp[s].mem), p->sp[s].mem = NULL;
}

/* Build pool idx (the caller holds the lock or is em_init). */
em_pool_t em_pool_create_locked(struct em_shared *sh, const char *name, int idx,
                                const em_pool_cfg_t *cfg, em_status_t *err)
{
    struct em_pool *p = &sh->pool[idx];
    memset(p, 0, sizeof(*p));
    p->cfg = *cfg;
    snprintf(p->name, sizeof(p->name), "%s", name ? name : "");
    size_t ua = cfg->user_area.in_use ? round16(cfg->user_area.size) : 0;
    for (int s = 0; s < cfg->num_subpools; s++) {
        struct em_subpool *sp = &p->sp[s];
        sp->size = cfg->subpool[s].size;
        sp->num = cfg->subpool[s].num;
        size_t stride = round16(sizeof(struct em_ev)) + ua + round16(sp->size);
        sp->mem = plat_shared_alloc(stride * sp->num, 64);
        if (!sp->mem) {
            free_subpools(p);
            *err = EM_ERR_ALLOC_FAILED;
            return EM_POOL_UNDEF;
        }
        for (uint32_t i = sp->num; i-- > 0;) {
            char *b = (char *)sp->mem + stride * i;
            struct em_ev *ev = (struct em_ev *)b;
            ev->uarea = ua ? b + round16(sizeof(struct em_ev)) : NULL;
            ev->payload = b + round16(sizeof(struct em_ev)) + ua;
            ev->pool = idx;
            ev->subpool = s;
            ev->state = EV_FREE;
            ev->next = sp->free;
            sp->free = ev;
        }
    }
    p->used = 1;
    return (em_pool_t)(uintptr_t)(idx + 1);
}

void em_pool_free_all_locked(struct em_shared *sh)
{
    for (int i = 0; i < EM_CONFIG_POOLS; i++)
        if (sh->pool[i].used) free_subpools(&sh->pool[i]), sh->pool[i].used = 0;
}

static int pool_idx(struct em_shared *sh, em_pool_t pool)
{
    uintptr_t i = (uintptr_t)pool;
    if (i < 1 || i > EM_CONFIG_POOLS || !sh->pool[i - 1].used) return -1;
    return (int)i - 1;
}

em_pool_t em_pool_create(const char *name, em_pool_t pool, const em_pool_cfg_t *pool_cfg)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_POOL_CREATE,
                      "em_pool_create: not an EM core"),
               EM_POOL_UNDEF;
    const char *bad = check_cfg(pool_cfg);
    if (bad)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_POOL_CREATE, "em_pool_create(\"%s\"): %s",
                      name ? name : "", bad),
               EM_POOL_UNDEF;
    plat_mutex_lock(&sh->lock);
    int idx = -1;
    em_status_t err = EM_OK;
    const char *why = NULL;
    if (!why && pool != EM_POOL_UNDEF) {
        uintptr_t want = (uintptr_t)pool;
        if (want < 1 || want > EM_CONFIG_POOLS || sh->pool[want - 1].used)
            why = "the requested handle is not free";
        else
            idx = (int)want - 1;
    } else if (!why) {
        for (int i = 1; i < EM_CONFIG_POOLS && idx < 0; i++)
            if (!sh->pool[i].used) idx = i;
        if (idx < 0) why = "all EM_CONFIG_POOLS pools are in use", err = EM_ERR_ALLOC_FAILED;
    }
    em_pool_t h = EM_POOL_UNDEF;
    if (!why) {
        h = em_pool_create_locked(sh, name, idx, pool_cfg, &err);
        if (h == EM_POOL_UNDEF) why = "shared memory is short (plat_shared_alloc)";
    }
    plat_mutex_unlock(&sh->lock);
    if (why)
        em_err(err ? err : EM_ERR_BAD_ARG, EM_ESCOPE_POOL_CREATE, "em_pool_create(\"%s\"): %s",
               name ? name : "", why);
    return h;
}

em_status_t em_pool_delete(em_pool_t pool)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_POOL_DELETE, "not an EM core");
    plat_mutex_lock(&sh->lock);
    int i = pool_idx(sh, pool);
    em_status_t err = EM_OK;
    uint32_t used = 0;
    if (i < 0)
        err = EM_ERR_BAD_ID;
    else if (i == 0)
        err = EM_ERR_BAD_ARG;
    else {
        for (int s = 0; s < EM_MAX_SUBPOOLS; s++) used += sh->pool[i].sp[s].used;
        if (used)
            err = EM_ERR_BAD_STATE;
        else
            free_subpools(&sh->pool[i]), sh->pool[i].used = 0;
    }
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_POOL_DELETE,
                      "em_pool_delete(%p): %s (%" PRIu32 " events allocated)", (void *)pool,
                      err == EM_ERR_BAD_ID    ? "no such pool"
                      : err == EM_ERR_BAD_ARG ? "EM_POOL_DEFAULT is deleted by em_term"
                                              : "events of the pool are still allocated",
                      used);
    return EM_OK;
}

em_pool_t em_pool_find(const char *name)
{
    struct em_shared *sh = em_sh();
    if (!sh || !name) return EM_POOL_UNDEF;
    em_pool_t h = EM_POOL_UNDEF;
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i < EM_CONFIG_POOLS; i++)
        if (sh->pool[i].used && strcmp(sh->pool[i].name, name) == 0)
            h = (em_pool_t)(uintptr_t)(i + 1);
    plat_mutex_unlock(&sh->lock);
    return h;
}

size_t em_pool_get_name(em_pool_t pool, char *name, size_t maxlen)
{
    struct em_shared *sh = em_sh();
    if (!sh || !name || maxlen == 0) return 0;
    name[0] = '\0';
    int i = pool_idx(sh, pool);
    if (i < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_POOL_GET_NAME, "em_pool_get_name(%p): no such pool",
               (void *)pool);
        return 0;
    }
    snprintf(name, maxlen, "%s", sh->pool[i].name);
    return strlen(name);
}

em_status_t em_pool_info(em_pool_t pool, em_pool_info_t *info)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_POOL_INFO, "not an EM core");
    if (!info) return em_err(EM_ERR_BAD_POINTER, EM_ESCOPE_POOL_INFO, "em_pool_info: info NULL");
    plat_mutex_lock(&sh->lock);
    int i = pool_idx(sh, pool);
    if (i >= 0) {
        const struct em_pool *p = &sh->pool[i];
        memset(info, 0, sizeof(*info));
        snprintf(info->name, sizeof(info->name), "%s", p->name);
        info->em_pool = pool;
        info->event_type = p->cfg.event_type;
        info->user_area_size = p->cfg.user_area.in_use ? p->cfg.user_area.size : 0;
        info->num_subpools = p->cfg.num_subpools;
        for (int s = 0; s < p->cfg.num_subpools; s++) {
            info->subpool[s].size = p->sp[s].size;
            info->subpool[s].num = p->sp[s].num;
            info->subpool[s].used = p->sp[s].used;
            info->subpool[s].free = p->sp[s].num - p->sp[s].used;
        }
    }
    plat_mutex_unlock(&sh->lock);
    if (i < 0)
        return em_err(EM_ERR_BAD_ID, EM_ESCOPE_POOL_INFO, "em_pool_info(%p): no such pool",
                      (void *)pool);
    return EM_OK;
}

int em_pool_get_num_subpools(em_pool_t pool)
{
    struct em_shared *sh = em_sh();
    int i = sh ? pool_idx(sh, pool) : -1;
    if (i < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_POOL_NUM_SUBPOOLS,
               "em_pool_get_num_subpools(%p): no such pool", (void *)pool);
        return -1;
    }
    return sh->pool[i].cfg.num_subpools;
}

uint64_t em_pool_to_u64(em_pool_t pool)
{
    return (uint64_t)(uintptr_t)pool;
}

/* With the lock held: a buffer of at least size bytes, or NULL (*err says). */
struct em_ev *em_ev_alloc_locked(struct em_shared *sh, int pi, uint32_t size, em_status_t *err)
{
    struct em_pool *p = &sh->pool[pi];
    *err = EM_ERR_TOO_LARGE;
    for (int s = 0; s < p->cfg.num_subpools; s++) {
        struct em_subpool *sp = &p->sp[s];
        if (sp->size < size) continue;
        *err = EM_ERR_ALLOC_FAILED;
        if (!sp->free) continue;
        struct em_ev *ev = sp->free;
        sp->free = ev->next;
        sp->used++;
        ev->next = NULL;
        ev->state = EV_USER;
        ev->size = size;
        ev->egrp = 0;
        ev->held_q = -1;
        return ev;
    }
    return NULL;
}

void em_ev_free_locked(struct em_shared *sh, struct em_ev *ev)
{
    struct em_subpool *sp = &sh->pool[ev->pool].sp[ev->subpool];
    ev->state = EV_FREE;
    ev->next = sp->free;
    sp->free = ev;
    sp->used--;
}

int em_pool_idx(struct em_shared *sh, em_pool_t pool)
{
    return pool_idx(sh, pool);
}
