/*
 * event_machine_event.h -- events: allocate, free, send, look inside.
 *
 * An event is owned by one party at a time. em_alloc gives it to the caller;
 * a successful em_send gives it to EM (the caller must not touch it again);
 * the receive function gets it; em_free gives it back to its pool. A failed
 * send leaves it with the caller. With EM_CHECK_LEVEL >= 1 an event state word
 * catches a second free or a use after send: EM_ERR_EVENT_STATE.
 */
#ifndef EVENT_MACHINE_EVENT_H_
#define EVENT_MACHINE_EVENT_H_

#ifdef __cplusplus
extern "C" {
#endif

/* An event of at least size payload bytes (size >= 1) of the given type from
 * pool (EM_POOL_DEFAULT for the default one). EM_EVENT_UNDEF when no buffer is
 * free or size exceeds the largest subpool: the error handler is called with
 * EM_ERR_ALLOC_FAILED (EM_ERR_TOO_LARGE for the size), escope EM_ESCOPE_ALLOC. */
em_event_t em_alloc(uint32_t size, em_event_type_t type, em_pool_t pool);
/* num events; returns how many were allocated (the first ones of events). */
int em_alloc_multi(em_event_t events[/*out*/], int num, uint32_t size, em_event_type_t type,
                   em_pool_t pool);

void em_free(em_event_t event);
void em_free_multi(em_event_t events[], int num);

/* Send to a queue. EM_OK: EM owns the event. Otherwise the error code (also
 * given to the error handler), and the event is still the caller's:
 * EM_ERR_BAD_ID (EM_QUEUE_UNDEF, a deleted or never created queue),
 * EM_ERR_BAD_ARG (EM_EVENT_UNDEF), EM_ERR_EVENT_STATE (already sent or freed),
 * EM_ERR_OPERATION_FAILED (the hardware queue is full). A scheduled queue
 * need not be in an EO: its events wait there. From a parallel-ordered receive the event may be
 * held back until the earlier events of that queue have been processed. */
em_status_t em_send(em_event_t event, em_queue_t queue);
/* Returns how many of events were sent (the first ones; the rest are still
 * the caller's). */
int em_send_multi(const em_event_t events[], int num, em_queue_t queue);

/* The payload (with preload inside the receive: the local copy); NULL for a
 * bad event. */
void *em_event_pointer(em_event_t event);
void *em_event_pointer_and_size(em_event_t event, uint32_t *size /*out*/);
uint32_t em_event_get_size(em_event_t event); /* the size asked at alloc */
em_pool_t em_event_get_pool(em_event_t event);
em_status_t em_event_set_type(em_event_t event, em_event_type_t newtype);
em_event_type_t em_event_get_type(em_event_t event);

/* The user area (pool's user_area.size bytes); NULL when the pool has none.
 * size (may be NULL) receives its size. */
void *em_event_uarea_get(em_event_t event, size_t *size /*out*/);

uint64_t em_event_to_u64(em_event_t event);

#ifdef __cplusplus
}
#endif
#endif
