// SPDX-License-Identifier: GPL-2.0
/*
 * --prometheus FILE: the textfile's contents (escaped labels, per-cgroup counters, --lite without
 * byte counters) and its replacement: atomic, never through a symlink, and nothing iowhy did not
 * create is removed, not even a file with the name of the old fixed temporary file.
 */
#include <dirent.h>
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

#include "interval_out.h"

struct fixture {
	char dir[PATH_MAX];
	char file[PATH_MAX + 16];
	struct interval_sample s;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/iowhy-prom-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->file, sizeof(fx->file), "%s/iowhy.prom", fx->dir);
	fx->s.target = "pid \"7\"\\x\ny";
	fx->s.start_ns = 1000000000;
	fx->s.end_ns = 2000000000;
	fx->s.bucket_ns[WB_USER] = 250000000;
	fx->s.total_bucket_ns[WB_USER] = 1500000000;
	fx->s.ncg_total = 2;
	strcpy(fx->s.cg_total[0].path, "/system.slice/a\"b.service");
	fx->s.cg_total[0].total_read_bytes = 4096;
	fx->s.cg_total[0].total_write_bytes = 67108864;
	strcpy(fx->s.cg_total[1].path, "other");
	fx->s.cg_total[1].total_write_bytes = 18;
	*state = fx;
	return 0;
}

/* Removes the fixture's directory and what is in it (entries the test made; no subdirectories). */
static int teardown(void **state)
{
	struct fixture *fx = *state;
	DIR *d = opendir(fx->dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static char *slurp(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = 0;
	return buf;
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_contents(void **state)
{
	struct fixture *fx = *state;
	const char *t;

	assert_int_equal(prometheus_write(fx->file, &fx->s), 0);
	t = slurp(fx->file);
	assert_non_null(strstr(t, "iowhy_wall_seconds_total{target=\"pid \\\"7\\\"\\\\x\\ny\","
				  "bucket=\"user\"} 1.500000000\n"));
	assert_non_null(strstr(t, "iowhy_interval_wall_ratio{target=\"pid \\\"7\\\"\\\\x\\ny\","
				  "bucket=\"user\"} 0.250000\n"));
	assert_non_null(strstr(t, "# TYPE iowhy_cgroup_read_bytes_total counter\n"));
	assert_non_null(strstr(t, "iowhy_cgroup_read_bytes_total{cgroup="
				  "\"/system.slice/a\\\"b.service\"} 4096\n"));
	assert_non_null(strstr(t, "iowhy_cgroup_write_bytes_total{cgroup="
				  "\"/system.slice/a\\\"b.service\"} 67108864\n"));
	assert_non_null(strstr(t, "iowhy_cgroup_read_bytes_total{cgroup=\"other\"} 0\n"));
	assert_non_null(strstr(t, "iowhy_cgroup_write_bytes_total{cgroup=\"other\"} 18\n"));
	assert_non_null(strstr(t, "iowhy_slowest_call_seconds"));
	/* every line a comment or a sample; no raw newline inside a label */
	for (const char *l = t; *l; l = strchr(l, '\n') + 1)
		assert_true(*l == '#' || !strncmp(l, "iowhy_", 6));
	assert_int_equal(entries(fx->dir), 1); /* no temporary file left */
}

static void test_lite(void **state)
{
	struct fixture *fx = *state;
	const char *t;

	fx->s.lite = 1;
	assert_int_equal(prometheus_write(fx->file, &fx->s), 0);
	t = slurp(fx->file);
	assert_non_null(strstr(t, "iowhy_cgroup_wall_seconds_total{cgroup=\"other\",bucket=\"on_cpu\"}"));
	assert_null(strstr(t, "iowhy_cgroup_read_bytes_total"));
	assert_null(strstr(t, "iowhy_cgroup_write_bytes_total"));
	assert_null(strstr(t, "iowhy_kernel_seconds_total"));
	assert_null(strstr(t, "iowhy_slowest_call_seconds"));
}

/* FILE is a symlink to a file someone cares about: the link is replaced, the target untouched. */
static void test_symlink_replaced_not_followed(void **state)
{
	struct fixture *fx = *state;
	char victim[PATH_MAX + 16];
	struct stat st;
	int fd;

	snprintf(victim, sizeof(victim), "%s/victim", fx->dir);
	fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	assert_int_equal(symlink(victim, fx->file), 0);
	assert_int_equal(prometheus_write(fx->file, &fx->s), 0);
	assert_string_equal(slurp(victim), "keep");
	assert_int_equal(lstat(fx->file, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(entries(fx->dir), 2);
}

/* A file or symlink at the name the old code used for its temporary file (FILE.iowhy-tmp), and at
 * a hidden name of the new shape, are neither removed nor written. */
static void test_foreign_names_untouched(void **state)
{
	struct fixture *fx = *state;
	char old[PATH_MAX + 32], link[PATH_MAX + 32];
	struct stat st;

	snprintf(old, sizeof(old), "%s.iowhy-tmp", fx->file);
	snprintf(link, sizeof(link), "%s/.iowhy.prom.iowhy-00000000", fx->dir);
	assert_int_equal(symlink("/etc/passwd", old), 0);
	assert_int_equal(symlink("/etc/shadow", link), 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(prometheus_write(fx->file, &fx->s), 0);
	assert_int_equal(lstat(old, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(entries(fx->dir), 3);
}

/* A directory where FILE should be: an error, the directory and its contents kept, no temporary
 * file left. A missing parent directory: an error. */
static void test_failures_leave_nothing(void **state)
{
	struct fixture *fx = *state;
	char inside[PATH_MAX + 32], missing[PATH_MAX + 32];

	assert_int_equal(mkdir(fx->file, 0700), 0);
	snprintf(inside, sizeof(inside), "%s/x", fx->file);
	assert_int_equal(mknod(inside, S_IFREG | 0600, 0), 0);
	assert_int_equal(prometheus_write(fx->file, &fx->s), -1);
	assert_int_equal(entries(fx->dir), 1);
	assert_int_equal(entries(fx->file), 1);
	unlink(inside);
	rmdir(fx->file);
	snprintf(missing, sizeof(missing), "%s/no/such.prom", fx->dir);
	errno = 0;
	assert_int_equal(prometheus_write(missing, &fx->s), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(entries(fx->dir), 0);
}

#define PROM_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		PROM_TEST(test_contents),
		PROM_TEST(test_lite),
		PROM_TEST(test_symlink_replaced_not_followed),
		PROM_TEST(test_foreign_names_untouched),
		PROM_TEST(test_failures_leave_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
