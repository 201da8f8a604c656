/*
 * transport/shm/db.c -- mapping and initialising a domain's region.
 *
 * The first mapper (plat_shared_map's `created`) initialises every lock,
 * event and list, then publishes `ready`; later mappers wait for it. The
 * region is freed when its last mapper unmaps (plat.h), so a domain whose
 * nodes have all finalised starts afresh.
 */
#include "db.h"

#include <string.h>

/* How long a mapper waits for the creator to finish initialising. */
#define DB_READY_TIMEOUT_NS 1000000000ull

static void init(struct db *db, mcapi_domain_t dom, bool shared)
{
    db->version = DB_VERSION;
    db->size = (uint32_t)sizeof *db;
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
        tp_q_init(&db->chan[c].q);
    }
    tp_pool_init(&db->msg, MCAPI_MAX_MSG_BUFFERS, shared);
    tp_pool_init(&db->pkt, MCAPI_MAX_PKT_BUFFERS, shared);
    drv_shm_publish(&db->ready, DB_READY);
}

struct db *tp_db_map(const char *name, mcapi_domain_t dom)
{
    bool created = false;
    struct db *db = drv_shm_map(name, sizeof *db, &created);
    if (!db) return NULL;
    if (created) {
        init(db, dom, name[0] == '/');
        return db;
    }
    if (drv_shm_await(&db->ready, DB_READY, DB_READY_TIMEOUT_NS) && db->version == DB_VERSION &&
        db->size == sizeof *db && db->domain == dom)
        return db;
    drv_shm_unmap(db);
    return NULL;
}

void tp_db_unmap(struct db *db)
{
    drv_shm_unmap(db);
}
