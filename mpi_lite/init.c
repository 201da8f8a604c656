/* init.c -- MPI_Init / MPI_Finalize, the rank's state, the parameters. */
#include <stdlib.h>
#include <string.h>

#include "ml.h"

/* What a finalized rank's slot points to: MPI_Finalized must still answer,
 * and nothing may leak. Read-only: it holds no rank's state. */
static const char finalized_mark = 0;

struct ml_rank *ml_me(void)
{
    void *p = *plat_core_slot(PLAT_SLOT_MPI);
    return p == &finalized_mark ? NULL : p;
}

static bool is_finalized(void)
{
    return *plat_core_slot(PLAT_SLOT_MPI) == &finalized_mark;
}

struct ml_rank *ml_rank_or_die(const char *call)
{
    struct ml_rank *me = ml_me();
    if (!me || !me->initialized)
        ml_fatal(call, MPI_ERR_OTHER, "called %s",
                 is_finalized() ? "after MPI_Finalize" : "before MPI_Init");
    plat_work_cycles(me->call_cycles); /* every MPI call's entry: checks, handles */
    return me;
}

/* The rank's record, made on first use (set_params or Init). */
static struct ml_rank *rank_record(const char *call)
{
    if (is_finalized()) ml_fatal(call, MPI_ERR_OTHER, "called after MPI_Finalize");
    struct ml_rank *me = ml_me();
    if (me) return me;
    me = calloc(1, sizeof *me);
    if (!me) ml_fatal(call, MPI_ERR_NO_MEM, "out of memory");
    me->par = (struct mpix_lite_params){MPIX_LITE_SLOT_BYTES, MPIX_LITE_SLOTS, MPIX_LITE_EAGER_MAX,
                                        0, MPIX_LITE_INTER_AUTO};
    *plat_core_slot(PLAT_SLOT_MPI) = me;
    return me;
}

int MPIX_Lite_set_params(const struct mpix_lite_params *p)
{
    struct ml_rank *me = rank_record("MPIX_Lite_set_params");
    if (me->initialized) ml_fatal("MPIX_Lite_set_params", MPI_ERR_OTHER, "called after MPI_Init");
    if (!p) ml_fatal("MPIX_Lite_set_params", MPI_ERR_ARG, "params NULL");
    struct mpix_lite_params q = me->par;
    if (p->slot_bytes) q.slot_bytes = p->slot_bytes;
    if (p->slots) q.slots = p->slots;
    if (p->eager_max) q.eager_max = p->eager_max;
    q.node_ranks = p->node_ranks;
    q.inter = p->inter;
    if (q.inter > MPIX_LITE_INTER_STREAM)
        ml_fatal("MPIX_Lite_set_params", MPI_ERR_ARG,
                 "inter %u is none of MPIX_LITE_INTER_AUTO (0), _DMA (1), _STREAM (2)", q.inter);
    if (q.slot_bytes < 128 || q.slot_bytes % 8)
        ml_fatal("MPIX_Lite_set_params", MPI_ERR_ARG,
                 "slot_bytes %zu is not a multiple of 8 of at least 128", q.slot_bytes);
    me->par = q;
    return MPI_SUCCESS;
}

static void add_comm(struct ml_rank *me, int h, int ctx, int rank, int size, const int *world)
{
    int *w = malloc((size_t)size * sizeof *w);
    if (!w) ml_fatal("MPI_Init", MPI_ERR_NO_MEM, "out of memory");
    memcpy(w, world, (size_t)size * sizeof *w);
    me->comms[h] = (struct ml_comm){.used = true,
                                    .ctx = ctx,
                                    .rank = rank,
                                    .size = size,
                                    .world = w,
                                    .eh = MPI_ERRORS_ARE_FATAL};
}

int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    struct ml_rank *me = rank_record("MPI_Init");
    if (me->initialized) ml_fatal("MPI_Init", MPI_ERR_OTHER, "called twice");
    if (!(plat_core_caps(plat_core()) & PLAT_CAP_FETCH_ADD))
        ml_fatal("MPI_Init", MPI_ERR_OTHER, "core %d has no atomic add (fetch_add)", plat_core());
    me->call_cycles = plat_cost("mpi_call");
    me->rec_cycles = plat_cost("mpi_record");
    me->rank = plat_core();
    me->size = plat_cores();
    int e = tp_init(me);
    if (e)
        ml_fatal("MPI_Init", e, "cannot map the %d x %d pair buffers (%zu slots of %u bytes)",
                 me->size, me->size, (size_t)me->par.slots, (unsigned)me->par.slot_bytes);
    ml_types_init(me);
    int *world = malloc((size_t)me->size * sizeof *world);
    if (!world) ml_fatal("MPI_Init", MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < me->size; i++) world[i] = i;
    add_comm(me, MPI_COMM_WORLD, 0, me->rank, me->size, world);
    add_comm(me, MPI_COMM_SELF, 2, 0, 1, &world[me->rank]);
    free(world);
    me->next_ctx = 4;
    me->initialized = true;
    tp_world_barrier(me, 0); /* MPI_Init is collective: every core's buffers exist */
    return MPI_SUCCESS;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int e = MPI_Init(argc, argv);
    if (provided) *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return e;
}

int MPI_Initialized(int *flag)
{
    struct ml_rank *me = ml_me();
    if (flag) *flag = is_finalized() || (me && me->initialized);
    return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
    if (flag) *flag = is_finalized();
    return MPI_SUCCESS;
}

static bool sent_all(void *arg)
{
    return tp_sent_all(arg);
}

/* All ranks meet, by messages: the counter barrier reaches only the ranks
 * of one region. MPI_Barrier is a gather and a release through rank 0, on
 * the world's collective context; released ranks leave while others still
 * wait for their release (a rank that dies instead is mpirun's to report). */
static void world_sync(struct ml_rank *me)
{
    tp_finalizing(me);
    MPI_Barrier(MPI_COMM_WORLD);
    tp_wait(me, sent_all, me); /* the release has left before the streams close */
}

int MPI_Finalize(void)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Finalize");
    tp_progress(me);                    /* publish what is still bundled */
    if (tp_streams(me)) world_sync(me); /* it also sends what the streams have not taken yet */
    tp_world_barrier(me, 1);            /* nobody unmaps while another still reads */
    tp_fini(me);
    for (int c = 0; c < ML_MAX_COMMS; c++) free(me->comms[c].world);
    ml_types_fini(me);
    while (me->unexp) {
        struct ml_unexp *u = me->unexp;
        me->unexp = u->next;
        free(u->data);
        free(u);
    }
    free(me);
    *plat_core_slot(PLAT_SLOT_MPI) = (void *)&finalized_mark;
    return MPI_SUCCESS;
}
