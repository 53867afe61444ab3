/* The statistics of tc-trace compare (trace_stats.h) against values
 * scipy 1.17.1 computed: scipy.stats.mannwhitneyu(b, a, alternative=
 * 'two-sided', method='exact' or 'asymptotic'), scipy.stats.norm, and
 * numpy.median of the pairwise differences; Holm's correction by hand. */
#include <criterion/criterion.h>
#include <math.h>

#include "trace_stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check(const double *a, size_t na, const double *b, size_t nb, double u, double p, int exact)
{
	tr_mwu r;
	cr_assert_eq(tr_mwu_test(a, na, b, nb, &r), 0);
	cr_expect_eq(r.exact, exact, "exact %d, wanted %d", r.exact, exact);
	cr_expect_float_eq(r.u, u, 1e-9, "U %.17g, wanted %.17g", r.u, u);
	cr_expect(fabs(r.p - p) <= 1e-9 * p, "p %.17g, wanted %.17g", r.p, p);
	cr_expect_float_eq(r.effect, 2 * u / (double)(na * nb) - 1, 1e-12);
}

Test(mwu, exact_small)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	check(a, N(a), b, N(b), 25, 0.007936507936507936, 1);
	check(b, N(b), a, N(a), 0, 0.007936507936507936, 1); /* symmetric */
	double c[] = { 3, 1, 4, 1.5, 9 }, d[] = { 2.5, 6, 5.5, 3.5, 8.5 };
	check(c, N(c), d, N(d), 17, 0.42063492063492064, 1);
	double e[] = { 10, 12, 11, 13 }, f[] = { 20, 14, 22 };
	check(e, N(e), f, N(f), 12, 0.05714285714285714, 1);
	double g[] = { 1, 2 }, h[] = { 3, 4 };
	check(g, N(g), h, N(h), 4, 0.3333333333333333, 1);
	double i[] = { 7, 3, 9, 1, 4, 6, 8, 2 }, j[] = { 5, 11, 10, 12, 14, 13, 16, 15 };
	check(i, N(i), j, N(j), 60, 0.0018648018648018648, 1);
}

Test(mwu, exact_20_by_18)
{
	double a[] = { 14.082, 4.889, 10.836, 8.864, 9.095, 9.569, 5.96, 9.536, 8.27, 16.646,
		       10.452, 9.295, 9.437, 8.664, 7.89, 9.218, 10.964, 9.523, 11.916, 9.6 };
	double b[] = { 11.549, 14.592, 12.59, 10.49, 11.134, 12.581, 15.37, 10.961, 11.013,
		       13.505, 9.727, 10.917, 13.265, 12.661, 11.683, 12.84, 5.844, 13.543 };
	check(a, N(a), b, N(b), 294, 0.0005660386459799996, 1);
}

Test(mwu, ties_normal_approximation)
{
	double a[] = { 1, 2, 2, 3, 3, 3, 4 }, b[] = { 3, 4, 4, 5, 5, 6 };
	check(a, N(a), b, N(b), 38.5, 0.012999854364387305, 0);
	double c[] = { 5, 5, 5, 10, 10 }, d[] = { 5, 10, 10, 15, 15 };
	check(c, N(c), d, N(d), 19.5, 0.14610046596342238, 0);
}

Test(mwu, large_normal_approximation)
{
	double a[30], b[25];
	for (int i = 0; i < 30; i++)
		a[i] = 0.1 * (i + 1);
	for (int j = 0; j < 25; j++)
		b[j] = 1.05 + 0.1 * j;
	check(a, N(a), b, N(b), 540, 0.005426564902978312, 0);
}

Test(mwu, degenerate)
{
	double a[] = { 5, 5, 5 }, b[] = { 5, 5 };
	tr_mwu r;
	cr_assert_eq(tr_mwu_test(a, 3, b, 2, &r), 0);
	cr_expect_eq(r.p, 1.0, "every value tied: p 1, got %g", r.p);
	cr_assert_eq(tr_mwu_test(a, 3, b, 0, &r), 0);
	cr_expect_eq(r.p, 1.0);
}

Test(mwu, min_p)
{
	cr_expect_float_eq(tr_mwu_min_p(2, 2), 1.0 / 3, 1e-15);
	cr_expect_float_eq(tr_mwu_min_p(3, 3), 0.1, 1e-15);
	cr_expect_float_eq(tr_mwu_min_p(5, 5), 0.007936507936507936, 1e-15);
	cr_expect_float_eq(tr_mwu_min_p(1, 1), 1.0, 1e-15);
	cr_expect_float_eq(tr_mwu_min_p(8, 8), 2.0 / 12870, 1e-15);
}

Test(norm, tails)
{
	cr_expect_float_eq(tr_norm_sf(1.96), 0.024997895148220435, 1e-15);
	cr_expect_float_eq(tr_norm_sf(-0.5), 0.6914624612740131, 1e-15);
	cr_expect_float_eq(tr_norm_isf(0.025), 1.9599639845400545, 1e-12);
	cr_expect_float_eq(tr_norm_isf(1e-6), 4.753424308822899, 1e-9);
	cr_expect_float_eq(tr_norm_isf(0.975), -1.9599639845400545, 1e-12);
	cr_expect_float_eq(tr_norm_isf(0.5), 0, 1e-12);
}

Test(hl, shift_and_interval)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, s, lo, hi;
	cr_assert_eq(tr_hl_shift(a, N(a), b, N(b), 0.95, &s, &lo, &hi), 0);
	cr_expect_float_eq(s, 5.0, 1e-12);
	/* k = floor(12.5 - 1.96 sqrt(25*11/12)) = 3: the 4th smallest and largest of the 25 differences */
	cr_expect_float_eq(lo, 3.0, 1e-12, "lo %g", lo);
	cr_expect_float_eq(hi, 7.0, 1e-12, "hi %g", hi);
	double e[] = { 10, 12, 11, 13 }, f[] = { 20, 14, 22 };
	cr_assert_eq(tr_hl_shift(e, N(e), f, N(f), 0.95, &s, &lo, &hi), 0);
	cr_expect_float_eq(s, 8.5, 1e-12);
	cr_expect(lo <= s && s <= hi);
}

Test(holm, by_hand)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 };
	cr_assert_eq(tr_holm(p, 4), 0);
	cr_expect_float_eq(p[0], 0.03, 1e-15);
	cr_expect_float_eq(p[1], 0.06, 1e-15);
	cr_expect_float_eq(p[2], 0.06, 1e-15);
	cr_expect_float_eq(p[3], 0.02, 1e-15);
	double q[] = { 0.5, 0.9 };
	cr_assert_eq(tr_holm(q, 2), 0);
	cr_expect_float_eq(q[0], 1.0, 1e-15);
	cr_expect_float_eq(q[1], 1.0, 1e-15);
}

/* against scipy.stats.binomtest(k, n, q).pvalue (the same sums in Python) */
Test(rate, binomial_by_hand)
{
	/* 10 against 25 over equal exposures: Binomial(35, 1/2), 25 */
	cr_expect_float_eq(tr_rate_test(10, 1, 25, 1), 0.01667384780012071, 1e-12);
	/* 7 over 1 against 3 over 2: Binomial(10, 2/3), 3 */
	cr_expect_float_eq(tr_rate_test(7, 1, 3, 2), 0.019661636945587577, 1e-12);
	/* a new stack: 0 against 30 */
	cr_expect_float_eq(tr_rate_test(0, 40, 30, 40), 1.862645149230957e-09, 1e-20);
	cr_expect_float_eq(tr_rate_test(5, 3, 5, 3), 1.0, 1e-12);
	cr_expect_float_eq(tr_rate_test(0, 1, 0, 1), 1.0, 0);
}
