/* register.c -- suite "xmcapi_topo": the XMCAPI topology file loader.
 * Files only: no platform, no backend, no sockets. */
#include "xt.h"

void tests_register(void)
{
    Suite *s = harness_suite("xmcapi_topo");
    xt_good_cases(s);
    xt_bad_cases(s);
    xt_path_cases(s);
}
