/* memory.c -- local and shared allocation, named regions (also across
 * processes natively). */
#define _GNU_SOURCE
#include "pt.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static bool all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

static void case_local(void *arg)
{
    uint64_t *board = harness_board();
    int me = plat_core();
    size_t local = (size_t)pt_num(arg, "core.local_bytes");

    uint8_t *p = plat_local_alloc(1000, 64);
    uint8_t *q = plat_local_alloc(100, 4096);
    uint8_t *r = plat_local_alloc(3, 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(q);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq((uintptr_t)p % 64, 0);
    ck_assert_uint_eq((uintptr_t)q % 4096, 0);
    ck_assert(all_zero(p, 1000));
    ck_assert(all_zero(q, 100));
    ck_assert(all_zero(r, 3));
    ck_assert((uintptr_t)p + 1000 <= (uintptr_t)q || (uintptr_t)q + 100 <= (uintptr_t)p);
    memset(p, 0xAB, 1000);
    memset(q, 0xCD, 100);
    board[2 * me] = pt_u(p);
    board[2 * me + 1] = pt_u(p + 1000);
    harness_barrier();
    /* Every core has its own block. */
    for (int c = 0; c < plat_cores(); c++) {
        if (c == me) continue;
        ck_assert_msg(board[2 * c + 1] <= pt_u(p) || pt_u(p + 1000) <= board[2 * c],
                      "local memory of cores %d and %d overlaps", me, c);
    }
    for (int i = 0; i < 1000; i++) ck_assert_uint_eq(p[i], 0xAB);
    harness_barrier();
    plat_local_free(p);
    plat_local_free(q);
    plat_local_free(r);

    /* Larger than the block: never. */
    ck_assert_ptr_null(plat_local_alloc(local + 1, 8));
    /* Full: a second 5/8 of the block does not fit until the first is freed. */
    size_t big = local / 8 * 5;
    uint8_t *a = plat_local_alloc(big, 8);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_null(plat_local_alloc(big, 8));
    memset(a, 0x5A, big);
    plat_local_free(a);
    a = plat_local_alloc(big, 8);
    ck_assert_msg(a, "freeing did not return local memory");
    ck_assert_msg(all_zero(a, big), "reused local memory is not zeroed");
    plat_local_free(a);
}

static void case_shared_alloc(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    int me = plat_core();
    static const size_t align[] = {8, 64, 4096};
    for (size_t i = 0; i < HARNESS_COUNT(align); i++) {
        uint8_t *p = plat_shared_alloc(10000, align[i]);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % align[i], 0);
        ck_assert(all_zero(p, 10000));
        plat_shared_free(p);
    }
    uint8_t *p = plat_shared_alloc(4096, 64);
    ck_assert_ptr_nonnull(p);
    pt_fill(p, 4096, (unsigned)me);
    plat_store64(&board[me], pt_u(p));
    harness_barrier();
    /* Every core reaches every other core's block; blocks are distinct. */
    for (int c = 0; c < plat_cores(); c++) {
        const uint8_t *o = pt_p(plat_load64(&board[c]));
        ck_assert_uint_eq(pt_bad(o, 4096, (unsigned)c), 4096);
        if (c != me) ck_assert(o + 4096 <= p || p + 4096 <= o);
    }
    harness_barrier();
    plat_shared_free(p);
}

/* plat_mem_alloc: "shared" is every platform's memory (sim: the kind's
 * default one; natively any name is), zeroed, reached by every core with
 * loads, atomics, copies, DMA and placement; an unknown name is PLAT_ENOENT
 * in simulation. */
static void case_mem_alloc(void *arg)
{
    uint64_t *board = harness_board();
    int me = plat_core(), st = 1;
    if (me == 0) {
        uint8_t *p = plat_mem_alloc("shared", 8192, 64, &st);
        ck_assert_msg(p, "plat_mem_alloc(\"shared\"): %s", plat_strerror(st));
        ck_assert_int_eq(st, PLAT_OK);
        ck_assert_uint_eq((uintptr_t)p % 64, 0);
        ck_assert(all_zero(p, 8192));
        ck_assert_int_eq(plat_shared_home(p, 8192, plat_cores() - 1), PLAT_OK);
        plat_store64(&board[0], pt_u(p));

        st = 1;
        void *u = plat_mem_alloc("pt_no_such_memory", 64, 8, &st);
        if (pt_sim(arg)) {
            ck_assert_ptr_null(u);
            ck_assert_int_eq(st, PLAT_ENOENT);
        } else {
            ck_assert_msg(u, "native: plat_mem_alloc(\"pt_no_such_memory\"): %s",
                          plat_strerror(st));
            ck_assert_int_eq(st, PLAT_OK);
            ck_assert(all_zero(u, 64));
            plat_shared_free(u);
        }
        st = 1;
        ck_assert_ptr_null(plat_mem_alloc(NULL, 64, 8, &st));
        ck_assert_int_eq(st, PLAT_EINVAL);
        st = 1;
        ck_assert_ptr_null(plat_mem_alloc("shared", 64, 24, &st));
        ck_assert_int_eq(st, PLAT_EINVAL);
        ck_assert_ptr_null(plat_mem_alloc("shared", 64, 24, NULL)); /* status may be NULL */
    }
    harness_barrier();
    uint8_t *p = pt_p(plat_load64(&board[0]));
    /* Each core: its word by atomics, its 1 KiB slice by a copy (or DMA). */
    uint64_t *words = (uint64_t *)(void *)p;
    ck_assert_uint_eq(plat_fetch_add64(&words[me], (uint64_t)me + 1), 0);
    uint8_t src[1024];
    pt_fill(src, sizeof src, (unsigned)me + 40);
    uint8_t *slice = p + 1024 * (size_t)(me + 1);
    if (me == 1) {
        plat_dma d;
        ck_assert_int_eq(plat_dma_start(&d, slice, src, sizeof src, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
    } else {
        plat_copy(slice, src, sizeof src);
    }
    harness_barrier();
    for (int c = 0; c < plat_cores(); c++) {
        ck_assert_uint_eq(plat_load64(&words[c]), (uint64_t)c + 1);
        uint8_t got[1024];
        plat_copy(got, p + 1024 * (size_t)(c + 1), sizeof got);
        ck_assert_uint_eq(pt_bad(got, sizeof got, (unsigned)c + 40), sizeof got);
    }
    harness_barrier();
    if (me == 0) plat_shared_free(p);
}

/* Two named memories (ideal's optional `memories`: "sram" beside "shared"):
 * distinct blocks, each zeroed and reached by every core; in simulation a
 * load costs each memory's own latency. */
static void case_mem_two(void *arg)
{
    uint64_t *board = harness_board();
    int me = plat_core(), st = 1;
    if (me == 0) {
        uint64_t *s = plat_mem_alloc("shared", 4096, 64, &st);
        ck_assert_msg(s, "plat_mem_alloc(\"shared\"): %s", plat_strerror(st));
        uint64_t *r = plat_mem_alloc("sram", 4096, 64, &st);
        ck_assert_msg(r, "plat_mem_alloc(\"sram\"): %s", plat_strerror(st));
        ck_assert(all_zero(r, 4096));
        ck_assert((uint8_t *)s + 4096 <= (uint8_t *)r || (uint8_t *)r + 4096 <= (uint8_t *)s);
        ck_assert_int_eq(plat_shared_home(r, 4096, 0), PLAT_OK);
        plat_store64(&board[0], pt_u(s));
        plat_store64(&board[1], pt_u(r));
    }
    harness_barrier();
    uint64_t *s = pt_p(plat_load64(&board[0])), *r = pt_p(plat_load64(&board[1]));
    plat_store64(&r[me], 100 + (uint64_t)me);
    ck_assert_uint_eq(plat_fetch_add64(&s[me], 1), 0);
    harness_barrier();
    if (me != 0) harness_barrier();
    uint64_t t0 = plat_now_ns();
    uint64_t v = plat_load64(&s[0]);
    uint64_t t1 = plat_now_ns();
    uint64_t w = plat_load64(&r[0]);
    uint64_t t2 = plat_now_ns();
    ck_assert_uint_eq(v, 1);
    ck_assert_uint_eq(w, 100);
    if (pt_sim(arg) && me == 0) { /* the others are at the barrier: no contention */
        double gap = pt_num(arg, "memory.latency_ns") - pt_num(arg, "memories.sram.latency_ns");
        ck_assert_msg((double)(t1 - t0) - (double)(t2 - t1) == gap,
                      "a load takes %llu ns from shared, %llu ns from sram",
                      (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1));
    }
    if (me == 0) harness_barrier();
    if (me == 1) {
        /* DMA between the two memories. */
        for (int c = 0; c < plat_cores(); c++)
            ck_assert_uint_eq(plat_load64(&r[c]), 100 + (uint64_t)c);
        plat_dma d;
        ck_assert_int_eq(plat_dma_start(&d, s + 256, r, 64, 0, 0, 0), PLAT_OK);
        ck_assert_int_eq(plat_dma_wait(&d, HARNESS_WAIT_NS), PLAT_OK);
        ck_assert_uint_eq(plat_load64(&s[256 + 2]), 102);
    }
    harness_barrier();
    if (me == 0) {
        plat_shared_free(r);
        plat_shared_free(s);
    }
}

static void case_shared_map(void *arg)
{
    (void)arg;
    uint64_t *board = harness_board();
    int me = plat_core(), n = plat_cores();
    bool created = false;
    int status = 1;
    uint64_t *p = plat_shared_map("pt.map", 256, &created, &status);
    ck_assert_msg(p, "plat_shared_map: %s", plat_strerror(status));
    if (created) {
        ck_assert(all_zero(p, 256));
        plat_fetch_add64(&board[0], 1);
        plat_store64(&p[0], 77); /* creator's mark */
    }
    plat_store64(&board[1 + me], pt_u(p));
    harness_barrier();
    ck_assert_uint_eq(plat_load64(&board[0]), 1); /* created exactly once */
    for (int c = 0; c < n; c++) ck_assert_ptr_eq(pt_p(plat_load64(&board[1 + c])), p);
    ck_assert_uint_eq(plat_load64(&p[0]), 77);

    /* created and status may be NULL; one more mapping, same bytes. */
    uint64_t *again = plat_shared_map("pt.map", 256, NULL, NULL);
    ck_assert_ptr_eq(again, p);
    plat_shared_unmap(again);

    /* Another size: refused. */
    status = 0;
    created = true;
    ck_assert_ptr_null(plat_shared_map("pt.map", 512, &created, &status));
    ck_assert_int_eq(status, PLAT_EINVAL);

    /* Other names are other regions. */
    uint64_t *other = plat_shared_map(me == 0 ? "pt.map0" : "pt.map1", 256, &created, NULL);
    ck_assert_ptr_nonnull(other);
    ck_assert_ptr_ne(other, p);
    plat_shared_unmap(other);

    /* Outside a job only a "/..." name reaches other processes, natively. */
    ck_assert(!plat_shared_crosses("pt.map"));
    ck_assert(plat_shared_crosses("/pt.map") ==
              (((const struct harness_env *)arg)->backend == PLAT_NATIVE));

    harness_barrier();
    plat_shared_unmap(p);
    harness_barrier();
    /* Every core unmapped it: the region is gone, the next map creates it. */
    if (me == 0) {
        p = plat_shared_map("pt.map", 512, &created, &status);
        ck_assert_msg(p, "re-map after the last unmap: %s", plat_strerror(status));
        ck_assert_msg(created, "the last unmap did not free the region");
        ck_assert(all_zero(p, 512));
        plat_shared_unmap(p);
    }
}

/* ---- across processes (native) ----------------------------------------------- */

struct xproc {
    uint64_t to_child, to_parent;
    uint64_t counter; /* under m */
    plat_mutex m;
    plat_event child_ev, parent_ev;
};

#define XPROC_INCR 2000

/* Exit codes of the child say what failed (its ck_assert messages are lost). */
static const char *const xproc_failure[] = {
    [1] = "assertion",
    [2] = "map failed",
    [3] = "child created the region",
    [4] = "value from the parent missing",
    [5] = "event from the parent timed out",
    [6] = "second value from the parent missing",
    [7] = "pipe",
};

static int xproc_child(const char *name, int rfd)
{
    char go;
    if (read(rfd, &go, 1) != 1) return 7; /* the parent has created the region */
    bool created = true;
    int status = 0;
    struct xproc *x = plat_shared_map(name, sizeof *x, &created, &status);
    if (!x) return 2;
    if (created) return 3;
    if (plat_load64(&x->to_child) != 1234) return 4;
    uint32_t e = plat_event_epoch(&x->child_ev);
    plat_store64(&x->to_parent, 5678);
    plat_event_notify(&x->parent_ev);
    while (plat_load64(&x->to_child) != 999) {
        if (plat_event_wait(&x->child_ev, e, HARNESS_WAIT_NS) != PLAT_OK) return 5;
        e = plat_event_epoch(&x->child_ev);
    }
    if (plat_load64(&x->to_child) != 999) return 6;
    for (int i = 0; i < XPROC_INCR; i++) {
        plat_mutex_lock(&x->m);
        x->counter++;
        plat_mutex_unlock(&x->m);
    }
    plat_shared_unmap(x);
    return 0;
}

static void test_cross_process(const struct harness_env *env)
{
    (void)env;
    char name[64];
    snprintf(name, sizeof name, "/ipcsim-test-%d", (int)getpid());
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[1]);
        _exit(xproc_child(name, fds[0]));
    }
    close(fds[0]);

    bool created = false;
    int status = 0;
    struct xproc *x = plat_shared_map(name, sizeof *x, &created, &status);
    ck_assert_msg(x, "plat_shared_map(%s): %s", name, plat_strerror(status));
    ck_assert(created);
    plat_mutex_init(&x->m, PLAT_SHARED_PROCESS);
    plat_event_init(&x->child_ev, PLAT_SHARED_PROCESS);
    plat_event_init(&x->parent_ev, PLAT_SHARED_PROCESS);
    uint32_t e = plat_event_epoch(&x->parent_ev);
    plat_store64(&x->to_child, 1234);
    ck_assert_int_eq(write(fds[1], "g", 1), 1);
    close(fds[1]);

    while (plat_load64(&x->to_parent) != 5678) {
        ck_assert_msg(plat_event_wait(&x->parent_ev, e, HARNESS_WAIT_NS) == PLAT_OK,
                      "no event from the child process");
        e = plat_event_epoch(&x->parent_ev);
    }
    plat_store64(&x->to_child, 999);
    plat_event_notify(&x->child_ev);
    for (int i = 0; i < XPROC_INCR; i++) {
        plat_mutex_lock(&x->m);
        x->counter++;
        plat_mutex_unlock(&x->m);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    ck_assert_msg(
        code == 0, "child process: %s (status 0x%x)",
        code > 0 && code < (int)HARNESS_COUNT(xproc_failure) ? xproc_failure[code] : "died", st);
    ck_assert_uint_eq(x->counter, 2 * XPROC_INCR);
    plat_event_destroy(&x->child_ev);
    plat_event_destroy(&x->parent_ev);
    plat_mutex_destroy(&x->m);
    plat_shared_unmap(x);
    shm_unlink(name); /* in case the backend keeps the name (not specified) */
}

void pt_memory(void)
{
    static const struct harness_case cases[] = {
        {.name = "local_alloc", .core = case_local, .cores = 3},
        {.name = "shared_alloc", .core = case_shared_alloc, .cores = 3},
        {.name = "shared_map", .core = case_shared_map, .cores = 4},
        {.name = "mem_alloc", .core = case_mem_alloc, .cores = 3},
        {.name = "mem_two",
         .core = case_mem_two,
         .cores = 3,
         .edit_from = "memory:                        # shared memory behind one crossbar port",
         .edit_to = "memories:\n  sram:\n    bytes: 1048576\n    latency_ns: 5\n"
                    "memory:                        # shared memory behind one crossbar port"},
        {.name = "shared_map_process", .test = test_cross_process, .backends = HARNESS_NATIVE},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
