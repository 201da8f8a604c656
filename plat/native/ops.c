/*
 * ops.c -- plat_native_ops, the native backend's table.
 *
 * Each entry first makes sure the calling thread is a core (a thread no run
 * started becomes one on its first call, as plat.h promises), then calls
 * nat_<name>.
 */
#include "native.h"

#define ENTRY(ret, name, params, args)                                                             \
    static ret op_##name params                                                                    \
    {                                                                                              \
        nat_self();                                                                                \
        return nat_##name args;                                                                    \
    }
#define ENTRY_V(name, params, args)                                                                \
    static void op_##name params                                                                   \
    {                                                                                              \
        nat_self();                                                                                \
        nat_##name args;                                                                           \
    }
PLAT_OPS(ENTRY, ENTRY_V)

#define MEMBER(ret, name, params, args) .name = op_##name,
#define MEMBER_V(name, params, args) .name = op_##name,
const struct plat_ops plat_native_ops = {.name = "native",
                                         PLAT_OPS(MEMBER, MEMBER_V).abort = nat_abort};
