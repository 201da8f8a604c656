/*
 * em_eo.c -- execution objects: create (and multircv), delete, name, find,
 * add/remove queues, error handlers, start/stop (and the _sync forms),
 * current, context, state.
 *
 * Local starts and stops run on each EM core from its own dispatch loop (the
 * calling core at once): the EO's bit in the core's "pending" set says one is
 * due. A core receives events of an EO only after its own local start.
 */
#include "em_internal.h"

#include <stdio.h>
#include <string.h>

#define MASKW ((EM_MAX_CORES + 63) / 64)

int em_eo_idx(struct em_shared *sh, em_eo_t eo)
{
    uintptr_t i = (uintptr_t)eo;
    if (i < 1 || i > EM_MAX_EOS || !sh->eo[i - 1].used) return -1;
    return (int)i - 1;
}

static em_eo_t eo_hdl(int i)
{
    return (em_eo_t)(uintptr_t)(i + 1);
}

static int bit(const uint64_t *m, int i)
{
    return (m[i / 64] >> (i % 64)) & 1;
}

static int none(const uint64_t *m)
{
    for (int w = 0; w < MASKW; w++)
        if (m[w]) return 0;
    return 1;
}

static em_eo_t create(const char *name, const struct em_eo *tmpl, em_escope_t escope)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, escope, "em_eo_create: not EM core"), NULL;
    if (!tmpl->start || !tmpl->stop || (!tmpl->receive && !tmpl->receive_multi))
        return em_err(EM_ERR_BAD_POINTER, escope,
                      "em_eo_create(\"%s\"): start, stop and receive are required",
                      name ? name : ""),
               EM_EO_UNDEF;
    plat_mutex_lock(&sh->lock);
    int ei = -1;
    for (int i = 0; i < EM_MAX_EOS && ei < 0; i++)
        if (!sh->eo[i].used) ei = i;
    if (ei >= 0) { /* names need not be unique (em-odp's em_eo_find takes the first) */
        sh->eo[ei] = *tmpl;
        sh->eo[ei].used = 1;
        sh->eo[ei].state = EM_EO_STATE_CREATED;
        snprintf(sh->eo[ei].name, sizeof(sh->eo[ei].name), "%s", name ? name : "");
    }
    plat_mutex_unlock(&sh->lock);
    if (ei < 0)
        return em_err(EM_ERR_ALLOC_FAILED, escope, "em_eo_create(\"%s\"): all %d EOs are in use",
                      name ? name : "", EM_MAX_EOS),
               EM_EO_UNDEF;
    return eo_hdl(ei);
}

em_eo_t em_eo_create(const char *name, em_start_func_t start, em_start_local_func_t local_start,
                     em_stop_func_t stop, em_stop_local_func_t local_stop,
                     em_receive_func_t receive, const void *eo_ctx)
{
    struct em_eo t;
    memset(&t, 0, sizeof(t));
    t.start = start, t.local_start = local_start, t.stop = stop, t.local_stop = local_stop;
    t.receive = receive, t.ctx = (void *)(uintptr_t)eo_ctx, t.max_events = 1;
    return create(name, &t, EM_ESCOPE_EO_CREATE);
}

void em_eo_multircv_param_init(em_eo_multircv_param_t *param)
{
    if (!param) {
        em_err(EM_ERR_BAD_POINTER, EM_ESCOPE_EO_MULTIRCV_PARAM_INIT, "param is NULL");
        return;
    }
    memset(param, 0, sizeof(*param));
    param->__internal_check = EM_MULTIRCV_MAGIC;
}

em_eo_t em_eo_create_multircv(const char *name, const em_eo_multircv_param_t *param)
{
    if (!param || param->__internal_check != EM_MULTIRCV_MAGIC || param->max_events < 0 ||
        param->max_events > EM_EO_MULTIRCV_MAX_EVENTS)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EO_CREATE_MULTIRCV,
                      "em_eo_create_multircv(\"%s\"): param not initialised with "
                      "em_eo_multircv_param_init() or max_events not in 0..%d",
                      name ? name : "", EM_EO_MULTIRCV_MAX_EVENTS),
               EM_EO_UNDEF;
    struct em_eo t;
    memset(&t, 0, sizeof(t));
    t.start = param->start, t.local_start = param->local_start, t.stop = param->stop;
    t.local_stop = param->local_stop, t.receive_multi = param->receive_multi;
    t.ctx = (void *)(uintptr_t)param->eo_ctx;
    t.max_events = param->max_events ? param->max_events : EM_EO_MULTIRCV_MAX_EVENTS;
    return create(name, &t, EM_ESCOPE_EO_CREATE_MULTIRCV);
}

em_status_t em_eo_delete(em_eo_t eo)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EO_DELETE, "not an EM core");
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo);
    em_status_t err = ei < 0                                    ? EM_ERR_BAD_ID
                      : sh->eo[ei].state != EM_EO_STATE_CREATED ? EM_ERR_BAD_STATE
                      : sh->eo[ei].nqueues                      ? EM_ERR_BAD_STATE
                                                                : EM_OK;
    if (!err) sh->eo[ei].used = 0;
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EO_DELETE, "em_eo_delete(%p): %s", (void *)eo,
                      err == EM_ERR_BAD_ID ? "no such EO"
                                           : "the EO is not stopped or still has queues");
    return EM_OK;
}

size_t em_eo_get_name(em_eo_t eo, char *name, size_t maxlen)
{
    struct em_shared *sh = em_sh();
    int ei = sh ? em_eo_idx(sh, eo) : -1;
    if (!name || maxlen == 0) return 0;
    name[0] = '\0';
    if (ei < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_EO_GET_NAME, "em_eo_get_name(%p): no such EO", (void *)eo);
        return 0;
    }
    snprintf(name, maxlen, "%s", sh->eo[ei].name);
    return strlen(name);
}

em_eo_t em_eo_find(const char *name)
{
    struct em_shared *sh = em_sh();
    if (!sh || !name || !*name) return EM_EO_UNDEF;
    em_eo_t h = EM_EO_UNDEF;
    plat_mutex_lock(&sh->lock);
    for (int i = 0; i < EM_MAX_EOS && h == EM_EO_UNDEF; i++)
        if (sh->eo[i].used && strcmp(sh->eo[i].name, name) == 0) h = eo_hdl(i);
    plat_mutex_unlock(&sh->lock);
    return h;
}

em_status_t em_eo_add_queue(em_eo_t eo, em_queue_t queue, int num_notif,
                            const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EO_ADD_QUEUE, "not an EM core");
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo), qi = em_queue_idx(sh, queue);
    const char *why = ei < 0 ? "no such EO" : qi < 0 ? "no such queue" : NULL;
    em_status_t err = EM_ERR_BAD_ID;
    if (!why && sh->q[qi].type == EM_QUEUE_TYPE_UNSCHEDULED)
        why = "an unscheduled queue cannot be in an EO", err = EM_ERR_BAD_TYPE;
    else if (!why && sh->q[qi].eo)
        why = "the queue is already in an EO", err = EM_ERR_BAD_STATE;
    if (!why) {
        sh->q[qi].eo = ei + 1;
        sh->eo[ei].nqueues++;
        err = em_notif_send_locked(sh, em_self(), num_notif, notif_tbl);
        if (err) why = "a notification could not be sent";
    }
    plat_mutex_unlock(&sh->lock);
    plat_event_notify(&sh->work); /* events already queued may now be ready */
    if (why)
        return em_err(err, EM_ESCOPE_EO_ADD_QUEUE, "em_eo_add_queue(%p, %p): %s", (void *)eo,
                      (void *)queue, why);
    return EM_OK;
}

em_status_t em_eo_add_queue_sync(em_eo_t eo, em_queue_t queue)
{
    return em_eo_add_queue(eo, queue, 0, NULL);
}

em_status_t em_eo_remove_queue(em_eo_t eo, em_queue_t queue, int num_notif,
                               const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EO_REMOVE_QUEUE, "not EM core");
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo), qi = em_queue_idx(sh, queue);
    em_status_t err = (ei < 0 || qi < 0)       ? EM_ERR_BAD_ID
                      : sh->q[qi].eo != ei + 1 ? EM_ERR_BAD_STATE
                                               : EM_OK;
    if (!err) {
        sh->q[qi].eo = 0;
        sh->eo[ei].nqueues--;
        err = em_notif_send_locked(sh, em_self(), num_notif, notif_tbl);
    }
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EO_REMOVE_QUEUE, "em_eo_remove_queue(%p, %p): %s", (void *)eo,
                      (void *)queue,
                      err == EM_ERR_BAD_ID      ? "no such EO or queue"
                      : err == EM_ERR_BAD_STATE ? "the queue is not in this EO"
                                                : "a notification could not be sent");
    return EM_OK;
}

em_status_t em_eo_remove_queue_sync(em_eo_t eo, em_queue_t queue)
{
    return em_eo_remove_queue(eo, queue, 0, NULL);
}

em_status_t em_eo_remove_queue_all(em_eo_t eo, int delete_queues, int num_notif,
                                   const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EO_REMOVE_QUEUE_ALL, "not core");
    struct em_core *c = em_self();
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo);
    if (ei < 0) {
        plat_mutex_unlock(&sh->lock);
        return em_err(EM_ERR_BAD_ID, EM_ESCOPE_EO_REMOVE_QUEUE_ALL,
                      "em_eo_remove_queue_all(%p): no such EO", (void *)eo);
    }
    uint16_t todel[EM_MAX_QUEUES];
    int nd = 0;
    for (int i = 0; i < EM_MAX_QUEUES; i++) {
        struct em_queue *q = &sh->q[i];
        if (!q->used || q->eo != ei + 1) continue;
        q->eo = 0;
        sh->eo[ei].nqueues--;
        if (!delete_queues) continue;
        while (q->type != EM_QUEUE_TYPE_LOCAL && q->nqueued) {
            struct em_ev *ev = plat_hwq_pop(c->hwq, q->hwq);
            if (!ev) break;
            q->nqueued--;
            em_ev_free_locked(sh, ev);
        }
        todel[nd++] = (uint16_t)i;
    }
    em_status_t err = em_notif_send_locked(sh, c, num_notif, notif_tbl);
    plat_mutex_unlock(&sh->lock);
    for (int i = 0; i < nd; i++) {
        em_status_t e = em_queue_delete(em_queue_hdl(todel[i]));
        if (e && !err) err = e;
    }
    return err;
}

em_status_t em_eo_remove_queue_all_sync(em_eo_t eo, int delete_queues)
{
    return em_eo_remove_queue_all(eo, delete_queues, 0, NULL);
}

em_status_t em_eo_register_error_handler(em_eo_t eo, em_error_handler_t handler)
{
    struct em_shared *sh = em_sh();
    int ei = sh ? em_eo_idx(sh, eo) : -1;
    if (ei < 0 || !handler)
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EO_REGISTER_ERROR_HANDLER,
                      "em_eo_register_error_handler(%p): no such EO or handler NULL", (void *)eo);
    sh->eo[ei].errh = handler;
    return EM_OK;
}

em_status_t em_eo_unregister_error_handler(em_eo_t eo)
{
    struct em_shared *sh = em_sh();
    int ei = sh ? em_eo_idx(sh, eo) : -1;
    if (ei < 0)
        return em_err(EM_ERR_BAD_ID, EM_ESCOPE_EO_UNREGISTER_ERROR_HANDLER,
                      "em_eo_unregister_error_handler(%p): no such EO", (void *)eo);
    sh->eo[ei].errh = NULL;
    return EM_OK;
}

/* Mark a local start or stop due on every EM core that has not ended (a core
 * that calls em_init_core later gets its local starts then). */
static void set_pending(struct em_shared *sh, struct em_eo *e)
{
    for (int i = 0; i < sh->cores_in; i++) {
        if (sh->core[i].termed) continue;
        e->pending[i / 64] |= 1ull << (i % 64);
        em_pending_add(&sh->core[i], 1);
    }
}

void em_eo_run_pending(struct em_shared *sh, struct em_core *c)
{
    for (;;) {
        plat_mutex_lock(&sh->lock);
        int ei = -1;
        for (int i = 0; i < EM_MAX_EOS && ei < 0 && plat_load64(&c->pending_ops); i++)
            if (sh->eo[i].used && bit(sh->eo[i].pending, c->id)) ei = i;
        if (ei < 0) {
            plat_store64(&c->pending_ops, 0);
            plat_mutex_unlock(&sh->lock);
            return;
        }
        struct em_eo *e = &sh->eo[ei];
        /* a core that joined after the start runs its local start too */
        int starting = e->state == EM_EO_STATE_STARTING || e->state == EM_EO_STATE_RUNNING;
        em_start_local_func_t fn = starting ? e->local_start : e->local_stop;
        void *ctx = e->ctx;
        plat_mutex_unlock(&sh->lock);
        int saved = c->cur_eo;
        c->cur_eo = ei + 1;
        em_status_t r = fn ? fn(ctx, eo_hdl(ei)) : EM_OK;
        c->cur_eo = saved;
        if (r != EM_OK)
            em_err(r, starting ? EM_ESCOPE_EO_START_DONE_CB : EM_ESCOPE_EO_STOP_DONE_CB,
                   "EO \"%s\": local %s returned 0x%" PRIx32 " on EM core %d", e->name,
                   starting ? "start" : "stop", r, c->id);
        plat_mutex_lock(&sh->lock);
        /* no assignment of a stopping EO outlives its last local stop */
        if (!starting) em_sched_purge_locked(sh, c, 0);
        e->pending[c->id / 64] &= ~(1ull << (c->id % 64));
        em_pending_add(c, -1);
        if (starting) e->started[c->id / 64] |= 1ull << (c->id % 64);
        int last = none(e->pending);
        em_stop_func_t stop = NULL;
        em_status_t nerr = EM_OK;
        if (last && e->state == EM_EO_STATE_STARTING) {
            e->state = EM_EO_STATE_RUNNING;
            nerr = em_notif_send_locked(sh, c, e->num_notif, e->notif);
        } else if (last && e->state == EM_EO_STATE_STOPPING) {
            stop = e->stop;
        }
        plat_mutex_unlock(&sh->lock);
        if (stop) {
            /* Stopped before the global stop runs, as em-odp: the stop
             * function may delete the EO (hello's does), so its name and
             * notifications are taken first. */
            char name[sizeof e->name];
            int num_notif = e->num_notif;
            em_notif_t notif[EM_EVENT_GROUP_MAX_NOTIF];
            plat_mutex_lock(&sh->lock);
            snprintf(name, sizeof name, "%s", e->name);
            for (int i = 0; i < num_notif; i++) notif[i] = e->notif[i];
            e->state = EM_EO_STATE_CREATED;
            sh->stops_running++;
            plat_mutex_unlock(&sh->lock);
            c->cur_eo = ei + 1;
            r = stop(ctx, eo_hdl(ei));
            c->cur_eo = saved;
            if (r != EM_OK)
                em_err(r, EM_ESCOPE_EO_STOP_DONE_CB, "EO \"%s\": stop returned 0x%" PRIx32, name,
                       r);
            plat_mutex_lock(&sh->lock);
            sh->stops_running--;
            nerr = em_notif_send_locked(sh, c, num_notif, notif);
            plat_mutex_unlock(&sh->lock);
        }
        if (nerr)
            em_err(nerr, EM_ESCOPE_EO_START_DONE_CB, "EO \"%s\": a notification could not be sent",
                   e->name);
        plat_event_notify(&sh->work);
    }
}

static em_status_t check_notif(int num, const em_notif_t *tbl)
{
    return (num < 0 || num > EM_EVENT_GROUP_MAX_NOTIF || (num && !tbl)) ? EM_ERR_BAD_ARG : EM_OK;
}

em_status_t em_eo_start(em_eo_t eo, em_status_t *result, const em_eo_conf_t *conf, int num_notif,
                        const em_notif_t notif_tbl[])
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_EO_START, "not an EM core");
    struct em_core *c = em_self();
    if (check_notif(num_notif, notif_tbl))
        return em_err(EM_ERR_BAD_ARG, EM_ESCOPE_EO_START, "em_eo_start(%p): bad notifications",
                      (void *)eo);
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo);
    em_status_t err = ei < 0                                    ? EM_ERR_BAD_ID
                      : sh->eo[ei].state != EM_EO_STATE_CREATED ? EM_ERR_BAD_STATE
                                                                : EM_OK;
    if (!err) sh->eo[ei].state = EM_EO_STATE_STARTING;
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, EM_ESCOPE_EO_START, "em_eo_start(%p): %s", (void *)eo,
                      err == EM_ERR_BAD_ID ? "no such EO" : "the EO is not in state CREATED");
    struct em_eo *e = &sh->eo[ei];
    int saved = c->cur_eo;
    c->cur_eo = ei + 1;
    em_status_t r = e->start(e->ctx, eo, conf);
    c->cur_eo = saved;
    if (result) *result = r;
    plat_mutex_lock(&sh->lock);
    if (r != EM_OK) {
        e->state = EM_EO_STATE_CREATED;
    } else {
        e->num_notif = num_notif;
        for (int i = 0; i < num_notif; i++) e->notif[i] = notif_tbl[i];
        memset(e->started, 0, sizeof(e->started));
        set_pending(sh, e);
    }
    plat_mutex_unlock(&sh->lock);
    if (r != EM_OK)
        return em_err(r, EM_ESCOPE_EO_START, "em_eo_start(\"%s\"): start returned 0x%" PRIx32,
                      e->name, r);
    em_eo_run_pending(sh, c); /* this core's local start, now */
    return EM_OK;
}

/* As em-odp: returns once every EM core has run the EO's local start, so
 * the other cores must be dispatching meanwhile (as for em_eo_stop_sync). */
em_status_t em_eo_start_sync(em_eo_t eo, em_status_t *result, const em_eo_conf_t *conf)
{
    em_status_t err = em_eo_start(eo, result, conf, 0, NULL);
    if (err != EM_OK) return err;
    struct em_shared *sh = em_sh();
    struct em_core *c = em_self();
    int ei = em_eo_idx(sh, eo);
    for (;;) {
        uint32_t epoch = plat_event_epoch(&sh->work);
        plat_mutex_lock(&sh->lock);
        int done = ei < 0 || !sh->eo[ei].used || sh->eo[ei].state != EM_EO_STATE_STARTING;
        plat_mutex_unlock(&sh->lock);
        if (done) return EM_OK;
        em_eo_run_pending(sh, c);
        plat_event_wait(&sh->work, epoch, EM_IDLE_SLICE_NS);
    }
}

static em_status_t stop(em_eo_t eo, int num_notif, const em_notif_t notif_tbl[], int sync,
                        em_escope_t escope)
{
    struct em_shared *sh = em_sh();
    if (!sh) return em_err(EM_ERR_NOT_INITIALIZED, escope, "not an EM core");
    struct em_core *c = em_self();
    if (check_notif(num_notif, notif_tbl))
        return em_err(EM_ERR_BAD_ARG, escope, "em_eo_stop(%p): bad notifications", (void *)eo);
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo);
    em_status_t err = EM_OK;
    if (ei < 0)
        err = EM_ERR_BAD_ID;
    else if (sh->eo[ei].state != EM_EO_STATE_RUNNING)
        err = EM_ERR_BAD_STATE;
    else {
        struct em_eo *e = &sh->eo[ei];
        e->state = EM_EO_STATE_STOPPING;
        memset(e->started, 0, sizeof(e->started)); /* no more dispatch, on any core */
        e->num_notif = num_notif;
        for (int i = 0; i < num_notif; i++) e->notif[i] = notif_tbl[i];
        set_pending(sh, e);
    }
    plat_mutex_unlock(&sh->lock);
    if (err)
        return em_err(err, escope, "em_eo_stop(%p): %s", (void *)eo,
                      err == EM_ERR_BAD_ID ? "no such EO"
                                           : "the EO is not running (or still starting)");
    em_eo_run_pending(sh, c);
    while (sync) {
        uint32_t epoch = plat_event_epoch(&sh->work);
        plat_mutex_lock(&sh->lock);
        /* done: stopped and its global stop returned, also when the stop
         * deleted the EO (hello's does: the slot says nothing then) */
        int done =
            !sh->stops_running && (!sh->eo[ei].used || sh->eo[ei].state == EM_EO_STATE_CREATED);
        plat_mutex_unlock(&sh->lock);
        if (done) break;
        em_eo_run_pending(sh, c);
        plat_event_wait(&sh->work, epoch, EM_IDLE_SLICE_NS);
    }
    return EM_OK;
}

em_status_t em_eo_stop(em_eo_t eo, int num_notif, const em_notif_t notif_tbl[])
{
    return stop(eo, num_notif, notif_tbl, 0, EM_ESCOPE_EO_STOP);
}

em_status_t em_eo_stop_sync(em_eo_t eo)
{
    return stop(eo, 0, NULL, 1, EM_ESCOPE_EO_STOP_SYNC);
}

em_eo_t em_eo_current(void)
{
    struct em_core *c = em_self();
    return c && c->cur_eo ? eo_hdl(c->cur_eo - 1) : EM_EO_UNDEF;
}

void *em_eo_get_context(em_eo_t eo)
{
    struct em_shared *sh = em_sh();
    int ei = sh ? em_eo_idx(sh, eo) : -1;
    if (ei < 0) {
        em_err(EM_ERR_BAD_ID, EM_ESCOPE_EO_GET_CONTEXT, "em_eo_get_context(%p): no such EO",
               (void *)eo);
        return NULL;
    }
    return sh->eo[ei].ctx;
}

em_eo_state_t em_eo_get_state(em_eo_t eo)
{
    struct em_shared *sh = em_sh();
    if (!sh) return EM_EO_STATE_UNDEF;
    plat_mutex_lock(&sh->lock);
    int ei = em_eo_idx(sh, eo);
    em_eo_state_t st = ei < 0 ? EM_EO_STATE_UNDEF : sh->eo[ei].state;
    plat_mutex_unlock(&sh->lock);
    return st;
}

uint64_t em_eo_to_u64(em_eo_t eo)
{
    return (uint64_t)(uintptr_t)eo;
}

/* The scheduler asks: may core c receive events of EO index ei now? */
int em_eo_dispatchable(const struct em_shared *sh, int ei, int core)
{
    const struct em_eo *e = &sh->eo[ei];
    return e->state == EM_EO_STATE_RUNNING && bit(e->started, core);
}

/* em_init_core (lock held): the new core owes the local start of every EO
 * already started. */
void em_eo_core_joined(struct em_shared *sh, struct em_core *c)
{
    for (int i = 0; i < EM_MAX_EOS; i++) {
        struct em_eo *e = &sh->eo[i];
        if (!e->used || (e->state != EM_EO_STATE_STARTING && e->state != EM_EO_STATE_RUNNING))
            continue;
        e->pending[c->id / 64] |= 1ull << (c->id % 64);
        em_pending_add(c, 1);
    }
}
