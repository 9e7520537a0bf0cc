// SPDX-License-Identifier: GPL-2.0
/* Unit tests: syscall names, groups and the loader set (user/syscalls.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "syscalls.h"

/* Number of a syscall every supported architecture has. */
static unsigned nr_of(const char *name)
{
	int nr = syscall_nr(name);

	assert_true(nr >= 0);
	return (unsigned)nr;
}

static void test_groups(void **state)
{
	(void)state;
	assert_int_equal(syscall_group(nr_of("openat")), SG_META);
	assert_int_equal(syscall_group(nr_of("newfstatat")), SG_META);
	assert_int_equal(syscall_group(nr_of("close")), SG_META);
	assert_int_equal(syscall_group(nr_of("write")), SG_DATA);
	assert_int_equal(syscall_group(nr_of("pread64")), SG_DATA);
	assert_int_equal(syscall_group(nr_of("execve")), SG_PROC);
	assert_int_equal(syscall_group(nr_of("clone")), SG_PROC);
	assert_int_equal(syscall_group(nr_of("wait4")), SG_PROC);
	assert_int_equal(syscall_group(nr_of("fsync")), SG_SYNC);
	assert_int_equal(syscall_group(nr_of("msync")), SG_SYNC);
	assert_int_equal(syscall_group(nr_of("mmap")), SG_MEM);
	assert_int_equal(syscall_group(nr_of("brk")), SG_MEM);
	assert_int_equal(syscall_group(nr_of("getppid")), SG_OTHER);
	assert_int_equal(syscall_group(nr_of("futex")), SG_OTHER);
	assert_int_equal(syscall_group(MODEL_NR_NONE), SG_OTHER);
	assert_int_equal(syscall_group(IOWHY_NR_NONE), SG_OTHER);
	assert_int_equal(syscall_group(100000), SG_OTHER);
}

/* Names that exist only on some architectures are grouped when present. */
static void test_arch_specific(void **state)
{
	int nr;

	(void)state;
	nr = syscall_nr("arch_prctl");
	if (nr >= 0) {
		assert_int_equal(syscall_group((unsigned)nr), SG_PROC);
		assert_true(syscall_is_loader((unsigned)nr));
	}
	nr = syscall_nr("open");
	if (nr >= 0)
		assert_int_equal(syscall_group((unsigned)nr), SG_META);
}

static void test_names_round_trip(void **state)
{
	unsigned nr, named = 0;

	(void)state;
	assert_true(iowhy_syscall_names_len > 200);
	for (nr = 0; nr < iowhy_syscall_names_len; nr++) {
		const char *name = iowhy_syscall_names[nr];

		if (!name || nr == IOWHY_NR_SLOTS - 1)
			continue;
		named++;
		assert_string_equal(syscall_name(nr), name);
		assert_int_equal(syscall_nr(name), nr);
	}
	assert_true(named > 200);
	assert_string_equal(syscall_name(nr_of("write")), "write");
	assert_string_equal(syscall_name(nr_of("openat")), "openat");
	assert_int_equal(syscall_nr("no_such_syscall"), -1);
	assert_int_equal(syscall_nr(""), -1);
	assert_int_equal(syscall_nr(NULL), -1);
}

static void test_special_names(void **state)
{
	(void)state;
	assert_string_equal(syscall_name(MODEL_NR_NONE), "(none)");
	assert_string_equal(syscall_name(IOWHY_NR_NONE), "(none)");
	assert_string_equal(syscall_name(IOWHY_NR_SLOTS - 1), "(other)");
}

/* Unknown numbers are "sys_<nr>", at a stable address. */
static void test_unknown_names(void **state)
{
	unsigned nr;
	const char *a, *b;

	(void)state;
	for (nr = 0; nr < IOWHY_NR_SLOTS - 1; nr++)
		if (nr >= iowhy_syscall_names_len || !iowhy_syscall_names[nr])
			break;
	assert_true(nr < IOWHY_NR_SLOTS - 1);
	a = syscall_name(nr);
	b = syscall_name(nr);
	assert_ptr_equal(a, b);
	assert_int_equal(strncmp(a, "sys_", 4), 0);
	assert_int_equal(atoi(a + 4), nr);

	a = syscall_name(70000);
	assert_string_equal(a, "sys_70000");
	assert_string_equal(syscall_name(70001), "sys_70001");
	assert_ptr_equal(syscall_name(70000), a);
}

static void test_group_names(void **state)
{
	static const char *const names[SG_COUNT] = {
		"process", "file data", "file metadata", "memory", "sync", "other",
	};
	static const char *const keys[SG_COUNT] = {
		"process", "file_data", "file_metadata", "memory", "sync", "other",
	};
	int g;

	(void)state;
	for (g = 0; g < SG_COUNT; g++) {
		assert_string_equal(sys_group_name((enum sys_group)g), names[g]);
		assert_string_equal(sys_group_key((enum sys_group)g), keys[g]);
	}
}

static void test_loader(void **state)
{
	(void)state;
	assert_true(syscall_is_loader(nr_of("mmap")));
	assert_true(syscall_is_loader(nr_of("munmap")));
	assert_true(syscall_is_loader(nr_of("openat")));
	assert_true(syscall_is_loader(nr_of("read")));
	assert_true(syscall_is_loader(nr_of("getrandom")));
	assert_true(syscall_is_loader(nr_of("set_robust_list")));
	assert_false(syscall_is_loader(nr_of("write")));
	assert_false(syscall_is_loader(nr_of("execve")));
	assert_false(syscall_is_loader(nr_of("fsync")));
	assert_false(syscall_is_loader(MODEL_NR_NONE));
	assert_false(syscall_is_loader(100000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_arch_specific),
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_special_names),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_group_names),
		cmocka_unit_test(test_loader),
	};

	return cmocka_run_group_tests_name("syscalls", tests, NULL, NULL);
}
