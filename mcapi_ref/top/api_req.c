/*
 * top/api_req.c -- mcapi_test, mcapi_wait, mcapi_wait_any, mcapi_cancel.
 *
 * A finished request -- completed, failed or cancelled -- is reported once
 * (MCAPI_TRUE with its status) and freed; a timeout leaves it as it was.
 * The request of an _i call that failed at once holds no slot: it reports
 * its error, size 0, each time it is tested or waited on.
 */
#include "top.h"

/* Whether *request is a failed _i call's request; if so it is reported:
 * size 0 and its error, or MCAPI_ERR_PARAMETER without size (*done false). */
static bool report_failed(const struct top_node *n, const mcapi_request_t *request, size_t *size,
                          mcapi_status_t *status, mcapi_boolean_t *done)
{
    mcapi_status_t st;
    if (!request || !top_req_failed(n, request, &st)) return false;
    *done = size != NULL;
    *status = size ? st : MCAPI_ERR_PARAMETER;
    if (size) *size = 0;
    return true;
}

/* The request *request names, or NULL with the status to report. */
static struct req *lookup(struct top_node *n, const mcapi_request_t *request,
                          mcapi_status_t *status)
{
    struct req *r = request ? top_req_find(n, request) : NULL;
    if (!r) *status = request ? MCAPI_ERR_REQUEST_INVALID : MCAPI_ERR_PARAMETER;
    return r;
}

mcapi_boolean_t mcapi_test(mcapi_request_t *request, MCAPI_OUT size_t *size,
                           MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_FALSE;
    struct top_node *n = top_enter(mcapi_status);
    mcapi_boolean_t done;
    if (n && report_failed(n, request, size, mcapi_status, &done)) return done;
    struct req *r = n ? lookup(n, request, mcapi_status) : NULL;
    if (!r) return MCAPI_FALSE;
    if (!size) {
        *mcapi_status = MCAPI_ERR_PARAMETER;
        return MCAPI_FALSE;
    }
    if (r->state == REQ_PENDING) top_req_progress(n);
    if (r->state == REQ_PENDING) {
        *mcapi_status = MCAPI_PENDING;
        return MCAPI_FALSE;
    }
    top_req_report(n, r, size, mcapi_status);
    return MCAPI_TRUE;
}

mcapi_boolean_t mcapi_wait(mcapi_request_t *request, MCAPI_OUT size_t *size,
                           MCAPI_IN mcapi_timeout_t timeout, MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_FALSE;
    struct top_node *n = top_enter(mcapi_status);
    mcapi_boolean_t done;
    if (n && report_failed(n, request, size, mcapi_status, &done)) return done;
    struct req *r = n ? lookup(n, request, mcapi_status) : NULL;
    if (!r) return MCAPI_FALSE;
    if (!size) {
        *mcapi_status = MCAPI_ERR_PARAMETER;
        return MCAPI_FALSE;
    }
    if (top_req_await(n, &r, 1, timeout) < 0) {
        *mcapi_status = MCAPI_TIMEOUT;
        return MCAPI_FALSE;
    }
    top_req_report(n, r, size, mcapi_status);
    return MCAPI_TRUE;
}

mcapi_uint_t mcapi_wait_any(MCAPI_IN size_t number, mcapi_request_t **requests,
                            MCAPI_OUT size_t *size, MCAPI_IN mcapi_timeout_t timeout,
                            MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return MCAPI_RETURN_VALUE_INVALID;
    struct top_node *n = top_enter(mcapi_status);
    if (!n) return MCAPI_RETURN_VALUE_INVALID;
    if (!number || number > MCAPI_MAX_REQUESTS || !requests || !size) {
        *mcapi_status = MCAPI_ERR_PARAMETER;
        return MCAPI_RETURN_VALUE_INVALID;
    }
    mcapi_boolean_t reported; /* size is not NULL here: always true */
    for (size_t i = 0; i < number; i++)
        if (report_failed(n, requests[i], size, mcapi_status, &reported)) return (mcapi_uint_t)i;
    struct req *r[MCAPI_MAX_REQUESTS];
    for (size_t i = 0; i < number; i++)
        if (!(r[i] = lookup(n, requests[i], mcapi_status))) return MCAPI_RETURN_VALUE_INVALID;
    int done = top_req_await(n, r, number, timeout);
    if (done < 0) {
        *mcapi_status = MCAPI_TIMEOUT;
        return MCAPI_RETURN_VALUE_INVALID;
    }
    top_req_report(n, r[done], size, mcapi_status);
    return (mcapi_uint_t)done;
}

void mcapi_cancel(mcapi_request_t *request, MCAPI_OUT mcapi_status_t *mcapi_status)
{
    if (!mcapi_status) return;
    struct top_node *n = top_enter(mcapi_status);
    struct req *r = n ? lookup(n, request, mcapi_status) : NULL;
    if (r) *mcapi_status = top_req_cancel(n, r);
}
