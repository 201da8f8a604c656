/* funbase.c -- the FUNCAPI scenarios (scenarios/funbase) run, quickly, on the
 * funbase model and natively: every series is there with positive values,
 * and on sim the orderings the hardware implies hold. No paper tolerance is
 * judged here (that is `ipcsim run --check`, after fitting). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define DIR "scenarios/funbase/"

/* Fewer repetitions, fewer sizes: each run takes well under a second. */
#define FAST_INIT ""
#define FAST_RT "--set args.reps=3 --set args.warmup=1 --set 'args.words=[1, 128]'"
#define FAST_TP "--set args.packets=10 --set args.warmup=2 --set 'args.sizes=[16, 1024]'"
#define FAST_PCIE "--set args.packets=5 --set args.warmup=1 --set 'args.sizes=[64, 1024]'"
#define FAST_T5 "--set args.reps=3 --set args.warmup=1"
#define THIS_WORK "\"this work: MCAPI, Nios, 4 B\""

/* Run DIR<stem>.yaml with extra options on a backend; the CSV. */
static char *run(const char *stem, const char *opts, const char *backend)
{
    const char *t = cli_tmp();
    struct cli_out r = cli_run("run " DIR "%s.yaml %s --backend %s --out '%s/%s'", stem, opts,
                               backend, t, backend);
    ck_assert_msg(r.status == 0, "%s (%s): exit %d: %s", stem, backend, r.status, r.err);
    char *csv = cli_wrote_csv(&r);
    ck_assert_msg(csv, "%s: no CSV", stem);
    return csv;
}

static double positive(const char *csv, const char *series, const char *x)
{
    double v = cli_csv_value(csv, series, x);
    ck_assert_msg(v > 0, "%s x=%s: %g (no positive value) in\n%s", series, x, v, csv);
    return v;
}

static void check_init(const char *backend, bool sim)
{
    char *csv = run("table3_init", FAST_INIT, backend);
    double msg = positive(csv, "init_cycles", "message");
    double pkt = positive(csv, "init_cycles", "packet");
    double scl = positive(csv, "init_cycles", "scalar");
    /* A channel is everything a message needs plus connect and open. */
    if (sim)
        ck_assert_msg(pkt > msg && scl > msg, "message %g, packet %g, scalar %g", msg, pkt, scl);
}

static void check_roundtrip(const char *backend, bool sim)
{
    char *csv = run("table4_roundtrip", FAST_RT, backend);
    double rt1 = positive(csv, "roundtrip_cycles", "1");
    double rt128 = positive(csv, "roundtrip_cycles", "128");
    double e1 = positive(csv, "echo_cycles", "1");
    double e128 = positive(csv, "echo_cycles", "128");
    double ow = positive(csv, "oneway_cycles", "4");
    if (!sim) return;
    /* More words take longer; an echo carries them back too; one way is
     * less than a round trip. */
    ck_assert_msg(rt128 > rt1 && e128 > rt128, "rt %g..%g, echo %g", rt1, rt128, e128);
    ck_assert_msg(ow < rt1 && ow < e1, "one-way %g, round trip %g", ow, rt1);
    /* The paper's points are the reference, judged only by --check. */
    ck_assert_msg(strstr(csv, "\nroundtrip_cycles,1,") && strstr(csv, ",cycles,63,"), "%s", csv);
}

static void check_throughput(const char *backend, bool sim)
{
    char *csv = run("throughput", FAST_TP, backend);
    double b16 = positive(csv, "bare_MBps", "16"), b1k = positive(csv, "bare_MBps", "1024");
    double m16 = positive(csv, "mcapi_MBps", "16"), m1k = positive(csv, "mcapi_MBps", "1024");
    if (!sim) return;
    /* Bigger packets amortise the per-packet cost; MCAPI only adds work. */
    ck_assert_msg(b1k > b16 && m1k > m16, "bare %g..%g, mcapi %g..%g", b16, b1k, m16, m1k);
    ck_assert_msg(b16 > m16 && b1k > m1k, "bare %g %g, mcapi %g %g", b16, b1k, m16, m1k);
}

static void check_pcie(const char *backend, bool sim)
{
    char *csv = run("pcie", FAST_PCIE, backend);
    double down = positive(csv, "pcie_MBps", "1024");
    positive(csv, "pcie_MBps", "64");
    positive(csv, "pcie_nios_pc_MBps", "64");
    positive(csv, "pcie_nios_pc_MBps", "1024");
    /* Over PCIe, far below the HIBI's 400 MB/s. */
    if (sim) ck_assert_msg(down < 100, "PC -> Nios %g MB/s", down);
}

static void check_table5(const char *backend)
{
    char *csv = run("table5_comparison", FAST_T5, backend);
    positive(csv, "oneway_cycles", THIS_WORK);
    /* Reference-only series: kept with an empty value, the paper's number
     * as the reference. */
    ck_assert_msg(strstr(csv, "\nliterature_cycles,\"Saldana: TMD-MPI, MicroBlaze, 0 B\",,,340,\n"),
                  "%s", csv);
    ck_assert_msg(strstr(csv, "\nliterature_cycles,\"Paulin: DSOC, StepNP\",,,40,\n"), "%s", csv);
}

START_TEST(funbase_init_sim)
{
    check_init("sim", true);
    cli_done();
}
END_TEST

START_TEST(funbase_roundtrip_sim)
{
    check_roundtrip("sim", true);
    cli_done();
}
END_TEST

START_TEST(funbase_throughput_sim)
{
    check_throughput("sim", true);
    cli_done();
}
END_TEST

START_TEST(funbase_pcie_sim)
{
    check_pcie("sim", true);
    cli_done();
}
END_TEST

START_TEST(funbase_table5_sim)
{
    check_table5("sim");
    cli_done();
}
END_TEST

/* The same app code natively: values exist, no timing is judged. */
START_TEST(funbase_native)
{
    check_init("native", false);
    check_roundtrip("native", false);
    check_throughput("native", false);
    check_pcie("native", false);
    check_table5("native");
    cli_done();
}
END_TEST

START_TEST(funbase_deterministic)
{
    const char *t = cli_tmp();
    char *csv[2];
    for (int i = 0; i < 2; i++) {
        struct cli_out r =
            cli_run("run " DIR "throughput.yaml " FAST_TP " --seed 3 --out '%s/%d'", t, i);
        ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
        csv[i] = cli_wrote_csv(&r);
    }
    char *a = csv[0], *b = csv[1];
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(a, b);
    cli_done();
}
END_TEST

/* Bad arguments fail the run with the app's message, on every node. */
START_TEST(funbase_bad_args)
{
    struct cli_out r = cli_run("run " DIR "table4_roundtrip.yaml --set args.reps=0");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "argument 'reps' is 0, must be 1 to 1000000"), "%s", r.err);
    r = cli_run("run " DIR "table4_roundtrip.yaml --set args.measure=nothing");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "measure names none of"), "%s", r.err);
    r = cli_run("run " DIR "throughput.yaml --set args.warmup=0");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "argument 'warmup' is 0, must be 1 to"), "%s", r.err);
    r = cli_run("run " DIR "pcie.yaml --set 'args.sizes=[2]'");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "argument 'sizes' element 0 is 2, must be 4 to 65536"), "%s",
                  r.err);
    cli_done();
}
END_TEST

void cli_register_funbase(void)
{
    Suite *s = harness_suite("cli-funbase");
    tcase_add_test(harness_tcase(s, "init"), funbase_init_sim);
    tcase_add_test(harness_tcase(s, "roundtrip"), funbase_roundtrip_sim);
    tcase_add_test(harness_tcase(s, "throughput"), funbase_throughput_sim);
    tcase_add_test(harness_tcase(s, "pcie"), funbase_pcie_sim);
    tcase_add_test(harness_tcase(s, "table5"), funbase_table5_sim);
    tcase_add_test(harness_tcase(s, "deterministic"), funbase_deterministic);
    tcase_add_test(harness_tcase(s, "bad_args"), funbase_bad_args);
    /* In the native suite, so TSan runs (TEST_SUITES=native) cover it. */
    tcase_add_test(harness_tcase(harness_suite("cli-native"), "funbase_native"), funbase_native);
}
