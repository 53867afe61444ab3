/* trace_mapping.h: methodMapping.txt, as tc-instrument (and Matrix's
 * plugin) write it: one "id,accessFlags,class method desc" per line, names
 * with '.', '#' comment lines, blank lines; the dispatch pseudo-method is
 * "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V".
 *
 * Only what decoding needs is kept: id -> "class method desc". A malformed
 * line or an id listed twice is an error naming the file and line. */
#ifndef TR_MAPPING_H
#define TR_MAPPING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tc_error.h"
#include "bytes.h"
#include "tc_runtime.h"

typedef struct tr_mapping tr_mapping;

/* How a method is shown. */
typedef enum tr_name_style {
	TR_NAME_FULL,  /* com.example.Main.slowWork (I)V */
	TR_NAME_SHORT, /* com.example.Main.slowWork */
} tr_name_style;

int tr_mapping_load(tr_mapping **out, const char *path, tc_error *err);
/* Reads from f; name is used in messages. */
int tr_mapping_read(tr_mapping **out, FILE *f, const char *name, tc_error *err);
/* An empty mapping (every id shows as #id). */
int tr_mapping_empty(tr_mapping **out, tc_error *err);
void tr_mapping_free(tr_mapping *m);

size_t tr_mapping_size(const tr_mapping *m);
/* The build id of the file read (mapfile/method_mapping.h: what tc-instrument wrote to
 * buildId and its output's marker, and the runtime records); 0 for tr_mapping_empty. */
uint64_t tr_mapping_build_id(const tr_mapping *m);
/* Names a pseudo-method the recording defines (a section, a thread's node in
 * a tree of all threads): shown as given in either style, before any entry
 * of the file with that id. name is copied; naming an id again renames it. */
int tr_mapping_name(tr_mapping *m, uint32_t id, const char *name, tc_error *err);
/* "class method desc" as the file has it, or NULL. */
const char *tr_mapping_lookup(const tr_mapping *m, uint32_t id);
/* Appends the method's display name, or "#id" for an id with no entry
 * (m may be NULL). */
void tr_name_put(tc_buf *sb, const tr_mapping *m, uint32_t id, tr_name_style style);

#endif
