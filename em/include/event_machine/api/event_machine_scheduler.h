/*
 * event_machine_scheduler.h -- ending a scheduling context early.
 */
#ifndef EVENT_MACHINE_SCHEDULER_H_
#define EVENT_MACHINE_SCHEDULER_H_

#ifdef __cplusplus
extern "C" {
#endif

/* In the receive of an atomic queue's event: release the queue, so another
 * core may take its next event while this receive goes on. Elsewhere: no
 * effect. */
void em_atomic_processing_end(void);

/* In the receive of a parallel-ordered queue's event: end its order, so the
 * events it sent (and will send) go out as soon as the earlier events of the
 * queue have ended theirs; later sends of this receive are no longer held.
 * Elsewhere: no effect. */
void em_ordered_processing_end(void);

/* A hint to fetch the next event early: no effect in this version. */
void em_preschedule(void);

/* The context the running receive holds; *queue (may be NULL) receives the
 * queue that gave it, or EM_QUEUE_UNDEF. */
em_sched_context_type_t em_sched_context_type_current(em_queue_t *queue);

#ifdef __cplusplus
}
#endif
#endif
