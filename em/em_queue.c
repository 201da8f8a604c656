/*
 * em_queue.c -- queues: em_queue_create, em_queue_delete, contexts, getters,
 * em_queue_dequeue(_multi), em_queue_current; and the send path every send
 * goes through (ordered holding, hardware-queue push).
 */
#include "em_internal.h"

#include <stdio.h>
#include <string.h>

int em_queue_idx(struct em_shared *sh, em_queue_t q)
{
    uintptr_t i = (uintptr_t)q;
    if (i < 1 || i > EM_MAX_QUEUES || !sh->q[i - 1].used) return -1;
    return (int)i - 1;
}

static int scheduled(em_queue_type_t t)
{
    return t == EM_QUEUE_TYPE_ATOMIC || t == EM_QUEUE_TYPE_PARALLEL ||
           t == EM_QUEUE_TYPE_PARALLEL_ORDERED;
}

/* The create of em_queue_create and em_queue_create_ag (agi: index + 1). */
em_queue_t em_queue_create_common(const char *name, em_queue_type_t type, em_queue_prio_t prio,
                                  em_queue_group_t group, int agi, const em_queue_conf_t *conf,
                                  em_escope_t escope)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, escope, "em_queue_create: not an EM core"),
               EM_QUEUE_UNDEF;
    if (type == EM_QUEUE_TYPE_OUTPUT)
        return em_err(EM_ERR_NOT_SUPPORTED, escope,
                      "em_queue_create(\"%s\"): EM_QUEUE_TYPE_OUTPUT is not supported",
                      name ? name : ""),
               EM_QUEUE_UNDEF;
    if (type < EM_QUEUE_TYPE_ATOMIC || type > EM_QUEUE_TYPE_LOCAL)
        return em_err(EM_ERR_BAD_TYPE, escope, "em_queue_create(\"%s\"): bad type %" PRIu32,
                      name ? name : "", type),
               EM_QUEUE_UNDEF;
    if (scheduled(type) && prio >= EM_QUEUE_PRIO_NUM)
        return em_err(EM_ERR_BAD_ARG, escope,
                      "em_queue_create(\"%s\"): priority %" PRIu32 " not in 0..%d",
                      name ? name : "", prio, EM_QUEUE_PRIO_NUM - 1),
               EM_QUEUE_UNDEF;
    plat_mutex_lock(&sh->lock);
    const char *why = NULL;
    em_status_t err = EM_ERR_BAD_ARG;
    int gi = 0, qi = -1;
    unsigned hq = 0;
    if (scheduled(type)) {
        gi = em_qgrp_idx(sh, group);
        if (gi < 0) why = "no such queue group";
    }
    for (int i = 0; !why && i < EM_MAX_QUEUES && qi < 0; i++)
        if (!sh->q[i].used) qi = i;
    if (!why && qi < 0) why = "all EM_MAX_QUEUES queues are in use", err = EM_ERR_ALLOC_FAILED;
    if (!why && type != EM_QUEUE_TYPE_LOCAL) {
        unsigned h = 0;
        while (h < sh->hwq_total && sh->hwq_used[h]) h++;
        if (h == sh->hwq_total)
            why = "", err = EM_ERR_ALLOC_FAILED;
        else
            hq = h;
    }
    if (!why) {
        struct em_queue *q = &sh->q[qi];
        memset(q, 0, sizeof(*q));
        q->used = 1;
        snprintf(q->name, sizeof(q->name), "%s", name ? name : "");
        q->type = type;
        q->prio = scheduled(type) ? prio : EM_QUEUE_PRIO_UNDEF;
        q->qgrp = gi;
        q->agrp = agi;
        q->flags = conf ? conf->flags : 0;
        q->next_prio = -1;
        if (type != EM_QUEUE_TYPE_LOCAL) q->hwq = hq, sh->hwq_used[hq] = 1;
        if (scheduled(type)) sh->qgrp[gi].nqueues++;
        if (agi) sh->ag[agi - 1].nqueues++;
        if (scheduled(type)) em_sched_add_queue(sh, qi);
    }
    unsigned total = sh->hwq_total;
    plat_mutex_unlock(&sh->lock);
    if (why && !*why)
        return em_err(EM_ERR_ALLOC_FAILED, escope,
                      "em_queue_create(\"%s\"): all %u queues of hardware queue device \"%s\" "
                      "are in use; raise the count with --set devices.%s.queues=N "
                      "(simulation) or the same setting of the native device",
                      name ? name : "", total, sh->hwq_name, sh->hwq_name),
               EM_QUEUE_UNDEF;
    if (why)
        return em_err(err, escope, "em_queue_create(\"%s\"): %s", name ? name : "", why),
               EM_QUEUE_UNDEF;
    return em_queue_hdl(qi);
}

em_queue_t em_queue_create(const char *name, em_queue_type_t type, em_queue_prio_t prio,
                           em_queue_group_t group, const em_queue_conf_t *conf)
{
    return em_queue_create_common(name, type, prio, group, 0, conf, EM_ESCOPE_QUEUE_CREATE);
}

em_status_t em_queue_delete(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_QUEUE_DELETE, "not an EM core");
    plat_mutex_lock(&sh->lock);
    int qi = em_queue_idx(sh, queue);
    const char *why = NULL;
    em_status_t err = EM_ERR_BAD_STATE;
    uint64_t n = 0;
    if (qi < 0)
        why = "no such queue", err = EM_ERR_BAD_ID;
    else if (sh->q[qi].eo)
        why = "the queue is still in an EO (em_eo_remove_queue first)";
    else if ((n = sh->q[qi].nqueued) != 0)
        why = "the queue holds events";
    else if ((n = sh->q[qi].nassigned) != 0)
        why = "events of the queue wait in a core's dispatch queue";
    else if (sh->q[qi].held || (sh->q[qi].type == EM_QUEUE_TYPE_PARALLEL_ORDERED &&
                                sh->q[qi].release != sh->q[qi].next_ticket))
        why = "an event of the queue is in receive";
    if (!why) {
        struct em_queue *q = &sh->q[qi];
        if (scheduled(q->type)) em_sched_remove_queue(sh, qi), sh->qgrp[q->qgrp].nqueues--;
        if (q->agrp) sh->ag[q->agrp - 1].nqueues--;
        if (q->type != EM_QUEUE_TYPE_LOCAL) sh->hwq_used[q->hwq] = 0;
        q->used = 0;
    }
    plat_mutex_unlock(&sh->lock);
    if (why)
        return em_err(err, EM_ESCOPE_QUEUE_DELETE,
                      "em_queue_delete(%p): %s (%" PRIu64 " events queued)", (void *)queue, why, n);
    return EM_OK;
}

em_status_t em_queue_set_context(em_queue_t queue, const void *context)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    if (qi < 0)
        return em_err(EM_ERR_BAD_ID, EM_ESCOPE_QUEUE_SET_CONTEXT,
                      "em_queue_set_context(%p): no such queue", (void *)queue);
    sh->q[qi].ctx = (void *)(uintptr_t)context;
    return EM_OK;
}

void *em_queue_get_context(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    if (qi < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_QUEUE_GET_CONTEXT,
               "em_queue_get_context(%p): no such queue", (void *)queue);
        return NULL;
    }
    return sh->q[qi].ctx;
}

size_t em_queue_get_name(em_queue_t queue, char *name, size_t maxlen)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    if (!name || maxlen == 0) return 0;
    name[0] = '\0';
    if (qi < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_QUEUE_GET_NAME, "em_queue_get_name(%p): no such queue",
               (void *)queue);
        return 0;
    }
    snprintf(name, maxlen, "%s", sh->q[qi].name);
    return strlen(name);
}

em_queue_t em_queue_find(const char *name)
{
    struct em_shared *sh = em_sh();
    if (!sh || !name || !*name) return EM_QUEUE_UNDEF;
    em_queue_t h = EM_QUEUE_UNDEF;
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i < EM_MAX_QUEUES && h == EM_QUEUE_UNDEF; i++)
        if (sh->q[i].used && strcmp(sh->q[i].name, name) == 0) h = em_queue_hdl(i);
    plat_mutex_unlock(&sh->lock);
    return h;
}

em_queue_prio_t em_queue_get_priority(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    return qi < 0 ? EM_QUEUE_PRIO_UNDEF : sh->q[qi].prio;
}

em_queue_type_t em_queue_get_type(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    return qi < 0 ? EM_QUEUE_TYPE_UNDEF : sh->q[qi].type;
}

em_queue_group_t em_queue_get_group(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    int qi = sh ? em_queue_idx(sh, queue) : -1;
    if (qi < 0 || !scheduled(sh->q[qi].type)) return EM_QUEUE_GROUP_UNDEF;
    int g = sh->q[qi].qgrp;
    return g == 0 ? EM_QUEUE_GROUP_DEFAULT : (em_queue_group_t)(uintptr_t)g;
}

em_event_t em_queue_dequeue(em_queue_t queue)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_QUEUE_DEQUEUE, "not an EM core"),
               EM_EVENT_UNDEF;
    struct em_core *c = em_self();
    plat_mutex_lock(&sh->lock);
    int qi = em_queue_idx(sh, queue);
    struct em_ev *ev = NULL;
    int bad = qi < 0 ? 1 : sh->q[qi].type != EM_QUEUE_TYPE_UNSCHEDULED ? 2 : 0;
    if (!bad && sh->q[qi].nqueued) {
        ev = plat_hwq_pop(c->hwq, sh->q[qi].hwq);
        if (ev) sh->q[qi].nqueued--, ev->state = EV_USER;
    }
    plat_mutex_unlock(&sh->lock);
    if (bad)
        return em_err(bad == 1 ? EM_ERR_BAD_ID : EM_ERR_BAD_TYPE, EM_ESCOPE_QUEUE_DEQUEUE,
                      "em_queue_dequeue(%p): %s", (void *)queue,
                      bad == 1 ? "no such queue" : "not an unscheduled queue"),
               EM_EVENT_UNDEF;
    return (em_event_t)(void *)ev;
}

int em_queue_dequeue_multi(em_queue_t queue, em_event_t events[], int num)
{
    int n = 0;
    while (events && n < num) {
        em_event_t e = em_queue_dequeue(queue);
        if (e == EM_EVENT_UNDEF) break;
        events[n++] = e;
    }
    return n;
}

em_queue_t em_queue_current(void)
{
    struct em_core *c = em_self();
    return c && c->cur_q ? em_queue_hdl(c->cur_q - 1) : EM_QUEUE_UNDEF;
}

uint32_t em_queue_to_u32(em_queue_t queue)
{
    return (uint32_t)(uintptr_t)queue;
}

/* ---- the send path (lock held) ------------------------------------------ */

/* A full queue: as for an ordered send held until its turn, the event is
 * freed and the error reported (em_send returned EM_OK long ago). */
void em_resend_flush_locked(struct em_shared *sh, struct em_core *c)
{
    struct em_ev *ev = c->resend_head;
    c->resend_head = c->resend_tail = NULL;
    while (ev) {
        struct em_ev *next = ev->next;
        ev->state = EV_USER;
        if (em_enqueue_locked(sh, c, ev, ev->held_q) != EM_OK) {
            em_ev_free_locked(sh, ev);
            c->deferred = EM_ERR_OPERATION_FAILED;
            c->deferred_escope = EM_ESCOPE_SEND;
        }
        ev = next;
    }
}

em_status_t em_enqueue_locked(struct em_shared *sh, struct em_core *c, struct em_ev *ev, int qi)
{
    /* the kept re-sends go first: a send of this core's seen by another core
     * (which may answer to the held queue) must not overtake them */
    if (c->resend_head) em_resend_flush_locked(sh, c);
    struct em_queue *q = &sh->q[qi];
    if (!q->used) return EM_ERR_BAD_ID;
    if (q->type == EM_QUEUE_TYPE_LOCAL) {
        ev->next = NULL;
        ev->held_q = qi;
        if (c->local_tail)
            c->local_tail->next = ev;
        else
            c->local_head = ev;
        c->local_tail = ev;
    } else if (plat_hwq_push(c->hwq, q->hwq, ev) != PLAT_OK) {
        return EM_ERR_OPERATION_FAILED;
    }
    ev->state = EV_QUEUED;
    q->nqueued++;
    em_wake_locked(sh);
    return EM_OK;
}

em_status_t em_send_locked(struct em_shared *sh, struct em_core *c, struct em_ev *ev, int qi,
                           int egrp, uint64_t gen)
{
    ev->egrp = egrp;
    ev->egrp_gen = gen;
    if (c->ordered_q) {
        struct em_queue *oq = &sh->q[c->ordered_q - 1];
        if (c->ticket != oq->release) {
            /* earlier events of the ordered queue are still in receive */
            struct em_order_slot *s = &oq->slot[c->ticket % EM_ORDER_WINDOW];
            ev->held_q = qi;
            ev->next = NULL;
            ev->state = EV_HELD;
            if (s->tail)
                s->tail->next = ev;
            else
                s->head = ev;
            s->tail = ev;
            return EM_OK;
        }
    }
    em_status_t err = em_enqueue_locked(sh, c, ev, qi);
    if (err) ev->egrp = 0;
    return err;
}

/* Push a ticket's held sends in their order. A destination deleted meanwhile
 * or full: the event is freed and the error reported (it cannot go back to a
 * receive that has returned). */
static void flush_slot(struct em_shared *sh, struct em_core *c, struct em_order_slot *s)
{
    while (s->head) {
        struct em_ev *ev = s->head;
        s->head = ev->next;
        ev->state = EV_USER;
        if (em_enqueue_locked(sh, c, ev, ev->held_q) != EM_OK) {
            em_ev_free_locked(sh, ev);
            c->deferred = EM_ERR_OPERATION_FAILED;
            c->deferred_escope = EM_ESCOPE_IPCSIM_SCHED;
        }
    }
    s->tail = NULL;
}

void em_ordered_end_locked(struct em_shared *sh, struct em_core *c)
{
    if (!c->ordered_q) return;
    struct em_queue *q = &sh->q[c->ordered_q - 1];
    q->slot[c->ticket % EM_ORDER_WINDOW].done = 1;
    c->ordered_q = 0;
    while (q->release != q->next_ticket) {
        struct em_order_slot *s = &q->slot[q->release % EM_ORDER_WINDOW];
        flush_slot(sh, c, s);
        if (!s->done) break;
        s->done = 0;
        q->release++;
    }
    if (q->release != q->next_ticket) flush_slot(sh, c, &q->slot[q->release % EM_ORDER_WINDOW]);
    em_wake_locked(sh);
}
