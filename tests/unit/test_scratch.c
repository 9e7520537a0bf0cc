// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch area: created where asked, removed completely, and nothing else ever removed: not a
 * sibling, not a symlink's target, not another filesystem mounted inside, not a path of the wrong
 * shape.
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
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "scratch.h"

struct fixture {
	char parent[PATH_MAX]; /* a private temp directory standing in for --dir */
};

static void touch(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void join(char *out, const char *a, const char *b)
{
	assert_true(snprintf(out, PATH_MAX, "%s/%s", a, b) < PATH_MAX);
}

/* rm -r of the fixture, by a shell the test does not depend on for its verdicts. */
static void remove_tree(const char *path)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->parent, sizeof(f->parent), "/tmp/iowhy-test-scratch-XXXXXX");
	if (!mkdtemp(f->parent))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->parent);
	free(f);
	return 0;
}

/* Run fn with stderr going to a buffer. */
static void capture_stderr(char *out, size_t n, void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/iowhy-test-stderr-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	ssize_t got;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	got = pread(fd, out, n - 1, 0);
	out[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
}

/* Silence stderr around calls whose error messages are expected. */
static void quiet(int on)
{
	static int saved = -1;

	fflush(stderr);
	if (on && saved < 0) {
		int devnull = open("/dev/null", O_WRONLY);

		saved = dup(STDERR_FILENO);
		dup2(devnull, STDERR_FILENO);
		close(devnull);
	} else if (!on && saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
		saved = -1;
	}
}

static void test_create_makes_fresh_dir_under_parent(void **state)
{
	struct fixture *f = *state;
	struct scratch s, t;
	char prefix[PATH_MAX];
	struct stat st;

	join(prefix, f->parent, "iowhy-");
	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(s.created, 1);
	assert_int_equal(strncmp(s.path, prefix, strlen(prefix)), 0);
	assert_int_equal(strlen(s.path), strlen(prefix) + 6);
	assert_int_equal(stat(s.path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* a second one is a different directory */
	assert_int_equal(scratch_create(&t, f->parent), 0);
	assert_string_not_equal(s.path, t.path);
	scratch_remove(&s);
	scratch_remove(&t);
	assert_false(exists(s.path));
	assert_false(exists(t.path));
}

static void test_create_trailing_slash(void **state)
{
	struct fixture *f = *state;
	char parent[PATH_MAX];
	struct scratch s;

	join(parent, f->parent, "/"); /* "parent//" */
	assert_int_equal(scratch_create(&s, parent), 0);
	assert_null(strstr(s.path, "//"));
	scratch_remove(&s);
	assert_false(exists(s.path));
}

struct create_call {
	const char *parent;
	int rc;
	struct scratch s;
};

static void call_create(void *arg)
{
	struct create_call *c = arg;

	c->rc = scratch_create(&c->s, c->parent);
}

static void test_create_refuses_missing_parent(void **state)
{
	struct fixture *f = *state;
	char missing[PATH_MAX], expect[PATH_MAX + 64], msg[1024];
	struct create_call c = { 0 };

	join(missing, f->parent, "nope");
	c.parent = missing;
	capture_stderr(msg, sizeof(msg), call_create, &c);
	assert_int_equal(c.rc, -1);
	assert_int_equal(c.s.created, 0);
	snprintf(expect, sizeof(expect), "iowhy: --dir %s: No such file or directory\n", missing);
	assert_string_equal(msg, expect);
	assert_false(exists(missing));
}

static void test_create_refuses_file_parent(void **state)
{
	struct fixture *f = *state;
	char file[PATH_MAX], expect[PATH_MAX + 64], msg[1024];
	struct create_call c = { 0 };

	join(file, f->parent, "a-file");
	touch(file, "x");
	c.parent = file;
	capture_stderr(msg, sizeof(msg), call_create, &c);
	assert_int_equal(c.rc, -1);
	snprintf(expect, sizeof(expect), "iowhy: --dir %s: Not a directory\n", file);
	assert_string_equal(msg, expect);
}

static void test_subdir(void **state)
{
	struct fixture *f = *state;
	char sub[PATH_MAX], again[PATH_MAX], expect[PATH_MAX];
	struct scratch s;
	struct stat st;

	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(scratch_subdir(&s, "loop", sub, sizeof(sub)), 0);
	join(expect, s.path, "loop");
	assert_string_equal(sub, expect);
	assert_int_equal(stat(sub, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* fresh means fresh: an existing name is refused, as are names that leave the area */
	quiet(1);
	assert_int_equal(scratch_subdir(&s, "loop", again, sizeof(again)), -1);
	assert_int_equal(scratch_subdir(&s, "../x", again, sizeof(again)), -1);
	assert_int_equal(scratch_subdir(&s, "..", again, sizeof(again)), -1);
	assert_int_equal(scratch_subdir(&s, "", again, sizeof(again)), -1);
	assert_int_equal(scratch_subdir(&s, "x", again, 8), -1); /* does not fit */
	quiet(0);
	scratch_remove(&s);
	assert_false(exists(s.path));
}

/*
 * A populated area next to a sibling file, with symlinks inside pointing at a file and at a
 * directory outside: everything inside goes, the links as links, and nothing outside is touched.
 */
static void test_remove_only_its_tree(void **state)
{
	struct fixture *f = *state;
	char sibling[PATH_MAX], outside_dir[PATH_MAX], outside_file[PATH_MAX], inner[PATH_MAX];
	char sub[PATH_MAX], path[PATH_MAX], deep[PATH_MAX];
	struct scratch s;

	join(sibling, f->parent, "sibling.txt");
	touch(sibling, "keep me");
	join(outside_dir, f->parent, "outside");
	assert_int_equal(mkdir(outside_dir, 0755), 0);
	join(inner, outside_dir, "inner.txt");
	touch(inner, "keep me too");
	join(outside_file, f->parent, "target.txt");
	touch(outside_file, "target");

	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(scratch_subdir(&s, "split", sub, sizeof(sub)), 0);
	for (int i = 0; i < 20; i++) {
		char name[32];

		snprintf(name, sizeof(name), "file-%07d", i);
		join(path, sub, name);
		touch(path, "data");
	}
	join(deep, sub, "a");
	assert_int_equal(mkdir(deep, 0755), 0);
	join(path, deep, "b");
	assert_int_equal(mkdir(path, 0700), 0);
	join(path, sub, "link-to-file");
	assert_int_equal(symlink(outside_file, path), 0);
	join(path, sub, "link-to-dir");
	assert_int_equal(symlink(outside_dir, path), 0);
	join(path, sub, "dangling");
	assert_int_equal(symlink("/nonexistent/iowhy", path), 0);
	join(path, sub, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);

	scratch_remove(&s);
	assert_false(exists(s.path));
	assert_int_equal(s.created, 0);
	assert_true(exists(sibling));
	assert_true(exists(outside_dir));
	assert_true(exists(inner));
	assert_true(exists(outside_file));
	/* idempotent */
	scratch_remove(&s);
	assert_true(exists(sibling));
}

/* Removing an area someone else already removed is quiet and harmless. */
static void test_remove_after_external_removal(void **state)
{
	struct fixture *f = *state;
	struct scratch s;

	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(rmdir(s.path), 0);
	scratch_remove(&s);
	assert_int_equal(s.created, 0);
}

/* A scratch struct pointing at `path` as if iowhy had made it. */
static void forge(struct scratch *s, const char *parent, const char *path)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->parent, sizeof(s->parent), "%s", parent);
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->created = 1;
}

static void make_victim(const char *dir, char *file)
{
	assert_int_equal(mkdir(dir, 0755), 0);
	join(file, dir, "precious");
	touch(file, "do not delete");
}

static void call_remove(void *arg)
{
	scratch_remove(arg);
}

static void test_refuses_bad_paths(void **state)
{
	struct fixture *f = *state;
	char victim[PATH_MAX], precious[PATH_MAX], path[PATH_MAX], fake[PATH_MAX], msg[1024];
	struct scratch s;

	join(victim, f->parent, "victim");
	make_victim(victim, precious);

	forge(&s, f->parent, "");
	scratch_remove(&s);
	assert_int_equal(s.created, 0);

	/* not parent/iowhy-XXXXXX */
	forge(&s, f->parent, victim);
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_non_null(strstr(msg, "not removing"));
	assert_true(exists(precious));

	/* the right prefix, then a way out */
	join(fake, f->parent, "iowhy-aaaaaa");
	assert_int_equal(mkdir(fake, 0755), 0);
	join(path, fake, "../victim");
	forge(&s, f->parent, path);
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_true(exists(precious));
	assert_true(exists(fake));

	/* the right shape, under a different parent */
	forge(&s, "/tmp/somewhere-else", fake);
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_true(exists(fake));

	/* a suffix of the wrong length */
	join(path, f->parent, "iowhy-aaaaaab");
	assert_int_equal(mkdir(path, 0755), 0);
	forge(&s, f->parent, path);
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_true(exists(path));

	/* the area replaced by a symlink to somewhere else: the target's content survives */
	join(path, f->parent, "iowhy-bbbbbb");
	assert_int_equal(symlink(victim, path), 0);
	forge(&s, f->parent, path);
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_true(exists(precious));
}

/*
 * "/" as the path, checked for real inside a chroot to an empty directory, so that even a broken
 * guard could only ever remove the test's own files.
 */
static void test_refuses_root_in_chroot(void **state)
{
	struct fixture *f = *state;
	char jail[PATH_MAX], precious[PATH_MAX], jailed[PATH_MAX];
	int status;
	pid_t pid;

	join(jail, f->parent, "jail");
	make_victim(jail, precious);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		struct scratch s;

		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO); /* the refusals are expected */
		if (chroot(jail) != 0 || chdir("/") != 0)
			_exit(77);
		forge(&s, "/", "/");
		scratch_remove(&s);
		forge(&s, "", "/");
		scratch_remove(&s);
		forge(&s, "/", "/iowhy-../");
		scratch_remove(&s);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip(); /* chroot needs root */
	assert_int_equal(WEXITSTATUS(status), 0);
	join(jailed, jail, "precious");
	assert_true(exists(jailed));
}

/* A filesystem mounted inside the area is not walked into (FTW_MOUNT): its files survive. */
static void test_does_not_cross_mounts(void **state)
{
	struct fixture *f = *state;
	char mnt[PATH_MAX], inside[PATH_MAX], msg[1024];
	struct scratch s;

	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(scratch_subdir(&s, "mnt", mnt, sizeof(mnt)), 0);
	if (mount("iowhy-test", mnt, "tmpfs", 0, "size=64k") != 0) {
		scratch_remove(&s);
		skip(); /* mounting needs root */
	}
	join(inside, mnt, "on-another-fs");
	touch(inside, "x");
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_true(exists(inside));
	assert_non_null(strstr(msg, "could not remove"));
	assert_int_equal(umount(mnt), 0);
	assert_int_equal(rmdir(mnt), 0);
	assert_int_equal(rmdir(s.path), 0);
}

/*
 * A bind mount of a directory of the same file system inside the area (same st_dev: FTW_MOUNT
 * did not see it, and emptied it): not entered, its files survive, the removal says so.
 */
static void test_does_not_empty_bind_mount(void **state)
{
	struct fixture *f = *state;
	char mnt[PATH_MAX], outside[PATH_MAX], inside[PATH_MAX], kept[PATH_MAX], msg[1024];
	struct scratch s;

	join(outside, f->parent, "outside");
	assert_int_equal(mkdir(outside, 0755), 0);
	join(kept, outside, "precious");
	touch(kept, "keep");
	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(scratch_subdir(&s, "bind", mnt, sizeof(mnt)), 0);
	if (mount(outside, mnt, NULL, MS_BIND, NULL) != 0) {
		scratch_remove(&s);
		skip(); /* mounting needs root */
	}
	join(inside, mnt, "precious");
	assert_true(exists(inside)); /* the same file, seen through the mount */
	capture_stderr(msg, sizeof(msg), call_remove, &s);
	assert_true(exists(kept));
	assert_non_null(strstr(msg, "could not remove"));
	assert_int_equal(umount(mnt), 0);
	assert_int_equal(rmdir(mnt), 0);
	assert_int_equal(rmdir(s.path), 0);
	assert_true(exists(kept));
}

/* The area is private (0700, ours) and held open: renaming it away does not lose it. */
static void test_area_private_and_held(void **state)
{
	struct fixture *f = *state;
	char moved[PATH_MAX];
	struct scratch s;
	struct stat st;
	int fd;

	assert_int_equal(scratch_create(&s, f->parent), 0);
	assert_int_equal(stat(s.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(st.st_uid, geteuid());
	assert_true(s.dir.fd > 2);
	assert_int_equal(st.st_ino, s.dir.ino);
	/* someone renames it: files made through the fd still land in it, and it is still removed */
	join(moved, f->parent, "renamed-away");
	assert_int_equal(rename(s.path, moved), 0);
	fd = openat(s.dir.fd, "file", O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(scratch_mkdir(&s, "sub"), 0);
	scratch_remove(&s);
	assert_false(exists(moved));
	assert_false(exists(s.path));
}

#define SCRATCH_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCRATCH_TEST(test_create_makes_fresh_dir_under_parent),
		SCRATCH_TEST(test_create_trailing_slash),
		SCRATCH_TEST(test_create_refuses_missing_parent),
		SCRATCH_TEST(test_create_refuses_file_parent),
		SCRATCH_TEST(test_subdir),
		SCRATCH_TEST(test_remove_only_its_tree),
		SCRATCH_TEST(test_remove_after_external_removal),
		SCRATCH_TEST(test_refuses_bad_paths),
		SCRATCH_TEST(test_refuses_root_in_chroot),
		SCRATCH_TEST(test_does_not_cross_mounts),
		SCRATCH_TEST(test_does_not_empty_bind_mount),
		SCRATCH_TEST(test_area_private_and_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
