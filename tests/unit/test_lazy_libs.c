// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the libraries a workload opens at first use (workloads/lazy_libs.c). Built here with
 * libarchive's soname replaced by one no system has, so that the missing library's path runs;
 * libcrypto's is the build's own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#define LIBARCHIVE_SONAME "libarchive-iowhy-test-absent.so.0"
#include "../../src/workloads/lazy_libs.c"

/* What fn wrote on stderr while it ran. */
static void stderr_of(void (*fn)(void), char *out, size_t n)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t got;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	got = fread(out, 1, n - 1, tmp);
	out[got] = '\0';
	fclose(tmp);
}

static const struct archive_api *got_archive;

static void ask_archive(void)
{
	got_archive = archive_api("tar");
}

/* A library that is not there: NULL, and one line naming the tool and the file. */
static void test_missing_library(void **state)
{
	char err[512];

	(void)state;
	stderr_of(ask_archive, err, sizeof(err));
	assert_null(got_archive);
	assert_non_null(strstr(err, "iowhy tar: cannot load libarchive-iowhy-test-absent.so.0"));
	assert_non_null(strchr(err, '\n'));
	assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err)); /* one line */
	/* asked again: the same answer, said once */
	stderr_of(ask_archive, err, sizeof(err));
	assert_null(got_archive);
	assert_string_equal(err, "");
}

/* libcrypto opened by its soname: the digest of "abc" (RFC 1321's test suite), and one table. */
static void test_md5_from_libcrypto(void **state)
{
	const struct md5_api *m = md5_api("read");
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	char hex[33];
	EVP_MD_CTX *c;

	(void)state;
	assert_non_null(m);
	assert_ptr_equal(md5_api("read"), m);
	c = m->ctx_new();
	assert_non_null(c);
	assert_int_equal(m->init(c, m->md5(), NULL), 1);
	assert_int_equal(m->update(c, "ab", 2), 1);
	assert_int_equal(m->update(c, "c", 1), 1);
	assert_int_equal(m->final(c, d, &len), 1);
	m->ctx_free(c);
	assert_int_equal(len, 16);
	for (unsigned k = 0; k < len; k++)
		snprintf(hex + 2 * k, 3, "%02x", d[k]);
	assert_string_equal(hex, "900150983cd24fb0d6963f7d28e17f72");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_md5_from_libcrypto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
