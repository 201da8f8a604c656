/*
 * util.h -- what the mpi_install cases share: bounded formatting, running a
 * shell command with its output, and the prefix the fixture installed into.
 */
#ifndef IPCSIM_TESTS_MPI_INSTALL_UTIL_H
#define IPCSIM_TESTS_MPI_INSTALL_UTIL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define LOG_BYTES 8192
#define CMD_BYTES (8 * PATH_MAX)

extern char mi_root[PATH_MAX];   /* the source tree (IPCSIM_ROOT) */
extern char mi_prefix[PATH_MAX]; /* where the fixture installed; "" before */
extern char mi_build[PATH_MAX];  /* BUILD, absolute */

/* snprintf that reports truncation: a truncated command must never run. */
bool mi_fits(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Run cmd with sh, stdout and stderr into log (its last loglen - 1 bytes);
 * the exit status, or -1 if it did not exit normally. */
int mi_shell(const char *cmd, char *log, size_t loglen);

/* The sanitizer flag matching the tree's libraries (SAN=asan|tsan), or "". */
const char *mi_san_flags(void);

/* The unchecked fixture: tools/install.sh into a fresh prefix under BUILD,
 * and its removal. mi_need_install() fails the calling test if it failed. */
void mi_install_once(void);
void mi_remove_install(void);
void mi_need_install(void);

#endif
