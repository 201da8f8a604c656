/* accel.c -- fixed-function accelerators (plat_accel_*). */
#include "pt.h"

#include <string.h>

#define JOB 1000

struct accel_ctx {
    uint64_t calls;
};

/* The "hardware": out = in reversed, result = sum of the input bytes. */
static int reverse_sum(void *ctx, const void *in, size_t in_len, void *out, size_t out_len)
{
    struct accel_ctx *c = ctx;
    __atomic_fetch_add(&c->calls, 1, __ATOMIC_SEQ_CST);
    const uint8_t *i = in;
    uint8_t *o = out;
    if (out_len < in_len) return PLAT_EINVAL;
    int sum = 0;
    for (size_t k = 0; k < in_len; k++) {
        sum += i[k];
        o[in_len - 1 - k] = i[k];
    }
    return sum;
}

static void case_accel(void *arg)
{
    static struct accel_ctx ctx; /* zero in each test process */
    uint64_t *board = harness_board();
    int me = plat_core();
    int status = 0;
    plat_accel *a = plat_accel_open("accel", &status);
    ck_assert_msg(a, "plat_accel_open(\"accel\"): %s", plat_strerror(status));
    uint8_t in[JOB], out[JOB + 8];
    pt_fill(in, JOB, (unsigned)me);
    int sum = 0;
    for (int k = 0; k < JOB; k++) sum += in[k];

    if (me == 0) ck_assert_int_eq(plat_accel_run(a, in, JOB, out, JOB), PLAT_ENOENT);
    harness_barrier();
    if (me == 0) ck_assert_int_eq(plat_accel_bind("accel", reverse_sum, &ctx), PLAT_OK);
    harness_barrier();

    memset(out, 0xEE, sizeof out);
    uint64_t t0 = plat_now_ns();
    int rc = plat_accel_run(a, in, JOB, out, JOB);
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_int_eq(rc, sum);
    for (int k = 0; k < JOB; k++) ck_assert_uint_eq(out[k], in[JOB - 1 - k]);
    ck_assert_uint_eq(out[JOB], 0xEE);
    if (pt_sim(arg)) {
        uint64_t latency = (uint64_t)pt_num(arg, "devices.accel.latency_ns");
        ck_assert_msg(dt >= latency, "sim: a job took %llu ns, the block's latency is %llu",
                      (unsigned long long)dt, (unsigned long long)latency);
    }
    /* fn's negative result comes back as is (a status). */
    ck_assert_int_eq(plat_accel_run(a, in, JOB, out, 10), PLAT_EINVAL);
    plat_fetch_add64(&board[0], 1);
    harness_barrier();
    ck_assert_uint_eq(__atomic_load_n(&ctx.calls, __ATOMIC_SEQ_CST), 2 * plat_cores());

    if (pt_sim(arg)) {
        status = 0;
        ck_assert_ptr_null(plat_accel_open("pt_no_such_accel", &status));
        ck_assert_int_eq(status, PLAT_ENOENT);
        status = 0;
        ck_assert_ptr_null(plat_accel_open("hwq", &status));
        ck_assert_int_eq(status, PLAT_ENOENT);
    }
}

/* A longer job at the same block takes longer (sim: streaming in and out). */
static void case_accel_size(void *arg)
{
    static struct accel_ctx ctx;
    ck_assert_int_eq(plat_accel_bind("accel", reverse_sum, &ctx), PLAT_OK);
    int status = 0;
    plat_accel *a = plat_accel_open("accel", &status);
    ck_assert_msg(a, "plat_accel_open(\"accel\"): %s", plat_strerror(status));
    static uint8_t in[65536], out[65536];
    pt_fill(in, sizeof in, 4);
    uint64_t t0 = plat_now_ns();
    ck_assert_int_ge(plat_accel_run(a, in, 16, out, 16), 0);
    uint64_t small = plat_now_ns() - t0;
    t0 = plat_now_ns();
    ck_assert_int_ge(plat_accel_run(a, in, sizeof in, out, sizeof out), 0);
    uint64_t big = plat_now_ns() - t0;
    for (size_t k = 0; k < sizeof in; k++) ck_assert_uint_eq(out[k], in[sizeof in - 1 - k]);
    if (pt_sim(arg)) {
        double bytes_per_ns = pt_num(arg, "devices.accel.bandwidth_MBps") / 1000.0;
        ck_assert_msg((double)(big - small) >= (sizeof in - 16) / bytes_per_ns,
                      "sim: 64 KiB job %llu ns, 16-byte job %llu ns", (unsigned long long)big,
                      (unsigned long long)small);
    }
}

void pt_accel(void)
{
    static const struct harness_case cases[] = {
        {.name = "accel", .core = case_accel, .cores = 3},
        {.name = "accel_size", .core = case_accel_size, .cores = 1},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
