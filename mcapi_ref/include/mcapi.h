/*
 * mcapi.h -- the Multicore Communications API, version 2.0 (V2.015).
 *
 * Names, types, constants, attribute numbers and status codes are those of
 * the Multicore Association's specification, so that MCAPI 2.0 programs
 * compile unchanged; the text of this file is ipcsim's own. What the
 * specification leaves to the implementation is in mcapi_impl_spec.h;
 * docs/mcapi.md describes the implementation and its deviations.
 *
 * Every call reports through its last argument, *mcapi_status: MCAPI_SUCCESS,
 * MCAPI_PENDING (an _i call whose request is still outstanding),
 * MCAPI_TIMEOUT, or an MCAPI_ERR_* code. A NULL mcapi_status makes the call
 * do nothing.
 */
#ifndef MCAPI_H
#define MCAPI_H

#include <stddef.h>

#include "mca.h"
#include "mcapi_impl_spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef mca_int_t mcapi_int_t;
typedef mca_int8_t mcapi_int8_t;
typedef mca_int16_t mcapi_int16_t;
typedef mca_int32_t mcapi_int32_t;
typedef mca_int64_t mcapi_int64_t;
typedef mca_uint_t mcapi_uint_t;
typedef mca_uint8_t mcapi_uint8_t;
typedef mca_uint16_t mcapi_uint16_t;
typedef mca_uint32_t mcapi_uint32_t;
typedef mca_uint64_t mcapi_uint64_t;
typedef mca_boolean_t mcapi_boolean_t;
typedef mca_domain_t mcapi_domain_t;
typedef mca_node_t mcapi_node_t;
typedef unsigned int mcapi_port_t;
typedef mca_status_t mcapi_status_t;
typedef mca_timeout_t mcapi_timeout_t;
typedef unsigned int mcapi_priority_t;

#define MCAPI_VERSION 2015 /* 2.015: major * 1000 + minor */
#define MCAPI_TRUE MCA_TRUE
#define MCAPI_FALSE MCA_FALSE
#define MCAPI_NULL MCA_NULL
#define MCAPI_PORT_ANY (~0)                            /* endpoint_create: the lowest free port */
#define MCAPI_TIMEOUT_INFINITE (~0)                    /* wait forever */
#define MCAPI_TIMEOUT_IMMEDIATE 0                      /* do not wait */
#define MCAPI_NODE_INVALID (~0)                        /* returned for an invalid node */
#define MCAPI_DOMAIN_INVALID (~0)                      /* returned for an invalid domain */
#define MCAPI_RETURN_VALUE_INVALID (~0)                /* returned with an error */
#define MCAPI_MAX_PRORITY 0                            /* (sic) the highest priority */
#define MCAPI_MAX_STATUS_MSG_LEN 32                    /* enough for mcapi_display_status */
#define MCAPI_MAX_STATUS_SIZE MCAPI_MAX_STATUS_MSG_LEN /* the reference's name */

#ifndef MCAPI_IN
#define MCAPI_IN const
#endif
#ifndef MCAPI_OUT
#define MCAPI_OUT
#endif
#ifndef MCAPI_DECL_ALIGNED
#define MCAPI_DECL_ALIGNED MCA_DECL_ALIGNED
#endif
#ifndef MCAPI_BUF_ALIGN
#define MCAPI_BUF_ALIGN 0
#endif

/* Status codes (values 1..43 in the specification's order). */
enum mcapi_status_codes {
    MCAPI_SUCCESS = 1,           /* the operation succeeded */
    MCAPI_PENDING,               /* a non-blocking operation is still outstanding */
    MCAPI_TIMEOUT,               /* the operation timed out */
    MCAPI_ERR_PARAMETER,         /* an incorrect parameter (NULL pointer, ...) */
    MCAPI_ERR_DOMAIN_INVALID,    /* not a valid domain */
    MCAPI_ERR_NODE_INVALID,      /* not a valid node */
    MCAPI_ERR_NODE_INITFAILED,   /* the node could not be initialised */
    MCAPI_ERR_NODE_INITIALIZED,  /* the node is already initialised */
    MCAPI_ERR_NODE_NOTINIT,      /* the node is not initialised */
    MCAPI_ERR_NODE_FINALFAILED,  /* the node could not be finalised */
    MCAPI_ERR_PORT_INVALID,      /* not a valid port */
    MCAPI_ERR_ENDP_INVALID,      /* not a valid endpoint */
    MCAPI_ERR_ENDP_EXISTS,       /* the endpoint already exists */
    MCAPI_ERR_ENDP_GET_LIMIT,    /* too many outstanding gets of the endpoint */
    MCAPI_ERR_ENDP_DELETED,      /* the endpoint has been deleted */
    MCAPI_ERR_ENDP_NOTOWNER,     /* only the creating node may delete it */
    MCAPI_ERR_ENDP_REMOTE,       /* allowed on the node's own endpoints only */
    MCAPI_ERR_ATTR_INCOMPATIBLE, /* endpoints with incompatible attributes */
    MCAPI_ERR_ATTR_SIZE,         /* incorrect attribute size */
    MCAPI_ERR_ATTR_NUM,          /* incorrect attribute number */
    MCAPI_ERR_ATTR_VALUE,        /* incorrect attribute value */
    MCAPI_ERR_ATTR_NOTSUPPORTED, /* attribute not supported */
    MCAPI_ERR_ATTR_READONLY,     /* attribute is read-only */
    MCAPI_ERR_MSG_SIZE,          /* message larger than MCAPI_MAX_MSG_SIZE */
    MCAPI_ERR_MSG_TRUNCATED,     /* message larger than the receive buffer */
    MCAPI_ERR_CHAN_OPEN,         /* a channel is open: not allowed now */
    MCAPI_ERR_CHAN_TYPE,         /* the endpoint is connected with the other channel type */
    MCAPI_ERR_CHAN_DIRECTION,    /* the endpoint is connected in the other direction */
    MCAPI_ERR_CHAN_CONNECTED,    /* an endpoint is already connected */
    MCAPI_ERR_CHAN_OPENPENDING,  /* an open request is pending */
    MCAPI_ERR_CHAN_CLOSEPENDING, /* a close request is pending */
    MCAPI_ERR_CHAN_NOTOPEN,      /* the channel is not open */
    MCAPI_ERR_CHAN_INVALID,      /* not a channel handle */
    MCAPI_ERR_PKT_SIZE,          /* packet larger than MCAPI_MAX_PKT_SIZE */
    MCAPI_ERR_TRANSMISSION,      /* transmission failure */
    MCAPI_ERR_PRIORITY,          /* incorrect priority */
    MCAPI_ERR_BUF_INVALID,       /* not a buffer MCAPI gave out */
    MCAPI_ERR_MEM_LIMIT,         /* out of memory (queues, buffers, tables) */
    MCAPI_ERR_REQUEST_INVALID,   /* not a valid request handle */
    MCAPI_ERR_REQUEST_LIMIT,     /* out of request handles */
    MCAPI_ERR_REQUEST_CANCELLED, /* the request was cancelled */
    MCAPI_ERR_WAIT_PENDING,      /* a wait is pending */
    MCAPI_ERR_GENERAL,           /* another error */
    /* Common extension (the Multicore Association's reference
     * implementation): a scalar received with the wrong width. */
    MCAPI_ERR_SCL_SIZE,
    MCAPI_STATUSCODE_END
};

/* Node attributes. */
enum mcapi_node_attribute_numbers { MCAPI_NODE_ATTR_TYPE, MCAPI_NODE_ATTR_END };
typedef mcapi_uint_t mcapi_node_attr_type_t;
enum mcapi_node_attribute_types { MCAPI_NODE_ATTR_TYPE_REGULAR, MCAPI_NODE_ATTR_TYPE_END };

/* Endpoint attributes. "Channel compatibility" attributes must match for
 * two endpoints to be connected. */
enum mcapi_endp_attribute_numbers {
    MCAPI_ENDP_ATTR_TYPE,             /* message, packet or scalar channel */
    MCAPI_ENDP_ATTR_GET_COUNT,        /* outstanding gets */
    MCAPI_ENDP_ATTR_GET_SOURCE,       /* (domain, node) of the last getter */
    MCAPI_ENDP_ATTR_MAX_PAYLOAD_SIZE, /* channel compatibility */
    MCAPI_ENDP_ATTR_BUFFER_TYPE,      /* FIFO; channel compatibility */
    MCAPI_ENDP_ATTR_MEMORY_TYPE,      /* locality and behaviour at the limit */
    MCAPI_ENDP_ATTR_NUM_PRIORITIES,   /* channel compatibility */
    MCAPI_ENDP_ATTR_PRIORITY,         /* channel compatibility */
    MCAPI_ENDP_ATTR_NUM_SEND_BUFFERS, /* send buffers at the endpoint's priority */
    MCAPI_ENDP_ATTR_NUM_RECV_BUFFERS, /* receive buffers available */
    MCAPI_ENDP_ATTR_ENDP_STATUS,      /* connected, open, ... (flags below) */
    MCAPI_ENDP_ATTR_TIMEOUT,          /* timeout of blocking calls */
    MCAPI_ENDP_ATTR_END
};

typedef mcapi_uint_t mcapi_endp_attr_type_t;
#define MCAPI_ENDP_ATTR_TYPE_MESSAGE 0x00000001 /* default */
#define MCAPI_ENDP_ATTR_TYPE_PKTCHAN 0x00000002
#define MCAPI_ENDP_ATTR_TYPE_SCLCHAN 0x00000004

typedef mcapi_uint_t mcapi_endp_attr_get_count_t;
typedef struct {
    mcapi_domain_t domain_id; /* default MCAPI_DOMAIN_INVALID */
    mcapi_node_t node_id;     /* default MCAPI_NODE_INVALID */
} mcapi_endp_attr_get_source_t;
typedef mcapi_int_t mcapi_endp_attr_max_payload_size_t;

typedef mcapi_uint_t mcapi_endp_attr_buffer_type_t;
enum mcapi_buffer_type { MCAPI_ENDP_ATTR_FIFO_BUFFER };

/* Memory type: locality in the low 16 bits, behaviour in the high 16. */
typedef mcapi_uint_t mcapi_endp_attr_memory_type_t;
enum mcapi_memory_type {
    MCAPI_ENDP_ATTR_LOCAL_MEMORY, /* default */
    MCAPI_ENDP_ATTR_SHARED_MEMORY,
    MCAPI_ENDP_ATTR_REMOTE_MEMORY
};
#define MCAPI_ENDP_ATTR_BLOCK_ON_MEM_LIMIT 0x00000000 /* default */
#define MCAPI_ENDP_ATTR_FAIL_ON_MEM_LIMIT 0x00010000

typedef mcapi_int_t mcapi_endp_attr_num_priorities_t;
typedef mcapi_uint_t mcapi_endp_attr_priority_t; /* 0 (MCAPI_MAX_PRORITY) is highest */
typedef mcapi_int_t mcapi_endp_attr_num_send_buffers_t;
typedef mcapi_uint_t mcapi_endp_attr_num_recv_buffers_t;

/* Endpoint status flags. The specification gives two groups with
 * overlapping values; MCAPI_ENDP_ATTR_ENDP_STATUS reports the first group
 * (CONNECTED .. CLOSE_PENDING) in the low 16 bits and the second (PKTCHAN ..
 * GET_PENDING) shifted into the high 16 bits, the implementation's half:
 * test the second group with (status >> 16) & flag. */
typedef mcapi_uint_t mcapi_endp_attr_status_t;
#define MCAPI_ENDP_ATTR_STATUS_CONNECTED 0x00000001
#define MCAPI_ENDP_ATTR_STATUS_OPEN 0x00000002
#define MCAPI_ENDP_ATTR_STATUS_OPEN_PENDING 0x00000004
#define MCAPI_ENDP_ATTR_STATUS_CLOSE_PENDING 0x00000008
#define MCAPI_ENDP_ATTR_STATUS_PKTCHAN 0x00000001
#define MCAPI_ENDP_ATTR_STATUS_SCLCHAN 0x00000002
#define MCAPI_ENDP_ATTR_STATUS_SEND 0x00000004
#define MCAPI_ENDP_ATTR_STATUS_RECEIVE 0x00000008
#define MCAPI_ENDP_ATTR_STATUS_GET_PENDING 0x00000010

typedef mcapi_timeout_t mcapi_endp_attr_timeout_t; /* default MCAPI_TIMEOUT_INFINITE */

/* Attribute numbers for organisations: the first 64 belong to the MCA. */
#define MCAPI_MAX_NUM_ENDP_ATTRS_MCA 64
#define MCAPI_MAX_NUM_ENDP_ATTRS_OTHER 32
#define mcapi_start_endp_attribute(x)                                                              \
    (MCAPI_MAX_NUM_ENDP_ATTRS_MCA + (x)*MCAPI_MAX_NUM_ENDP_ATTRS_OTHER)
#define mcapi_end_endp_attribute(x)                                                                \
    (MCAPI_MAX_NUM_ENDP_ATTRS_MCA + ((x) + 1) * MCAPI_MAX_NUM_ENDP_ATTRS_OTHER)

/* What mcapi_initialize reports. */
typedef struct {
    mcapi_uint_t mcapi_version;          /* MCAPI_VERSION */
    mcapi_uint_t organization_id;        /* MCAPI_ORG_ID */
    mcapi_uint_t implementation_version; /* MCAPI_IMPL_VERSION */
    mcapi_uint_t number_of_domains;      /* in the topology */
    mcapi_uint_t number_of_nodes;        /* initialised in the domain now */
    mcapi_uint_t number_of_ports;        /* ports the node may use */
} mcapi_info_t;

typedef struct {
    mcapi_uint_t organization_id;
    mcapi_uint_t start_endp_attr_num;
    mcapi_uint_t end_endp_attr_num;
} mcapi__endp_attr_range_t;

/* ---- Nodes ------------------------------------------------------------- */

/* Make the calling thread node node_id of domain domain_id. attributes may
 * be NULL (defaults); init_parameters may be NULL (mcapi_impl_spec.h).
 * MCAPI_ERR_NODE_INITIALIZED if the thread, or another thread, already is
 * that node. */
void mcapi_initialize(MCAPI_IN mcapi_domain_t domain_id, MCAPI_IN mcapi_node_t node_id,
                      MCAPI_IN mcapi_node_attributes_t *mcapi_node_attributes,
                      MCAPI_IN mcapi_param_t *init_parameters, MCAPI_OUT mcapi_info_t *mcapi_info,
                      MCAPI_OUT mcapi_status_t *mcapi_status);
/* Release the node: its endpoints are deleted, its requests cancelled. */
void mcapi_finalize(MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_domain_t mcapi_domain_id_get(MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_node_t mcapi_node_id_get(MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_node_init_attributes(MCAPI_OUT mcapi_node_attributes_t *mcapi_node_attributes,
                                MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_node_get_attribute(MCAPI_IN mcapi_domain_t domain_id, MCAPI_IN mcapi_node_t node_id,
                              MCAPI_IN mcapi_uint_t attribute_num, MCAPI_OUT void *attribute,
                              MCAPI_IN size_t attribute_size,
                              MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_node_set_attribute(MCAPI_OUT mcapi_node_attributes_t *mcapi_node_attributes,
                              MCAPI_IN mcapi_uint_t attribute_num, MCAPI_IN void *attribute,
                              MCAPI_IN size_t attribute_size,
                              MCAPI_OUT mcapi_status_t *mcapi_status);

/* ---- Endpoints --------------------------------------------------------- */

mcapi_endpoint_t mcapi_endpoint_create(MCAPI_IN mcapi_port_t port_id,
                                       MCAPI_OUT mcapi_status_t *mcapi_status);
/* Look up <domain, node, port>; completes when the endpoint exists. */
void mcapi_endpoint_get_i(MCAPI_IN mcapi_domain_t domain_id, MCAPI_IN mcapi_node_t node_id,
                          MCAPI_IN mcapi_port_t port_id, MCAPI_OUT mcapi_endpoint_t *endpoint,
                          MCAPI_OUT mcapi_request_t *request,
                          MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_endpoint_t mcapi_endpoint_get(MCAPI_IN mcapi_domain_t domain_id,
                                    MCAPI_IN mcapi_node_t node_id, MCAPI_IN mcapi_port_t port_id,
                                    MCAPI_IN mcapi_timeout_t timeout,
                                    MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_endpoint_delete(MCAPI_IN mcapi_endpoint_t endpoint,
                           MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_endpoint_get_attribute(MCAPI_IN mcapi_endpoint_t endpoint,
                                  MCAPI_IN mcapi_uint_t attribute_num, MCAPI_OUT void *attribute,
                                  MCAPI_IN size_t attribute_size,
                                  MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_endpoint_set_attribute(MCAPI_IN mcapi_endpoint_t endpoint,
                                  MCAPI_IN mcapi_uint_t attribute_num, MCAPI_IN void *attribute,
                                  MCAPI_IN size_t attribute_size,
                                  MCAPI_OUT mcapi_status_t *mcapi_status);
/* Drop a reference obtained with mcapi_endpoint_get(_i). */
void mcapi_endpoint_release(MCAPI_IN mcapi_endpoint_t endpoint,
                            MCAPI_OUT mcapi_status_t *mcapi_status);

/* ---- Messages (connectionless) ----------------------------------------- */

void mcapi_msg_send_i(MCAPI_IN mcapi_endpoint_t send_endpoint,
                      MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_IN void *buffer,
                      MCAPI_IN size_t buffer_size, MCAPI_IN mcapi_priority_t priority,
                      MCAPI_OUT mcapi_request_t *request, MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_msg_send(MCAPI_IN mcapi_endpoint_t send_endpoint,
                    MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_IN void *buffer,
                    MCAPI_IN size_t buffer_size, MCAPI_IN mcapi_priority_t priority,
                    MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_msg_recv_i(MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_OUT void *buffer,
                      MCAPI_IN size_t buffer_size, MCAPI_OUT mcapi_request_t *request,
                      MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_msg_recv(MCAPI_IN mcapi_endpoint_t receive_endpoint, MCAPI_OUT void *buffer,
                    MCAPI_IN size_t buffer_size, MCAPI_OUT size_t *received_size,
                    MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_uint_t mcapi_msg_available(MCAPI_IN mcapi_endpoint_t receive_endpoint,
                                 MCAPI_OUT mcapi_status_t *mcapi_status);

/* ---- Packet channels --------------------------------------------------- */

void mcapi_pktchan_connect_i(MCAPI_IN mcapi_endpoint_t send_endpoint,
                             MCAPI_IN mcapi_endpoint_t receive_endpoint,
                             MCAPI_OUT mcapi_request_t *request,
                             MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_recv_open_i(MCAPI_OUT mcapi_pktchan_recv_hndl_t *receive_handle,
                               MCAPI_IN mcapi_endpoint_t receive_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_send_open_i(MCAPI_OUT mcapi_pktchan_send_hndl_t *send_handle,
                               MCAPI_IN mcapi_endpoint_t send_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_send_i(MCAPI_IN mcapi_pktchan_send_hndl_t send_handle, MCAPI_IN void *buffer,
                          MCAPI_IN size_t size, MCAPI_OUT mcapi_request_t *request,
                          MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_send(MCAPI_IN mcapi_pktchan_send_hndl_t send_handle, MCAPI_IN void *buffer,
                        MCAPI_IN size_t size, MCAPI_OUT mcapi_status_t *mcapi_status);
/* *buffer receives a buffer owned by MCAPI: give it back with
 * mcapi_pktchan_release. */
void mcapi_pktchan_recv_i(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle,
                          MCAPI_OUT void **buffer, MCAPI_OUT mcapi_request_t *request,
                          MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_recv(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle, MCAPI_OUT void **buffer,
                        MCAPI_OUT size_t *received_size, MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_uint_t mcapi_pktchan_available(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle,
                                     MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_release(MCAPI_IN void *buffer, MCAPI_OUT mcapi_status_t *mcapi_status);
/* Whether the buffer could be released now (MCAPI_TRUE) -- the status is a
 * pointer here; some published headers print it by value, an erratum. */
mcapi_boolean_t mcapi_pktchan_release_test(MCAPI_IN void *buffer,
                                           MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_recv_close_i(MCAPI_IN mcapi_pktchan_recv_hndl_t receive_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_pktchan_send_close_i(MCAPI_IN mcapi_pktchan_send_hndl_t send_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status);

/* ---- Scalar channels --------------------------------------------------- */

void mcapi_sclchan_connect_i(MCAPI_IN mcapi_endpoint_t send_endpoint,
                             MCAPI_IN mcapi_endpoint_t receive_endpoint,
                             MCAPI_OUT mcapi_request_t *request,
                             MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_recv_open_i(MCAPI_OUT mcapi_sclchan_recv_hndl_t *receive_handle,
                               MCAPI_IN mcapi_endpoint_t receive_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_send_open_i(MCAPI_OUT mcapi_sclchan_send_hndl_t *send_handle,
                               MCAPI_IN mcapi_endpoint_t send_endpoint,
                               MCAPI_OUT mcapi_request_t *request,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_send_uint64(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                               MCAPI_IN mcapi_uint64_t dataword,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_send_uint32(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                               MCAPI_IN mcapi_uint32_t dataword,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_send_uint16(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                               MCAPI_IN mcapi_uint16_t dataword,
                               MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_send_uint8(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                              MCAPI_IN mcapi_uint8_t dataword,
                              MCAPI_OUT mcapi_status_t *mcapi_status);
/* A scalar sent with another width fails with MCAPI_ERR_SCL_SIZE and stays
 * queued. */
mcapi_uint64_t mcapi_sclchan_recv_uint64(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                         MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_uint32_t mcapi_sclchan_recv_uint32(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                         MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_uint16_t mcapi_sclchan_recv_uint16(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                         MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_uint8_t mcapi_sclchan_recv_uint8(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                       MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_uint_t mcapi_sclchan_available(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                     MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_recv_close_i(MCAPI_IN mcapi_sclchan_recv_hndl_t receive_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status);
void mcapi_sclchan_send_close_i(MCAPI_IN mcapi_sclchan_send_hndl_t send_handle,
                                MCAPI_OUT mcapi_request_t *request,
                                MCAPI_OUT mcapi_status_t *mcapi_status);

/* ---- Requests ---------------------------------------------------------- */

/* MCAPI_FALSE with MCAPI_PENDING while outstanding; MCAPI_TRUE with the
 * operation's status once complete (the request is then freed). *size
 * receives the bytes moved (messages, packets) where that applies. */
mcapi_boolean_t mcapi_test(mcapi_request_t *request, MCAPI_OUT size_t *size,
                           MCAPI_OUT mcapi_status_t *mcapi_status);
mcapi_boolean_t mcapi_wait(mcapi_request_t *request, MCAPI_OUT size_t *size,
                           MCAPI_IN mcapi_timeout_t timeout,
                           MCAPI_OUT mcapi_status_t *mcapi_status);
/* The index of a request of requests[0..number-1] that completed, or
 * MCAPI_RETURN_VALUE_INVALID (timeout or error). */
mcapi_uint_t mcapi_wait_any(MCAPI_IN size_t number, mcapi_request_t **requests,
                            MCAPI_OUT size_t *size, MCAPI_IN mcapi_timeout_t timeout,
                            MCAPI_OUT mcapi_status_t *mcapi_status);
/* A later test or wait reports MCAPI_ERR_REQUEST_CANCELLED. */
void mcapi_cancel(mcapi_request_t *request, MCAPI_OUT mcapi_status_t *mcapi_status);

/* ---- Convenience (common extension) ------------------------------------ */

/* The status's name ("MCAPI_ERR_PARAMETER") into status_message (at most
 * size bytes, NUL included); returns status_message. */
char *mcapi_display_status(mcapi_status_t status, char *status_message, size_t size);

#ifdef __cplusplus
}
#endif
#endif
