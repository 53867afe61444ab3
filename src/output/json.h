/* A small JSON writer for the statistics file: objects, arrays, strings (escaped per
 * RFC 8259), integers and numbers, with commas and indentation handled here. */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json {
	FILE *out;
	int depth;
	bool first[32]; /* per depth: nothing written yet at this level */
} json;

void json_init(json *j, FILE *out);
void json_begin(json *j, const char *key, char open); /* '{' or '['; key NULL in arrays/top */
void json_end(json *j, char close);
void json_str(json *j, const char *key, const char *value);
void json_u64(json *j, const char *key, uint64_t value);
void json_num(json *j, const char *key, double value);
void json_bool(json *j, const char *key, bool value);

#endif
