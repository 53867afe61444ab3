/* The test tools' one way to read a whole input file (tc-dexstress, tc-dexverify,
 * trace-check): base's reader, with its message on stderr. */
#ifndef TC_TOOL_READ_H
#define TC_TOOL_READ_H

#include <stddef.h>
#include <stdint.h>

/* The whole of PATH, malloc'd, with a NUL after its *LEN bytes (so text can be read as a
 * string); NULL with the reason on stderr ("PATH: cannot open: ..."). */
uint8_t *tool_read_file(const char *path, size_t *len);

#endif
