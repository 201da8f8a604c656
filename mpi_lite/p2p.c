/* p2p.c -- MPI_Send and its kinds, MPI_Recv, probes, MPI_Get_count. */
#include <stdlib.h>
#include <string.h>

#include "ml.h"

int ml_isend(struct ml_rank *me, const void *buf, int count, struct ml_type *ty, MPI_Datatype t,
             int dst, int tag, int ctx, bool sync, MPI_Request *out)
{
    (void)t;
    struct ml_request *r = ml_req_new(ML_SEND);
    size_t len = (size_t)count * ty->size;
    if (ty->contig || len == 0) {
        r->sdata = buf;
    } else {
        r->sown = malloc(len);
        if (!r->sown) ml_fatal("MPI_Send", MPI_ERR_NO_MEM, "out of memory packing %zu bytes", len);
        ml_pack(ty, buf, count, r->sown);
        r->sdata = r->sown;
    }
    tp_send(me, r, dst, tag, ctx, len, sync);
    *out = r;
    return MPI_SUCCESS;
}

int ml_irecv(struct ml_rank *me, void *buf, int count, MPI_Datatype t, struct ml_type *ty, int src,
             int tag, int ctx, MPI_Request *out)
{
    struct ml_request *r = ml_req_new(ML_RECV);
    r->user = buf;
    r->count = count;
    r->type = t;
    r->cap = (size_t)count * ty->size;
    r->src_world = src;
    r->tag = tag;
    r->ctx = ctx;
    if (ty->contig || r->cap == 0) {
        r->pack = buf;
    } else {
        r->pack = malloc(r->cap);
        if (!r->pack) ml_fatal("MPI_Recv", MPI_ERR_NO_MEM, "out of memory for %zu bytes", r->cap);
    }
    *out = r;
    struct ml_unexp *u = ml_match_unexp(me, r);
    if (!u) {
        ml_post(me, r);
        return MPI_SUCCESS;
    }
    if (u->rts) { /* rendezvous: now that it matched, the data may come */
        r->total = u->total;
        r->st.MPI_SOURCE = u->src_world;
        r->st.MPI_TAG = u->tag;
        tp_cts(me, u, r);
        free(u);
    } else if (u->got == u->total) {
        ml_unexp_deliver(u, r);
    } else {
        u->req = r; /* still arriving: delivered when its last fragment is in */
    }
    return MPI_SUCCESS;
}

/* The checks every point-to-point call makes; world rank of peer in *w. */
static int check_peer(struct ml_rank *me, MPI_Comm c, const char *call, int peer, bool any_ok,
                      int tag, bool anytag_ok, struct ml_comm **cm, int *w)
{
    *cm = ml_comm(me, c);
    if (!*cm) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, call, "communicator %d is not valid", c);
    if (peer == MPI_PROC_NULL) {
        *w = MPI_PROC_NULL;
    } else if (any_ok && peer == MPI_ANY_SOURCE) {
        *w = MPI_ANY_SOURCE;
    } else if (peer < 0 || peer >= (*cm)->size) {
        return ml_err(c, MPI_ERR_RANK, call, "rank %d is not in 0..%d", peer, (*cm)->size - 1);
    } else {
        *w = (*cm)->world[peer];
    }
    if (!(anytag_ok && tag == MPI_ANY_TAG) && (tag < 0 || tag > MPI_TAG_UB_VALUE))
        return ml_err(c, MPI_ERR_TAG, call, "tag %d is not in 0..%d", tag, MPI_TAG_UB_VALUE);
    return MPI_SUCCESS;
}

static int start_send(const char *call, const void *buf, int count, MPI_Datatype t, int dest,
                      int tag, MPI_Comm c, bool sync, MPI_Request *req)
{
    struct ml_rank *me = ml_rank_or_die(call);
    struct ml_type *ty;
    struct ml_comm *cm;
    int w, e = ml_check_buf(c, call, count, t, &ty);
    if (e) return e;
    if ((e = check_peer(me, c, call, dest, false, tag, false, &cm, &w))) return e;
    if (!req) return ml_err(c, MPI_ERR_REQUEST, call, "request NULL");
    if (w == MPI_PROC_NULL) {
        *req = ml_req_new(ML_SEND);
        (*req)->done = true;
        (*req)->st = (MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};
        return MPI_SUCCESS;
    }
    return ml_isend(me, buf, count, ty, t, w, tag, cm->ctx, sync, req);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
              MPI_Request *req)
{
    return start_send("MPI_Isend", buf, count, t, dest, tag, c, false, req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
               MPI_Request *req)
{
    return start_send("MPI_Issend", buf, count, t, dest, tag, c, true, req);
}

static int blocking_send(const char *call, const void *buf, int count, MPI_Datatype t, int dest,
                         int tag, MPI_Comm c, bool sync)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int e = start_send(call, buf, count, t, dest, tag, c, sync, &r);
    if (e) return e;
    return ml_wait(ml_me(), &r, MPI_STATUS_IGNORE);
}

int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    return blocking_send("MPI_Send", buf, count, t, dest, tag, c, false);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    return blocking_send("MPI_Ssend", buf, count, t, dest, tag, c, true);
}

/* A ready send may be sent as a standard one: the receive is posted already. */
int MPI_Rsend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    return blocking_send("MPI_Rsend", buf, count, t, dest, tag, c, false);
}

static int start_recv(const char *call, void *buf, int count, MPI_Datatype t, int source, int tag,
                      MPI_Comm c, MPI_Request *req)
{
    struct ml_rank *me = ml_rank_or_die(call);
    struct ml_type *ty;
    struct ml_comm *cm;
    int w, e = ml_check_buf(c, call, count, t, &ty);
    if (e) return e;
    if ((e = check_peer(me, c, call, source, true, tag, true, &cm, &w))) return e;
    if (!req) return ml_err(c, MPI_ERR_REQUEST, call, "request NULL");
    if (w == MPI_PROC_NULL) {
        *req = ml_req_new(ML_RECV);
        (*req)->done = true;
        (*req)->st = (MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};
        return MPI_SUCCESS;
    }
    return ml_irecv(me, buf, count, t, ty, w, tag, cm->ctx, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm c,
              MPI_Request *req)
{
    return start_recv("MPI_Irecv", buf, count, t, source, tag, c, req);
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm c,
             MPI_Status *status)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int e = start_recv("MPI_Recv", buf, count, t, source, tag, c, &r);
    if (e) return e;
    e = ml_wait(ml_me(), &r, status);
    return e ? ml_err(c, e, "MPI_Recv", "a message of more than count %d elements", count) : 0;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm c, MPI_Status *status)
{
    MPI_Request rr = MPI_REQUEST_NULL, sr = MPI_REQUEST_NULL;
    int e = start_recv("MPI_Sendrecv", recvbuf, recvcount, recvtype, source, recvtag, c, &rr);
    if (e) return e;
    e = start_send("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, c, false, &sr);
    if (e) return e;
    struct ml_rank *me = ml_me();
    ml_wait(me, &sr, MPI_STATUS_IGNORE);
    e = ml_wait(me, &rr, status);
    return e ? ml_err(c, e, "MPI_Sendrecv", "recvcount %d", recvcount) : 0;
}

struct probe {
    struct ml_rank *me;
    int src, tag, ctx;
    struct ml_unexp *u;
};

static bool probe_found(void *a)
{
    struct probe *p = a;
    p->u = ml_probe_unexp(p->me, p->src, p->tag, p->ctx);
    return p->u != NULL;
}

static void probe_status(struct ml_rank *me, struct ml_comm *cm, const struct ml_unexp *u,
                         MPI_Status *st)
{
    (void)me;
    if (!st) return;
    st->MPI_SOURCE = u->src_world;
    for (int i = 0; i < cm->size; i++)
        if (cm->world[i] == u->src_world) st->MPI_SOURCE = i;
    st->MPI_TAG = u->tag;
    st->MPI_ERROR = MPI_SUCCESS;
    st->ml_bytes = u->total;
}

int MPI_Iprobe(int source, int tag, MPI_Comm c, int *flag, MPI_Status *status)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Iprobe");
    struct ml_comm *cm;
    int w, e = check_peer(me, c, "MPI_Iprobe", source, true, tag, true, &cm, &w);
    if (e) return e;
    if (!flag) return ml_err(c, MPI_ERR_ARG, "MPI_Iprobe", "flag NULL");
    tp_progress(me);
    struct probe p = {me, w, tag, cm->ctx, NULL};
    *flag = probe_found(&p);
    if (*flag) probe_status(me, cm, p.u, status);
    return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm c, MPI_Status *status)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Probe");
    struct ml_comm *cm;
    int w, e = check_peer(me, c, "MPI_Probe", source, true, tag, true, &cm, &w);
    if (e) return e;
    struct probe p = {me, w, tag, cm->ctx, NULL};
    tp_wait(me, probe_found, &p);
    probe_status(me, cm, p.u, status);
    return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype t, int *count)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Get_count");
    struct ml_type *ty = ml_type(me, t);
    if (!ty) return ml_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Get_count", "datatype %d", t);
    if (!status || !count) return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count", "NULL");
    if (ty->size == 0)
        *count = 0;
    else if (status->ml_bytes % ty->size)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(status->ml_bytes / ty->size);
    return MPI_SUCCESS;
}
