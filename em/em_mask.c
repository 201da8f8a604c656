/*
 * em_mask.c -- core masks (em_core_mask_*).
 */
#include "em_internal.h"

#include <string.h>

static int in_range(int core)
{
    return core >= 0 && core < EM_MAX_CORES;
}

void em_core_mask_zero(em_core_mask_t *mask)
{
    memset(mask, 0, sizeof(*mask));
}

void em_core_mask_set(int core, em_core_mask_t *mask)
{
    if (in_range(core)) mask->bits[core / 64] |= 1ull << (core % 64);
}

void em_core_mask_clr(int core, em_core_mask_t *mask)
{
    if (in_range(core)) mask->bits[core / 64] &= ~(1ull << (core % 64));
}

int em_core_mask_isset(int core, const em_core_mask_t *mask)
{
    return in_range(core) && ((mask->bits[core / 64] >> (core % 64)) & 1);
}

int em_core_mask_iszero(const em_core_mask_t *mask)
{
    return em_core_mask_count(mask) == 0;
}

int em_core_mask_equal(const em_core_mask_t *mask1, const em_core_mask_t *mask2)
{
    return memcmp(mask1, mask2, sizeof(*mask1)) == 0;
}

void em_core_mask_set_count(int count, em_core_mask_t *mask)
{
    for (int i = 0; i < count && i < EM_MAX_CORES; i++) em_core_mask_set(i, mask);
}

void em_core_mask_copy(em_core_mask_t *dst, const em_core_mask_t *src)
{
    *dst = *src;
}

int em_core_mask_count(const em_core_mask_t *mask)
{
    int n = 0;
    for (size_t w = 0; w < sizeof(mask->bits) / sizeof(mask->bits[0]); w++)
        n += __builtin_popcountll(mask->bits[w]);
    return n;
}

int em_core_mask_idx(int n, const em_core_mask_t *mask)
{
    for (int i = 0; i < EM_MAX_CORES; i++)
        if (em_core_mask_isset(i, mask) && n-- == 0) return i;
    return -1;
}

void em_core_mask_and(em_core_mask_t *dst, const em_core_mask_t *src1, const em_core_mask_t *src2)
{
    for (size_t w = 0; w < sizeof(dst->bits) / sizeof(dst->bits[0]); w++)
        dst->bits[w] = src1->bits[w] & src2->bits[w];
}

void em_core_mask_or(em_core_mask_t *dst, const em_core_mask_t *src1, const em_core_mask_t *src2)
{
    for (size_t w = 0; w < sizeof(dst->bits) / sizeof(dst->bits[0]); w++)
        dst->bits[w] = src1->bits[w] | src2->bits[w];
}

void em_core_mask_xor(em_core_mask_t *dst, const em_core_mask_t *src1, const em_core_mask_t *src2)
{
    for (size_t w = 0; w < sizeof(dst->bits) / sizeof(dst->bits[0]); w++)
        dst->bits[w] = src1->bits[w] ^ src2->bits[w];
}
