// SPDX-License-Identifier: GPL-2.0
/* Unit tests: log2 histograms (user/hist.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/types.h>
#include "hist.h"
#include "iowhy.h"

#define NSLOTS IOWHY_HIST_SLOTS

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
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
