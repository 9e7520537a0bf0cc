// SPDX-License-Identifier: GPL-2.0
/*
 * Device stack discovery over fake sysfs trees: a loop device over a partition of vda, btrfs over
 * three loop devices, a plain disk, dm with two slaves, and paths that cannot be mapped.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "devstack.h"

static char root[PATH_MAX];

/* Where the fake stat_dev says each path lives. */
static const struct {
	const char *path;
	unsigned int maj, min;
} fake_devs[] = {
	{ "/mnt", 7, 0 },        /* ext4 on loop0 */
	{ "/srv/img", 254, 1 },  /* loop0's backing file on vda1 */
	{ "/data", 0, 40 },      /* btrfs: a subvolume's anonymous device, not mountinfo's 0:39 */
	{ "/data/sub", 0, 40 },
	{ "/img0", 254, 0 },     /* the btrfs members' backing files, on vda */
	{ "/img1", 254, 0 },
	{ "/img2", 254, 0 },
	{ "/", 254, 0 },
	{ "/tmp/x", 0, 30 },     /* tmpfs */
	{ "/tmp/t.img", 0, 30 },
};

static int fake_stat_dev(const char *path, unsigned int *maj, unsigned int *min)
{
	for (size_t i = 0; i < sizeof(fake_devs) / sizeof(fake_devs[0]); i++)
		if (!strcmp(fake_devs[i].path, path)) {
			*maj = fake_devs[i].maj;
			*min = fake_devs[i].min;
			return 0;
		}
	errno = ENOENT;
	return -1;
}

/* mkdir -p ROOT/REL */
static void mkdirs(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

/* Write CONTENT to ROOT/REL, creating its directory. */
static void put(const char *rel, const char *content)
{
	char path[PATH_MAX * 2], dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", rel);
	if (strrchr(dir, '/')) {
		*strrchr(dir, '/') = '\0';
		mkdirs(dir);
	}
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static struct ds_env env(void)
{
	static char mi[PATH_MAX * 2];
	struct ds_env e = { .root = root, .mountinfo = mi, .stat_dev = fake_stat_dev };

	snprintf(mi, sizeof(mi), "%s/mountinfo", root);
	return e;
}

/* A fake machine: vda with partition vda1, loop0 over /srv/img, loop1-3 over /img0..2 in btrfs
 * raid0 at /data, dm-0 over vdb and vdc, loop4 over a tmpfs file. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/iowhy-devstack.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("sys/block/vda/dev", "254:0\n");
	put("sys/block/vda/vda1/dev", "254:1\n");
	put("sys/block/vda/vda1/partition", "1\n");
	mkdirs("sys/block/vda/slaves");
	mkdirs("sys/block/vda/holders");
	put("sys/block/loop0/dev", "7:0\n");
	put("sys/block/loop0/loop/backing_file", "/srv/img\n");
	mkdirs("sys/block/loop0/slaves");
	for (int i = 1; i <= 3; i++) {
		char rel[64], val[64];

		snprintf(rel, sizeof(rel), "sys/block/loop%d/dev", i);
		snprintf(val, sizeof(val), "7:%d\n", i);
		put(rel, val);
		snprintf(rel, sizeof(rel), "sys/block/loop%d/loop/backing_file", i);
		snprintf(val, sizeof(val), "/img%d%s\n", i - 1, i == 3 ? " (deleted)" : "");
		put(rel, val);
		snprintf(rel, sizeof(rel), "sys/fs/btrfs/f80ce428/devices/loop%d", i);
		mkdirs(rel);
	}
	mkdirs("sys/fs/btrfs/f80ce428/allocation/data/raid0");
	mkdirs("sys/fs/btrfs/f80ce428/allocation/metadata/raid1");
	put("sys/fs/btrfs/f80ce428/allocation/data/total_bytes", "0\n");
	mkdirs("sys/fs/btrfs/features");
	put("sys/block/vdb/dev", "254:16\n");
	put("sys/block/vdc/dev", "254:32\n");
	put("sys/block/dm-0/dev", "252:0\n");
	mkdirs("sys/block/dm-0/dm");
	mkdirs("sys/block/dm-0/slaves/vdb");
	mkdirs("sys/block/dm-0/slaves/vdc");
	put("sys/block/loop4/dev", "7:4\n");
	put("sys/block/loop4/loop/backing_file", "/tmp/t.img\n");
	put("mountinfo",
	    "20 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
	    "22 20 0:30 / /tmp rw - tmpfs tmpfs rw\n"
	    "30 20 7:0 / /mnt rw - ext4 /dev/loop0 rw\n"
	    "31 20 7:0 / /other\\040place rw - ext4 /dev/loop0 rw\n"
	    "40 20 0:39 / /data rw - btrfs /dev/loop1 rw,space_cache=v2\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* ext4 on a loop device whose backing file is on a partition: loop0 → vda1 → vda. */
static void test_loop_over_partition(void **state)
{
	struct ds_env e = env();
	struct devstack ds;
	char err[256], line[512];

	(void)state;
	assert_int_equal(devstack_from_path(&e, "/mnt", &ds, err, sizeof(err)), 0);
	assert_string_equal(ds.fstype, "ext4");
	assert_string_equal(ds.mountpoint, "/mnt");
	assert_int_equal(ds.nmembers, 1);
	assert_string_equal(ds.nodes[ds.members[0]].kind, "loop");
	assert_string_equal(ds.nodes[ds.members[0]].backing, "/srv/img");
	assert_string_equal(devstack_format(&ds, line, sizeof(line)),
			    "/mnt (ext4) \u2192 loop0 \u2192 vda1 \u2192 vda");
	assert_string_equal(devstack_common_lower(&ds), "vda");
	assert_string_equal(devstack_bottom(&ds, ds.members[0]), "vda");
}

/* btrfs raid0 over three loop devices over files on vda (one backing file deleted). */
static void test_btrfs_three_loops(void **state)
{
	struct ds_env e = env();
	struct devstack ds;
	char err[256], line[512];

	(void)state;
	assert_int_equal(devstack_from_path(&e, "/data/sub", &ds, err, sizeof(err)), 0);
	assert_string_equal(ds.fstype, "btrfs");
	assert_string_equal(ds.profile, "raid0");
	assert_int_equal(ds.nmembers, 3);
	for (int i = 0; i < 3; i++) {
		char name[16];

		snprintf(name, sizeof(name), "loop%d", i + 1);
		assert_string_equal(ds.nodes[ds.members[i]].name, name);
	}
	assert_string_equal(ds.nodes[ds.members[2]].backing, "/img2");
	assert_string_equal(devstack_format(&ds, line, sizeof(line)),
			    "/data (btrfs raid0) \u2192 loop1, loop2, loop3 \u2192 vda");
	assert_string_equal(devstack_common_lower(&ds), "vda");
}

/* The levels of a stack (a partition folded into its disk), and the mount of a stacked device
 * found from the device: by its own number, and a btrfs member that is not the mount's source. */
static void test_levels_and_mount_of(void **state)
{
	int lv[4][DS_MAX_KIDS], counts[4];
	struct ds_env e = env();
	struct devstack ds;
	char err[256], mp[PATH_MAX];

	(void)state;
	assert_int_equal(devstack_from_path(&e, "/mnt", &ds, err, sizeof(err)), 0);
	assert_int_equal(devstack_levels(&ds, lv, counts, 4), 2);
	assert_int_equal(counts[0], 1);
	assert_string_equal(ds.nodes[lv[0][0]].name, "loop0");
	assert_int_equal(counts[1], 1);
	assert_string_equal(ds.nodes[lv[1][0]].name, "vda"); /* vda1 folded into vda */
	assert_int_equal(devstack_from_path(&e, "/data", &ds, err, sizeof(err)), 0);
	assert_int_equal(devstack_levels(&ds, lv, counts, 4), 2);
	assert_int_equal(counts[0], 3);
	assert_int_equal(counts[1], 1);
	assert_int_equal(devstack_levels(&ds, lv, counts, 1), 1);

	assert_int_equal(devstack_mount_of(&e, "loop0", mp, sizeof(mp)), 0);
	assert_string_equal(mp, "/mnt");
	assert_int_equal(devstack_mount_of(&e, "loop3", mp, sizeof(mp)), 0);
	assert_string_equal(mp, "/data");
	assert_int_equal(devstack_mount_of(&e, "loop4", mp, sizeof(mp)), -1); /* not mounted */
	assert_int_equal(devstack_mount_of(&e, "nosuch", mp, sizeof(mp)), -1);
}

/* A plain disk, by name and by a path on it; a partition by name. */
static void test_plain_disk(void **state)
{
	struct ds_env e = env();
	struct devstack ds;
	char err[256], line[512], name[64];

	(void)state;
	assert_int_equal(devstack_from_device(&e, "/dev/vda", &ds, err, sizeof(err)), 0);
	assert_int_equal(ds.nmembers, 1);
	assert_string_equal(ds.nodes[ds.members[0]].kind, "disk");
	assert_string_equal(devstack_format(&ds, line, sizeof(line)), "/dev/vda");
	assert_int_equal(devstack_from_path(&e, "/", &ds, err, sizeof(err)), 0);
	assert_string_equal(devstack_format(&ds, line, sizeof(line)), "/ (ext4) \u2192 vda");
	assert_int_equal(devstack_from_device(&e, "vda1", &ds, err, sizeof(err)), 0);
	assert_string_equal(ds.nodes[ds.members[0]].kind, "part");
	assert_int_equal(ds.nodes[ds.members[0]].major, 254);
	assert_int_equal(ds.nodes[ds.members[0]].minor, 1);
	assert_string_equal(devstack_format(&ds, line, sizeof(line)), "/dev/vda1 \u2192 vda");
	assert_int_equal(devstack_name_of(&e, 254, 1, name, sizeof(name)), 0);
	assert_string_equal(name, "vda1");
	assert_int_equal(devstack_name_of(&e, 9, 9, name, sizeof(name)), -1);
}

/* dm lists its devices in slaves/; they share nothing below. */
static void test_dm_slaves(void **state)
{
	struct ds_env e = env();
	struct devstack ds;
	char err[256], line[512];

	(void)state;
	assert_int_equal(devstack_from_device(&e, "dm-0", &ds, err, sizeof(err)), 0);
	assert_string_equal(ds.nodes[ds.members[0]].kind, "dm");
	assert_string_equal(devstack_format(&ds, line, sizeof(line)), "/dev/dm-0 \u2192 vdb, vdc");
}

/* What cannot be mapped says so: tmpfs, a missing path, a device sysfs does not know. A loop
 * device over a tmpfs file ends at the file system. */
static void test_unmappable(void **state)
{
	struct ds_env e = env();
	struct devstack ds;
	char err[256], line[512];

	(void)state;
	assert_int_equal(devstack_from_path(&e, "/tmp/x", &ds, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tmpfs"));
	assert_int_equal(devstack_from_path(&e, "/nope", &ds, err, sizeof(err)), -1);
	assert_int_equal(devstack_from_device(&e, "sdz", &ds, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sdz"));
	assert_int_equal(devstack_from_device(&e, "../vda", &ds, err, sizeof(err)), -1);
	assert_int_equal(devstack_from_device(&e, "loop4", &ds, err, sizeof(err)), 0);
	assert_string_equal(devstack_format(&ds, line, sizeof(line)),
			    "/dev/loop4 \u2192 tmpfs:/tmp");
	assert_null(devstack_common_lower(&ds) ? strstr(devstack_common_lower(&ds), "vd") : NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_over_partition),
		cmocka_unit_test(test_btrfs_three_loops),
		cmocka_unit_test(test_plain_disk),
		cmocka_unit_test(test_levels_and_mount_of),
		cmocka_unit_test(test_dm_slaves),
		cmocka_unit_test(test_unmappable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
