/* SHA-1 (FIPS 180-4), for the dex header's signature field only: ART never checks it,
 * but every tool that writes dex files fills it in, and so do we. */
#ifndef TC_DEX_SHA1_H
#define TC_DEX_SHA1_H

#include <stddef.h>
#include <stdint.h>

/* OpenSSL's SHA-1 (EVP), or the portable one below where OpenSSL refuses it. */
void dex_sha1(const uint8_t *data, size_t len, uint8_t out[20]);
/* The same in portable C: FIPS 180-4's rounds. */
void dex_sha1_portable(const uint8_t *data, size_t len, uint8_t out[20]);

#endif
