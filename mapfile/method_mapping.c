#include "method_mapping.h"

#include <stdio.h>
#include <string.h>

size_t mm_line_len(const char *s, size_t n)
{
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	return n == 0 || s[0] == '#' ? 0 : n;
}

/* Decimal digits only, at most ten, no sign: what Matrix's plugin writes. */
static int parse_u32(const char *s, size_t n, uint32_t *out)
{
	if (n == 0 || n > 10)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int mm_parse_line(mm_line *out, const char *s, size_t n, char *why, size_t cap)
{
	const char *c1 = memchr(s, ',', n);
	const char *c2 = c1 ? memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - s)) : NULL;
	if (!c2 || parse_u32(s, (size_t)(c1 - s), &out->id) != 0 ||
	    parse_u32(c1 + 1, (size_t)(c2 - c1 - 1), &out->access) != 0) {
		snprintf(why, cap, "expected \"id,accessFlags,class method desc\", got \"%.*s\"",
		         (int)(n > 80 ? 80 : n), s);
		return -1;
	}
	/* 0 is no id, and an id at METHOD_ID_MAX or above is none of Matrix's (continuing
	 * after it would wrap to 0) */
	if (out->id == 0 || out->id >= MM_ID_MAX) {
		snprintf(why, cap, "method id %u is outside 1..%u", out->id, MM_ID_MAX - 1);
		return -1;
	}
	const char *key = c2 + 1;
	size_t klen = n - (size_t)(key - s);
	const char *sp = memchr(key, ' ', klen);
	if (!sp || sp == key || sp + 1 == key + klen || sp[1] == ' ') {
		snprintf(why, cap, "expected \"class method desc\" after the id and flags");
		return -1;
	}
	/* Keys are looked up and shown as C strings: a NUL inside one would make a method
	 * differ from itself (found by fuzz_text.c). */
	if (memchr(key, '\0', klen)) {
		snprintf(why, cap, "NUL byte in the method name");
		return -1;
	}
	out->key = key;
	out->key_len = klen;
	return 0;
}

static void put_uint(tc_buf *b, uint32_t v)
{
	char d[10];
	size_t n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		buf_u1(b, (uint8_t)d[--n]);
}

void mm_put_entry(tc_buf *b, uint32_t id, uint32_t access, const char *cls, size_t cls_len,
                  const char *rest, size_t rest_len)
{
	put_uint(b, id);
	buf_u1(b, ',');
	put_uint(b, access);
	buf_u1(b, ',');
	mm_put_ignored(b, cls, cls_len, rest, rest_len);
}

void mm_put_ignored(tc_buf *b, const char *cls, size_t cls_len, const char *rest, size_t rest_len)
{
	buf_bytes(b, cls, cls_len);
	buf_u1(b, ' ');
	buf_bytes(b, rest, rest_len);
	buf_u1(b, '\n');
}

/* One word of a class or method name: none of the characters that end one. */
static bool name_ok(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t' || s[i] == ';' || s[i] == '[' || s[i] == '(')
			return false;
	return true;
}

size_t mm_parse_key(const char *s, size_t n, char *out)
{
	const char *f[3];
	size_t len[3], k = 0;
	for (size_t i = 0; i < n;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			break;
		if (k == 3)
			return 0;
		f[k] = s + i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		len[k] = (size_t)(s + i - f[k]);
		k++;
	}
	if (k != 3 || !name_ok(f[0], len[0]) || !name_ok(f[1], len[1]) || f[2][0] != '(')
		return 0;
	/* the class and the descriptor dotted, as the mapping writes them; the name as is */
	size_t o = 0;
	for (size_t j = 0; j < 3; j++) {
		if (j)
			out[o++] = ' ';
		for (size_t i = 0; i < len[j]; i++)
			out[o++] = j != 1 && f[j][i] == '/' ? '.' : f[j][i];
	}
	out[o] = '\0';
	return o;
}

void mm_put_keepmethod(tc_buf *b, const char *key, size_t key_len)
{
	buf_puts(b, MM_KEEPMETHOD " ");
	buf_putn(b, key, key_len);
	buf_putc(b, '\n');
}

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

void mm_build_id_init(mm_build_id *b)
{
	b->h = FNV_OFFSET;
}

void mm_build_id_line(mm_build_id *b, const char *s, size_t n)
{
	n = mm_line_len(s, n);
	if (n == 0)
		return;
	uint64_t h = b->h;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * FNV_PRIME;
	b->h = (h ^ '\n') * FNV_PRIME;
}

void mm_build_id_text(mm_build_id *b, const char *s, size_t n)
{
	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;
		mm_build_id_line(b, s, len);
		if (!nl)
			break;
		n -= len + 1;
		s = nl + 1;
	}
}

/* FNV-1a's last bytes reach only the low bits; the mix (splitmix64's finalizer)
 * spreads every input bit over the whole id, which is shown as hex. */
uint64_t mm_build_id_final(const mm_build_id *b)
{
	uint64_t z = b->h;
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return z ? z : 1;
}

void mm_build_id_hex(uint64_t id, char out[MM_BUILD_ID_HEX])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 15; i >= 0; i--, id >>= 4)
		out[i] = digits[id & 15];
	out[16] = '\0';
}

int mm_build_id_parse(const char *s, size_t n, uint64_t *out)
{
	if (n == 0 || n > 16)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}
