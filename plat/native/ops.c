/*
 * ops.c -- plat_native_ops, the native backend's table.
 *
 * Each entry first makes sure the calling thread is a core (a thread no run
 * started becomes one on its first call, as plat.h promises), then calls
 * nat_<name>.
 */
#include "native.h"

/* Memory accesses act on the address alone and name no core, so they skip
 * the check (the first call that needs a core still makes the thread one):
 * it was a sixth of an SPSC channel operation's instructions. The slots
 * call nat_self themselves (a coroutine switch finds its executor through
 * one: the check twice was 9 of its 145 instructions). The names compare
 * as constants, so each entry keeps or drops the call at compile time. */
#define SKIPS(name, other) (__builtin_strcmp(#name, other) == 0)
#define ADOPTS(name)                                                                               \
    (!SKIPS(name, "load64") && !SKIPS(name, "store64") && !SKIPS(name, "store64_release") &&       \
     !SKIPS(name, "copy") && !SKIPS(name, "thread_slot") && !SKIPS(name, "core_slot"))
#define ENTRY(ret, name, params, args)                                                             \
    static ret op_##name params                                                                    \
    {                                                                                              \
        if (ADOPTS(name)) nat_self();                                                              \
        return nat_##name args;                                                                    \
    }
#define ENTRY_V(name, params, args)                                                                \
    static void op_##name params                                                                   \
    {                                                                                              \
        if (ADOPTS(name)) nat_self();                                                              \
        nat_##name args;                                                                           \
    }
PLAT_OPS(ENTRY, ENTRY_V)

#define MEMBER(ret, name, params, args) .name = op_##name,
#define MEMBER_V(name, params, args) .name = op_##name,
/* Each MEMBER ends with a comma, so .abort follows the list directly. plat_abort
 * needs no adoption first: nat_abort names no core. */
const struct plat_ops plat_native_ops = {.name = "native",
                                         PLAT_OPS(MEMBER, MEMBER_V).abort = nat_abort};
