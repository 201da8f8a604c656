/* register.c -- the DMA transport's suites "mcapi_dma-native" and
 * "mcapi_dma-sim". */
#include "dt.h"

void tests_register(void)
{
    dt_node_cases();
    dt_msg_cases();
    dt_pkt_cases();
    dt_scl_cases();
    dt_req_cases();
    dt_map_cases();
    dt_err_cases();
    dt_time_cases();
}
