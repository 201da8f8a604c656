/* home.c -- plat_shared_home: where shared bytes live (a placement hint). */
#include "pt.h"

#include <string.h>

/* Bad arguments on both backends; in sim also pointers that are not in one
 * allocation of shared memory. */
static void case_home_args(void *arg)
{
    int n = plat_cores();
    uint64_t *p = plat_shared_alloc(256, 64);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(plat_shared_home(p, 256, -1), PLAT_EINVAL);
    ck_assert_int_eq(plat_shared_home(p, 256, n), PLAT_EINVAL);
    ck_assert_int_eq(plat_shared_home(p, 0, 0), PLAT_EINVAL);
    ck_assert_int_eq(plat_shared_home(NULL, 8, 0), PLAT_EINVAL);
    ck_assert_int_eq(plat_shared_home((const void *)(UINTPTR_MAX - 8), 64, 0), PLAT_EINVAL);
    uint64_t stack[4] = {0};
    /* Natively any memory may be shared (another process maps it): nothing to check. */
    ck_assert_int_eq(plat_shared_home(stack, sizeof stack, 0), pt_sim(arg) ? PLAT_EINVAL : PLAT_OK);
    if (pt_sim(arg)) {
        /* Past the allocation's end, a core's local memory: not shared memory. */
        ck_assert_int_eq(plat_shared_home(p, 257, 0), PLAT_EINVAL);
        ck_assert_int_eq(plat_shared_home((char *)p + 255, 2, 0), PLAT_EINVAL);
        void *l = plat_local_alloc(64, 8);
        ck_assert_ptr_nonnull(l);
        ck_assert_int_eq(plat_shared_home(l, 64, 0), PLAT_EINVAL);
        plat_local_free(l);
    }
    ck_assert_int_eq(plat_shared_home((char *)p + 255, 1, n - 1), PLAT_OK);
    plat_shared_free(p);
    /* Freed, the bytes are in no allocation any more. */
    if (pt_sim(arg)) ck_assert_int_eq(plat_shared_home(p, 8, 0), PLAT_EINVAL);
}

/* A region as mpi_lite places it: each core homes its own part, then the
 * parts of the others over it (a later call wins), then the whole region.
 * No value changes and, in sim, no time passes. */
static void case_home_region(void *arg)
{
    int me = plat_core(), n = plat_cores();
    size_t part = 4096, size = part * (size_t)n;
    int st = 1;
    uint8_t *r = plat_shared_map("pt.home", size, NULL, &st);
    ck_assert_msg(r, "plat_shared_map: %s", plat_strerror(st));
    pt_fill(r + part * (size_t)me, part, (unsigned)me);
    harness_barrier();
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_shared_home(r + part * (size_t)me, part, me), PLAT_OK);
    for (int c = 0; c < n; c++) {
        /* Overlapping its neighbour's part by one byte each side, where there is one. */
        size_t lo = c ? part * (size_t)c - 1 : 0;
        size_t hi = c < n - 1 ? part * (size_t)(c + 1) + 1 : size;
        ck_assert_int_eq(plat_shared_home(r + lo, hi - lo, c), PLAT_OK);
    }
    ck_assert_int_eq(plat_shared_home(r, size, (me + 1) % n), PLAT_OK);
    ck_assert_int_eq(plat_shared_home(r + size - 1, 1, me), PLAT_OK);
    if (pt_sim(arg))
        ck_assert_msg(plat_now_ns() == t0, "plat_shared_home took %llu ns of simulated time",
                      (unsigned long long)(plat_now_ns() - t0));
    harness_barrier();
    for (int c = 0; c < n; c++)
        ck_assert_uint_eq(pt_bad(r + part * (size_t)c, part, (unsigned)c), part);
    harness_barrier();
    plat_shared_unmap(r);
    harness_barrier();
    /* The last unmap freed the region (and its homes): a new one may be placed afresh. */
    if (me == 0) {
        bool created = false;
        r = plat_shared_map("pt.home", 64, &created, &st);
        ck_assert_ptr_nonnull(r);
        ck_assert(created);
        ck_assert_int_eq(plat_shared_home(r, 64, n - 1), PLAT_OK);
        plat_shared_unmap(r);
    }
}

/* plat_shared_alloc memory: each core places its block with every core, in
 * pieces and whole. */
static void case_home_alloc(void *arg)
{
    (void)arg;
    int n = plat_cores();
    uint8_t *p = plat_shared_alloc(1000, 8);
    ck_assert_ptr_nonnull(p);
    memset(p, 0x5A, 1000);
    for (int c = 0; c < n; c++) {
        ck_assert_int_eq(plat_shared_home(p, 1000, c), PLAT_OK);
        ck_assert_int_eq(plat_shared_home(p + 100 * c, 100, c), PLAT_OK);
    }
    ck_assert_int_eq(plat_shared_home(p + 999, 1, 0), PLAT_OK);
    for (int i = 0; i < 1000; i++) ck_assert_uint_eq(p[i], 0x5A);
    plat_shared_free(p);
}

/* sim, two core groups of a SW26010: a group's own memory
 * (Kernel::set_core_memory) is shared memory too, placed with any core. */
static void case_home_cg(void *arg)
{
    (void)arg;
    if (plat_core() != 0) return;
    uint64_t *p = plat_shared_alloc(64, 64);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(plat_shared_home(p, 64, plat_cores() - 1), PLAT_OK);
    ck_assert_int_eq(plat_shared_home(p, 65, 0), PLAT_EINVAL);
    plat_shared_free(p);
}

void pt_home(void)
{
    static const struct harness_case cases[] = {
        {.name = "home_args", .core = case_home_args, .cores = 2},
        {.name = "home_region", .core = case_home_region, .cores = 4},
        {.name = "home_alloc", .core = case_home_alloc, .cores = 3},
        {.name = "home_cg",
         .core = case_home_cg,
         .file = "sw26010",
         .sets = {"cgs=2"},
         .backends = HARNESS_SIM},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
