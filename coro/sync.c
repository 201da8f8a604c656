/* sync.c -- adds on any core, the ticket lock, waiters and wait lists. */
#include "cr.h"

uint64_t cr_add(uint64_t *p, uint64_t delta)
{
    if (plat_core_caps(plat_core()) & PLAT_CAP_FETCH_ADD) return plat_fetch_add64(p, delta);
    uint64_t old = plat_load64(p);
    while (!plat_cas64(p, &old, old + delta)) {
    }
    return old;
}

/* Tickets are handed out by an add and served in order, so the lock needs
 * no compare-and-swap and is fair. */
void cr_lock(struct cr_lock *l)
{
    uint64_t t = cr_add(&l->next, 1);
    for (;;) {
        uint64_t s = plat_load64(&l->serving);
        if (s == t) return;
        plat_poll64(&l->serving, s, PLAT_FOREVER);
    }
}

void cr_unlock(struct cr_lock *l)
{
    /* Only the holder writes `serving`. */
    plat_store64(&l->serving, plat_load64(&l->serving) + 1);
}

bool cr_claim(struct cr_waiter *w)
{
    return cr_add(&w->fired, 1) == 0;
}

void cr_list_push(struct cr_list *l, struct cr_link *k)
{
    k->next = NULL;
    k->prev = l->tail;
    if (l->tail)
        l->tail->next = k;
    else
        l->head = k;
    l->tail = k;
    k->linked = true;
}

void cr_list_del(struct cr_list *l, struct cr_link *k)
{
    if (!k->linked) return;
    if (k->prev)
        k->prev->next = k->next;
    else
        l->head = k->next;
    if (k->next)
        k->next->prev = k->prev;
    else
        l->tail = k->prev;
    k->linked = false;
}

struct cr_link *cr_list_pop(struct cr_list *l)
{
    struct cr_link *k = l->head;
    if (k) cr_list_del(l, k);
    return k;
}
