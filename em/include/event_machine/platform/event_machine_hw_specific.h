/*
 * event_machine_hw_specific.h -- event type helpers and core masks.
 */
#ifndef EVENT_MACHINE_HW_SPECIFIC_H
#define EVENT_MACHINE_HW_SPECIFIC_H

#ifdef __cplusplus
extern "C" {
#endif

static inline em_event_type_t em_event_type_major(em_event_type_t type)
{
    return type & 0xFF000000;
}

static inline em_event_type_t em_event_type_minor(em_event_type_t type)
{
    return type & 0x00FFFFFF;
}

/* Core masks: sets of EM core ids 0 .. EM_MAX_CORES-1. A core out of range
 * is ignored by the setters and reads as not set. */
void em_core_mask_zero(em_core_mask_t *mask);
void em_core_mask_set(int core, em_core_mask_t *mask);
void em_core_mask_clr(int core, em_core_mask_t *mask);
int em_core_mask_isset(int core, const em_core_mask_t *mask);
int em_core_mask_iszero(const em_core_mask_t *mask);
int em_core_mask_equal(const em_core_mask_t *mask1, const em_core_mask_t *mask2);
/* Set cores 0 .. count-1 (in addition to those already set). */
void em_core_mask_set_count(int count, em_core_mask_t *mask);
void em_core_mask_copy(em_core_mask_t *dst, const em_core_mask_t *src);
int em_core_mask_count(const em_core_mask_t *mask);
/* The n-th set core (n from 0), -1 if fewer are set. */
int em_core_mask_idx(int n, const em_core_mask_t *mask);
void em_core_mask_and(em_core_mask_t *dst, const em_core_mask_t *src1, const em_core_mask_t *src2);
void em_core_mask_or(em_core_mask_t *dst, const em_core_mask_t *src1, const em_core_mask_t *src2);
void em_core_mask_xor(em_core_mask_t *dst, const em_core_mask_t *src1, const em_core_mask_t *src2);

#ifdef __cplusplus
}
#endif
#endif
