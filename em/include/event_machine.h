/*
 * event_machine.h -- the ipcsim Event Machine: the em-odp 3.x API (a subset).
 *
 * The one header a program includes. It pulls in every part of the API in the
 * order em-odp's event_machine.h does, so that code written for em-odp finds
 * each name where it expects it:
 *
 *   event_machine/platform/event_machine_config.h   limits, check level
 *   event_machine/api/event_machine_types.h         handles, status, escopes
 *   event_machine/platform/event_machine_hw_config.h  build-time constants
 *   event_machine/platform/event_machine_hw_types.h   pools, queue types, errors
 *   event_machine/api/event_machine_{error,eo,queue,queue_group,core,event,
 *       atomic_group,event_group,scheduler,dispatcher}.h
 *   event_machine/platform/event_machine_{pool,init,hw_specific}.h
 *
 * The env_* helpers (cycles, shared memory, atomics, spinlocks) are in
 * event_machine/platform/env/environment.h, included on demand as in em-odp.
 *
 * Every call declared here is implemented by libem.a on the ipcsim platform
 * interface; docs/em.md lists them and every deviation from em-odp 3.8.
 */
#ifndef EVENT_MACHINE_H
#define EVENT_MACHINE_H

#include <event_machine/platform/event_machine_config.h>
#include <event_machine/api/event_machine_types.h>
#include <event_machine/platform/event_machine_hw_config.h>
#include <event_machine/platform/event_machine_hw_types.h>
#include <event_machine/api/event_machine_error.h>
#include <event_machine/api/event_machine_eo.h>
#include <event_machine/api/event_machine_queue.h>
#include <event_machine/api/event_machine_queue_group.h>
#include <event_machine/api/event_machine_core.h>
#include <event_machine/api/event_machine_event.h>
#include <event_machine/api/event_machine_atomic_group.h>
#include <event_machine/api/event_machine_event_group.h>
#include <event_machine/api/event_machine_scheduler.h>
#include <event_machine/api/event_machine_dispatcher.h>
#include <event_machine/platform/event_machine_pool.h>
#include <event_machine/platform/event_machine_init.h>
#include <event_machine/platform/event_machine_hw_specific.h>

#endif
