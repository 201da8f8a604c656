/* req.c -- requests: completion, MPI_Wait/Test and their array forms. */
#include <stdlib.h>
#include <string.h>

#include "ml.h"

struct ml_request *ml_req_new(enum ml_rkind k)
{
    struct ml_request *r = calloc(1, sizeof *r);
    if (!r) ml_fatal(k == ML_SEND ? "MPI_Isend" : "MPI_Irecv", MPI_ERR_NO_MEM, "out of memory");
    r->kind = k;
    return r;
}

void ml_req_complete_recv(struct ml_request *r)
{
    r->st.ml_bytes = r->got;
    r->st.MPI_ERROR = r->seen > r->cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (r->pack != r->user) {
        struct ml_rank *me = ml_me();
        struct ml_type *t = ml_type(me, r->type);
        if (t) ml_unpack(t, r->pack, r->got, r->user);
        free(r->pack);
        r->pack = NULL;
    }
    r->done = true;
}

void ml_req_free(struct ml_request *r)
{
    free(r->sown);
    free(r);
}

/* Status of a finished request in the terms of the caller's communicator:
 * the transport speaks world ranks. */
static void give_status(struct ml_rank *me, struct ml_request *r, MPI_Status *st)
{
    if (!st) return;
    *st = r->st;
    if (r->kind == ML_RECV) {
        for (int c = 0; c < ML_MAX_COMMS; c++) {
            struct ml_comm *cm = &me->comms[c];
            if (!cm->used || cm->ctx != (r->ctx & ~1)) continue;
            for (int i = 0; i < cm->size; i++)
                if (cm->world[i] == r->st.MPI_SOURCE) st->MPI_SOURCE = i;
            break;
        }
    }
}

static bool req_done(void *a)
{
    return (*(struct ml_request **)a)->done;
}

int ml_wait(struct ml_rank *me, MPI_Request *rp, MPI_Status *st)
{
    if (!*rp) {
        if (st) *st = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG};
        return MPI_SUCCESS;
    }
    if (!(*rp)->done)
        tp_wait(me, req_done, rp);
    else
        tp_progress(me); /* what the call queued goes out (bundled slots) */
    struct ml_request *r = *rp;
    give_status(me, r, st);
    int e = r->st.MPI_ERROR;
    ml_req_free(r);
    *rp = MPI_REQUEST_NULL;
    return e;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Wait");
    if (!request) return ml_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait", "request NULL");
    int e = ml_wait(me, request, status);
    return e ? ml_err(MPI_COMM_WORLD, e, "MPI_Wait", "the request's message") : MPI_SUCCESS;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Test");
    if (!request || !flag)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test", "request or flag NULL");
    tp_progress(me);
    if (*request && !(*request)->done) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    *flag = 1;
    int e = ml_wait(me, request, status);
    return e ? ml_err(MPI_COMM_WORLD, e, "MPI_Test", "the request's message") : MPI_SUCCESS;
}

struct many {
    int n;
    MPI_Request *r;
    bool any;
};

static bool many_done(void *a)
{
    struct many *m = a;
    bool active = false;
    for (int i = 0; i < m->n; i++) {
        if (!m->r[i]) continue;
        active = true;
        if (m->r[i]->done) {
            if (m->any) return true;
        } else if (!m->any) {
            return false;
        }
    }
    return m->any ? !active : true;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    struct ml_rank *me = ml_rank_or_die("MPI_Waitall");
    if (count < 0)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Waitall", "count %d is negative", count);
    struct many m = {count, requests, false};
    tp_wait(me, many_done, &m);
    int err = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses ? &statuses[i] : NULL;
        int e = ml_wait(me, &requests[i], st);
        if (st) st->MPI_ERROR = e;
        if (e) err = MPI_ERR_IN_STATUS;
    }
    return err ? ml_err(MPI_COMM_WORLD, err, "MPI_Waitall", "a request's message") : MPI_SUCCESS;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    struct ml_rank *me = ml_rank_or_die("MPI_Testall");
    if (count < 0 || !flag)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Testall", "count %d or flag NULL", count);
    tp_progress(me);
    struct many m = {count, requests, false};
    if (!many_done(&m)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    *flag = 1;
    return MPI_Waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Waitany");
    if (count < 0 || !index)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Waitany", "count %d or index NULL",
                      count);
    struct many m = {count, requests, true};
    tp_wait(me, many_done, &m);
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count; i++) {
        if (requests[i] && requests[i]->done) {
            *index = i;
            int e = ml_wait(me, &requests[i], status);
            return e ? ml_err(MPI_COMM_WORLD, e, "MPI_Waitany", "request %d's message", i) : 0;
        }
    }
    if (status) *status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG};
    return MPI_SUCCESS;
}
