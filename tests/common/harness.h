/*
 * tests/common/harness.h -- the Check harness linked into every test program.
 *
 * PROGRAMS
 *   build/tests/<dir> is built from tests/<dir>/ *.c plus tests/common/ *.c.
 *   The harness owns main(). A test program defines one function,
 *
 *       void tests_register(void);
 *
 *   which creates its suites (harness_suite, harness_tcase, harness_add_cases).
 *   main() then runs every registered suite with Check in fork mode: each test
 *   is its own process, because SystemC runs one simulation per process, and
 *   a failed ck_assert in any thread (a simulated core, a native core thread)
 *   just ends that test with its message. It prints Check's summary and exits
 *   non-zero if any test failed.
 *
 *   Plain tests:
 *
 *       START_TEST(parses) { ck_assert_int_eq(parse("1"), 1); }
 *       END_TEST
 *
 *       void tests_register(void)
 *       {
 *           tcase_add_test(harness_tcase(harness_suite("cli"), "parse"), parses);
 *       }
 *
 *   The harness takes the core slot PLAT_SLOT_TEST in every run (barrier and
 *   board); cases use the other slots.
 *
 * ENVIRONMENT
 *   TEST_SUITES   only suites whose name contains this text run ("native")
 *   IPCSIM_ROOT   the directory holding platforms/ (default: the current one)
 *   Check's own:  CK_RUN_SUITE, CK_RUN_CASE (one suite / test case by exact
 *                 name, e.g. CK_RUN_CASE=sim/dma_ring), CK_VERBOSITY
 *                 (silent|minimal|normal|verbose; default normal),
 *                 CK_TIMEOUT_MULTIPLIER (scales the per-test timeout).
 *
 * PLATFORM CASES
 *   A platform case is a function run on every core of a platform (ideal.yaml
 *   with overrides), written once and registered for both backends, so the
 *   same test source proves the code runs unmodified natively and in
 *   simulation. Tests are named "native/<case>" and "sim/<case>", in suites
 *   "<prefix>-native" and "<prefix>-sim":
 *
 *       static void case_ping(void *arg)   // arg: const struct harness_env *
 *       {
 *           uint64_t *board = harness_board();
 *           if (plat_core() == 0) plat_store64(&board[0], 42);
 *           harness_barrier();
 *           ck_assert_uint_eq(plat_load64(&board[0]), 42);
 *       }
 *       static const struct harness_case cases[] = {
 *           {.name = "ping", .core = case_ping, .cores = 4},
 *       };
 *       harness_add_cases("plat", cases, HARNESS_COUNT(cases));
 *
 *   Waits in cases use finite timeouts (HARNESS_WAIT_NS), never PLAT_FOREVER,
 *   so a broken backend fails the test instead of hanging it.
 */
#ifndef IPCSIM_TESTS_HARNESS_H
#define IPCSIM_TESTS_HARNESS_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "ipcsim/conf.h"
#include "ipcsim/run.h"

/* ------------------------------------------------------------------------ */
/* Suites (host side, from tests_register)                                   */
/* ------------------------------------------------------------------------ */

void tests_register(void); /* defined by each test program */

/* The suite of that name, created on first use; main() runs it unless
 * TEST_SUITES excludes it. The name is copied. */
Suite *harness_suite(const char *name);
/* A new test case of s with the harness's timeout (HARNESS_TIMEOUT_S). Check
 * keeps the name pointer: pass a string that lives until main() returns. */
TCase *harness_tcase(Suite *s, const char *name);

#define HARNESS_TIMEOUT_S 60

/* Registration errors (outside any test): print and exit(EXIT_FAILURE). */
void harness_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ------------------------------------------------------------------------ */
/* Platform cases                                                            */
/* ------------------------------------------------------------------------ */

#define HARNESS_NATIVE (1u << PLAT_NATIVE)
#define HARNESS_SIM (1u << PLAT_SIM)
#define HARNESS_SEED 1u /* the seed of every harness run */

/* What a case sees: passed as arg to every core (and to harness_case.test). */
struct harness_env {
    enum plat_backend backend;   /* tests may differ by backend; libraries never */
    const struct conf *platform; /* the platform file of the run, overrides applied */
    const void *param;           /* the case's param (a suite's own context) */
};

#define HARNESS_MAX_SETS 8

struct harness_case {
    /* Tests "native/<name>" and "sim/<name>". */
    const char *name;
    /* Run on every core; arg is a const struct harness_env *. */
    void (*core)(void *arg);
    /* The "cores" override; 0 keeps the file's. */
    int cores;
    /* More "path=value" overrides, applied after "cores": {"a.b=1", "c=x"}. */
    const char *sets[HARNESS_MAX_SETS];
    /* Optional: replace the text edit_from of ideal.yaml by edit_to before
     * parsing (for what --set cannot change, like the caps list). */
    const char *edit_from, *edit_to;
    /* HARNESS_NATIVE | HARNESS_SIM; 0 means both. */
    unsigned backends;
    /* The platform file platforms/<file>.yaml; NULL: ideal. */
    const char *file;
    /* Instead of one run of `core`: the whole test, in the test's process
     * (to fork, run twice, expect a failure...). env->platform is loaded as
     * above and freed afterwards. */
    void (*test)(const struct harness_env *env);
    /* Passed on as env->param and harness_param(): what a suite that runs
     * its cases several ways (MCAPI over each transport) runs them with. */
    const void *param;
};

/* A NULL-terminated list of overrides inside a function (harness_platform):
 * HARNESS_SETS("cores=4", "link.latency_ns=10"). */
#define HARNESS_SETS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define HARNESS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Register n cases in suites "<prefix>-native" and "<prefix>-sim". The
 * cases are kept by pointer: they must outlive the run. */
void harness_add_cases(const char *prefix, const struct harness_case *cases, size_t n);
/* The running case's param, for helpers that are not handed the env. */
const void *harness_param(void);

/* ------------------------------------------------------------------------ */
/* Running platforms (host side, inside a test)                              */
/* ------------------------------------------------------------------------ */

/* $IPCSIM_ROOT/platforms/ideal.yaml, optionally with its text edited (from
 * -> to; from NULL: as is), then the "path=value" overrides of sets applied
 * with conf_set. Fails the test on any error. Free with conf_free. */
struct conf *harness_platform(const char *const *sets, const char *from, const char *to);
/* The same for $IPCSIM_ROOT/platforms/<file>.yaml (file NULL: ideal). */
struct conf *harness_platform_file(const char *file, const char *const *sets, const char *from,
                                   const char *to);

/* plat_run(entry(arg)) on every core of platform with seed HARNESS_SEED;
 * fails the test with plat_run's message unless it returns 0. Every core
 * may use harness_barrier and harness_board. */
void harness_run(enum plat_backend b, const struct conf *platform, void (*entry)(void *),
                 void *arg);
/* The same with a seed of choice, returning plat_run's result (err filled). */
int harness_try_run(enum plat_backend b, const struct conf *platform, uint64_t seed,
                    void (*entry)(void *), void *arg, char *err, size_t errlen);

/* Run fn(arg) in a child process and return its wait status. Needed for a
 * second simulation (one per process) or a run expected to die. ck_assert in
 * the child ends it with exit status 1 but its message is lost (Check only
 * reports the test's own process): report through harness_page instead. */
int harness_fork(void (*fn)(void *), void *arg);
/* n zeroed bytes shared with children forked later (MAP_SHARED). */
void *harness_page(size_t n);

/* ------------------------------------------------------------------------ */
/* Inside a run (core side)                                                  */
/* ------------------------------------------------------------------------ */

/* Wait until every core of the run has called it (once per core, from any
 * one thread of the core). Built on plat_fetch_add64 and plat_poll64, so the
 * cores need PLAT_CAP_FETCH_ADD. */
void harness_barrier(void);

/* HARNESS_BOARD_WORDS words of shared memory, zero at the start of the run,
 * for cores to exchange values and pointers. */
#define HARNESS_BOARD_WORDS 256
uint64_t *harness_board(void);

/* "Forever" for waits that must not hang the suite: 10 s. */
#define HARNESS_WAIT_NS 10000000000ull

#endif
