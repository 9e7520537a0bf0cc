// SPDX-License-Identifier: GPL-2.0
/* Unit tests: kernel and ELF symbols (util/symbols.c), resolved as the sampler resolves frames. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libgen.h>
#include <cmocka.h>
#include "symbols.h"

/* build/tests/elf_fixture, next to this test binary. */
static void fixture_path(char *buf, size_t n)
{
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(len > 0);
	exe[len] = 0;
	snprintf(buf, n, "%s/elf_fixture", dirname(exe));
}

static void test_elf_fixture(void **state)
{
	char path[4096];
	struct elf_syms *e;
	const unsigned char *id;
	size_t len, zero = 0;
	int64_t a, b;

	(void)state;
	fixture_path(path, sizeof(path));
	e = elf_syms_load(path);
	assert_non_null(e);
	id = elf_syms_build_id(e, &len);
	assert_int_equal(len, 20);
	for (size_t i = 0; i < len; i++)
		zero += id[i] == 0;
	assert_true(zero < len);
	a = elf_syms_offset_of(e, "iowhy_fixture_alpha");
	b = elf_syms_offset_of(e, "iowhy_fixture_beta");
	assert_true(a > 0 && b > 0 && a != b);
	assert_string_equal(elf_syms_name_at_offset(e, a), "iowhy_fixture_alpha");
	assert_string_equal(elf_syms_name_at_offset(e, a + 4), "iowhy_fixture_alpha");
	assert_string_equal(elf_syms_name_at_offset(e, b + 1), "iowhy_fixture_beta");
	assert_int_equal(elf_syms_offset_of(e, "no_such_function"), -1);
	assert_null(elf_syms_name_at_offset(e, 1ull << 40));
	/* a dynamic executable needs its interpreter and libc */
	assert_true(elf_syms_nneeded(e) >= 2);
	elf_syms_free(e);
	assert_null(elf_syms_load("/proc/self/status"));
}

/* (build id, file offset) frames, as BPF_F_USER_BUILD_ID stacks give them. */
static void test_usyms_build_id(void **state)
{
	char path[4096];
	struct elf_syms *e;
	struct usyms *u = usyms_new();
	unsigned char id[SYMS_BUILD_ID_MAX], other[SYMS_BUILD_ID_MAX];
	const char *file;
	size_t len;
	int64_t a;

	(void)state;
	fixture_path(path, sizeof(path));
	e = elf_syms_load(path);
	assert_non_null(e);
	const unsigned char *bid = elf_syms_build_id(e, &len);

	memset(id, 0, sizeof(id));
	memcpy(id, bid, len);
	a = elf_syms_offset_of(e, "iowhy_fixture_alpha");
	/* the fixture, its interpreter and libc */
	assert_true(usyms_add_path(u, path) >= 2);
	assert_int_equal(usyms_add_path(u, path), 0); /* known already */
	assert_string_equal(usyms_resolve(u, id, (uint64_t)a + 2, &file), "iowhy_fixture_alpha");
	assert_string_equal(file, "elf_fixture");
	memcpy(other, id, sizeof(other));
	other[0] ^= 0xff;
	assert_null(usyms_resolve(u, other, (uint64_t)a, &file));
	assert_null(file);
	elf_syms_free(e);
	usyms_free(u);
}

__attribute__((noinline)) int test_symbols_marker(int x)
{
	return x * 7 + 3;
}

/* A function of this very process, by its mapping's file offset (as the kernel computes it). */
static void test_usyms_self(void **state)
{
	uintptr_t addr = (uintptr_t)&test_symbols_marker + 3;
	unsigned long start, end, pgoff;
	struct elf_syms *self = elf_syms_load("/proc/self/exe");
	struct usyms *u = usyms_new();
	unsigned char id[SYMS_BUILD_ID_MAX] = { 0 };
	char line[4096], perm[8];
	uint64_t off = 0;
	size_t len;
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	(void)state;
	assert_non_null(f);
	assert_non_null(self);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perm, &pgoff) == 4 &&
		    addr >= start && addr < end) {
			off = addr - start + pgoff;
			found = 1;
		}
	}
	fclose(f);
	assert_true(found);
	{
		const unsigned char *bid = elf_syms_build_id(self, &len);

		assert_true(len > 0);
		memcpy(id, bid, len);
	}
	assert_true(usyms_add_program(u, "/proc/self/exe") >= 1);
	assert_string_equal(usyms_resolve(u, id, off, NULL), "test_symbols_marker");
	assert_int_equal(test_symbols_marker(1), 10);
	elf_syms_free(self);
	usyms_free(u);
}

static void test_ksyms(void **state)
{
	char path[] = "/tmp/iowhy-ksyms.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct ksyms *k;

	(void)state;
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _stext\n"
		   "ffffffff81000c60 T asm_exc_page_fault\n"
		   "ffffffff81382000 D some_data\n"
		   "ffffffff813827b0 T __x64_sys_getppid\n"
		   "ffffffff81391640 t __task_pid_nr_ns\n"
		   "ffffffffc0001000 t ext4_fn\t[ext4]\n"
		   "0000000000000000 T hidden\n"
		   "ffffffffc0000800 t loop_fn\t[loop]\n"   /* a module's own order: sorted on load */
		   "ffffffffc0002000 T last_fn");            /* no newline at the end */
	fclose(f);
	k = ksyms_load(path);
	unlink(path);
	assert_non_null(k);
	assert_int_equal(ksyms_count(k), 7);
	assert_null(ksyms_name(k, 0xffffffff80000000ull));
	assert_string_equal(ksyms_name(k, 0xffffffff81000c61ull), "asm_exc_page_fault");
	assert_string_equal(ksyms_name(k, 0xffffffff813827b0ull), "__x64_sys_getppid");
	assert_string_equal(ksyms_name(k, 0xffffffff81382100ull), "asm_exc_page_fault");
	assert_string_equal(ksyms_name(k, 0xffffffff81391650ull), "__task_pid_nr_ns");
	assert_string_equal(ksyms_name(k, 0xffffffffc0001010ull), "ext4_fn");
	assert_string_equal(ksyms_name(k, 0xffffffffc0000900ull), "loop_fn");
	assert_string_equal(ksyms_name(k, 0xffffffffc0002001ull), "last_fn");
	ksyms_free(k);
	assert_null(ksyms_load("/nonexistent/kallsyms"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_fixture),
		cmocka_unit_test(test_usyms_build_id),
		cmocka_unit_test(test_usyms_self),
		cmocka_unit_test(test_ksyms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
