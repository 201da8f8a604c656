/*
 * core.c -- cores, contexts, slots and random numbers (native).
 *
 * Natively each thread finds its context through a thread-local pointer (the
 * no-TLS rule binds library code and the sim, where cores share a thread).
 * Cores live in a table indexed by core number. Contexts are never freed: a
 * thread that outlives its run may still hold one. A generation number tells
 * such a thread that its core is gone; it is then adopted afresh.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALL_CAPS                                                                                   \
    (PLAT_CAP_CAS | PLAT_CAP_FETCH_ADD | PLAT_CAP_LOCAL_MEM | PLAT_CAP_DMA | PLAT_CAP_THREADS)

/* A retired array of core pointers (kept: a reader may still look at it). */
struct old_table {
    struct nat_ctx **v;
    struct old_table *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct nat_ctx **table; /* atomic pointer; entries [0, count) valid */
static int count;              /* atomic */
static int capacity;
static unsigned gen = 1;      /* atomic */
static uint64_t run_seed;     /* under lock */
static struct nat_ctx *all;   /* every context ever made */
static struct old_table *old; /* every table ever replaced */

/* initial-exec: every plat call reads these (nat_self); the -fPIC default,
 * general-dynamic, made each read a __tls_get_addr call, ~10 % of em's
 * dispatch loop. The library is linked into programs (static archives), and
 * 16 bytes fit the static TLS surplus even in a dlopen'ed object. */
static _Thread_local struct nat_thr *tls_thr __attribute__((tls_model("initial-exec")));
static _Thread_local unsigned tls_gen __attribute__((tls_model("initial-exec")));

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator whose
 * state is a counter, so threads of one core can share it with one atomic add. */
#define GOLDEN 0x9e3779b97f4a7c15ull
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Append a new core (lock held). */
static struct nat_ctx *add_core(const char *type, unsigned caps, double clock_mhz,
                                unsigned rx_channels)
{
    struct nat_ctx *c = calloc(1, sizeof *c);
    char *t = strdup(type ? type : "native");
    if (!c || !t) {
        fputs("ipcsim: native: out of memory for a core\n", stderr);
        abort();
    }
    if (count == capacity) {
        int cap = capacity ? capacity * 2 : 16;
        struct nat_ctx **v = calloc((size_t)cap, sizeof *v);
        struct old_table *o = malloc(sizeof *o);
        if (!v || !o) {
            fputs("ipcsim: native: out of memory for the core table\n", stderr);
            abort();
        }
        if (count) memcpy(v, table, (size_t)count * sizeof *v);
        o->v = table;
        o->next = old;
        old = o;
        __atomic_store_n(&table, v, __ATOMIC_RELEASE);
        capacity = cap;
    }
    c->index = count;
    c->type = t;
    c->caps = caps;
    c->clock_mhz = clock_mhz;
    c->rng = mix64(run_seed + GOLDEN * (uint64_t)(count + 1));
    nat_engine_init(&c->engine);
    nat_rx_init(c, rx_channels);
    c->main.core = c;
    c->all_next = all;
    all = c;
    table[count] = c;
    __atomic_store_n(&count, count + 1, __ATOMIC_RELEASE);
    return c;
}

unsigned nat_cores_reset(const struct plat_core_desc *cores, int n, uint64_t seed)
{
    pthread_mutex_lock(&lock);
    unsigned g = __atomic_add_fetch(&gen, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&count, 0, __ATOMIC_RELEASE);
    run_seed = seed;
    for (int i = 0; i < n; i++)
        add_core(cores[i].type, cores[i].caps, cores[i].clock_mhz, cores[i].rx_channels)
            ->local_bytes = cores[i].local_bytes;
    pthread_mutex_unlock(&lock);
    return g;
}

unsigned nat_gen(void)
{
    return __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
}

void nat_bind(struct nat_thr *t, unsigned g)
{
    tls_thr = t;
    tls_gen = g;
}

/* In a job (job.c) the process is core j->core of j->cores: the table holds
 * the job's cores (the others stand for the other processes, for plat_cores
 * and plat_core_type), and every thread no run started is a thread of the
 * process's core, the first one its main thread (lock held). */
static struct nat_thr *adopt_in_job(const struct nat_job *j, unsigned g)
{
    static unsigned job_gen; /* the generation whose table holds the job's cores */
    struct nat_thr *t;
    if (job_gen != g || count < j->cores) {
        for (int i = count; i < j->cores; i++)
            add_core("native", ALL_CAPS, 0, NAT_ADOPTED_RX_CHANNELS);
        job_gen = g;
        t = &table[j->core]->main;
    } else if (!(t = calloc(1, sizeof *t))) {
        fputs("ipcsim: native: out of memory for a thread\n", stderr);
        abort();
    } else {
        t->core = table[j->core]; /* never freed, like contexts */
    }
    return t;
}

/* Out of line, so that nat_self's fast path saves no registers. */
static __attribute__((noinline)) struct nat_thr *adopt_self(void)
{
    struct nat_thr *t;
    const struct nat_job *j = nat_job(); /* before the lock: a bad variable exits */
    pthread_mutex_lock(&lock);
    unsigned g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
    if (j) {
        t = adopt_in_job(j, g);
    } else {
        /* A thread no run started: a core of its own, with every capability. */
        t = &add_core("native", ALL_CAPS, 0, NAT_ADOPTED_RX_CHANNELS)->main;
    }
    nat_bind(t, g);
    pthread_mutex_unlock(&lock);
    return t;
}

struct nat_thr *nat_self(void)
{
    struct nat_thr *t = tls_thr;
    if (__builtin_expect(t && tls_gen == __atomic_load_n(&gen, __ATOMIC_ACQUIRE), 1)) return t;
    return adopt_self();
}

struct nat_ctx *nat_core_find(int index)
{
    int n = __atomic_load_n(&count, __ATOMIC_ACQUIRE);
    if (index < 0 || index >= n) return NULL;
    return __atomic_load_n(&table, __ATOMIC_ACQUIRE)[index];
}

struct nat_ctx *nat_core_at(int index, const char *call)
{
    struct nat_ctx *c = nat_core_find(index);
    if (!c) nat_die("%s: no core %d (the run has %d)", call, index, nat_cores());
    return c;
}

_Noreturn void nat_die(const char *fmt, ...)
{
    struct nat_ctx *c = nat_self()->core;
    char msg[512];
    int n = snprintf(msg, sizeof msg, "ipcsim: core %d (%s): ", c->index, c->type);
    if (n < 0 || (size_t)n >= sizeof msg) n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg); /* one write: cores may die at the same time */
    fflush(stderr);
    abort();
}

/* The process is the run's cores (a threaded run) or one core of a job
 * (plat/native/job.c): ending it is the abort. stdio is flushed first so
 * that what the program printed before is not lost in a pipe's buffer. */
_Noreturn void nat_abort(int code, const char *msg)
{
    size_t n = strlen(msg);
    fprintf(stderr, "%s%s", msg, n && msg[n - 1] == '\n' ? "" : "\n");
    fflush(NULL);
    _exit(code & 255 ? code & 255 : 1);
}

/* ---- plat.h ---------------------------------------------------------------- */

int nat_core(void)
{
    return nat_self()->core->index;
}

int nat_cores(void)
{
    nat_self(); /* the caller counts */
    return __atomic_load_n(&count, __ATOMIC_ACQUIRE);
}

const char *nat_core_type(int core)
{
    return nat_core_at(core, "plat_core_type")->type;
}
unsigned nat_core_caps(int core)
{
    return nat_core_at(core, "plat_core_caps")->caps;
}
double nat_core_clock_mhz(int core)
{
    return nat_core_at(core, "plat_core_clock_mhz")->clock_mhz;
}

void **nat_core_slot(enum plat_slot slot)
{
    if ((unsigned)slot >= PLAT_SLOTS) nat_die("plat_core_slot: no slot %d", (int)slot);
    return &nat_self()->core->slots[slot];
}

void **nat_thread_slot(enum plat_slot slot)
{
    if ((unsigned)slot >= PLAT_SLOTS) nat_die("plat_thread_slot: no slot %d", (int)slot);
    return &nat_self()->slots[slot];
}

uint64_t nat_random(void)
{
    struct nat_ctx *c = nat_self()->core;
    return mix64(__atomic_add_fetch(&c->rng, GOLDEN, __ATOMIC_RELAXED));
}
