// SPDX-License-Identifier: GPL-2.0
/* Unit tests: trimmed mean and summaries (user/stats.c), session helpers (user/report_util.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include "columns.h"
#include "syscalls.h"

static void test_trimmed_mean(void **state)
{
	const double one[] = { 7 };
	const double two[] = { 2, 5 };
	const double three[] = { 10, 1, 4 };           /* drops 1 and 10 */
	const double five[] = { 9, 1, 5, 100, 4 };     /* drops 1 and 100: (9+5+4)/3 */
	const double ties[] = { 3, 3, 3, 3 };
	const double dup_extremes[] = { 1, 1, 8, 8 };  /* one 1 and one 8 dropped */

	(void)state;
	assert_true(trimmed_mean(one, 0) == 0);
	assert_true(trimmed_mean(one, 1) == 7);
	assert_true(trimmed_mean(two, 2) == 3.5);
	assert_true(trimmed_mean(three, 3) == 4);
	assert_true(trimmed_mean(five, 5) == 6);
	assert_true(trimmed_mean(ties, 4) == 3);
	assert_true(trimmed_mean(dup_extremes, 4) == 4.5);
}

static void test_median(void **state)
{
	const double odd[] = { 5, 1, 3 };
	const double even[] = { 4, 1, 3, 2 };
	const double ties[] = { 2, 2, 9, 2 };
	double copy[4];

	(void)state;
	assert_true(median(odd, 0) == 0);
	assert_true(median(odd, 1) == 5);
	assert_true(median(odd, 3) == 3);
	assert_true(median(even, 4) == 2.5);
	assert_true(median(ties, 4) == 2);
	memcpy(copy, even, sizeof(copy));
	median(copy, 4);
	assert_memory_equal(copy, even, sizeof(copy)); /* input untouched */
}

static void test_summarize(void **state)
{
	const double runs[] = { 8.6, 8.1, 8.3, 8.2, 12.0 };
	struct summary s;

	(void)state;
	assert_int_equal(summarize(runs, 0, &s), -1);
	assert_int_equal(summarize(runs, 5, &s), 0);
	assert_int_equal(s.n, 5);
	assert_true(s.min == 8.1);
	assert_true(s.max == 12.0);
	assert_true(s.median == 8.3);
	assert_float_equal(s.mean, (8.6 + 8.1 + 8.3 + 8.2 + 12.0) / 5, 1e-12);
	assert_float_equal(s.trimmed_mean, (8.6 + 8.3 + 8.2) / 3, 1e-12);

	assert_int_equal(summarize(runs, 2, &s), 0);
	assert_true(s.trimmed_mean == s.mean);
	assert_float_equal(s.median, (8.6 + 8.1) / 2, 1e-12);
}

/* ---- Session helpers ---- */

static void set_phase(struct phase_result *p, const char *name, const char *column,
		      enum phase_kind kind, uint64_t wall)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->column, sizeof(p->column), "%s", column);
	p->kind = kind;
	p->wall.start_ns = 1000;
	p->wall.end_ns = 1000 + wall;
	p->wall.bucket_ns[WB_USER] = wall;
}

static void test_columns_and_means(void **state)
{
	struct phase_result *ph = calloc(6, sizeof(*ph));
	struct session_result s = { .phases = ph, .nphases = 6 };
	struct column cols[4];
	struct summary w;
	int n;

	(void)state;
	set_phase(&ph[0], "loop#1", "loop", PHASE_WORK, 100);
	set_phase(&ph[1], "loop#1/flush", "loop", PHASE_FLUSH, 10);
	set_phase(&ph[2], "split", "split", PHASE_WORK, 50);
	set_phase(&ph[3], "loop#2", "loop", PHASE_WORK, 300);
	set_phase(&ph[4], "loop#3", "loop", PHASE_WORK, 200);
	set_phase(&ph[5], "solo", "", PHASE_WORK, 7); /* no column: its own */

	n = session_columns(&s, cols, 4);
	assert_int_equal(n, 3);
	assert_string_equal(cols[0].name, "loop");
	assert_int_equal(cols[0].nwork, 3);
	assert_int_equal(cols[0].work[0], 0);
	assert_int_equal(cols[0].work[1], 3);
	assert_int_equal(cols[0].work[2], 4);
	assert_int_equal(cols[0].nflush, 1);
	assert_int_equal(cols[0].flush[0], 1);
	assert_string_equal(cols[1].name, "split");
	assert_string_equal(cols[2].name, "solo");
	assert_int_equal(session_columns(&s, cols, 2), 2); /* capped */

	/* three runs 100, 300, 200: trimmed mean drops 100 and 300 */
	assert_true(phases_mean(&s, cols[0].work, cols[0].nwork, pv_wall, 0) == 200);
	assert_true(phases_mean(&s, cols[0].work, cols[0].nwork, pv_bucket, WB_USER) == 200);
	assert_true(phases_mean(&s, cols[0].work, 0, pv_wall, 0) == 0);
	assert_int_equal(phases_summary(&s, cols[0].work, cols[0].nwork, pv_wall, 0, &w), 0);
	assert_true(w.min == 100 && w.median == 200 && w.max == 300);
	assert_int_equal(phases_median_run(&s, cols[0].work, cols[0].nwork), 4);
	assert_int_equal(phases_median_run(&s, cols[0].work, 0), -1);
	free(ph);
}

static void test_syscall_helpers(void **state)
{
	struct phase_result *p = calloc(1, sizeof(*p));
	struct comm_stats comms[2] = { 0 };
	unsigned nrs[IOWHY_NR_SLOTS];
	int rd = syscall_nr("read"), wr = syscall_nr("write"), op = syscall_nr("openat");

	(void)state;
	assert_true(rd >= 0 && wr >= 0 && op >= 0);
	p->sys[rd].count = 5;
	p->sys[rd].total_ns = 100;
	p->sys[wr].count = 7;
	p->sys[wr].total_ns = 900;
	p->sys[op].count = 1;
	p->sys[op].total_ns = 100; /* tie with read: lower number first */
	p->sys[IOWHY_NR_SLOTS - 1].count = 2;
	p->sys[IOWHY_NR_SLOTS - 1].total_ns = 1;

	assert_int_equal(phase_syscalls_by_total(p, nrs), 4);
	assert_int_equal(nrs[0], wr);
	assert_int_equal(nrs[1], rd < op ? rd : op);
	assert_int_equal(nrs[2], rd < op ? op : rd);
	assert_int_equal(nrs[3], IOWHY_NR_SLOTS - 1);

	assert_int_equal(phase_sys_count(p, "write"), 7);
	assert_int_equal(phase_sys_count(p, "read"), 5);
	assert_int_equal(phase_sys_count(p, "fsync"), 0);
	assert_int_equal(phase_sys_count(p, "no_such_syscall"), 0);

	comms[0].state_ns[IOWHY_TS_USER] = 10;
	comms[0].state_ns[IOWHY_TS_KERNEL] = 20;
	comms[0].state_ns[IOWHY_TS_RUNQ] = 1000; /* not CPU */
	comms[1].state_ns[IOWHY_TS_USER] = 3;
	comms[1].state_ns[IOWHY_TS_DWAIT] = 1000;
	p->comms = comms;
	p->ncomms = 2;
	assert_int_equal(phase_cpu_ns(p), 33);
	free(p);
}

static void test_clean_text(void **state)
{
	char out[32];

	(void)state;
	clean_text(out, sizeof(out), "dd");
	assert_string_equal(out, "dd");
	clean_text(out, sizeof(out), "a\tb\nc\x7f");
	assert_string_equal(out, "a?b?c?");
	clean_text(out, sizeof(out), "caf\xc3\xa9");          /* valid UTF-8 kept */
	assert_string_equal(out, "caf\xc3\xa9");
	clean_text(out, sizeof(out), "x\xff\xc3y\xed\xa0\x80"); /* invalid, truncated, surrogate */
	assert_string_equal(out, "x??y???");
	clean_text(out, 4, "abcdef");
	assert_string_equal(out, "abc");
	clean_text(out, 3, "a\xc3\xa9");                      /* never cut a character */
	assert_string_equal(out, "a");
	strcpy(out, "in\x01place");
	clean_text(out, sizeof(out), out);
	assert_string_equal(out, "in?place");

	assert_int_equal(text_width("310 µs"), 6);
	assert_int_equal(text_width(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trimmed_mean),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_columns_and_means),
		cmocka_unit_test(test_syscall_helpers),
		cmocka_unit_test(test_clean_text),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
