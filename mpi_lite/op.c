/* op.c -- the predefined reductions on the basic datatypes. */
#include <stdbool.h>
#include <stdint.h>

#include "ml.h"

bool ml_op_valid(MPI_Op op)
{
    return op >= MPI_SUM && op <= MPI_MINLOC;
}

#define ARITH(T)                                                                                   \
    do {                                                                                           \
        const T *a = in;                                                                           \
        T *b = inout;                                                                              \
        for (size_t i = 0; i < n; i++) switch (op) {                                               \
            case MPI_SUM:                                                                          \
                b[i] = (T)(a[i] + b[i]);                                                           \
                break;                                                                             \
            case MPI_PROD:                                                                         \
                b[i] = (T)(a[i] * b[i]);                                                           \
                break;                                                                             \
            case MPI_MIN:                                                                          \
                b[i] = a[i] < b[i] ? a[i] : b[i];                                                  \
                break;                                                                             \
            case MPI_MAX:                                                                          \
                b[i] = a[i] > b[i] ? a[i] : b[i];                                                  \
                break;                                                                             \
            case MPI_LAND:                                                                         \
                b[i] = (T)(a[i] && b[i]);                                                          \
                break;                                                                             \
            case MPI_LOR:                                                                          \
                b[i] = (T)(a[i] || b[i]);                                                          \
                break;                                                                             \
            default:                                                                               \
                return MPI_ERR_OP;                                                                 \
            }                                                                                      \
        return MPI_SUCCESS;                                                                        \
    } while (0)

#define INTEGER(T)                                                                                 \
    do {                                                                                           \
        if (op == MPI_BAND || op == MPI_BOR) {                                                     \
            const T *a = in;                                                                       \
            T *b = inout;                                                                          \
            for (size_t i = 0; i < n; i++)                                                         \
                b[i] = op == MPI_BAND ? (T)(a[i] & b[i]) : (T)(a[i] | b[i]);                       \
            return MPI_SUCCESS;                                                                    \
        }                                                                                          \
        ARITH(T);                                                                                  \
    } while (0)

/* MAXLOC/MINLOC: the extreme value, and on a tie the smaller index. */
#define LOC(T)                                                                                     \
    do {                                                                                           \
        if (op != MPI_MAXLOC && op != MPI_MINLOC) return MPI_ERR_OP;                               \
        const T *a = in;                                                                           \
        T *b = inout;                                                                              \
        for (size_t i = 0; i < n; i++) {                                                           \
            bool better = op == MPI_MAXLOC ? a[i].v > b[i].v : a[i].v < b[i].v;                    \
            if (better || (a[i].v == b[i].v && a[i].i < b[i].i)) b[i] = a[i];                      \
        }                                                                                          \
        return MPI_SUCCESS;                                                                        \
    } while (0)

struct loc_ii {
    int v, i;
};
struct loc_fi {
    float v;
    int i;
};
struct loc_di {
    double v;
    int i;
};
struct loc_li {
    long v;
    int i;
};

/* Signed overflow in a sum or product is the program's, as in C. */
int ml_op_apply(MPI_Op op, int base, const void *in, void *inout, size_t n)
{
    if (!ml_op_valid(op)) return MPI_ERR_OP;
    switch (base) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_INT8_T:
        INTEGER(int8_t);
    case MPI_UNSIGNED_CHAR:
    case MPI_BYTE:
    case MPI_UINT8_T:
        INTEGER(uint8_t);
    case MPI_SHORT:
    case MPI_INT16_T:
        INTEGER(int16_t);
    case MPI_UNSIGNED_SHORT:
    case MPI_UINT16_T:
        INTEGER(uint16_t);
    case MPI_INT:
    case MPI_INT32_T:
        INTEGER(int32_t);
    case MPI_UNSIGNED:
    case MPI_UINT32_T:
        INTEGER(uint32_t);
    case MPI_LONG:
        INTEGER(long);
    case MPI_UNSIGNED_LONG:
        INTEGER(unsigned long);
    case MPI_LONG_LONG:
    case MPI_INT64_T:
        INTEGER(int64_t);
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_UINT64_T:
        INTEGER(uint64_t);
    case MPI_FLOAT:
        ARITH(float);
    case MPI_DOUBLE:
        ARITH(double);
    case MPI_2INT:
        LOC(struct loc_ii);
    case MPI_FLOAT_INT:
        LOC(struct loc_fi);
    case MPI_DOUBLE_INT:
        LOC(struct loc_di);
    case MPI_LONG_INT:
        LOC(struct loc_li);
    default:
        return MPI_ERR_TYPE;
    }
}
