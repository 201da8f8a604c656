/* match.c -- posted and unexpected queues; MPI's matching rules.
 *
 * Non-overtaking per (source, tag, communicator): a pair's slots arrive in
 * the order they were sent, an arriving envelope matches the oldest posted
 * receive that accepts it, and a new receive the oldest unexpected message. */
#include <stdlib.h>
#include <string.h>

#include "ml.h"

bool ml_match(const struct ml_request *r, int src, int tag, int ctx)
{
    return r->ctx == ctx && (r->src_world == MPI_ANY_SOURCE || r->src_world == src) &&
           (r->tag == MPI_ANY_TAG || r->tag == tag);
}

struct ml_request *ml_match_posted(struct ml_rank *me, int src, int tag, int ctx)
{
    struct ml_request *prev = NULL;
    for (struct ml_request *r = me->posted; r; prev = r, r = r->next) {
        if (!ml_match(r, src, tag, ctx)) continue;
        if (prev)
            prev->next = r->next;
        else
            me->posted = r->next;
        if (me->posted_tail == r) me->posted_tail = prev;
        r->next = NULL;
        return r;
    }
    return NULL;
}

static bool unexp_fits(const struct ml_unexp *u, int src, int tag, int ctx)
{
    return u->ctx == ctx && (src == MPI_ANY_SOURCE || u->src_world == src) &&
           (tag == MPI_ANY_TAG || u->tag == tag);
}

struct ml_unexp *ml_probe_unexp(struct ml_rank *me, int src, int tag, int ctx)
{
    for (struct ml_unexp *u = me->unexp; u; u = u->next)
        if (unexp_fits(u, src, tag, ctx)) return u;
    return NULL;
}

struct ml_unexp *ml_match_unexp(struct ml_rank *me, const struct ml_request *r)
{
    struct ml_unexp *prev = NULL;
    for (struct ml_unexp *u = me->unexp; u; prev = u, u = u->next) {
        if (!unexp_fits(u, r->src_world, r->tag, r->ctx)) continue;
        if (prev)
            prev->next = u->next;
        else
            me->unexp = u->next;
        if (me->unexp_tail == u) me->unexp_tail = prev;
        u->next = NULL;
        return u;
    }
    return NULL;
}

void ml_post(struct ml_rank *me, struct ml_request *r)
{
    r->next = NULL;
    if (me->posted_tail)
        me->posted_tail->next = r;
    else
        me->posted = r;
    me->posted_tail = r;
}

void ml_unexp_add(struct ml_rank *me, struct ml_unexp *u)
{
    u->next = NULL;
    if (me->unexp_tail)
        me->unexp_tail->next = u;
    else
        me->unexp = u;
    me->unexp_tail = u;
}

void ml_unexp_deliver(struct ml_unexp *u, struct ml_request *r)
{
    r->total = u->total;
    r->st.MPI_SOURCE = u->src_world;
    r->st.MPI_TAG = u->tag;
    size_t k = u->total < r->cap ? u->total : r->cap;
    if (k) plat_copy(r->pack, u->data, k);
    r->got = k;
    r->seen = u->total;
    free(u->data);
    free(u);
    ml_req_complete_recv(r);
}
