// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms: log-linear latency buckets (bpf/loglin.h) and log2 slots (slot k holds
 * [2^k, 2^(k+1)), slot 0 also holds 0; the last slot holds the rest).
 */
#include <math.h>
#include "hist.h"
#include "log2.h"
#include "loglin.h"

int hist_slot(uint64_t v, int nslots)
{
	return nslots <= 0 ? 0 : (int)log2_slot(v, (__u32)nslots); /* the BPF side's function */
}

uint64_t hist_total(const uint32_t *slots, int nslots)
{
	uint64_t total = 0;
	int k;

	for (k = 0; k < nslots; k++)
		total += slots[k];
	return total;
}

/* Lower and upper bound of the values slot k holds. */
static double slot_low(int k)
{
	return k == 0 ? 0.0 : ldexp(1.0, k);
}

static double slot_high(int k)
{
	return ldexp(1.0, k + 1);
}

uint64_t loglin_percentile(const uint32_t *buckets, double p, uint64_t max)
{
	uint64_t total = hist_total(buckets, LOGLIN_BUCKETS), rank, seen = 0, value = 0;
	double r;

	if (total == 0)
		return 0;
	if (p < 0.0)
		p = 0.0;
	if (p > 100.0)
		p = 100.0;
	r = ceil(p / 100.0 * (double)total - 1e-9); /* 1-based rank of the sample */
	rank = r < 1.0 ? 1 : (uint64_t)r;
	for (__u32 b = 0; b < (__u32)LOGLIN_BUCKETS; b++) {
		seen += buckets[b];
		if (seen >= rank) {
			value = loglin_low(b) + loglin_width(b) / 2; /* exact below 32: width 1 */
			break;
		}
	}
	return max > 0 && value > max ? max : value;
}

uint64_t hist_percentile(const uint32_t *slots, int nslots, double p, uint64_t max)
{
	uint64_t total, before = 0;
	double rank, value = 0.0;
	int k;

	if (nslots == LOGLIN_BUCKETS)
		return loglin_percentile(slots, p, max);
	total = hist_total(slots, nslots);
	if (total == 0)
		return 0;
	if (p < 0.0)
		p = 0.0;
	if (p > 100.0)
		p = 100.0;
	/* The value of rank `rank` (1-based, fractional) among the sorted samples. */
	rank = p / 100.0 * (double)total;
	for (k = 0; k < nslots; k++) {
		if (!slots[k])
			continue;
		if ((double)(before + slots[k]) >= rank) {
			double frac = (rank - (double)before) / slots[k];

			if (frac < 0.0)
				frac = 0.0;
			value = slot_low(k) + frac * (slot_high(k) - slot_low(k));
			break;
		}
		before += slots[k];
	}
	if (max > 0 && value > (double)max)
		return max;
	if (value >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)(value + 0.5);
}
