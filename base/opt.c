/* The option table's lookup; see opt.h. */
#include "opt.h"

#include <string.h>

int tc_opt_find(const tc_opt *table, size_t n, const char *name, bool long_only)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, table[i].l) || (!long_only && table[i].s && !strcmp(name, table[i].s)))
			return (int)i;
	return -1;
}
