/* type.c -- datatypes: the basic ones, contiguous and vector; pack/unpack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ml.h"

struct pair_fi {
    float v;
    int i;
};
struct pair_di {
    double v;
    int i;
};
struct pair_li {
    long v;
    int i;
};

/* Sizes of the basic handles (index = handle). */
static const size_t basic_size[ML_NBASIC] = {
    [MPI_CHAR] = sizeof(char),
    [MPI_SIGNED_CHAR] = sizeof(signed char),
    [MPI_UNSIGNED_CHAR] = sizeof(unsigned char),
    [MPI_BYTE] = 1,
    [MPI_SHORT] = sizeof(short),
    [MPI_UNSIGNED_SHORT] = sizeof(unsigned short),
    [MPI_INT] = sizeof(int),
    [MPI_UNSIGNED] = sizeof(unsigned),
    [MPI_LONG] = sizeof(long),
    [MPI_UNSIGNED_LONG] = sizeof(unsigned long),
    [MPI_LONG_LONG] = sizeof(long long),
    [MPI_UNSIGNED_LONG_LONG] = sizeof(unsigned long long),
    [MPI_FLOAT] = sizeof(float),
    [MPI_DOUBLE] = sizeof(double),
    [MPI_INT8_T] = 1,
    [MPI_UINT8_T] = 1,
    [MPI_INT16_T] = 2,
    [MPI_UINT16_T] = 2,
    [MPI_INT32_T] = 4,
    [MPI_UINT32_T] = 4,
    [MPI_INT64_T] = 8,
    [MPI_UINT64_T] = 8,
    [MPI_2INT] = 2 * sizeof(int),
    [MPI_FLOAT_INT] = sizeof(struct pair_fi),
    [MPI_DOUBLE_INT] = sizeof(struct pair_di),
    [MPI_LONG_INT] = sizeof(struct pair_li),
};

void ml_types_init(struct ml_rank *me)
{
    for (int t = 1; t < ML_NBASIC; t++) {
        struct ml_type *ty = &me->types[t];
        *ty = (struct ml_type){.used = true,
                               .committed = true,
                               .size = basic_size[t],
                               .extent = basic_size[t],
                               .base = t,
                               .contig = true};
    }
}

void ml_types_fini(struct ml_rank *me)
{
    for (int t = ML_NBASIC; t < ML_MAX_TYPES; t++) free(me->types[t].blk);
}

static struct ml_type *any_type(struct ml_rank *me, MPI_Datatype t)
{
    if (t <= 0 || t >= ML_MAX_TYPES || !me->types[t].used) return NULL;
    return &me->types[t];
}

struct ml_type *ml_type(struct ml_rank *me, MPI_Datatype t)
{
    struct ml_type *ty = any_type(me, t);
    return ty && ty->committed ? ty : NULL;
}

int ml_check_buf(MPI_Comm c, const char *call, int count, MPI_Datatype t, struct ml_type **ty)
{
    struct ml_rank *me = ml_me();
    if (!ml_comm(me, c))
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COMM, call, "communicator %d is not valid", c);
    if (count < 0) return ml_err(c, MPI_ERR_COUNT, call, "count %d is negative", count);
    *ty = ml_type(me, t);
    if (!*ty) return ml_err(c, MPI_ERR_TYPE, call, "datatype %d is not a committed datatype", t);
    return MPI_SUCCESS;
}

/* The blocks of one element of ty (a basic type: one block). */
static size_t blocks(const struct ml_type *ty, const struct ml_block **b, struct ml_block *one)
{
    if (ty->blk) {
        *b = ty->blk;
        return ty->nblk;
    }
    *one = (struct ml_block){0, ty->size};
    *b = one;
    return 1;
}

/* count copies of old's blocks at stride bytes (count x blocklen elements). */
static int make(MPI_Datatype *out, MPI_Datatype old, int count, int blocklen, long stride,
                const char *call)
{
    struct ml_rank *me = ml_rank_or_die(call);
    struct ml_type *o = any_type(me, old);
    if (!o) return ml_err(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "oldtype %d is not valid", old);
    if (count < 0 || blocklen < 0)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count %d, blocklength %d", count,
                      blocklen);
    if (stride < 0)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, call, "stride %ld is negative", stride);
    if (!out) return ml_err(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype NULL");
    int slot = 0;
    for (int t = ML_NBASIC; t < ML_MAX_TYPES && !slot; t++)
        if (!me->types[t].used) slot = t;
    if (!slot)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "more than %d datatypes",
                      ML_MAX_TYPES - ML_NBASIC);
    struct ml_block one;
    const struct ml_block *ob;
    size_t on = blocks(o, &ob, &one);
    size_t n = (size_t)count * (size_t)blocklen * on;
    struct ml_block *b = malloc((n ? n : 1) * sizeof *b);
    if (!b) return ml_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    size_t k = 0;
    for (int i = 0; i < count; i++)
        for (int j = 0; j < blocklen; j++)
            for (size_t q = 0; q < on; q++) {
                size_t off = ((size_t)i * (size_t)stride + (size_t)j) * o->extent + ob[q].off;
                if (k && b[k - 1].off + b[k - 1].len == off) /* adjacent: merge */
                    b[k - 1].len += ob[q].len;
                else
                    b[k++] = (struct ml_block){off, ob[q].len};
            }
    struct ml_type *ty = &me->types[slot];
    size_t span = count ? ((size_t)(count - 1) * (size_t)stride + (size_t)blocklen) * o->extent : 0;
    *ty = (struct ml_type){.used = true,
                           .size = (size_t)count * (size_t)blocklen * o->size,
                           .extent = span,
                           .base = o->base,
                           .blk = b,
                           .nblk = k};
    ty->contig = k == 0 || (k == 1 && b[0].off == 0 && ty->extent == ty->size);
    *out = slot;
    return MPI_SUCCESS;
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return make(newtype, oldtype, count, 1, 1, "MPI_Type_contiguous");
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype *newtype)
{
    return make(newtype, oldtype, count, blocklength, stride, "MPI_Type_vector");
}

int MPI_Type_commit(MPI_Datatype *type)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Type_commit");
    struct ml_type *ty = type ? any_type(me, *type) : NULL;
    if (!ty)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_commit", "datatype %d",
                      type ? *type : 0);
    ty->committed = true;
    return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *type)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Type_free");
    if (!type || *type < ML_NBASIC || !any_type(me, *type))
        return ml_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free",
                      "datatype %d is not a derived datatype", type ? *type : 0);
    free(me->types[*type].blk);
    me->types[*type] = (struct ml_type){0};
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype type, int *size)
{
    struct ml_rank *me = ml_rank_or_die("MPI_Type_size");
    struct ml_type *ty = any_type(me, type);
    if (!ty || !size)
        return ml_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_size", "datatype %d", type);
    *size = (int)ty->size;
    return MPI_SUCCESS;
}

void ml_pack(const struct ml_type *t, const void *user, int count, char *out)
{
    struct ml_block one;
    const struct ml_block *b;
    size_t n = blocks(t, &b, &one);
    const char *u = user;
    for (int e = 0; e < count; e++)
        for (size_t i = 0; i < n; i++) {
            memcpy(out, u + (size_t)e * t->extent + b[i].off, b[i].len);
            out += b[i].len;
        }
}

void ml_unpack(const struct ml_type *t, const char *in, size_t bytes, void *user)
{
    struct ml_block one;
    const struct ml_block *b;
    size_t n = blocks(t, &b, &one);
    char *u = user;
    for (size_t e = 0; bytes; e++)
        for (size_t i = 0; i < n && bytes; i++) {
            size_t k = b[i].len < bytes ? b[i].len : bytes;
            memcpy(u + e * t->extent + b[i].off, in, k);
            in += k;
            bytes -= k;
        }
}
