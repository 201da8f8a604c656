/*
 * transport/shm/db.c -- mapping and initialising a domain's region.
 *
 * The first mapper (plat_shared_map's `created`) initialises every lock,
 * event and list, then publishes `ready`; later mappers wait for it. The
 * region is freed when its last mapper unmaps (plat.h), so a domain whose
 * nodes have all finalised starts afresh. Its size depends on the packet
 * pool's configuration: a mapper giving other values asks for another size,
 * which plat_shared_map refuses (PLAT_EINVAL), and the values are compared
 * too, so that two configurations of one size cannot meet.
 */
#include "db.h"

#include <string.h>

/* How long a mapper waits for the creator to finish initialising. */
#define DB_READY_TIMEOUT_NS 1000000000ull

#define ROUND64(x) (((x) + 63u) & ~(uint64_t)63u)

mcapi_status_t tp_db_layout(struct db_layout *l, unsigned pkt_buffers, size_t pkt_pool_bytes)
{
    uint64_t max = pkt_buffers ? pkt_buffers : MCAPI_MAX_PKT_BUFFERS;
    uint64_t bytes = pkt_pool_bytes ? pkt_pool_bytes : MCAPI_PKT_POOL_BYTES;
    if (max > MCAPI_PKT_BUFFERS_LIMIT || bytes < MCAPI_MAX_PKT_SIZE ||
        bytes > MCAPI_PKT_POOL_BYTES_LIMIT)
        return MCAPI_ERR_PARAMETER;
    l->max = (uint32_t)max;
    l->granules = (uint32_t)((bytes + MCAPI_PKT_POOL_GRANULE - 1) / MCAPI_PKT_POOL_GRANULE);
    l->run_at = ROUND64(sizeof(struct db));
    l->len_at = ROUND64(l->run_at + (max + 1) * sizeof(struct db_run));
    l->holder_at = ROUND64(l->len_at + (uint64_t)l->granules * sizeof(uint32_t));
    l->arena_at = ROUND64(l->holder_at + l->granules);
    l->size = l->arena_at + (uint64_t)l->granules * MCAPI_PKT_POOL_GRANULE;
    return 0;
}

static void init(struct db *db, mcapi_domain_t dom, const struct db_layout *l, bool shared)
{
    db->version = DB_VERSION;
    db->size = l->size;
    db->pkt.at = *l;
    db->domain = dom;
    /* Handles of this region differ from those of an earlier region of
     * the same name, so handles kept across a finalise stay stale. */
    db->seed = (uint32_t)plat_random();
    drv_shm_lock_init(&db->lock, shared);
    for (unsigned n = 0; n < MCA_MAX_NODES; n++) {
        drv_shm_event_init(&db->node[n].ev, shared);
        drv_shm_lock_init(&db->node[n].lock, shared);
        db->node[n].state = NODE_FREE;
    }
    for (unsigned i = 0; i < DB_SLOTS; i++) {
        struct db_endp *e = &db->endp[i];
        drv_shm_lock_init(&e->lock, shared);
        e->gen = (uint16_t)(db->seed + i * 7919u);
        e->chgen = (uint16_t)(db->seed >> 16);
        e->chan = -1;
        tp_q_init(&e->q);
    }
    for (unsigned c = 0; c < MCAPI_MAX_CHANNELS; c++) {
        drv_shm_lock_init(&db->chan[c].lock, shared);
        tp_ring_init(&db->chan[c].ring);
    }
    tp_pool_init(&db->msg, MCAPI_MAX_MSG_BUFFERS, shared);
    tp_pkts_init(db, shared);
    drv_shm_publish(&db->ready, DB_READY);
}

struct db *tp_db_map(const char *name, mcapi_domain_t dom, const struct db_layout *l,
                     mcapi_status_t *st)
{
    bool created = false;
    int ps = 0;
    *st = MCAPI_ERR_NODE_INITFAILED;
    if (l->size > SIZE_MAX) return NULL;
    struct db *db = drv_shm_map(name, (size_t)l->size, &created, &ps);
    if (!db) {
        /* Another size than the region's: other pool values (or a name the
         * platform refuses); anything else (no memory) fails the init. */
        if (ps == PLAT_EINVAL) *st = MCAPI_ERR_PARAMETER;
        return NULL;
    }
    if (created) {
        init(db, dom, l, drv_shm_crosses(name));
        return db;
    }
    if (drv_shm_await(&db->ready, DB_READY, DB_READY_TIMEOUT_NS) && db->version == DB_VERSION &&
        db->size == l->size && db->domain == dom) {
        if (db->pkt.at.max == l->max && db->pkt.at.granules == l->granules) return db;
        *st = MCAPI_ERR_PARAMETER;
    }
    drv_shm_unmap(db);
    return NULL;
}

void tp_db_unmap(struct db *db)
{
    drv_shm_unmap(db);
}
