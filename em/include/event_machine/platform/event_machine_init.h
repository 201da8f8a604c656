/*
 * event_machine_init.h -- starting and ending EM.
 *
 * Sequence: one core calls em_conf_init(&conf), fills conf, em_init(&conf);
 * then every core that takes part (conf.core_count of them, the first
 * included) calls em_init_core(); each becomes an EM core with the next id,
 * 0 .. core_count-1, in call order. At the end every core calls
 * em_term_core() and one core em_term(&conf).
 *
 * The shared instance lives in the named shared region "em" (plat_shared_map),
 * so on the native backend the cores are the threads of a run; on the sim
 * backend they are simulated cores. Per-core state hangs from the platform's
 * PLAT_SLOT_EM core slot: EM keeps no globals.
 */
#ifndef EVENT_MACHINE_INIT_H
#define EVENT_MACHINE_INIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* ipcsim extension: where the scheduling function runs (em_conf_t.ipcsim). */
typedef enum {
    /* Each dispatching core runs the scheduler itself (the default). */
    EM_IPCSIM_SCHED_INLINE = 0,
    /* A scheduler of its own (the KeyStone QMSS PDSP firmware): a platform
     * core that is not an EM core calls em_ipcsim_sched_run(); it pops ready
     * events by priority and queue type and pushes them into per-core
     * dispatch queues (hardware queues of the hwq device, one per EM core);
     * each em_dispatch pops its own. See docs/em.md. */
    EM_IPCSIM_SCHED_CORE = 1
} em_ipcsim_sched_mode_t;

/* EM configuration. Initialise with em_conf_init() (mandatory: em_init checks
 * it), then set at least core_count and phys_mask. */
typedef struct {
    uint16_t device_id;       /* reported by em_device_id() */
    int event_timer;          /* must be 0: no event timer in this version */
    int thread_per_core;      /* accepted: each EM core is a plat core */
    int process_per_core;     /* accepted */
    int core_count;           /* EM cores, 1 .. EM_MAX_CORES */
    em_core_mask_t phys_mask; /* accepted (plat core numbers; EM ids are in
                                 em_init_core call order) */
    /* EM_POOL_DEFAULT; num_subpools == 0 picks the library's default */
    em_pool_cfg_t default_pool_cfg;
    struct {
        em_log_func_t log_fn;   /* NULL: stdout / stderr */
        em_vlog_func_t vlog_fn; /* NULL: stdout / stderr */
    } log;
    struct {
        em_input_poll_func_t input_poll_fn; /* NULL: none */
        em_core_mask_t input_poll_mask;     /* zero: every core */
    } input;
    struct {
        em_output_drain_func_t output_drain_fn; /* NULL: none */
        em_core_mask_t output_drain_mask;       /* zero: every core */
    } output;
    /* ipcsim extensions */
    struct {
        const char *hwq_device; /* plat_hwq device name; NULL: "hwq" */
        em_ipcsim_sched_mode_t sched_mode;
        /* EM_IPCSIM_SCHED_CORE: events the scheduler hands a core ahead of
         * its dispatch (they wait in its dispatch queue, their atomic or
         * ordered context taken), 1..EM_IPCSIM_SCHED_DEPTH_MAX; 0: 1. */
        int sched_depth;
        /* EM_IPCSIM_SCHED_CORE: each EM core keeps sched_depth + 1 buffers
         * of this many bytes in its local memory, and the scheduler core
         * preloads an event of a preload queue (EM_QUEUE_FLAG_IPCSIM_PRELOAD)
         * of at most this size into one by DMA before handing it over: the
         * transfer's completion pushes it into the core's dispatch queue (the
         * KeyStone packet DMA). 0, or a bigger event: the dispatcher preloads
         * it itself, as inline. */
        uint32_t preload_bytes;
        /* EM_IPCSIM_SCHED_CORE: 1 = the scheduler hands a core an event only
         * once that core's dispatcher has found nothing to run (it asks; one
         * event per ask, sched_depth unused): each decision waits for a core,
         * as a firmware that schedules on request. 0: it fills the dispatch
         * queues ahead (sched_depth). */
        int sched_on_demand;
    } ipcsim;
    uint32_t __internal_check;
} em_conf_t;

#define EM_IPCSIM_SCHED_DEPTH_MAX 16

/* Set every field to its default and mark the struct initialised. */
void em_conf_init(em_conf_t *conf);

/* Create the EM instance. EM_OK, or EM_ERR_BAD_ARG (conf not initialised by
 * em_conf_init, bad core_count), EM_ERR_BAD_STATE (already initialised),
 * EM_ERR_ALLOC_FAILED (shared memory), EM_ERR_NOT_FOUND (the hwq device). */
em_status_t em_init(const em_conf_t *conf);

/* Make the calling core an EM core. EM_ERR_NOT_INITIALIZED before em_init,
 * EM_ERR_TOO_LARGE when core_count cores already have, EM_ERR_BAD_STATE when
 * this core already is one. */
em_status_t em_init_core(void);

/* ipcsim extension, EM_IPCSIM_SCHED_CORE: run the scheduler on the calling
 * platform core, which must not be an EM core, until em_term is called or
 * every EM core has called em_term_core. EM_OK on that end;
 * EM_ERR_NOT_INITIALIZED before em_init, EM_ERR_BAD_STATE in the inline mode,
 * on an EM core, or when a scheduler already runs. */
em_status_t em_ipcsim_sched_run(void);

/* End EM on the calling core (after its last dispatch); runs the local stops
 * still due on it. */
em_status_t em_term_core(void);

/* End the instance: tells every em_dispatch(0) loop to return; once every EM
 * core has called em_term_core() frees the pools and the shared region (EM_OK),
 * before that returns EM_ERR_BAD_STATE (call it again later). */
em_status_t em_term(const em_conf_t *conf);

uint16_t em_device_id(void);

#ifdef __cplusplus
}
#endif
#endif
