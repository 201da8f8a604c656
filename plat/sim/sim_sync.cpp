// sim_sync.cpp -- mutexes and event counts: software objects over atomics.
//
// A mutex is one word (0 free, 1 held): lock is a compare-and-swap at the
// memory holding it, unlock an exchange. An event is one word, its epoch:
// notify is an atomic add. Waiters sleep until a write to the word wakes
// them, then try again (paying the access again).
#include "sim.h"

#include <cstring>

namespace ipcsim
{

static uint64_t *word(void *opaque)
{
    return (uint64_t *)opaque;
}

void sim_mutex_init(plat_mutex *m, unsigned)
{
    self();
    memset(need(m, "plat_mutex_init"), 0, sizeof *m);
}

void sim_mutex_destroy(plat_mutex *m)
{
    need(m, "plat_mutex_destroy");
}

// No simulated core dies, so a robust mutex never has a dead holder.
int sim_mutex_lock(plat_mutex *m)
{
    Thread &t = self();
    uint64_t *w = word(need(m, "plat_mutex_lock"));
    while (sim_access(t, OP_CAS, tlm::TLM_WRITE_COMMAND, w, 0, 1) != 0)
        kernel().block(t, w, sizeof *w, "plat_mutex_lock", NEVER);
    return PLAT_OK;
}

bool sim_mutex_trylock(plat_mutex *m)
{
    Thread &t = self();
    uint64_t *w = word(need(m, "plat_mutex_trylock"));
    return sim_access(t, OP_CAS, tlm::TLM_WRITE_COMMAND, w, 0, 1) == 0;
}

void sim_mutex_unlock(plat_mutex *m)
{
    Thread &t = self();
    uint64_t *w = word(need(m, "plat_mutex_unlock"));
    if (sim_access(t, OP_XCHG, tlm::TLM_WRITE_COMMAND, w, 0, 0) == 0)
        kernel().misuse("plat_mutex_unlock: the mutex is not locked");
}

// The run is one process that lives as long as the simulation: bookkeeping,
// no simulated time.
uint64_t sim_proc_token()
{
    self();
    return 1;
}

bool sim_proc_alive(uint64_t token)
{
    self();
    return token == 1;
}

void sim_event_init(plat_event *ev, unsigned)
{
    self();
    memset(need(ev, "plat_event_init"), 0, sizeof *ev);
}

void sim_event_destroy(plat_event *ev)
{
    need(ev, "plat_event_destroy");
}

uint32_t sim_event_epoch(plat_event *ev)
{
    Thread &t = self();
    return (uint32_t)sim_access(t, OP_NONE, tlm::TLM_READ_COMMAND,
                                word(need(ev, "plat_event_epoch")), 0, 0);
}

int sim_event_wait(plat_event *ev, uint32_t epoch, uint64_t timeout_ns)
{
    Thread &t = self();
    uint64_t *w = word(need(ev, "plat_event_wait"));
    uint64_t dl = deadline_ps(timeout_ns);
    for (;;) {
        if ((uint32_t)sim_access(t, OP_NONE, tlm::TLM_READ_COMMAND, w, 0, 0) != epoch)
            return PLAT_OK;
        if (!sleep_on(t, w, "plat_event_wait", dl))
            return kernel().timed_out(t, "plat_event_wait", timeout_ns);
    }
}

void sim_event_notify(plat_event *ev)
{
    Thread &t = self();
    sim_access(t, OP_ADD, tlm::TLM_WRITE_COMMAND, word(need(ev, "plat_event_notify")), 1, 0);
}

} // namespace ipcsim
