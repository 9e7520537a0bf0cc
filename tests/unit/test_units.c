// SPDX-License-Identifier: GPL-2.0
/* Unit tests: size, count and duration parsing; readable units (user/units.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "units.h"

#define KIB 1024ULL
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)
#define TIB (GIB * 1024)

static uint64_t size_ok(const char *s)
{
	uint64_t v = 0;
	char err[160] = "";

	if (parse_size(s, SIZE_MAX_ACCEPTED, &v, err, sizeof(err)) != 0)
		fail_msg("parse_size('%s') refused: %s", s, err);
	return v;
}

/* Parse s expecting a refusal; returns the message. */
static const char *size_bad(const char *s, uint64_t max)
{
	static char err[160];
	uint64_t v = 12345;

	err[0] = '\0';
	assert_int_equal(parse_size(s, max, &v, err, sizeof(err)), -1);
	assert_int_equal(v, 12345); /* untouched */
	assert_true(strlen(err) > 0);
	assert_null(strchr(err, '\n'));
	return err;
}

static void test_size_plain_and_dd_suffixes(void **state)
{
	(void)state;
	assert_int_equal(size_ok("1"), 1);
	assert_int_equal(size_ok("512"), 512);
	assert_int_equal(size_ok("010"), 10);
	assert_int_equal(size_ok("7c"), 7);
	assert_int_equal(size_ok("3w"), 6);
	assert_int_equal(size_ok("2b"), 1024);
	assert_int_equal(size_ok("1k"), 1024);
	assert_int_equal(size_ok("10k"), 10240);
	assert_int_equal(size_ok("10K"), 10240);
	assert_int_equal(size_ok("10KiB"), 10240);
	assert_int_equal(size_ok("100k"), 102400);
}

static void test_size_binary_and_decimal(void **state)
{
	(void)state;
	assert_int_equal(size_ok("1M"), MIB);
	assert_int_equal(size_ok("3MiB"), 3 * MIB);
	assert_int_equal(size_ok("1G"), GIB);
	assert_int_equal(size_ok("2GiB"), 2 * GIB);
	assert_int_equal(size_ok("1T"), TIB);
	assert_int_equal(size_ok("1TiB"), TIB);
	assert_int_equal(size_ok("1kB"), 1000);
	assert_int_equal(size_ok("1KB"), 1000);
	assert_int_equal(size_ok("5MB"), 5000000);
	assert_int_equal(size_ok("2GB"), 2000000000ULL);
	assert_int_equal(size_ok("1TB"), 1000000000000ULL);
}

static void test_size_limits(void **state)
{
	(void)state;
	/* exactly the limit is accepted, one byte more is not */
	assert_int_equal(size_ok("1099511627776"), SIZE_MAX_ACCEPTED);
	assert_string_equal(size_bad("1099511627777", SIZE_MAX_ACCEPTED),
			    "size '1099511627777' is larger than the limit 1 TiB");
	assert_string_equal(size_bad("5T", SIZE_MAX_ACCEPTED),
			    "size '5T' is larger than the limit 1 TiB");
	assert_string_equal(size_bad("1025G", SIZE_MAX_ACCEPTED),
			    "size '1025G' is larger than the limit 1 TiB");
	/* a caller's own limit, not a power of 1024 */
	assert_string_equal(size_bad("1001", 1000), "size '1001' is larger than the limit 1000 B");
	assert_string_equal(size_bad("2M", 1 * MIB), "size '2M' is larger than the limit 1 MiB");
	/* overflow of 64 bits, in the digits and in the multiplication */
	assert_string_equal(size_bad("99999999999999999999999", SIZE_MAX_ACCEPTED),
			    "size '99999999999999999999999' is larger than the limit 1 TiB");
	assert_string_equal(size_bad("17179869184T", UINT64_MAX),
			    "size '17179869184T' is larger than the limit 18446744073709551615 B");
	/* with no practical limit, the largest value that fits */
	{
		uint64_t v = 0;
		char err[160];

		assert_int_equal(parse_size("18446744073709551615", UINT64_MAX, &v, err,
					    sizeof(err)), 0);
		assert_true(v == UINT64_MAX);
	}
}

static void test_size_refused(void **state)
{
	static const char *const bad[] = {
		"", "k", "-1", "+1", " 1", "1 ", "1 k", "1.5k", "0x10", "10q", "1kk", "1m", "1kb",
		"1KIB", "1Ki", "1e3", "1,000", "abc", "1B",
	};
	char want[160];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want),
			 "invalid size '%s': expected a number with an optional suffix (512, 1k, 10M, 1G)",
			 bad[i]);
		assert_string_equal(size_bad(bad[i], SIZE_MAX_ACCEPTED), want);
	}
	assert_string_equal(size_bad("0", SIZE_MAX_ACCEPTED), "size '0' must be at least 1 byte");
	assert_string_equal(size_bad("0k", SIZE_MAX_ACCEPTED), "size '0k' must be at least 1 byte");
	assert_string_equal(size_bad("000", SIZE_MAX_ACCEPTED), "size '000' must be at least 1 byte");
	{
		uint64_t v;
		char err[160];

		assert_int_equal(parse_size(NULL, SIZE_MAX_ACCEPTED, &v, err, sizeof(err)), -1);
	}
}

static void test_size_error_fits_small_buffer(void **state)
{
	char err[16];
	uint64_t v;

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_int_equal(parse_size("10q", SIZE_MAX_ACCEPTED, &v, err, sizeof(err)), -1);
	assert_int_equal(strlen(err), sizeof(err) - 1);
}

static void test_size_list(void **state)
{
	uint64_t v[4] = { 0 };
	char err[160];

	(void)state;
	assert_int_equal(parse_size_list("4k,1M,512", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), 3);
	assert_int_equal(v[0], 4096);
	assert_int_equal(v[1], MIB);
	assert_int_equal(v[2], 512);
	assert_int_equal(parse_size_list("1G", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), 1);
	assert_int_equal(v[0], GIB);

	assert_int_equal(parse_size_list("4k,,1M", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "invalid size list '4k,,1M': empty item");
	assert_int_equal(parse_size_list("4k,", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), -1);
	assert_int_equal(parse_size_list("", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), -1);
	assert_int_equal(parse_size_list("1,2,3", SIZE_MAX_ACCEPTED, v, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "too many sizes in '1,2,3': at most 2");
	/* a bad item gives the item's own message */
	assert_int_equal(parse_size_list("4k,10q", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), -1);
	assert_string_equal(
		err, "invalid size '10q': expected a number with an optional suffix (512, 1k, 10M, 1G)");
	assert_int_equal(parse_size_list("4k,0", SIZE_MAX_ACCEPTED, v, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "size '0' must be at least 1 byte");
}

static void test_count(void **state)
{
	uint64_t v = 0;
	char err[160];

	(void)state;
	assert_int_equal(parse_count("10000", 1000000, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 10000);
	assert_int_equal(parse_count("1", 1, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_count("1000000", 1000000, &v, err, sizeof(err)), 0);

	assert_int_equal(parse_count("10k", 1000000, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "invalid count '10k': expected a whole number such as 10000");
	assert_int_equal(parse_count("", 10, &v, err, sizeof(err)), -1);
	assert_int_equal(parse_count("-3", 10, &v, err, sizeof(err)), -1);
	assert_int_equal(parse_count("1.0", 10, &v, err, sizeof(err)), -1);
	assert_int_equal(parse_count("0", 10, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "count '0' must be at least 1");
	assert_int_equal(parse_count("1000001", 1000000, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "count '1000001' is larger than the limit 1,000,000");
	assert_int_equal(parse_count("99999999999999999999999", UINT64_MAX, &v, err, sizeof(err)),
			 -1);
}

static uint64_t dur_ok(const char *s)
{
	uint64_t v = 0;
	char err[160] = "";

	if (parse_duration(s, &v, err, sizeof(err)) != 0)
		fail_msg("parse_duration('%s') refused: %s", s, err);
	return v;
}

static void test_duration(void **state)
{
	uint64_t v;
	char err[160];

	(void)state;
	assert_int_equal(dur_ok("250ns"), 250);
	assert_int_equal(dur_ok("15us"), 15000);
	assert_int_equal(dur_ok("15µs"), 15000);
	assert_int_equal(dur_ok("500ms"), 500000000ULL);
	assert_int_equal(dur_ok("2s"), 2000000000ULL);
	assert_int_equal(dur_ok("2"), 2000000000ULL); /* plain number: seconds */
	assert_int_equal(dur_ok("1.5s"), 1500000000ULL);
	assert_int_equal(dur_ok("0.25ms"), 250000ULL);
	assert_int_equal(dur_ok("3m"), 180000000000ULL);
	assert_int_equal(dur_ok("1.5m"), 90000000000ULL);
	assert_int_equal(dur_ok("0.000000001s"), 1);

	static const char *const bad[] = { "", "s", "-1s", ".5s", "1.s", "1.5.2s", "5h", "1 s",
					   "5sec", "1e3ms" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[160];

		snprintf(want, sizeof(want),
			 "invalid duration '%s': expected a number with a unit (500ms, 2s, 1.5s, 3m)",
			 bad[i]);
		assert_int_equal(parse_duration(bad[i], &v, err, sizeof(err)), -1);
		assert_string_equal(err, want);
	}
	assert_int_equal(parse_duration("0s", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "duration '0s' must be at least 1 ns");
	assert_int_equal(parse_duration("99999999999m", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "duration '99999999999m' is too long");
}

static void test_fmt_ns(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_ns(b, sizeof(b), 0), "0 ns");
	assert_string_equal(fmt_ns(b, sizeof(b), 812), "812 ns");
	assert_string_equal(fmt_ns(b, sizeof(b), 999), "999 ns");
	assert_string_equal(fmt_ns(b, sizeof(b), 1000), "1.00 µs");
	assert_string_equal(fmt_ns(b, sizeof(b), 12100), "12.1 µs");
	assert_string_equal(fmt_ns(b, sizeof(b), 31000), "31.0 µs");
	assert_string_equal(fmt_ns(b, sizeof(b), 310000), "310 µs");
	assert_string_equal(fmt_ns(b, sizeof(b), 999499), "999 µs");
	assert_string_equal(fmt_ns(b, sizeof(b), 999500), "1.00 ms"); /* no "1000 µs" */
	assert_string_equal(fmt_ns(b, sizeof(b), 4210000), "4.21 ms");
	assert_string_equal(fmt_ns(b, sizeof(b), 42100000), "42.1 ms");
	assert_string_equal(fmt_ns(b, sizeof(b), 999999999), "1.00 s");
	assert_string_equal(fmt_ns(b, sizeof(b), 6100000000ULL), "6.10 s");
	assert_string_equal(fmt_ns(b, sizeof(b), 78400000000ULL), "78.4 s");
	assert_string_equal(fmt_ns(b, sizeof(b), 128000000000ULL), "128 s");
	assert_string_equal(fmt_ns(b, sizeof(b), 3600000000000ULL), "3600 s");
	assert_string_equal(fmt_ns(b, 4, 6100000000ULL), "6.1"); /* truncated, terminated */
}

static void test_fmt_bytes(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_bytes(b, sizeof(b), 0), "0 B");
	assert_string_equal(fmt_bytes(b, sizeof(b), 512), "512 B");
	assert_string_equal(fmt_bytes(b, sizeof(b), 1023), "1023 B");
	assert_string_equal(fmt_bytes(b, sizeof(b), 1024), "1.00 KiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), 10240), "10.0 KiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), 102400), "100 KiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), 1000 * KIB), "1000 KiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), MIB - 1), "1.00 MiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), 1024000), "1000 KiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), 3 * GIB / 2), "1.50 GiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), TIB), "1.00 TiB");
	assert_string_equal(fmt_bytes(b, sizeof(b), UINT64_MAX), "16.0 EiB");
}

static void test_fmt_count_rate_pct(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_count(b, sizeof(b), 0), "0");
	assert_string_equal(fmt_count(b, sizeof(b), 999), "999");
	assert_string_equal(fmt_count(b, sizeof(b), 1000), "1,000");
	assert_string_equal(fmt_count(b, sizeof(b), 10000), "10,000");
	assert_string_equal(fmt_count(b, sizeof(b), 1234567), "1,234,567");
	assert_string_equal(fmt_count(b, sizeof(b), UINT64_MAX), "18,446,744,073,709,551,615");

	assert_string_equal(fmt_rate(b, sizeof(b), 512.0 * MIB), "512 MiB/s");
	assert_string_equal(fmt_rate(b, sizeof(b), 100.0), "100 B/s");
	assert_string_equal(fmt_rate(b, sizeof(b), 12.5), "12.5 B/s");
	assert_string_equal(fmt_rate(b, sizeof(b), 1.5 * GIB), "1.50 GiB/s");
	assert_string_equal(fmt_rate(b, sizeof(b), -1.0), "n/a");

	assert_string_equal(fmt_pct(b, sizeof(b), 0.123), "12.3%");
	assert_string_equal(fmt_pct(b, sizeof(b), 1.0), "100.0%");
	assert_string_equal(fmt_pct(b, sizeof(b), 0.0), "0.0%");
	assert_string_equal(fmt_pct(b, sizeof(b), -0.05), "-5.0%");
}

/* env_number: a plain decimal number within its bound, else the default */
static void test_env_number(void **state)
{
	const char *bad[] = { "", "-1", "+3", " 3", "3 ", "3k", "0x10", "1001", "99999999999999999999999" };

	(void)state;
	unsetenv("IOWHY_TEST_ENV_NUMBER");
	assert_int_equal(env_number("IOWHY_TEST_ENV_NUMBER", 7, 1000), 7);
	setenv("IOWHY_TEST_ENV_NUMBER", "0", 1);
	assert_int_equal(env_number("IOWHY_TEST_ENV_NUMBER", 7, 1000), 0);
	setenv("IOWHY_TEST_ENV_NUMBER", "1000", 1);
	assert_int_equal(env_number("IOWHY_TEST_ENV_NUMBER", 7, 1000), 1000);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("IOWHY_TEST_ENV_NUMBER", bad[i], 1);
		assert_int_equal(env_number("IOWHY_TEST_ENV_NUMBER", 7, 1000), 7);
	}
	unsetenv("IOWHY_TEST_ENV_NUMBER");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_plain_and_dd_suffixes),
		cmocka_unit_test(test_size_binary_and_decimal),
		cmocka_unit_test(test_size_limits),
		cmocka_unit_test(test_size_refused),
		cmocka_unit_test(test_size_error_fits_small_buffer),
		cmocka_unit_test(test_size_list),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_fmt_ns),
		cmocka_unit_test(test_fmt_bytes),
		cmocka_unit_test(test_fmt_count_rate_pct),
		cmocka_unit_test(test_env_number),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
