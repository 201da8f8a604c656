/*
 * em_error.c -- error handlers: em_error, em_register_error_handler,
 * em_unregister_error_handler, and the library's own reports (em_err).
 */
#include "em_internal.h"

#include <stdio.h>

static em_error_handler_t pick_handler(em_eo_t *eo)
{
    struct em_core *c = em_self();
    *eo = EM_EO_UNDEF;
    if (!c) return NULL;
    struct em_shared *sh = em_sh();
    if (c->cur_eo) {
        *eo = (em_eo_t)(uintptr_t)c->cur_eo;
        if (sh->eo[c->cur_eo - 1].errh) return sh->eo[c->cur_eo - 1].errh;
    }
    return sh->errh;
}

/* The default handler: one line on stderr (or the conf's log function); a
 * fatal error ends the run. */
static void report_default(em_eo_t eo, em_status_t error, em_escope_t escope, const char *msg)
{
    char line[512];
    snprintf(line, sizeof(line),
             "EM ERROR 0x%08" PRIx32 " escope 0x%08" PRIx32 " (EM core %d, EO %" PRI_EO "): %s",
             error, escope, em_core_id(), (void *)eo, msg);
    struct em_shared *sh = em_self() ? em_sh() : NULL;
    if (sh && sh->conf.log.log_fn)
        sh->conf.log.log_fn(EM_LOG_ERR, "%s\n", line);
    else
        fprintf(stderr, "%s\n", line);
    if (EM_ERROR_IS_FATAL(error)) plat_abort(2, line);
}

static em_status_t call_handler(em_error_handler_t h, em_eo_t eo, em_status_t error,
                                em_escope_t escope, ...)
{
    va_list ap;
    va_start(ap, escope);
    em_status_t r = h(eo, error, escope, ap);
    va_end(ap);
    return r;
}

em_status_t em_err(em_status_t err, em_escope_t escope, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    em_eo_t eo;
    em_error_handler_t h = pick_handler(&eo);
    if (h) {
        /* a handler sees (const char *fmt, ...) as em-odp's do */
        call_handler(h, eo, err, escope, "%s", msg);
        if (EM_ERROR_IS_FATAL(err)) plat_abort(2, msg);
    } else {
        report_default(eo, err, escope, msg);
    }
    return err;
}

void em_error(em_status_t error, em_escope_t escope, ...)
{
    em_eo_t eo;
    em_error_handler_t h = pick_handler(&eo);
    va_list ap;
    va_start(ap, escope);
    if (h) {
        h(eo, error, escope, ap);
        va_end(ap);
        if (EM_ERROR_IS_FATAL(error)) plat_abort(2, "em_error: fatal error reported");
        return;
    }
    va_end(ap);
    char msg[64];
    snprintf(msg, sizeof(msg), "em_error() called by the application");
    report_default(eo, error, escope, msg);
}

em_status_t em_register_error_handler(em_error_handler_t handler)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_REGISTER_ERROR_HANDLER,
                      "em_register_error_handler: not an EM core");
    if (!handler)
        return em_err(EM_ERR_BAD_POINTER, EM_ESCOPE_REGISTER_ERROR_HANDLER,
                      "em_register_error_handler: handler is NULL");
    plat_mutex_lock(&sh->lock);
    sh->errh = handler;
    plat_mutex_unlock(&sh->lock);
    return EM_OK;
}

em_status_t em_unregister_error_handler(void)
{
    struct em_shared *sh = em_sh();
    if (!sh)
        return em_err(EM_ERR_NOT_INITIALIZED, EM_ESCOPE_UNREGISTER_ERROR_HANDLER,
                      "em_unregister_error_handler: not an EM core");
    plat_mutex_lock(&sh->lock);
    sh->errh = NULL;
    plat_mutex_unlock(&sh->lock);
    return EM_OK;
}

void em_report_deferred(struct em_core *c)
{
    if (!c || !c->deferred) return;
    em_status_t e = c->deferred;
    em_escope_t sc = c->deferred_escope;
    c->deferred = EM_OK;
    em_err(e, sc,
           sc == EM_ESCOPE_EVENT_GROUP_UPDATE
               ? "an event group reached zero and a notification could not be sent"
           : sc == EM_ESCOPE_SEND
               ? "a receive's send to the atomic queue it held could not be queued when the "
                 "queue was released (queue full); the event was freed"
               : "an ordered send held until its turn could not be queued (queue deleted or "
                 "full); the event was freed");
}
