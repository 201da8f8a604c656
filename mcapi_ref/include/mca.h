/*
 * mca.h -- Multicore Association common types (MCA, as used by MCAPI 2.0).
 *
 * Names and values follow the Multicore Association's mca.h that MCAPI
 * V2.015 programs include; this file is ipcsim's own.
 */
#ifndef MCA_H
#define MCA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int mca_int_t;
typedef int8_t mca_int8_t;
typedef int16_t mca_int16_t;
typedef int32_t mca_int32_t;
typedef int64_t mca_int64_t;
typedef unsigned int mca_uint_t;
typedef uint8_t mca_uint8_t;
typedef uint16_t mca_uint16_t;
typedef uint32_t mca_uint32_t;
typedef uint64_t mca_uint64_t;
typedef unsigned char mca_boolean_t;
typedef unsigned int mca_node_t;
typedef unsigned int mca_status_t;
typedef unsigned int mca_timeout_t;
typedef unsigned int mca_domain_t;

#define MCA_TRUE 1
#define MCA_FALSE 0
#define MCA_NULL 0
#define MCA_INFINITE (~0)
#define MCA_RETURN_VALUE_INVALID (~0)
#define MCA_NODE_INVALID (~0)
#define MCA_DOMAIN_INVALID (~0)

/* Parameter direction markers of the specification's prototypes. */
#ifndef MCA_IN
#define MCA_IN const
#endif
#ifndef MCA_OUT
#define MCA_OUT
#endif

#ifdef __GNUC__
#define MCA_DECL_ALIGNED __attribute__((aligned(32)))
#else
#define MCA_DECL_ALIGNED
#endif

/* Organization ids (for organization-specific attribute ranges). */
#define MCA_ORG_ID_PSI 0 /* PolyCore Software */
#define MCA_ORG_ID_FSL 1 /* Freescale */
#define MCA_ORG_ID_MGC 2 /* Mentor Graphics */
#define MCA_ORG_ID_TBA 3 /* to be assigned */

#ifdef __cplusplus
}
#endif
#endif
