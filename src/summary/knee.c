// SPDX-License-Identifier: GPL-2.0
/* The queue-depth knee (knee.h). */
#include "knee.h"

int knee_find(const double *depth, const double *iops, const double *lat_us, int n)
{
	for (int k = 1; k < n; k++) {
		if (depth[k] <= depth[k - 1] || iops[k - 1] <= 0 || lat_us[k - 1] <= 0)
			continue;
		if (iops[k] < KNEE_MAX_GAIN * iops[k - 1] && lat_us[k] >= KNEE_MIN_LAT * lat_us[k - 1])
			return k - 1;
	}
	return -1;
}
