/* apps.c -- the table of apps a scenario's workload can name. */
#include "apps.h"

#include <string.h>

const struct app *const app_table[] = {
    &app_pingpong,
    &app_mcapi_dct,
    NULL,
};

const struct app *app_find(const char *name)
{
    for (const struct app *const *a = app_table; name && *a; a++)
        if (strcmp((*a)->name, name) == 0) return *a;
    return NULL;
}
