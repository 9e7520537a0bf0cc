// SPDX-License-Identifier: GPL-2.0
/* xoshiro256** + splitmix64: reference values, determinism, and prng_fill's edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "prng.h"

static void test_reference_values(void **state)
{
	struct prng p = { .s = { 1, 2, 3, 4 } };

	(void)state;
	/* xoshiro256** from the state {1, 2, 3, 4}, as the reference implementation gives it */
	assert_int_equal(prng_next(&p), 11520);
	assert_int_equal(prng_next(&p), 0);
	assert_int_equal(prng_next(&p), 1509978240ULL);
	assert_int_equal(prng_next(&p), 1215971899390074240ULL);
}

static void test_seed_is_splitmix64(void **state)
{
	struct prng p;

	(void)state;
	prng_seed(&p, 0);
	assert_int_equal(p.s[0], 0xe220a8397b1dcdafULL);
	assert_int_equal(p.s[1], 0x6e789e6aa1b965f4ULL);
	assert_int_equal(p.s[2], 0x06c45d188009454fULL);
	assert_int_equal(p.s[3], 0xf88bb8a8724c81ecULL);
	assert_int_equal(prng_next(&p), 0x99ec5f36cb75f2b4ULL);
}

static void test_deterministic_for_a_seed(void **state)
{
	struct prng a, b;

	(void)state;
	prng_seed(&a, 12345);
	prng_seed(&b, 12345);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(prng_next(&a), prng_next(&b));
}

static void test_different_seeds_differ(void **state)
{
	unsigned char x[256], y[256];
	struct prng a, b;

	(void)state;
	prng_seed(&a, 1);
	prng_seed(&b, 2);
	prng_fill(&a, x, sizeof(x));
	prng_fill(&b, y, sizeof(y));
	assert_memory_not_equal(x, y, sizeof(x));
}

static void test_fill_not_zero_nor_repetitive(void **state)
{
	static unsigned char buf[1 << 16];
	size_t counts[256] = { 0 };
	struct prng p;

	(void)state;
	prng_seed(&p, 0); /* seed 0 must work too */
	prng_fill(&p, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		counts[buf[i]]++;
	/* 256 expected per byte value: every value present, none dominating */
	for (int v = 0; v < 256; v++) {
		assert_true(counts[v] > 128);
		assert_true(counts[v] < 512);
	}
	/* the second half is not a copy of the first */
	assert_memory_not_equal(buf, buf + sizeof(buf) / 2, sizeof(buf) / 2);
}

/* Odd lengths: exactly n bytes written, and they are the start of the same stream. */
static void test_fill_odd_lengths(void **state)
{
	unsigned char ref[80], buf[96];
	struct prng p;

	(void)state;
	prng_seed(&p, 99);
	prng_fill(&p, ref, sizeof(ref));
	for (size_t n = 0; n <= sizeof(ref); n++) {
		memset(buf, 0xa5, sizeof(buf));
		prng_seed(&p, 99);
		prng_fill(&p, buf, n);
		assert_memory_equal(buf, ref, n);
		for (size_t i = n; i < sizeof(buf); i++)
			assert_int_equal(buf[i], 0xa5);
	}
}

/* An unaligned destination gets the same bytes as an aligned one. */
static void test_fill_unaligned(void **state)
{
	uint64_t aligned[8], storage[9];
	unsigned char *unaligned = (unsigned char *)storage + 3;
	struct prng p;

	(void)state;
	prng_seed(&p, 7);
	prng_fill(&p, aligned, sizeof(aligned));
	prng_seed(&p, 7);
	prng_fill(&p, unaligned, sizeof(aligned));
	assert_memory_equal(aligned, unaligned, sizeof(aligned));
}

/* Successive fills continue the stream rather than repeat it. */
static void test_fill_advances(void **state)
{
	unsigned char a[64], b[64];
	struct prng p;

	(void)state;
	prng_seed(&p, 5);
	prng_fill(&p, a, sizeof(a));
	prng_fill(&p, b, sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_values),
		cmocka_unit_test(test_seed_is_splitmix64),
		cmocka_unit_test(test_deterministic_for_a_seed),
		cmocka_unit_test(test_different_seeds_differ),
		cmocka_unit_test(test_fill_not_zero_nor_repetitive),
		cmocka_unit_test(test_fill_odd_lengths),
		cmocka_unit_test(test_fill_unaligned),
		cmocka_unit_test(test_fill_advances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
