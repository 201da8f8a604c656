/* pt.c -- helpers shared by the conformance cases. */
#define _GNU_SOURCE
#include "pt.h"

#include <unistd.h>

double pt_num(const void *arg, const char *path)
{
    double v;
    ck_assert_msg(conf_number(conf_get(conf_root(pt_env(arg)->platform), path), &v),
                  "platform has no number at %s", path);
    return v;
}

const char *pt_str(const void *arg, const char *path)
{
    const char *t = conf_text(conf_get(conf_root(pt_env(arg)->platform), path));
    ck_assert_msg(t, "platform has no text at %s", path);
    return t;
}

static uint8_t pattern(size_t i, unsigned seed)
{
    return (uint8_t)((i * 131u + (i >> 8) * 7u + seed * 29u + 1u) & 0xff);
}

void pt_fill(void *p, size_t n, unsigned seed)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) b[i] = pattern(i, seed);
}

size_t pt_bad(const void *p, size_t n, unsigned seed)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern(i, seed)) return i;
    return n;
}

/* Below the ephemeral range (32768..), 8 ports per test. */
int pt_port(int k)
{
    return 10000 + (int)(getpid() % 2500) * 8 + k;
}
