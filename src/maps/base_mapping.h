/* An earlier build's methodMapping.txt, by key ("class method desc"), for
 * --base-mapping and `tc-instrument diff`. Its lines are read by mapfile/ (the format). */
#ifndef TC_BASE_MAPPING_H
#define TC_BASE_MAPPING_H

#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "method_mapping.h"

typedef struct mapping mapping;

/* Reads a mapping (a regular file of at most TC_MAX_INPUT_MB). Malformed lines are
 * errors naming the line (Matrix silently stopped reading there), as are a key listed
 * twice and an id of 0 or at least MM_ID_MAX. */
int mapping_load(mapping **out, const char *path, tc_error *err);
/* The same from text in memory; label names it in errors. */
int mapping_parse(mapping **out, const char *text, size_t len, const char *label, tc_error *err);
void mapping_free(mapping *m);

/* The id of a key, or 0. */
uint32_t mapping_id(const mapping *m, const char *key);
/* The largest id other than the dispatch id; 0 for an empty mapping. */
uint32_t mapping_max_id(const mapping *m);
size_t mapping_size(const mapping *m);

/* Compares two mappings and prints "changed", "added" and "removed" lines to out, then
 * a summary. *changed is the number of keys present in both whose id differs. */
int mapping_diff(const mapping *old, const mapping *new_, FILE *out, size_t *changed,
                 tc_error *err);

#endif
