/* register.c -- the mpi_lite test program. */
#include <stdlib.h>

#include "mt.h"

void mt_init(const struct mpix_lite_params *p)
{
    if (p) OK(MPIX_Lite_set_params(p));
    OK(MPI_Init(NULL, NULL));
}

int mt_rank(void)
{
    int r;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    return r;
}

int mt_size(void)
{
    int n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    return n;
}

void mt_fill(unsigned char *b, size_t n, unsigned m)
{
    for (size_t i = 0; i < n; i++) b[i] = mt_byte(m, i);
}

void mt_expect(const unsigned char *b, size_t n, unsigned m)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != mt_byte(m, i))
            ck_abort_msg("message %u byte %zu of %zu: %u, expected %u", m, i, n, b[i],
                         mt_byte(m, i));
}

void tests_register(void)
{
    mt_p2p_cases();
    mt_coll_cases();
    mt_err_cases();
    mt_full_cases();
}
