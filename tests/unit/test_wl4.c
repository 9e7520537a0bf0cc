// SPDX-License-Identifier: GPL-2.0
/*
 * The storage workloads (bigfile, read, rand, fsbench, tar, copy, delete): option parsing and
 * validation, the shared helpers, and each workload function run directly (untraced) in a temp
 * directory with its exact counts and contents checked.
 */
#include <fcntl.h>
#include <ftw.h>
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
#include <openssl/evp.h>
#include <zlib.h>

#include "storage.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static char tmp[256];

static int rm_cb(const char *p, const struct stat *st, int t, struct FTW *f)
{
	(void)st;
	(void)t;
	(void)f;
	return remove(p);
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/iowhy-wl4.XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	(void)state;
	return nftw(tmp, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static double fact(const struct phase_facts *f, const char *key)
{
	const struct fact *x = facts_get(f, key);

	assert_non_null(x);
	return x->value;
}

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmp, name);
}

/* ---- parsing and validation ---- */

static void test_bigfile_parse(void **state)
{
	char *ok[] = { "bigfile", "--size", "64M", "--bs", "512,1k,1M", "--source", "random", "--no-sync",
		       "--repeat", "3" };
	char *alloc[] = { "bigfile", "--size=2G", "--method", "fallocate,truncate" };
	char *nosize[] = { "bigfile", "--bs", "1k" };
	char *badm[] = { "bigfile", "--size", "1M", "--method", "cp" };
	char *bs_no_dd[] = { "bigfile", "--size", "1M", "--method", "truncate", "--bs", "4k" };
	char *zero[] = { "bigfile", "--size", "0" };
	char *help[] = { "bigfile", "--help" };
	struct bigfile_opts o;

	(void)state;
	assert_int_equal(bigfile_parse(ARGC(ok), ok, &o), 0);
	assert_int_equal(o.size, 64ull << 20);
	assert_int_equal(o.nbs, 3);
	assert_int_equal(o.bs[1], 1024);
	assert_int_equal(o.random, 1);
	assert_int_equal(o.sync, 0);
	assert_int_equal(o.co.repeat, 3);
	assert_int_equal(bigfile_parse(ARGC(alloc), alloc, &o), 0);
	assert_int_equal(o.nmethods, 2);
	assert_int_equal(o.methods[1], BF_TRUNCATE);
	assert_int_equal(o.sync, 1);
	assert_int_equal(bigfile_parse(ARGC(nosize), nosize, &o), 2);
	assert_int_equal(bigfile_parse(ARGC(badm), badm, &o), 2);
	assert_int_equal(bigfile_parse(ARGC(bs_no_dd), bs_no_dd, &o), 2);
	assert_int_equal(bigfile_parse(ARGC(zero), zero, &o), 2);
	assert_int_equal(bigfile_parse(ARGC(help), help, &o), 1);
}

static void test_read_parse(void **state)
{
	char file[300];
	char *direct_bad[] = { "read", "--size", "1M", "--direct", "--bs", "4k,1000" };
	char *both[] = { "read", "/etc/hostname", "--size", "1M" };
	char *none[] = { "read", "--bs", "4k" };
	char *missing[] = { "read", "/nonexistent/file" };
	char *md5_threads[] = { "read", "--size", "1M", "--hash", "md5", "--threads", "2" };
	char *threads0[] = { "read", "--size", "1M", "--threads", "0" };
	char *badhash[] = { "read", "--size", "1M", "--hash", "sha1" };
	char *ok[] = { "read", file, "--bs", "4k,1M", "--direct", "--hash", "crc32", "--threads", "4" };
	struct read_opts o;

	(void)state;
	path_in(file, sizeof(file), "r");
	assert_int_equal(wl_make_file("test", file, 8192, 1), 0);
	assert_int_equal(read_parse(ARGC(direct_bad), direct_bad, &o), 2);
	assert_int_equal(read_parse(ARGC(both), both, &o), 2);
	assert_int_equal(read_parse(ARGC(none), none, &o), 2);
	assert_int_equal(read_parse(ARGC(missing), missing, &o), 2);
	assert_int_equal(read_parse(ARGC(md5_threads), md5_threads, &o), 2);
	assert_int_equal(read_parse(ARGC(threads0), threads0, &o), 2);
	assert_int_equal(read_parse(ARGC(badhash), badhash, &o), 2);
	assert_int_equal(read_parse(ARGC(ok), ok, &o), 0);
	assert_string_equal(o.file, file);
	assert_int_equal(o.nbs, 2);
	assert_int_equal(o.threads, 4);
	assert_int_equal(o.hash, HASH_CRC32);
	assert_int_equal(o.direct, 1);
}

static void test_rand_parse(void **state)
{
	char *both[] = { "rand", "--size", "1M", "--ops", "10", "--time", "1s" };
	char *w0[] = { "rand", "--size", "1M", "--workers", "0" };
	char *userwrite[] = { "rand", "/etc/hostname", "--op", "write" };
	char *odd[] = { "rand", "--size", "1M", "--direct", "--bs", "1000" };
	char *big[] = { "rand", "--size", "1M", "--bs", "2M" };
	char *badtime[] = { "rand", "--size", "1M", "--time", "soon" };
	char *ok[] = { "rand", "--size", "1M", "--workers", "1,8", "--op", "write", "--time", "500ms" };
	struct rand_opts o;

	(void)state;
	assert_int_equal(rand_parse(ARGC(both), both, &o), 2);
	assert_int_equal(rand_parse(ARGC(w0), w0, &o), 2);
	assert_int_equal(rand_parse(ARGC(userwrite), userwrite, &o), 2);
	assert_int_equal(rand_parse(ARGC(odd), odd, &o), 2);
	assert_int_equal(rand_parse(ARGC(big), big, &o), 2);
	assert_int_equal(rand_parse(ARGC(badtime), badtime, &o), 2);
	assert_int_equal(rand_parse(ARGC(ok), ok, &o), 0);
	assert_int_equal(o.nworkers, 2);
	assert_int_equal(o.workers[1], 8);
	assert_int_equal(o.op, RAND_WRITE);
	assert_int_equal(o.time_ns, 500000000ull);
}

static void test_tree_parse(void **state)
{
	char *j0[] = { "copy", "--jobs", "0" };
	char *badmode[] = { "copy", "--mode", "threads" };
	char *from_and_files[] = { "copy", "--from", "/etc", "--files", "10" };
	char *deep[] = { "delete", "--tree", "7" };
	char *from_delete[] = { "delete", "--from", "/etc" };
	char *ok[] = { "copy", "--files", "10", "--size", "4k", "--jobs", "1,4,16", "--mode",
		       "process,inproc", "--tree", "2" };
	char *tar_ok[] = { "tar", "--members", "10", "--member-size", "1k", "--readers", "3", "--gzip" };
	char *tar_r0[] = { "tar", "--readers", "0" };
	char *fs_odd[] = { "fsbench", "--direct", "--bs-rand", "1000" };
	struct copy_opts o;
	struct tar_opts t;
	struct fsbench_opts fb;

	(void)state;
	assert_int_equal(copy_parse(ARGC(j0), j0, &o, 0), 2);
	assert_int_equal(copy_parse(ARGC(badmode), badmode, &o, 0), 2);
	assert_int_equal(copy_parse(ARGC(from_and_files), from_and_files, &o, 0), 2);
	assert_int_equal(copy_parse(ARGC(deep), deep, &o, 1), 2);
	assert_int_equal(copy_parse(ARGC(from_delete), from_delete, &o, 1), 2);
	assert_int_equal(copy_parse(ARGC(ok), ok, &o, 0), 0);
	assert_int_equal(o.njobs, 3);
	assert_int_equal(o.jobs[2], 16);
	assert_int_equal(o.nmodes, 2);
	assert_int_equal(o.modes[1], COPY_INPROC);
	assert_int_equal(o.tree, 2);
	assert_int_equal(tar_parse(ARGC(tar_ok), tar_ok, &t), 0);
	assert_int_equal(t.members, 10);
	assert_int_equal(t.readers, 3);
	assert_int_equal(t.gzip, 1);
	assert_int_equal(tar_parse(ARGC(tar_r0), tar_r0, &t), 2);
	assert_int_equal(fsbench_parse(ARGC(fs_odd), fs_odd, &fb), 2);
}

/* ---- helpers ---- */

static void test_helpers(void **state)
{
	char b[32];
	struct wl_plan *p = calloc(1, sizeof(*p));
	struct phase_spec *ph;
	struct wl_lat l;

	(void)state;
	assert_string_equal(wl_size_label(b, sizeof(b), 512), "512");
	assert_string_equal(wl_size_label(b, sizeof(b), 10240), "10k");
	assert_string_equal(wl_size_label(b, sizeof(b), 1 << 20), "1M");
	assert_string_equal(wl_size_label(b, sizeof(b), 3ull << 30), "3G");
	assert_string_equal(wl_size_label(b, sizeof(b), 1536), "1536");
	ph = wl_plan_add(p, "bs=4k", 2, 3, PHASE_WORK, NULL, NULL);
	assert_string_equal(ph->name, "bs=4k#2");
	assert_string_equal(ph->column, "bs=4k");
	ph = wl_plan_add(p, "bs=4k", 2, 3, PHASE_FLUSH, NULL, NULL);
	assert_string_equal(ph->name, "bs=4k#2/flush");
	ph = wl_plan_add(p, "dd", 1, 1, PHASE_WORK, NULL, NULL);
	assert_string_equal(ph->name, "dd");
	assert_int_equal(p->n, 3);
	assert_int_equal(wl_plan_check("test", SESSION_MAX_PHASES), 0);
	assert_int_equal(wl_plan_check("test", SESSION_MAX_PHASES + 1), 2);
	free(p);

	/* Latency buckets: within one eighth of the value; percentiles from the right bucket. */
	for (uint64_t v = 1; v < (1ull << 40); v = v * 3 + 1) {
		uint64_t lo, width;
		int s = wl_lat_slot(v);

		assert_true(s >= 0 && s < WL_LAT_SLOTS);
		lo = v < 8 ? v : v >> (63 - __builtin_clzll(v) - 3) << (63 - __builtin_clzll(v) - 3);
		width = v < 8 ? 1 : 1ull << (63 - __builtin_clzll(v) - 3);
		assert_true(v >= lo && v < lo + width);
	}
	wl_lat_init(&l);
	for (int k = 0; k < 98; k++)
		wl_lat_add(&l, 40000);
	wl_lat_add(&l, 1000000);
	wl_lat_add(&l, 2000000);
	assert_true(wl_lat_pct(&l, 50) >= 36000 && wl_lat_pct(&l, 50) <= 44000);
	assert_true(wl_lat_pct(&l, 99) >= 900000 && wl_lat_pct(&l, 99) <= 1100000);
	assert_int_equal(wl_lat_pct(&l, 100), 2000000);
	assert_int_equal(l.n, 100);
}

/* ---- bigfile ---- */

static void test_bigfile_dd_exact_writes(void **state)
{
	struct bigfile_job j = { .size = 64ull << 20, .bs = 1024, .method = BF_DD };
	struct phase_facts f = { 0 };
	struct stat st;

	(void)state;
	path_in(j.path, sizeof(j.path), "big");
	assert_int_equal(bigfile_fn(&j, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "writes"), 65536);
	assert_int_equal((uint64_t)fact(&f, "bytes"), 64ull << 20);
	assert_true(fact(&f, "app_seconds") > 0);
	assert_int_equal(stat(j.path, &st), 0);
	assert_int_equal(st.st_size, 64ll << 20);

	/* A size that is not a multiple of bs: the last write is short, still one call per block. */
	j.size = 10000;
	j.random = 1;
	memset(&f, 0, sizeof(f));
	assert_int_equal(bigfile_fn(&j, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "writes"), 10);
	assert_int_equal(stat(j.path, &st), 0);
	assert_int_equal(st.st_size, 10000);
	unlink(j.path);
}

static void test_bigfile_fallocate_truncate(void **state)
{
	struct bigfile_job j = { .size = 64ull << 20, .method = BF_FALLOCATE };
	struct phase_facts f = { 0 };
	struct stat st;

	(void)state;
	path_in(j.path, sizeof(j.path), "alloc");
	assert_int_equal(bigfile_fn(&j, &f), 0);
	assert_int_equal(stat(j.path, &st), 0);
	assert_int_equal(st.st_size, 64ll << 20);
	assert_true((uint64_t)st.st_blocks * 512 >= 64ull << 20);

	j.method = BF_TRUNCATE;
	path_in(j.path, sizeof(j.path), "sparse");
	assert_int_equal(bigfile_fn(&j, &f), 0);
	assert_int_equal(stat(j.path, &st), 0);
	assert_int_equal(st.st_size, 64ll << 20);
	assert_true(st.st_blocks <= 8);
}

/* ---- read ---- */

static void md5_hex(const char *path, char *hex)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *data, d[16];
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	data = malloc((size_t)n);
	assert_int_equal(fread(data, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	assert_int_equal(EVP_Digest(data, (size_t)n, d, NULL, EVP_md5(), NULL), 1);
	for (int k = 0; k < 16; k++)
		sprintf(hex + 2 * k, "%02x", d[k]);
	free(data);
}

static void test_read_md5_matches_openssl(void **state)
{
	char path[300], hex[40], label[48];
	struct read_job j = { .path = path, .size = 3 * 1000 * 1000 + 123, .bs = 65536,
			      .hash = HASH_MD5, .threads = 1 };
	struct phase_facts f = { 0 };

	(void)state;
	path_in(path, sizeof(path), "md5");
	assert_int_equal(wl_make_file("test", path, j.size, 42), 0);
	md5_hex(path, hex);
	assert_int_equal(read_fn(&j, &f), 0);
	snprintf(label, sizeof(label), "md5 %s", hex);
	assert_string_equal(facts_get(&f, "md5")->label, label);
	assert_int_equal((uint64_t)fact(&f, "bytes"), j.size);
	assert_int_equal((uint64_t)fact(&f, "reads"), (j.size + j.bs - 1) / j.bs);

	/* O_DIRECT with aligned buffers (where the file system supports it) gives the same digest. */
	j.direct = 1;
	j.bs = 1 << 20;
	memset(&f, 0, sizeof(f));
	if (read_fn(&j, &f) == 0)
		assert_string_equal(facts_get(&f, "md5")->label, label);
}

static void test_read_crc32_threads(void **state)
{
	char path[300], ref[40], label[48];
	struct read_job j = { .path = path, .size = 5 * 1000 * 1000 + 7, .bs = 4096,
			      .hash = HASH_CRC32, .threads = 3 };
	struct phase_facts f = { 0 };

	(void)state;
	path_in(path, sizeof(path), "crc");
	assert_int_equal(wl_make_file("test", path, j.size, 7), 0);
	assert_int_equal(read_digest(path, HASH_CRC32, ref, sizeof(ref)), 0);
	assert_int_equal(read_fn(&j, &f), 0);
	snprintf(label, sizeof(label), "crc32 %s", ref);
	assert_string_equal(facts_get(&f, "crc32")->label, label);
	assert_int_equal((uint64_t)fact(&f, "bytes"), j.size);
}

/* ---- rand and fsbench ---- */

static void test_rand_exact_ops(void **state)
{
	char path[300];
	struct rand_job j = { .path = path, .size = 4 << 20, .bs = 4096, .op = RAND_READ, .workers = 3,
			      .ops = 1000, .seed = 1 };
	struct phase_facts f = { 0 };

	(void)state;
	path_in(path, sizeof(path), "rand");
	assert_int_equal(wl_make_file("test", path, j.size, 3), 0);
	assert_int_equal(rand_fn(&j, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "ops"), 1000);
	assert_int_equal((uint64_t)fact(&f, "bytes"), 1000 * 4096);
	assert_true(fact(&f, "lat_p50_ns") > 0);
	assert_true(fact(&f, "lat_p99_ns") >= fact(&f, "lat_p50_ns"));
	assert_true(fact(&f, "iops") > 0);

	j.op = RAND_WRITE;
	j.ops = 0;
	j.time_ns = 50 * 1000 * 1000;
	j.sync_end = 1;
	memset(&f, 0, sizeof(f));
	assert_int_equal(rand_fn(&j, &f), 0);
	assert_true(fact(&f, "ops") >= 1);
	assert_true(fact(&f, "app_seconds") >= 0.05);
}

static void test_seqwrite(void **state)
{
	char path[300];
	struct seqwrite_job j = { .path = path, .size = 1 << 20, .bs = 64 * 1024 };
	struct phase_facts f = { 0 };
	struct stat st;

	(void)state;
	path_in(path, sizeof(path), "seqw");
	assert_int_equal(seqwrite_fn(&j, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "writes"), 16);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
}

/* ---- tar ---- */

static void test_tar_build_and_read(void **state)
{
	struct tar_set t = { .members = 37, .member_size = 10000, .readers = 4 };
	struct phase_facts f = { 0 };
	struct stat st;

	(void)state;
	path_in(t.path, sizeof(t.path), "a.tar");
	assert_int_equal(tar_build(&t, 9), 0);
	assert_int_equal(stat(t.path, &st), 0);
	/* ustar layout: a 512-byte header per member, data padded to 512, archive padded to 10 KiB. */
	assert_true((uint64_t)st.st_size >= 37 * (512 + 10240));
	assert_int_equal(tar_fn(&t, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "members_read"), 37);
	assert_int_equal((uint64_t)fact(&f, "checksums_ok"), 37);
	assert_int_equal((uint64_t)fact(&f, "headers_read"), 37 * 4);
	assert_int_equal((uint64_t)fact(&f, "bytes"), 370000);

	/* A corrupted member is caught by its checksum. */
	t.crc[5] ^= 1;
	memset(&f, 0, sizeof(f));
	assert_int_equal(tar_fn(&t, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "checksums_ok"), 36);
	free(t.crc);

	t = (struct tar_set){ .members = 20, .member_size = 3000, .readers = 3, .gzip = 1 };
	path_in(t.path, sizeof(t.path), "a.tar.gz");
	assert_int_equal(tar_build(&t, 10), 0);
	memset(&f, 0, sizeof(f));
	assert_int_equal(tar_fn(&t, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "members_read"), 20);
	assert_int_equal((uint64_t)fact(&f, "checksums_ok"), 20);
	free(t.crc);
}

/* ---- copy and delete ---- */

static void copy_mode(int mode, int jobs, const char *name, struct wl_tree *t, const char *src)
{
	struct copy_job j = { .tree = t, .mode = mode, .jobs = jobs };
	struct phase_facts f = { 0 };

	snprintf(j.src, sizeof(j.src), "%s", src);
	path_in(j.dst, sizeof(j.dst), name);
	assert_int_equal(copy_fn(&j, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "files"), t->nfiles);
	assert_int_equal((uint64_t)fact(&f, "failures"), 0);
	assert_int_equal(wl_tree_identical(t, src, j.dst), t->nfiles);
}

static void test_copy_identical(void **state)
{
	char src[300], lonely[600];
	struct wl_tree t, scanned;
	int fd;

	(void)state;
	path_in(src, sizeof(src), "src");
	assert_int_equal(mkdir(src, 0755), 0);
	assert_int_equal(wl_tree_make(&t, src, 50, 5000, 2, 11), 0);
	assert_int_equal(t.nfiles, 50);
	assert_int_equal(t.ndirs, 4 + 16);
	assert_int_equal(t.bytes, 250000);
	copy_mode(COPY_INPROC, 1, "c1", &t, src);
	copy_mode(COPY_INPROC, 4, "c4", &t, src);
	copy_mode(COPY_PROCESS, 1, "p1", &t, src);
	copy_mode(COPY_PROCESS, 3, "p3", &t, src);

	/* A copy that differs in one byte is not identical. */
	snprintf(lonely, sizeof(lonely), "%s/c4/%s", tmp, t.files[7]);
	fd = open(lonely, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "X", 1, 100), 1);
	close(fd);
	path_in(lonely, sizeof(lonely), "c4");
	assert_int_equal(wl_tree_identical(&t, src, lonely), 49);

	assert_int_equal(wl_tree_scan(&scanned, src), 0);
	assert_int_equal(scanned.nfiles, 50);
	assert_int_equal(scanned.bytes, 250000);
	wl_tree_free(&scanned);
	wl_tree_free(&t);
}

static void delete_mode(int mode, int jobs, const char *name)
{
	struct wl_tree t;
	struct copy_job j = { .mode = mode, .jobs = jobs };
	struct phase_facts f = { 0 };
	char keep[600];

	path_in(j.dst, sizeof(j.dst), name);
	assert_int_equal(mkdir(j.dst, 0755), 0);
	assert_int_equal(wl_tree_make(&t, j.dst, 40, 1000, 1, 5), 0);
	j.tree = &t;
	snprintf(keep, sizeof(keep), "%s/%s.keep", tmp, name);
	assert_int_equal(wl_make_file("test", keep, 10, 1), 0);
	assert_int_equal(delete_fn(&j, &f), 0);
	assert_int_equal((uint64_t)fact(&f, "files"), 40);
	assert_int_equal((uint64_t)fact(&f, "failures"), 0);
	assert_int_not_equal(access(j.dst, F_OK), 0);
	assert_int_equal(access(keep, F_OK), 0);
	wl_tree_free(&t);
}

static void test_delete_leaves_nothing(void **state)
{
	(void)state;
	delete_mode(COPY_INPROC, 1, "d1");
	delete_mode(COPY_INPROC, 4, "d4");
	delete_mode(COPY_PROCESS, 1, "dp1");
	delete_mode(COPY_PROCESS, 4, "dp4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bigfile_parse),
		cmocka_unit_test(test_read_parse),
		cmocka_unit_test(test_rand_parse),
		cmocka_unit_test(test_tree_parse),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_bigfile_dd_exact_writes),
		cmocka_unit_test(test_bigfile_fallocate_truncate),
		cmocka_unit_test(test_read_md5_matches_openssl),
		cmocka_unit_test(test_read_crc32_threads),
		cmocka_unit_test(test_rand_exact_ops),
		cmocka_unit_test(test_seqwrite),
		cmocka_unit_test(test_tar_build_and_read),
		cmocka_unit_test(test_copy_identical),
		cmocka_unit_test(test_delete_leaves_nothing),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
