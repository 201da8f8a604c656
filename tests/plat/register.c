/* register.c -- the conformance suites "plat-native" and "plat-sim". */
#include "pt.h"

void tests_register(void)
{
    pt_identity();
    pt_time();
    pt_threads();
    pt_sync();
    pt_atomics();
    pt_memory();
    pt_dma();
    pt_dma_push();
    pt_rx();
    pt_timing();
    pt_hwq();
    pt_mesh();
    pt_accel();
    pt_stream();
    pt_misuse();
    pt_gbe();
    pt_sw26010();
    pt_srio();
    pt_wake();
    pt_home();
    pt_keystone();
    pt_touch();
    pt_robust();
}
