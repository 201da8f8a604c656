/*
 * shm_repair.c -- the shared-memory transport's packet pool after a node
 * died holding its lock (white box: the one test that sees the transport's
 * database, mcapi_ref/transport/shm/db.h).
 *
 * A get stores a packet's length and then its holder; a free clears them.
 * A node killed between the two stores leaves a packet nobody holds (no
 * reclaim frees it: crash_kill_packets lost one place in about 5 runs of
 * 30) or a holder of no packet. The next taker of the lock repairs the
 * pool (tp_pkts_repair): both cut states must come back free.
 */
#include "mt.h"

#include "shm/db.h"

#include <stdlib.h>
#include <string.h>

#define PLACES 4
#define GRANULES (2 * MCAPI_MAX_PKT_SIZE / MCAPI_PKT_POOL_GRANULE)

struct pool {
    struct tp_node tp;
    struct db *db;
};

static void pool_new(struct pool *p)
{
    struct db_layout l;
    ck_assert_int_eq(tp_db_layout(&l, PLACES, GRANULES * MCAPI_PKT_POOL_GRANULE), 0);
    size_t size = (size_t)((l.size + 63) & ~(uint64_t)63);
    p->db = aligned_alloc(64, size);
    ck_assert_ptr_nonnull(p->db);
    memset(p->db, 0, size);
    p->db->pkt.at = l;
    tp_pkts_init(p->db, false);
    unsigned char *base = (unsigned char *)p->db;
    p->tp = (struct tp_node){.db = p->db,
                             .node = 1,
                             .bit = 2,
                             .runs = (struct db_run *)(base + l.run_at),
                             .len = (uint32_t *)(base + l.len_at),
                             .holder = base + l.holder_at,
                             .arena = base + l.arena_at};
}

/* A packet of granules granules: its first granule. */
static uint32_t get(struct pool *p, uint32_t granules)
{
    uint32_t held = 0;
    ck_assert_int_eq(tp_pkts_get(&p->tp, (size_t)granules * MCAPI_PKT_POOL_GRANULE, &held),
                     MCAPI_SUCCESS);
    return held - 1;
}

/* The whole pool is free but for the packet at keep: every other place,
 * and the rest of the arena in one run after it, unheld and zero. */
static void all_free_but(struct pool *p, uint32_t keep)
{
    ck_assert_uint_eq(tp_pkts_free(&p->tp), PLACES - 1);
    ck_assert_uint_eq(p->db->pkt.runs, 1);
    uint32_t n = p->tp.len[keep];
    ck_assert_uint_eq(p->tp.runs[0].off, keep + n);
    ck_assert_uint_eq(p->tp.runs[0].len, GRANULES - keep - n);
    for (uint32_t g = keep + n; g < GRANULES; g++)
        ck_assert_msg(!p->tp.len[g] && !p->tp.holder[g], "granule %u of the free run is held", g);
    size_t from = (size_t)(keep + n) * MCAPI_PKT_POOL_GRANULE;
    for (size_t i = from; i < (size_t)GRANULES * MCAPI_PKT_POOL_GRANULE; i++)
        ck_assert_msg(!p->tp.arena[i], "byte %zu of the free run is not zero", i);
}

/* A sender killed in tp_pkts_get after the length, before the holder. */
static void get_cut(void *arg)
{
    (void)arg;
    struct pool p;
    pool_new(&p);
    uint32_t a = get(&p, 1), b = get(&p, 3);
    memset(p.tp.arena + (size_t)b * MCAPI_PKT_POOL_GRANULE, 0x5a, 3 * MCAPI_PKT_POOL_GRANULE);
    p.tp.holder[b] = 0;
    tp_pkts_repair(p.db);
    ck_assert_uint_eq(p.tp.len[b], 0);
    ck_assert_uint_eq(p.tp.holder[a], DB_FILLED | 2);
    all_free_but(&p, a);
    free(p.db);
}

/* A releaser killed in tp_pkts_free_locked with one of the two cleared:
 * the holder first, then (another run) the length first. */
static void free_cut(void *arg)
{
    (void)arg;
    for (int first = 0; first < 2; first++) {
        struct pool p;
        pool_new(&p);
        uint32_t a = get(&p, 2), b = get(&p, 5);
        p.tp.holder[b] = 2; /* received by node 1 */
        if (first == 0)
            p.tp.holder[b] = 0;
        else
            p.tp.len[b] = 0;
        tp_pkts_repair(p.db);
        ck_assert_uint_eq(p.tp.len[b], 0);
        ck_assert_uint_eq(p.tp.holder[b], 0);
        ck_assert_uint_eq(p.tp.holder[a], DB_FILLED | 2);
        all_free_but(&p, a);
        free(p.db);
    }
}

/* A repair of a pool nobody cut changes nothing: held packets stay held. */
static void repair_intact(void *arg)
{
    (void)arg;
    struct pool p;
    pool_new(&p);
    uint32_t a = get(&p, 1), b = get(&p, 2);
    p.tp.holder[b] = 2;
    tp_pkts_put(&p.tp, a);
    tp_pkts_repair(p.db);
    ck_assert_uint_eq(tp_pkts_free(&p.tp), PLACES - 1);
    ck_assert_uint_eq(p.tp.len[b], 2);
    ck_assert_uint_eq(p.tp.holder[b], 2);
    ck_assert_uint_eq(p.db->pkt.runs, 2); /* before b and after it */
    free(p.db);
}

void mt_shm_repair(void)
{
    static const struct harness_case cases[] = {
        {.name = "shm_repair_get_cut", .core = get_cut, .cores = 1, .backends = HARNESS_NATIVE},
        {.name = "shm_repair_free_cut", .core = free_cut, .cores = 1, .backends = HARNESS_NATIVE},
        {.name = "shm_repair_intact",
         .core = repair_intact,
         .cores = 1,
         .backends = HARNESS_NATIVE},
    };
    harness_add_cases("mcapi", cases, HARNESS_COUNT(cases));
}
