/*
 * event_machine_event_group.h -- event groups: fork-join.
 *
 * A group is applied with a count and notifications; each event sent with the
 * group (em_send_group) whose receive returns counts one down; at zero the
 * notifications are sent, exactly once, and the group may be applied again.
 * The receive of such an event runs "in" the group (em_event_group_current),
 * and the events it sends with em_send_group(.., em_event_group_current())
 * join it (after em_event_group_increment).
 */
#ifndef EVENT_MACHINE_EVENT_GROUP_H_
#define EVENT_MACHINE_EVENT_GROUP_H_

#ifdef __cplusplus
extern "C" {
#endif

em_event_group_t em_event_group_create(void); /* EM_EVENT_GROUP_UNDEF: none left */
/* Delete a group that is not counting (ready); else EM_ERR_NOT_FREE. */
em_status_t em_event_group_delete(em_event_group_t event_group);
/* Arm the group: count events (> 0), num_notif notifications (0 ..
 * EM_EVENT_GROUP_MAX_NOTIF). EM_ERR_BAD_STATE if it is already counting. */
em_status_t em_event_group_apply(em_event_group_t event_group, int count, int num_notif,
                                 const em_notif_t notif_tbl[]);
/* Add count to the current group's (em_event_group_current) count. */
em_status_t em_event_group_increment(int count);
/* Whether the group may be applied (not counting). */
int em_event_group_is_ready(em_event_group_t event_group);
/* The group of the event being received, or EM_EVENT_GROUP_UNDEF. */
em_event_group_t em_event_group_current(void);

/* em_send with the event belonging to event_group (it must be counting). */
em_status_t em_send_group(em_event_t event, em_queue_t queue, em_event_group_t event_group);
int em_send_group_multi(const em_event_t events[], int num, em_queue_t queue,
                        em_event_group_t event_group);

/* Count the current event now rather than when its receive returns; the rest
 * of the receive runs outside the group. */
void em_event_group_processing_end(void);
/* Make the rest of this receive run in event_group (which must be counting
 * and the receive outside any group). */
em_status_t em_event_group_assign(em_event_group_t event_group);
/* Stop counting: the notifications are not sent (get them with
 * em_event_group_get_notif before and free their events); events of the group
 * still queued are received outside any group. */
em_status_t em_event_group_abort(em_event_group_t event_group);
/* Copy up to max_notif of the group's notifications; returns how many. */
int em_event_group_get_notif(em_event_group_t event_group, int max_notif, em_notif_t notif_tbl[]);

/* Iterate over the created groups (num: how many; may be NULL). The cursor is
 * per core. */
em_event_group_t em_event_group_get_first(unsigned int *num);
em_event_group_t em_event_group_get_next(void);

uint64_t em_event_group_to_u64(em_event_group_t event_group);

#ifdef __cplusplus
}
#endif
#endif
