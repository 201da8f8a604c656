/* coll.c -- the collectives, on point-to-point in the communicator's
 * collective context (ctx + 1): no user message can match them.
 *
 * MPI_Bcast is the paper's store-and-forward (section 2.2): the root sends
 * once to one rank of every other node, then the root and those ranks
 * forward to the ranks of their own node. MPI_Gather is linear into the
 * root; the others are built from these and point-to-point. */
#include <stdlib.h>
#include <string.h>

#include "ml.h"

enum { TAG_BCAST = 1, TAG_GATHER, TAG_SCATTER, TAG_REDUCE, TAG_ALLTOALL, TAG_BARRIER };

static int node_of(struct ml_rank *me, const struct ml_comm *cm, int i)
{
    return tp_node(me, cm->world[i]);
}

static void csend(struct ml_rank *me, struct ml_comm *cm, const void *buf, int count,
                  MPI_Datatype t, int to, int tag)
{
    MPI_Request r;
    ml_isend(me, buf, count, ml_type(me, t), t, cm->world[to], tag, cm->ctx + 1, false, &r);
    ml_wait(me, &r, MPI_STATUS_IGNORE);
}

static void crecv(struct ml_rank *me, struct ml_comm *cm, void *buf, int count, MPI_Datatype t,
                  int from, int tag)
{
    MPI_Request r;
    ml_irecv(me, buf, count, t, ml_type(me, t), cm->world[from], tag, cm->ctx + 1, &r);
    ml_wait(me, &r, MPI_STATUS_IGNORE);
}

/* Checks of a rooted collective; 0 or the error's return value. */
static int check(const char *call, MPI_Comm c, int count, MPI_Datatype t, int root,
                 struct ml_comm **cm)
{
    struct ml_rank *me = ml_rank_or_die(call);
    struct ml_type *ty;
    int e = ml_check_buf(c, call, count, t, &ty);
    if (e) return e;
    *cm = ml_comm(me, c);
    if (root < 0 || root >= (*cm)->size)
        return ml_err(c, MPI_ERR_ROOT, call, "root %d is not in 0..%d", root, (*cm)->size - 1);
    return MPI_SUCCESS;
}

static void bcast(struct ml_rank *me, struct ml_comm *cm, void *buf, int count, MPI_Datatype t,
                  int root)
{
    int n = cm->size, me_i = cm->rank, rn = node_of(me, cm, root), my = node_of(me, cm, me_i);
    /* The leader of a node: the root on its own node, else its lowest rank. */
    int leader_of_mine = -1;
    if (my == rn) {
        leader_of_mine = root;
    } else {
        for (int i = 0; i < n && leader_of_mine < 0; i++)
            if (node_of(me, cm, i) == my) leader_of_mine = i;
    }
    if (me_i == root) {
        /* Store: once to every other node's leader. */
        for (int i = 0; i < n; i++) {
            int nd = node_of(me, cm, i);
            if (nd == rn) continue;
            bool first = true;
            for (int j = 0; j < i; j++)
                if (node_of(me, cm, j) == nd) first = false;
            if (first) csend(me, cm, buf, count, t, i, TAG_BCAST);
        }
    } else if (me_i != leader_of_mine) {
        crecv(me, cm, buf, count, t, leader_of_mine, TAG_BCAST);
        return;
    } else {
        crecv(me, cm, buf, count, t, root, TAG_BCAST);
    }
    /* Forward: the leader to the other ranks of its node. */
    for (int i = 0; i < n; i++)
        if (i != me_i && node_of(me, cm, i) == my) csend(me, cm, buf, count, t, i, TAG_BCAST);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    struct ml_comm *cm;
    int e = check("MPI_Bcast", c, count, t, root, &cm);
    if (e) return e;
    bcast(ml_me(), cm, buf, count, t, root);
    return MPI_SUCCESS;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm c)
{
    struct ml_comm *cm;
    struct ml_rank *me = ml_rank_or_die("MPI_Gather");
    int e = check("MPI_Gather", c, sendbuf == MPI_IN_PLACE ? 0 : sendcount,
                  sendbuf == MPI_IN_PLACE ? MPI_BYTE : sendtype, root, &cm);
    if (e) return e;
    if (cm->rank != root) {
        csend(me, cm, sendbuf, sendcount, sendtype, root, TAG_GATHER);
        return MPI_SUCCESS;
    }
    struct ml_type *rt;
    if ((e = ml_check_buf(c, "MPI_Gather", recvcount, recvtype, &rt))) return e;
    MPI_Request *r = calloc((size_t)cm->size, sizeof *r);
    if (!r) ml_fatal("MPI_Gather", MPI_ERR_NO_MEM, "out of memory");
    size_t step = (size_t)recvcount * rt->extent;
    for (int i = 0; i < cm->size; i++) {
        if (i == root && sendbuf == MPI_IN_PLACE) continue;
        ml_irecv(me, (char *)recvbuf + (size_t)i * step, recvcount, recvtype, rt, cm->world[i],
                 TAG_GATHER, cm->ctx + 1, &r[i]);
    }
    MPI_Request s = MPI_REQUEST_NULL;
    if (sendbuf != MPI_IN_PLACE) /* the root's own part: through its own pair buffer */
        ml_isend(me, sendbuf, sendcount, ml_type(me, sendtype), sendtype, cm->world[root],
                 TAG_GATHER, cm->ctx + 1, false, &s);
    ml_wait(me, &s, MPI_STATUS_IGNORE);
    for (int i = 0; i < cm->size; i++) ml_wait(me, &r[i], MPI_STATUS_IGNORE);
    free(r);
    return MPI_SUCCESS;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm c)
{
    struct ml_comm *cm;
    struct ml_rank *me = ml_rank_or_die("MPI_Scatter");
    bool inplace = recvbuf == MPI_IN_PLACE;
    int e =
        check("MPI_Scatter", c, inplace ? 0 : recvcount, inplace ? MPI_BYTE : recvtype, root, &cm);
    if (e) return e;
    if (cm->rank != root) {
        crecv(me, cm, recvbuf, recvcount, recvtype, root, TAG_SCATTER);
        return MPI_SUCCESS;
    }
    struct ml_type *st;
    if ((e = ml_check_buf(c, "MPI_Scatter", sendcount, sendtype, &st))) return e;
    MPI_Request rr = MPI_REQUEST_NULL;
    if (!inplace)
        ml_irecv(me, recvbuf, recvcount, recvtype, ml_type(me, recvtype), cm->world[root],
                 TAG_SCATTER, cm->ctx + 1, &rr);
    size_t step = (size_t)sendcount * st->extent;
    for (int i = 0; i < cm->size; i++) {
        if (i == root && inplace) continue;
        MPI_Request s;
        ml_isend(me, (const char *)sendbuf + (size_t)i * step, sendcount, st, sendtype,
                 cm->world[i], TAG_SCATTER, cm->ctx + 1, false, &s);
        if (i == root)
            ml_wait(me, &rr, MPI_STATUS_IGNORE); /* receive before the own send completes */
        ml_wait(me, &s, MPI_STATUS_IGNORE);
    }
    return MPI_SUCCESS;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm c)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Allgather");
    struct ml_comm *cm = ml_comm(me, c);
    if (!cm) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Allgather", "communicator %d", c);
    struct ml_type *rt;
    int e = ml_check_buf(c, "MPI_Allgather", recvcount, recvtype, &rt);
    if (e) return e;
    if (sendbuf == MPI_IN_PLACE) {
        /* Our part is in recvbuf already: gather it from there. */
        const char *mine = (const char *)recvbuf + (size_t)cm->rank * recvcount * rt->extent;
        if (cm->rank == 0)
            e = MPI_Gather(MPI_IN_PLACE, 0, MPI_BYTE, recvbuf, recvcount, recvtype, 0, c);
        else
            e = MPI_Gather(mine, recvcount, recvtype, NULL, 0, recvtype, 0, c);
    } else {
        e = MPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, c);
    }
    if (e) return e;
    if ((size_t)recvcount * (size_t)cm->size > (size_t)0x7fffffff)
        return ml_err(c, MPI_ERR_COUNT, "MPI_Allgather", "recvcount %d x %d ranks", recvcount,
                      cm->size);
    bcast(me, cm, recvbuf, recvcount * cm->size, recvtype, 0);
    return MPI_SUCCESS;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm c)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Alltoall");
    struct ml_type *st, *rt;
    int e = ml_check_buf(c, "MPI_Alltoall", sendcount, sendtype, &st);
    if (e) return e;
    if ((e = ml_check_buf(c, "MPI_Alltoall", recvcount, recvtype, &rt))) return e;
    struct ml_comm *cm = ml_comm(me, c);
    int n = cm->size;
    MPI_Request *r = calloc(2 * (size_t)n, sizeof *r);
    if (!r) ml_fatal("MPI_Alltoall", MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < n; i++)
        ml_irecv(me, (char *)recvbuf + (size_t)i * recvcount * rt->extent, recvcount, recvtype, rt,
                 cm->world[i], TAG_ALLTOALL, cm->ctx + 1, &r[i]);
    for (int k = 0; k < n; k++) { /* staggered, so not everyone sends to rank 0 first */
        int i = (cm->rank + k) % n;
        ml_isend(me, (const char *)sendbuf + (size_t)i * sendcount * st->extent, sendcount, st,
                 sendtype, cm->world[i], TAG_ALLTOALL, cm->ctx + 1, false, &r[n + i]);
    }
    for (int i = 0; i < 2 * n; i++) ml_wait(me, &r[i], MPI_STATUS_IGNORE);
    free(r);
    return MPI_SUCCESS;
}

/* Reduce into the root in rank order (the same result on every run). */
static int reduce(const char *call, const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
                  MPI_Op op, int root, MPI_Comm c)
{
    struct ml_comm *cm;
    int e = check(call, c, count, t, root, &cm);
    if (e) return e;
    struct ml_rank *me = ml_me();
    if (!ml_op_valid(op)) return ml_err(c, MPI_ERR_OP, call, "op %d is not valid", op);
    struct ml_type *ty = ml_type(me, t);
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    if (cm->rank != root) {
        csend(me, cm, in, count, t, root, TAG_REDUCE);
        return MPI_SUCCESS;
    }
    size_t bytes = (size_t)count * ty->size;
    size_t bsz = me->types[ty->base].size;
    char *acc = malloc(bytes ? bytes : 1), *tmp = malloc(bytes ? bytes : 1);
    if (!acc || !tmp) ml_fatal(call, MPI_ERR_NO_MEM, "out of memory for %zu bytes", bytes);
    ml_pack(ty, in, count, acc);
    for (int i = 0; i < cm->size; i++) {
        if (i == root) continue;
        crecv(me, cm, tmp, (int)bytes, MPI_BYTE, i, TAG_REDUCE);
        e = ml_op_apply(op, ty->base, tmp, acc, bytes / bsz);
        if (e) {
            free(acc);
            free(tmp);
            return ml_err(c, e, call, "op %d on datatype %d", op, t);
        }
    }
    ml_unpack(ty, acc, bytes, recvbuf);
    free(acc);
    free(tmp);
    return MPI_SUCCESS;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm c)
{
    return reduce("MPI_Reduce", sendbuf, recvbuf, count, t, op, root, c);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                  MPI_Comm c)
{
    int e = reduce("MPI_Allreduce", sendbuf, recvbuf, count, t, op, 0, c);
    if (e) return e;
    struct ml_rank *me = ml_me();
    bcast(me, ml_comm(me, c), recvbuf, count, t, 0);
    return MPI_SUCCESS;
}

int MPI_Barrier(MPI_Comm c)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Barrier");
    struct ml_comm *cm = ml_comm(me, c);
    if (!cm) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Barrier", "communicator %d", c);
    if (cm->rank == 0) {
        for (int i = 1; i < cm->size; i++) crecv(me, cm, NULL, 0, MPI_BYTE, i, TAG_BARRIER);
        for (int i = 1; i < cm->size; i++) csend(me, cm, NULL, 0, MPI_BYTE, i, TAG_BARRIER);
    } else {
        csend(me, cm, NULL, 0, MPI_BYTE, 0, TAG_BARRIER);
        crecv(me, cm, NULL, 0, MPI_BYTE, 0, TAG_BARRIER);
    }
    return MPI_SUCCESS;
}
