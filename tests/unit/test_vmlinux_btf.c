// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the kernel's BTF read and parsed once, shared by every caller while the loads go on
 * (src/collect/vmlinux_btf.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "vmlinux_btf.h"

static void need_btf(void)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		skip(); /* a kernel without BTF */
}

/* Debian's libbpf (dynamic, no -Bsymbolic) calls both functions through its PLT. */
static void test_sharing(void **state)
{
	(void)state;
	assert_int_equal(vmlinux_btf_sharing(), 1);
}

/* Every call gets the one parse; freeing it leaves it whole for the other holders; the file is
 * read once until released, then read again into a new parse. */
static void test_once_then_shared(void **state)
{
	struct btf *a, *b, *c, *d;
	unsigned r0 = vmlinux_btf_reads(), c0 = vmlinux_btf_copies(), s0 = vmlinux_btf_shares();

	(void)state;
	need_btf();
	a = btf__load_vmlinux_btf();
	b = btf__load_vmlinux_btf();
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_int_equal(vmlinux_btf_reads(), r0 + 1);
	assert_int_equal(vmlinux_btf_copies(), c0 + 1);
	assert_int_equal(vmlinux_btf_shares(), s0 + 1);
	assert_true(btf__type_cnt(a) > 1000);
	btf__free(a);
	assert_true(btf__find_by_name_kind(b, "task_struct", BTF_KIND_STRUCT) > 0);
	/* libbpf's name for the same function: its own body, which reads the file itself, and a
	 * struct that is not the shared one: freed by libbpf's btf__free */
	c = libbpf_find_kernel_btf();
	assert_non_null(c);
	assert_ptr_not_equal(c, b);
	assert_int_equal(btf__type_cnt(c), btf__type_cnt(b));
	assert_int_equal(vmlinux_btf_reads(), r0 + 1);
	btf__free(c);
	/* released while b is held: b stays whole; a new call parses anew */
	vmlinux_btf_release();
	d = btf__load_vmlinux_btf();
	assert_non_null(d);
	assert_int_equal(vmlinux_btf_reads(), r0 + 2);
	assert_int_equal(btf__type_cnt(d), btf__type_cnt(b));
	assert_true(btf__find_by_name_kind(b, "task_struct", BTF_KIND_STRUCT) > 0);
	btf__free(b); /* its last holder: freed (ASan would see a use after free below otherwise) */
	assert_true(btf__find_by_name_kind(d, "task_struct", BTF_KIND_STRUCT) > 0);
	btf__free(d);
	vmlinux_btf_release();
	btf__free(NULL);
}

/* libbpf's own objects (not the kernel's BTF) still go to libbpf's btf__free. */
static void test_other_btf_freed(void **state)
{
	struct btf *b = btf__new_empty();

	(void)state;
	assert_non_null(b);
	assert_true(btf__add_int(b, "int", 4, BTF_INT_SIGNED) > 0);
	btf__free(b); /* (ASan/LSan: freed, not leaked) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sharing),
		cmocka_unit_test(test_once_then_shared),
		cmocka_unit_test(test_other_btf_freed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
