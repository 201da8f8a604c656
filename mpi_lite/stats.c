/* stats.c -- MPIX_Lite_stats: what the rank's transport did. */
#include "ml.h"

int MPIX_Lite_stats(struct mpix_lite_stats *s)
{
    struct ml_rank *me = ml_rank_or_die("MPIX_Lite_stats");
    if (!s) return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPIX_Lite_stats", "stats NULL");
    *s = me->stats;
    return MPI_SUCCESS;
}
