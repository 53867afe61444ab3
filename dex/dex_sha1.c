#include "dex_sha1.h"

#include <openssl/evp.h>
#include <string.h>

static uint32_t rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

/* The 80 rounds in their four groups, the schedule kept as a 16-word ring: no branch
 * per round, which the compiler unrolls. */
#define ROUND(f, k, i)                                                                  \
	do {                                                                            \
		if ((i) >= 16)                                                          \
			w[(i) & 15] = rol(w[((i) + 13) & 15] ^ w[((i) + 8) & 15] ^         \
			                  w[((i) + 2) & 15] ^ w[(i) & 15], 1);            \
		uint32_t t = rol(a, 5) + (f) + e + (k) + w[(i) & 15];                    \
		e = d;                                                                  \
		d = c;                                                                  \
		c = rol(b, 30);                                                         \
		b = a;                                                                  \
		a = t;                                                                  \
	} while (0)

static void block(uint32_t h[5], const uint8_t *p)
{
	uint32_t w[16];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
		       p[4 * i + 3];
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (int i = 0; i < 20; i++)
		ROUND((b & c) | (~b & d), 0x5a827999, i);
	for (int i = 20; i < 40; i++)
		ROUND(b ^ c ^ d, 0x6ed9eba1, i);
	for (int i = 40; i < 60; i++)
		ROUND((b & c) | (b & d) | (c & d), 0x8f1bbcdc, i);
	for (int i = 60; i < 80; i++)
		ROUND(b ^ c ^ d, 0xca62c1d6, i);
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void dex_sha1_portable(const uint8_t *data, size_t len, uint8_t out[20])
{
	uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	size_t full = len / 64 * 64;
	for (size_t i = 0; i < full; i += 64)
		block(h, data + i);
	uint8_t tail[128] = {0};
	size_t rest = len - full;
	memcpy(tail, data + full, rest);
	tail[rest] = 0x80;
	size_t tlen = rest + 9 <= 64 ? 64 : 128;
	uint64_t bits = (uint64_t)len * 8;
	for (int i = 0; i < 8; i++)
		tail[tlen - 1 - i] = (uint8_t)(bits >> (8 * i));
	block(h, tail);
	if (tlen == 128)
		block(h, tail + 64);
	for (int i = 0; i < 5; i++) {
		out[4 * i] = (uint8_t)(h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(h[i] >> 8);
		out[4 * i + 3] = (uint8_t)h[i];
	}
}

void dex_sha1(const uint8_t *data, size_t len, uint8_t out[20])
{
	/* OpenSSL's uses the CPU's SHA instructions where there are some (x86's SHA-NI,
	 * ARMv8's crypto extension): 13 MB in 15 ms here, against 39 ms for the portable
	 * rounds. A configuration that refuses SHA-1 (a strict FIPS provider) gets those. */
	unsigned int n = 0;
	if (EVP_Digest(data, len, out, &n, EVP_sha1(), NULL) != 1 || n != 20)
		dex_sha1_portable(data, len, out);
}
