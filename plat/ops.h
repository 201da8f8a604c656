/*
 * plat/ops.h -- the table of functions behind plat.h (internal).
 *
 * Each backend fills one `struct plat_ops`; plat.c forwards every plat_* call
 * to the table of the running backend. The list is written once, as
 * PLAT_OPS(X): X(return type, name, (parameters), (arguments)); void calls use
 * XV. The table member for plat_foo is `foo`.
 */
#ifndef IPCSIM_PLAT_OPS_H
#define IPCSIM_PLAT_OPS_H

#include "ipcsim/plat.h"

#define PLAT_OPS(X, XV)                                                                            \
    X(int, core, (void), ())                                                                       \
    X(int, cores, (void), ())                                                                      \
    X(const char *, core_type, (int core), (core))                                                 \
    X(unsigned, core_caps, (int core), (core))                                                     \
    X(double, core_clock_mhz, (int core), (core))                                                  \
    X(int, core_node, (int core), (core))                                                          \
    X(int, core_addr, (int core, char *buf, size_t len), (core, buf, len))                         \
    X(void **, core_slot, (enum plat_slot slot), (slot))                                           \
    X(void **, thread_slot, (enum plat_slot slot), (slot))                                         \
    X(uint64_t, random, (void), ())                                                                \
    X(uint64_t, now_ns, (void), ())                                                                \
    XV(sleep_ns, (uint64_t ns), (ns))                                                              \
    X(uint64_t, cost, (const char *name), (name))                                                  \
    XV(work_cycles, (uint64_t cycles), (cycles))                                                   \
    XV(mark, (int on), (on))                                                                       \
    X(plat_thread *, thread_spawn_on, (int core, void (*fn)(void *), void *arg, const char *name), \
      (core, fn, arg, name))                                                                       \
    XV(thread_join, (plat_thread * t), (t))                                                        \
    XV(yield, (void), ())                                                                          \
    XV(mutex_init, (plat_mutex * m, unsigned flags), (m, flags))                                   \
    XV(mutex_destroy, (plat_mutex * m), (m))                                                       \
    X(int, mutex_lock, (plat_mutex * m), (m))                                                      \
    X(bool, mutex_trylock, (plat_mutex * m), (m))                                                  \
    XV(mutex_unlock, (plat_mutex * m), (m))                                                        \
    X(uint64_t, proc_token, (void), ())                                                            \
    X(bool, proc_alive, (uint64_t token), (token))                                                 \
    XV(event_init, (plat_event * ev, unsigned flags), (ev, flags))                                 \
    XV(event_destroy, (plat_event * ev), (ev))                                                     \
    X(uint32_t, event_epoch, (plat_event * ev), (ev))                                              \
    X(int, event_wait, (plat_event * ev, uint32_t epoch, uint64_t timeout_ns),                     \
      (ev, epoch, timeout_ns))                                                                     \
    XV(event_notify, (plat_event * ev), (ev))                                                      \
    X(uint64_t, load64, (const uint64_t *p), (p))                                                  \
    XV(store64, (uint64_t * p, uint64_t v), (p, v))                                                \
    XV(store64_release, (uint64_t * p, uint64_t v), (p, v))                                        \
    X(bool, cas64, (uint64_t * p, uint64_t * expected, uint64_t desired), (p, expected, desired))  \
    X(uint64_t, fetch_add64, (uint64_t * p, uint64_t delta), (p, delta))                           \
    X(int, poll64, (const uint64_t *p, uint64_t old, uint64_t timeout_ns), (p, old, timeout_ns))   \
    XV(copy, (void *dst, const void *src, size_t n), (dst, src, n))                                \
    XV(touch, (const void *p, size_t n), (p, n))                                                   \
    X(void *, local_alloc, (size_t size, size_t align), (size, align))                             \
    XV(local_free, (void *p), (p))                                                                 \
    X(void *, shared_alloc, (size_t size, size_t align), (size, align))                            \
    XV(shared_free, (void *p), (p))                                                                \
    X(void *, shared_map, (const char *name, size_t size, bool *created, int *status),             \
      (name, size, created, status))                                                               \
    XV(shared_unmap, (void *p), (p))                                                               \
    X(bool, shared_crosses, (const char *name), (name))                                            \
    X(int, shared_home, (const void *p, size_t n, int core), (p, n, core))                         \
    X(void *, mem_alloc, (const char *memory, size_t size, size_t align, int *status),             \
      (memory, size, align, status))                                                               \
    X(int, dma_start,                                                                              \
      (plat_dma * d, void *dst, const void *src, size_t n, unsigned flags, int ring_core,          \
       uint32_t ring_bits),                                                                        \
      (d, dst, src, n, flags, ring_core, ring_bits))                                               \
    X(int, dma_test, (plat_dma * d), (d))                                                          \
    X(int, dma_wait, (plat_dma * d, uint64_t timeout_ns), (d, timeout_ns))                         \
    X(int, dma_start_push,                                                                         \
      (plat_dma * d, void *dst, const void *src, size_t n, plat_hwq *q, unsigned queue,            \
       void *desc),                                                                                \
      (d, dst, src, n, q, queue, desc))                                                            \
    X(unsigned, rx_channels, (void), ())                                                           \
    X(int, rx_post, (unsigned chan, void *buf, size_t cap, uint32_t ring_bits),                    \
      (chan, buf, cap, ring_bits))                                                                 \
    X(int, rx_take, (unsigned chan, size_t *len), (chan, len))                                     \
    X(int, rx_wait, (unsigned chan, size_t *len, uint64_t timeout_ns), (chan, len, timeout_ns))    \
    X(int, rx_cancel, (unsigned chan), (chan))                                                     \
    X(int, dma_send, (plat_dma * d, int core, unsigned chan, const void *src, size_t n),           \
      (d, core, chan, src, n))                                                                     \
    X(bool, dma_reach, (const void *p, size_t n), (p, n))                                          \
    XV(doorbell_ring, (int core, uint32_t bits), (core, bits))                                     \
    X(uint32_t, doorbell_wait, (uint32_t mask, uint64_t timeout_ns), (mask, timeout_ns))           \
    X(plat_hwq *, hwq_open, (const char *name, int *status), (name, status))                       \
    X(unsigned, hwq_queues, (plat_hwq * q), (q))                                                   \
    X(int, hwq_push, (plat_hwq * q, unsigned queue, void *desc), (q, queue, desc))                 \
    X(void *, hwq_pop, (plat_hwq * q, unsigned queue), (q, queue))                                 \
    X(unsigned, hwq_count, (plat_hwq * q, unsigned queue), (q, queue))                             \
    X(int, hwq_wait, (plat_hwq * q, unsigned queue, uint64_t timeout_ns), (q, queue, timeout_ns))  \
    X(plat_mesh *, mesh_open, (const char *name, int *status), (name, status))                     \
    X(size_t, mesh_word, (plat_mesh * m), (m))                                                     \
    XV(mesh_dims, (plat_mesh * m, int *rows, int *cols), (m, rows, cols))                          \
    X(int, mesh_pos, (plat_mesh * m, int core, int *row, int *col), (m, core, row, col))           \
    X(int, mesh_put, (plat_mesh * m, enum plat_mesh_dir dir, int dest, const void *word),          \
      (m, dir, dest, word))                                                                        \
    X(int, mesh_get, (plat_mesh * m, enum plat_mesh_dir dir, void *word, uint64_t timeout_ns),     \
      (m, dir, word, timeout_ns))                                                                  \
    X(int, accel_bind, (const char *name, plat_accel_fn fn, void *ctx), (name, fn, ctx))           \
    X(plat_accel *, accel_open, (const char *name, int *status), (name, status))                   \
    X(int, accel_run, (plat_accel * a, const void *in, size_t in_len, void *out, size_t out_len),  \
      (a, in, in_len, out, out_len))                                                               \
    X(plat_stream *, stream_listen, (const char *addr, int *status), (addr, status))               \
    X(plat_stream *, stream_accept, (plat_stream * l, uint64_t timeout_ns, int *status),           \
      (l, timeout_ns, status))                                                                     \
    X(plat_stream *, stream_connect, (const char *addr, uint64_t timeout_ns, int *status),         \
      (addr, timeout_ns, status))                                                                  \
    X(int, stream_pair, (plat_stream * ends[2]), (ends))                                           \
    X(long, stream_send, (plat_stream * s, const void *buf, size_t n, uint64_t timeout_ns),        \
      (s, buf, n, timeout_ns))                                                                     \
    X(long, stream_recv, (plat_stream * s, void *buf, size_t n, uint64_t timeout_ns),              \
      (s, buf, n, timeout_ns))                                                                     \
    XV(stream_close, (plat_stream * s), (s))                                                       \
    X(plat_poller *, poller_new, (void), ())                                                       \
    XV(poller_free, (plat_poller * p), (p))                                                        \
    X(int, poller_add, (plat_poller * p, plat_stream * s, unsigned bits, void *user),              \
      (p, s, bits, user))                                                                          \
    X(int, poller_mod, (plat_poller * p, plat_stream * s, unsigned bits, void *user),              \
      (p, s, bits, user))                                                                          \
    X(int, poller_del, (plat_poller * p, plat_stream * s), (p, s))                                 \
    XV(poller_wake, (plat_poller * p), (p))                                                        \
    X(int, poller_wait,                                                                            \
      (plat_poller * p, struct plat_poll_event * ev, int max, uint64_t timeout_ns),                \
      (p, ev, max, timeout_ns))

#ifdef __cplusplus
extern "C" {
#endif

#define PLAT_OPS_MEMBER(ret, name, params, args) ret(*name) params;
#define PLAT_OPS_MEMBER_V(name, params, args) void(*name) params;

struct plat_ops {
    const char *name; /* "native" or "sim" */
    PLAT_OPS(PLAT_OPS_MEMBER, PLAT_OPS_MEMBER_V)
    /* plat_abort, outside the list, which cannot say "never returns": a
     * backend's abort must not return (plat.c aborts if it does). */
    void (*abort)(int code, const char *msg);
};

/* The backend plat.h calls go to. Native until a sim run installs its own
 * (a process runs one backend at a time). */
extern const struct plat_ops plat_native_ops;
void plat_use(const struct plat_ops *ops);
const struct plat_ops *plat_current(void);

#ifdef __cplusplus
}
#endif
#endif
