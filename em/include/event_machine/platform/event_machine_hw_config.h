/*
 * event_machine_hw_config.h -- build-time constants of this EM (values as
 * em-odp 3.8).
 */
#ifndef EVENT_MACHINE_HW_CONFIG_H
#define EVENT_MACHINE_HW_CONFIG_H

#define EM_MAX_CORES 64 /* EM cores in one instance */

#define EM_UNDEF_U64 0
#define EM_UNDEF_U32 0
#define EM_UNDEF_U16 0
#define EM_UNDEF_U8 0
#define EM_UNDEF_UINTPTR EM_STATIC_CAST(uintptr_t, NULL)
#ifndef __cplusplus
#define EM_UNDEF_PTR NULL
#else
#define EM_UNDEF_PTR nullptr
#endif

/* Scheduling priorities: EM_QUEUE_PRIO_LOWEST (0) .. EM_QUEUE_PRIO_HIGHEST (7). */
#define EM_QUEUE_PRIO_NUM 8

/* The default queue group: every EM core. */
#define EM_MAX_QUEUE_GROUPS (EM_MAX_CORES + 64)
#define EM_QUEUE_GROUP_DEFAULT EM_REINTERPRET_CAST(em_queue_group_t, EM_MAX_QUEUE_GROUPS)
#define EM_QUEUE_GROUP_NAME_LEN 32
#define EM_QUEUE_GROUP_DEFAULT_NAME "default"

/* The default pool, created by em_init from em_conf_t.default_pool_cfg. */
#define EM_POOL_DEFAULT EM_REINTERPRET_CAST(em_pool_t, 1)
#define EM_POOL_NAME_LEN 32
#define EM_POOL_DEFAULT_NAME "default"

#define EM_EVENT_USER_AREA_MAX_SIZE 256 /* bytes of user area per event, at most */
#define EM_EO_MULTIRCV_MAX_EVENTS 32    /* events per receive_multi call, at most */

#endif
