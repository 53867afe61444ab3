/* Field and method descriptors (JVMS 4.3), read without allocation. */
#ifndef TC_DESC_H
#define TC_DESC_H

#include <stdbool.h>
#include <stdint.h>

/* The end of the field type starting at s[pos], or 0 when none is there. Array
 * dimensions are limited to 255 (JVMS 4.3.2). */
uint32_t cf_desc_type_end(const uint8_t *s, uint32_t len, uint32_t pos);

/* Words a value of the type starting with c takes: 2 for J and D, 0 for V, else 1. */
static inline int cf_desc_words(uint8_t c)
{
	return c == 'J' || c == 'D' ? 2 : c == 'V' ? 0 : 1;
}

bool cf_desc_field_valid(const uint8_t *s, uint32_t len);

typedef struct cf_desc_method {
	uint32_t nargs;      /* parameters */
	uint32_t arg_words;  /* their words (longs and doubles count 2) */
	uint32_t ret_pos;    /* offset of the return type */
	int ret_words;       /* 0 for V */
} cf_desc_method;

/* Parses "(args)ret"; false when malformed. */
bool cf_desc_parse_method(const uint8_t *s, uint32_t len, cf_desc_method *out);

#endif
