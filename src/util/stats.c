// SPDX-License-Identifier: GPL-2.0
/* Summaries of repeated measurements: trimmed mean, median, min and max. */
#include <string.h>
#include "stats.h"

static void min_max_sum(const double *v, int n, double *min, double *max, double *sum)
{
	*min = *max = v[0];
	*sum = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
		*sum += v[i];
	}
}

double trimmed_mean(const double *v, int n)
{
	double min, max, sum;

	if (n < 1)
		return 0;
	min_max_sum(v, n, &min, &max, &sum);
	if (n < 3)
		return sum / n;
	return (sum - min - max) / (n - 2);
}

/* k-th smallest of v (0-based) without modifying it: selection by counting, O(n^2); n is a
 * handful of runs. */
static double kth_smallest(const double *v, int n, int k)
{
	for (int i = 0; i < n; i++) {
		int less = 0, equal = 0;

		for (int j = 0; j < n; j++) {
			less += v[j] < v[i];
			equal += v[j] == v[i];
		}
		if (k >= less && k < less + equal)
			return v[i];
	}
	/* Only reachable with NaN among the values, which have no order. */
	return v[0];
}

double median(const double *v, int n)
{
	if (n < 1)
		return 0;
	if (n % 2)
		return kth_smallest(v, n, n / 2);
	return (kth_smallest(v, n, n / 2 - 1) + kth_smallest(v, n, n / 2)) / 2;
}

int summarize(const double *v, int n, struct summary *out)
{
	double sum;

	if (n < 1)
		return -1;
	memset(out, 0, sizeof(*out));
	out->n = n;
	min_max_sum(v, n, &out->min, &out->max, &sum);
	out->mean = sum / n;
	out->trimmed_mean = trimmed_mean(v, n);
	out->median = median(v, n);
	return 0;
}
