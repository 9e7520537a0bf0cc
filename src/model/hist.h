/* SPDX-License-Identifier: GPL-2.0 */
/* log2 histograms as the BPF side fills them: slot k counts values in [2^k, 2^(k+1)). */
#ifndef IOWHY_HIST_H
#define IOWHY_HIST_H

#include <stdint.h>

/*
 * Percentile p (0 < p <= 100) of a log2 histogram, interpolated linearly inside the slot that holds
 * it; clamped to `max` when max > 0 (the exact maximum is known). 0 for an empty histogram.
 */
uint64_t hist_percentile(const uint32_t *slots, int nslots, double p, uint64_t max);
/* Total count in the histogram. */
uint64_t hist_total(const uint32_t *slots, int nslots);
/* Slot of value v (the same function the BPF side uses). */
int hist_slot(uint64_t v, int nslots);

#endif
