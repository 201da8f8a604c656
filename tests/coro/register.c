/* register.c -- the coro test program. */
#include "ct.h"

void ct_run(void (*sched)(coro_rt *rt, void *arg), void *arg, const bool *no_cas)
{
    int n = plat_cores();
    if (plat_core() != 0) {
        ck_assert_int_eq(coro_exec_run("t"), CORO_OK);
        return;
    }
    int cores[64];
    ck_assert_int_le(n - 1, 64);
    for (int i = 1; i < n; i++) cores[i - 1] = i;
    struct coro_rt_attr attr = {0, no_cas};
    coro_rt *rt = coro_rt_new("t", cores, n - 1, &attr);
    ck_assert_ptr_nonnull(rt);
    ck_assert_ptr_null(coro_rt_new("t", cores, n - 1, &attr)); /* the name is taken */
    sched(rt, arg);
    coro_rt_free(rt);
}

void tests_register(void)
{
    ct_rt_cases();
    ct_chan_cases();
    ct_reg_cases();
}
