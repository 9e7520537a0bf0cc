// SPDX-License-Identifier: GPL-2.0
/*
 * safe_tree: removal relative to directory fds. A symlink is removed as a link (its target keeps
 * everything), a name that is a symlink is never opened as the tree, a directory swapped between
 * the look and the open is refused (ESTALE), and nothing outside the tree is touched.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "safe_tree.h"

static char base[PATH_MAX];

static void touch_at(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

static int exists_at(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/iowhy-test-safetree-XXXXXX");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* A tree with links out of it: the tree goes, the links as links, the outside stays. */
static void test_remove_tree_with_links_out(void **state)
{
	struct tree_errors err = { 0 };
	int b = open(base, O_RDONLY | O_DIRECTORY), t;

	(void)state;
	assert_true(b >= 0);
	assert_int_equal(mkdirat(b, "outside", 0755), 0);
	touch_at(b, "outside/keep");
	assert_int_equal(mkdirat(b, "tree", 0755), 0);
	assert_int_equal(mkdirat(b, "tree/a", 0755), 0);
	assert_int_equal(mkdirat(b, "tree/a/b", 0700), 0);
	touch_at(b, "tree/a/b/f");
	t = openat(b, "tree/a", O_RDONLY | O_DIRECTORY);
	assert_int_equal(symlinkat("../../outside", t, "to-dir"), 0);
	assert_int_equal(symlinkat("../../outside/keep", t, "to-file"), 0);
	close(t);
	assert_int_equal(tree_remove_at(b, "tree", &err), 0);
	assert_int_equal(err.failed, 0);
	assert_false(exists_at(b, "tree"));
	assert_true(exists_at(b, "outside/keep"));
	close(b);
}

/* The name given is a symlink to a directory: refused (ELOOP), the target keeps its files. */
static void test_refuses_symlink_root(void **state)
{
	struct tree_errors err = { 0 };
	struct dir_id id;
	int b = open(base, O_RDONLY | O_DIRECTORY);

	(void)state;
	assert_int_equal(mkdirat(b, "victim", 0755), 0);
	touch_at(b, "victim/keep");
	assert_int_equal(symlinkat("victim", b, "link"), 0);
	assert_int_equal(open_dir_at(b, "link", &id), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(tree_remove_at(b, "link", &err), 1);
	assert_non_null(strstr(err.first, "link"));
	assert_true(exists_at(b, "victim/keep"));
	assert_true(exists_at(b, "link"));
	/* names that are not one component are refused before anything is looked at */
	assert_int_equal(tree_remove_at(b, "victim/..", &err), 1);
	assert_int_equal(tree_remove_at(b, "..", &err), 1);
	assert_true(exists_at(b, "victim/keep"));
	close(b);
}

/* tree_empty empties through the fd even after the directory was renamed away. */
static void test_empty_through_fd_after_rename(void **state)
{
	struct tree_errors err = { 0 };
	int b = open(base, O_RDONLY | O_DIRECTORY), fd;

	(void)state;
	assert_int_equal(mkdirat(b, "area", 0700), 0);
	fd = openat(b, "area", O_RDONLY | O_DIRECTORY);
	touch_at(fd, "f1");
	assert_int_equal(mkdirat(fd, "d", 0755), 0);
	touch_at(fd, "d/f2");
	/* the name now points somewhere else, with files of its own */
	assert_int_equal(renameat(b, "area", b, "moved"), 0);
	assert_int_equal(mkdirat(b, "area", 0755), 0);
	touch_at(b, "area/other");
	assert_int_equal(tree_empty(fd, "area", &err), 0);
	assert_false(exists_at(b, "moved/f1"));
	assert_false(exists_at(b, "moved/d"));
	assert_true(exists_at(b, "area/other"));
	close(fd);
	close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_remove_tree_with_links_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_symlink_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_through_fd_after_rename, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
