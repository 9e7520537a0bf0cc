/* SPDX-License-Identifier: GPL-2.0 */
/* Summaries of repeated measurements: mean, trimmed mean, median, min and max. */
#ifndef IOWHY_STATS_H
#define IOWHY_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Summary of n values. */
struct summary {
	int n;
	double min, median, max;
	double mean;          /* plain mean */
	double trimmed_mean;  /* n >= 3: the single lowest and single highest dropped; else the mean */
};

/* Trimmed mean as benchmarks publish it: with n >= 3 values drop the single best and the single
 * worst and average the rest; with 1 or 2 values the plain mean. 0 when n < 1. */
double trimmed_mean(const double *v, int n);
/* Median (mean of the two middle values for even n); 0 when n < 1. `v` is not modified. */
double median(const double *v, int n);
/* Fill *out from n >= 1 values (not modified). Returns 0, or -1 when n < 1. */
int summarize(const double *v, int n, struct summary *out);

#endif
