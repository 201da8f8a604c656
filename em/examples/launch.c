/*
 * launch.c -- the examples' start-up (launch.h).
 *
 * launch_core is the part every core runs and calls only EM and plat.h, so
 * the same code starts a program natively and in simulation, where all cores
 * share one host thread. The cores meet in a named shared region: a word
 * saying EM is initialised, a barrier counter, the stop words and the status.
 * launch is the native form: POSIX threads, each adopted by the platform as
 * a core of its own on its first call (plat.h, CORES AND THREADS).
 */
#define _POSIX_C_SOURCE 200809L
#include "launch.h"

#include <event_machine.h>
#include <ipcsim/plat.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGION "em_launch"
/* A core that waits longer than this for the others has lost them. */
#define WAIT_NS (120ull * 1000000000ull)
/* Dispatch rounds between looks at the stop word. */
#define ROUNDS 32

struct launch_shared {
    uint64_t inited;  /* 0 until em_init returned; 1 ok, 2 failed */
    uint64_t arrived; /* barrier: cores arrived so far, over all barriers */
    uint64_t stop;    /* launch_stop was called: leave the dispatch loop */
    uint64_t stopped; /* core 0's prog->stop returned */
    uint64_t status;
};

static struct launch_shared *region(void)
{
    int st = 0;
    struct launch_shared *sh = plat_shared_map(REGION, sizeof *sh, NULL, &st);
    if (!sh) fprintf(stderr, "launch: plat_shared_map(\"%s\"): %s\n", REGION, plat_strerror(st));
    return sh;
}

static void set_status(struct launch_shared *sh, uint64_t status)
{
    uint64_t zero = 0;
    if (status) (void)plat_cas64(&sh->status, &zero, status);
}

/* A barrier of `cores` cores. Arrivals are counted over the run, so every
 * core keeps *due, the arrivals due by the end of this barrier. */
static int barrier(struct launch_shared *sh, uint64_t *due, int cores, const char *where)
{
    uint64_t target = *due += (uint64_t)cores;
    plat_fetch_add64(&sh->arrived, 1);
    for (uint64_t v = plat_load64(&sh->arrived); v < target; v = plat_load64(&sh->arrived))
        if (plat_poll64(&sh->arrived, v, WAIT_NS) == PLAT_ETIMEDOUT) {
            fprintf(stderr, "launch: core %d: barrier %s: %llu of %llu cores after %llu s\n",
                    plat_core(), where, (unsigned long long)(v - target + (uint64_t)cores),
                    (unsigned long long)cores, (unsigned long long)(WAIT_NS / 1000000000ull));
            return -1;
        }
    return 0;
}

/* A core other than the first: wait for em_init (0), or say it failed. */
static int wait_inited(struct launch_shared *sh)
{
    while (plat_load64(&sh->inited) == 0)
        if (plat_poll64(&sh->inited, 0, WAIT_NS) == PLAT_ETIMEDOUT) break;
    if (plat_load64(&sh->inited) == 1) return 0;
    fprintf(stderr, "launch: core %d: EM not initialised\n", plat_core());
    plat_shared_unmap(sh);
    return 1;
}

static int init_em(const struct launch_conf *conf)
{
    em_conf_t c;
    em_conf_init(&c);
    c.core_count = conf->cores;
    em_core_mask_set_count(conf->cores, &c.phys_mask);
    if (conf->sched_core) c.ipcsim.sched_mode = EM_IPCSIM_SCHED_CORE;
    c.ipcsim.preload_bytes = conf->preload_bytes;
    c.ipcsim.sched_on_demand = conf->sched_on_demand;
    em_status_t s = em_init(&c);
    if (s != EM_OK) fprintf(stderr, "launch: em_init(core_count %d): 0x%x\n", conf->cores, s);
    return s == EM_OK ? 0 : -1;
}

int launch_core(const struct launch_prog *prog, const struct launch_conf *conf, bool first)
{
    struct launch_shared *sh = region();
    if (!sh) return 1;
    /* the first two barriers have the scheduler core too */
    int n = conf->cores, all = n + conf->sched_core, bad = 0;
    uint64_t b = 0;
    if (first) {
        int ok = init_em(conf) == 0;
        plat_store64(&sh->inited, ok ? 1 : 2);
        if (!ok) {
            plat_shared_unmap(sh);
            return 1;
        }
    } else if (wait_inited(sh) != 0) {
        return 1;
    }
    /* Core 0 becomes EM core 0 first: its init may create what the others find. */
    if (!first && barrier(sh, &b, all, "em_init_core") != 0) return 1;
    em_status_t s = em_init_core();
    if (s != EM_OK) {
        fprintf(stderr, "launch: core %d: em_init_core: 0x%x\n", plat_core(), s);
        set_status(sh, 1);
        bad = 1;
    }
    if (!bad && prog->init) prog->init(conf);
    if (first && barrier(sh, &b, all, "em_init_core") != 0) return 1;
    if (barrier(sh, &b, all, "init") != 0) return 1;
    if (!bad && em_core_id() == 0 && prog->start) prog->start(conf);
    while (!bad && plat_load64(&sh->stop) == 0) em_dispatch(ROUNDS);
    /* em_eo_stop_sync runs each core's local stop from its dispatch loop:
     * the others dispatch until core 0's stop has returned. */
    if (!bad && em_core_id() == 0) {
        if (prog->stop) prog->stop(conf);
        plat_store64(&sh->stopped, 1);
    }
    while (!bad && plat_load64(&sh->stopped) == 0) em_dispatch(ROUNDS);
    if (barrier(sh, &b, n, "stop") != 0) return 1;
    if (!bad && prog->term) prog->term(conf);
    if (!bad && (s = em_term_core()) != EM_OK) {
        fprintf(stderr, "launch: core %d: em_term_core: 0x%x\n", plat_core(), s);
        set_status(sh, 1);
    }
    if (barrier(sh, &b, n, "em_term_core") != 0) return 1;
    if (first) {
        em_conf_t c;
        em_conf_init(&c);
        c.core_count = n;
        if ((s = em_term(&c)) != EM_OK) {
            fprintf(stderr, "launch: em_term: 0x%x\n", s);
            set_status(sh, 1);
        }
    }
    if (barrier(sh, &b, n, "em_term") != 0) return 1;
    int status = plat_load64(&sh->status) != 0;
    if (barrier(sh, &b, n, "exit") != 0) return 1;
    plat_shared_unmap(sh);
    return status;
}

int launch_sched(const struct launch_conf *conf)
{
    struct launch_shared *sh = region();
    if (!sh) return 1;
    int all = conf->cores + 1;
    uint64_t b = 0;
    if (wait_inited(sh) != 0) return 1;
    if (barrier(sh, &b, all, "em_init_core") != 0 || barrier(sh, &b, all, "init") != 0) return 1;
    em_status_t s = em_ipcsim_sched_run();
    if (s != EM_OK) {
        fprintf(stderr, "launch: core %d: em_ipcsim_sched_run: 0x%x\n", plat_core(), s);
        set_status(sh, 1);
    }
    plat_shared_unmap(sh);
    return s != EM_OK;
}

void launch_stop(int status)
{
    struct launch_shared *sh = region();
    if (!sh) return;
    set_status(sh, status != 0);
    plat_store64(&sh->stop, 1);
    plat_shared_unmap(sh);
}

/* ---- the native form ---------------------------------------------------- */

struct thread_arg {
    const struct launch_prog *prog;
    const struct launch_conf *conf;
    pthread_barrier_t *adopted;
    int index, status;
};

static void *core_thread(void *p)
{
    struct thread_arg *a = p;
    (void)plat_core(); /* become a core of the platform before em_init counts them */
    pthread_barrier_wait(a->adopted);
    a->status = a->index == a->conf->cores ? launch_sched(a->conf)
                                           : launch_core(a->prog, a->conf, a->index == 0);
    return NULL;
}

static void usage(FILE *f, const char *argv0, const struct launch_prog *prog)
{
    fprintf(f,
            "usage: %s [-c CORES] [-s]\n"
            "%s: %s\n"
            "  -c CORES   EM cores, one thread each (default 2)\n"
            "  -s         a scheduler core of its own: one thread more, not an EM core\n"
            "             (EM_IPCSIM_SCHED_CORE, as KeyStone's QMSS scheduler)\n"
            "  -h, --help this text\n",
            argv0, prog->name, prog->summary);
}

int launch(int argc, char **argv, const struct launch_prog *prog)
{
    struct launch_conf conf = {.cores = 2};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout, argv[0], prog);
            return 0;
        }
        if (strcmp(argv[i], "-s") == 0) {
            conf.sched_core = true;
            continue;
        }
        char *end = NULL;
        long v = 0;
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) v = strtol(argv[++i], &end, 10);
        if (!end || *end || v < 1 || v > EM_MAX_CORES) {
            fprintf(stderr, "%s: bad argument '%s' (-c takes 1..%d)\n", argv[0], argv[i],
                    EM_MAX_CORES);
            usage(stderr, argv[0], prog);
            return 2;
        }
        conf.cores = (int)v;
    }
    int threads = conf.cores + conf.sched_core;
    pthread_t tid[EM_MAX_CORES + 1];
    struct thread_arg arg[EM_MAX_CORES + 1];
    pthread_barrier_t adopted;
    pthread_barrier_init(&adopted, NULL, (unsigned)threads);
    int started = 0, status = 0;
    for (int i = 0; i < threads; i++) {
        arg[i] = (struct thread_arg){prog, &conf, &adopted, i, 1};
        int e = pthread_create(&tid[i], NULL, core_thread, &arg[i]);
        if (e != 0) {
            fprintf(stderr, "%s: pthread_create(core %d): %s\n", argv[0], i, strerror(e));
            return 1; /* the started threads wait at the barrier; exit ends them */
        }
        started++;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(tid[i], NULL);
        status |= arg[i].status;
    }
    pthread_barrier_destroy(&adopted);
    return status;
}
