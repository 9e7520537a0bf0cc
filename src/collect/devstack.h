/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device stack under a file system or a block device, discovered from sysfs and mountinfo:
 * /sys/block/X/slaves (dm, md), a loop device's loop/backing_file (and the device that holds that
 * file), a partition's disk, and btrfs's member list in /sys/fs/btrfs/<uuid>/devices.
 *
 * Pure C over a root directory (normally "/") so the unit tests can build a fake tree; the one call
 * that needs the real file system (which device holds a backing file) goes through ds_env.stat_dev
 * so a test can answer it too.
 *
 *   /mnt (btrfs raid0) → loop0, loop1, loop2 → vda
 */
#ifndef IOWHY_DEVSTACK_H
#define IOWHY_DEVSTACK_H

#include <limits.h>
#include <stddef.h>

#define DS_MAX_NODES 64
#define DS_MAX_KIDS 16

struct ds_env {
	const char *root;      /* prefix for /sys paths: "" or "/" for the real system */
	const char *mountinfo; /* mountinfo file; NULL: /proc/self/mountinfo */
	/* The device (major:minor) holding PATH; NULL: stat(2)'s st_dev. 0 on success. */
	int (*stat_dev)(const char *path, unsigned int *maj, unsigned int *min);
};

/* One level of the stack: a block device, or a file system that has no block device of its own. */
struct ds_node {
	char name[64];          /* "loop0", "vda1", "vda"; for a file system: "tmpfs:/tmp" */
	char kind[16];          /* disk, part, loop, dm, md, btrfs, or the file system type */
	unsigned int major, minor;
	char backing[PATH_MAX]; /* a loop device's backing file */
	int nkids;
	int kids[DS_MAX_KIDS];  /* the devices it sits on (indexes into devstack.nodes) */
};

struct devstack {
	char mountpoint[PATH_MAX]; /* empty for a bare block device */
	char fstype[32];
	char profile[16];          /* btrfs data profile (raid0, raid1, single...) */
	int nmembers;
	int members[DS_MAX_KIDS];  /* the file system's own devices (top of the stack) */
	int nnodes;
	struct ds_node nodes[DS_MAX_NODES];
};

/* The stack under block device NAME ("loop0", "vda1"). 0, or -1 with a reason in err. */
int devstack_from_device(const struct ds_env *env, const char *name, struct devstack *ds,
			 char *err, size_t errlen);

/* The stack under the file system holding PATH. 0, or -1 with a reason in err (e.g. a file
 * system with no block device under it). */
int devstack_from_path(const struct ds_env *env, const char *path, struct devstack *ds,
		       char *err, size_t errlen);

/* One line: "/mnt (btrfs raid0) → loop0, loop1, loop2 → vda". Returns buf. */
char *devstack_format(const struct devstack *ds, char *buf, size_t len);

/* The lowest device every member sits on ("vda" for three loops over files on vda), or NULL. */
const char *devstack_common_lower(const struct devstack *ds);

/* The first device at the bottom under node IDX ("vda" for a loop over a file on vda1), or the
 * node's own name when nothing is under it. */
const char *devstack_bottom(const struct devstack *ds, int idx);

/* The mount point of the file system on block device NAME ("loop0"): a mount of that device, or
 * a btrfs mount that has it among its devices. 0, or -1 when it is not mounted. */
int devstack_mount_of(const struct ds_env *env, const char *name, char *mountpoint, size_t len);

/* The stack's devices level by level from the file system's own devices down (level 0), a
 * partition folded into its disk, each node once: out[l][i] are node indexes, counts[l] their
 * number. Returns the number of levels (at most maxlevels). */
int devstack_levels(const struct devstack *ds, int out[][DS_MAX_KIDS], int *counts, int maxlevels);
/* Whether node upper sits on node lower (one of its kids, a partition folded into its disk as
 * devstack_levels does). */
int devstack_sits_on(const struct devstack *ds, int upper, int lower);

/* Name of the block device major:minor under env->root ("vda1"); 0, or -1 if there is none. */
int devstack_name_of(const struct ds_env *env, unsigned int maj, unsigned int min, char *name,
		     size_t len);

#endif
