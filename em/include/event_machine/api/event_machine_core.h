/*
 * event_machine_core.h -- which EM core am I.
 */
#ifndef EVENT_MACHINE_CORE_H_
#define EVENT_MACHINE_CORE_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The calling core's EM id, 0 .. em_core_count()-1 (given by em_init_core);
 * -1 on a core that is not an EM core. */
int em_core_id(void);

/* The number of EM cores (em_conf_t.core_count); 0 before em_init. */
int em_core_count(void);

#ifdef __cplusplus
}
#endif
#endif
