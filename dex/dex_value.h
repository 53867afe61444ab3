/* The encoded structures that carry indices inside raw bytes: encoded_value,
 * encoded_array, encoded_annotation, and debug_info_item's state machine.
 *
 * One walker per structure does both jobs, so that validation and rewriting cannot
 * disagree: with out == NULL it checks every byte and index range (the reader); with an
 * output buffer it also re-encodes every index through the maps (the writer). A map
 * that is NULL is the identity. Re-encoded index values use the minimal size. */
#ifndef TC_DEX_VALUE_H
#define TC_DEX_VALUE_H

#include <stdint.h>

#include "bytes.h"

enum dv_kind { DV_STRING, DV_TYPE, DV_PROTO, DV_FIELD, DV_METHOD, DV_MHANDLE, DV_KINDS };

typedef struct dv_ctx {
	uint32_t limit[DV_KINDS];     /* index counts, for range checks */
	const uint32_t *map[DV_KINDS]; /* model -> file, or NULL */
} dv_ctx;

static inline uint32_t dv_map(const dv_ctx *c, enum dv_kind k, uint32_t idx)
{
	return c->map[k] ? c->map[k][idx] : idx;
}

/* encoded_value, encoded_array (uleb size, values), encoded_annotation (uleb type,
 * uleb size, (uleb name, value)...). depth bounds the nesting. */
int dv_value(tc_reader *r, tc_buf *out, const dv_ctx *c, int depth);
int dv_array(tc_reader *r, tc_buf *out, const dv_ctx *c, int depth);
int dv_annotation(tc_reader *r, tc_buf *out, const dv_ctx *c, int depth);

/* A debug_info_item. With addr_map (code-unit address old -> new, naddr + 1 entries:
 * addresses 0..naddr inclusive), addresses are relocated as well; then advance_pc and
 * special opcodes are re-encoded. */
int dv_debug(tc_reader *r, tc_buf *out, const dv_ctx *c, const uint32_t *addr_map, uint32_t naddr);

#endif
