// SPDX-License-Identifier: GPL-2.0
/* The system's dirty page cache; see meminfo.h. */
#include <stdio.h>
#include "meminfo.h"

void meminfo_dirty(uint64_t *dirty, uint64_t *wb)
{
	char line[256];
	unsigned long long kb;
	FILE *f = fopen("/proc/meminfo", "re");

	*dirty = *wb = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Dirty: %llu kB", &kb) == 1)
			*dirty = kb * 1024;
		else if (sscanf(line, "Writeback: %llu kB", &kb) == 1)
			*wb = kb * 1024;
	}
	fclose(f);
}
