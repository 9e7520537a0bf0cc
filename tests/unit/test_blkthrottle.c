// SPDX-License-Identifier: GPL-2.0
/* blk-throttle configuration of a cgroup v1 blkio cgroup, over a fake hierarchy. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "blkthrottle.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *content)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[PATH_MAX * 2];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/iowhy-blkthr.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/a", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/b", root);
	mkdir(path, 0755);
	put("blkio.throttle.read_bps_device", "");
	put("a/blkio.throttle.read_bps_device", "7:1 33554432\n254:0 1000\n");
	put("a/b/blkio.throttle.read_bps_device", "7:1 16777216\n");
	put("a/b/blkio.throttle.write_iops_device", "7:2 50\n");
	put("cgroup", "12:pids:/x\n5:blkio:/a/b\n0::/unified\n");
	put("cgroup2", "3:blkio,io:/c\n");
	put("cgroup3", "0::/\n");
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

static void test_cgroup_of(void **state)
{
	char path[PATH_MAX * 2], cg[PATH_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s/cgroup", root);
	assert_int_equal(blkthrottle_cgroup_of(path, cg, sizeof(cg)), 0);
	assert_string_equal(cg, "/a/b");
	snprintf(path, sizeof(path), "%s/cgroup2", root);
	assert_int_equal(blkthrottle_cgroup_of(path, cg, sizeof(cg)), 0);
	assert_string_equal(cg, "/c");
	snprintf(path, sizeof(path), "%s/cgroup3", root);
	assert_int_equal(blkthrottle_cgroup_of(path, cg, sizeof(cg)), -1);
}

/* The tightest limit over the cgroup and its ancestors, and who set it. */
static void test_limits(void **state)
{
	struct bt_limits l;

	(void)state;
	assert_int_equal(blkthrottle_limits(root, "/a/b", 7, 1, &l), 1);
	assert_int_equal(l.read_bps, 16 << 20);
	assert_int_equal(l.write_bps, 0);
	assert_string_equal(l.cgroup, "/a/b");
	assert_int_equal(blkthrottle_limits(root, "/a/b", 254, 0, &l), 1);
	assert_int_equal(l.read_bps, 1000);
	assert_string_equal(l.cgroup, "/a");
	assert_int_equal(blkthrottle_limits(root, "/a/b", 7, 2, &l), 1);
	assert_int_equal(l.write_iops, 50);
	assert_int_equal(blkthrottle_limits(root, "/a", 7, 2, &l), 0);
	assert_int_equal(blkthrottle_limits(root, "/", 7, 1, &l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_of),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
