// SPDX-License-Identifier: GPL-2.0
/*
 * `iowhy gen`: option parsing and its exit paths, and the three strategies run directly (untraced)
 * in a temp directory, checked by gen_verify and by looking at the files ourselves.
 *
 * This binary doubles as the loop strategy's fallback writer: gen execs /proc/self/exe __write FILE
 * SIZE when there is no dd, so main() answers `__write` the way iowhy does.
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

#include "gen.h"
#include "writer.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------------------------------------- */
/* Parsing */

/* gen_parse with its stderr line caught in err (without "iowhy gen: "): 0, 1, or -1 for 2. */
static int parse(int argc, char **argv, struct gen_opts *o, char *err, size_t n)
{
	FILE *saved = stderr, *mem = fmemopen(err, n, "w");
	int rc;

	assert_non_null(mem);
	err[0] = '\0';
	stderr = mem;
	rc = gen_parse(argc, argv, o);
	stderr = saved;
	fclose(mem);
	return rc == 2 ? -1 : rc;
}

static void test_parse_full(void **state)
{
	char *argv[] = { "gen", "--strategy", "split,loop", "--size", "10k", "--count", "300",
			 "--sync", "--dir", "/tmp", "--json", "out.json", "--strategy", "direct" };
	struct gen_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(ARGC(argv), argv, &o, err, sizeof(err)), 0);
	assert_int_equal(o.nstrategies, 3);
	assert_int_equal(o.strategies[0], GEN_SPLIT);
	assert_int_equal(o.strategies[1], GEN_LOOP);
	assert_int_equal(o.strategies[2], GEN_DIRECT);
	assert_int_equal(o.size, 10240);
	assert_int_equal(o.count, 300);
	assert_int_equal(o.sync, 1);
	assert_string_equal(o.common.dir, "/tmp");
	assert_string_equal(o.common.json_path, "out.json");
}

/* "--name=VALUE", and common flags and valued options mixed with gen's own. */
static void test_parse_mixed_forms(void **state)
{
	char *argv[] = { "gen", "--drop-caches", "--strategy=direct", "--repeat", "3", "--size=1M",
			 "--sync", "--count=7", "--dir=/var/tmp" };
	struct gen_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(ARGC(argv), argv, &o, err, sizeof(err)), 0);
	assert_int_equal(o.common.drop_caches, 1);
	assert_int_equal(o.common.repeat, 3);
	assert_int_equal(o.nstrategies, 1);
	assert_int_equal(o.strategies[0], GEN_DIRECT);
	assert_int_equal(o.size, 1 << 20);
	assert_int_equal(o.count, 7);
	assert_int_equal(o.sync, 1);
	assert_string_equal(o.common.dir, "/var/tmp");
}

static void test_parse_defaults(void **state)
{
	char *argv[] = { "gen", "--count", "1", "--size", "1", "--strategy", "direct" };
	struct gen_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(ARGC(argv), argv, &o, err, sizeof(err)), 0);
	assert_int_equal(o.sync, 0);
	assert_int_equal(o.nstrategies, 1);
	assert_int_equal(o.size, 1);
	assert_null(o.common.json_path);
}

static void test_parse_help(void **state)
{
	char *argv[] = { "gen", "--size", "1k", "-h" };
	char *argv2[] = { "gen", "--help" };
	struct gen_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(ARGC(argv), argv, &o, err, sizeof(err)), 1);
	assert_int_equal(parse(ARGC(argv2), argv2, &o, err, sizeof(err)), 1);
}

/* Each case: arguments after "gen", and a piece of the message it must give. */
struct bad_case {
	const char *args[10]; /* NULL-terminated */
	const char *says;
	const char *also;     /* a second piece, or NULL */
};

static const struct bad_case bad_cases[] = {
	{ { "--strategy", "loop,loop", "--size", "1k", "--count", "1" },
	  "'loop' given more than once", NULL },
	{ { "--strategy", "loop", "--strategy", "loop", "--size", "1k", "--count", "1" },
	  "'loop' given more than once", NULL },
	{ { "--strategy", "cp", "--size", "1k", "--count", "1" }, "unknown strategy 'cp'", NULL },
	{ { "--strategy", "loop,", "--size", "1k", "--count", "1" }, "empty strategy", NULL },
	{ { "--strategy", "", "--size", "1k", "--count", "1" }, "empty strategy", NULL },
	{ { "--strategy", "loop", "--size", "bogus", "--count", "1" }, "--size: ", "'bogus'" },
	{ { "--strategy", "loop", "--size", "0", "--count", "1" }, "--size: ", "'0'" },
	{ { "--strategy", "loop", "--size", "2G", "--count", "1" }, "--size: ", "'2G'" },
	{ { "--strategy", "loop", "--size", "1k", "--count", "0" }, "--count: ", "'0'" },
	{ { "--strategy", "loop", "--size", "1k", "--count", "10000001" },
	  "--count: ", "'10000001'" },
	{ { "--strategy", "loop", "--size", "1G", "--count", "65" }, "more than 64 GiB", NULL },
	{ { "--strategy", "loop", "--size", "1k", "--count" }, "--count needs a value", NULL },
	{ { "--strategy", "loop", "--size", "1k", "--count", "1", "--frobnicate" },
	  "unknown option '--frobnicate'", NULL },
	{ { "--strategy", "loop", "--size", "1k", "--count", "1", "extra" },
	  "unexpected argument 'extra'", NULL },
	{ { "--strategy", "loop,split,direct", "--size", "1k", "--count", "1", "--repeat", "11",
	    "--sync" },
	  "make 66 phases; a session runs at most 64", NULL },
	{ { "--size", "1k", "--count", "1" }, "--strategy is required", NULL },
	{ { "--strategy", "loop", "--count", "1" }, "--size is required", NULL },
	{ { "--strategy", "loop", "--size", "1k" }, "--count is required", NULL },
};

static void test_parse_errors(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++) {
		char *argv[11] = { "gen" };
		struct gen_opts o;
		char err[256];
		int argc = 1;

		for (; bad_cases[c].args[argc - 1]; argc++)
			argv[argc] = (char *)bad_cases[c].args[argc - 1];
		assert_int_equal(parse(argc, argv, &o, err, sizeof(err)), -1);
		if (!strstr(err, bad_cases[c].says))
			fail_msg("case %zu: message '%s' lacks '%s'", c, err, bad_cases[c].says);
		if (bad_cases[c].also && !strstr(err, bad_cases[c].also))
			fail_msg("case %zu: message '%s' lacks '%s'", c, err, bad_cases[c].also);
	}
}

/* Run fn(arg) with stderr captured into out; returns what fn returned. */
static int capture_stderr(int (*fn)(void *), void *arg, char *out, size_t n)
{
	char path[] = "/tmp/iowhy-test-stderr-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	ssize_t got;
	int rc;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	rc = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	got = pread(fd, out, n - 1, 0);
	out[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

struct argv_call {
	int argc;
	char **argv;
};

static int call_cmd_gen(void *arg)
{
	struct argv_call *c = arg;

	return cmd_gen(c->argc, c->argv);
}

/* cmd_gen with argv, stderr captured into out. */
static int run_cmd_gen(int argc, char **argv, char *out, size_t n)
{
	struct argv_call c = { argc, argv };

	return capture_stderr(call_cmd_gen, &c, out, n);
}

static void test_cmd_gen_bad_size_exits_2(void **state)
{
	char *argv[] = { "gen", "--strategy", "direct", "--size", "10q", "--count", "5" };
	char msg[512];

	(void)state;
	assert_int_equal(run_cmd_gen(ARGC(argv), argv, msg, sizeof(msg)), 2);
	assert_int_equal(strncmp(msg, "iowhy gen: --size: ", strlen("iowhy gen: --size: ")), 0);
	assert_non_null(strstr(msg, "10q"));
	assert_non_null(strchr(msg, '\n'));
	assert_ptr_equal(strchr(msg, '\n'), msg + strlen(msg) - 1); /* one line */
}

static void test_cmd_gen_duplicate_strategy_exits_2(void **state)
{
	char *argv[] = { "gen", "--strategy", "split,direct,split", "--size", "1k", "--count",
			 "5" };
	char msg[512];

	(void)state;
	assert_int_equal(run_cmd_gen(ARGC(argv), argv, msg, sizeof(msg)), 2);
	assert_string_equal(msg, "iowhy gen: --strategy: 'split' given more than once\n");
}

static void test_cmd_gen_missing_dir_exits_2(void **state)
{
	char *argv[] = { "gen", "--strategy", "direct", "--size", "1k", "--count", "5", "--dir",
			 "/nonexistent/iowhy" };
	char msg[512];

	(void)state;
	assert_int_equal(run_cmd_gen(ARGC(argv), argv, msg, sizeof(msg)), 2);
	assert_string_equal(msg, "iowhy: --dir /nonexistent/iowhy: No such file or directory\n");
}

static void test_check_space(void **state)
{
	char *argv[] = { "gen", "--strategy", "split", "--size", "1G", "--count", "64" };
	struct gen_opts o;
	char err[512];

	(void)state;
	assert_int_equal(gen_parse(ARGC(argv), argv, &o), 0);
	o.common.repeat = 1000000; /* 64 PiB: no disk here has that */
	assert_int_equal(gen_check_space(&o, "/tmp", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not enough free space in /tmp"));
	o.size = 1;
	o.count = 1;
	o.common.repeat = 1;
	assert_int_equal(gen_check_space(&o, "/tmp", err, sizeof(err)), 0);
	assert_int_equal(gen_check_space(&o, "/nonexistent/iowhy", err, sizeof(err)), -1);
}

static void test_find_program(void **state)
{
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(gen_find_program("sh", path, sizeof(path)), 0);
	assert_int_equal(access(path, X_OK), 0);
	assert_int_equal(gen_find_program("iowhy-no-such-program", path, sizeof(path)), -1);
}

/* ------------------------------------------------------------------------------------------- */
/* The strategies, run directly in a temp directory */

struct gen_fixture {
	char dir[PATH_MAX];
	struct gen_work w;
	struct phase_facts facts;
};

static int gen_setup(void **state)
{
	struct gen_fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/iowhy-test-gen-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->w.dir, sizeof(f->w.dir), "%s", f->dir);
	f->w.count = 50;
	f->w.size = 10240;
	*state = f;
	return 0;
}

static int gen_teardown(void **state)
{
	struct gen_fixture *f = *state;
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static double fact(const struct phase_facts *pf, const char *key)
{
	const struct fact *f = facts_get(pf, key);

	if (!f)
		fail_msg("fact %s missing", key);
	return f->value;
}

/* Our own look at the directory: file-0000000.. file-(count-1) of exactly size bytes, no more. */
static void assert_exact_files(const char *dir, uint64_t count, uint64_t size)
{
	uint64_t seen = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX * 2];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(st.st_size, size);
		assert_int_equal(strncmp(e->d_name, "file-", 5), 0);
		assert_int_equal(strlen(e->d_name), 12);
		assert_true(strtoull(e->d_name + 5, NULL, 10) < count);
		seen++;
	}
	closedir(d);
	assert_int_equal(seen, count);
}

/* Two files differ, and the first is not all zeros: real pseudo-random data. */
static void assert_random_content(const char *dir, uint64_t size)
{
	char a[PATH_MAX + 32], b[PATH_MAX + 32];
	char *x = malloc(size), *y = malloc(size);
	size_t zeros = 0;
	FILE *fa, *fb;

	snprintf(a, sizeof(a), "%s/file-0000000", dir);
	snprintf(b, sizeof(b), "%s/file-0000001", dir);
	fa = fopen(a, "rb");
	fb = fopen(b, "rb");
	assert_non_null(fa);
	assert_non_null(fb);
	assert_int_equal(fread(x, 1, size, fa), size);
	assert_int_equal(fread(y, 1, size, fb), size);
	assert_memory_not_equal(x, y, size);
	for (uint64_t i = 0; i < size; i++)
		zeros += x[i] == 0;
	assert_true(zeros < size / 64);
	fclose(fa);
	fclose(fb);
	free(x);
	free(y);
}

static void run_and_check(struct gen_fixture *f)
{
	assert_int_equal(gen_run(&f->w, &f->facts), 0);
	assert_int_equal(gen_verify(&f->w, &f->facts), 0);
	assert_int_equal(f->w.verify_failed, 0);
	assert_exact_files(f->dir, f->w.count, f->w.size);
	assert_true(fact(&f->facts, "files") == (double)f->w.count);
	assert_true(fact(&f->facts, "files_written") == (double)f->w.count);
	assert_true(fact(&f->facts, "bytes_on_disk") == (double)(f->w.count * f->w.size));
	assert_true(fact(&f->facts, "files_wrong_size") == 0);
	assert_true(fact(&f->facts, "app_seconds") > 0);
}

static void test_direct(void **state)
{
	struct gen_fixture *f = *state;

	f->w.strategy = GEN_DIRECT;
	run_and_check(f);
	assert_true(fact(&f->facts, "bytes_written") == 50.0 * 10240);
	assert_random_content(f->dir, f->w.size);
}

static void test_split_leaves_no_big_file(void **state)
{
	struct gen_fixture *f = *state;
	char big[PATH_MAX + 16];

	f->w.strategy = GEN_SPLIT;
	run_and_check(f);
	snprintf(big, sizeof(big), "%s/%s", f->dir, GEN_BIG_FILE);
	assert_int_equal(access(big, F_OK), -1);
	/* the big file and every piece: twice the data written, once read back */
	assert_true(fact(&f->facts, "bytes_written") == 2.0 * 50 * 10240);
	assert_true(fact(&f->facts, "bytes_read") == 50.0 * 10240);
	assert_random_content(f->dir, f->w.size);
}

/* Pieces that straddle split's 1 MiB buffer, and files bigger than it. */
static void test_split_odd_sizes(void **state)
{
	struct gen_fixture *f = *state;

	f->w.strategy = GEN_SPLIT;
	f->w.size = 3000;
	f->w.count = 700; /* 2.0 MiB: pieces cross buffer boundaries */
	run_and_check(f);
}

static void test_split_pieces_larger_than_buffer(void **state)
{
	struct gen_fixture *f = *state;

	f->w.strategy = GEN_SPLIT;
	f->w.size = 1536 * 1024;
	f->w.count = 3;
	run_and_check(f);
}

static void test_loop_with_dd(void **state)
{
	struct gen_fixture *f = *state;

	if (access("/usr/bin/dd", X_OK) != 0) {
		fprintf(stderr, "skipped: no /usr/bin/dd on this system\n");
		skip();
	}
	f->w.strategy = GEN_LOOP;
	f->w.dd_path = "/usr/bin/dd";
	run_and_check(f);
	assert_true(fact(&f->facts, "bytes_written") == 50.0 * 10240);
	assert_random_content(f->dir, f->w.size);
}

static void test_loop_with_own_writer(void **state)
{
	struct gen_fixture *f = *state;

	f->w.strategy = GEN_LOOP;
	f->w.dd_path = NULL; /* exec /proc/self/exe __write: this test binary */
	run_and_check(f);
	assert_random_content(f->dir, f->w.size);
}

static int call_gen_run(void *arg)
{
	struct gen_fixture *f = arg;

	return gen_run(&f->w, &f->facts);
}

static void test_loop_reports_failure(void **state)
{
	struct gen_fixture *f = *state;
	char msg[PATH_MAX + 128], expect[PATH_MAX + 128];

	f->w.strategy = GEN_LOOP;
	f->w.dd_path = "/bin/false";
	assert_int_equal(capture_stderr(call_gen_run, f, msg, sizeof(msg)), 1);
	snprintf(expect, sizeof(expect),
		 "iowhy gen: dd writing %s/file-0000000 exited with status 1\n", f->dir);
	assert_string_equal(msg, expect);
	assert_true(fact(&f->facts, "files_written") == 0); /* stopped at the first failure */
}

static void test_write_error_names_file(void **state)
{
	struct gen_fixture *f = *state;
	char msg[PATH_MAX + 128], expect[PATH_MAX + 128];

	f->w.strategy = GEN_DIRECT;
	assert_true(snprintf(f->w.dir, sizeof(f->w.dir), "%s/missing", f->dir) <
		    (int)sizeof(f->w.dir));
	assert_int_equal(capture_stderr(call_gen_run, f, msg, sizeof(msg)), 1);
	snprintf(expect, sizeof(expect),
		 "iowhy gen: writing %s/missing/file-0000000: No such file or directory\n", f->dir);
	assert_string_equal(msg, expect);
}

static void test_verify_catches_wrong_files(void **state)
{
	struct gen_fixture *f = *state;
	char path[PATH_MAX + 32];

	f->w.strategy = GEN_DIRECT;
	f->w.count = 5;
	assert_int_equal(gen_run(&f->w, &f->facts), 0);

	snprintf(path, sizeof(path), "%s/extra", f->dir);
	assert_int_equal(close(open(path, O_WRONLY | O_CREAT, 0644)), 0);
	assert_int_equal(gen_verify(&f->w, &f->facts), 1);
	assert_string_equal(f->w.verify_msg, "direct left 6 files, expected 5");
	assert_int_equal(unlink(path), 0);

	f->w.verify_msg[0] = '\0';
	snprintf(path, sizeof(path), "%s/file-0000003", f->dir);
	assert_int_equal(truncate(path, 100), 0);
	assert_int_equal(gen_verify(&f->w, &f->facts), 1);
	assert_true(fact(&f->facts, "files_wrong_size") == 1);
	assert_string_equal(f->w.verify_msg,
			    "direct left 1 file of the wrong size (expected 10240 bytes each)");
}

static void test_verify_catches_big_file(void **state)
{
	struct gen_fixture *f = *state;
	char from[PATH_MAX + 32], to[PATH_MAX + 32];

	f->w.strategy = GEN_SPLIT;
	f->w.count = 4;
	assert_int_equal(gen_run(&f->w, &f->facts), 0);
	/* one piece renamed to big.img: four files of the right size, but the big file is there */
	snprintf(from, sizeof(from), "%s/file-0000000", f->dir);
	snprintf(to, sizeof(to), "%s/%s", f->dir, GEN_BIG_FILE);
	assert_int_equal(rename(from, to), 0);
	assert_int_equal(gen_verify(&f->w, &f->facts), 1);
	assert_string_equal(f->w.verify_msg, "split left its big file big.img behind");
}

static void test_flush(void **state)
{
	struct gen_fixture *f = *state;

	assert_int_equal(gen_flush(&f->w, &f->facts), 0);
	assert_true(fact(&f->facts, "app_seconds") >= 0);
}

#define GEN_TEST(fn) cmocka_unit_test_setup_teardown(fn, gen_setup, gen_teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_full),
		cmocka_unit_test(test_parse_mixed_forms),
		cmocka_unit_test(test_parse_defaults),
		cmocka_unit_test(test_parse_help),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_cmd_gen_bad_size_exits_2),
		cmocka_unit_test(test_cmd_gen_duplicate_strategy_exits_2),
		cmocka_unit_test(test_cmd_gen_missing_dir_exits_2),
		cmocka_unit_test(test_check_space),
		cmocka_unit_test(test_find_program),
		GEN_TEST(test_direct),
		GEN_TEST(test_split_leaves_no_big_file),
		GEN_TEST(test_split_odd_sizes),
		GEN_TEST(test_split_pieces_larger_than_buffer),
		GEN_TEST(test_loop_with_dd),
		GEN_TEST(test_loop_with_own_writer),
		GEN_TEST(test_loop_reports_failure),
		GEN_TEST(test_write_error_names_file),
		GEN_TEST(test_verify_catches_wrong_files),
		GEN_TEST(test_verify_catches_big_file),
		GEN_TEST(test_flush),
	};

	if (argc > 1 && strcmp(argv[1], "__write") == 0)
		return writer_main(argc - 1, argv + 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
