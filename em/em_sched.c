/*
 * em_sched.c -- the scheduler on a core of its own (EM_IPCSIM_SCHED_CORE),
 * as the QMSS PDSP firmware of KeyStone's OpenEM: em_ipcsim_sched_run and
 * the dispatcher's side of its hand-over.
 *
 * The scheduler core runs em_schedule, the inline scheduler's function, for
 * each EM core in turn, on a scratch core state that has that core's id and
 * no local queues: so priorities, round-robin, queue groups, EO states,
 * atomic holding and ordered tickets are decided exactly as inline. The
 * events it picks are pushed into the core's dispatch queue (a hardware
 * queue of the device, reserved at em_init), the first of an assignment
 * carrying its queue, count and ticket. At most sh->sched_depth assignments
 * wait per core; the atomic or ordered context is taken when the event is
 * assigned, and released by the dispatcher as inline. On demand
 * (ipcsim.sched_on_demand), a core gets one assignment each time its
 * dispatcher finds its queue empty with nothing assigned (it asks).
 *
 * An assignment the core can no longer run (its EO stopped, its queue left
 * the EO, the core is leaving) goes back to the tail of its queue, with its
 * atomic hold or ordered ticket released: a core's local stop purges its
 * dispatch queue first, so after em_eo_stop_sync no assignment of the EO is
 * left anywhere.
 */
#include "em_internal.h"

#include <string.h>

void em_sched_slots_alloc(struct em_shared *sh, struct em_core *c)
{
    unsigned caps = plat_core_caps(plat_core());
    if (!sh->preload_bytes || !(caps & PLAT_CAP_LOCAL_MEM)) return;
    int n = (int)sh->sched_depth + 1, k = 0;
    void *buf[EM_IPCSIM_SCHED_DEPTH_MAX + 1];
    /* all or none: local memory too small leaves preloading to the dispatcher */
    while (k < n && (buf[k] = plat_local_alloc(sh->preload_bytes, 64)) != NULL) k++;
    if (k < n) {
        while (k) plat_local_free(buf[--k]);
        em_err(EM_ERR_ALLOC_FAILED, EM_ESCOPE_INIT_CORE,
               "em_init_core: %d preload buffers of %u bytes (ipcsim.preload_bytes) do not fit "
               "in the local memory of plat core %d: the dispatcher preloads itself",
               n, sh->preload_bytes, plat_core());
        return;
    }
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i < n; i++) c->slot[i] = buf[i], c->slot_busy[i] = 0;
    c->nslots = n;
    plat_mutex_unlock(&sh->lock);
}

void em_sched_slots_free(struct em_core *c)
{
    for (int i = 0; i < c->nslots; i++) plat_local_free(c->slot[i]);
    c->nslots = 0;
}

void em_sched_slot_done_locked(struct em_core *c)
{
    if (c->cur_slot >= 0) c->slot_busy[c->cur_slot] = 0;
    c->cur_slot = -1;
}

/* A free preload slot of core d, for an event of size bytes at payload (lock
 * held): its index, or -1 (the dispatcher will preload, or nothing will). */
static int free_slot(struct em_shared *sh, struct em_core *d, const struct em_ev *ev)
{
    if (!d->nslots || ev->size > sh->preload_bytes || !plat_dma_reach(ev->payload, ev->size))
        return -1;
    for (int k = 0; k < d->nslots; k++)
        if (!d->slot_busy[k]) return k;
    return -1;
}

em_status_t em_sched_init(struct em_shared *sh)
{
    unsigned need = (unsigned)sh->core_count;
    if (sh->hwq_total < need + 1) return EM_ERR_TOO_LARGE;
    /* from the top, so that the queues of the program keep their numbers */
    for (int i = 0; i < sh->core_count; i++) {
        unsigned h = sh->hwq_total - 1 - (unsigned)i;
        sh->hwq_used[h] = 1;
        sh->core[i].disp_hwq = h;
    }
    return EM_OK;
}

/* Release what the assignment took (lock held): the hold of an atomic
 * queue, the ticket of an ordered one (ended with nothing sent). */
static void release_context(struct em_shared *sh, struct em_core *c, int qi, uint64_t ticket)
{
    struct em_queue *q = &sh->q[qi];
    if (q->type == EM_QUEUE_TYPE_ATOMIC) {
        /* not em_atomic_release_locked: c may be in a receive (a local stop
         * run from em_eo_stop_sync) holding a queue of its own */
        q->held = 0;
        if (q->agrp) sh->ag[q->agrp - 1].held = 0;
        em_wake_locked(sh);
    } else if (q->type == EM_QUEUE_TYPE_PARALLEL_ORDERED) {
        int saved_q = c->ordered_q;
        uint64_t saved_t = c->ticket;
        c->ordered_q = qi + 1;
        c->ticket = ticket;
        em_ordered_end_locked(sh, c);
        c->ordered_q = saved_q;
        c->ticket = saved_t;
    }
}

/* Pop the next assignment of c's dispatch queue into evs (lock held): its
 * event count, 0 when the queue is empty. */
static int pop_assignment(struct em_shared *sh, struct em_core *c, struct em_ev **evs)
{
    struct em_ev *ev = plat_hwq_pop(c->hwq, c->disp_hwq);
    if (!ev) return 0;
    int n = ev->disp_n;
    evs[0] = ev;
    for (int i = 1; i < n; i++) {
        evs[i] = plat_hwq_pop(c->hwq, c->disp_hwq);
        if (!evs[i]) {
            /* the scheduler pushes an assignment whole, under the lock */
            c->deferred = EM_ERR_LIB_FAILED;
            c->deferred_escope = EM_ESCOPE_IPCSIM_SCHED;
            n = i;
            break;
        }
    }
    c->assigned--;
    sh->q[ev->disp_q].nassigned -= (uint32_t)n;
    em_wake_locked(sh); /* room for the scheduler */
    return n;
}

/* Put an assignment back to its queue's tail and release its context. */
static void put_back(struct em_shared *sh, struct em_core *c, struct em_ev **evs, int n)
{
    int qi = evs[0]->disp_q;
    if (evs[0]->disp_slot >= 0) c->slot_busy[evs[0]->disp_slot] = 0; /* the copy is dropped */
    struct em_queue *q = &sh->q[qi];
    for (int i = 0; i < n; i++) {
        if (q->used && plat_hwq_push(c->hwq, q->hwq, evs[i]) == PLAT_OK) {
            evs[i]->state = EV_QUEUED;
            q->nqueued++;
        } else {
            /* deleted meanwhile (em_queue_delete refuses while assigned, so
             * only a full queue): dropped, as em-odp drops an event of a
             * queue that is no longer ready */
            em_ev_free_locked(sh, evs[i]);
            c->deferred = EM_ERR_OPERATION_FAILED;
            c->deferred_escope = EM_ESCOPE_IPCSIM_SCHED;
        }
    }
    release_context(sh, c, qi, evs[0]->disp_ticket);
}

/* A program that chose EM_IPCSIM_SCHED_CORE and never runs the scheduler
 * would dispatch nothing, silently: after EM_SCHED_MISSING_NS without one,
 * each idle core says so once (lock not held). */
#define EM_SCHED_MISSING_NS 1000000000ull

void em_sched_check_missing(struct em_shared *sh, struct em_core *c)
{
    if (c->sched_checked) return;
    if (plat_load64(&sh->sched_ever)) {
        c->sched_checked = 1;
        return;
    }
    if (plat_now_ns() - sh->init_ns < EM_SCHED_MISSING_NS) return;
    c->sched_checked = 1;
    em_err(EM_ERR_BAD_STATE, EM_ESCOPE_IPCSIM_SCHED,
           "em_dispatch: EM_IPCSIM_SCHED_CORE and no scheduler core has run for %llu ms since "
           "em_init (call em_ipcsim_sched_run on a platform core that is not an EM core)",
           (unsigned long long)(EM_SCHED_MISSING_NS / 1000000ull));
}

static int runnable(const struct em_shared *sh, const struct em_core *c, int qi)
{
    const struct em_queue *q = &sh->q[qi];
    return q->used && q->eo && !c->termed && em_eo_dispatchable(sh, q->eo - 1, c->id);
}

int em_sched_take_locked(struct em_shared *sh, struct em_core *c)
{
    int qi = em_pick_local(sh, c);
    if (qi >= 0) return qi;
    for (;;) {
        struct em_ev *evs[EM_EO_MULTIRCV_MAX_EVENTS];
        int n = pop_assignment(sh, c, evs);
        if (!n) {
            if (sh->sched_demand && !c->assigned && !c->asks) {
                c->asks = 1;
                em_wake_locked(sh); /* the scheduler may be waiting for an ask */
            }
            return -1;
        }
        qi = evs[0]->disp_q;
        if (!runnable(sh, c, qi)) {
            put_back(sh, c, evs, n);
            continue;
        }
        struct em_queue *q = &sh->q[qi];
        for (int i = 0; i < n; i++) c->cur_ev[i] = evs[i];
        c->ncur = n;
        if (q->type == EM_QUEUE_TYPE_ATOMIC) c->atomic_q = qi + 1;
        if (q->type == EM_QUEUE_TYPE_PARALLEL_ORDERED)
            c->ordered_q = qi + 1, c->ticket = evs[0]->disp_ticket;
        c->cur_slot = evs[0]->disp_slot;
        if (c->cur_slot >= 0) c->pre_ev = evs[0], c->pre_cur = c->slot[c->cur_slot];
        return qi;
    }
}

void em_sched_purge_locked(struct em_shared *sh, struct em_core *c, int all)
{
    if (!sh->sched_core) return;
    /* keep the runnable ones in their order: pop every assignment once */
    uint32_t k = c->assigned;
    for (uint32_t j = 0; j < k; j++) {
        struct em_ev *evs[EM_EO_MULTIRCV_MAX_EVENTS];
        int n = pop_assignment(sh, c, evs);
        if (!n) break;
        int qi = evs[0]->disp_q;
        if (all || !runnable(sh, c, qi)) {
            put_back(sh, c, evs, n);
            continue;
        }
        for (int i = 0; i < n; i++) plat_hwq_push(c->hwq, c->disp_hwq, evs[i]);
        c->assigned++;
        sh->q[qi].nassigned += (uint32_t)n;
    }
}

/* Fill the dispatch queues (lock held): whether anything was assigned. */
static int assign(struct em_shared *sh, struct em_core *pick)
{
    int any = 0, n = sh->core_count;
    for (int k = 0; k < n; k++) {
        struct em_core *d = &sh->core[(sh->sched_next + k) % n];
        if (d->plat_core < 0 || d->termed) continue;
        while (sh->sched_demand ? d->asks && !d->assigned : d->assigned < sh->sched_depth) {
            pick->id = d->id;
            pick->ncur = 0;
            pick->atomic_q = pick->ordered_q = 0;
            int qi = em_schedule(sh, pick);
            if (qi < 0) break;
            struct em_ev *first = pick->cur_ev[0];
            first->disp_q = qi;
            first->disp_n = pick->ncur;
            first->disp_ticket = pick->ordered_q ? pick->ticket : 0;
            first->disp_slot = -1;
            /* the scheduler's own work per decision (the PDSP firmware's) */
            plat_work("em_sched");
            int k = pick->ncur == 1 && (sh->q[qi].flags & EM_QUEUE_FLAG_IPCSIM_PRELOAD)
                        ? free_slot(sh, d, first)
                        : -1;
            if (k >= 0) {
                /* the copy's completion hands the event over */
                if (d->slot_dma_used[k]) plat_dma_wait(&d->slot_dma[k], PLAT_FOREVER);
                if (plat_dma_start_push(&d->slot_dma[k], d->slot[k], first->payload, first->size,
                                        pick->hwq, d->disp_hwq, first) == PLAT_OK) {
                    d->slot_dma_used[k] = 1;
                    d->slot_busy[k] = 1;
                    first->disp_slot = k;
                    d->assigned++;
                    sh->q[qi].nassigned += 1;
                    d->asks = 0;
                    any = 1;
                    continue;
                }
            }
            int pushed = 0;
            while (pushed < pick->ncur &&
                   plat_hwq_push(pick->hwq, d->disp_hwq, pick->cur_ev[pushed]) == PLAT_OK)
                pushed++;
            if (pushed < pick->ncur) {
                /* the device's queue is full: the rest goes back */
                first->disp_n = pushed;
                int rest = pick->ncur - pushed;
                if (!pushed) {
                    put_back(sh, pick, pick->cur_ev, rest);
                    break;
                }
                struct em_queue *q = &sh->q[qi];
                for (int i = pushed; i < pick->ncur; i++)
                    if (plat_hwq_push(pick->hwq, q->hwq, pick->cur_ev[i]) == PLAT_OK)
                        q->nqueued++;
                    else
                        em_ev_free_locked(sh, pick->cur_ev[i]);
                pick->ncur = pushed;
            }
            d->assigned++;
            sh->q[qi].nassigned += (uint32_t)pick->ncur;
            d->asks = 0;
            any = 1;
        }
    }
    sh->sched_next = (sh->sched_next + 1) % n;
    return any;
}

static int all_termed(const struct em_shared *sh)
{
    if (sh->cores_in < sh->core_count) return 0;
    for (int i = 0; i < sh->cores_in; i++)
        if (!sh->core[i].termed) return 0;
    return 1;
}

em_status_t em_ipcsim_sched_run(void)
{
    if (em_self())
        return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_IPCSIM_SCHED,
                      "em_ipcsim_sched_run: plat core %d is EM core %d (the scheduler core "
                      "must not be an EM core)",
                      plat_core(), em_self()->id);
    int st = 0;
    bool created = false;
    struct em_shared *sh = plat_shared_map("em", sizeof(struct em_shared), &created, &st);
    if (!sh || !sh->inited) {
        if (sh) plat_shared_unmap(sh);
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_IPCSIM_SCHED,
                      "em_ipcsim_sched_run: em_init has not been called");
    }
    plat_hwq *hq = plat_hwq_open(sh->hwq_name, &st);
    plat_mutex_lock(&sh->lock);
    const char *why = !sh->sched_core     ? "em_conf_t.ipcsim.sched_mode is not "
                                            "EM_IPCSIM_SCHED_CORE"
                      : sh->sched_running ? "a scheduler core already runs"
                      : !hq               ? "the hwq device could not be opened"
                                          : NULL;
    if (!why) {
        sh->sched_running = 1;
        plat_store64(&sh->sched_ever, 1);
    }
    plat_mutex_unlock(&sh->lock);
    if (why) {
        plat_shared_unmap(sh);
        return em_err(EM_ERR_BAD_STATE, EM_ESCOPE_IPCSIM_SCHED, "em_ipcsim_sched_run: %s", why);
    }
    struct em_core pick; /* em_schedule's view of the core it picks for */
    memset(&pick, 0, sizeof(pick));
    pick.hwq = hq;
    for (;;) {
        plat_mutex_lock(&sh->lock);
        if (sh->sched_waiting) sh->waiters--, sh->sched_waiting = 0;
        if (sh->stop || all_termed(sh)) break;
        uint32_t epoch = plat_event_epoch(&sh->work);
        int any = assign(sh, &pick);
        if (any)
            em_wake_locked(sh);
        else
            sh->waiters++, sh->sched_waiting = 1;
        plat_mutex_unlock(&sh->lock);
        if (!any) plat_event_wait(&sh->work, epoch, EM_IDLE_SLICE_NS);
    }
    sh->sched_running = 0;
    plat_mutex_unlock(&sh->lock);
    plat_event_notify(&sh->work); /* em_term may wait for this */
    plat_shared_unmap(sh);
    return EM_OK;
}
