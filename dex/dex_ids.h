/* Internal to dex/: where the writer puts each id. */
#ifndef TC_DEX_IDS_H
#define TC_DEX_IDS_H

#include "dex.h"
#include "dex_value.h"

enum {
	DEX_MAP_STRING = DEX_VALUE_STRING, DEX_MAP_TYPE = DEX_VALUE_TYPE,
	DEX_MAP_PROTO = DEX_VALUE_PROTO, DEX_MAP_FIELD = DEX_VALUE_FIELD,
	DEX_MAP_METHOD = DEX_VALUE_METHOD, DEX_MAP_KINDS = DEX_VALUE_METHOD + 1
};

/* Model index -> file index for each id kind; NULL where nothing was added (the
 * identity). The arrays come from a. Fails when a section would pass its limit (65535
 * types or protos, 65536 fields or methods). */
int dex_id_maps(const dex_file *d, arena *a, uint32_t *maps[DEX_MAP_KINDS], tc_error *err);

#endif
