/* Files mapped for reading, guarded against being cut short while mapped.
 *
 * A page of a mapped file past its end (another process truncated it: a build still
 * writing the jar) faults with SIGBUS, which would end the run with no message and its
 * staged outputs left behind. A mapping registered here is guarded: such a fault maps a
 * page of zeros in its place (the reader then sees bytes that fail its checks, or copies
 * zeros) and marks the mapping damaged; the reader asks map_guard_damaged before it
 * trusts what it read, and fails with a clear error, so that nothing is committed and
 * every stage is removed as after any failure. A SIGBUS at any other address is what it
 * was: the default action (a crash), not hidden.
 *
 * The registry is process-wide (a signal handler has no other way to reach it, as
 * bhook's task list), a fixed table of slots; a mapping that finds no free slot is
 * simply not guarded. */
#ifndef TC_MAP_GUARD_H
#define TC_MAP_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* Guards [addr, addr + len) (installs the handler on first use); returns a slot, or
 * -1 when none is free or the handler cannot be installed (then unguarded). */
int map_guard_add(const void *addr, size_t len);
/* Whether a fault in slot's range was answered with zeros since map_guard_add. */
bool map_guard_damaged(int slot);
/* The range is unmapped (or about to be): no longer guarded. slot may be -1. */
void map_guard_remove(int slot);

#endif
