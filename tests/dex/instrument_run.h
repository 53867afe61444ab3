/* tc-instrument run in-process on files of a temporary directory, for the dex tests that
 * go through the whole pipeline (test_dex_instrument.c, test_dex_readback.c). */
#ifndef TC_TEST_INSTRUMENT_RUN_H
#define TC_TEST_INSTRUMENT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "tc_error.h"

/* A fresh directory (a test's .init), and removed (its .fini). */
void ir_setup(void);
void ir_teardown(void);
/* DIR/name, in one of eight buffers used in turn. */
char *ir_path(const char *name);
/* The file DIR/name whole, NUL-terminated (malloc'd), its length without the NUL. */
uint8_t *ir_load(const char *name, size_t *len);
void ir_save(const char *name, const uint8_t *data, size_t len);
/* tc_instrument on the n pairs of names (in, out) in DIR, the mapping directory DIR/map,
 * the default beat class, level 6, quietly, on `threads` threads: its return code, e
 * its error. */
int ir_instrument(const char *const names[][2], size_t n, int threads, tc_error *e);

#endif
