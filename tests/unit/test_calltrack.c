// SPDX-License-Identifier: GPL-2.0
/* calltrack: syscalls one by one from the event stream, with their breakdown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "calltrack.h"

#define NONE IOWHY_NR_NONE

static struct ct_call got[16];
static int ngot;

static void done(void *ctx, const struct ct_call *c)
{
	(void)ctx;
	if (ngot < 16)
		got[ngot++] = *c;
}

static void st(struct calltrack *t, uint64_t ts, uint32_t tid, uint8_t state, uint16_t nr,
	       uint32_t arg)
{
	struct iowhy_event e = { .ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_STATE,
				 .state = state, .nr = nr, .arg = arg };

	calltrack_event(t, &e);
}

/* A call: on CPU 10, I/O wait 100 (woken by disk 2's completion), run queue 5, on CPU 3. */
static void test_breakdown_adds_up(void **state)
{
	struct calltrack t;

	(void)state;
	ngot = 0;
	calltrack_init(&t, done, NULL);
	st(&t, 1000, 7, IOWHY_TS_USER, NONE, 0);              /* first sight: state known */
	st(&t, 1100, 7, IOWHY_TS_KERNEL, 74, 0);              /* fsync enters */
	st(&t, 1110, 7, IOWHY_TS_DWAIT, 74, 1u << 1);         /* sleeps, disk 1 in flight */
	st(&t, 1210, 7, IOWHY_TS_RUNQ, 74, 1u << 2);          /* woken by disk 2 */
	st(&t, 1215, 7, IOWHY_TS_KERNEL, 74, 0);
	st(&t, 1218, 7, IOWHY_TS_USER, NONE, 0);              /* returns */
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].nr, 74);
	assert_int_equal(got[0].end_ns - got[0].start_ns, 118);
	assert_int_equal(got[0].oncpu_ns, 13);
	assert_int_equal(got[0].runq_ns, 5);
	assert_int_equal(got[0].iowait_ns, 100);
	assert_int_equal(got[0].other_ns, 0);
	assert_int_equal(got[0].ndisks, 1);
	assert_int_equal(got[0].disk[0], 2);
	assert_int_equal(got[0].disk_ns[0], 100);
	assert_int_equal(got[0].oncpu_ns + got[0].runq_ns + got[0].iowait_ns + got[0].other_ns,
			 got[0].end_ns - got[0].start_ns);
	calltrack_free(&t);
}

/* A call in progress when the task is first seen, and a child's return from clone, do not count;
 * the next whole call does. A sleep woken by nothing known goes to the disks it slept on. */
static void test_partial_calls_not_counted(void **state)
{
	struct calltrack t;
	struct iowhy_event fork = { .ts = 50, .tid = 7, .tgid = 7, .type = IOWHY_EV_FORK,
				    .nr = 56, .arg = 8, .arg2 = 8 };

	(void)state;
	ngot = 0;
	calltrack_init(&t, done, NULL);
	st(&t, 10, 7, IOWHY_TS_SWAIT, 0, 0);                 /* seen sleeping in read */
	st(&t, 20, 7, IOWHY_TS_RUNQ, 0, 0);
	st(&t, 30, 7, IOWHY_TS_KERNEL, 0, 0);
	st(&t, 40, 7, IOWHY_TS_USER, NONE, 0);               /* read returns: not whole */
	assert_int_equal(ngot, 0);
	calltrack_event(&t, &fork);
	st(&t, 60, 8, IOWHY_TS_KERNEL, 56, 0);
	st(&t, 70, 8, IOWHY_TS_USER, NONE, 0);               /* the child's clone return */
	assert_int_equal(ngot, 0);
	st(&t, 100, 8, IOWHY_TS_KERNEL, 1, 0);               /* write */
	st(&t, 110, 8, IOWHY_TS_DWAIT, 1, (1u << 0) | (1u << 3));
	st(&t, 150, 8, IOWHY_TS_RUNQ, 1, 0);                 /* woken, disk unknown */
	st(&t, 160, 8, IOWHY_TS_KERNEL, 1, 0);
	st(&t, 161, 8, IOWHY_TS_SWAIT, 1, 0);
	st(&t, 171, 8, IOWHY_TS_RUNQ, 1, 0);
	st(&t, 172, 8, IOWHY_TS_KERNEL, 1, 0);
	st(&t, 180, 8, IOWHY_TS_USER, NONE, 0);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].tid, 8);
	assert_int_equal(got[0].iowait_ns, 40);
	assert_int_equal(got[0].ndisks, 2);
	assert_int_equal(got[0].disk_ns[0] + got[0].disk_ns[1], 40);
	assert_int_equal(got[0].other_ns, 10);
	assert_int_equal(got[0].runq_ns, 11);
	assert_int_equal(got[0].oncpu_ns, 19);
	assert_int_equal(t.calls, 1);
	calltrack_free(&t);
}

/* A task's death drops its call in progress. */
static void test_death_drops_call(void **state)
{
	struct calltrack t;

	(void)state;
	ngot = 0;
	calltrack_init(&t, done, NULL);
	st(&t, 10, 9, IOWHY_TS_USER, NONE, 0);
	st(&t, 20, 9, IOWHY_TS_KERNEL, 231, 0);
	st(&t, 30, 9, IOWHY_TS_DEAD, 231, 0);
	assert_int_equal(ngot, 0);
	assert_int_equal(t.count, 0);
	calltrack_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_breakdown_adds_up),
		cmocka_unit_test(test_partial_calls_not_counted),
		cmocka_unit_test(test_death_drops_call),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
