#include "desc.h"

uint32_t cf_desc_type_end(const uint8_t *s, uint32_t len, uint32_t pos)
{
	uint32_t dims = 0;
	while (pos < len && s[pos] == '[') {
		if (++dims > 255)
			return 0;
		pos++;
	}
	if (pos >= len)
		return 0;
	switch (s[pos]) {
	case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
		return pos + 1;
	case 'L': {
		uint32_t start = ++pos;
		while (pos < len && s[pos] != ';') {
			if (s[pos] == '.' || s[pos] == '[')
				return 0;
			pos++;
		}
		return pos < len && pos > start ? pos + 1 : 0;
	}
	}
	return 0;
}

bool cf_desc_field_valid(const uint8_t *s, uint32_t len)
{
	return len > 0 && cf_desc_type_end(s, len, 0) == len;
}

bool cf_desc_parse_method(const uint8_t *s, uint32_t len, cf_desc_method *out)
{
	if (len < 3 || s[0] != '(')
		return false;
	uint32_t pos = 1, nargs = 0, words = 0;
	while (pos < len && s[pos] != ')') {
		uint32_t end = cf_desc_type_end(s, len, pos);
		if (!end)
			return false;
		words += (uint32_t)cf_desc_words(s[pos]);
		nargs++;
		pos = end;
	}
	if (pos >= len)
		return false;
	pos++;
	out->nargs = nargs;
	out->arg_words = words;
	out->ret_pos = pos;
	if (pos + 1 == len && s[pos] == 'V') {
		out->ret_words = 0;
		return true;
	}
	if (cf_desc_type_end(s, len, pos) != len)
		return false;
	out->ret_words = cf_desc_words(s[pos]);
	return true;
}
