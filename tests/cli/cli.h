/*
 * tests/cli/cli.h -- running the built ipcsim binary from Check tests.
 *
 * The binary is "$BUILD/ipcsim" (BUILD from the environment, default
 * "build"); tests run from the repo root. Each test works in a fresh
 * directory under $BUILD/tmp-cli/, removed when the test passes.
 */
#ifndef IPCSIM_TESTS_CLI_H
#define IPCSIM_TESTS_CLI_H

#include "../common/harness.h"

#include <stdbool.h>
#include <stddef.h>

/* What one ipcsim invocation did. Strings returned by these functions live
 * until cli_done, which frees them all. */
struct cli_out {
    int status; /* exit status; 128 + signal when killed */
    char *out, *err;
};

/* A fresh scratch directory for this test. */
const char *cli_tmp(void);
/* Remove the scratch directory and free every string handed out (call at
 * the end of a passing test). */
void cli_done(void);

/* Run `ipcsim <args>`; args is one shell-quoted string built printf-style. */
struct cli_out cli_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run a shell command the same way (tools/ scripts); BUILD is the tree
 * under test (cli_build). */
struct cli_out cli_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *cli_build(void);

/* Files. cli_read returns NULL when the file cannot be read. */
char *cli_read(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_write(const char *text, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Entries of a directory other than . and .. (0 when it does not exist). */
int cli_entries(const char *dir);
/* Lines of a text (a last line without newline counts). */
int cli_lines(const char *text);
/* The value column of the row "series,x,..." of a results CSV; -1 if none. */
double cli_csv_value(const char *csv, const char *series, const char *x);

/* The CSV a run wrote (the first file of its "wrote " line: a run with --set,
 * --backend native or --seed names it <stem>+<tags>.csv); NULL if unreadable. */
char *cli_wrote_csv(const struct cli_out *r);

/* Write yaml as <tmp>/scen/grp/<stem>.yaml, run it into <tmp>/res/grp,
 * report into <tmp>/res; the REPORT.md (a --check failure is no error). */
char *cli_report_of(const char *yaml, const char *stem);

/* Registration of each file's tests (main.c calls them). */
void cli_register_commands(void);
void cli_register_run(void);
void cli_register_errors(void);
void cli_register_report(void);
void cli_register_funbase(void);
void cli_register_expect(void);
void cli_register_sw26010(void);
void cli_register_plots(void);
void cli_register_errs(void);
void cli_register_prov(void);
void cli_register_overflow(void);
void cli_register_trace(void);
void cli_register_mpisim(void);
void cli_register_emsim(void);
void cli_register_variants(void);
void cli_register_relations(void);
void cli_register_keep_names(void);
void cli_register_readme(void);
void cli_register_chart(void);
void cli_register_sweep(void);

#endif
