/*
 * em_event.c -- events: em_alloc(_multi), em_free(_multi), em_send(_multi),
 * em_event_pointer(_and_size), em_event_get_size, em_event_get_pool,
 * em_event_set_type, em_event_get_type, em_event_uarea_get, em_event_to_u64.
 */
#include "em_internal.h"

#include <string.h>

static struct em_ev *EV(em_event_t e)
{
    return (struct em_ev *)(void *)e;
}

em_event_t em_alloc(uint32_t size, em_event_type_t type, em_pool_t pool)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_ALLOC, "em_alloc: not an EM core"),
               EM_EVENT_UNDEF;
    if (size == 0)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_ALLOC, "em_alloc: size 0"), EM_EVENT_UNDEF;
    plat_mutex_lock(&sh->lock);
    int pi = em_pool_idx(sh, pool);
    em_status_t err = EM_ERR_BAD_ID;
    struct em_ev *ev = pi < 0 ? NULL : em_ev_alloc_locked(sh, pi, size, &err);
    if (ev) ev->type = type;
    plat_mutex_unlock(&sh->lock);
    if (!ev) {
        em_err(err, EM_ESCOPE_ALLOC,
               err == EM_ERR_BAD_ID      ? "em_alloc(%" PRIu32 ", pool %p): no such pool"
               : err == EM_ERR_TOO_LARGE ? "em_alloc(%" PRIu32
                                           ", pool %p): larger than the largest subpool"
                                         : "em_alloc(%" PRIu32 ", pool %p): the pool is empty",
               size, (void *)pool);
        return EM_EVENT_UNDEF;
    }
    return (em_event_t)(void *)ev;
}

int em_alloc_multi(em_event_t events[], int num, uint32_t size, em_event_type_t type,
                   em_pool_t pool)
{
    int n = 0;
    if (!events || num < 0)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_ALLOC_MULTI, "em_alloc_multi: bad events/num"), 0;
    for (; n < num; n++) {
        events[n] = em_alloc(size, type, pool);
        if (events[n] == EM_EVENT_UNDEF) break;
    }
    return n;
}

/* The state check of EM_CHECK_LEVEL >= 1: who owns the event. */
static const char *state_name(uint64_t st)
{
    return st == EV_FREE ? "already freed" : st == EV_QUEUED ? "already sent" : "held by EM";
}

void em_free(em_event_t event)
{
    struct em_shared *sh = em_sh();
    struct em_ev *ev = EV(event);
    if (!sh) {
        em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_FREE, "em_free: not an EM core");
        return;
    }
    if (!ev) {
        em_err(EM_ERR_BAD_ARG, EM_ESCOPE_FREE, "em_free(EM_EVENT_UNDEF)");
        return;
    }
    struct em_core *c = em_self();
    if (c->pre_ev == ev) c->pre_ev = NULL; /* the local copy is dropped */
    plat_mutex_lock(&sh->lock);
    uint64_t st = ev->state;
    if (EM_CHECK_LEVEL < 1 || st == EV_USER) em_ev_free_locked(sh, ev);
    plat_mutex_unlock(&sh->lock);
    if (EM_CHECK_LEVEL >= 1 && st != EV_USER)
        em_err(EM_ERR_EVENT_STATE, EM_ESCOPE_FREE, "em_free(%p): the event is %s", (void *)ev,
               state_name(st));
}

void em_free_multi(em_event_t events[], int num)
{
    for (int i = 0; events && i < num; i++) em_free(events[i]);
}

em_status_t em_send_one(em_event_t event, em_queue_t queue, em_event_group_t egrp,
                        em_escope_t escope)
{
    struct em_shared *sh = em_sh();
    struct em_ev *ev = EV(event);
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, escope, "em_send: not an EM core");
    if (!ev) return em_err(EM_ERR_BAD_ARG, escope, "em_send(EM_EVENT_UNDEF, %p)", (void *)queue);
    struct em_core *c = em_self();
    if (c->pre_ev == ev) em_preload_writeback(c, ev);
    /* A receive's send to the atomic queue it holds: no other core can take
     * from that queue until this core releases it, so the send waits, in
     * order, on this core and goes in with the release (em_resend_flush). */
    if (egrp == EM_EVENT_GROUP_UNDEF && c->cur_q && c->atomic_q &&
        (uintptr_t)queue == (uintptr_t)c->atomic_q &&
        (EM_CHECK_LEVEL < 1 || ev->state == EV_USER)) {
        ev->egrp = 0;
        ev->egrp_gen = 0;
        ev->held_q = c->atomic_q - 1;
        ev->next = NULL;
        ev->state = EV_QUEUED;
        if (c->resend_tail)
            c->resend_tail->next = ev;
        else
            c->resend_head = ev;
        c->resend_tail = ev;
        return EM_OK;
    }
    plat_mutex_lock(&sh->lock);
    em_status_t err = EM_OK;
    uint64_t st = ev->state;
    int qi = em_queue_idx(sh, queue);
    int gi = 0;
    uint64_t gen = 0;
    if (EM_CHECK_LEVEL >= 1 && st != EV_USER)
        err = EM_ERR_EVENT_STATE;
    else if (qi < 0)
        err = EM_ERR_BAD_ID;
    else if (egrp != EM_EVENT_GROUP_UNDEF) {
        gi = em_egrp_idx(sh, egrp);
        if (gi < 0 || !sh->eg[gi].counting)
            err = EM_ERR_BAD_ID;
        else
            gen = sh->eg[gi].gen, gi++;
    }
    if (!err) err = em_send_locked(sh, c, ev, qi, gi, gen);
    plat_mutex_unlock(&sh->lock);
    if (err == EM_ERR_EVENT_STATE)
        return em_err(err, escope, "send of event %p: the event is %s", (void *)ev, state_name(st));
    if (err == EM_ERR_BAD_ID && qi < 0)
        return em_err(err, escope,
                      "send of event %p to queue %p: no such queue (undefined or "
                      "deleted); the event is still the caller's",
                      (void *)ev, (void *)queue);
    if (err == EM_ERR_BAD_ID)
        return em_err(err, escope,
                      "send of event %p with event group %p: the group is not "
                      "applied (em_event_group_apply)",
                      (void *)ev, (void *)egrp);
    if (err)
        return em_err(err, escope, "send of event %p to queue %p failed (hardware queue full?)",
                      (void *)ev, (void *)queue);
    return EM_OK;
}

em_status_t em_send(em_event_t event, em_queue_t queue)
{
    return em_send_one(event, queue, EM_EVENT_GROUP_UNDEF, EM_ESCOPE_SEND);
}

int em_send_multi(const em_event_t events[], int num, em_queue_t queue)
{
    int n = 0;
    if (!events || num < 0)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_SEND_MULTI, "em_send_multi: bad events/num"), 0;
    while (n < num &&
           em_send_one(events[n], queue, EM_EVENT_GROUP_UNDEF, EM_ESCOPE_SEND_MULTI) == EM_OK)
        n++;
    return n;
}

void *em_event_pointer(em_event_t event)
{
    struct em_ev *ev = EV(event);
    if (!ev) {
        em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_POINTER, "em_event_pointer(EM_EVENT_UNDEF)");
        return NULL;
    }
    struct em_core *c = em_self();
    if (c && c->pre_ev == ev) return c->pre_cur;
    return ev->payload;
}

void *em_event_pointer_and_size(em_event_t event, uint32_t *size)
{
    void *p = em_event_pointer(event);
    if (size) *size = p ? EV(event)->size : 0;
    return p;
}

uint32_t em_event_get_size(em_event_t event)
{
    if (!event) {
        em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_GET_SIZE, "em_event_get_size(EM_EVENT_UNDEF)");
        return 0;
    }
    return EV(event)->size;
}

em_pool_t em_event_get_pool(em_event_t event)
{
    if (!event) return EM_POOL_UNDEF;
    return (em_pool_t)(uintptr_t)(EV(event)->pool + 1);
}

em_status_t em_event_set_type(em_event_t event, em_event_type_t newtype)
{
    if (!event)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_SET_TYPE,
                      "em_event_set_type(EM_EVENT_UNDEF)");
    EV(event)->type = newtype;
    return EM_OK;
}

em_event_type_t em_event_get_type(em_event_t event)
{
    if (!event) {
        em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_GET_TYPE, "em_event_get_type(EM_EVENT_UNDEF)");
        return EM_EVENT_TYPE_UNDEF;
    }
    return EV(event)->type;
}

void *em_event_uarea_get(em_event_t event, size_t *size)
{
    struct em_shared *sh = em_sh();
    struct em_ev *ev = EV(event);
    if (!sh || !ev) {
        if (size) *size = 0;
        em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_UAREA_GET, "em_event_uarea_get: bad event");
        return NULL;
    }
    const em_pool_cfg_t *cfg = &sh->pool[ev->pool].cfg;
    if (size) *size = ev->uarea ? cfg->user_area.size : 0;
    return ev->uarea;
}

uint64_t em_event_to_u64(em_event_t event)
{
    return (uint64_t)(uintptr_t)event;
}
