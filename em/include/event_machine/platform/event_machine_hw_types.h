/*
 * event_machine_hw_types.h -- types whose layout belongs to this
 * implementation: pools, event and queue types, core masks, error codes and
 * the internal error scopes.
 */
#ifndef EVENT_MACHINE_HW_TYPES_H
#define EVENT_MACHINE_HW_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* An event pool: events of up to EM_MAX_SUBPOOLS fixed buffer sizes. */
EM_HANDLE_T(em_pool_t);
#define EM_POOL_UNDEF EM_STATIC_CAST(em_pool_t, EM_HDL_UNDEF)
#define PRI_POOL PRI_HDL

/* Major event types (bits 31..24 of em_event_type_t). This EM allocates only
 * software events (EM_EVENT_TYPE_SW); the others are accepted as types. */
typedef enum em_event_type_major_e {
    EM_EVENT_TYPE_UNDEF = 0,
    EM_EVENT_TYPE_SW = 1 << 24,
    EM_EVENT_TYPE_PACKET = 2 << 24,
    EM_EVENT_TYPE_TIMER = 3 << 24,
    EM_EVENT_TYPE_CRYPTO = 4 << 24,
    EM_EVENT_TYPE_VECTOR = 5 << 24,
    EM_EVENT_TYPE_TIMER_IND = 6 << 24
} em_event_type_major_e;

typedef enum em_event_type_sw_minor_e { EM_EVENT_TYPE_SW_DEFAULT = 0 } em_event_type_sw_minor_e;

/*
 * Queue types.
 *   ATOMIC            one event at a time: the core that got an event holds the
 *                     queue until its receive returns or it calls
 *                     em_atomic_processing_end(); FIFO.
 *   PARALLEL          any number of events in receive at once, on any cores.
 *   PARALLEL_ORDERED  parallel, but events sent from a receive reach their
 *                     destinations in the order their sources left the queue.
 *   UNSCHEDULED       never scheduled; the program takes events with
 *                     em_queue_dequeue().
 *   LOCAL             scheduled on the sending core only, ahead of the others.
 *   OUTPUT            not supported here (em_queue_create fails,
 *                     EM_ERR_NOT_SUPPORTED).
 */
typedef enum em_queue_type_e {
    EM_QUEUE_TYPE_UNDEF = 0,
    EM_QUEUE_TYPE_ATOMIC = 1,
    EM_QUEUE_TYPE_PARALLEL = 2,
    EM_QUEUE_TYPE_PARALLEL_ORDERED = 3,
    EM_QUEUE_TYPE_UNSCHEDULED = 4,
    EM_QUEUE_TYPE_LOCAL = 5,
    EM_QUEUE_TYPE_OUTPUT = 6
} em_queue_type_e;

/* Scheduling priorities: a ready queue of a higher priority is served first. */
typedef enum em_queue_prio_e {
    EM_QUEUE_PRIO_LOWEST = 0,
    EM_QUEUE_PRIO_LOW = 2,
    EM_QUEUE_PRIO_NORMAL = 4,
    EM_QUEUE_PRIO_HIGH = 6,
    EM_QUEUE_PRIO_HIGHEST = 7
} em_queue_prio_e;
#define EM_QUEUE_PRIO_UNDEF 0xFF

/* em_queue_conf_t.flags. The em-odp flags are accepted and make no
 * difference here (every queue is multi-thread safe). */
#define EM_QUEUE_FLAG_DEFAULT 0
#define EM_QUEUE_FLAG_BLOCKING 0
#define EM_QUEUE_FLAG_NONBLOCKING_LF 1
#define EM_QUEUE_FLAG_NONBLOCKING_WF 2
#define EM_QUEUE_FLAG_ENQ_NOT_MTSAFE 4
#define EM_QUEUE_FLAG_DEQ_NOT_MTSAFE 8
/* ipcsim extension: preload. Before a receive of an event of this queue runs,
 * the event's payload is copied by DMA into the receiving core's local memory
 * and em_event_pointer() returns the local copy for the rest of that receive
 * (docs/em.md, "Preload"). A no-op on cores without local memory or DMA. */
#define EM_QUEUE_FLAG_IPCSIM_PRELOAD 0x00010000

/* A set of EM cores (bit i: EM core i). */
typedef struct {
    uint64_t bits[(EM_MAX_CORES + 63) / 64];
} em_core_mask_t;
#define EM_CORE_MASK_STRLEN ((EM_MAX_CORES + 3) / 4 + 3)

#define EM_MAX_SUBPOOLS 4 /* buffer sizes per pool */

/* Error codes (em_status_t). */
typedef enum em_status_e {
    EM_ERR_BAD_ARG = 1,
    EM_ERR_BAD_STATE = 2,
    EM_ERR_BAD_ID = 3,
    EM_ERR_BAD_TYPE = 4,
    EM_ERR_BAD_CONTEXT = 5,
    EM_ERR_BAD_POINTER = 6,
    EM_ERR_NOT_CREATED = 7,
    EM_ERR_NOT_FREE = 8,
    EM_ERR_NOT_FOUND = 9,
    EM_ERR_NOT_INITIALIZED = 10,
    EM_ERR_NOT_IMPLEMENTED = 11,
    EM_ERR_NOT_SUPPORTED = 12,
    EM_ERR_ALLOC_FAILED = 13,
    EM_ERR_OPERATION_FAILED = 14,
    EM_ERR_LIB_FAILED = 15,
    EM_ERR_TOO_LARGE = 16,
    EM_ERR_TOO_SMALL = 17,
    EM_ERR_EVENT_STATE = 18, /* double free, free or send of a sent event */
    EM_ERR_TIMEOUT = 19,
    EM_ERR_TOONEAR = 20,
    EM_ERR_TOOFAR = 21,
    EM_ERR_CANCELED = 22,
    EM_ERR
} em_status_e;

typedef enum { EM_LOG_DBG, EM_LOG_PRINT, EM_LOG_ERR } em_log_level_t;

/* Log functions (em_conf_t.log): the library's messages go through them. */
typedef int (*em_log_func_t)(em_log_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
typedef int (*em_vlog_func_t)(em_log_level_t level, const char *fmt, va_list args);

/* Input poll and output drain functions (em_conf_t.input / .output): called
 * by the dispatch loop of the cores of their masks once a round. */
typedef int (*em_input_poll_func_t)(void);
typedef int (*em_output_drain_func_t)(void);

/* A fatal error: the handler's return is not honoured, the run is ended. */
#define EM_ERROR_FATAL_MASK 0x80000000
#define EM_ERROR_IS_FATAL(error) (!!(EM_ERROR_FATAL_MASK & (error)))
#define EM_ERROR_SET_FATAL(error) (EM_ERROR_FATAL_MASK | (error))
#define EM_FATAL(error) EM_ERROR_SET_FATAL((error))

/* Internal error scopes (top byte 0xFE). */
#define EM_ESCOPE_INTERNAL_TYPE (0xFEu)
#define EM_ESCOPE_INTERNAL_MASK (EM_ESCOPE_BIT | (EM_ESCOPE_INTERNAL_TYPE << 24))
#define EM_ESCOPE_INTERNAL(escope) (((escope)&EM_ESCOPE_MASK) == EM_ESCOPE_INTERNAL_MASK)

#define EM_ESCOPE_CONF_INIT (EM_ESCOPE_INTERNAL_MASK | 0x0001)
#define EM_ESCOPE_INIT (EM_ESCOPE_INTERNAL_MASK | 0x0002)
#define EM_ESCOPE_INIT_CORE (EM_ESCOPE_INTERNAL_MASK | 0x0003)
#define EM_ESCOPE_TERM (EM_ESCOPE_INTERNAL_MASK | 0x0004)
#define EM_ESCOPE_TERM_CORE (EM_ESCOPE_INTERNAL_MASK | 0x0005)
#define EM_ESCOPE_POOL_CFG_INIT (EM_ESCOPE_INTERNAL_MASK | 0x0101)
#define EM_ESCOPE_POOL_CREATE (EM_ESCOPE_INTERNAL_MASK | 0x0102)
#define EM_ESCOPE_POOL_DELETE (EM_ESCOPE_INTERNAL_MASK | 0x0103)
#define EM_ESCOPE_POOL_FIND (EM_ESCOPE_INTERNAL_MASK | 0x0104)
#define EM_ESCOPE_POOL_GET_NAME (EM_ESCOPE_INTERNAL_MASK | 0x0105)
#define EM_ESCOPE_POOL_INFO (EM_ESCOPE_INTERNAL_MASK | 0x0108)
#define EM_ESCOPE_POOL_NUM_SUBPOOLS (EM_ESCOPE_INTERNAL_MASK | 0x010F)
/* the event group machinery: a notification could not be sent */
#define EM_ESCOPE_EVENT_GROUP_UPDATE (EM_ESCOPE_INTERNAL_MASK | 0x0501)
/* an EO's local start or local stop failed on a core; its done-notification */
#define EM_ESCOPE_EO_START_DONE_CB (EM_ESCOPE_INTERNAL_MASK | 0x0801)
#define EM_ESCOPE_EO_STOP_DONE_CB (EM_ESCOPE_INTERNAL_MASK | 0x0803)
/* ipcsim: the scheduler (a hwq push or pop failed; preload DMA failed) */
#define EM_ESCOPE_IPCSIM_SCHED (EM_ESCOPE_INTERNAL_MASK | 0x0F01)

#ifdef __cplusplus
}
#endif
#endif
