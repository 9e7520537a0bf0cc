// SPDX-License-Identifier: GPL-2.0
/* Unit tests: log2 and log-linear latency histograms (src/model/hist.c, bpf/loglin.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/types.h>
#include "hist.h"
#include "iowhy.h"
#include "loglin.h"

#define NSLOTS 40 /* a log2 histogram (the length of the latency histograms before log-linear) */

static void test_slot(void **state)
{
	(void)state;
	assert_int_equal(hist_slot(0, NSLOTS), 0);
	assert_int_equal(hist_slot(1, NSLOTS), 0);
	assert_int_equal(hist_slot(2, NSLOTS), 1);
	assert_int_equal(hist_slot(3, NSLOTS), 1);
	assert_int_equal(hist_slot(4, NSLOTS), 2);
	assert_int_equal(hist_slot(1023, NSLOTS), 9);
	assert_int_equal(hist_slot(1024, NSLOTS), 10);
	assert_int_equal(hist_slot(UINT64_MAX, NSLOTS), NSLOTS - 1); /* folded into the last slot */
	assert_int_equal(hist_slot(1ull << 39, NSLOTS), 39);
	assert_int_equal(hist_slot(1ull << 45, NSLOTS), 39);
}

static void test_total(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	assert_int_equal(hist_total(h, NSLOTS), 0);
	h[0] = 3;
	h[7] = 4;
	h[NSLOTS - 1] = 5;
	assert_int_equal(hist_total(h, NSLOTS), 12);
}

static void test_empty(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	assert_int_equal(hist_percentile(h, NSLOTS, 50, 0), 0);
	assert_int_equal(hist_percentile(h, NSLOTS, 99, 1000), 0);
	assert_int_equal(hist_percentile(h, NSLOTS, 100, 0), 0);
}

/* Four values in [8, 16): the percentiles walk across the slot linearly. */
static void test_single_slot(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	h[3] = 4;
	assert_int_equal(hist_percentile(h, NSLOTS, 0, 0), 8);
	assert_int_equal(hist_percentile(h, NSLOTS, 25, 0), 10);
	assert_int_equal(hist_percentile(h, NSLOTS, 50, 0), 12);
	assert_int_equal(hist_percentile(h, NSLOTS, 100, 0), 16);
}

/* Slot 0 holds 0 and 1: its range is [0, 2). */
static void test_slot_zero(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	h[0] = 4;
	assert_int_equal(hist_percentile(h, NSLOTS, 50, 0), 1);
	assert_int_equal(hist_percentile(h, NSLOTS, 100, 0), 2);
}

/* Two values in slot 0, two in [1024, 2048). */
static void test_interpolation(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	h[0] = 2;
	h[10] = 2;
	assert_int_equal(hist_percentile(h, NSLOTS, 50, 0), 2);     /* end of slot 0 */
	assert_int_equal(hist_percentile(h, NSLOTS, 62.5, 0), 1280); /* a quarter into slot 10 */
	assert_int_equal(hist_percentile(h, NSLOTS, 75, 0), 1536);
	assert_int_equal(hist_percentile(h, NSLOTS, 100, 0), 2048);
}

static void test_max_clamp(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	h[0] = 2;
	h[10] = 2;
	assert_int_equal(hist_percentile(h, NSLOTS, 75, 1500), 1500);
	assert_int_equal(hist_percentile(h, NSLOTS, 100, 1500), 1500);
	assert_int_equal(hist_percentile(h, NSLOTS, 62.5, 1500), 1280); /* below max: unchanged */
	assert_int_equal(hist_percentile(h, NSLOTS, 50, 1500), 2);
	assert_int_equal(hist_percentile(h, NSLOTS, 100, 0), 2048);     /* max 0: unknown */
}

/* Out-of-range p is clamped to 0..100. */
static void test_p_range(void **state)
{
	uint32_t h[NSLOTS] = { 0 };

	(void)state;
	h[5] = 1;
	assert_int_equal(hist_percentile(h, NSLOTS, 150, 0), 64);
	assert_int_equal(hist_percentile(h, NSLOTS, -5, 0), 32);
}

/* ---- log-linear ---- */

/* The buckets tile the values: each starts where the previous ends, from 0 up to 2^36. */
static void test_loglin_tiling(void **state)
{
	(void)state;
	assert_int_equal(IOWHY_HIST_SLOTS, LOGLIN_BUCKETS);
	assert_int_equal(LOGLIN_BUCKETS, 1024);
	assert_int_equal(loglin_low(0), 0);
	for (__u32 b = 1; b < LOGLIN_BUCKETS; b++)
		assert_int_equal(loglin_low(b), loglin_low(b - 1) + loglin_width(b - 1));
	assert_int_equal(loglin_low(LOGLIN_BUCKETS - 1) + loglin_width(LOGLIN_BUCKETS - 1),
			 1ULL << LOGLIN_MAX_BITS);
}

/* Bucket bounds: a value lands in the bucket whose range holds it; exact below 32; the edges. */
static void test_loglin_bounds(void **state)
{
	(void)state;
	for (__u64 v = 0; v < 32; v++)
		assert_int_equal(loglin_bucket(v), v);
	assert_int_equal(loglin_bucket(32), 32);
	assert_int_equal(loglin_bucket(63), 63);
	assert_int_equal(loglin_bucket(64), 64);   /* 2^6: width 2 from here */
	assert_int_equal(loglin_bucket(65), 64);
	assert_int_equal(loglin_bucket(66), 65);
	assert_int_equal(loglin_bucket(127), 95);
	assert_int_equal(loglin_bucket(128), 96);
	assert_int_equal(loglin_bucket((1ULL << 36) - 1), LOGLIN_BUCKETS - 1);
	assert_int_equal(loglin_bucket(1ULL << 36), LOGLIN_BUCKETS - 1); /* beyond: the last */
	assert_int_equal(loglin_bucket(UINT64_MAX), LOGLIN_BUCKETS - 1);
	/* every bucket edge and its neighbours, over the whole range */
	for (__u32 b = 0; b < LOGLIN_BUCKETS; b++) {
		__u64 lo = loglin_low(b), hi = lo + loglin_width(b) - 1;

		assert_int_equal(loglin_bucket(lo), b);
		assert_int_equal(loglin_bucket(hi), b);
		if (lo)
			assert_int_equal(loglin_bucket(lo - 1), b - 1);
	}
}

/* Relative error: the midpoint of a value's bucket is within 1/64 (1.6%, <= 3%) of the value, for
 * a million values spread log-uniformly over 1 ns .. 2^36 ns, and at every bucket edge. */
static void test_loglin_error(void **state)
{
	double worst = 0.0;
	__u64 x = 88172645463325252ULL;

	(void)state;
	for (int i = 0; i < 1000000; i++) {
		__u64 v, mid;
		double err;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift */
		v = (x >> 28) >> (x % 36);  /* 36 bits, shifted: every magnitude */
		if (!v)
			continue;
		mid = loglin_low(loglin_bucket(v)) + loglin_width(loglin_bucket(v)) / 2;
		err = (double)(mid > v ? mid - v : v - mid) / (double)v;
		if (err > worst)
			worst = err;
	}
	for (__u32 b = 1; b < LOGLIN_BUCKETS; b++) {
		__u64 lo = loglin_low(b), mid = lo + loglin_width(b) / 2;

		if ((double)(mid - lo) / (double)lo > worst)
			worst = (double)(mid - lo) / (double)lo;
	}
	print_message("worst relative error of a bucket midpoint: %.4f%%\n", 100.0 * worst);
	assert_true(worst <= 1.0 / 64 + 1e-12);
	assert_true(worst <= 0.03);
}

/* Percentiles: the sample of rank ceil(p% of n), as the midpoint of its bucket, clamped to max. */
static void test_loglin_percentile(void **state)
{
	uint32_t *h = calloc(LOGLIN_BUCKETS, sizeof(*h));
	__u64 vals[100];

	(void)state;
	assert_non_null(h);
	assert_int_equal(hist_percentile(h, LOGLIN_BUCKETS, 50, 0), 0); /* empty */
	/* 100 values 10 µs, 20 µs, ..., 1 ms: p50 = 500 µs, p90 = 900 µs, p99 = 990 µs */
	for (int i = 0; i < 100; i++) {
		vals[i] = (__u64)(i + 1) * 10000;
		h[loglin_bucket(vals[i])]++;
	}
	for (int p = 1; p <= 100; p++) {
		__u64 want = vals[p - 1], got = hist_percentile(h, LOGLIN_BUCKETS, p, 0);

		assert_true(got >= want - want / 64 && got <= want + want / 64);
	}
	assert_int_equal(hist_percentile(h, LOGLIN_BUCKETS, 0, 0),
			 hist_percentile(h, LOGLIN_BUCKETS, 1, 0)); /* p 0: the smallest */
	assert_int_equal(hist_percentile(h, LOGLIN_BUCKETS, 100, 1000000), 1000000); /* clamped */
	assert_int_equal(loglin_percentile(h, 50, 0), hist_percentile(h, LOGLIN_BUCKETS, 50, 0));
	/* exact below 32 ns */
	for (__u32 b = 0; b < LOGLIN_BUCKETS; b++)
		h[b] = 0;
	h[7] = 3;
	assert_int_equal(hist_percentile(h, LOGLIN_BUCKETS, 50, 0), 7);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_single_slot),
		cmocka_unit_test(test_slot_zero),
		cmocka_unit_test(test_interpolation),
		cmocka_unit_test(test_max_clamp),
		cmocka_unit_test(test_p_range),
		cmocka_unit_test(test_loglin_tiling),
		cmocka_unit_test(test_loglin_bounds),
		cmocka_unit_test(test_loglin_error),
		cmocka_unit_test(test_loglin_percentile),
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
