// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: what start-up does instead of libbpf's kallsyms parse and of trusted-pointer
 * verification, and their fallbacks (no kernel needed):
 *   - the kallsyms scanner (collect/ksym_addrs.c): first symbol of each name, module symbols,
 *     hidden addresses, no prefix matches, and it stops reading once every name is found;
 *   - the I/O object's two builds (bpf/io.bpf.c with and without IO_TRUSTED_ARGS): the same maps,
 *     variables and programs, so one skeleton opens both; only the default one calls the kfunc.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/libbpf.h>
#include "ksym_addrs.h"
#include "io.skel.h"
#include "io_trusted.skel.h"

static const char *const names[] = { "loop_workfn", "loop_rootcg_workfn", "absent_fn" };

/* Write text to a new temporary file; its path in path. */
static void write_fixture(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/iowhy-test-kallsyms-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_scan_finds_first(void **state)
{
	uint64_t a[3] = { 1, 1, 1 };
	char path[64];

	(void)state;
	write_fixture(path,
		      "ffffffff81000000 T _stext\n"
		      "ffffffff81000100 t loop_workfn_helper\n" /* a longer name: not it */
		      "ffffffff81000200 t loop_workf\n"        /* a prefix: not it */
		      "ffffffff81234560 t loop_workfn\n"
		      "ffffffff81234999 t loop_workfn\n"       /* a second one: the first wins */
		      "ffffffffc0001230 t loop_rootcg_workfn\t[loop]"); /* a module's, no newline */
	assert_int_equal(ksym_addrs_scan(path, names, a, 3), 2);
	assert_true(a[0] == 0xffffffff81234560ull);
	assert_true(a[1] == 0xffffffffc0001230ull);
	assert_true(a[2] == 0);
	unlink(path);
}

static void test_scan_hidden_and_missing(void **state)
{
	uint64_t a[3];
	char path[64];

	(void)state;
	/* kptr_restrict: every address reads 0: not an address */
	write_fixture(path, "0000000000000000 t loop_workfn\n0000000000000000 T _stext\n");
	assert_int_equal(ksym_addrs_scan(path, names, a, 3), 0);
	assert_true(a[0] == 0 && a[1] == 0 && a[2] == 0);
	unlink(path);
	assert_int_equal(ksym_addrs_scan("/nonexistent/kallsyms", names, a, 3), -1);
}

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("the scanner kept reading after every name was found");
}

/* A pipe whose writer never closes: the scan returns only if it stops once both are found. */
static void test_scan_stops_early(void **state)
{
	uint64_t a[2];
	char path[64];
	int p[2];
	const char *text = "ffffffff81000000 T _stext\n"
			   "ffffffff81000010 t loop_rootcg_workfn\n"
			   "ffffffff81000020 t loop_workfn\n";

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], text, strlen(text)), (ssize_t)strlen(text));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(ksym_addrs_scan(path, names, a, 2), 2);
	alarm(0);
	assert_true(a[0] == 0xffffffff81000020ull && a[1] == 0xffffffff81000010ull);
	close(p[0]);
	close(p[1]);
}

/* Whether the ELF image holds the string s. */
static int elf_has(const void *elf, size_t n, const char *s)
{
	return memmem(elf, n, s, strlen(s) + 1) != NULL;
}

/* The trusted build opens with the default build's skeleton: every map, variable and program
 * the skeleton names is there (bpf_object__open_skeleton fails otherwise). */
static void test_io_builds_match(void **state)
{
	size_t n1, n2;
	const void *e1 = io_bpf__elf_bytes(&n1), *e2 = io_trusted_bpf__elf_bytes(&n2);
	struct io_bpf *s = calloc(1, sizeof(*s));
	struct bpf_program *p;
	int progs = 0;

	(void)state;
	assert_true(elf_has(e1, n1, "bpf_rdonly_cast"));
	assert_false(elf_has(e2, n2, "bpf_rdonly_cast"));
	assert_true(elf_has(e1, n1, "loop_workfn_addr") && elf_has(e2, n2, "loop_workfn_addr"));
	assert_non_null(s);
	assert_int_equal(io_bpf__create_skeleton(s), 0);
	s->skeleton->data = (void *)e2;
	s->skeleton->data_sz = n2;
	assert_int_equal(bpf_object__open_skeleton(s->skeleton, NULL), 0);
	assert_non_null(s->progs.io_rq_issue);
	assert_non_null(s->rodata);
	bpf_object__for_each_program(p, s->obj)
		progs++;
	assert_int_equal(progs, (int)s->skeleton->prog_cnt);
	io_bpf__destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_finds_first),
		cmocka_unit_test(test_scan_hidden_and_missing),
		cmocka_unit_test(test_scan_stops_early),
		cmocka_unit_test(test_io_builds_match),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
