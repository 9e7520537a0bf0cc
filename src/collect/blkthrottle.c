// SPDX-License-Identifier: GPL-2.0
/* blk-throttle limits of a cgroup v1 blkio cgroup for one device (blkthrottle.h). */
#include <stdio.h>
#include <string.h>
#include "blkthrottle.h"

int blkthrottle_cgroup_of(const char *proc_cgroup, char *out, size_t len)
{
	FILE *f = fopen(proc_cgroup, "re");
	char line[PATH_MAX + 128];
	int found = -1;

	if (!f)
		return -1;
	/* "5:blkio:/path" (the controller list may name several: "5:blkio,io:/path") */
	while (found < 0 && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *path, *tok, *save = NULL;

		if (!ctl || !(path = strchr(ctl + 1, ':')))
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		for (tok = strtok_r(ctl + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "blkio")) {
				snprintf(out, len, "%s", path);
				found = 0;
				break;
			}
	}
	fclose(f);
	return found;
}

/* The limit for maj:min in one throttle file; 0 if none is set. */
static uint64_t limit_in(const char *dir, const char *file, unsigned int maj, unsigned int min)
{
	char path[PATH_MAX * 2], line[128];
	unsigned long long v, found = 0;
	unsigned int a, b;
	FILE *f;

	snprintf(path, sizeof(path), "%s/blkio.throttle.%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u:%u %llu", &a, &b, &v) == 3 && a == maj && b == min)
			found = v;
	fclose(f);
	return found;
}

/* Keep the lower of *cur and v (0 means no limit); 1 if v became the limit. */
static int tighter(uint64_t *cur, uint64_t v)
{
	if (v && (!*cur || v < *cur)) {
		*cur = v;
		return 1;
	}
	return 0;
}

int blkthrottle_limits(const char *blkio_root, const char *cg, unsigned int maj, unsigned int min,
		       struct bt_limits *out)
{
	char rel[PATH_MAX], dir[PATH_MAX * 2];
	int any = 0;

	memset(out, 0, sizeof(*out));
	snprintf(rel, sizeof(rel), "%s", cg);
	for (;;) {
		int t = 0;

		snprintf(dir, sizeof(dir), "%s%s", blkio_root, rel);
		t |= tighter(&out->read_bps, limit_in(dir, "read_bps_device", maj, min));
		t |= tighter(&out->write_bps, limit_in(dir, "write_bps_device", maj, min));
		t |= tighter(&out->read_iops, limit_in(dir, "read_iops_device", maj, min));
		t |= tighter(&out->write_iops, limit_in(dir, "write_iops_device", maj, min));
		if (t && !any)
			snprintf(out->cgroup, sizeof(out->cgroup), "%s", rel[0] ? rel : "/");
		any |= t;
		/* up one level; the root is "" */
		char *slash = strrchr(rel, '/');

		if (!slash || rel[0] == '\0')
			break;
		*slash = '\0';
	}
	return any;
}
