/*
 * event_machine_queue_group.h -- queue groups: which cores receive a queue's
 * events.
 */
#ifndef EVENT_MACHINE_QUEUE_GROUP_H_
#define EVENT_MACHINE_QUEUE_GROUP_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Create a queue group of the cores of mask (EM core ids). The change is
 * immediate here, so the notifications are sent at once and the _sync form is
 * the same call. EM_QUEUE_GROUP_UNDEF on error (empty mask). Names may repeat
 * (em_queue_group_find gives the first), as in em-odp. */
em_queue_group_t em_queue_group_create(const char *name, const em_core_mask_t *mask, int num_notif,
                                       const em_notif_t notif_tbl[]);
em_queue_group_t em_queue_group_create_sync(const char *name, const em_core_mask_t *mask);

/* Delete a group no queue uses (else EM_ERR_BAD_STATE). */
em_status_t em_queue_group_delete(em_queue_group_t queue_group, int num_notif,
                                  const em_notif_t notif_tbl[]);
em_status_t em_queue_group_delete_sync(em_queue_group_t queue_group);

em_queue_group_t em_queue_group_find(const char *name);
em_status_t em_queue_group_get_mask(em_queue_group_t queue_group, em_core_mask_t *mask);
size_t em_queue_group_get_name(em_queue_group_t queue_group, char *name, size_t maxlen);

#ifdef __cplusplus
}
#endif
#endif
