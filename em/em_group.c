/*
 * em_group.c -- queue groups (em_queue_group_*) and atomic groups
 * (em_atomic_group_*, em_queue_create_ag).
 */
#include "em_internal.h"

#include <stdio.h>
#include <string.h>

em_queue_t em_queue_create_common(const char *name, em_queue_type_t type, em_queue_prio_t prio,
                                  em_queue_group_t group, int agi, const em_queue_conf_t *conf,
                                  em_escope_t escope);

int em_qgrp_idx(struct em_shared *sh, em_queue_group_t g)
{
    if (g == EM_QUEUE_GROUP_DEFAULT) return 0;
    uintptr_t i = (uintptr_t)g;
    if (i < 1 || i > EM_QGROUPS || !sh->qgrp[i].used) return -1;
    return (int)i;
}

static em_queue_group_t qgrp_hdl(int i)
{
    return i == 0 ? EM_QUEUE_GROUP_DEFAULT : (em_queue_group_t)(uintptr_t)i;
}

em_queue_group_t em_queue_group_create(const char *name, const em_core_mask_t *mask, int num_notif,
                                       const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_QUEUE_GROUP_CREATE, "not an EM core"),
               EM_QUEUE_GROUP_UNDEF;
    if (!mask || em_core_mask_iszero(mask) || num_notif < 0 ||
        num_notif > EM_EVENT_GROUP_MAX_NOTIF || (num_notif && !notif_tbl))
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_QUEUE_GROUP_CREATE,
                      "em_queue_group_create(\"%s\"): empty mask or bad notifications",
                      name ? name : ""),
               EM_QUEUE_GROUP_UNDEF;
    plat_mutex_lock(&sh->lock);
    const char *why = NULL;
    int gi = -1;
    for (int i = 1; !why && i <= EM_QGROUPS && gi < 0; i++)
        if (!sh->qgrp[i].used) gi = i;
    if (!why && gi < 0) why = "no queue group left";
    em_status_t nerr = EM_OK;
    if (!why) {
        struct em_qgrp *g = &sh->qgrp[gi];
        memset(g, 0, sizeof(*g));
        g->used = 1;
        snprintf(g->name, sizeof(g->name), "%s", name ? name : "");
        g->mask = *mask;
        nerr = em_notif_send_locked(sh, em_self(), num_notif, notif_tbl);
    }
    plat_mutex_unlock(&sh->lock);
    if (why)
        return em_err(gi < 0 ? EM_ERR_ALLOC_FAILED : EM_ERR_BAD_ARG, EM_ESCOPE_QUEUE_GROUP_CREATE,
                      "em_queue_group_create(\"%s\"): %s", name ? name : "", why),
               EM_QUEUE_GROUP_UNDEF;
    if (nerr)
        em_err(nerr, EM_ESCOPE_QUEUE_GROUP_CREATE,
               "em_queue_group_create: a notification could not be sent");
    return qgrp_hdl(gi);
}

em_queue_group_t em_queue_group_create_sync(const char *name, const em_core_mask_t *mask)
{
    return em_queue_group_create(name, mask, 0, NULL);
}

em_status_t em_queue_group_delete(em_queue_group_t queue_group, int num_notif,
                                  const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_QUEUE_GROUP_DELETE, "not EM core");
    plat_mutex_lock(&sh->lock);
    int gi = em_qgrp_idx(sh, queue_group);
    em_status_t err = EM_OK;
    if (gi <= 0)
        err = gi == 0 ? EM_ERR_BAD_ARG : EM_ERR_BAD_ID;
    else if (sh->qgrp[gi].nqueues)
        err = EM_ERR_BAD_STATE;
    else {
        sh->qgrp[gi].used = 0;
        err = em_notif_send_locked(sh, em_self(), num_notif, notif_tbl);
    }
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_QUEUE_GROUP_DELETE, "em_queue_group_delete(%p): %s",
                      (void *)queue_group,
                      err == EM_ERR_BAD_ARG     ? "the default group cannot be deleted"
                      : err == EM_ERR_BAD_ID    ? "no such group"
                      : err == EM_ERR_BAD_STATE ? "queues still use it"
                                                : "a notification could not be sent");
    return EM_OK;
}

em_status_t em_queue_group_delete_sync(em_queue_group_t queue_group)
{
    return em_queue_group_delete(queue_group, 0, NULL);
}

em_queue_group_t em_queue_group_find(const char *name)
{
    struct em_shared *sh = em_sh();
    if (!sh || !name) return EM_QUEUE_GROUP_UNDEF;
    em_queue_group_t h = EM_QUEUE_GROUP_UNDEF;
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i <= EM_QGROUPS && h == EM_QUEUE_GROUP_UNDEF; i++)
        if (sh->qgrp[i].used && strcmp(sh->qgrp[i].name, name) == 0) h = qgrp_hdl(i);
    plat_mutex_unlock(&sh->lock);
    return h;
}

em_status_t em_queue_group_get_mask(em_queue_group_t queue_group, em_core_mask_t *mask)
{
    struct em_shared *sh = em_sh();
    int gi = sh ? em_qgrp_idx(sh, queue_group) : -1;
    if (gi < 0 || !mask)
        return em_err(EM_ERR_BAD_ID, EM_ESCOPE_QUEUE_GROUP_MASK,
                      "em_queue_group_get_mask(%p): no such group or mask NULL",
                      (void *)queue_group);
    *mask = sh->qgrp[gi].mask;
    return EM_OK;
}

size_t em_queue_group_get_name(em_queue_group_t queue_group, char *name, size_t maxlen)
{
    struct em_shared *sh = em_sh();
    int gi = sh ? em_qgrp_idx(sh, queue_group) : -1;
    if (!name || maxlen == 0) return 0;
    name[0] = '\0';
    if (gi < 0) return 0;
    snprintf(name, maxlen, "%s", sh->qgrp[gi].name);
    return strlen(name);
}

/* ---- atomic groups ------------------------------------------------------ */

static int ag_idx(struct em_shared *sh, em_atomic_group_t ag)
{
    uintptr_t i = (uintptr_t)ag;
    if (i < 1 || i > EM_MAX_ATOMIC_GROUPS || !sh->ag[i - 1].used) return -1;
    return (int)i - 1;
}

em_atomic_group_t em_atomic_group_create(const char *name, em_queue_group_t queue_group)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_ATOMIC_GROUP_CREATE, "not an EM core"),
               EM_ATOMIC_GROUP_UNDEF;
    plat_mutex_lock(&sh->lock);
    int gi = em_qgrp_idx(sh, queue_group), ai = -1;
    const char *why = gi < 0 ? "no such queue group" : NULL;
    for (int i = 0; !why && i < EM_MAX_ATOMIC_GROUPS && ai < 0; i++)
        if (!sh->ag[i].used) ai = i;
    if (!why && ai < 0) why = "no atomic group left";
    if (!why) {
        struct em_agrp *a = &sh->ag[ai];
        memset(a, 0, sizeof(*a));
        a->used = 1;
        a->qgrp = gi;
        snprintf(a->name, sizeof(a->name), "%s", name ? name : "");
        sh->qgrp[gi].nqueues++; /* the group keeps its queue group alive */
    }
    plat_mutex_unlock(&sh->lock);
    if (why)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_ATOMIC_GROUP_CREATE,
                      "em_atomic_group_create(\"%s\"): %s", name ? name : "", why),
               EM_ATOMIC_GROUP_UNDEF;
    return (em_atomic_group_t)(uintptr_t)(ai + 1);
}

em_status_t em_atomic_group_delete(em_atomic_group_t atomic_group)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_ATOMIC_GROUP_DELETE, "not EM core");
    plat_mutex_lock(&sh->lock);
    int ai = ag_idx(sh, atomic_group);
    em_status_t err = ai < 0 ? EM_ERR_BAD_ID : sh->ag[ai].nqueues ? EM_ERR_BAD_STATE : EM_OK;
    if (!err) sh->ag[ai].used = 0, sh->qgrp[sh->ag[ai].qgrp].nqueues--;
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_ATOMIC_GROUP_DELETE, "em_atomic_group_delete(%p): %s",
                      (void *)atomic_group,
                      err == EM_ERR_BAD_ID ? "no such group" : "queues are still in it");
    return EM_OK;
}

em_queue_t em_queue_create_ag(const char *name, em_queue_prio_t prio,
                              em_atomic_group_t atomic_group, const em_queue_conf_t *conf)
{
    struct em_shared *sh = em_sh();
    int ai = sh ? ag_idx(sh, atomic_group) : -1;
    if (ai < 0)
        return em_err(EM_ERR_BAD_ID, EM_ESCOPE_QUEUE_CREATE_AG,
                      "em_queue_create_ag(\"%s\"): no such atomic group %p", name ? name : "",
                      (void *)atomic_group),
               EM_QUEUE_UNDEF;
    int gi = sh->ag[ai].qgrp;
    return em_queue_create_common(name, EM_QUEUE_TYPE_ATOMIC, prio, qgrp_hdl(gi), ai + 1, conf,
                                  EM_ESCOPE_QUEUE_CREATE_AG);
}

em_atomic_group_t em_atomic_group_get(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    if (qi < 0 || !sh->q[qi].agrp) return EM_ATOMIC_GROUP_UNDEF;
    return (em_atomic_group_t)(uintptr_t)sh->q[qi].agrp;
}

size_t em_atomic_group_get_name(em_atomic_group_t atomic_group, char *name, size_t maxlen)
{
    struct em_shared *sh = em_sh();
    int ai = sh ? ag_idx(sh, atomic_group) : -1;
    if (!name || maxlen == 0) return 0;
    name[0] = '\0';
    if (ai < 0) return 0;
    snprintf(name, maxlen, "%s", sh->ag[ai].name);
    return strlen(name);
}

em_atomic_group_t em_atomic_group_find(const char *name)
{
    struct em_shared *sh = em_sh();
    if (!sh || !name) return EM_ATOMIC_GROUP_UNDEF;
    em_atomic_group_t h = EM_ATOMIC_GROUP_UNDEF;
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i < EM_MAX_ATOMIC_GROUPS && h == EM_ATOMIC_GROUP_UNDEF; i++)
        if (sh->ag[i].used && strcmp(sh->ag[i].name, name) == 0)
            h = (em_atomic_group_t)(uintptr_t)(i + 1);
    plat_mutex_unlock(&sh->lock);
    return h;
}

uint64_t em_atomic_group_to_u64(em_atomic_group_t atomic_group)
{
    return (uint64_t)(uintptr_t)atomic_group;
}
