// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the kernel's BTF read once and handed out as copies (src/collect/vmlinux_btf.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "vmlinux_btf.h"

/* Each call gives a struct btf of its own (freeing one leaves the other whole); the file is read
 * once until released, then read again. */
static void test_once_then_copies(void **state)
{
	struct btf *a, *b, *c;
	unsigned r0 = vmlinux_btf_reads(), c0 = vmlinux_btf_copies();

	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		skip(); /* a kernel without BTF */
	a = btf__load_vmlinux_btf();
	b = btf__load_vmlinux_btf();
	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	assert_int_equal(vmlinux_btf_reads(), r0 + 1);
	/* both parsed from the mapped file, or the first read by libbpf and the second a copy */
	assert_in_range(vmlinux_btf_copies(), c0 + 1, c0 + 2);
	assert_true(btf__type_cnt(a) > 1000);
	assert_int_equal(btf__type_cnt(a), btf__type_cnt(b));
	btf__free(a);
	assert_true(btf__find_by_name_kind(b, "task_struct", BTF_KIND_STRUCT) > 0);
	/* libbpf's name for the same function: its own body, which reads the file itself */
	c = libbpf_find_kernel_btf();
	assert_non_null(c);
	assert_int_equal(btf__type_cnt(c), btf__type_cnt(b));
	assert_int_equal(vmlinux_btf_reads(), r0 + 1);
	btf__free(c);
	vmlinux_btf_release();
	c = btf__load_vmlinux_btf();
	assert_non_null(c);
	assert_int_equal(vmlinux_btf_reads(), r0 + 2);
	assert_int_equal(btf__type_cnt(c), btf__type_cnt(b));
	btf__free(b);
	btf__free(c);
	vmlinux_btf_release();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_once_then_copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
