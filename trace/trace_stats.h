/* trace_stats.h: the statistics of `tc-trace compare` (trace_compare.h): the
 * Mann-Whitney U test (Wilcoxon rank-sum) on two samples, its effect size, the
 * Hodges-Lehmann shift with a confidence interval, and Holm's correction for
 * testing many methods at once.
 *
 * Why a rank test: per-recording times of one method are skewed (GC, a cold
 * cache, a slow disk) and few (a developer records a handful of launches per
 * build); the U test assumes no distribution and is not moved by one outlier.
 *
 * Conventions follow scipy.stats.mannwhitneyu(b, a, alternative='two-sided'):
 * U counts the pairs (a_i, b_j) with b_j > a_i, a tie counting one half. The
 * p-value is exact (the distribution of U by counting, Mann and Whitney 1947)
 * when neither sample has more than TR_MWU_EXACT_MAX values and no value is
 * tied; otherwise the normal approximation with the tie correction of the
 * variance and a continuity correction of 0.5. */
#ifndef TR_STATS_H
#define TR_STATS_H

#include <stddef.h>

#define TR_MWU_EXACT_MAX 25

typedef struct tr_mwu {
	double u;       /* U of b: pairs with b > a, ties 1/2 */
	double p;       /* two-sided; 1 when a sample is empty */
	int exact;      /* 1: p from the exact distribution, 0: normal approximation */
	double effect;  /* Cliff's delta (the rank-biserial correlation), 2U/(na nb) - 1: +1 every b
	                   above every a, -1 every b below, 0 as many pairs either way */
} tr_mwu;

/* The test of b against a. Returns 0, or -1 when out of memory. */
int tr_mwu_test(const double *a, size_t na, const double *b, size_t nb, tr_mwu *out);

/* The smallest two-sided p-value the exact test can give for these sizes
 * (2 / C(na + nb, na), at most 1): below alpha, nothing can be significant. */
double tr_mwu_min_p(size_t na, size_t nb);

/* The Hodges-Lehmann estimate of the shift b - a (the median of the na*nb
 * differences b_j - a_i) and its confidence interval at level `conf` (e.g.
 * 0.95), from the order statistics of the differences that the normal
 * approximation of U gives (Lehmann 1975; the interval is wider for small
 * samples, where it may be the whole range). Returns 0, or -1 when out of
 * memory; with an empty sample all three are 0. */
int tr_hl_shift(const double *a, size_t na, const double *b, size_t nb, double conf, double *shift, double *lo,
                double *hi);

/* Holm's step-down correction of n p-values (in place: each becomes its
 * adjusted value, min(1, max over the steps of (n - k) p_(k))): rejecting where
 * the adjusted value is below alpha keeps the chance of any false finding
 * among the n below alpha. Returns 0, or -1 when out of memory. */
int tr_holm(double *p, size_t n);

/* The upper tail of the standard normal distribution, P(Z > z). */
double tr_norm_sf(double z);
/* Its inverse for 0 < q < 1: the z with P(Z > z) = q. */
double tr_norm_isf(double q);

/* The comparison of two Poisson rates, k_a events over exposure e_a against
 * k_b over e_b (report counts over devices): given k_a + k_b, k_b is
 * Binomial(k_a + k_b, e_b / (e_a + e_b)) when the rates are equal, and p is
 * that binomial's exact two-sided p-value (the outcomes no more likely than
 * k_b, as scipy.stats.binomtest). 1 when k_a + k_b is 0. */
double tr_rate_test(double ka, double ea, double kb, double eb);

#endif
