/* register.c -- suite "xmcapi_wire": XMCAPI headers and the stream decoder.
 * Pure functions: no platform, no backend. */
#include "xw.h"

void tests_register(void)
{
    Suite *s = harness_suite("xmcapi_wire");
    xw_header_cases(s);
    xw_stream_cases(s);
}
