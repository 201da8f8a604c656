/*
 * event_machine_types.h -- the basic types of the EM API: handles, status
 * codes, error scopes, configuration structs shared by several parts.
 */
#ifndef EVENT_MACHINE_TYPES_H_
#define EVENT_MACHINE_TYPES_H_

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EM_TRUE 1
#define EM_FALSE 0

/* An event: a buffer with a type, owned by exactly one party at a time (the
 * program after em_alloc or a receive, EM while queued). */
EM_HANDLE_T(em_event_t);
#define EM_EVENT_UNDEF EM_STATIC_CAST(em_event_t, EM_HDL_UNDEF)
#define PRI_EVENT PRI_HDL

/* Event type: major type (bits 31..24) | minor type (bits 23..0). */
typedef uint32_t em_event_type_t;

/* An execution object: receive function + context, with queues. */
EM_HANDLE_T(em_eo_t);
#define EM_EO_UNDEF EM_STATIC_CAST(em_eo_t, EM_HDL_UNDEF)
#define PRI_EO PRI_HDL

EM_HANDLE_T(em_queue_t);
#define EM_QUEUE_UNDEF EM_STATIC_CAST(em_queue_t, EM_HDL_UNDEF)
#define PRI_QUEUE PRI_HDL

/* A queue group: the set of cores that may receive from its queues. */
EM_HANDLE_T(em_queue_group_t);
#define EM_QUEUE_GROUP_UNDEF EM_STATIC_CAST(em_queue_group_t, EM_HDL_UNDEF)
#define PRI_QGRP PRI_HDL

/* An event group: counts received events and sends notifications at zero. */
EM_HANDLE_T(em_event_group_t);
#define EM_EVENT_GROUP_UNDEF EM_STATIC_CAST(em_event_group_t, EM_HDL_UNDEF)
#define PRI_EGRP PRI_HDL

/* An atomic group: queues that are atomic together (one event of the group in
 * receive at a time). */
EM_HANDLE_T(em_atomic_group_t);
#define EM_ATOMIC_GROUP_UNDEF EM_STATIC_CAST(em_atomic_group_t, EM_HDL_UNDEF)
#define PRI_AGRP PRI_HDL

typedef uint32_t em_queue_type_t; /* EM_QUEUE_TYPE_* */
#define PRI_QTYPE PRIu32
typedef uint32_t em_queue_prio_t; /* EM_QUEUE_PRIO_* */
#define PRI_QPRIO PRIu32
typedef uint32_t em_queue_flag_t; /* EM_QUEUE_FLAG_* */
#define EM_QUEUE_FLAG_MASK 0x0000FFFF

/* Optional queue configuration (em_queue_create). flags: EM_QUEUE_FLAG_*;
 * min_events: the queue should hold at least this many (0: default); conf /
 * conf_len: type-specific (an output queue's em_output_queue_conf_t). */
typedef struct {
    em_queue_flag_t flags;
    unsigned int min_events;
    size_t conf_len;
    void *conf;
} em_queue_conf_t;

/* Passed through to the EO's start function (em_eo_start). */
typedef struct {
    size_t conf_len;
    void *conf;
} em_eo_conf_t;

/* A notification: event sent to queue when something completes (an event
 * group reaching zero, an EO started...). egroup: the event group it is sent
 * with, or EM_EVENT_GROUP_UNDEF. */
typedef struct {
    em_event_t event;
    em_queue_t queue;
    em_event_group_t egroup;
} em_notif_t;

/* The scheduling context the running receive holds. */
typedef enum {
    EM_SCHED_CONTEXT_TYPE_NONE = 0,
    EM_SCHED_CONTEXT_TYPE_ATOMIC = 1,
    EM_SCHED_CONTEXT_TYPE_ORDERED = 2
} em_sched_context_type_t;

typedef enum {
    EM_EO_STATE_UNDEF = 0,
    EM_EO_STATE_CREATED = 1,
    EM_EO_STATE_STARTING = 2,
    EM_EO_STATE_RUNNING = 3,
    EM_EO_STATE_STOPPING = 4,
    EM_EO_STATE_ERROR = 5
} em_eo_state_t;

/* Status: EM_OK, an EM_ERR_* code (event_machine_hw_types.h), possibly with
 * EM_ERROR_FATAL_MASK set, or EM_ERROR. */
typedef uint32_t em_status_t;
#define PRI_STAT PRIu32
#define PRIxSTAT PRIx32
#define EM_OK 0
#define EM_ERROR 0xffffffff

/* Error scope: which call reported the error (EM_ESCOPE_*). API scopes have
 * the top byte 0xFF; the application may use scopes without EM_ESCOPE_BIT. */
typedef uint32_t em_escope_t;
#define PRI_ESCOPE PRIu32
#define PRIxESCOPE PRIx32
#define EM_ESCOPE_BIT (0x80000000u)
#define EM_ESCOPE(escope) (EM_ESCOPE_BIT & (escope))
#define EM_ESCOPE_MASK (0xFF000000)
#define EM_ESCOPE_API_TYPE (0xFFu)
#define EM_ESCOPE_API_MASK (EM_ESCOPE_BIT | (EM_ESCOPE_API_TYPE << 24))
#define EM_ESCOPE_API(escope) (((escope)&EM_ESCOPE_MASK) == EM_ESCOPE_API_MASK)

/* Atomic group */
#define EM_ESCOPE_ATOMIC_GROUP_CREATE (EM_ESCOPE_API_MASK | 0x0001)
#define EM_ESCOPE_ATOMIC_GROUP_DELETE (EM_ESCOPE_API_MASK | 0x0002)
#define EM_ESCOPE_QUEUE_CREATE_AG (EM_ESCOPE_API_MASK | 0x0003)
#define EM_ESCOPE_QUEUE_CREATE_STATIC_AG (EM_ESCOPE_API_MASK | 0x0004)
#define EM_ESCOPE_ATOMIC_GROUP_GET (EM_ESCOPE_API_MASK | 0x0005)
#define EM_ESCOPE_ATOMIC_GROUP_GET_NAME (EM_ESCOPE_API_MASK | 0x0006)
#define EM_ESCOPE_ATOMIC_GROUP_FIND (EM_ESCOPE_API_MASK | 0x0007)
/* Core */
#define EM_ESCOPE_CORE_ID (EM_ESCOPE_API_MASK | 0x0101)
#define EM_ESCOPE_CORE_COUNT (EM_ESCOPE_API_MASK | 0x0102)
/* Dispatcher */
#define EM_ESCOPE_DISPATCH (EM_ESCOPE_API_MASK | 0x0201)
#define EM_ESCOPE_DISPATCH_OPT_INIT (EM_ESCOPE_API_MASK | 0x0202)
#define EM_ESCOPE_DISPATCH_DURATION (EM_ESCOPE_API_MASK | 0x0203)
#define EM_ESCOPE_DISPATCH_NS (EM_ESCOPE_API_MASK | 0x0204)
#define EM_ESCOPE_DISPATCH_EVENTS (EM_ESCOPE_API_MASK | 0x0205)
#define EM_ESCOPE_DISPATCH_ROUNDS (EM_ESCOPE_API_MASK | 0x0206)
#define EM_ESCOPE_DISPATCH_REGISTER_ENTER_CB (EM_ESCOPE_API_MASK | 0x0207)
#define EM_ESCOPE_DISPATCH_UNREGISTER_ENTER_CB (EM_ESCOPE_API_MASK | 0x0208)
#define EM_ESCOPE_DISPATCH_REGISTER_EXIT_CB (EM_ESCOPE_API_MASK | 0x0209)
#define EM_ESCOPE_DISPATCH_UNREGISTER_EXIT_CB (EM_ESCOPE_API_MASK | 0x020A)
/* EO */
#define EM_ESCOPE_EO_CREATE (EM_ESCOPE_API_MASK | 0x0301)
#define EM_ESCOPE_EO_CREATE_MULTIRCV (EM_ESCOPE_API_MASK | 0x0302)
#define EM_ESCOPE_EO_MULTIRCV_PARAM_INIT (EM_ESCOPE_API_MASK | 0x0303)
#define EM_ESCOPE_EO_DELETE (EM_ESCOPE_API_MASK | 0x0304)
#define EM_ESCOPE_EO_GET_NAME (EM_ESCOPE_API_MASK | 0x0305)
#define EM_ESCOPE_EO_FIND (EM_ESCOPE_API_MASK | 0x0306)
#define EM_ESCOPE_EO_ADD_QUEUE (EM_ESCOPE_API_MASK | 0x0307)
#define EM_ESCOPE_EO_ADD_QUEUE_SYNC (EM_ESCOPE_API_MASK | 0x0308)
#define EM_ESCOPE_EO_REMOVE_QUEUE (EM_ESCOPE_API_MASK | 0x0309)
#define EM_ESCOPE_EO_REMOVE_QUEUE_SYNC (EM_ESCOPE_API_MASK | 0x030A)
#define EM_ESCOPE_EO_REMOVE_QUEUE_ALL (EM_ESCOPE_API_MASK | 0x030B)
#define EM_ESCOPE_EO_REMOVE_QUEUE_ALL_SYNC (EM_ESCOPE_API_MASK | 0x030C)
#define EM_ESCOPE_EO_REGISTER_ERROR_HANDLER (EM_ESCOPE_API_MASK | 0x030D)
#define EM_ESCOPE_EO_UNREGISTER_ERROR_HANDLER (EM_ESCOPE_API_MASK | 0x030E)
#define EM_ESCOPE_EO_START (EM_ESCOPE_API_MASK | 0x030F)
#define EM_ESCOPE_EO_START_SYNC (EM_ESCOPE_API_MASK | 0x0310)
#define EM_ESCOPE_EO_STOP (EM_ESCOPE_API_MASK | 0x0311)
#define EM_ESCOPE_EO_STOP_SYNC (EM_ESCOPE_API_MASK | 0x0312)
#define EM_ESCOPE_EO_CURRENT (EM_ESCOPE_API_MASK | 0x0313)
#define EM_ESCOPE_EO_GET_CONTEXT (EM_ESCOPE_API_MASK | 0x0314)
#define EM_ESCOPE_EO_GET_STATE (EM_ESCOPE_API_MASK | 0x0317)
/* Error */
#define EM_ESCOPE_REGISTER_ERROR_HANDLER (EM_ESCOPE_API_MASK | 0x0401)
#define EM_ESCOPE_UNREGISTER_ERROR_HANDLER (EM_ESCOPE_API_MASK | 0x0402)
#define EM_ESCOPE_ERROR (EM_ESCOPE_API_MASK | 0x0403)
/* Event group */
#define EM_ESCOPE_EVENT_GROUP_CREATE (EM_ESCOPE_API_MASK | 0x0501)
#define EM_ESCOPE_EVENT_GROUP_DELETE (EM_ESCOPE_API_MASK | 0x0502)
#define EM_ESCOPE_EVENT_GROUP_APPLY (EM_ESCOPE_API_MASK | 0x0503)
#define EM_ESCOPE_EVENT_GROUP_INCREMENT (EM_ESCOPE_API_MASK | 0x0504)
#define EM_ESCOPE_EVENT_GROUP_CURRENT (EM_ESCOPE_API_MASK | 0x0505)
#define EM_ESCOPE_EVENT_GROUP_IS_READY (EM_ESCOPE_API_MASK | 0x0506)
#define EM_ESCOPE_SEND_GROUP (EM_ESCOPE_API_MASK | 0x0507)
#define EM_ESCOPE_SEND_GROUP_MULTI (EM_ESCOPE_API_MASK | 0x0508)
#define EM_ESCOPE_EVENT_GROUP_PROCESSING_END (EM_ESCOPE_API_MASK | 0x0509)
#define EM_ESCOPE_EVENT_GROUP_ASSIGN (EM_ESCOPE_API_MASK | 0x050A)
#define EM_ESCOPE_EVENT_GROUP_ABORT (EM_ESCOPE_API_MASK | 0x050B)
#define EM_ESCOPE_EVENT_GROUP_GET_NOTIF (EM_ESCOPE_API_MASK | 0x050C)
#define EM_ESCOPE_EVENT_GROUP_GET_FIRST (EM_ESCOPE_API_MASK | 0x050D)
#define EM_ESCOPE_EVENT_GROUP_GET_NEXT (EM_ESCOPE_API_MASK | 0x050E)
/* Event */
#define EM_ESCOPE_ALLOC (EM_ESCOPE_API_MASK | 0x0601)
#define EM_ESCOPE_ALLOC_MULTI (EM_ESCOPE_API_MASK | 0x0602)
#define EM_ESCOPE_FREE (EM_ESCOPE_API_MASK | 0x0603)
#define EM_ESCOPE_FREE_MULTI (EM_ESCOPE_API_MASK | 0x0604)
#define EM_ESCOPE_SEND (EM_ESCOPE_API_MASK | 0x0605)
#define EM_ESCOPE_SEND_MULTI (EM_ESCOPE_API_MASK | 0x0606)
#define EM_ESCOPE_EVENT_POINTER (EM_ESCOPE_API_MASK | 0x0607)
#define EM_ESCOPE_EVENT_POINTER_AND_SIZE (EM_ESCOPE_API_MASK | 0x0608)
#define EM_ESCOPE_EVENT_GET_SIZE (EM_ESCOPE_API_MASK | 0x0609)
#define EM_ESCOPE_EVENT_GET_POOL (EM_ESCOPE_API_MASK | 0x060A)
#define EM_ESCOPE_EVENT_SET_TYPE (EM_ESCOPE_API_MASK | 0x060C)
#define EM_ESCOPE_EVENT_GET_TYPE (EM_ESCOPE_API_MASK | 0x060D)
#define EM_ESCOPE_EVENT_UAREA_GET (EM_ESCOPE_API_MASK | 0x0618)
/* Queue group */
#define EM_ESCOPE_QUEUE_GROUP_CREATE (EM_ESCOPE_API_MASK | 0x0801)
#define EM_ESCOPE_QUEUE_GROUP_CREATE_SYNC (EM_ESCOPE_API_MASK | 0x0802)
#define EM_ESCOPE_QUEUE_GROUP_DELETE (EM_ESCOPE_API_MASK | 0x0803)
#define EM_ESCOPE_QUEUE_GROUP_DELETE_SYNC (EM_ESCOPE_API_MASK | 0x0804)
#define EM_ESCOPE_QUEUE_GROUP_FIND (EM_ESCOPE_API_MASK | 0x0807)
#define EM_ESCOPE_QUEUE_GROUP_MASK (EM_ESCOPE_API_MASK | 0x0808)
#define EM_ESCOPE_QUEUE_GROUP_GET_NAME (EM_ESCOPE_API_MASK | 0x0809)
/* Queue */
#define EM_ESCOPE_QUEUE_CREATE (EM_ESCOPE_API_MASK | 0x0901)
#define EM_ESCOPE_QUEUE_CREATE_STATIC (EM_ESCOPE_API_MASK | 0x0902)
#define EM_ESCOPE_QUEUE_DELETE (EM_ESCOPE_API_MASK | 0x0903)
#define EM_ESCOPE_QUEUE_SET_CONTEXT (EM_ESCOPE_API_MASK | 0x0904)
#define EM_ESCOPE_QUEUE_GET_CONTEXT (EM_ESCOPE_API_MASK | 0x0905)
#define EM_ESCOPE_QUEUE_GET_NAME (EM_ESCOPE_API_MASK | 0x0906)
#define EM_ESCOPE_QUEUE_GET_PRIORITY (EM_ESCOPE_API_MASK | 0x0907)
#define EM_ESCOPE_QUEUE_GET_TYPE (EM_ESCOPE_API_MASK | 0x0908)
#define EM_ESCOPE_QUEUE_GET_GROUP (EM_ESCOPE_API_MASK | 0x0909)
#define EM_ESCOPE_QUEUE_FIND (EM_ESCOPE_API_MASK | 0x090A)
#define EM_ESCOPE_QUEUE_DEQUEUE (EM_ESCOPE_API_MASK | 0x090B)
#define EM_ESCOPE_QUEUE_DEQUEUE_MULTI (EM_ESCOPE_API_MASK | 0x090C)
#define EM_ESCOPE_QUEUE_CURRENT (EM_ESCOPE_API_MASK | 0x090D)
/* Scheduler */
#define EM_ESCOPE_ATOMIC_PROCESSING_END (EM_ESCOPE_API_MASK | 0x0A01)
#define EM_ESCOPE_ORDERED_PROCESSING_END (EM_ESCOPE_API_MASK | 0x0A02)
#define EM_ESCOPE_PRESCHEDULE (EM_ESCOPE_API_MASK | 0x0A03)
#define EM_ESCOPE_SCHED_CONTEXT_TYPE_CURRENT (EM_ESCOPE_API_MASK | 0x0A04)

#ifdef __cplusplus
}
#endif
#endif
