/*
 * event_machine_queue.h -- queues.
 *
 * Each queue of a scheduled type (atomic, parallel, parallel-ordered) and each
 * unscheduled queue holds its events in a hardware queue of the plat hwq
 * device (em_conf_t.ipcsim.hwq_device). When the device has no free queue
 * left, em_queue_create fails with EM_ERR_ALLOC_FAILED; the message names the
 * device's queue count and how to raise it.
 */
#ifndef EVENT_MACHINE_QUEUE_H_
#define EVENT_MACHINE_QUEUE_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Create a queue. type: EM_QUEUE_TYPE_*; prio: EM_QUEUE_PRIO_* (ignored for
 * unscheduled, use EM_QUEUE_PRIO_UNDEF or any); group: its queue group
 * (EM_QUEUE_GROUP_DEFAULT: every core; EM_QUEUE_GROUP_UNDEF for unscheduled
 * and local queues); conf: NULL or options (EM_QUEUE_FLAG_IPCSIM_PRELOAD).
 * EM_QUEUE_UNDEF on error. */
em_queue_t em_queue_create(const char *name, em_queue_type_t type, em_queue_prio_t prio,
                           em_queue_group_t group, const em_queue_conf_t *conf);

/* Delete a queue: refused (EM_ERR_BAD_STATE) while it belongs to an EO or
 * holds events. */
em_status_t em_queue_delete(em_queue_t queue);

/* The queue context given to receive as q_ctx. */
em_status_t em_queue_set_context(em_queue_t queue, const void *context);
void *em_queue_get_context(em_queue_t queue);

size_t em_queue_get_name(em_queue_t queue, char *name, size_t maxlen);
em_queue_t em_queue_find(const char *name);
em_queue_prio_t em_queue_get_priority(em_queue_t queue); /* EM_QUEUE_PRIO_UNDEF: bad */
em_queue_type_t em_queue_get_type(em_queue_t queue);     /* EM_QUEUE_TYPE_UNDEF: bad */
em_queue_group_t em_queue_get_group(em_queue_t queue);

/* Take the oldest event of an unscheduled queue; EM_EVENT_UNDEF when empty
 * (no error) or on a bad queue (EM_ERR_BAD_ID / EM_ERR_BAD_TYPE). */
em_event_t em_queue_dequeue(em_queue_t queue);
int em_queue_dequeue_multi(em_queue_t queue, em_event_t events[/*out*/], int num);

/* The queue whose event is being received on this core, or EM_QUEUE_UNDEF. */
em_queue_t em_queue_current(void);

uint32_t em_queue_to_u32(em_queue_t queue);

#ifdef __cplusplus
}
#endif
#endif
