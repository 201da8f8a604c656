/*
 * tests/xmcapi_topo/xt.h -- shared by the topology file's cases: scratch
 * files holding YAML text.
 */
#ifndef IPCSIM_TESTS_XT_H
#define IPCSIM_TESTS_XT_H

#include "harness.h"

#include "../../xmcapi/topo.h"

/* A scratch file: dir made by mkdtemp under /tmp, path = dir/topo.yaml. */
struct xt_file {
    char dir[64];
    char path[96];
};

/* Write text into a fresh scratch file (fails the test on error). */
void xt_file_write(struct xt_file *f, const char *text);
/* Remove the file and its directory. */
void xt_file_remove(struct xt_file *f);

void xt_good_cases(Suite *s);
void xt_bad_cases(Suite *s);
void xt_path_cases(Suite *s);

#endif
