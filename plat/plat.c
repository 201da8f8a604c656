/* plat.c -- forward every plat_* call to the running backend's table. */
#include "backend.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct plat_ops *ops = &plat_native_ops;

void plat_use(const struct plat_ops *o)
{
    ops = o ? o : &plat_native_ops;
}
const struct plat_ops *plat_current(void)
{
    return ops;
}

#define FORWARD(ret, name, params, args)                                                           \
    ret plat_##name params                                                                         \
    {                                                                                              \
        return ops->name args;                                                                     \
    }
#define FORWARD_V(name, params, args)                                                              \
    void plat_##name params                                                                        \
    {                                                                                              \
        ops->name args;                                                                            \
    }
PLAT_OPS(FORWARD, FORWARD_V)

plat_thread *plat_thread_spawn(void (*fn)(void *), void *arg, const char *name)
{
    return ops->thread_spawn_on(ops->core(), fn, arg, name);
}

_Noreturn void plat_abort(int code, const char *msg)
{
    ops->abort(code, msg ? msg : "");
    abort(); /* not reached: a backend's abort never returns */
}

void plat_work(const char *cost_name)
{
    ops->work_cycles(ops->cost(cost_name));
}

const char *plat_strerror(int status)
{
    static const char *const text[] = {
        [0] = "success",
        [-PLAT_ETIMEDOUT] = "timed out",
        [-PLAT_EAGAIN] = "not ready (would wait)",
        [-PLAT_EINVAL] = "invalid argument",
        [-PLAT_ENOTSUP] = "not supported by this core or platform",
        [-PLAT_ENOMEM] = "out of memory or buffer space",
        [-PLAT_ENOENT] = "no such device, name or address",
        [-PLAT_ECLOSED] = "closed by the peer",
        [-PLAT_ECONNREFUSED] = "connection refused",
        [-PLAT_EADDRINUSE] = "address in use",
        [-PLAT_EIO] = "transport error",
        [-PLAT_EBUSY] = "busy (already taken)",
        [-PLAT_EOWNERDEAD] = "taken, its previous holder died",
    };
    if (status > 0 || -status >= (int)(sizeof text / sizeof text[0]) || !text[-status])
        return "unknown status";
    return text[-status];
}

unsigned plat_cap_bit(const char *name)
{
    static const struct {
        const char *name;
        unsigned bit;
    } caps[] = {
        {"cas", PLAT_CAP_CAS}, {"fetch_add", PLAT_CAP_FETCH_ADD}, {"local_mem", PLAT_CAP_LOCAL_MEM},
        {"dma", PLAT_CAP_DMA}, {"threads", PLAT_CAP_THREADS},
    };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (strcmp(caps[i].name, name) == 0) return caps[i].bit;
    return 0;
}
