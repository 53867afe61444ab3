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

/* The kinds of id an encoded value or debug info refers to. */
enum dex_value_kind {
	DEX_VALUE_STRING, DEX_VALUE_TYPE, DEX_VALUE_PROTO, DEX_VALUE_FIELD, DEX_VALUE_METHOD,
	DEX_VALUE_MHANDLE, DEX_VALUE_KINDS
};

typedef struct dex_value_ctx {
	uint32_t limit[DEX_VALUE_KINDS];      /* index counts, for range checks */
	const uint32_t *map[DEX_VALUE_KINDS]; /* model -> file, or NULL */
} dex_value_ctx;

static inline uint32_t dex_value_map(const dex_value_ctx *c, enum dex_value_kind k, uint32_t idx)
{
	return c->map[k] ? c->map[k][idx] : idx;
}

/* encoded_value, encoded_array (uleb size, values), encoded_annotation (uleb type,
 * uleb size, (uleb name, value)...). depth bounds the nesting. */
int dex_value_encoded(tc_reader *r, tc_buf *out, const dex_value_ctx *c, int depth);
int dex_value_array(tc_reader *r, tc_buf *out, const dex_value_ctx *c, int depth);
int dex_value_annotation(tc_reader *r, tc_buf *out, const dex_value_ctx *c, int depth);

/* A debug_info_item. With addr_map (code-unit address old -> new, naddr + 1 entries:
 * addresses 0..naddr inclusive), addresses are relocated as well; then advance_pc and
 * special opcodes are re-encoded. */
int dex_value_debug(tc_reader *r, tc_buf *out, const dex_value_ctx *c, const uint32_t *addr_map, uint32_t naddr);

#endif
