/*
 * event_machine_error.h -- error handlers.
 *
 * Every error a call detects goes to a handler before the call returns: the
 * handler of the EO whose receive (or start/stop) is running, if it has one,
 * else the global handler (em_register_error_handler), else the default one,
 * which logs the error, the scope and the call's message and, for a fatal
 * error (EM_ERROR_IS_FATAL), ends the run (plat_abort). The status a handler
 * returns is what em_error returns to nobody: a call returns its own error.
 */
#ifndef EVENT_MACHINE_ERROR_H_
#define EVENT_MACHINE_ERROR_H_

#ifdef __cplusplus
extern "C" {
#endif

/* eo: the EO in whose context the error happened, or EM_EO_UNDEF; args: the
 * arguments after escope in em_error() (for EM's own errors: a format string
 * and its arguments, like em_error's own callers are recommended to pass). */
typedef em_status_t (*em_error_handler_t)(em_eo_t eo, em_status_t error, em_escope_t escope,
                                          va_list args);

/* Replace the global error handler (EM_OK; EM_ERR_BAD_POINTER for NULL). */
em_status_t em_register_error_handler(em_error_handler_t handler);
/* Back to the default handler. */
em_status_t em_unregister_error_handler(void);

/* Report an error: calls the handler as above with the variable arguments.
 * A fatal error (EM_ERROR_SET_FATAL) ends the run after the handler returns. */
void em_error(em_status_t error, em_escope_t escope, ...);

#ifdef __cplusplus
}
#endif
#endif
