/* drivers/accel.c -- virtual nodes' jobs on plat_accel. */
#include "accel.h"

plat_accel *drv_accel_open(const char *name)
{
    return plat_accel_open(name, NULL);
}

bool drv_accel_run(plat_accel *a, const void *in, void *out, size_t n)
{
    /* A transform block: the reply is as long as the request. The
     * function's own result only says whether it worked. */
    return plat_accel_run(a, in, n, out, n) >= 0;
}
