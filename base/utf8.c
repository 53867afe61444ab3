/* utf8.c: see utf8.h. */
#include "utf8.h"

size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp_out)
{
	unsigned char c = avail ? p[0] : 0;
	*cp_out = c;
	if (avail == 0)
		return 0;
	if (c < 0x80)
		return 1;
	size_t n;
	uint32_t cp;
	if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
	else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
	else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
	else return 0;
	/* byte by byte, so a C string's NUL stops the read before its end */
	for (size_t i = 1; i < n; i++) {
		if (i >= avail || (p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	*cp_out = cp;
	return n;
}

size_t utf8_encode(uint32_t cp, char b[4])
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	b[0] = (char)(0xF0 | (cp >> 18));
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	b[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}
