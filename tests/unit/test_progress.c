// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the progress line's text (progress.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "progress.h"

static void test_counts(void **state)
{
	char buf[160];

	(void)state;
	/* 2,500 of 10,000 files in 2 s: 1,250/s, 6 s to go */
	progress_format(buf, sizeof(buf), "gen split", "files", 2500, 10000, 2000000000ull);
	assert_string_equal(buf, "gen split: 2,500/10,000 files (25.0%), 1,250/s, ETA 6.00 s");
	/* unknown total: no share, no ETA, the time so far */
	progress_format(buf, sizeof(buf), "rand", "ops", 300, 0, 1500000000ull);
	assert_string_equal(buf, "rand: 300 ops, 200/s, 1.50 s");
	/* done: no ETA */
	progress_format(buf, sizeof(buf), "x", "entries", 10, 10, 1000000000ull);
	assert_string_equal(buf, "x: 10/10 entries (100.0%), 10/s, 1.00 s");
}

static void test_bytes(void **state)
{
	char buf[160];

	(void)state;
	/* 1 GiB of 4 GiB in 8 s: 128 MiB/s, 24 s to go */
	progress_format(buf, sizeof(buf), "read", "B", 1ull << 30, 4ull << 30, 8000000000ull);
	assert_string_equal(buf, "read: 1.00 GiB/4.00 GiB (25.0%), 128 MiB/s, ETA 24.0 s");
}

static void test_short_buffer(void **state)
{
	char buf[16];
	size_t n;

	(void)state;
	n = progress_format(buf, sizeof(buf), "gen split", "files", 2500, 10000, 2000000000ull);
	assert_true(n < sizeof(buf));
	assert_int_equal(strlen(buf), n);
}

static void test_no_rate(void **state)
{
	char buf[160];

	(void)state;
	/* nothing elapsed yet: no rate, so no ETA */
	progress_format(buf, sizeof(buf), "a", "files", 0, 5, 0);
	assert_string_equal(buf, "a: 0/5 files (0.0%), 0/s, 0 ns");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_no_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
