// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the /sys block device reader (util/sysblock.c): device numbers (dev_t through
 * makedev, and the kernel's MKDEV encoding BPF programs see), parsing, and the machine's own
 * /sys/class/block read back consistently (no root needed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>
#include "sysblock.h"

static void test_kdev(void **state)
{
	(void)state;
	/* the kernel's MKDEV: major << 20 | minor */
	assert_int_equal(kdev_of(makedev(253, 0)), 253u << 20);
	assert_int_equal(kdev_of(makedev(7, 3)), (7u << 20) | 3);
	/* minors past 255 and majors past 255 (where glibc's dev_t splits its bits) */
	assert_int_equal(kdev_of(makedev(259, 70000)), (259u << 20) | 70000);
	assert_true(dev_of_kdev((259u << 20) | 70000) == makedev(259, 70000));
	assert_int_equal(major(dev_of_kdev(kdev_of(makedev(4095, 1048575)))), 4095);
	assert_int_equal(minor(dev_of_kdev(kdev_of(makedev(4095, 1048575)))), 1048575);
}

static void test_parse_dev(void **state)
{
	dev_t d = 0;

	(void)state;
	assert_int_equal(sysblock_parse_dev("253:16\n", &d), 0);
	assert_true(d == makedev(253, 16));
	assert_int_equal(sysblock_parse_dev("7:0", &d), 0);
	assert_true(d == makedev(7, 0));
	assert_int_equal(sysblock_parse_dev("7", &d), -1);
	assert_int_equal(sysblock_parse_dev("7:x", &d), -1);
	assert_int_equal(sysblock_parse_dev("7:0x", &d), -1);
	assert_int_equal(sysblock_parse_dev("", &d), -1);
}

static void test_bad_names(void **state)
{
	char buf[64];
	struct sysblock_entry e;

	(void)state;
	assert_int_equal(sysblock_read_attr("../../kernel", "uevent", buf, sizeof(buf)), -1);
	assert_int_equal(sysblock_read_attr("..", "dev", buf, sizeof(buf)), -1);
	assert_int_equal(sysblock_read_attr("vda", "../dev", buf, sizeof(buf)), -1);
	assert_int_equal(sysblock_entry("no-such-device-here", &e), -1);
	assert_int_equal(sysblock_lookup(makedev(4095, 1048574), &e), -1);
}

/* Every device listed agrees with /sys/dev/block and stat(); a partition's disk is listed too. */
static void test_this_machine(void **state)
{
	struct sysblock_entry e[256], back;
	int n = sysblock_list(e, 256);
	struct stat st;

	(void)state;
	if (n == 0)
		skip(); /* no block device visible here */
	for (int i = 0; i < n; i++) {
		char path[128], buf[32];
		dev_t d;

		assert_int_equal(sysblock_lookup(e[i].dev, &back), 0);
		assert_string_equal(back.name, e[i].name);
		assert_true(back.dev == e[i].dev);
		assert_int_equal(sysblock_read_attr(e[i].name, "dev", buf, sizeof(buf)) > 0, 1);
		assert_int_equal(sysblock_parse_dev(buf, &d), 0);
		assert_true(d == e[i].dev);
		snprintf(path, sizeof(path), "/dev/%.31s", e[i].name);
		if (!stat(path, &st) && S_ISBLK(st.st_mode))
			assert_true(st.st_rdev == e[i].dev);
		if (!e[i].is_partition) {
			assert_string_equal(e[i].disk, e[i].name);
			assert_true(e[i].disk_dev == e[i].dev);
			continue;
		}
		assert_int_equal(sysblock_entry(e[i].disk, &back), 0);
		assert_false(back.is_partition);
		assert_true(back.dev == e[i].disk_dev);
	}
}

/* The devices' request slots against the shell's sum of the same files. */
static void test_request_slots(void **state)
{
	FILE *f = popen("t=0; for d in /sys/block/*; do n=$(cat $d/queue/nr_requests 2>/dev/null) "
			"|| continue; [ -n \"$n\" ] || continue; q=$(ls $d/mq 2>/dev/null | wc -l); "
			"[ $q -gt 0 ] || q=1; t=$((t + n * q)); done; echo $t", "r");
	unsigned long want = 0;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu", &want), 1);
	pclose(f);
	assert_int_equal(sysblock_request_slots(), want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kdev),
		cmocka_unit_test(test_parse_dev),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_request_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
