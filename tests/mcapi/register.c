/* register.c -- the MCAPI 2.0 conformance suites "mcapi-native" and
 * "mcapi-sim". */
#include "mt.h"

void tests_register(void)
{
    mt_node();
    mt_endpoint();
    mt_attributes();
    mt_messages();
    mt_pktchan();
    mt_sclchan();
    mt_requests();
    mt_limits();
    mt_errors();
    mt_threads();
    mt_process();
    mt_timeouts();
    mt_virtual();
    mt_simtime();
    mt_churn();
    mt_pool();
    mt_porting();
    mt_crash();
    mt_shm_repair();
}
