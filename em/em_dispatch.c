/*
 * em_dispatch.c -- the scheduler and the dispatch loop: em_dispatch and its
 * duration/ns/events/rounds forms, enter/exit callbacks,
 * em_atomic_processing_end, em_ordered_processing_end, em_preschedule,
 * em_sched_context_type_current.
 *
 * Scheduling runs inline on each dispatching core (EM_IPCSIM_SCHED_INLINE):
 * under the instance lock it walks the priority lists from the highest,
 * takes the first queue that has events, belongs to an EO this core may
 * receive for, has this core in its queue group, and is free to give an event
 * (atomic: not held, nor its atomic group; ordered: fewer than EM_ORDER_WINDOW
 * tickets in flight), pops the event from the queue's hardware queue and
 * moves the queue to the tail of its list (round-robin within a priority).
 * With EM_IPCSIM_SCHED_CORE the same function runs on the scheduler core
 * (em_sched.c) and a dispatcher takes its assignments instead.
 */
#include "em_internal.h"

#include <string.h>

void em_preload_begin(struct em_core *c, struct em_ev *ev);

void em_sched_add_queue(struct em_shared *sh, int qi)
{
    struct em_queue *q = &sh->q[qi];
    int p = (int)q->prio;
    q->next_prio = -1;
    if (sh->prio_tail[p] >= 0)
        sh->q[sh->prio_tail[p]].next_prio = qi;
    else
        sh->prio_head[p] = qi;
    sh->prio_tail[p] = qi;
    q->in_list = 1;
}

void em_sched_remove_queue(struct em_shared *sh, int qi)
{
    struct em_queue *q = &sh->q[qi];
    if (!q->in_list) return;
    int p = (int)q->prio, prev = -1;
    for (int i = sh->prio_head[p]; i >= 0; prev = i, i = sh->q[i].next_prio) {
        if (i != qi) continue;
        if (prev >= 0)
            sh->q[prev].next_prio = q->next_prio;
        else
            sh->prio_head[p] = q->next_prio;
        if (sh->prio_tail[p] == qi) sh->prio_tail[p] = prev;
        break;
    }
    q->in_list = 0;
    q->next_prio = -1;
}

static int ready(const struct em_shared *sh, const struct em_queue *q, int core)
{
    if (!q->nqueued || !q->eo || !em_eo_dispatchable(sh, q->eo - 1, core)) return 0;
    if (!em_core_mask_isset(core, &sh->qgrp[q->qgrp].mask)) return 0;
    if (q->type == EM_QUEUE_TYPE_ATOMIC) return !q->held && !(q->agrp && sh->ag[q->agrp - 1].held);
    if (q->type == EM_QUEUE_TYPE_PARALLEL_ORDERED)
        return q->next_ticket - q->release < EM_ORDER_WINDOW;
    return 1;
}

/* A local-queue event for this core whose EO may run here (FIFO). */
int em_pick_local(struct em_shared *sh, struct em_core *c)
{
    struct em_ev *prev = NULL;
    for (struct em_ev *ev = c->local_head; ev; prev = ev, ev = ev->next) {
        struct em_queue *q = &sh->q[ev->held_q];
        if (!q->used || !q->eo || !em_eo_dispatchable(sh, q->eo - 1, c->id)) continue;
        if (prev)
            prev->next = ev->next;
        else
            c->local_head = ev->next;
        if (c->local_tail == ev) c->local_tail = prev;
        ev->next = NULL;
        q->nqueued--;
        c->cur_ev[0] = ev;
        c->ncur = 1;
        return ev->held_q;
    }
    return -1;
}

/* Pick and pop (lock held): the queue index, or -1 with nothing ready. */
int em_schedule(struct em_shared *sh, struct em_core *c)
{
    int qi = em_pick_local(sh, c);
    if (qi >= 0) return qi;
    for (int p = EM_QUEUE_PRIO_NUM - 1; p >= 0; p--) {
        for (int i = sh->prio_head[p]; i >= 0; i = sh->q[i].next_prio) {
            struct em_queue *q = &sh->q[i];
            if (!ready(sh, q, c->id)) continue;
            /* a multircv EO gets up to its max_events of one queue per call */
            int max = sh->eo[q->eo - 1].receive_multi ? sh->eo[q->eo - 1].max_events : 1;
            if (q->type == EM_QUEUE_TYPE_PARALLEL_ORDERED) max = 1;
            int n = 0;
            while (n < max && q->nqueued) {
                struct em_ev *ev = plat_hwq_pop(c->hwq, q->hwq);
                if (!ev) break;
                q->nqueued--;
                c->cur_ev[n++] = ev;
            }
            if (n == 0) continue;
            c->ncur = n;
            if (q->type == EM_QUEUE_TYPE_ATOMIC) {
                q->held = 1;
                if (q->agrp) sh->ag[q->agrp - 1].held = 1;
                c->atomic_q = i + 1;
            } else if (q->type == EM_QUEUE_TYPE_PARALLEL_ORDERED) {
                c->ordered_q = i + 1;
                c->ticket = q->next_ticket++;
                struct em_order_slot *s = &q->slot[c->ticket % EM_ORDER_WINDOW];
                s->done = 0;
                s->head = s->tail = NULL;
            }
            /* round-robin: the queue goes behind the others of its priority */
            em_sched_remove_queue(sh, i);
            em_sched_add_queue(sh, i);
            return i;
        }
    }
    return -1;
}

void em_atomic_release_locked(struct em_shared *sh, struct em_core *c)
{
    c->release_due = 0;
    if (c->resend_head) em_resend_flush_locked(sh, c);
    if (!c->atomic_q) return;
    struct em_queue *q = &sh->q[c->atomic_q - 1];
    q->held = 0;
    if (q->agrp) sh->ag[q->agrp - 1].held = 0;
    c->atomic_q = 0;
    em_wake_locked(sh);
}

static int output_drains(struct em_shared *sh, struct em_core *c, const em_dispatch_opt_t *opt)
{
    return sh->conf.output.output_drain_fn && !opt->skip_output_drain &&
           (em_core_mask_iszero(&sh->conf.output.output_drain_mask) ||
            em_core_mask_isset(c->id, &sh->conf.output.output_drain_mask));
}

static void output_drain(struct em_shared *sh, struct em_core *c, const em_dispatch_opt_t *opt)
{
    if (output_drains(sh, c, opt)) sh->conf.output.output_drain_fn();
}

/* The atomic context a receive left held (release_due), released now:
 * before user code outside a receive runs, and when em_dispatch returns. */
static void release_now(struct em_shared *sh, struct em_core *c)
{
    if (!c->release_due) return;
    plat_mutex_lock(&sh->lock);
    em_atomic_release_locked(sh, c);
    plat_mutex_unlock(&sh->lock);
    em_report_deferred(c);
}

/* One round: the events received (0: idle; an idle round waits up to wait_ns
 * for work). */
static int round_once(struct em_shared *sh, struct em_core *c, const em_dispatch_opt_t *opt,
                      uint64_t wait_ns)
{
    int pending = plat_load64(&c->pending_ops) != 0;
    int poll = sh->conf.input.input_poll_fn && !opt->skip_input_poll &&
               (em_core_mask_iszero(&sh->conf.input.input_poll_mask) ||
                em_core_mask_isset(c->id, &sh->conf.input.input_poll_mask));
    if (pending || poll) release_now(sh, c);
    if (pending) em_eo_run_pending(sh, c);
    if (poll) sh->conf.input.input_poll_fn();
    plat_mutex_lock(&sh->lock);
    if (c->release_due) em_atomic_release_locked(sh, c);
    if (c->waiting) sh->waiters--, c->waiting = 0;
    uint32_t epoch = plat_event_epoch(&sh->work);
    int qi = sh->sched_core ? em_sched_take_locked(sh, c) : em_schedule(sh, c);
    /* idle cores may be waiting for the queue: then it is released at once;
     * so it is with a scheduler core, which may be waiting for it */
    int keep = !sh->waiters && !sh->sched_core;
    /* filled for the c->ncur events taken, read for no others: zeroing them
     * (a 384-byte rep stos) was a sixth of a round */
    int egrp[EM_EO_MULTIRCV_MAX_EVENTS];
    uint64_t gen[EM_EO_MULTIRCV_MAX_EVENTS];
    egrp[0] = 0, gen[0] = 0;
    em_receive_func_t receive = NULL;
    em_receive_multi_func_t receive_multi = NULL;
    void *eo_ctx = NULL;
    struct em_queue *q = qi >= 0 ? &sh->q[qi] : NULL;
    if (q) {
        const struct em_eo *e = &sh->eo[q->eo - 1];
        receive = e->receive, receive_multi = e->receive_multi, eo_ctx = e->ctx;
        for (int i = 0; i < c->ncur; i++) {
            c->cur_ev[i]->state = EV_USER;
            egrp[i] = c->cur_ev[i]->egrp;
            gen[i] = c->cur_ev[i]->egrp_gen;
            c->cur_ev[i]->egrp = 0;
        }
        c->cur_eo = q->eo;
        c->cur_q = qi + 1;
        c->egrp = egrp[0];
        c->egrp_gen = gen[0];
    } else {
        /* counted before the lock is released: a send from now on wakes us */
        sh->waiters++, c->waiting = 1;
    }
    /* assigned but not arrived: a preload the scheduler core started, whose
     * completion pushes it into the dispatch queue and notifies no event */
    int inflight = !q && sh->sched_core && c->assigned;
    plat_mutex_unlock(&sh->lock);
    em_report_deferred(c);
    if (!q) {
        if (sh->sched_core) em_sched_check_missing(sh, c);
        output_drain(sh, c, opt);
        if (inflight)
            plat_hwq_wait(c->hwq, c->disp_hwq, wait_ns);
        else
            plat_event_wait(&sh->work, epoch, wait_ns);
        return 0;
    }
    int n = c->ncur;
    em_event_t evs[EM_EO_MULTIRCV_MAX_EVENTS];
    for (int i = 0; i < n; i++) evs[i] = (em_event_t)(void *)c->cur_ev[i];
    /* with a scheduler core, it may have preloaded the event already */
    if ((q->flags & EM_QUEUE_FLAG_IPCSIM_PRELOAD) && !c->pre_ev) em_preload_begin(c, c->cur_ev[0]);
    em_queue_t qh = em_queue_hdl(qi);
    void *q_ctx = q->ctx;
    em_eo_t eoh = (em_eo_t)(uintptr_t)c->cur_eo;
    for (int k = 0; k < EM_CALLBACKS_MAX; k++)
        if (sh->enter_cb[k]) sh->enter_cb[k](eoh, &eo_ctx, evs, n, &qh, &q_ctx);
    if (receive_multi) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (evs[i] != EM_EVENT_UNDEF) evs[m++] = evs[i];
        if (m) receive_multi(eo_ctx, evs, m, qh, q_ctx);
    } else if (evs[0] != EM_EVENT_UNDEF) {
        receive(eo_ctx, evs[0], em_event_get_type(evs[0]), qh, q_ctx);
    }
    for (int k = 0; k < EM_CALLBACKS_MAX; k++)
        if (sh->exit_cb[k]) sh->exit_cb[k](eoh);
    if (c->pre_ev) em_preload_writeback(c, c->pre_ev); /* the receiver kept it */
    /* The receive re-sent to the atomic queue it holds (so this core is the
     * likely next taker), nothing else to end, no user code before the next
     * round's schedule and no core idle when this one scheduled: that
     * schedule releases it. Releasing so late in general made
     * em/examples/ordered.c (whose atomic receive sends nothing) 30-67 %
     * slower on 8 simulated cores. */
    int lazy = c->resend_head && keep && !c->ordered_q && !c->egrp && !output_drains(sh, c, opt);
    for (int i = 1; lazy && i < n; i++) lazy = !egrp[i];
    if (lazy) {
        c->release_due = c->atomic_q != 0;
        c->cur_eo = c->cur_q = 0;
        c->ncur = 0;
        return n;
    }
    plat_mutex_lock(&sh->lock);
    em_sched_slot_done_locked(c);
    em_atomic_release_locked(sh, c);
    em_ordered_end_locked(sh, c);
    if (c->egrp) em_egrp_done_locked(sh, c, c->egrp, c->egrp_gen);
    for (int i = 1; i < n; i++) em_egrp_done_locked(sh, c, egrp[i], gen[i]);
    c->egrp = 0;
    c->cur_eo = c->cur_q = 0;
    c->ncur = 0;
    plat_mutex_unlock(&sh->lock);
    em_report_deferred(c);
    output_drain(sh, c, opt);
    return n;
}

void em_dispatch_opt_init(em_dispatch_opt_t *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof(*opt));
    opt->burst_size = 1;
    opt->__internal_check = EM_DISPATCH_OPT_MAGIC;
}

em_status_t em_dispatch_duration(const em_dispatch_duration_t *duration,
                                 const em_dispatch_opt_t *opt, em_dispatch_results_t *results)
{
    struct em_shared *sh = em_sh();
    struct em_core *c = em_self();
    if (results) memset(results, 0, sizeof(*results));
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_DISPATCH_DURATION,
                      "em_dispatch: plat core %d is not an EM core (em_init_core)", plat_core());
    if (c->cur_eo)
        return em_err(EM_ERR_BAD_CONTEXT, EM_ESCOPE_DISPATCH_DURATION,
                      "em_dispatch: called from inside a receive or EO function");
    if (!duration || duration->select >= EM_DISPATCH_DURATION_LAST)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_DISPATCH_DURATION,
                      "em_dispatch_duration: duration NULL or select %d out of range",
                      duration ? (int)duration->select : -1);
    em_dispatch_opt_t dflt;
    em_dispatch_opt_init(&dflt);
    if (!opt) opt = &dflt;
    if (opt->__internal_check != EM_DISPATCH_OPT_MAGIC ||
        opt->burst_size > EM_EO_MULTIRCV_MAX_EVENTS)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_DISPATCH_DURATION,
                      "em_dispatch_duration: opt not initialised with em_dispatch_opt_init() or "
                      "burst_size above %d",
                      EM_EO_MULTIRCV_MAX_EVENTS);
    unsigned sel = duration->select;
    uint64_t t0 = plat_now_ns(), last_ev = t0, rounds = 0, events = 0, idle_rounds = 0;
    uint64_t slice = opt->wait_ns ? opt->wait_ns : EM_IDLE_SLICE_NS;
    /* the clock is read only when a limit needs it (a read per round costs) */
    int timed = (sel & (EM_DISPATCH_DURATION_NS | EM_DISPATCH_DURATION_NO_EVENTS_NS)) != 0;
    for (;;) {
        uint64_t now = timed ? plat_now_ns() : t0;
        if ((sel & EM_DISPATCH_DURATION_ROUNDS) && rounds >= duration->rounds) break;
        if ((sel & EM_DISPATCH_DURATION_NS) && now - t0 >= duration->ns) break;
        if ((sel & EM_DISPATCH_DURATION_EVENTS) && events >= duration->events) break;
        if ((sel & EM_DISPATCH_DURATION_NO_EVENTS_ROUNDS) &&
            idle_rounds >= duration->no_events.rounds)
            break;
        if ((sel & EM_DISPATCH_DURATION_NO_EVENTS_NS) && now - last_ev >= duration->no_events.ns)
            break;
        if (sel == EM_DISPATCH_DURATION_FOREVER && sh->stop) break;
        uint64_t wait = slice;
        if ((sel & EM_DISPATCH_DURATION_NS) && duration->ns - (now - t0) < wait)
            wait = duration->ns - (now - t0);
        int n = round_once(sh, c, opt, wait);
        rounds++;
        events += (uint64_t)n;
        if (n)
            idle_rounds = 0, last_ev = timed ? plat_now_ns() : t0;
        else
            idle_rounds++;
    }
    release_now(sh, c);
    if (results) results->rounds = rounds, results->events = events;
    if (results) results->ns = plat_now_ns() - t0;
    return EM_OK;
}

static em_status_t dispatch_one(em_dispatch_duration_select_t sel, uint64_t v,
                                const em_dispatch_opt_t *opt, em_dispatch_results_t *results)
{
    em_dispatch_duration_t d;
    memset(&d, 0, sizeof(d));
    d.select = sel;
    d.rounds = d.ns = d.events = v;
    return em_dispatch_duration(&d, opt, results);
}

em_status_t em_dispatch_ns(uint64_t ns, const em_dispatch_opt_t *opt,
                           em_dispatch_results_t *results)
{
    return dispatch_one(EM_DISPATCH_DURATION_NS, ns, opt, results);
}

em_status_t em_dispatch_events(uint64_t events, const em_dispatch_opt_t *opt,
                               em_dispatch_results_t *results)
{
    return dispatch_one(EM_DISPATCH_DURATION_EVENTS, events, opt, results);
}

em_status_t em_dispatch_rounds(uint64_t rounds, const em_dispatch_opt_t *opt,
                               em_dispatch_results_t *results)
{
    return dispatch_one(EM_DISPATCH_DURATION_ROUNDS, rounds, opt, results);
}

uint64_t em_dispatch(uint64_t rounds)
{
    em_dispatch_results_t r;
    dispatch_one(rounds ? EM_DISPATCH_DURATION_ROUNDS : EM_DISPATCH_DURATION_FOREVER, rounds, NULL,
                 &r);
    return r.events;
}

/* The callback tables: add into a free slot or clear the slot holding fn. */
#define CB_EDIT(tbl, fn, add, escope)                                                              \
    do {                                                                                           \
        struct em_shared *sh_ = em_sh();                                                           \
        if (!sh_) return em_err(EM_ERR_NOT_INITIALIZED, escope, "not an EM core");                 \
        if (!(fn)) return em_err(EM_ERR_BAD_POINTER, escope, "callback is NULL");                  \
        plat_mutex_lock(&sh_->lock);                                                               \
        int done_ = 0;                                                                             \
        for (int k = 0; k < EM_CALLBACKS_MAX && !done_; k++)                                       \
            if ((add) ? sh_->tbl[k] == NULL : sh_->tbl[k] == (fn))                                 \
                sh_->tbl[k] = (add) ? (fn) : NULL, done_ = 1;                                      \
        plat_mutex_unlock(&sh_->lock);                                                             \
        if (!done_)                                                                                \
            return em_err((add) ? EM_ERR_ALLOC_FAILED : EM_ERR_NOT_FOUND, escope,                  \
                          (add) ? "all %d callback slots are taken"                                \
                                : "callback not registered (of at most %d)",                       \
                          EM_CALLBACKS_MAX);                                                       \
        return EM_OK;                                                                              \
    } while (0)

em_status_t em_dispatch_register_enter_cb(em_dispatch_enter_func_t func)
{
    CB_EDIT(enter_cb, func, 1, EM_ESCOPE_DISPATCH_REGISTER_ENTER_CB);
}

em_status_t em_dispatch_unregister_enter_cb(em_dispatch_enter_func_t func)
{
    CB_EDIT(enter_cb, func, 0, EM_ESCOPE_DISPATCH_UNREGISTER_ENTER_CB);
}

em_status_t em_dispatch_register_exit_cb(em_dispatch_exit_func_t func)
{
    CB_EDIT(exit_cb, func, 1, EM_ESCOPE_DISPATCH_REGISTER_EXIT_CB);
}

em_status_t em_dispatch_unregister_exit_cb(em_dispatch_exit_func_t func)
{
    CB_EDIT(exit_cb, func, 0, EM_ESCOPE_DISPATCH_UNREGISTER_EXIT_CB);
}

/* ---- scheduling contexts -------------------------------------------------- */

void em_atomic_processing_end(void)
{
    struct em_shared *sh = em_sh();
    if (!sh) return;
    plat_mutex_lock(&sh->lock);
    em_atomic_release_locked(sh, em_self());
    plat_mutex_unlock(&sh->lock);
}

void em_ordered_processing_end(void)
{
    struct em_shared *sh = em_sh();
    if (!sh || !em_self()->ordered_q) return;
    plat_mutex_lock(&sh->lock);
    em_ordered_end_locked(sh, em_self());
    plat_mutex_unlock(&sh->lock);
    em_report_deferred(em_self());
}

void em_preschedule(void) {}

em_sched_context_type_t em_sched_context_type_current(em_queue_t *queue)
{
    struct em_core *c = em_self();
    if (queue) *queue = EM_QUEUE_UNDEF;
    if (!c) return EM_SCHED_CONTEXT_TYPE_NONE;
    if (c->atomic_q) {
        if (queue) *queue = em_queue_hdl(c->atomic_q - 1);
        return EM_SCHED_CONTEXT_TYPE_ATOMIC;
    }
    if (c->ordered_q) {
        if (queue) *queue = em_queue_hdl(c->ordered_q - 1);
        return EM_SCHED_CONTEXT_TYPE_ORDERED;
    }
    return EM_SCHED_CONTEXT_TYPE_NONE;
}
