/* libtc_hooktarget.so: the library that defines the function the PLT hook
 * tests redirect (test_plthook.c). It counts its own calls, so a test can
 * tell that the original ran behind a hook. */
#include <stdatomic.h>

int tc_target_add(int a, int b);
int tc_target_sub(int a, int b);
int tc_target_calls(void);

static atomic_int calls;

int tc_target_add(int a, int b)
{
	atomic_fetch_add(&calls, 1);
	return a + b;
}

int tc_target_sub(int a, int b)
{
	return a - b;
}

int tc_target_calls(void)
{
	return atomic_load(&calls);
}
