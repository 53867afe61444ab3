/* What every fuzz target shares: libFuzzer's entry point and the invariant check,
 * which aborts like a crash so that libFuzzer and replay.c both report it. */
#ifndef TC_FUZZ_H
#define TC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "fuzz invariant broken at %s:%d: %s\n", __FILE__, \
			        __LINE__, #cond);                                         \
			abort();                                                          \
		}                                                                         \
	} while (0)

#endif
