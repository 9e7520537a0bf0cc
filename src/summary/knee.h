/* SPDX-License-Identifier: GPL-2.0 */
/* The queue-depth knee: the depth after which IOPS stops growing (no deeper depth gives 20% more)
 * while latency doubles. */
#ifndef IOWHY_KNEE_H
#define IOWHY_KNEE_H

#define KNEE_MAX_GAIN 1.2   /* "stops growing": the next depth gives less than 20% more IOPS */
#define KNEE_MIN_LAT 1.6    /* "latency doubles": the next depth's latency at least 1.6x */

/*
 * DEPTH, IOPS and LAT_US of N steps at increasing depth. The index of the knee (the last depth
 * worth having), or -1 if IOPS still grows at the deepest step (or N < 2).
 */
int knee_find(const double *depth, const double *iops, const double *lat_us, int n);

#endif
