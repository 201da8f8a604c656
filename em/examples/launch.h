/*
 * launch.h -- the start-up the em examples share (ours; em-odp's programs
 * have cm_setup for the same job).
 *
 * A program describes itself as a struct launch_prog and its main returns
 * launch(argc, argv, &prog). launch parses -c CORES [-s], starts one thread
 * per core (natively) and runs launch_core on each (and with -s one thread
 * more that runs launch_sched, the scheduler core): EM is initialised once, every
 * core becomes an EM core and dispatches until some core calls launch_stop.
 * In simulation (apps/em/) every simulated core calls launch_core itself.
 */
#ifndef EM_EXAMPLES_LAUNCH_H
#define EM_EXAMPLES_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

struct launch_conf {
    int cores;       /* EM cores of the run */
    bool sched_core; /* a scheduler core of its own (EM_IPCSIM_SCHED_CORE):
                        one platform core more, not an EM core */
    /* with sched_core: em_conf_t.ipcsim.preload_bytes (0: the dispatchers
     * preload themselves) */
    uint32_t preload_bytes;
    /* with sched_core: em_conf_t.ipcsim.sched_on_demand (the scheduler
     * assigns a core an event only once it asks) */
    bool sched_on_demand;
};

struct launch_prog {
    const char *name;
    const char *summary; /* one line for --help */
    /* Every core, after its em_init_core (core 0 first, so it may create the
     * shared state the others look up). */
    void (*init)(const struct launch_conf *conf);
    /* EM core 0, once every core has run init: create and start the EOs. */
    void (*start)(const struct launch_conf *conf);
    /* EM core 0, once every core has left its dispatch loop. */
    void (*stop)(const struct launch_conf *conf);
    /* Every core, before its em_term_core. */
    void (*term)(const struct launch_conf *conf);
};

/* The native form: parse argv, run prog on -c CORES threads (default 2).
 * Returns the exit status: 0, or 1 on an error or a launch_stop(1). */
int launch(int argc, char **argv, const struct launch_prog *prog);

/* The per-core part, on every core of the run (plat.h calls only): first is
 * true on exactly one core, the one that calls em_init and em_term. Returns
 * the run's status (the same on every core). */
int launch_core(const struct launch_prog *prog, const struct launch_conf *conf, bool first);

/* The scheduler core's part (conf->sched_core), on the one platform core
 * that is not an EM core: em_ipcsim_sched_run until every EM core has
 * called em_term_core. Returns the run's status as launch_core. */
int launch_sched(const struct launch_conf *conf);

/* From any core (a receive function): end every core's dispatch loop.
 * status != 0 marks the run failed; the first nonzero status is kept. */
void launch_stop(int status);

#endif
