/*
 * event_machine_dispatcher.h -- the dispatch loop each EM core runs.
 *
 * A round: run the pending local starts/stops of this core, poll input,
 * schedule (pick the highest-priority ready queue of a group this core is in,
 * round-robin within a priority), receive one event (or a burst for a
 * multircv EO), end its context, drain output. An idle round waits for work
 * through the platform (a hardware-queue or event wait), so simulated time
 * advances and an idle core does not spin.
 */
#ifndef EVENT_MACHINE_DISPATCHER_H_
#define EVENT_MACHINE_DISPATCHER_H_

#ifdef __cplusplus
extern "C" {
#endif

/* What ends an em_dispatch_duration() call: select is a bit set; the first
 * limit reached ends the call. FOREVER: until em_term. */
typedef enum {
    EM_DISPATCH_DURATION_FOREVER = 0,
    EM_DISPATCH_DURATION_ROUNDS = 1,
    EM_DISPATCH_DURATION_NS = 2,
    EM_DISPATCH_DURATION_EVENTS = 4,
    EM_DISPATCH_DURATION_NO_EVENTS_ROUNDS = 8,
    EM_DISPATCH_DURATION_NO_EVENTS_NS = 16,
    EM_DISPATCH_DURATION_LAST
} em_dispatch_duration_select_t;

typedef struct {
    em_dispatch_duration_select_t select;
    uint64_t rounds; /* scheduling rounds */
    uint64_t ns;     /* nanoseconds (plat_now_ns: simulated time in simulation) */
    uint64_t events; /* events dispatched */
    struct {
        uint64_t rounds; /* consecutive rounds without an event */
        uint64_t ns;     /* time without an event */
    } no_events;
} em_dispatch_duration_t;

/* Options; initialise with em_dispatch_opt_init() (mandatory). wait_ns: how
 * long an idle round waits for work (0: the library's default slice);
 * burst_size: checked (at most EM_EO_MULTIRCV_MAX_EVENTS) and otherwise
 * without effect: a round receives one event, or up to max_events of one
 * queue for a multircv EO; skip_input_poll / skip_output_drain: do not call
 * conf's functions; sched_pause: accepted, no effect. */
typedef struct {
    uint64_t wait_ns;
    uint16_t burst_size;
    bool skip_input_poll;
    bool skip_output_drain;
    bool sched_pause;
    uint32_t __internal_check;
} em_dispatch_opt_t;

typedef struct {
    uint64_t rounds;
    uint64_t ns;
    uint64_t events;
} em_dispatch_results_t;

void em_dispatch_opt_init(em_dispatch_opt_t *opt);

/* Dispatch until duration is reached. opt may be NULL (defaults), results may
 * be NULL. EM_OK, EM_ERR_BAD_ARG, EM_ERR_BAD_STATE (not an EM core, or called
 * from a receive). */
em_status_t em_dispatch_duration(const em_dispatch_duration_t *duration,
                                 const em_dispatch_opt_t *opt,
                                 em_dispatch_results_t *results /*out*/);
em_status_t em_dispatch_ns(uint64_t ns, const em_dispatch_opt_t *opt,
                           em_dispatch_results_t *results /*out*/);
em_status_t em_dispatch_events(uint64_t events, const em_dispatch_opt_t *opt,
                               em_dispatch_results_t *results /*out*/);
em_status_t em_dispatch_rounds(uint64_t rounds, const em_dispatch_opt_t *opt,
                               em_dispatch_results_t *results /*out*/);

/* Dispatch rounds rounds (0: until em_term); returns the events dispatched. */
uint64_t em_dispatch(uint64_t rounds);

/* Called on the dispatching core just before a receive (it may change the
 * events, queue and contexts passed; an event set to EM_EVENT_UNDEF is not
 * passed), and just after it returns. At most EM_CALLBACKS_MAX of each; a
 * registration is for every core. */
typedef void (*em_dispatch_enter_func_t)(em_eo_t eo, void **eo_ctx, em_event_t events[/*in/out*/],
                                         int num, em_queue_t *queue, void **q_ctx);
typedef void (*em_dispatch_exit_func_t)(em_eo_t eo);

em_status_t em_dispatch_register_enter_cb(em_dispatch_enter_func_t func);
em_status_t em_dispatch_unregister_enter_cb(em_dispatch_enter_func_t func);
em_status_t em_dispatch_register_exit_cb(em_dispatch_exit_func_t func);
em_status_t em_dispatch_unregister_exit_cb(em_dispatch_exit_func_t func);

#ifdef __cplusplus
}
#endif
#endif
