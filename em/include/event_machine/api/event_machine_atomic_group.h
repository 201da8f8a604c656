/*
 * event_machine_atomic_group.h -- atomic groups: queues that are atomic
 * together. Only one event of all the group's queues is in receive at a time,
 * across all cores; each queue stays FIFO. Priority is per queue.
 */
#ifndef EVENT_MACHINE_ATOMIC_GROUP_H_
#define EVENT_MACHINE_ATOMIC_GROUP_H_

#ifdef __cplusplus
extern "C" {
#endif

/* A group whose queues are served by the cores of queue_group. */
em_atomic_group_t em_atomic_group_create(const char *name, em_queue_group_t queue_group);
/* Delete a group without queues (else EM_ERR_BAD_STATE). */
em_status_t em_atomic_group_delete(em_atomic_group_t atomic_group);
/* An atomic queue in the group (its queue group is the group's). */
em_queue_t em_queue_create_ag(const char *name, em_queue_prio_t prio,
                              em_atomic_group_t atomic_group, const em_queue_conf_t *conf);
em_atomic_group_t em_atomic_group_get(em_queue_t queue); /* UNDEF: not in a group */
size_t em_atomic_group_get_name(em_atomic_group_t atomic_group, char *name, size_t maxlen);
em_atomic_group_t em_atomic_group_find(const char *name);
uint64_t em_atomic_group_to_u64(em_atomic_group_t atomic_group);

#ifdef __cplusplus
}
#endif
#endif
