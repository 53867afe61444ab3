/* trace_stats.c: see trace_stats.h. */
#include "trace_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double tr_norm_sf(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

/* Acklam's rational approximation of the normal quantile (relative error
 * below 1.2e-9), then one Newton step on erfc. */
double tr_norm_isf(double q)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
		                    1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
		                    6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
		                    -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
		                    3.754408661907416e+00 };
	double p = 1.0 - q, x; /* the lower-tail probability */
	if (q <= 0.0)
		return INFINITY;
	if (q >= 1.0)
		return -INFINITY;
	if (p < 0.02425) {
		double t = sqrt(-2.0 * log(p));
		x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
		    ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
	} else if (p <= 1.0 - 0.02425) {
		double t = p - 0.5, r = t * t;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * t /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
	} else {
		double t = sqrt(-2.0 * log(q));
		x = -(((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
		    ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1.0);
	}
	/* Newton on f(x) = sf(x) - q, f'(x) = -pdf(x) */
	double e = tr_norm_sf(x) - q;
	x += e * 2.5066282746310002 * exp(x * x / 2.0); /* sqrt(2 pi) */
	return x;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The number of arrangements of na a's and nb b's with U = u, for every u in
 * 0..na*nb: the coefficients of the Gaussian binomial [na+nb choose na] in q,
 * prod_{i=1..na} (1 - q^(nb+i)) / (1 - q^i), multiplied and divided out term
 * by term (each division is exact). */
static double *u_counts(size_t na, size_t nb)
{
	size_t len = na * nb + 1;
	double *c = calloc(len, sizeof *c);
	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= na; i++) {
		size_t up = nb + i;
		for (size_t k = len; k-- > up;)
			c[k] -= c[k - up];
		for (size_t k = i; k < len; k++)
			c[k] += c[k - i];
	}
	return c;
}

double tr_mwu_min_p(size_t na, size_t nb)
{
	if (!na || !nb)
		return 1.0;
	double total = 1; /* C(na + nb, na), as a double */
	size_t k = na < nb ? na : nb, n = na + nb;
	for (size_t i = 1; i <= k; i++)
		total = total * (double)(n - k + i) / (double)i;
	double p = 2.0 / total;
	return p < 1.0 ? p : 1.0;
}

int tr_mwu_test(const double *a, size_t na, const double *b, size_t nb, tr_mwu *out)
{
	memset(out, 0, sizeof *out);
	out->p = 1.0;
	if (!na || !nb)
		return 0;
	/* ranks of the pooled sample, ties sharing their mean rank */
	size_t n = na + nb;
	struct rv {
		double v;
		size_t from_b;
	} *pool = malloc(n * sizeof *pool);
	if (!pool)
		return -1;
	for (size_t i = 0; i < na; i++)
		pool[i] = (struct rv){ a[i], 0 };
	for (size_t j = 0; j < nb; j++)
		pool[na + j] = (struct rv){ b[j], 1 };
	qsort(pool, n, sizeof *pool, cmp_double); /* v first: compares as a double */
	double rank_b = 0, ties = 0; /* sum of b's ranks; sum of t^3 - t over tie groups */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && pool[j].v == pool[i].v)
			j++;
		double t = (double)(j - i), mean_rank = (double)(i + j + 1) / 2.0; /* ranks i+1..j */
		for (size_t k = i; k < j; k++)
			if (pool[k].from_b)
				rank_b += mean_rank;
		ties += t * t * t - t;
		i = j;
	}
	free(pool);
	double m = (double)na * (double)nb;
	out->u = rank_b - (double)nb * ((double)nb + 1) / 2.0;
	out->effect = 2.0 * out->u / m - 1.0;
	if (ties == 0 && na <= TR_MWU_EXACT_MAX && nb <= TR_MWU_EXACT_MAX) {
		double *c = u_counts(na, nb);
		if (!c)
			return -1;
		size_t len = na * nb + 1, u = (size_t)out->u;
		double total = 0, le = 0, ge = 0;
		for (size_t k = 0; k < len; k++) {
			total += c[k];
			if (k <= u)
				le += c[k];
			if (k >= u)
				ge += c[k];
		}
		free(c);
		double p = 2.0 * (le < ge ? le : ge) / total;
		out->p = p < 1.0 ? p : 1.0;
		out->exact = 1;
		return 0;
	}
	double sd = sqrt(m / 12.0 * (((double)n + 1) - ties / ((double)n * ((double)n - 1))));
	double far = out->u > m / 2 ? out->u : m - out->u; /* the larger of U and its mirror */
	if (sd == 0) /* every value tied: no evidence either way */
		return 0;
	double p = 2.0 * tr_norm_sf((far - m / 2 - 0.5) / sd);
	out->p = p < 1.0 ? p : 1.0;
	return 0;
}

int tr_hl_shift(const double *a, size_t na, const double *b, size_t nb, double conf, double *shift, double *lo,
                double *hi)
{
	*shift = *lo = *hi = 0;
	if (!na || !nb)
		return 0;
	size_t m = na * nb;
	double *d = malloc(m * sizeof *d);
	if (!d)
		return -1;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, m, sizeof *d, cmp_double);
	*shift = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2.0;
	/* the k-th smallest and largest differences bound the interval, with k
	 * from U's normal approximation: mn/2 - z sqrt(mn(n+1)/12) */
	double z = tr_norm_isf((1.0 - conf) / 2.0);
	double k = floor((double)m / 2.0 - z * sqrt((double)m * (double)(na + nb + 1) / 12.0));
	size_t ki = k < 0 ? 0 : (size_t)k;
	if (ki >= m)
		ki = m - 1;
	*lo = d[ki];
	*hi = d[m - 1 - ki];
	free(d);
	return 0;
}

struct pi {
	double p;
	size_t i;
};

/* by p, ties by index: the order does not depend on qsort's */
static int by_p(const void *x, const void *y)
{
	const struct pi *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

int tr_holm(double *p, size_t n)
{
	if (!n)
		return 0;
	struct pi *ix = malloc(n * sizeof *ix);
	if (!ix)
		return -1;
	for (size_t i = 0; i < n; i++)
		ix[i] = (struct pi){ p[i], i };
	qsort(ix, n, sizeof *ix, by_p);
	double run = 0;
	for (size_t k = 0; k < n; k++) {
		double adj = (double)(n - k) * ix[k].p;
		if (adj > 1.0)
			adj = 1.0;
		if (adj < run)
			adj = run;
		run = adj;
		p[ix[k].i] = adj;
	}
	free(ix);
	return 0;
}

double tr_rate_test(double ka, double ea, double kb, double eb)
{
	double n = ka + kb;
	if (n <= 0 || ea <= 0 || eb <= 0)
		return 1.0;
	double q = eb / (ea + eb), lq = log(q), l1q = log1p(-q), lgn = lgamma(n + 1);
	size_t ni = (size_t)n;
	/* log P(X = k) */
#define LPMF(k) (lgn - lgamma((double)(k) + 1) - lgamma(n - (double)(k) + 1) + (double)(k) * lq + (n - (double)(k)) * l1q)
	double obs = LPMF(kb), p = 0;
	/* the outcomes no more likely than the observed one (a relative
	 * tolerance as scipy's, for the floating point of equal terms) */
	double lim = obs + log1p(1e-7);
	for (size_t k = 0; k <= ni; k++) {
		double l = LPMF(k);
		if (l <= lim)
			p += exp(l);
	}
#undef LPMF
	return p < 1.0 ? p : 1.0;
}
