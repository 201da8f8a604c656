/*
 * event_machine_config.h -- handle style, limits and the error-check level.
 *
 * Values as em-odp 3.8 unless noted; the limits size the tables of the shared
 * instance (one named shared region, created by em_init).
 */
#ifndef EVENT_MACHINE_CONFIG_H
#define EVENT_MACHINE_CONFIG_H

/* Handles are pointers to distinct incomplete structs: passing a queue where an
 * EO is expected does not compile. The value is an index + 1 (never a real
 * address), so EM_HDL_UNDEF (NULL) is never a valid handle. */
#define EM_HANDLE_T(type_t)                                                                        \
    typedef struct _##type_t {                                                                     \
        void *unused;                                                                              \
    } * (type_t)

#ifndef __cplusplus
#define EM_STATIC_CAST(type, value) ((type)(value))
#define EM_REINTERPRET_CAST(type, value) ((type)(value))
#define EM_HDL_UNDEF NULL
#else
#define EM_STATIC_CAST(type, value) (static_cast<type>(value))
#define EM_REINTERPRET_CAST(type, value) (reinterpret_cast<type>(value))
#define EM_HDL_UNDEF nullptr
#endif

/* printf format of a handle */
#define PRI_HDL "p"

#define EM_64_BIT 1

#define EM_CONFIG_POOLS 16       /* pools, EM_POOL_DEFAULT included */
#define EM_MAX_QUEUES 1024       /* ipcsim: queues of all types (em-odp: from its config file) */
#define EM_QUEUE_NAME_LEN 32     /* bytes, the terminating NUL included */
#define EM_MAX_ATOMIC_GROUPS 128 /* atomic groups */
#define EM_ATOMIC_GROUP_NAME_LEN 32
#define EM_MAX_EOS 512 /* execution objects */
#define EM_EO_NAME_LEN 32
#define EM_MAX_EVENT_GROUPS 1024   /* event groups */
#define EM_EVENT_GROUP_MAX_NOTIF 6 /* notifications per em_event_group_apply */
#define EM_DISPATCH_CALLBACKS_ENABLE 1
#define EM_CALLBACKS_MAX 8 /* enter (and exit) callbacks per core */

/*
 * EM_CHECK_LEVEL: how much argument and state checking the library does, as
 * em-odp: 0 none (misuse is undefined), 1 (default) checks of handles and
 * arguments and of the event state word (double free, free or send of an event
 * already sent: EM_ERR_EVENT_STATE, as em-odp's event state verification), 2
 * and 3 the same in this version. libem.a is built with the level below.
 */
#ifndef EM_CHECK_LEVEL
#define EM_CHECK_LEVEL 1
#endif

#endif
