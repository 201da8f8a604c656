/* procs.h -- what tests/mpi_procs' files share: running mpirun and the
 * programs of progs/ as subprocesses. */
#ifndef IPCSIM_TESTS_MPI_PROCS_H
#define IPCSIM_TESTS_MPI_PROCS_H

#include <stdbool.h>

#include "harness.h"

/* What a command did: its exit code (128+N for signal N), its output, how
 * long it took. The strings live until the test ends. */
struct result {
    int code;
    const char *out, *err;
    double secs;
};

/* Run argv (NULL-terminated) with the extra "VAR=value" environment of env
 * (NULL: none) and stdin_text on stdin (NULL: /dev/null). A command still
 * running after 30 s is killed and fails the test (nothing may hang). */
struct result run(const char *const *argv, const char *const *env, const char *stdin_text);
/* run() of $BUILD/bin/mpirun with these arguments (NULL-terminated). */
#define MPIRUN(...) run((const char *const[]){mpirun_path(), __VA_ARGS__, NULL}, NULL, NULL)
const char *mpirun_path(void);
/* $BUILD/progs/mpi_procs/<name>. */
const char *prog(const char *name);
/* A file of the test's scratch directory holding text; its path. */
const char *scratch_file(const char *name, const char *text);
/* The job's objects left in /dev/shm (ipcsim.<job>.*): how many. */
int leftovers(const char *job);
/* The job name a fail program printed ("job NAME"), or "" */
const char *job_of(const struct result *r);

/* Free what the helpers handed out, remove the scratch directory (every
 * test case's teardown). */
void procs_teardown(void);

#define HAS(text, sub) ck_assert_msg(strstr((text), (sub)), "no '%s' in:\n%s", (sub), (text))

void procs_job_cases(Suite *s);
void procs_fail_cases(Suite *s);
void procs_input_cases(Suite *s);
void procs_node_cases(Suite *s);
void procs_host_cases(Suite *s);
void procs_hpl_cases(Suite *s);
/* hpl_cases.c: $BUILD (default build) and $BUILD/mpi-examples/hpl;
 * hpl_charged.c: its charged mode's cases (procs_hpl_cases adds them). */
const char *hpl_build_dir(void);
const char *hpl_program(void);
void procs_hpl_charged_cases(Suite *s);

#endif
