/* utf8.h: the one UTF-8 decoder and encoder (RFC 3629), for the JSON writer
 * and reader and tc-trace's XML. The formats' own encodings (the class file's
 * and dex's modified UTF-8) stay with their formats. */
#ifndef TC_BASE_UTF8_H
#define TC_BASE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1..4) of the valid UTF-8 sequence at p, reading at most avail
 * bytes, or 0 where it is invalid: a stray or missing continuation byte
 * (a NUL terminator counts as missing, so pass SIZE_MAX for a C string),
 * an overlong form, a surrogate, a value past U+10FFFF. *cp gets the code
 * point (the lead byte where invalid). */
size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp);

/* Writes cp (at most U+10FFFF, no surrogate) as 1..4 bytes to out; returns
 * the count. */
size_t utf8_encode(uint32_t cp, char out[4]);

#endif
