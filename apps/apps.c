/* apps.c -- the table of apps a scenario's workload can name. */
#include "apps.h"

#include <string.h>

const struct app *const app_table[] = {
    &app_pingpong,
    &app_mcapi_dct,
    &app_chart_demo, /* apps/tutorial/chart_demo.c: app_interval */
    &app_funbase_init,
    &app_funbase_roundtrip,
    &app_funbase_throughput,
    &app_funbase_pcie,
    &app_xmcapi_latency,
    &app_xmcapi_bandwidth,
    &app_sw_channels,
    &app_sw_regcomm,
    &app_mpi_osu_latency,
    &app_mpi_osu_bw,
    &app_mpi_osu_bibw,
    &app_mpi_osu_bcast,
    &app_mpi_osu_gather,
    &app_mpi_hello,
    &app_mpi_ring,
    &app_mpi_pi,
    &app_mpi_hpl, /* apps/hpl/hpl.c through apps/mpi_lite/ */
    &app_em_hello,
    &app_em_ordered,
    &app_em_event_group, /* em/examples/ through apps/em/ */
    &app_em_matmul,      /* apps/em/matmul.c: the OpenEM matrix-multiply demo */
    NULL,
};

const struct app *app_find(const char *name)
{
    for (const struct app *const *a = app_table; name && *a; a++)
        if (strcmp((*a)->name, name) == 0) return *a;
    return NULL;
}

bool apps_listed(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; p && *p;) {
        while (*p == ' ' || *p == ',') p++;
        const char *e = p;
        while (*e && *e != ',' && *e != ' ') e++;
        if ((size_t)(e - p) == n && strncmp(p, word, n) == 0) return true;
        p = e;
    }
    return false;
}
