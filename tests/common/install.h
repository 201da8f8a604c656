/*
 * install.h -- what the install suites (tests/mcapi_install, tests/mpi_install)
 * share: the tree and build they test, an unchecked fixture that installs the
 * build into a fresh prefix, bounded formatting, and running a shell command
 * with its output.
 */
#ifndef IPCSIM_TESTS_COMMON_INSTALL_H
#define IPCSIM_TESTS_COMMON_INSTALL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define LOG_BYTES 8192
#define CMD_BYTES (8 * PATH_MAX)

/* Find the source tree (IPCSIM_ROOT, default ".") and the build (BUILD,
 * default "build"), or stop; name is the suite's, for messages and for the
 * fixture's directory (BUILD/<name>.XXXXXX). Call from tests_register. */
void inst_init(const char *name);

extern char inst_root[PATH_MAX];   /* the source tree (IPCSIM_ROOT) */
extern char inst_prefix[PATH_MAX]; /* where the fixture installed; "" before */
extern char inst_build[PATH_MAX];  /* BUILD, absolute */

/* snprintf that reports truncation: a truncated command must never run. */
bool inst_fits(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Run cmd with sh, stdout and stderr into log (its last loglen - 1 bytes);
 * the exit status, or -1 if it did not exit normally. */
int inst_shell(const char *cmd, char *log, size_t loglen);

/* Whether PREFIX/rel exists and is not empty (after the fixture installed). */
bool inst_installed(const char *rel);

/* The source tree's programs: the files matching the glob pattern (relative
 * to the tree, an examples folder and a .c wildcard), but for the file named
 * skip (NULL: none), into out[0..max-1] in glob order; returns how many.
 * Stops the run, naming the pattern, when nothing matches. */
int inst_programs(const char *pattern, const char *skip, char (*out)[PATH_MAX], int max);

/* The sanitizer flag matching the tree's libraries (SAN=asan|tsan), or "". */
const char *inst_san_flags(void);

/* The unchecked fixture: tools/install.sh into a fresh prefix under BUILD,
 * and its removal. inst_need_install() fails the calling test if it failed. */
void inst_install_once(void);
void inst_remove_install(void);
void inst_need_install(void);

#endif
