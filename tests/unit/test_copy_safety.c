// SPDX-License-Identifier: GPL-2.0
/*
 * copy --from as root (issue 10, item 2): a copy is never more permissive than its source (a 0600
 * file stays 0600, in both modes), and a source replaced by a symlink after the scan is not read
 * through: the secret it points at never reaches the copies, and the run counts the failure.
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

#include "storage.h"

static char tmp[256];

static void put(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static double fact(const struct phase_facts *f, const char *key)
{
	const struct fact *x = facts_get(f, key);

	return x ? x->value : -1;
}

static int setup(void **state)
{
	(void)state;
	umask(022);
	snprintf(tmp, sizeof(tmp), "/tmp/iowhy-test-copysafe-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

/* Does any file under dir contain text? (grep -r, which does not follow symlinks) */
static int tree_contains(const char *dir, const char *text)
{
	char cmd[2 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "grep -rqF '%s' '%s'", text, dir);
	return system(cmd) == 0;
}

static void copy_with_swap(int mode, const char *name)
{
	char src[512], dst[600], secret[512], path[4400];
	struct copy_job j = { .mode = mode, .jobs = 1 };
	struct phase_facts f = { 0 };
	struct wl_tree t;
	struct stat st;

	snprintf(src, sizeof(src), "%s/src-%s", tmp, name);
	assert_int_equal(mkdir(src, 0755), 0);
	put(src, "private", "private data", 0600);
	put(src, "public", "public data", 0644);
	put(src, "swapped", "harmless", 0644);
	snprintf(secret, sizeof(secret), "%s/secret-%s", tmp, name);
	assert_int_equal(mkdir(secret, 0700), 0);
	put(secret, "key", "TOP-SECRET-KEY", 0600);
	assert_int_equal(wl_tree_scan(&t, src), 0);
	assert_int_equal(t.nfiles, 3);
	/* after the scan, someone turns a source into a link to the secret */
	snprintf(path, sizeof(path), "%s/swapped", src);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/key", secret);
	assert_int_equal(symlink(path, strcat(strcpy(dst, src), "/swapped")), 0);

	j.tree = &t;
	snprintf(j.src, sizeof(j.src), "%s", src);
	snprintf(j.dst, sizeof(j.dst), "%s/dst-%s", tmp, name);
	copy_fn(&j, &f);
	assert_false(tree_contains(j.dst, "TOP-SECRET-KEY"));
	assert_int_equal(wl_tree_identical(&t, src, j.dst), 2); /* the link is no identical copy */
	if (mode == COPY_INPROC)
		assert_int_equal((int)fact(&f, "failures"), 1);
	snprintf(path, sizeof(path), "%s/private", j.dst);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	snprintf(path, sizeof(path), "%s/public", j.dst);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	wl_tree_free(&t);
}

static void test_inproc(void **state)
{
	(void)state;
	copy_with_swap(COPY_INPROC, "inproc");
}

static void test_process(void **state)
{
	(void)state;
	copy_with_swap(COPY_PROCESS, "process");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_inproc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_process, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
