/* comm.c -- communicators: size, rank, dup, split, free. */
#include <stdlib.h>
#include <string.h>

#include "ml.h"

struct ml_comm *ml_comm(struct ml_rank *me, MPI_Comm c)
{
    if (!me || c <= 0 || c >= ML_MAX_COMMS || !me->comms[c].used) return NULL;
    return &me->comms[c];
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    struct ml_comm *c = ml_comm(ml_rank_or_die("MPI_Comm_size"), comm);
    if (!c) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_size", "communicator %d", comm);
    if (!size) return ml_err(comm, MPI_ERR_ARG, "MPI_Comm_size", "size NULL");
    *size = c->size;
    return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct ml_comm *c = ml_comm(ml_rank_or_die("MPI_Comm_rank"), comm);
    if (!c) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_rank", "communicator %d", comm);
    if (!rank) return ml_err(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank NULL");
    *rank = c->rank;
    return MPI_SUCCESS;
}

/* A free handle, or 0. */
static int free_handle(struct ml_rank *me)
{
    for (int c = MPI_COMM_SELF + 1; c < ML_MAX_COMMS; c++)
        if (!me->comms[c].used) return c;
    return 0;
}

/* A context id every member agrees on: the largest next_ctx among them. */
static int agree_ctx(struct ml_rank *me, MPI_Comm parent)
{
    int mine = me->next_ctx, ctx = 0;
    MPI_Allreduce(&mine, &ctx, 1, MPI_INT, MPI_MAX, parent);
    me->next_ctx = ctx + 2;
    return ctx;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Comm_dup");
    struct ml_comm *c = ml_comm(me, comm);
    if (!c) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_dup", "communicator %d", comm);
    if (!newcomm) return ml_err(comm, MPI_ERR_ARG, "MPI_Comm_dup", "newcomm NULL");
    int ctx = agree_ctx(me, comm);
    int h = free_handle(me);
    int *w = malloc((size_t)c->size * sizeof *w);
    if (!h || !w) {
        free(w);
        return ml_err(comm, MPI_ERR_NO_MEM, "MPI_Comm_dup", "more than %d communicators",
                      ML_MAX_COMMS - 3);
    }
    memcpy(w, c->world, (size_t)c->size * sizeof *w);
    me->comms[h] = (struct ml_comm){
        .used = true, .ctx = ctx, .rank = c->rank, .size = c->size, .world = w, .eh = c->eh};
    *newcomm = h;
    return MPI_SUCCESS;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Comm_split");
    struct ml_comm *c = ml_comm(me, comm);
    if (!c) return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_split", "communicator %d", comm);
    if (!newcomm) return ml_err(comm, MPI_ERR_ARG, "MPI_Comm_split", "newcomm NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        return ml_err(comm, MPI_ERR_ARG, "MPI_Comm_split", "color %d is negative", color);
    int n = c->size;
    int mine[2] = {color, key};
    int *all = malloc(2 * (size_t)n * sizeof *all);
    int *w = malloc((size_t)n * sizeof *w);
    if (!all || !w) ml_fatal("MPI_Comm_split", MPI_ERR_NO_MEM, "out of memory");
    MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
    int ctx = agree_ctx(me, comm);
    if (color == MPI_UNDEFINED) {
        free(all);
        free(w);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    /* Members ordered by (key, old rank): an insertion sort, the group is small. */
    int k = 0, myrank = 0;
    for (int i = 0; i < n; i++) {
        if (all[2 * i] != color) continue;
        int j = k++;
        while (j > 0) {
            int p = w[j - 1];
            if (all[2 * p + 1] <= all[2 * i + 1]) break;
            w[j] = p;
            j--;
        }
        w[j] = i;
    }
    for (int i = 0; i < k; i++) {
        if (w[i] == c->rank) myrank = i;
        w[i] = c->world[w[i]];
    }
    free(all);
    int h = free_handle(me);
    if (!h) {
        free(w);
        return ml_err(comm, MPI_ERR_NO_MEM, "MPI_Comm_split", "more than %d communicators",
                      ML_MAX_COMMS - 3);
    }
    me->comms[h] = (struct ml_comm){
        .used = true, .ctx = ctx, .rank = myrank, .size = k, .world = w, .eh = c->eh};
    *newcomm = h;
    return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Comm_free");
    if (!comm || *comm <= MPI_COMM_SELF || !ml_comm(me, *comm))
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_free",
                      "communicator %d cannot be freed", comm ? *comm : 0);
    free(me->comms[*comm].world);
    me->comms[*comm] = (struct ml_comm){0};
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
