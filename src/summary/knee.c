// SPDX-License-Identifier: GPL-2.0
/* The queue-depth knee (knee.h). */
#include "knee.h"

int knee_find(const double *depth, const double *iops, const double *lat_us, int n)
{
	/* the first depth that no deeper depth beats by KNEE_MAX_GAIN, while the next one's
	 * latency is KNEE_MIN_LAT times its own (a dip on a busy machine is not a knee) */
	for (int k = 0; k + 1 < n; k++) {
		double later = 0;

		if (iops[k] <= 0 || lat_us[k] <= 0 || depth[k + 1] <= depth[k])
			continue;
		for (int j = k + 1; j < n; j++)
			later = iops[j] > later ? iops[j] : later;
		if (later < KNEE_MAX_GAIN * iops[k] && lat_us[k + 1] >= KNEE_MIN_LAT * lat_us[k])
			return k;
	}
	return -1;
}
