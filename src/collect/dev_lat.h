/* SPDX-License-Identifier: GPL-2.0 */
/* Device service-time histograms of one phase, read without clearing them (live intervals). */
#ifndef IOWHY_DEV_LAT_H
#define IOWHY_DEV_LAT_H

#include <stdint.h>
#include "iowhy.h"

struct io_probes;

/* Cumulative device-time histogram (issue -> complete, log2 ns slots) of one disk. */
struct dev_lat {
	uint32_t kdev;                     /* the disk (partitions are added to their disk) */
	uint64_t hist[IOWHY_HIST_SLOTS];
};

/*
 * Sum phase `tag`'s request statistics per disk (every op and submitter), partitions mapped to
 * their disk with kdisk(kdev) (may be NULL). Fills at most max rows; returns how many, or -1.
 */
int dev_lat_read(const struct io_probes *io, int tag, uint32_t (*kdisk)(uint32_t kdev),
		 struct dev_lat *out, int max);

#endif
