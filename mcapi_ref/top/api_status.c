/*
 * top/api_status.c -- mcapi_display_status, the common extension.
 *
 * A pure function of its arguments: it needs no node, charges nothing and
 * may be called from anywhere, even outside a simulated core.
 */
#include "mcapi.h"

#include <string.h>

static const char *const names[MCAPI_STATUSCODE_END] = {
#define NAME(s) [s] = #s
    NAME(MCAPI_SUCCESS),
    NAME(MCAPI_PENDING),
    NAME(MCAPI_TIMEOUT),
    NAME(MCAPI_ERR_PARAMETER),
    NAME(MCAPI_ERR_DOMAIN_INVALID),
    NAME(MCAPI_ERR_NODE_INVALID),
    NAME(MCAPI_ERR_NODE_INITFAILED),
    NAME(MCAPI_ERR_NODE_INITIALIZED),
    NAME(MCAPI_ERR_NODE_NOTINIT),
    NAME(MCAPI_ERR_NODE_FINALFAILED),
    NAME(MCAPI_ERR_PORT_INVALID),
    NAME(MCAPI_ERR_ENDP_INVALID),
    NAME(MCAPI_ERR_ENDP_EXISTS),
    NAME(MCAPI_ERR_ENDP_GET_LIMIT),
    NAME(MCAPI_ERR_ENDP_DELETED),
    NAME(MCAPI_ERR_ENDP_NOTOWNER),
    NAME(MCAPI_ERR_ENDP_REMOTE),
    NAME(MCAPI_ERR_ATTR_INCOMPATIBLE),
    NAME(MCAPI_ERR_ATTR_SIZE),
    NAME(MCAPI_ERR_ATTR_NUM),
    NAME(MCAPI_ERR_ATTR_VALUE),
    NAME(MCAPI_ERR_ATTR_NOTSUPPORTED),
    NAME(MCAPI_ERR_ATTR_READONLY),
    NAME(MCAPI_ERR_MSG_SIZE),
    NAME(MCAPI_ERR_MSG_TRUNCATED),
    NAME(MCAPI_ERR_CHAN_OPEN),
    NAME(MCAPI_ERR_CHAN_TYPE),
    NAME(MCAPI_ERR_CHAN_DIRECTION),
    NAME(MCAPI_ERR_CHAN_CONNECTED),
    NAME(MCAPI_ERR_CHAN_OPENPENDING),
    NAME(MCAPI_ERR_CHAN_CLOSEPENDING),
    NAME(MCAPI_ERR_CHAN_NOTOPEN),
    NAME(MCAPI_ERR_CHAN_INVALID),
    NAME(MCAPI_ERR_PKT_SIZE),
    NAME(MCAPI_ERR_TRANSMISSION),
    NAME(MCAPI_ERR_PRIORITY),
    NAME(MCAPI_ERR_BUF_INVALID),
    NAME(MCAPI_ERR_MEM_LIMIT),
    NAME(MCAPI_ERR_REQUEST_INVALID),
    NAME(MCAPI_ERR_REQUEST_LIMIT),
    NAME(MCAPI_ERR_REQUEST_CANCELLED),
    NAME(MCAPI_ERR_WAIT_PENDING),
    NAME(MCAPI_ERR_GENERAL),
    NAME(MCAPI_ERR_SCL_SIZE),
#undef NAME
};

char *mcapi_display_status(mcapi_status_t status, char *status_message, size_t size)
{
    if (!status_message || !size) return status_message;
    const char *name =
        status < MCAPI_STATUSCODE_END && names[status] ? names[status] : "MCAPI_STATUS_UNKNOWN";
    size_t n = strlen(name);
    if (n >= size) n = size - 1;
    memcpy(status_message, name, n);
    status_message[n] = '\0';
    return status_message;
}
