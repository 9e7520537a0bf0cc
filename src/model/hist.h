/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms as the BPF side fills them: latencies in log-linear buckets (bpf/loglin.h: a histogram
 * of exactly LOGLIN_BUCKETS slots), sizes and depths in log2 slots (slot k counts [2^k, 2^(k+1))).
 */
#ifndef IOWHY_HIST_H
#define IOWHY_HIST_H

#include <stdint.h>

/*
 * Percentile p (0 < p <= 100) of a histogram; clamped to `max` when max > 0 (the exact maximum is
 * known). 0 for an empty histogram. nslots == LOGLIN_BUCKETS: log-linear, the midpoint of the
 * bucket that holds the sample of rank ceil(p% of the count) (within 1.6% of it); any other
 * length: log2, interpolated linearly inside the slot (within a factor of 2).
 */
uint64_t hist_percentile(const uint32_t *slots, int nslots, double p, uint64_t max);
/* The log-linear case of hist_percentile. */
uint64_t loglin_percentile(const uint32_t *buckets, double p, uint64_t max);
/* Total count in the histogram. */
uint64_t hist_total(const uint32_t *slots, int nslots);
/* Slot of value v (the same function the BPF side uses). */
int hist_slot(uint64_t v, int nslots);

#endif
