/* libtc_hookcaller_*.so: a library that imports tc_target_add from
 * libtc_hooktarget.so in each way a library can, built with several link
 * options (meson.build): a call through the PLT (a jump slot; with -fno-plt a
 * GLOB_DAT load), the address taken (GLOB_DAT), and a pointer in initialized
 * read-only data (an absolute word relocation, in .data.rel.ro: RELRO). */
typedef int (*add_fn)(int, int);

int tc_target_add(int a, int b);
int tc_target_sub(int a, int b);

int caller_add(int a, int b);
int caller_sub(int a, int b);
add_fn caller_addr(void);
int caller_add_table(int a, int b);
add_fn caller_table_entry(void);
const void *caller_table_addr(void);

static add_fn const table[1] = { tc_target_add };

int caller_add(int a, int b)
{
	return tc_target_add(a, b);
}

/* another import of the same library, never hooked */
int caller_sub(int a, int b)
{
	return tc_target_sub(a, b);
}

add_fn caller_addr(void)
{
	return tc_target_add;
}

/* read through volatile, or the compiler calls tc_target_add directly */
add_fn caller_table_entry(void)
{
	add_fn const volatile *t = table;
	return t[0];
}

int caller_add_table(int a, int b)
{
	return caller_table_entry()(a, b);
}

const void *caller_table_addr(void)
{
	return table;
}
