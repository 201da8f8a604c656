/*
 * transport/shm/wake.c -- waking the nodes that wait for an object.
 *
 * An object's `waiters` is a mask of node ids. Taking it under the
 * object's lock and notifying after unlocking means a node is woken once
 * per change it asked about, and a change nobody waits for costs no
 * notification (in simulation: no transaction).
 */
#include "db.h"

uint64_t tp_take_waiters(uint64_t *waiters)
{
    uint64_t w = *waiters;
    *waiters = 0;
    return w;
}

void tp_wake(struct tp_node *tp, uint64_t mask)
{
    for (unsigned n = 0; mask; n++, mask >>= 1)
        if (mask & 1u) drv_shm_notify(&tp->db->node[n].ev);
}
