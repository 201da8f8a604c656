/*
 * event_machine_pool.h -- event pools.
 *
 * A pool holds events of up to EM_MAX_SUBPOOLS buffer sizes (subpools), each
 * with a fixed number of buffers, in the platform's shared memory. em_alloc
 * takes a buffer from the smallest subpool whose size fits; when that subpool
 * is empty it tries the larger ones, then fails (EM_EVENT_UNDEF, error
 * EM_ERR_ALLOC_FAILED in escope EM_ESCOPE_ALLOC).
 */
#ifndef EVENT_MACHINE_POOL_H
#define EVENT_MACHINE_POOL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Pool configuration. Initialise with em_pool_cfg_init() (mandatory: the
 * library checks it), then set event_type, num_subpools and the subpools
 * (sizes in increasing order). align_offset, pkt.headroom and the subpool
 * cache_size are accepted and ignored (no packet I/O, no per-core caches). */
typedef struct {
    em_event_type_t event_type; /* EM_EVENT_TYPE_SW */
    struct {
        bool in_use;
        uint32_t value;
    } align_offset;
    struct {
        bool in_use;
        size_t size; /* bytes, at most EM_EVENT_USER_AREA_MAX_SIZE */
    } user_area;
    struct {
        struct {
            bool in_use;
            uint32_t value;
        } headroom;
    } pkt;
    int num_subpools; /* 1 .. EM_MAX_SUBPOOLS */
    struct {
        uint32_t size;       /* payload bytes of each buffer */
        uint32_t num;        /* buffers */
        uint32_t cache_size; /* ignored */
    } subpool[EM_MAX_SUBPOOLS];
    uint32_t __internal_check;
} em_pool_cfg_t;

/* What em_pool_info() reports. */
typedef struct {
    char name[EM_POOL_NAME_LEN];
    em_pool_t em_pool;
    em_event_type_t event_type;
    uint32_t align_offset;
    size_t user_area_size;
    int num_subpools;
    struct {
        uint32_t size;
        uint32_t num;
        uint32_t cache_size;
        uint32_t used; /* buffers allocated now */
        uint32_t free; /* buffers free now */
    } subpool[EM_MAX_SUBPOOLS];
} em_pool_info_t;

/* Set every field to its default and mark the struct initialised. */
void em_pool_cfg_init(em_pool_cfg_t *const pool_cfg);

/* Create a pool named name (may be NULL or repeat another pool's: em_pool_find gives the first)
 * from pool_cfg. pool: EM_POOL_UNDEF (EM picks the handle) or a handle the program wants (it must
 * be free). Returns the pool or EM_POOL_UNDEF (error: EM_ERR_BAD_ARG,
 * EM_ERR_ALLOC_FAILED when the tables or the shared memory are full). */
em_pool_t em_pool_create(const char *name, em_pool_t pool, const em_pool_cfg_t *pool_cfg);

/* Delete a pool whose buffers are all free (else EM_ERR_BAD_STATE).
 * EM_POOL_DEFAULT is deleted by em_term only. */
em_status_t em_pool_delete(em_pool_t pool);

em_pool_t em_pool_find(const char *name); /* EM_POOL_UNDEF if none */

/* Copy the pool's name into name (at most maxlen bytes, NUL terminated);
 * returns its length, 0 for a bad pool. */
size_t em_pool_get_name(em_pool_t pool, char *name /*out*/, size_t maxlen);

em_status_t em_pool_info(em_pool_t pool, em_pool_info_t *pool_info /*out*/);
int em_pool_get_num_subpools(em_pool_t pool); /* -1 for a bad pool */

uint64_t em_pool_to_u64(em_pool_t pool);

#ifdef __cplusplus
}
#endif
#endif
