/* register.c -- the XMCAPI transport's suites "xmcapi-native" and "xmcapi-sim". */
#include "xmt.h"

void tests_register(void)
{
    xmt_msg_cases();
    xmt_chan_cases();
    xmt_fault_cases();
}
