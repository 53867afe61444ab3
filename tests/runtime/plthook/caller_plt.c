/* libtc_hookcaller_plt{only,now}.so: tc_target_add imported through the
 * PLT only (no GLOB_DAT or data word that the loader binds at load time).
 * pltonly is linked -z lazy: with glibc its only slot is unbound until the
 * first call, so the hook engine has to find the original itself; pltnow
 * -z now -z relro: a jump slot in a GOT made read-only (test_plthook.c). */
int tc_target_add(int a, int b);
int caller_add(int a, int b);

int caller_add(int a, int b)
{
	return tc_target_add(a, b);
}
