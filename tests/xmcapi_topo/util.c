/* util.c -- scratch topology files. */
#define _POSIX_C_SOURCE 200809L
#include "xt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void xt_file_write(struct xt_file *f, const char *text)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/ipcsim-topo-XXXXXX");
    ck_assert_msg(mkdtemp(f->dir), "cannot create a scratch directory in /tmp");
    snprintf(f->path, sizeof f->path, "%s/topo.yaml", f->dir);
    FILE *out = fopen(f->path, "w");
    ck_assert_msg(out, "cannot create %s", f->path);
    size_t len = strlen(text);
    ck_assert_uint_eq(fwrite(text, 1, len, out), len);
    ck_assert_int_eq(fclose(out), 0);
}

void xt_file_remove(struct xt_file *f)
{
    remove(f->path);
    rmdir(f->dir);
}
