/* mt.h -- what the mpi_lite test files share. */
#ifndef IPCSIM_TESTS_MPI_LITE_MT_H
#define IPCSIM_TESTS_MPI_LITE_MT_H

#include "harness.h"
#include "ipcsim/plat.h"
#include "mpi.h"
#include "mpi_lite.h"

#define OK(x) ck_assert_int_eq((x), MPI_SUCCESS)

/* MPI_Init with these parameters (NULL: the defaults). */
void mt_init(const struct mpix_lite_params *p);
int mt_rank(void);
int mt_size(void);
/* A byte pattern of message m, byte i. */
static inline unsigned char mt_byte(unsigned m, size_t i)
{
    return (unsigned char)(m * 31u + i * 7u + (i >> 8));
}
void mt_fill(unsigned char *b, size_t n, unsigned m);
void mt_expect(const unsigned char *b, size_t n, unsigned m);

void mt_p2p_cases(void);
void mt_coll_cases(void);
void mt_err_cases(void);
void mt_full_cases(void);

#endif
