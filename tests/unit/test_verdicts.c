// SPDX-License-Identifier: GPL-2.0
/*
 * Verdict rules and the queue-depth knee on synthetic inputs: every rule fires on the numbers that
 * support it, names the right member and carries its inputs, and stays silent when nothing stands
 * out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "knee.h"
#include "verdicts.h"
#include "run_verdicts.h"
#include "summary.h"

/* Three loop members that look alike: 150 us, 30% busy, 300 MiB/s, 2 in flight. */
static struct vd_input three_alike(void)
{
	struct vd_input in;

	memset(&in, 0, sizeof(in));
	in.nmembers = 3;
	for (int i = 0; i < 3; i++) {
		struct vd_member *m = &in.m[i];

		snprintf(m->name, sizeof(m->name), "loop%d", i);
		m->major = 7;
		m->minor = (unsigned int)i;
		m->lat_us = 150 + 10 * i;
		m->busy_pct = 30;
		m->mib_s = 300;
		m->iops = 1200;
		m->inflight = 2;
	}
	return in;
}

/* The verdict of KIND in out[0..n), or NULL. */
static const struct verdict *find(const struct verdict *v, int n, enum vd_kind kind)
{
	for (int i = 0; i < n; i++)
		if (v[i].kind == kind)
			return &v[i];
	return NULL;
}

static double input_of(const struct verdict *v, const char *key)
{
	for (int i = 0; i < v->ninputs; i++)
		if (!strcmp(v->inputs[i].key, key))
			return v->inputs[i].val;
	fail_msg("verdict %s has no input %s", vd_kind_name(v->kind), key);
	return 0;
}

static void test_nothing_stands_out(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];

	(void)state;
	assert_int_equal(verdicts_compute(&in, v, VD_MAX), 0);
	/* a throttle that is configured but far from binding is no verdict either */
	in.m[1].thr_read_bps = 1000ull << 20;
	in.top_thread_cpu_pct = 40;
	in.wall_s = 10;
	in.dirty_pause_s = 0.5;
	in.journal_wait_s = 0.2;
	assert_int_equal(verdicts_compute(&in, v, VD_MAX), 0);
}

static void test_slow_member(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	const struct verdict *s;
	int n;

	(void)state;
	in.m[2].lat_us = 2000;
	in.m[2].busy_pct = 95;
	in.m[0].busy_pct = in.m[1].busy_pct = 10;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_int_equal(n, 1);
	s = find(v, n, VD_SLOW_MEMBER);
	assert_non_null(s);
	assert_string_equal(s->subject, "loop2");
	assert_non_null(strstr(s->text, "device latency"));
	assert_non_null(strstr(s->text, "busy 95% vs 10%"));
	assert_true(input_of(s, "ratio") > 10);
	assert_true(input_of(s, "lat_us") == 2000);
	/* not slow when the others are saturated too */
	in.m[0].busy_pct = in.m[1].busy_pct = 90;
	assert_null(find(v, verdicts_compute(&in, v, VD_MAX), VD_SLOW_MEMBER));
	/* measured alone (hunt): a slow latency sample with the same throughput is not slow */
	in = three_alike();
	for (int i = 0; i < 3; i++)
		in.m[i].alone_mib_s = 1500;
	in.m[2].lat_us = 3.5 * 150;
	in.m[2].alone_mib_s = 900;
	assert_int_equal(verdicts_compute(&in, v, VD_MAX), 0);
	in.m[2].alone_mib_s = 400;
	assert_string_equal(find(v, verdicts_compute(&in, v, VD_MAX), VD_SLOW_MEMBER)->subject,
			    "loop2");
	/* 2.5x is not several times */
	in = three_alike();
	in.m[1].lat_us = 2.5 * 150;
	assert_int_equal(verdicts_compute(&in, v, VD_MAX), 0);
}

static void test_throttled_config(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	const struct verdict *t;
	int n;

	(void)state;
	/* 16 MiB/s read limit on loop1, which runs at 15.8 MiB/s with 60 ms latency */
	in.m[1].thr_read_bps = 16ull << 20;
	snprintf(in.m[1].thr_cgroup, sizeof(in.m[1].thr_cgroup), "/iowhy-test.1");
	in.m[1].mib_s = 15.8;
	in.m[1].lat_us = 60000;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_int_equal(n, 1); /* throttled explains the slowness: no separate slow-member */
	t = find(v, n, VD_THROTTLED);
	assert_non_null(t);
	assert_string_equal(t->subject, "loop1");
	assert_non_null(strstr(t->text, "blkio.throttle.read_bps_device = 16.0 MiB/s for 7:1"));
	assert_non_null(strstr(t->text, "/iowhy-test.1"));
	assert_true(input_of(t, "limit_bps") == 16 << 20);
	/* a write limit does not explain reads: then it is a slow member */
	in.m[1].thr_read_bps = 0;
	in.m[1].thr_write_bps = 16ull << 20;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_null(find(v, n, VD_THROTTLED));
	assert_string_equal(find(v, n, VD_SLOW_MEMBER)->subject, "loop1");
	/* ... but it does for writes */
	in.writes = 1;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_string_equal(find(v, n, VD_THROTTLED)->subject, "loop1");
	/* an IOPS limit that the member runs at */
	in = three_alike();
	in.m[0].thr_read_iops = 1000;
	in.m[0].iops = 990;
	n = verdicts_compute(&in, v, VD_MAX);
	t = find(v, n, VD_THROTTLED);
	assert_non_null(t);
	assert_string_equal(t->subject, "loop0");
	assert_true(input_of(t, "limit_iops") == 1000);
}

/* A lone device with the same MiB/s at every depth while latency grows with depth. */
static void test_flat_ceiling(void **state)
{
	static const double depth[] = { 1, 4, 16, 32 };
	struct vd_input in;
	struct verdict v[VD_MAX];
	const struct verdict *t;
	int n;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.nmembers = 1;
	snprintf(in.m[0].name, sizeof(in.m[0].name), "vdb");
	in.m[0].ndepth = 4;
	for (int k = 0; k < 4; k++) {
		in.m[0].depth[k] = depth[k];
		in.m[0].depth_mib_s[k] = 20 + k * 0.5;
		in.m[0].depth_lat_us[k] = 50000 * depth[k];
	}
	n = verdicts_compute(&in, v, VD_MAX);
	t = find(v, n, VD_THROTTLED);
	assert_non_null(t);
	assert_non_null(strstr(t->text, "flat ceiling"));
	assert_true(input_of(t, "lat_growth") == 32);
	/* a device that gives more with depth has no ceiling */
	for (int k = 0; k < 4; k++)
		in.m[0].depth_mib_s[k] = 20 * (k + 1);
	assert_int_equal(verdicts_compute(&in, v, VD_MAX), 0);
}

/* Of three identical members only one looks flat (as loop devices over cached files do when the
 * CPU copying pages is the limit): no rate-limit verdict. When all three are flat, it is one. */
static void test_flat_ceiling_one_of_alike(void **state)
{
	static const double depth[] = { 1, 4, 16, 32 };
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	int n;

	(void)state;
	for (int i = 0; i < 3; i++) {
		in.m[i].ndepth = 4;
		for (int k = 0; k < 4; k++) {
			in.m[i].depth[k] = depth[k];
			in.m[i].depth_mib_s[k] = i == 0 ? 4000 + 200 * k : 3000 * (k + 1);
			in.m[i].depth_lat_us[k] = 250 * depth[k];
		}
	}
	n = verdicts_compute(&in, v, VD_MAX);
	assert_null(find(v, n, VD_THROTTLED));
	for (int i = 1; i < 3; i++)
		for (int k = 0; k < 4; k++)
			in.m[i].depth_mib_s[k] = 4000 + 200 * k;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_non_null(find(v, n, VD_THROTTLED));
}

/* Three members sharing vda: alone 900 each, together 910 in all. */
static void test_shared(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	const struct verdict *s;
	int n;

	(void)state;
	snprintf(in.shared_lower, sizeof(in.shared_lower), "vda");
	for (int i = 0; i < 3; i++) {
		in.m[i].alone_mib_s = 900;
		in.m[i].together_mib_s = 910.0 / 3;
	}
	n = verdicts_compute(&in, v, VD_MAX);
	s = find(v, n, VD_SHARED);
	assert_non_null(s);
	assert_string_equal(s->subject, "vda");
	assert_non_null(strstr(s->text, "together 1.0 members' worth"));
	assert_non_null(strstr(s->text, "loop0, loop1, loop2 share vda"));
	assert_true(input_of(s, "together_mib_s") > 909 && input_of(s, "together_mib_s") < 911);
	/* independent members: together each keeps 90% of its alone speed */
	for (int i = 0; i < 3; i++)
		in.m[i].together_mib_s = 810;
	assert_int_equal(verdicts_compute(&in, v, VD_MAX), 0);
	/* a throttled member is left out: the other two share vda */
	in.m[1].thr_read_bps = 16ull << 20;
	in.m[1].mib_s = 16;
	in.m[1].alone_mib_s = in.m[1].together_mib_s = 16;
	in.m[0].together_mib_s = in.m[2].together_mib_s = 460;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_non_null(find(v, n, VD_THROTTLED));
	s = find(v, n, VD_SHARED);
	assert_non_null(s);
	assert_non_null(strstr(s->text, "loop0, loop2 share vda"));
	/* no device under all members; the two counted both sit on vda */
	in.shared_lower[0] = '\0';
	snprintf(in.m[0].bottom, sizeof(in.m[0].bottom), "vda");
	snprintf(in.m[1].bottom, sizeof(in.m[1].bottom), "fuse:/slow");
	snprintf(in.m[2].bottom, sizeof(in.m[2].bottom), "vda");
	n = verdicts_compute(&in, v, VD_MAX);
	assert_non_null(strstr(find(v, n, VD_SHARED)->text, "loop0, loop2 share vda"));
	snprintf(in.m[2].bottom, sizeof(in.m[2].bottom), "vdb");
	n = verdicts_compute(&in, v, VD_MAX);
	assert_non_null(strstr(find(v, n, VD_SHARED)->text, "share something below them"));
	assert_true(input_of(s, "members") == 2);
}

static void test_cpu_bound(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	const struct verdict *c;
	int n;

	(void)state;
	snprintf(in.top_thread, sizeof(in.top_thread), "md5sum");
	in.top_thread_cpu_pct = 99;
	n = verdicts_compute(&in, v, VD_MAX);
	c = find(v, n, VD_CPU_BOUND);
	assert_non_null(c);
	assert_string_equal(c->subject, "md5sum");
	assert_true(input_of(c, "busiest_device_pct") == 30);
	assert_true(input_of(c, "thread_runq_pct") == 0);
	/* on a busy machine: on the CPU 62% and waiting for one 33%, still held by CPU */
	in.top_thread_cpu_pct = 62;
	in.top_thread_runq_pct = 33;
	n = verdicts_compute(&in, v, VD_MAX);
	c = find(v, n, VD_CPU_BOUND);
	assert_non_null(c);
	assert_true(input_of(c, "thread_runq_pct") == 33);
	assert_non_null(strstr(c->text, "md5sum ran 62% of a CPU and waited 33% of the time for one"));
	/* but not a thread that mostly sleeps */
	in.top_thread_runq_pct = 10;
	assert_null(find(v, verdicts_compute(&in, v, VD_MAX), VD_CPU_BOUND));
	/* not while a device is busy */
	in.top_thread_cpu_pct = 99;
	in.m[0].busy_pct = 85;
	assert_null(find(v, verdicts_compute(&in, v, VD_MAX), VD_CPU_BOUND));
}

static void test_queue_depth(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	const struct verdict *q;
	int n;

	(void)state;
	in.m[0].inflight = 1.0;
	in.m[0].busy_pct = 45;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_int_equal(n, 1);
	q = find(v, n, VD_QUEUE_DEPTH);
	assert_non_null(q);
	assert_string_equal(q->subject, "loop0");
	assert_true(input_of(q, "inflight") == 1.0);
	/* one in flight but the device is saturated: not queue-depth bound */
	in.m[0].busy_pct = 97;
	assert_null(find(v, verdicts_compute(&in, v, VD_MAX), VD_QUEUE_DEPTH));
}

static void test_writeback_journal(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	int n;

	(void)state;
	in.wall_s = 10;
	in.dirty_pause_s = 3.1;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_int_equal(n, 1);
	assert_non_null(strstr(find(v, n, VD_WRITEBACK)->text, "balance_dirty_pages"));
	/* 0.7 s of a 10 s wall is under 10%, but not of the 4 s the work did not wait for a CPU */
	in.dirty_pause_s = 0.7;
	assert_null(find(v, verdicts_compute(&in, v, VD_MAX), VD_WRITEBACK));
	in.runq_s = 6;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_non_null(find(v, n, VD_WRITEBACK));
	assert_true(input_of(find(v, n, VD_WRITEBACK), "runq_s") == 6);
	assert_non_null(strstr(find(v, n, VD_WRITEBACK)->text,
			       "(18% of the wall; the wall less 6.00 s waiting for a CPU)"));
	in.runq_s = 0;
	in.dirty_pause_s = 0;
	in.journal_wait_s = 2;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_int_equal(n, 1);
	assert_true(input_of(find(v, n, VD_JOURNAL), "journal_wait_s") == 2);
	/* a run queue longer than the wall (several tasks) leaves the wall as the base */
	in.journal_wait_s = 0.5;
	in.runq_s = 12;
	assert_null(find(v, verdicts_compute(&in, v, VD_MAX), VD_JOURNAL));
}

static void test_knee(void **state)
{
	static const double depth[] = { 1, 4, 16, 32 };
	static const double iops_k16[] = { 10000, 35000, 80000, 82000 };
	static const double lat_k16[] = { 100, 114, 200, 390 };
	static const double iops_grow[] = { 10000, 38000, 140000, 270000 };
	static const double lat_grow[] = { 100, 105, 114, 118 };
	static const double iops_k1[] = { 10000, 10500, 10400, 10300 };
	static const double lat_k1[] = { 100, 380, 1540, 3100 };
	static const double iops_dip[] = { 21900, 4400, 9000, 49200 };
	static const double lat_dip[] = { 46, 897, 1800, 649 };

	(void)state;
	assert_int_equal(knee_find(depth, iops_k16, lat_k16, 4), 2); /* depth 16 */
	assert_int_equal(knee_find(depth, iops_grow, lat_grow, 4), -1);
	assert_int_equal(knee_find(depth, iops_k1, lat_k1, 4), 0); /* depth 1 */
	assert_int_equal(knee_find(depth, iops_k1, lat_k1, 1), -1);
	/* a dip at depth 4 on a busy machine, growing again later: no knee yet */
	assert_int_equal(knee_find(depth, iops_dip, lat_dip, 4), -1);
}

/* ---- passive verdicts of a run (run_verdicts.c) ---- */

/* A run: one phase of 4 s on btrfs over loop0..loop2 (on vda); each member got 8 MiB of the
 * workload's writes in `reqs` requests of `lat_ns`; member `thr` (-1: none) has a 2 MiB/s
 * write limit for the workload's cgroup; the I/O wait charged per member in iowait[]. */
struct run_fixture {
	struct session_result s;
	struct phase_result ph;
	struct session_summary sum;
};

static struct run_fixture *run_fixture(int thr, const uint64_t *iowait)
{
	struct run_fixture *f = calloc(1, sizeof(*f));
	struct io_phase *p = io_phase_new();
	struct stack_line *st = &f->sum.stacks[0];

	assert_non_null(f);
	f->s.phases = &f->ph;
	f->s.nphases = 1;
	f->ph.io = p;
	f->ph.wall.start_ns = 1000;
	f->ph.wall.end_ns = 1000 + 4000000000ull;
	p->window_ns = 4000000000ull;
	for (int i = 0; i < 3; i++) {
		uint32_t dev = (7u << 20) | (uint32_t)i;
		struct io_devinfo *d = io_phase_dev(p, dev);
		struct io_stat sta;

		snprintf(d->name, sizeof(d->name), "loop%d", i);
		d->busy_ns = 100000000ull;
		if (i == thr) {
			d->thr_write_bps = 2u << 20;
			snprintf(d->thr_cgroup, sizeof(d->thr_cgroup), "/slow");
		}
		memset(&sta, 0, sizeof(sta));
		sta.requests = 100;
		sta.bytes = 8u << 20;
		sta.dev_ns = 100 * 500000ull;
		sta.queue_ns = 100 * 10000ull;
		io_phase_add(p, dev, IO_OP_WRITE, IO_CL_TREE, &sta);
		snprintf(st->dev[i], sizeof(st->dev[0]), "loop%d", i);
		st->level[i] = 0;
		snprintf(f->sum.disks[i].name, sizeof(f->sum.disks[0].name), "loop%d", i);
		f->sum.disks[i].workload_bytes = 8u << 20;
		f->sum.disks[i].iowait_ns = iowait[i];
	}
	snprintf(st->dev[3], sizeof(st->dev[0]), "vda");
	st->level[3] = 1;
	st->ndevs = 4;
	f->sum.nstacks = 1;
	snprintf(f->sum.disks[3].name, sizeof(f->sum.disks[0].name), "vda");
	f->sum.disks[3].workload_bytes = 24u << 20;
	f->sum.ndisks = 4;
	return f;
}

static void run_fixture_free(struct run_fixture *f)
{
	io_result_free(f->ph.io);
	free(f);
}

/* The members are the stack's own devices (not vda below them), with the run's numbers; the
 * throttled one gets the verdict with its limit and its share of the I/O wait; without the
 * throttle nothing stands out. */
static void test_run_verdicts(void **state)
{
	static const uint64_t wait_thr[] = { 200000000ull, 3600000000ull, 200000000ull };
	struct run_fixture *f = run_fixture(1, wait_thr);
	struct vd_input *in = &f->sum.vin;
	struct verdict v[VD_MAX];
	const struct verdict *t;
	int n;

	(void)state;
	assert_int_equal(run_verdict_input(&f->s, &f->sum, in), 3);
	assert_string_equal(in->m[1].name, "loop1");
	assert_string_equal(in->shared_lower, "vda");
	assert_true(in->writes);
	assert_int_equal(in->m[1].thr_write_bps, 2u << 20);
	assert_int_equal(in->m[1].major, 7);
	assert_true(in->m[0].lat_us > 499 && in->m[0].lat_us < 501);
	assert_true(in->m[0].qwait_us > 9.9 && in->m[0].qwait_us < 10.1);
	assert_true(in->m[0].busy_pct > 2.4 && in->m[0].busy_pct < 2.6);
	assert_true(in->m[1].mib_s > 1.99 && in->m[1].mib_s < 2.01);
	assert_true(in->m[1].iowait_s > 3.59 && in->m[1].iowait_s < 3.61);
	assert_true(in->m[0].inflight > 0.49 && in->m[0].inflight < 0.51);
	n = verdicts_compute(in, v, VD_MAX);
	t = find(v, n, VD_THROTTLED);
	assert_non_null(t);
	assert_string_equal(t->subject, "loop1");
	assert_non_null(strstr(t->text, "write_bps_device = 2.0 MiB/s for 7:1 in cgroup /slow"));
	assert_non_null(strstr(t->text, "waited 3.60 s on it (90% of its I/O wait"));
	assert_true(input_of(t, "iowait_share") > 0.89 && input_of(t, "iowait_share") < 0.91);
	assert_null(find(v, n, VD_SLOW_MEMBER));
	run_fixture_free(f);

	/* the same run without the throttle, waits alike: no verdict */
	{
		static const uint64_t wait_even[] = { 1000000000ull, 1000000000ull, 1000000000ull };

		f = run_fixture(-1, wait_even);
		assert_int_equal(run_verdict_input(&f->s, &f->sum, &f->sum.vin), 3);
		assert_int_equal(verdicts_compute(&f->sum.vin, v, VD_MAX), 0);
		/* one member only (no stack; vda below a stack is not a peer): nothing to compare */
		f->sum.nstacks = 0;
		f->sum.ndisks = 1;
		assert_int_equal(run_verdict_input(&f->s, &f->sum, &f->sum.vin), 1);
		run_fixture_free(f);
	}
}

/* Each member's bottom is what it sits on (btrfs over loop0 and loop2 on vda, loop1 on a FUSE
 * file system's 0:38), not the next level's last device; with two devices there, none is shared;
 * without what sits on what known, no member gets a bottom. */
static void test_run_member_bottoms(void **state)
{
	static const uint64_t wait[] = { 200000000ull, 3600000000ull, 200000000ull };
	struct run_fixture *f = run_fixture(-1, wait);
	struct stack_line *st = &f->sum.stacks[0];
	struct vd_input *in = &f->sum.vin;

	(void)state;
	snprintf(st->dev[4], sizeof(st->dev[0]), "0:38");
	st->level[4] = 1;
	st->ndevs = 5;
	st->on[0] = st->on[2] = 1 + 3; /* vda */
	st->on[1] = 1 + 4;              /* 0:38 */
	assert_int_equal(run_verdict_input(&f->s, &f->sum, in), 3);
	assert_string_equal(in->m[0].bottom, "vda");
	assert_string_equal(in->m[1].bottom, "0:38");
	assert_string_equal(in->m[2].bottom, "vda");
	assert_string_equal(in->shared_lower, "");
	/* a chain: loop1 sits on 0:38, which sits on vda: its bottom is vda */
	st->level[4] = 1;
	st->on[4] = 1 + 3;
	memset(in, 0, sizeof(*in));
	assert_int_equal(run_verdict_input(&f->s, &f->sum, in), 3);
	assert_string_equal(in->m[1].bottom, "vda");
	/* not known: no bottoms */
	memset(st->on, 0, sizeof(st->on));
	memset(in, 0, sizeof(*in));
	assert_int_equal(run_verdict_input(&f->s, &f->sum, in), 3);
	assert_string_equal(in->m[0].bottom, "");
	assert_string_equal(in->m[1].bottom, "");
	run_fixture_free(f);
}

/* The report of a fio random-read run on one loop device that also loaded its binaries from vda:
 * two disks the run touched, not peers. loop1 was fast (16 us) and busy (60%), vda slow (442 us)
 * and nearly idle, the workload waited only on loop1. No member is "slow", and no verdict is
 * about vda, where the workload did not wait. */
static void test_independent_disks(void **state)
{
	struct vd_input in;
	struct verdict v[VD_MAX];
	int n;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.nmembers = 2;
	in.independent = 1;
	in.passive = 1;
	snprintf(in.m[0].name, sizeof(in.m[0].name), "vda");
	in.m[0].lat_us = 442;
	in.m[0].busy_pct = 6;
	in.m[0].inflight = 1;
	snprintf(in.m[1].name, sizeof(in.m[1].name), "loop1");
	in.m[1].lat_us = 16;
	in.m[1].busy_pct = 60;
	in.m[1].inflight = 1;
	in.m[1].iowait_s = 2.5;
	in.wall_s = 3;
	n = verdicts_compute(&in, v, VD_MAX);
	assert_null(find(v, n, VD_SLOW_MEMBER));
	assert_null(find(v, n, VD_SHARED));
	for (int i = 0; i < n; i++)
		assert_string_not_equal(v[i].subject, "vda");
	/* the same numbers as peers of one stack: loop1 is slow by busy %, and the sentence quotes
	 * busy % with the ratio of the two busy figures it quotes */
	in.independent = 0;
	in.m[0].iowait_s = 0.1;
	n = verdicts_compute(&in, v, VD_MAX);
	{
		const struct verdict *t = find(v, n, VD_SLOW_MEMBER);

		assert_non_null(t);
		assert_string_equal(t->subject, "loop1");
		assert_non_null(strstr(t->text, "busy 60% vs 6% for the others (10.0x)"));
		assert_true(input_of(t, "by_busy") == 1);
		assert_true(input_of(t, "ratio") > 9.99 && input_of(t, "ratio") < 10.01);
	}
}

/* verdicts_check takes back what contradicts its numbers or another verdict. */
static void test_check_withdraws(void **state)
{
	struct vd_input in = three_alike();
	struct verdict v[VD_MAX];
	struct vd_withdrawn w[VD_MAX];
	int n, nw;

	(void)state;
	in.m[2].lat_us = 900; /* loop2: 900 us against 150 and 160 */
	n = verdicts_compute(&in, v, VD_MAX);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].kind, VD_SLOW_MEMBER);
	assert_int_equal(verdicts_check(&in, v, n, w, VD_MAX, &nw), 1);
	assert_int_equal(nw, 0);
	/* a stated ratio that is not the quoted numbers' ratio (the 60.4x of 16 us vs 442 us) */
	for (int k = 0; k < v[0].ninputs; k++)
		if (!strcmp(v[0].inputs[k].key, "ratio"))
			v[0].inputs[k].val = 60.4;
	assert_int_equal(verdicts_check(&in, v, n, w, VD_MAX, &nw), 0);
	assert_int_equal(nw, 1);
	assert_non_null(strstr(w[0].why, "ratio 60.40x is not 900 / 155"));
	/* two members named slow by different measures: the weaker is taken back */
	n = verdicts_compute(&in, v, VD_MAX);
	v[1] = v[0];
	snprintf(v[1].subject, sizeof(v[1].subject), "loop0");
	for (int k = 0; k < v[1].ninputs; k++) {
		if (!strcmp(v[1].inputs[k].key, "by_busy"))
			v[1].inputs[k].val = 1;
		if (!strcmp(v[1].inputs[k].key, "ratio"))
			v[1].inputs[k].val = 3.5;
	}
	assert_int_equal(verdicts_check(&in, v, 2, w, VD_MAX, &nw), 1);
	assert_string_equal(v[0].subject, "loop2");
	assert_int_equal(nw, 1);
	assert_string_equal(w[0].subject, "loop0");
	/* a slow member among independent disks, and one not slower than a member not named */
	n = verdicts_compute(&in, v, VD_MAX);
	in.independent = 1;
	assert_int_equal(verdicts_check(&in, v, n, w, VD_MAX, &nw), 0);
	assert_non_null(strstr(w[0].why, "no peers"));
	in.independent = 0;
	in.m[0].lat_us = 1000;
	assert_int_equal(verdicts_check(&in, v, n, w, VD_MAX, &nw), 0);
	assert_non_null(strstr(w[0].why, "not slower than loop0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_stands_out),
		cmocka_unit_test(test_slow_member),
		cmocka_unit_test(test_throttled_config),
		cmocka_unit_test(test_flat_ceiling),
		cmocka_unit_test(test_flat_ceiling_one_of_alike),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_cpu_bound),
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_writeback_journal),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_run_verdicts),
		cmocka_unit_test(test_run_member_bottoms),
		cmocka_unit_test(test_independent_disks),
		cmocka_unit_test(test_check_withdraws),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
