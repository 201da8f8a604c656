/* reg.c -- register communication on the ideal platform's mesh (3 x 3). */
#include "ct.h"

static const char *const mesh3[] = {"devices.mesh.rows=3", "devices.mesh.cols=3"};

static coro_word word_of(uint64_t v)
{
    coro_word w = {{v, v + 1, v + 2, v + 3}};
    return w;
}

/* Put along the row and the column, and a row broadcast. */
static void case_putget(void *arg)
{
    (void)arg;
    ck_assert_int_eq(coro_reg_open("mesh"), CORO_OK);
    int r, c;
    ck_assert_int_eq(coro_reg_pos(&r, &c), CORO_OK);
    ck_assert_int_eq(r * 3 + c, plat_core());
    coro_word w;
    if (r == 0 && c == 0) {
        w = word_of(10);
        ck_assert_int_eq(coro_reg_put(CORO_ROW, 2, &w), CORO_OK);
        w = word_of(20);
        ck_assert_int_eq(coro_reg_put(CORO_COL, 1, &w), CORO_OK);
        w = word_of(30);
        ck_assert_int_eq(coro_reg_put(CORO_ROW, CORO_BCAST, &w), CORO_OK);
    }
    if (r == 0 && c == 2) {
        ck_assert_int_eq(coro_reg_get(CORO_ROW, &w), CORO_OK);
        ck_assert_uint_eq(w.w[0], 10);
        ck_assert_uint_eq(w.w[3], 13);
    }
    if (r == 1 && c == 0) {
        ck_assert_int_eq(coro_reg_get(CORO_COL, &w), CORO_OK);
        ck_assert_uint_eq(w.w[0], 20);
    }
    if (r == 0 && c != 0) {
        ck_assert_int_eq(coro_reg_get(CORO_ROW, &w), CORO_OK);
        ck_assert_uint_eq(w.w[0], 30);
    }
    harness_barrier();
}

/* Routed words: (0,1) and (0,2) send to (2,1) and (2,2) through the relays
 * of column 0, as in the paper's whole-array pattern; END words stop the
 * relays and the receivers. */
#define RT_N 50

static void case_routed(void *arg)
{
    (void)arg;
    ck_assert_int_eq(coro_reg_open("mesh"), CORO_OK);
    int r, c;
    ck_assert_int_eq(coro_reg_pos(&r, &c), CORO_OK);
    if (r == 0 && c > 0) { /* producers */
        for (int i = 0; i < RT_N; i++) {
            coro_word w = word_of((uint64_t)(c * 1000 + i));
            int to = 1 + i % 2;
            ck_assert_int_eq(coro_reg_send(2, to, 0, 0, &w), CORO_OK);
        }
        for (int to = 1; to <= 2; to++) {
            coro_word w = word_of(0);
            ck_assert_int_eq(coro_reg_send(2, to, 0, CORO_REG_END, &w), CORO_OK);
        }
    } else if (c == 0 && r == 0) {
        ck_assert_int_eq(coro_reg_relay(CORO_ROW, 4), CORO_OK); /* 2 producers x 2 ENDs */
    } else if (c == 0 && r == 2) {
        ck_assert_int_eq(coro_reg_relay(CORO_COL, 4), CORO_OK);
    } else if (r == 2) { /* consumers */
        int ends = 0, got = 0;
        long sum = 0;
        while (ends < 2) {
            coro_word w;
            unsigned flags = 0;
            ck_assert_int_eq(coro_reg_recv(CORO_ROW, &w, &flags), CORO_OK);
            if (flags & CORO_REG_END) {
                ends++;
                continue;
            }
            got++;
            sum += (long)w.w[1];
        }
        ck_assert_int_eq(got, RT_N); /* RT_N / 2 from each producer */
        ck_assert_int_gt(sum, 0);
    }
    harness_barrier();
}

static void case_not_on_mesh(void *arg)
{
    const struct harness_env *env = arg;
    int r, c;
    if (plat_core() != 0) return;
    ck_assert_int_eq(coro_reg_pos(&r, &c), CORO_ENOENT); /* not opened */
    /* Natively an unknown name gets a software mesh (plat.h); in simulation
     * it must be a device of the platform file. */
    if (env->backend == PLAT_SIM) ck_assert_int_eq(coro_reg_open("no-such-mesh"), CORO_ENOENT);
}

static const struct harness_case cases[] = {
    {.name = "reg_put_get_bcast", .core = case_putget, .cores = 9, .sets = {mesh3[0], mesh3[1]}},
    {.name = "reg_routed_relays", .core = case_routed, .cores = 9, .sets = {mesh3[0], mesh3[1]}},
    {.name = "reg_not_on_mesh", .core = case_not_on_mesh, .cores = 1},
};

void ct_reg_cases(void)
{
    harness_add_cases("coro", cases, HARNESS_COUNT(cases));
}
