// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the explanation (user/explain.c) on synthetic sessions whose answer is known, and the
 * text report (user/report_text.c) that ends with it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include "report.h"
#include "columns.h"
#include "explain.h"
#include "summary.h"
#include "io_model.h"
#include "syscalls.h"
#include "units.h"

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL
#define MAXPH 48

struct fixture {
	struct session_result s;
	struct phase_result ph[MAXPH];
	struct comm_stats comms[MAXPH][2];
	char text[4096];
	struct explanation expl;
};

static struct phase_result *add_phase(struct fixture *f, const char *name, const char *column,
				      enum phase_kind kind)
{
	struct phase_result *p = &f->ph[f->s.nphases++];

	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->column, sizeof(p->column), "%s", column);
	p->kind = kind;
	p->wall.start_ns = 10 * SEC;
	p->wall.end_ns = 10 * SEC;
	return p;
}

/* Add time to a bucket (and group, for kernel CPU) on behalf of syscall nr; keeps wall = sum. */
static void add_time(struct phase_result *p, int bucket, int group, int nr, uint64_t ns)
{
	p->wall.bucket_ns[bucket] += ns;
	if (bucket == WB_KERNEL)
		p->wall.kernel_group_ns[group] += ns;
	p->wall.by_nr[bucket][nr < 0 ? MODEL_NR_NONE : (unsigned)nr] += ns;
	p->wall.end_ns += ns;
}

static void add_sys(struct phase_result *p, const char *name, uint64_t count, uint64_t total,
		    uint64_t oncpu)
{
	int nr = syscall_nr(name);

	assert_true(nr >= 0);
	p->sys[nr].count = count;
	p->sys[nr].total_ns = total;
	p->sys[nr].oncpu_ns = oncpu;
	p->sys[nr].max_ns = count ? 2 * total / count : 0;
	p->sys[nr].hist[12] = (uint32_t)count;
}

static void add_comm(struct fixture *f, struct phase_result *p, int i, const char *comm,
		     uint64_t user, uint64_t kernel, uint64_t runq)
{
	struct comm_stats *c = &f->comms[p - f->ph][i];

	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	c->tasks = 1;
	c->state_ns[IOWHY_TS_USER] = user;
	c->state_ns[IOWHY_TS_KERNEL] = kernel;
	c->state_ns[IOWHY_TS_RUNQ] = runq;
	p->comms = f->comms[p - f->ph];
	p->ncomms = (size_t)i + 1;
}

static int K(const char *name)
{
	return syscall_nr(name);
}

/*
 * loop: 8.30 s = user 1.0 + kernel 6.4 (process 5.5: execve 3.5, exit_group 1.5, clone 0.3,
 * wait4 0.2; metadata 0.6; data 0.3) + run queue 0.3 + I/O wait 0.1 + other 0.5.
 * split: 2.20 s = user 1.2 + kernel 0.8 (process 0.3, metadata 0.3, data 0.2) + run queue 0.05
 * + I/O wait 0.05 + other 0.1. Difference 6.10 s, of which process 5.20 s.
 */
static void loop_phase(struct fixture *f, const char *name, uint64_t scale_pct)
{
	struct phase_result *p = add_phase(f, name, "loop", PHASE_WORK);
	uint64_t k = scale_pct;

	add_time(p, WB_USER, 0, -1, 1000 * MS * k / 100);
	add_time(p, WB_KERNEL, SG_PROC, K("execve"), 3500 * MS * k / 100);
	add_time(p, WB_KERNEL, SG_PROC, K("exit_group"), 1500 * MS * k / 100);
	add_time(p, WB_KERNEL, SG_PROC, K("clone"), 300 * MS * k / 100);
	add_time(p, WB_KERNEL, SG_PROC, K("wait4"), 200 * MS * k / 100);
	add_time(p, WB_KERNEL, SG_META, K("openat"), 600 * MS * k / 100);
	add_time(p, WB_KERNEL, SG_DATA, K("write"), 300 * MS * k / 100);
	add_time(p, WB_RUNQ, 0, -1, 300 * MS * k / 100);
	add_time(p, WB_IOWAIT, 0, K("write"), 100 * MS * k / 100);
	add_time(p, WB_OTHER, 0, K("wait4"), 500 * MS * k / 100);
	add_sys(p, "execve", 10000, 3100 * MS, 3000 * MS);
	add_sys(p, "exit_group", 10000, 1200 * MS, 1200 * MS);
	add_sys(p, "clone", 10000, 300 * MS, 300 * MS);
	add_sys(p, "wait4", 10000, 6000 * MS, 200 * MS);
	add_sys(p, "openat", 20000, 600 * MS, 600 * MS);
	add_sys(p, "write", 10000, 400 * MS, 300 * MS);
	add_comm(f, p, 0, "dd", 900 * MS, 4000 * MS, 250 * MS);
	add_comm(f, p, 1, "bash", 100 * MS, 2400 * MS, 50 * MS);
}

static void split_phase(struct fixture *f)
{
	struct phase_result *p = add_phase(f, "split", "split", PHASE_WORK);

	add_time(p, WB_USER, 0, -1, 1200 * MS);
	add_time(p, WB_KERNEL, SG_PROC, K("execve"), 100 * MS);
	add_time(p, WB_KERNEL, SG_PROC, K("exit_group"), 100 * MS);
	add_time(p, WB_KERNEL, SG_PROC, K("clone"), 50 * MS);
	add_time(p, WB_KERNEL, SG_PROC, K("wait4"), 50 * MS);
	add_time(p, WB_KERNEL, SG_META, K("openat"), 300 * MS);
	add_time(p, WB_KERNEL, SG_DATA, K("write"), 200 * MS);
	add_time(p, WB_RUNQ, 0, -1, 50 * MS);
	add_time(p, WB_IOWAIT, 0, K("write"), 50 * MS);
	add_time(p, WB_OTHER, 0, K("wait4"), 100 * MS);
	add_sys(p, "execve", 2, 100 * MS, 100 * MS);
	add_sys(p, "exit_group", 2, 100 * MS, 100 * MS);
	add_sys(p, "openat", 10000, 300 * MS, 300 * MS);
	add_sys(p, "write", 10000, 260 * MS, 200 * MS);
	add_comm(f, p, 0, "split", 1100 * MS, 700 * MS, 40 * MS);
}

/* A flush phase: `io` of I/O wait inside syncfs plus `other` of other wait. */
static void flush_phase(struct fixture *f, const char *name, const char *column, uint64_t io,
			uint64_t other)
{
	struct phase_result *p = add_phase(f, name, column, PHASE_FLUSH);

	add_time(p, WB_IOWAIT, 0, K("syncfs"), io);
	add_time(p, WB_OTHER, 0, -1, other);
	add_sys(p, "syncfs", 1, io + other, 1 * MS);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->s.tool = "gen";
	snprintf(f->s.command, sizeof(f->s.command), "gen --strategy loop,split --size 10k");
	snprintf(f->s.kernel, sizeof(f->s.kernel), "6.1.0-test");
	snprintf(f->s.probe_mode, sizeof(f->s.probe_mode), "tp_btf");
	f->s.phases = f->ph;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static const char *run_explain(struct fixture *f)
{
	explain(&f->s, NULL, &f->expl);
	explanation_join(&f->expl, f->text, sizeof(f->text));
	if (getenv("IOWHY_TEST_VERBOSE"))
		fprintf(stderr, "%s\n", f->text);
	return f->text;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("expected \"%s\" in:\n%s", needle, hay);
}

/* hay with every run of spaces made one space, into buf */
static void squeeze(char *buf, size_t n, const char *hay)
{
	size_t k = 0;

	for (; *hay && k + 1 < n; hay++)
		if (*hay != ' ' || k == 0 || buf[k - 1] != ' ')
			buf[k++] = *hay;
	buf[k] = '\0';
}

/* assert_contains with runs of spaces equal whatever their length (a table's column widths
 * follow its widest cell) */
static void assert_contains_ws(const char *hay, const char *needle)
{
	static char h[65536], w[1024];

	squeeze(h, sizeof(h), hay);
	squeeze(w, sizeof(w), needle);
	if (!strstr(h, w))
		fail_msg("expected \"%s\" (spaces squeezed) in:\n%s", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		fail_msg("did not expect \"%s\" in:\n%s", needle, hay);
}

static void test_two_columns(void **state)
{
	struct fixture *f = *state;
	char want[256];
	const char *t;

	loop_phase(f, "loop", 100);
	split_phase(f);
	t = run_explain(f);
	snprintf(want, sizeof(want),
		 "loop took 6.10 s more than split (8.30 s vs 2.20 s); 5.20 s of that is kernel CPU "
		 "in %s: 10,000 execve at 310 µs (split: 2) and 10,000 exit_group at 120 µs "
		 "(split: 2).",
		 sys_group_name(SG_PROC));
	assert_string_equal(t, want); /* nothing else is 10% of the difference */
	assert_lacks(t, "clone");      /* 0.25 s: under 10% of the group's 5.20 s */
}

static void test_two_columns_order_independent(void **state)
{
	struct fixture *f = *state;

	split_phase(f); /* fastest first in the session */
	loop_phase(f, "loop", 100);
	assert_contains(run_explain(f), "loop took 6.10 s more than split (8.30 s vs 2.20 s); 5.20 s");
}

static void test_flush_and_ranking(void **state)
{
	struct fixture *f = *state;
	const char *t;

	loop_phase(f, "loop", 100);
	flush_phase(f, "loop/flush", "loop", 1300 * MS, 100 * MS);
	split_phase(f);
	flush_phase(f, "split/flush", "split", 10 * MS, 0);
	{
		struct phase_result *p = add_phase(f, "direct", "direct", PHASE_WORK);

		add_time(p, WB_USER, 0, -1, 200 * MS);
		add_time(p, WB_KERNEL, SG_META, K("openat"), 1700 * MS);
	}
	t = run_explain(f);
	assert_contains(t, "loop took 6.40 s more than direct (8.30 s vs 1.90 s)");
	assert_contains(t, "Fastest to slowest: direct 1.90 s, split 2.20 s, loop 8.30 s.");
	assert_contains(t, "The flush (sync) took 1.40 s after loop's writes, 14.4% of loop's total "
			   "(9.70 s); 92.9% of it was I/O wait, mostly inside syncfs.");
	assert_lacks(t, "after split's writes"); /* 10 ms of 2.21 s: not worth a sentence */
	assert_contains(t, "With the flush, loop took 9.70 s and direct 1.90 s in total.");
	/* the other differences of at least 10% of 6.40 s, both ways */
	assert_contains(t, "The rest of the difference: CPU outside syscalls 800 ms; direct spent more "
			   "on kernel CPU in file metadata (1.10 s).");
}

static void test_repeats_use_trimmed_mean(void **state)
{
	struct fixture *f = *state;
	const char *t;

	/* runs at 50%, 100%, 100%, 1000% of loop: trimmed mean is the 100% run's numbers */
	loop_phase(f, "loop#1", 50);
	loop_phase(f, "loop#2", 100);
	loop_phase(f, "loop#3", 1000);
	loop_phase(f, "loop#4", 100);
	split_phase(f);
	t = run_explain(f);
	assert_contains(t, "loop took 6.10 s more than split (8.30 s vs 2.20 s, trimmed means of 4 "
			   "and 1 runs); 5.20 s of that is kernel CPU in");
}

static void test_same_time(void **state)
{
	struct fixture *f = *state;
	struct phase_result *a = add_phase(f, "a", "a", PHASE_WORK);
	struct phase_result *b = add_phase(f, "b", "b", PHASE_WORK);

	add_time(a, WB_USER, 0, -1, 1000 * MS);
	add_time(b, WB_USER, 0, -1, 995 * MS);
	assert_string_equal(run_explain(f), "a and b took about the same time (1.00 s vs 995 ms).");
}

static void test_single_column(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "direct", "direct", PHASE_WORK);
	const char *t;
	char want[256];

	add_time(p, WB_KERNEL, SG_META, K("openat"), 1210 * MS);
	add_time(p, WB_KERNEL, SG_META, K("close"), 400 * MS);
	add_time(p, WB_KERNEL, SG_DATA, K("write"), 270 * MS);
	add_time(p, WB_USER, 0, -1, 300 * MS);
	add_time(p, WB_IOWAIT, 0, K("fsync"), 216 * MS);
	add_time(p, WB_IOWAIT, 0, -1, 24 * MS);
	add_time(p, WB_RUNQ, 0, -1, 0);
	p->wall.unattributed_ns = 0;
	add_sys(p, "openat", 100000, 1210 * MS, 1210 * MS);
	add_sys(p, "fsync", 10, 2500 * MS, 10 * MS); /* top by total time, mostly off CPU */
	add_sys(p, "close", 100000, 400 * MS, 400 * MS);
	t = run_explain(f);
	/* kernel 1.88 s of 2.42 s; I/O wait 240 ms is 9.9%: under 10%, not named */
	/* no CPU samples in the fixture: the tracepoint view, named for what it is */
	snprintf(want, sizeof(want), "direct: 77.7%% of the 2.42 s wall was kernel CPU in syscalls, mostly %s ",
		 sys_group_name(SG_META));
	assert_contains(t, want);
	assert_contains(t, "(1.61 s; 1.21 s of it in openat: 100,000 calls at 12.1 µs); then CPU "
			   "outside syscalls 12.4%.");
	assert_contains(t, "The top syscall by total time was fsync: 10 calls at 250 ms (2.50 s in "
			   "all, 0.4% of it on a CPU).");
	assert_lacks(t, "waiting on I/O");
	assert_lacks(t, "I/O wait");
}

static void test_single_column_iowait_runq_residual(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);
	const char *t;

	add_time(p, WB_IOWAIT, 0, K("fsync"), 720 * MS);
	add_time(p, WB_IOWAIT, 0, -1, 80 * MS);
	add_time(p, WB_USER, 0, -1, 900 * MS);
	add_time(p, WB_RUNQ, 0, -1, 300 * MS);
	p->wall.unattributed_ns = 100 * MS;
	p->wall.end_ns += 100 * MS;
	add_comm(f, p, 0, "fio", 900 * MS, 0, 280 * MS);
	add_comm(f, p, 1, "sh", 0, 0, 20 * MS);
	add_sys(p, "fsync", 100, 800 * MS, 5 * MS);
	t = run_explain(f);
	assert_contains(t, "run: 42.9% of the 2.10 s wall was CPU outside syscalls, most of it in fio "
			   "(900 ms of task time outside syscalls); then I/O wait 38.1%, run-queue wait "
			   "14.3%. The CPU outside syscalls holds user code and kernel work");
	assert_contains(t, "800 ms (38.1% of the wall) waiting on I/O, 90.0% of it inside fsync.");
	assert_contains(t, "300 ms (14.3% of the wall) runnable but waiting for a CPU (run queue), "
			   "most of it in fio (280 ms of task time).");
	assert_contains(t, "100 ms (4.8% of run's wall) could not be attributed");
}

/* The device most of the I/O wait went to is named when it holds at least half of it. */
static void test_iowait_device(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);
	const char *t;

	add_time(p, WB_IOWAIT, 0, K("pwrite64"), 800 * MS);
	add_time(p, WB_USER, 0, -1, 200 * MS);
	p->wall.iowait_by_disk[3] = 700 * MS;
	p->wall.iowait_by_disk[IOWHY_DISK_SLOTS] = 100 * MS;
	snprintf(f->s.disk_names[3], sizeof(f->s.disk_names[3]), "loop7");
	add_sys(p, "pwrite64", 100, 800 * MS, 5 * MS);
	t = run_explain(f);
	assert_contains(t, "800 ms (80.0% of the wall) waiting on I/O, 100.0% of it inside pwrite64, "
			   "87.5% of it on loop7.");
	p->wall.iowait_by_disk[3] = 300 * MS;
	p->wall.iowait_by_disk[IOWHY_DISK_SLOTS] = 500 * MS;
	t = run_explain(f);
	assert_contains(t, "inside pwrite64, 62.5% of it with no workload I/O in flight.");
	p->wall.iowait_by_disk[3] = 400 * MS;
	p->wall.iowait_by_disk[5] = 400 * MS;
	p->wall.iowait_by_disk[IOWHY_DISK_SLOTS] = 0;
	t = run_explain(f);
	assert_contains(t, "100.0% of it inside pwrite64, 50.0% of it on loop7.");
}

/* The device the most waited one sits on: the one named by the stack line's `on`, not the next
 * level's first (btrfs raid0 over loop1 on a FUSE file and loop2 on vda: loop1 is slow, and it
 * sits on 0:26, not vda); unknown with two devices at the next level: none named. */
static void test_stack_below(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);
	struct io_phase *io = io_phase_new();
	static const char *const names[4] = { "loop1", "loop2", "vda", "0:26" };
	static const uint32_t devs[4] = { 7u << 20 | 1, 7u << 20 | 2, 253u << 20, 26 };
	struct io_stackline sl = { .head = "/mnt (btrfs raid0)", .nlevels = 2,
				   .ndev = { 2, 2 },
				   .dev = { { devs[0], devs[1] }, { devs[2], devs[3] } },
				   .on = { { 2, 1 } } };
	const struct stack_line *st;

	assert_non_null(io);
	for (int i = 0; i < 4; i++) {
		struct io_devinfo *d = io_phase_dev(io, devs[i]);

		assert_non_null(d);
		snprintf(d->name, sizeof(d->name), "%s", names[i]);
		snprintf(d->disk_name, sizeof(d->disk_name), "%s", names[i]);
		d->dev = d->disk = devs[i];
	}
	assert_int_equal(io_phase_add_stack(io, &sl), 0);
	p->io = io;
	add_time(p, WB_IOWAIT, 0, K("pwrite64"), 800 * MS);
	p->wall.iowait_by_disk[0] = 700 * MS;
	p->wall.iowait_by_disk[1] = 100 * MS;
	snprintf(f->s.disk_names[0], sizeof(f->s.disk_names[0]), "loop1");
	snprintf(f->s.disk_names[1], sizeof(f->s.disk_names[1]), "loop2");
	assert_int_equal(summary_compute(&f->s), 0);
	assert_int_equal(f->s.summary->nstacks, 1);
	st = &f->s.summary->stacks[0];
	assert_string_equal(st->dev[st->most], "loop1");
	assert_string_equal(st->below, "0:26");
	assert_int_equal(st->on[1], 1 + 2); /* loop2 sits on vda */
	/* a stack line saved without what sits on what: two devices below, none named */
	memset(io->stacks[0].on, 0, sizeof(io->stacks[0].on));
	assert_int_equal(summary_compute(&f->s), 0);
	st = &f->s.summary->stacks[0];
	assert_string_equal(st->dev[st->most], "loop1");
	assert_string_equal(st->below, "");
	summary_free(&f->s);
	p->io = NULL;
	io_result_free(io);
}

static void test_single_column_sleep(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);

	add_time(p, WB_OTHER, 0, K("clock_nanosleep"), 300 * MS);
	add_time(p, WB_KERNEL, SG_PROC, K("execve"), 2 * MS);
	add_time(p, WB_USER, 0, -1, 1 * MS);
	add_sys(p, "clock_nanosleep", 1, 300 * MS, 10 * US);
	assert_contains(run_explain(f), "run: 99.0% of the 303 ms wall was other wait, mostly inside "
					"clock_nanosleep.\nThe top syscall by total time was "
					"clock_nanosleep: 1 call at 300 ms");
}

static void test_caveats_and_empty(void **state)
{
	struct fixture *f = *state;
	const char *t;

	f->s.partial = 1;
	f->s.events_lost = 12;
	t = run_explain(f);
	assert_contains(t, "No work phase ran.");
	assert_contains(t, "The session was interrupted");
	assert_contains(t, "12 events were lost");
	add_phase(f, "zero", "zero", PHASE_WORK);
	assert_contains(run_explain(f), "zero took no measurable wall time.");
}

static void test_small_buffer(void **state)
{
	struct fixture *f = *state;
	char small[40];

	loop_phase(f, "loop", 100);
	split_phase(f);
	memset(small, 'x', sizeof(small));
	explain(&f->s, NULL, &f->expl);
	explanation_join(&f->expl, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_true(strncmp(small, "loop took 6.10 s more than split", 32) == 0);
}

/* Every sentence that states a part of a whole states a part no larger than it. */
static void assert_parts_within(const struct explanation *e)
{
	for (int i = 0; i < e->n; i++) {
		double part, whole;

		if (sentence_get(&e->s[i], "part_ns", &part) &&
		    sentence_get(&e->s[i], "whole_ns", &whole) && part > whole)
			fail_msg("part %.0f > whole %.0f in: %s", part, whole, e->s[i].text);
	}
}

/*
 * A part is never larger than the whole: "took 364 µs more ... 894 µs of that is kernel CPU" came
 * from kernel CPU growing while other wait shrank. The largest item is then said to be more,
 * with what was less, not "of that".
 */
static void test_part_not_larger_than_whole(void **state)
{
	struct fixture *f = *state;
	struct phase_result *a = add_phase(f, "a", "a", PHASE_WORK);
	struct phase_result *b = add_phase(f, "b", "b", PHASE_WORK);
	const char *t;

	add_time(a, WB_KERNEL, SG_META, K("openat"), 1894 * US);
	add_time(a, WB_OTHER, 0, K("wait4"), 470 * US);
	add_time(b, WB_KERNEL, SG_META, K("openat"), 1000 * US);
	add_time(b, WB_OTHER, 0, K("wait4"), 1000 * US);
	add_sys(a, "openat", 10, 1894 * US, 1894 * US);
	add_sys(b, "openat", 10, 1000 * US, 1000 * US);
	t = run_explain(f);
	assert_contains(t, "a took 364 µs more than b (2.36 ms vs 2.00 ms); kernel CPU in ");
	assert_contains(t, "was 894 µs more, while other wait 530 µs less (b spent more on it)");
	assert_lacks(t, "of that is");
	assert_parts_within(&f->expl);
	assert_string_equal(f->expl.s[0].kind, "compare");
}

/* The other differences are "the rest" of it only when they fit in it: here user CPU is 90 of the
 * 100 ms and file metadata 60 ms more, offset by 50 ms less other wait. */
static void test_rest_fits_the_difference(void **state)
{
	struct fixture *f = *state;
	struct phase_result *a = add_phase(f, "a", "a", PHASE_WORK);
	struct phase_result *b = add_phase(f, "b", "b", PHASE_WORK);
	const char *t;

	add_time(a, WB_USER, 0, -1, 190 * MS);
	add_time(a, WB_KERNEL, SG_META, K("openat"), 160 * MS);
	add_time(b, WB_USER, 0, -1, 100 * MS);
	add_time(b, WB_KERNEL, SG_META, K("openat"), 100 * MS);
	add_time(b, WB_OTHER, 0, K("wait4"), 50 * MS);
	t = run_explain(f);
	assert_contains(t, "a took 100 ms more than b (350 ms vs 250 ms); 90.0 ms of that is CPU outside "
			   "syscalls");
	assert_contains(t, "Also more: kernel CPU in file metadata 60.0 ms; b spent more on other "
			   "wait (50.0 ms).");
	assert_lacks(t, "The rest of the difference");
	assert_parts_within(&f->expl);
}

/* A single run each, under 10% apart: within noise, no attribution of the difference. */
static void test_single_run_noise(void **state)
{
	struct fixture *f = *state;
	struct phase_result *a = add_phase(f, "a", "a", PHASE_WORK);
	struct phase_result *b = add_phase(f, "b", "b", PHASE_WORK);
	const char *t;

	add_time(a, WB_USER, 0, -1, 1040 * MS);
	add_time(b, WB_USER, 0, -1, 1000 * MS);
	t = run_explain(f);
	assert_contains(t, "a took 40.0 ms more than b (1.04 s vs 1.00 s, 4.0%): from a single run "
			   "each, a difference under 10% is within noise");
	assert_lacks(t, "of that is");
	assert_string_equal(f->expl.s[0].kind, "noise");
}

/* Repeats whose walls overlap: the difference is within their spread. */
static void test_repeats_noise(void **state)
{
	struct fixture *f = *state;
	static const uint64_t wa[3] = { 900, 1300, 1200 }, wb[3] = { 1000, 1100, 950 };
	const char *t;

	for (int i = 0; i < 3; i++) {
		add_time(add_phase(f, "a", "a", PHASE_WORK), WB_USER, 0, -1, wa[i] * MS);
		add_time(add_phase(f, "b", "b", PHASE_WORK), WB_USER, 0, -1, wb[i] * MS);
	}
	t = run_explain(f);
	assert_contains(t, "a took 200 ms more than b (1.20 s vs 1.00 s, trimmed means of 3 and 3 "
			   "runs), within the spread of the runs (a: 900 ms to 1.30 s; b: 950 ms to "
			   "1.10 s): within noise.");
	/* far apart repeats are compared as before */
	for (int i = 0; i < f->s.nphases; i++)
		if (!strcmp(f->ph[i].name, "a"))
			add_time(&f->ph[i], WB_KERNEL, SG_PROC, K("execve"), 2000 * MS);
	assert_contains(run_explain(f), "a took 2.20 s more than b (3.20 s vs 1.00 s");
}

/* The on-CPU share of a syscall is never above 100% (exit_group showed 122.3%). */
static void test_oncpu_share_clamped(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);

	add_time(p, WB_KERNEL, SG_PROC, K("exit_group"), 100 * MS);
	add_sys(p, "exit_group", 1, 100 * MS, 122300 * US);
	assert_contains(run_explain(f), "1 call at 100 ms (100 ms in all, 100.0% of it on a CPU).");
	assert_parts_within(&f->expl);
}

/* ---- The text report ---- */

static char *text_report_at(struct fixture *f, int detail)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(summary_compute(&f->s), 0);
	report_text(out, &f->s, &(struct report_options){ .detail = detail });
	summary_free(&f->s);
	fclose(out);
	if (getenv("IOWHY_TEST_VERBOSE"))
		fputs(buf, stderr);
	return buf;
}

static char *text_report(struct fixture *f)
{
	return text_report_at(f, 1);
}

/* Every line of the block starting at `title` up to the next blank line has the same width. */
static void assert_block_aligned(const char *report, const char *title)
{
	const char *p = strstr(report, title);
	size_t width = 0;
	char line[512];

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	while (*p && *p != '\n' && p[0] == ' ' && p[1] == ' ') {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		/* skip notes, "..." lines and block titles (one word group, no columns) */
		if (line[2] != '(' && line[2] != '!' && strncmp(line + 2, "...", 3) != 0 &&
		    strstr(line + 2, "  ")) {
			size_t w = text_width(line);

			if (width == 0)
				width = w;
			if (w != width)
				fail_msg("line not aligned (%zu vs %zu): '%s'", w, width, line);
		}
		p += len + (p[len] == '\n');
	}
}

static void test_text_report(void **state)
{
	struct fixture *f = *state;
	char *r;

	missing_probes_add(&f->s.missing, "sched_wakeup_new", PROBE_ABSENT, 0);
	loop_phase(f, "loop", 100);
	flush_phase(f, "loop/flush", "loop", 1300 * MS, 100 * MS);
	split_phase(f);
	f->ph[0].rusage_user_ns = 1000 * MS;
	f->ph[0].rusage_sys_ns = 6000 * MS;
	f->ph[0].task_clock_ok = 1;
	f->ph[0].task_clock_ns = 7100 * MS;
	f->ph[2].wall.unattributed_ns = 100 * MS; /* 4.3% of split: earns a "!" */
	f->ph[2].wall.end_ns += 100 * MS;
	r = text_report(f);
	assert_contains(r, "iowhy gen: gen --strategy loop,split --size 10k\n");
	assert_contains(r, "missing optional probes (not traced): sched_wakeup_new\n");
	assert_lacks(r, "PARTIAL");
	assert_contains(r, "== side by side");
	assert_contains(r, "flush (sync)");
	assert_contains(r, "total (work+flush) wall");
	assert_block_aligned(r, "== side by side");
	assert_contains(r, "== loop (work phase): exit status 0 ==");
	assert_contains(r, "== loop/flush (flush phase, column loop): exit status 0 ==");
	assert_contains(r, "! unattributed is 4.3% of wall");
	assert_contains(r, "CPU cross-check: traced user+kernel 7.40 s, getrusage(RUSAGE_CHILDREN) "
			   "user+sys 7.00 s, difference +5.7%; perf task-clock 7.10 s, difference +4.2%\n");
	/* only the phase that measured it names task-clock */
	assert_null(strstr(strstr(r, "perf task-clock") + 1, "perf task-clock"));
	assert_contains(r, "hypervisor steal time");
	assert_block_aligned(r, "work view");
	assert_block_aligned(r, "syscalls (top");
	assert_contains(r, "== explanation ==\n  loop took 6.00 s more than split (8.30 s vs 2.30 s)");
	/* work view sorted by CPU: dd (4.90 s) before bash (2.50 s) */
	assert_true(strstr(r, "  dd ") < strstr(r, "  bash "));
	free(r);
}

/* Events lost in one phase: its wall and work views are not measured (not printed, not compared),
 * the other phase's are; the warning says what stays exact. */
static void test_text_report_lost(void **state)
{
	struct fixture *f = *state;
	char *r;

	f->s.events_lost = 3;
	loop_phase(f, "loop", 100);
	split_phase(f);
	f->ph[1].events_lost = 3;
	r = text_report_at(f, 0);
	assert_contains(r, "WARNING: 3 events lost (ring buffer full): the wall and work views of the "
			   "phases that lost them are not measured");
	assert_contains(r, "exact still: the syscall counts and times and bytes");
	assert_contains_ws(r, "  where it went (-v) not measured\n");
	assert_contains_ws(r, "  events lost 0 3\n");
	assert_lacks(r, "  user CPU ");
	assert_lacks(r, "  CPU outside syscalls ");
	assert_contains(r, "split: 3 events were lost while it ran: where its 2.20 s wall went is not "
			   "measured");
	assert_lacks(r, "more than"); /* no comparison of fiction */
	free(r);
	r = text_report_at(f, 1);
	assert_contains(r, "== split (work phase): exit status 0 ==\nwall view and work view: not "
			   "measured (3 events lost while the phase ran; its wall 2.20 s;");
	assert_contains(r, "== loop (work phase): exit status 0 ==\nwall view\n");
	free(r);
}

static void test_text_report_partial_single(void **state)
{
	struct fixture *f = *state;
	char *r;

	f->s.partial = 1;
	loop_phase(f, "loop", 100);
	f->ph[0].partial = 1;
	f->ph[0].status = 130;
	r = text_report(f);
	assert_contains(r, "*** PARTIAL (interrupted)");
	assert_lacks(r, "side by side"); /* one work phase */
	assert_contains(r, "exit status 130 (killed by signal 2), PARTIAL (interrupted) ==");
	assert_lacks(r, "WARNING");
	free(r);
}

static void test_text_report_repeats(void **state)
{
	struct fixture *f = *state;
	char *r;

	loop_phase(f, "loop#1", 50);
	loop_phase(f, "loop#2", 100);
	loop_phase(f, "loop#3", 1000);
	loop_phase(f, "loop#4", 100);
	split_phase(f);
	f->ph[4].wall.end_ns += 50 * MS; /* buckets no longer add up to split's wall */
	r = text_report(f);
	assert_contains_ws(r, "  wall             8.30 s  100.0%"); /* trimmed mean */
	assert_contains(r, "  loop: runs: 4, min/median/max wall 4.15 s / 8.30 s / 83.0 s\n");
	assert_contains(r, "repeated columns show trimmed means");
	assert_contains(r, "! the buckets add up to 2.20 s, not the wall 2.25 s (-2.2%)");
	free(r);
}

static void test_text_report_wraps_many_columns(void **state)
{
	struct fixture *f = *state;
	char name[16], *r, *second; /* room for any int (checked at -O1) */

	for (int i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "col%d", i);
		add_time(add_phase(f, name, name, PHASE_WORK), WB_USER, 0, -1, (uint64_t)(i + 1) * MS);
	}
	r = text_report(f);
	/* five columns per table: the sixth opens a second table after a blank line */
	second = strstr(strstr(r, "col4"), "\n\n");
	assert_non_null(second);
	assert_true(second < strstr(r, "col5"));
	assert_true(strstr(r, "col5") < strstr(r, "col6"));
	assert_true(strstr(r, "col6") < strstr(r, "== col0"));
	assert_contains(r, "Fastest to slowest: col0 1.00 ms, col1 2.00 ms,");
	free(r);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* fsbench-like columns: each workload's headline figures (MiB/s, IOPS, p99) are rows of the
 * side-by-side table; the default report is that table, the devices and the explanation. */
static void test_default_report(void **state)
{
	struct fixture *f = *state;
	static const char *const names[2] = { "seq read", "rand read" };
	struct io_phase *io = io_phase_new();
	struct io_stat st = { .requests = 100, .bytes = 1 << 20 };
	struct io_devinfo *d;
	char *r;

	for (int i = 0; i < 2; i++) {
		struct phase_result *p = add_phase(f, names[i], names[i], PHASE_WORK);

		add_time(p, WB_IOWAIT, 0, K("pread64"), (uint64_t)(i + 1) * 1000 * MS);
		add_time(p, WB_USER, 0, -1, 10 * MS);
		add_sys(p, "pread64", 1000, (uint64_t)(i + 1) * 1000 * MS, 10 * MS);
		facts_set(&p->facts, "rate", "throughput", "B/s", (i ? 20.0 : 200.0) * 1048576);
		facts_set(&p->facts, "iops", "reads per second", "", i ? 5120 : 1600);
		facts_set(&p->facts, "lat_p99_ns", "latency p99", "ns", i ? 950000 : 120000);
	}
	assert_non_null(io);
	io->window_ns = 1000 * MS;
	d = io_phase_dev(io, 8u << 20);
	snprintf(d->name, sizeof(d->name), "vdb");
	d->busy_ns = 900 * MS;
	io_phase_add(io, 8u << 20, IO_OP_READ, IO_CL_TREE, &st);
	f->ph[0].io = io;
	r = text_report_at(f, 0);
	assert_contains(r, "iowhy gen:");
	assert_contains(r, "== side by side");
	assert_contains(r, "seq read");
	assert_contains(r, "rand read");
	assert_contains_ws(r, "  MiB/s              200.0               20.0\n");
	assert_contains_ws(r, "  IOPS               1,600              5,120\n");
	assert_contains_ws(r, "  p99 latency       120 µs             950 µs\n");
	assert_contains_ws(r, "  wall              1.01 s  100.0%     2.01 s  100.0%\n");
	assert_contains(r, "== devices (traced phases) ==\n  vdb    busy 900 ms of 1.00 s (90.0%); "
			   "100 requests: read 1.00 MiB, written 0 B, the workload's 1.00 MiB\n");
	assert_contains(r, "== explanation ==\n  rand read took 1.00 s more than seq read");
	assert_lacks(r, "== seq read (work phase)");
	assert_lacks(r, "work view (task time");
	assert_lacks(r, "file_metadata"); /* compact: a group under 1% of every wall is left out */
	assert_true(count_lines(r) < 40);
	free(r);
	/* -q: the table and the explanation only */
	r = text_report_at(f, -1);
	assert_lacks(r, "iowhy gen:");
	assert_lacks(r, "== devices");
	assert_contains(r, "  MiB/s");
	assert_contains(r, "== explanation ==");
	free(r);
	/* -v: every phase in full, with its device section */
	r = text_report_at(f, 1);
	assert_contains(r, "== seq read (work phase)");
	assert_contains(r, "Devices and kernel I/O");
	free(r);
	f->ph[0].io = NULL;
	io_result_free(io);
}

/* The default report of many repeated runs stays short (gen --count 10 --repeat 20 printed
 * 1,086 lines): one compact table and the explanation. */
static void test_default_report_repeats_short(void **state)
{
	struct fixture *f = *state;
	char *r;

	for (int i = 0; i < 20; i++) {
		loop_phase(f, "loop", 100);
		flush_phase(f, "loop/flush", "loop", 100 * MS, 10 * MS);
	}
	r = text_report_at(f, 0);
	assert_contains_ws(r, "  flush (sync) wall        110 ms\n");
	assert_contains_ws(r, "    of it I/O wait         100 ms   90.9%\n");
	assert_contains(r, "total (work+flush) wall");
	assert_true(count_lines(r) < 40);
	free(r);
}

/* The tracing-cost estimates: events x calibrated cost, and the programs' sampled run time
 * scaled from the time the statistics were on to the wall; the larger counts. */
static void test_tracing_cost_estimates(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);

	p->wall.end_ns = p->wall.start_ns + 4 * SEC;
	p->events = 1000000;
	f->s.event_cost_ps = 150000; /* 150 ns */
	assert_int_equal(tracing_events_cost_ns(&f->s, p), 150 * MS);
	assert_int_equal(tracing_programs_ns(p), 0); /* not measured */
	assert_int_equal(tracing_cost_ns(&f->s, p), 150 * MS);
	p->prog_on_ns = 400 * MS; /* a tenth of the wall */
	p->prog_run_ns = 60 * MS;
	assert_int_equal(tracing_programs_ns(p), 600 * MS);
	assert_int_equal(tracing_cost_ns(&f->s, p), 600 * MS);
	p->prog_on_ns = 5 * SEC; /* on a little past the phase's end: scaled down */
	p->prog_run_ns = 50 * MS;
	assert_int_equal(tracing_programs_ns(p), 40 * MS);
	assert_int_equal(tracing_cost_ns(&f->s, p), 150 * MS);
}

/* The warning line names both estimates; a calibration that came out at zero (traced null
 * syscalls no slower than untraced ones on a busy machine) is said, not shown as "~0 ns each". */
static void test_tracing_cost_warning(void **state)
{
	struct fixture *f = *state;
	struct phase_result *p = add_phase(f, "run", "run", PHASE_WORK);
	char *r;

	p->wall.end_ns = p->wall.start_ns + 4 * SEC;
	p->wall.bucket_ns[WB_USER] = 4 * SEC;
	p->events = 1000000;
	p->prog_on_ns = 400 * MS;
	p->prog_run_ns = 60 * MS; /* 600 ms over the phase: 15% */
	f->s.event_cost_ps = 150000;
	r = text_report_at(f, 0);
	assert_contains(r, "WARNING: tracing slowed run down by ~600 ms, 15% of its 4.00 s wall, at "
			   "least: 1,000,000 events at ~150 ns each (calibrated at start) ~150 ms; "
			   "iowhy's BPF programs ran ~600 ms");
	free(r);
	f->s.event_cost_ps = 0;
	r = text_report_at(f, 0);
	assert_contains(r, "at least: 1,000,000 events (their cost could not be measured at start: "
			   "traced null syscalls were no slower than untraced ones, a busy machine); "
			   "iowhy's BPF programs ran ~600 ms");
	assert_null(strstr(r, "~0 ns each"));
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_columns_order_independent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flush_and_ranking, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeats_use_trimmed_mean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iowait_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_column_iowait_runq_residual, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_single_column_sleep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caveats_and_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_buffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_part_not_larger_than_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rest_fits_the_difference, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_run_noise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeats_noise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_oncpu_share_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_report_repeats_short, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_report_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_report_partial_single, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_report_repeats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_report_wraps_many_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tracing_cost_estimates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tracing_cost_warning, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stack_below, setup, teardown),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
