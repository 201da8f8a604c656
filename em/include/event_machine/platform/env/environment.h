/*
 * environment.h -- the env_* helpers em-odp programs use: cycles and time,
 * shared memory, atomics, spinlocks, memory barriers, alignment.
 *
 * All of them go through the ipcsim platform interface (include/ipcsim/plat.h),
 * so they work on both backends: cycles are plat_now_ns() times the core's
 * clock (simulated time in simulation), shared memory is a named shared region,
 * atomics are plat atomics (timed transactions in simulation).
 */
#ifndef ENVIRONMENT_H_
#define ENVIRONMENT_H_

#include <stdint.h>
#include <stddef.h>
#include <ipcsim/plat.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ENV_CACHE_LINE_SIZE 64
#define ENV_CACHE_LINE_SIZE_ROUNDUP(x)                                                             \
    ((((x) + ENV_CACHE_LINE_SIZE - 1) / ENV_CACHE_LINE_SIZE) * ENV_CACHE_LINE_SIZE)
#define ENV_ALIGNED(x) __attribute__((__aligned__(x)))
#define ENV_CACHE_LINE_ALIGNED ENV_ALIGNED(ENV_CACHE_LINE_SIZE)
#define ENV_PREFETCH(addr) __builtin_prefetch((addr))

/* Per-thread storage, as em-odp's. Caution: in simulation every simulated core
 * runs in one host thread, so an ENV_LOCAL variable is shared by all cores
 * there; keep per-core data in shared memory indexed by em_core_id(). */
#ifndef __cplusplus
#define ENV_LOCAL __thread
#else
#define ENV_LOCAL thread_local
#endif

/* A compile-time check; msg is an identifier naming the failure. */
#ifndef __cplusplus
#define COMPILE_TIME_ASSERT(cond, msg) _Static_assert(cond, #msg)
#else
#define COMPILE_TIME_ASSERT(cond, msg) static_assert(cond, #msg)
#endif
#define ENV_LOWEST_BIT(n) ((n) & (~((n)-1)))
#define ENV_CLEAR_LOWEST_BIT(n) ((n) & ((n)-1))

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* ---- cycles and time ---------------------------------------------------- */

/* The calling core's cycle count: plat_now_ns() * env_core_hz() / 1e9. */
uint64_t env_get_cycle(void);
static inline uint64_t env_cycles_diff(uint64_t cycles2, uint64_t cycles1)
{
    return cycles2 - cycles1;
}
/* The calling core's clock (plat_core_clock_mhz); natively, where the platform
 * does not know it, 1 GHz, so that cycles read as nanoseconds. */
uint64_t env_core_hz(void);

/* A time stamp in nanoseconds (plat_now_ns: one clock for all cores). */
typedef uint64_t env_time_t;
#define ENV_TIME_NULL ((env_time_t)0)
#define ENV_TIME_USEC_IN_NS 1000ULL
#define ENV_TIME_MSEC_IN_NS 1000000ULL
#define ENV_TIME_SEC_IN_NS 1000000000ULL

env_time_t env_time_global(void);
env_time_t env_time_local(void);
static inline env_time_t env_time_diff(env_time_t time2, env_time_t time1)
{
    return time2 - time1;
}
static inline uint64_t env_time_diff_ns(env_time_t time2, env_time_t time1)
{
    return time2 - time1;
}
static inline env_time_t env_time_sum(env_time_t time1, env_time_t time2)
{
    return time1 + time2;
}
static inline env_time_t env_time_local_from_ns(uint64_t ns)
{
    return ns;
}
static inline env_time_t env_time_global_from_ns(uint64_t ns)
{
    return ns;
}
/* -1, 0 or 1 as time2 is before, equal to or after time1. */
static inline int env_time_cmp(env_time_t time2, env_time_t time1)
{
    return (time2 > time1) - (time2 < time1);
}
static inline uint64_t env_time_to_ns(env_time_t time)
{
    return time;
}
static inline uint64_t env_time_to_cycles(env_time_t time, uint64_t hz)
{
    /* split so that no product overflows for clocks below 18 GHz */
    return time / 1000000000u * hz + time % 1000000000u * hz / 1000000000u;
}
void env_time_wait_ns(uint64_t ns); /* plat_sleep_ns */

/* A full memory barrier. */
void env_sync_mem(void);

/* ---- shared memory ------------------------------------------------------ */

/* Reserve size bytes (zeroed) under name, reachable by every core of the run;
 * NULL if the name is taken or memory is short. */
void *env_shared_reserve(const char *name, size_t size);
/* The memory reserved under name, NULL if none. */
void *env_shared_lookup(const char *name);
/* Release memory of env_shared_reserve (once, by one core). */
void env_shared_free(void *buf);

/* ---- atomics (64-bit; plat atomics: the core needs PLAT_CAP_CAS) -------- */

typedef struct {
    uint64_t v;
} env_atomic64_t;

void env_atomic64_init(env_atomic64_t *atom); /* set to 0 */
void env_atomic64_set(env_atomic64_t *atom, uint64_t new_val);
uint64_t env_atomic64_get(const env_atomic64_t *atom);
void env_atomic64_dec(env_atomic64_t *atom);
void env_atomic64_inc(env_atomic64_t *atom);
void env_atomic64_add(env_atomic64_t *atom, uint64_t add_val);
void env_atomic64_sub(env_atomic64_t *atom, uint64_t sub_val);
uint64_t env_atomic64_add_return(env_atomic64_t *atom, uint64_t add_val); /* new value */
uint64_t env_atomic64_return_add(env_atomic64_t *atom, uint64_t add_val); /* old value */
uint64_t env_atomic64_sub_return(env_atomic64_t *atom, uint64_t sub_val); /* new value */
uint64_t env_atomic64_return_sub(env_atomic64_t *atom, uint64_t sub_val); /* old value */
/* 1 if *atom was expected and is now desired, else 0. */
int env_atomic64_cmpset(env_atomic64_t *atom, uint64_t expected, uint64_t desired);
uint64_t env_atomic64_exchange(env_atomic64_t *atom, uint64_t new_val); /* old value */

/* ---- spinlocks (a plat mutex: waiting advances simulated time) ---------- */

typedef struct {
    plat_mutex m;
    uint64_t locked;
} env_spinlock_t;

void env_spinlock_init(env_spinlock_t *const lock);
void env_spinlock_lock(env_spinlock_t *const lock);
int env_spinlock_trylock(env_spinlock_t *const lock); /* 1: taken */
int env_spinlock_is_locked(env_spinlock_t *const lock);
void env_spinlock_unlock(env_spinlock_t *const lock);

#ifdef __cplusplus
}
#endif
#endif
