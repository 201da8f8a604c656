/*
 * event_machine_eo.h -- execution objects.
 *
 * An EO is a receive function with a context and the queues whose events it
 * receives. Life: em_eo_create -> em_eo_add_queue(_sync) -> em_eo_start(_sync)
 * (start runs on the calling core, then local_start on every EM core) ->
 * events dispatched to receive -> em_eo_stop(_sync) (local_stop on every core,
 * then stop) -> em_eo_remove_queue_all(_sync) -> em_eo_delete.
 *
 * Events sent to the queues of an EO that is not running stay in the queues
 * and are received once it runs.
 */
#ifndef EVENT_MACHINE_EO_H_
#define EVENT_MACHINE_EO_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The receive function: the event is the receiver's (free, send or keep it). */
typedef void (*em_receive_func_t)(void *eo_ctx, em_event_t event, em_event_type_t type,
                                  em_queue_t queue, void *q_ctx);
/* Several events of one queue at a time (em_eo_create_multircv). */
typedef void (*em_receive_multi_func_t)(void *eo_ctx, em_event_t events[], int num,
                                        em_queue_t queue, void *q_ctx);
/* Global start: once, on the core that calls em_eo_start. Anything but EM_OK
 * fails the start (the EO stays created, local starts do not run). */
typedef em_status_t (*em_start_func_t)(void *eo_ctx, em_eo_t eo, const em_eo_conf_t *conf);
/* Local start / stop: once on each EM core. */
typedef em_status_t (*em_start_local_func_t)(void *eo_ctx, em_eo_t eo);
typedef em_status_t (*em_stop_local_func_t)(void *eo_ctx, em_eo_t eo);
/* Global stop: once, after every local stop. */
typedef em_status_t (*em_stop_func_t)(void *eo_ctx, em_eo_t eo);

/* Create an EO (not started, no queues). name: unique or NULL, at most
 * EM_EO_NAME_LEN-1 bytes kept. start, stop and receive are required;
 * local_start and local_stop may be NULL. EM_EO_UNDEF on error. */
em_eo_t em_eo_create(const char *name, em_start_func_t start, em_start_local_func_t local_start,
                     em_stop_func_t stop, em_stop_local_func_t local_stop,
                     em_receive_func_t receive, const void *eo_ctx);

/* Parameters of em_eo_create_multircv; initialise with
 * em_eo_multircv_param_init() (mandatory). max_events: events per call, 1 ..
 * EM_EO_MULTIRCV_MAX_EVENTS (0: that maximum). */
typedef struct {
    em_start_func_t start;
    em_start_local_func_t local_start;
    em_stop_func_t stop;
    em_stop_local_func_t local_stop;
    em_receive_multi_func_t receive_multi;
    int max_events;
    const void *eo_ctx;
    uint32_t __internal_check;
} em_eo_multircv_param_t;

void em_eo_multircv_param_init(em_eo_multircv_param_t *param);
em_eo_t em_eo_create_multircv(const char *name, const em_eo_multircv_param_t *param);

/* Delete a created (not running) EO that has no queues (else
 * EM_ERR_BAD_STATE). */
em_status_t em_eo_delete(em_eo_t eo);

size_t em_eo_get_name(em_eo_t eo, char *name, size_t maxlen);
em_eo_t em_eo_find(const char *name);

/* Add a scheduled queue to the EO. The queue must not belong to an EO. The
 * notifications are sent once the queue is added (here: at once).
 * Unscheduled queues are refused (EM_ERR_BAD_TYPE). */
em_status_t em_eo_add_queue(em_eo_t eo, em_queue_t queue, int num_notif,
                            const em_notif_t notif_tbl[]);
em_status_t em_eo_add_queue_sync(em_eo_t eo, em_queue_t queue);

/* Remove a queue from the EO. Its events stay in it (and are received if it
 * is added to a running EO again). */
em_status_t em_eo_remove_queue(em_eo_t eo, em_queue_t queue, int num_notif,
                               const em_notif_t notif_tbl[]);
em_status_t em_eo_remove_queue_sync(em_eo_t eo, em_queue_t queue);
/* Remove every queue; with delete_queues also delete them (their events are
 * freed). */
em_status_t em_eo_remove_queue_all(em_eo_t eo, int delete_queues, int num_notif,
                                   const em_notif_t notif_tbl[]);
em_status_t em_eo_remove_queue_all_sync(em_eo_t eo, int delete_queues);

/* The EO's own error handler, called before the global one for errors in its
 * receive, start and stop functions. */
em_status_t em_eo_register_error_handler(em_eo_t eo, em_error_handler_t handler);
em_status_t em_eo_unregister_error_handler(em_eo_t eo);

/*
 * Start the EO: its start function runs now on the calling core (its return
 * goes to *result if result is not NULL); on EM_OK each EM core runs
 * local_start from its dispatch loop (the calling core at once), and once
 * all have, the EO is running and the notifications are sent. Events of its
 * queues are dispatched only then.
 * A core that calls em_init_core later runs the local start then.
 * em_eo_start_sync: the same without notifications. Deviation from em-odp: it
 * returns after the calling core's local start, not every core's (each other
 * core runs its local start before it receives any event of the EO; waiting
 * for cores not yet dispatching would deadlock a program that starts EOs
 * before its dispatch loops).
 */
em_status_t em_eo_start(em_eo_t eo, em_status_t *result, const em_eo_conf_t *conf, int num_notif,
                        const em_notif_t notif_tbl[]);
em_status_t em_eo_start_sync(em_eo_t eo, em_status_t *result, const em_eo_conf_t *conf);

/* Stop the EO: no more events of its queues are dispatched; each core runs
 * local_stop (the calling core at once, the others from their dispatch loops
 * or em_term_core), then stop runs and the notifications are sent. Events stay
 * in its queues. em_eo_stop_sync returns when stop has run: the other EM cores
 * must be dispatching (or end with em_term_core) meanwhile. */
em_status_t em_eo_stop(em_eo_t eo, int num_notif, const em_notif_t notif_tbl[]);
em_status_t em_eo_stop_sync(em_eo_t eo);

/* The EO whose function is running on this core, or EM_EO_UNDEF. */
em_eo_t em_eo_current(void);
void *em_eo_get_context(em_eo_t eo);
em_eo_state_t em_eo_get_state(em_eo_t eo);
uint64_t em_eo_to_u64(em_eo_t eo);

#ifdef __cplusplus
}
#endif
#endif
