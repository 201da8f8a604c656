/*
 * tests/em/et.h -- shared by the em test cases.
 *
 * Every case is a platform case (harness.h): it runs on the ideal platform,
 * natively and in simulation, with as many cores as it needs. et_run does the
 * set-up every case shares, on every core:
 *
 *   core 0: em_conf_init, em_init (core_count = plat_cores()), the error
 *           handler of et (it counts errors and keeps the last one);
 *   every core: em_init_core, in plat core order, so EM core i is plat core i;
 *   core 0: ops->setup(ctx) while the other cores already dispatch (an
 *           em_eo_start_sync needs them to run its local starts);
 *   every core: em_dispatch until ops->done(ctx) (core 0 polls it) or
 *           ops->wait_ns (HARNESS_WAIT_NS), which fails the case;
 *   core 0: ops->finish(ctx) (asserts, stops and deletes EOs: the others
 *           still dispatch), then checks that no error was reported beyond
 *           ops->errors and that every event of the default pool is free;
 *   every core: em_term_core, then core 0 em_term.
 *
 * ctx is ops->ctx_size zeroed bytes of shared memory, the same on every core.
 */
#ifndef IPCSIM_TESTS_ET_H
#define IPCSIM_TESTS_ET_H

#include <event_machine.h>

#include "harness.h"
#include "ipcsim/plat.h"

#include <stdbool.h>
#include <stdint.h>

struct et_ops {
    size_t ctx_size;
    void (*setup)(void *ctx);  /* core 0, may be NULL */
    bool (*done)(void *ctx);   /* polled by core 0; NULL: done at once */
    void (*finish)(void *ctx); /* core 0, may be NULL */
    uint64_t errors;           /* errors the case provokes on purpose */
    uint64_t wait_ns;          /* how long the case may take; 0: HARNESS_WAIT_NS */
};

void et_run(const struct et_ops *ops);

/* The next et_run on this core runs EM with a scheduler core of its own
 * (EM_IPCSIM_SCHED_CORE): the last plat core calls em_ipcsim_sched_run and
 * the others are the EM cores. Every core of the case calls it first (the
 * *_sc cases). */
void et_sched_core(void);
/* The same with em_conf_t.ipcsim.sched_depth = depth (1 above). */
void et_sched_core_depth(int depth);
/* The same with em_conf_t.ipcsim.sched_on_demand = 1. */
void et_sched_core_demand(void);
/* Whether this run's scheduler core works on demand. */
bool et_is_sched_demand(void);
/* Whether this run has the scheduler core (et_sched_core was called). */
bool et_is_sched_core(void);
/* Its sched_depth (0: inline, no scheduler core). */
int et_sched_depth(void);
/* Case functions that run fn with the scheduler core: fn_sc with depth 1,
 * fn_sc4 with depth 4, fn_scd on demand. */
#define ET_SC(fn)                                                                                  \
    __attribute__((unused)) static void fn##_sc(void *arg)                                         \
    {                                                                                              \
        et_sched_core();                                                                           \
        fn(arg);                                                                                   \
    }                                                                                              \
    __attribute__((unused)) static void fn##_sc4(void *arg)                                        \
    {                                                                                              \
        et_sched_core_depth(4);                                                                    \
        fn(arg);                                                                                   \
    }                                                                                              \
    __attribute__((unused)) static void fn##_scd(void *arg)                                        \
    {                                                                                              \
        et_sched_core_demand();                                                                    \
        fn(arg);                                                                                   \
    }

/* The payload of a test event. */
struct et_msg {
    uint64_t seq;  /* per flow, from 0 */
    uint64_t flow; /* which queue or chain it belongs to */
    uint64_t aux;  /* a second sequence number, a stamp, ... */
    uint64_t id;   /* unique in the case */
};

/* An EO with start and stop functions that return EM_OK; fails the test on
 * EM_EO_UNDEF. */
em_eo_t et_eo(const char *name, em_receive_func_t receive, void *eo_ctx);
/* em_queue_create that fails the test on EM_QUEUE_UNDEF. */
em_queue_t et_queue(const char *name, em_queue_type_t type, em_queue_prio_t prio,
                    em_queue_group_t group);
/* An event of the default pool holding msg; fails the test on EM_EVENT_UNDEF. */
em_event_t et_alloc(uint64_t flow, uint64_t seq, uint64_t aux, uint64_t id);
/* et_alloc then em_send, asserting EM_OK. */
void et_send(em_queue_t q, uint64_t flow, uint64_t seq, uint64_t aux, uint64_t id);
struct et_msg *et_msg(em_event_t ev); /* em_event_pointer, asserted non-NULL */
/* em_eo_start_sync asserting EM_OK (and the start's result). */
void et_start(em_eo_t eo);
/* em_eo_stop_sync, em_eo_remove_queue_all_sync(delete queues), em_eo_delete,
 * each asserted EM_OK. */
void et_end(em_eo_t eo);

/* Take time inside a receive on both backends: n timed loads (each one a
 * transaction in simulation, a real load natively). */
void et_spin(unsigned n);

/* Errors seen by et's handler in this run, and the last one's code and scope. */
uint64_t et_errors(void);
uint64_t et_last_error(void);
uint64_t et_last_escope(void);

/* Buffers of the default pool allocated now (the sum over its subpools). */
uint64_t et_pool_used(em_pool_t pool);

/* max(*p, v), atomically (CAS). */
void et_max(uint64_t *p, uint64_t v);

/* An environment variable's unsigned value, or def when unset or bad. */
uint64_t et_env_u64(const char *name, uint64_t def);

void et_sched_cases(void);
void et_egrp_cases(void);
void et_queue_cases(void);
void et_misuse_cases(void);
void et_stress_cases(void);
void et_resend_cases(void);
void et_preload_cases(void);

#endif
