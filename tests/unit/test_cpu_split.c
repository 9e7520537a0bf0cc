// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the user/kernel split from sample counts (cpu_split_counts: the live intervals). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>
#include "cpu_split.h"

#define MS 1e6

/* No CPU outside the syscall tracepoints: nothing to estimate, all kernel CPU is the traced. */
static void test_exact(void **state)
{
	struct cpu_split c;

	(void)state;
	cpu_split_counts(1000 * MS, 0, 300 * MS, 0, 0, &c);
	assert_int_equal(c.state, CPU_SPLIT_EXACT);
	assert_true(cpu_split_shown(&c));
	assert_true(c.user_ns == 0 && c.kernel_ns == 300 * MS && c.err_ns == 0);
}

/* 400 samples, 100 of them user code: 1/4 of the 800 ms outside, the binomial error. */
static void test_sampled(void **state)
{
	struct cpu_split c;
	double err = sqrt(0.25 * 0.75 / 400) * 800 * MS;

	(void)state;
	cpu_split_counts(1000 * MS, 800 * MS, 100 * MS, 400, 100, &c);
	assert_int_equal(c.state, CPU_SPLIT_SAMPLED);
	assert_int_equal(c.samples, 400);
	assert_true(fabs(c.user_ns - 200 * MS) < 1);
	assert_true(fabs(c.kernel_ns - 700 * MS) < 1);     /* 100 traced + 600 outside */
	assert_true(fabs(c.user_ns + c.kernel_ns - 900 * MS) < 1);
	assert_true(fabs(c.err_ns - err) < 1);
	assert_true(c.err_ns <= CPU_SPLIT_MAX_ERR * c.wall_ns);
}

/* 10 samples of 800 ms in a 1 s interval: the error is above 5 points: not shown, and the samples
 * needed are more than it had. */
static void test_few(void **state)
{
	struct cpu_split c;

	(void)state;
	cpu_split_counts(1000 * MS, 800 * MS, 0, 10, 5, &c);
	assert_int_equal(c.state, CPU_SPLIT_FEW);
	assert_false(cpu_split_shown(&c));
	assert_true(c.err_ns > CPU_SPLIT_MAX_ERR * c.wall_ns);
	assert_true(c.needed_samples > 10);
	/* the least n that would do, at a share of 1/2: 0.5 / sqrt(n) x 800 <= 50 -> n ~ 64 */
	assert_true(c.needed_samples >= 60 && c.needed_samples <= 80);
}

/* No sample, a large share outside: nothing known, not split. */
static void test_none(void **state)
{
	struct cpu_split c;

	(void)state;
	cpu_split_counts(1000 * MS, 500 * MS, 0, 0, 0, &c);
	assert_int_equal(c.state, CPU_SPLIT_NONE);
	assert_false(cpu_split_shown(&c));
	assert_true(c.needed_samples > 0);
}

/* No sample, at most 5% of the wall outside: half of it, with 1/sqrt(12) of it as the error. */
static void test_none_small(void **state)
{
	struct cpu_split c;

	(void)state;
	cpu_split_counts(1000 * MS, 40 * MS, 10 * MS, 0, 0, &c);
	assert_int_equal(c.state, CPU_SPLIT_SAMPLED);
	assert_true(fabs(c.user_ns - 20 * MS) < 1);
	assert_true(fabs(c.kernel_ns - 30 * MS) < 1);
	assert_true(fabs(c.err_ns - 40 * MS / sqrt(12)) < 1);
}

/* More user samples than samples (counters read apart): taken as all user, never above. */
static void test_clamped(void **state)
{
	struct cpu_split c;

	(void)state;
	cpu_split_counts(1000 * MS, 800 * MS, 0, 300, 310, &c);
	assert_true(c.user_ns <= 800 * MS + 1);
	assert_true(c.kernel_ns >= -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),   cmocka_unit_test(test_sampled),
		cmocka_unit_test(test_few),     cmocka_unit_test(test_none),
		cmocka_unit_test(test_none_small), cmocka_unit_test(test_clamped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
