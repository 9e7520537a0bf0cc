// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: util/vm_child.c. The child shares the parent's memory (what it writes, the parent
 * reads), has file descriptors of its own (what it closes stays open in the parent), returns its
 * status through waitpid like a fork's child, and can exec.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include "vm_child.h"

static volatile int seen;

static int write_shared(void *arg)
{
	seen = *(int *)arg;
	return 42;
}

static void test_shares_memory(void **st)
{
	struct vm_child c = { 0 };
	int v = 1234, status = 0;
	pid_t pid;

	(void)st;
	seen = 0;
	pid = vm_child_start(&c, write_shared, &v);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	vm_child_free(&c);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	assert_int_equal(seen, 1234); /* a fork's child would have written its own copy */
	assert_null(c.stack);
}

static int close_fd(void *arg)
{
	return close(*(int *)arg) == 0 ? 0 : 1;
}

static void test_own_fds(void **st)
{
	struct vm_child c = { 0 };
	int p[2], status = 0;
	char b = 0;
	pid_t pid;

	(void)st;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	pid = vm_child_start(&c, close_fd, &p[1]);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	vm_child_free(&c);
	assert_int_equal(WEXITSTATUS(status), 0);
	/* the child closed its copy: the parent's write end still works */
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(read(p[0], &b, 1), 1);
	assert_int_equal(b, 'x');
	close(p[0]);
	close(p[1]);
}

static int run_sh(void *arg)
{
	char *const argv[] = { "sh", "-c", arg, NULL };

	execv("/bin/sh", argv);
	return 127;
}

static void test_exec(void **st)
{
	struct vm_child c = { 0 };
	int status = 0;
	pid_t pid;

	(void)st;
	pid = vm_child_start(&c, run_sh, "exit 7");
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	vm_child_free(&c);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_memory),
		cmocka_unit_test(test_own_fds),
		cmocka_unit_test(test_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
