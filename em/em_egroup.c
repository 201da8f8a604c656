/*
 * em_egroup.c -- event groups: create, delete, apply, increment, is_ready,
 * current, em_send_group(_multi), processing_end, assign, abort, get_notif,
 * get_first/next; and the notifications every part sends.
 *
 * A group's generation advances at each apply and abort; an event carries the
 * generation it was sent with, so an event of an aborted round never counts
 * in the next one.
 */
#include "em_internal.h"

#include <string.h>

int em_egrp_idx(struct em_shared *sh, em_event_group_t eg)
{
    uintptr_t i = (uintptr_t)eg;
    if (i < 1 || i > EM_MAX_EVENT_GROUPS || !sh->eg[i - 1].used) return -1;
    return (int)i - 1;
}

static em_event_group_t eg_hdl(int i)
{
    return (em_event_group_t)(uintptr_t)(i + 1);
}

em_status_t em_notif_send_locked(struct em_shared *sh, struct em_core *c, int num,
                                 const em_notif_t *tbl)
{
    em_status_t first = EM_OK;
    for (int i = 0; i < num; i++) {
        struct em_ev *ev = (struct em_ev *)(void *)tbl[i].event;
        int qi = em_queue_idx(sh, tbl[i].queue);
        int gi = 0;
        uint64_t gen = 0;
        if (tbl[i].egroup != EM_EVENT_GROUP_UNDEF) {
            int g = em_egrp_idx(sh, tbl[i].egroup);
            if (g >= 0 && sh->eg[g].counting) gi = g + 1, gen = sh->eg[g].gen;
        }
        em_status_t err = (!ev || qi < 0) ? EM_ERR_BAD_ARG
                          : !c            ? EM_ERR_BAD_CONTEXT
                                          : em_enqueue_locked(sh, c, ev, qi);
        if (!err) ev->egrp = gi, ev->egrp_gen = gen;
        if (err && !first) first = err;
    }
    return first;
}

void em_egrp_done_locked(struct em_shared *sh, struct em_core *c, int egrp, uint64_t gen)
{
    if (!egrp) return;
    struct em_egrp *g = &sh->eg[egrp - 1];
    if (!g->used || !g->counting || g->gen != gen) return; /* aborted or reapplied */
    if (--g->count > 0) return;
    g->counting = 0;
    if (em_notif_send_locked(sh, c, g->num_notif, g->notif) != EM_OK) {
        c->deferred = EM_ERR_OPERATION_FAILED;
        c->deferred_escope = EM_ESCOPE_EVENT_GROUP_UPDATE;
    }
}

em_event_group_t em_event_group_create(void)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EVENT_GROUP_CREATE, "not an EM core"),
               EM_EVENT_GROUP_UNDEF;
    int gi = -1;
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i < EM_MAX_EVENT_GROUPS && gi < 0; i++)
        if (!sh->eg[i].used) gi = i;
    if (gi >= 0) {
        uint64_t gen = sh->eg[gi].gen;
        memset(&sh->eg[gi], 0, sizeof(sh->eg[gi]));
        sh->eg[gi].used = 1;
        sh->eg[gi].gen = gen + 1;
    }
    plat_mutex_unlock(&sh->lock);
    if (gi < 0)
        return em_err(EM_ERR_ALLOC_FAILED, EM_ESCOPE_EVENT_GROUP_CREATE,
                      "em_event_group_create: all %d event groups are in use", EM_MAX_EVENT_GROUPS),
               EM_EVENT_GROUP_UNDEF;
    return eg_hdl(gi);
}

em_status_t em_event_group_delete(em_event_group_t event_group)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EVENT_GROUP_DELETE, "not EM core");
    plat_mutex_lock(&sh->lock);
    int gi = em_egrp_idx(sh, event_group);
    em_status_t err = gi < 0 ? EM_ERR_BAD_ID : sh->eg[gi].counting ? EM_ERR_NOT_FREE : EM_OK;
    if (!err) sh->eg[gi].used = 0;
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EVENT_GROUP_DELETE, "em_event_group_delete(%p): %s",
                      (void *)event_group,
                      err == EM_ERR_BAD_ID ? "no such group" : "the group is still counting");
    return EM_OK;
}

em_status_t em_event_group_apply(em_event_group_t event_group, int count, int num_notif,
                                 const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EVENT_GROUP_APPLY, "not EM core");
    if (count <= 0 || num_notif < 0 || num_notif > EM_EVENT_GROUP_MAX_NOTIF ||
        (num_notif && !notif_tbl))
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_GROUP_APPLY,
                      "em_event_group_apply(%p, count %d, num_notif %d): bad argument",
                      (void *)event_group, count, num_notif);
    plat_mutex_lock(&sh->lock);
    int gi = em_egrp_idx(sh, event_group);
    em_status_t err = gi < 0 ? EM_ERR_BAD_ID : sh->eg[gi].counting ? EM_ERR_BAD_STATE : EM_OK;
    if (!err) {
        struct em_egrp *g = &sh->eg[gi];
        g->counting = 1;
        g->count = count;
        g->gen++;
        g->num_notif = num_notif;
        for (int i = 0; i < num_notif; i++) g->notif[i] = notif_tbl[i];
    }
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EVENT_GROUP_APPLY, "em_event_group_apply(%p): %s",
                      (void *)event_group,
                      err == EM_ERR_BAD_ID ? "no such group" : "the group is already counting");
    return EM_OK;
}

em_status_t em_event_group_increment(int count)
{
    struct em_shared *sh = em_sh();
    struct em_core *c = em_self();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EVENT_GROUP_INCREMENT, "not core");
    plat_mutex_lock(&sh->lock);
    em_status_t err = EM_OK;
    if (!c->egrp)
        err = EM_ERR_BAD_CONTEXT;
    else {
        struct em_egrp *g = &sh->eg[c->egrp - 1];
        if (!g->counting || g->gen != c->egrp_gen)
            err = EM_ERR_BAD_STATE;
        else
            g->count += count;
    }
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(
            err, EM_ESCOPE_EVENT_GROUP_INCREMENT, "em_event_group_increment(%d): %s", count,
            err == EM_ERR_BAD_CONTEXT ? "no current event group" : "the current group was aborted");
    return EM_OK;
}

int em_event_group_is_ready(em_event_group_t event_group)
{
    struct em_shared *sh = em_sh();
    int gi = sh ? em_egrp_idx(sh, event_group) : -1;
    if (gi < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_EVENT_GROUP_IS_READY,
               "em_event_group_is_ready(%p): no such group", (void *)event_group);
        return EM_FALSE;
    }
    plat_mutex_lock(&sh->lock);
    int ready = !sh->eg[gi].counting;
    plat_mutex_unlock(&sh->lock);
    return ready ? EM_TRUE : EM_FALSE;
}

em_event_group_t em_event_group_current(void)
{
    struct em_core *c = em_self();
    if (!c || !c->egrp) return EM_EVENT_GROUP_UNDEF;
    struct em_shared *sh = em_sh();
    if (sh->eg[c->egrp - 1].gen != c->egrp_gen) return EM_EVENT_GROUP_UNDEF;
    return eg_hdl(c->egrp - 1);
}

em_status_t em_send_group(em_event_t event, em_queue_t queue, em_event_group_t event_group)
{
    return em_send_one(event, queue, event_group, EM_ESCOPE_SEND_GROUP);
}

int em_send_group_multi(const em_event_t events[], int num, em_queue_t queue,
                        em_event_group_t event_group)
{
    int n = 0;
    if (!events || num < 0)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_SEND_GROUP_MULTI, "bad events/num"), 0;
    while (n < num &&
           em_send_one(events[n], queue, event_group, EM_ESCOPE_SEND_GROUP_MULTI) == EM_OK)
        n++;
    return n;
}

void em_event_group_processing_end(void)
{
    struct em_shared *sh = em_sh();
    struct em_core *c = em_self();
    if (!sh || !c->egrp) return;
    plat_mutex_lock(&sh->lock);
    em_egrp_done_locked(sh, c, c->egrp, c->egrp_gen);
    c->egrp = 0;
    plat_mutex_unlock(&sh->lock);
    em_report_deferred(c);
}

em_status_t em_event_group_assign(em_event_group_t event_group)
{
    struct em_shared *sh = em_sh();
    struct em_core *c = em_self();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EVENT_GROUP_ASSIGN, "not EM core");
    plat_mutex_lock(&sh->lock);
    int gi = em_egrp_idx(sh, event_group);
    em_status_t err = gi < 0                 ? EM_ERR_BAD_ID
                      : c->egrp              ? EM_ERR_BAD_CONTEXT
                      : !sh->eg[gi].counting ? EM_ERR_NOT_CREATED
                                             : EM_OK;
    if (!err) c->egrp = gi + 1, c->egrp_gen = sh->eg[gi].gen;
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EVENT_GROUP_ASSIGN, "em_event_group_assign(%p): %s",
                      (void *)event_group,
                      err == EM_ERR_BAD_ID        ? "no such group"
                      : err == EM_ERR_BAD_CONTEXT ? "the receive already runs in a group"
                                                  : "the group is not applied");
    return EM_OK;
}

em_status_t em_event_group_abort(em_event_group_t event_group)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EVENT_GROUP_ABORT, "not EM core");
    plat_mutex_lock(&sh->lock);
    int gi = em_egrp_idx(sh, event_group);
    em_status_t err = gi < 0 ? EM_ERR_BAD_ID : !sh->eg[gi].counting ? EM_ERR_BAD_STATE : EM_OK;
    if (!err) sh->eg[gi].counting = 0, sh->eg[gi].gen++;
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EVENT_GROUP_ABORT, "em_event_group_abort(%p): %s",
                      (void *)event_group,
                      err == EM_ERR_BAD_ID ? "no such group" : "the group is not counting");
    return EM_OK;
}

int em_event_group_get_notif(em_event_group_t event_group, int max_notif, em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    int gi = sh ? em_egrp_idx(sh, event_group) : -1;
    if (gi < 0 || max_notif < 0 || (max_notif && !notif_tbl)) {
        em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EVENT_GROUP_GET_NOTIF,
               "em_event_group_get_notif(%p, %d): bad argument", (void *)event_group, max_notif);
        return 0;
    }
    plat_mutex_lock(&sh->lock);
    int n = sh->eg[gi].num_notif < max_notif ? sh->eg[gi].num_notif : max_notif;
    for (int i = 0; i < n; i++) notif_tbl[i] = sh->eg[gi].notif[i];
    plat_mutex_unlock(&sh->lock);
    return n;
}

static em_event_group_t iter_from(struct em_shared *sh, struct em_core *c, int from)
{
    for (int i = from; i < EM_MAX_EVENT_GROUPS; i++)
        if (sh->eg[i].used) {
            c->egrp_iter = i + 1;
            return eg_hdl(i);
        }
    c->egrp_iter = EM_MAX_EVENT_GROUPS;
    return EM_EVENT_GROUP_UNDEF;
}

em_event_group_t em_event_group_get_first(unsigned int *num)
{
    struct em_shared *sh = em_sh();
    if (num) *num = 0;
    if (!sh) return EM_EVENT_GROUP_UNDEF;
    if (num)
        for (int i = 0; i < EM_MAX_EVENT_GROUPS; i++) *num += sh->eg[i].used ? 1u : 0u;
    return iter_from(sh, em_self(), 0);
}

em_event_group_t em_event_group_get_next(void)
{
    struct em_shared *sh = em_sh();
    if (!sh) return EM_EVENT_GROUP_UNDEF;
    return iter_from(sh, em_self(), em_self()->egrp_iter);
}

uint64_t em_event_group_to_u64(em_event_group_t event_group)
{
    return (uint64_t)(uintptr_t)event_group;
}
