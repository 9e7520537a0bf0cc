/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blk-throttle limits configured for a cgroup (cgroup v1 blkio): blkio.throttle.{read,write}_
 * {bps,iops}_device of the cgroup and its ancestors, for one device. Pure file reading over a
 * root directory so the unit tests can use a fake hierarchy.
 */
#ifndef IOWHY_BLKTHROTTLE_H
#define IOWHY_BLKTHROTTLE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct bt_limits {
	uint64_t read_bps, write_bps, read_iops, write_iops; /* 0: no limit */
	char cgroup[PATH_MAX]; /* the cgroup (under the blkio root) with the first limit found */
};

/* The blkio cgroup in a /proc/PID/cgroup file ("/iowhy-test.12"); 0, or -1 if there is none. */
int blkthrottle_cgroup_of(const char *proc_cgroup, char *out, size_t len);

/*
 * The limits on device maj:min for cgroup CG under BLKIO_ROOT (/sys/fs/cgroup/blkio): the lowest
 * of each limit over CG and its ancestors. 1 if any limit is set, 0 if none.
 */
int blkthrottle_limits(const char *blkio_root, const char *cg, unsigned int maj, unsigned int min,
		       struct bt_limits *out);

#endif
