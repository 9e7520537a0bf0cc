// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the pure I/O model (user/io_model.c) and the logic it shares with bpf/io.bpf.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "io_model.h"

#define DEV 0x700000u   /* 7:0 */
#define US 1000ull

/* ---- busy time ---- */

static void test_union_overlaps_nesting_touching(void **state)
{
	struct io_interval iv[] = {
		{ 100, 200 }, { 150, 250 },   /* overlap: 100..250 */
		{ 300, 400 }, { 320, 340 },   /* nested: 300..400 */
		{ 400, 450 },                 /* touching: 300..450 */
		{ 500, 500 },                 /* empty */
		{ 600, 700 },                 /* alone */
	};

	(void)state;
	assert_int_equal(io_interval_union(iv, sizeof(iv) / sizeof(iv[0])), 150 + 150 + 100);
	assert_int_equal(io_interval_union(iv, 0), 0);
}

/* The streaming in-flight counter (BPF side) equals the union of the request intervals. */
static void test_inflight_counter_matches_union(void **state)
{
	struct io_interval iv[] = { { 10, 50 }, { 20, 30 }, { 40, 90 }, { 90, 95 }, { 200, 260 } };
	/* events in time order: +1 at start, -1 at end */
	struct { uint64_t t; int d; } ev[] = {
		{ 10, 1 }, { 20, 1 }, { 30, -1 }, { 40, 1 }, { 50, -1 }, { 90, -1 }, { 90, 1 },
		{ 95, -1 }, { 200, 1 }, { 260, -1 },
	};
	struct io_dev_state d;
	uint8_t seq;

	(void)state;
	memset(&d, 0, sizeof(d));
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		if (ev[i].d > 0)
			io_dev_issue(&d, ev[i].t, 3, 0, 0, 0, &seq);
		else
			io_dev_done(&d, ev[i].t, 3, 0);
	}
	assert_int_equal(d.inflight, 0);
	assert_int_equal(d.busy_ns[3], io_interval_union(iv, 5));
	assert_int_equal(d.busy_ns[3], 85 + 60);
}

/* Busy time is cut at phase windows: what elapses in a window goes to that window's phase. */
static void test_busy_split_by_window(void **state)
{
	struct io_dev_state d;
	uint8_t seq;

	(void)state;
	memset(&d, 0, sizeof(d));
	io_dev_issue(&d, 100, 0, 0, 0, 0, &seq);
	io_dev_issue(&d, 150, 0, 0, 0, 0, &seq);  /* tick: 50 to phase 0 */
	io_dev_done(&d, 300, 1, 150);             /* window 1 opened at 150: 150 to phase 1 */
	io_dev_done(&d, 400, IO_NO_PHASE, 300);   /* no window: not counted */
	assert_int_equal(d.busy_ns[0], 50);
	assert_int_equal(d.busy_ns[1], 150);
	assert_int_equal(d.inflight, 0);
}

/* A request in flight across a window edge counts from the edge on: busy time never exceeds the
 * window, even when the disk saw no event for long before it (or a completion was missed). */
static void test_busy_from_window_start(void **state)
{
	struct io_dev_state d;
	uint8_t seq;

	(void)state;
	memset(&d, 0, sizeof(d));
	io_dev_issue(&d, 100, 0, 0, 0, 0, &seq);          /* in flight from 100, window 0 */
	io_dev_done(&d, 1000, 1, 900);                     /* window 1 opened at 900 */
	assert_int_equal(d.busy_ns[0], 0);                 /* no event in window 0 after 100 */
	assert_int_equal(d.busy_ns[1], 100);               /* 900..1000, not 100..1000 */
	io_dev_issue(&d, 1100, 1, 900, 0, 0, &seq);        /* a request that never completes */
	io_dev_issue(&d, 5000, 2, 4000, 0, 0, &seq);       /* window 2 opened at 4000 */
	assert_int_equal(d.busy_ns[2], 1000);              /* 4000..5000 only */
}

/* ---- sequential detection ---- */

static void test_sequential(void **state)
{
	struct io_dev_state d;
	uint8_t seq;

	(void)state;
	memset(&d, 0, sizeof(d));
	io_dev_issue(&d, 1, 0, 0, 1000, 8, &seq);
	assert_int_equal(seq, 0);                 /* first request: nothing before it */
	io_dev_done(&d, 2, 0, 0);
	io_dev_issue(&d, 3, 0, 0, 1008, 8, &seq);
	assert_int_equal(seq, 1);                 /* starts where the previous ended */
	io_dev_issue(&d, 4, 0, 0, 5000, 16, &seq);
	assert_int_equal(seq, 0);                 /* random */
	io_dev_issue(&d, 5, 0, 0, 5016, 0, &seq);
	assert_int_equal(seq, 0);                 /* flush (no data): never sequential */
	io_dev_issue(&d, 6, 0, 0, 5016, 8, &seq);
	assert_int_equal(seq, 1);                 /* ...and does not break the run */
	assert_int_equal(d.issued[0], 5);
}

/* ---- request tracking ---- */

static const struct io_row *row_of(const struct io_phase *p, uint8_t op, uint8_t cls)
{
	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i].op == op && p->rows[i].cls == cls)
			return &p->rows[i];
	return NULL;
}

/* Three bios: one becomes a request, one back-merges into it, one front-merges (and becomes the
 * first bio). A second request merges into the first. One completion in two parts. */
static void test_lifecycle_merges(void **state)
{
	struct io_phase *p = io_phase_new();
	struct io_sim s;
	const struct io_row *r;

	(void)state;
	io_sim_init(&s, p, 0);
	io_sim_bio_queue(&s, 0xa, 100 * US, DEV, IO_CL_TREE, 0);
	io_sim_bio_queue(&s, 0xb, 101 * US, DEV, IO_CL_TREE, 0);
	io_sim_bio_backmerge(&s, 0xb);
	io_sim_bio_queue(&s, 0xc, 102 * US, DEV, IO_CL_TREE, 0);
	io_sim_bio_frontmerge(&s, 0xc);
	/* request 1 now starts with bio c; request 2 (bio d) is merged into it */
	io_sim_bio_queue(&s, 0xd, 103 * US, DEV, IO_CL_TREE, 0);
	io_sim_rq_insert(&s, 0x2, 0xd, IO_OP_WRITE, 104 * US);
	io_sim_rq_merge(&s, 0x2);
	io_sim_rq_insert(&s, 0x1, 0xc, IO_OP_WRITE, 110 * US);
	io_sim_rq_issue(&s, 0x1, 0xc, IO_OP_WRITE, 130 * US, 0, 32);
	io_sim_rq_complete(&s, 0x1, 200 * US, 8192, 16384);   /* partial */
	assert_int_equal(io_sim_tracked(&s), 1);
	io_sim_rq_complete(&s, 0x1, 230 * US, 8192, 8192);    /* done */
	assert_int_equal(io_sim_tracked(&s), 0);
	assert_int_equal(s.dev.inflight, 0);
	r = row_of(p, IO_OP_WRITE, IO_CL_TREE);
	assert_non_null(r);
	assert_int_equal(r->st.requests, 1);
	assert_int_equal(r->st.bytes, 16384);
	assert_int_equal(r->st.queue_ns, 20 * US);             /* insert -> issue */
	assert_int_equal(r->st.dev_ns, 100 * US);              /* issue -> final completion */
	assert_int_equal(s.backmerges + s.frontmerges + s.rq_merges, 3);
	assert_int_equal(s.lost.issue_unseen + s.lost.complete_untracked, 0);
	assert_int_equal(s.dev.busy_ns[0], 100 * US);
	io_result_free(p);
}

/* A requeued request leaves the device (busy stops), waits, is issued again: one request, device
 * time from the last issue, queue time from the requeue. */
static void test_lifecycle_requeue(void **state)
{
	struct io_phase *p = io_phase_new();
	struct io_sim s;
	const struct io_row *r;

	(void)state;
	io_sim_init(&s, p, 2);
	io_sim_bio_queue(&s, 0xa, 0, DEV, IO_CL_WB_TREE, 2);
	io_sim_rq_issue(&s, 0x1, 0xa, IO_OP_WRITE, 10 * US, 0, 8);   /* direct issue, no insert */
	io_sim_rq_requeue(&s, 0x1, 30 * US);
	assert_int_equal(s.dev.inflight, 0);
	io_sim_rq_insert(&s, 0x1, 0xa, IO_OP_WRITE, 35 * US);
	io_sim_rq_issue(&s, 0x1, 0xa, IO_OP_WRITE, 50 * US, 0, 8);
	io_sim_rq_complete(&s, 0x1, 80 * US, 4096, 4096);
	r = row_of(p, IO_OP_WRITE, IO_CL_WB_TREE);
	assert_non_null(r);
	assert_int_equal(r->st.requests, 1);
	assert_int_equal(r->st.requeues, 1);
	assert_int_equal(r->st.queue_ns, 15 * US);
	assert_int_equal(r->st.dev_ns, 30 * US);
	assert_int_equal(s.dev.busy_ns[2], 20 * US + 30 * US);
	io_result_free(p);
}

/* Requests whose bios were never seen are UNKNOWN and counted; completions never issued counted. */
static void test_lifecycle_untracked(void **state)
{
	struct io_phase *p = io_phase_new();
	struct io_sim s;

	(void)state;
	io_sim_init(&s, p, 0);
	io_sim_rq_issue(&s, 0x9, 0, IO_OP_FLUSH, 10, 0, 0);
	io_sim_rq_complete(&s, 0x9, 20, 0, 0);
	io_sim_rq_complete(&s, 0x8, 30, 4096, 4096);
	assert_non_null(row_of(p, IO_OP_FLUSH, IO_CL_UNKNOWN));
	assert_int_equal(s.lost.issue_unseen, 1);
	assert_int_equal(s.lost.complete_untracked, 1);
	assert_int_equal(s.lost.clock_reversed, 0);
	io_result_free(p);
}

/* A completion dated before its issue (the CPUs' clocks disagree): counted, its device time 0,
 * and not a loss (io_lost_total leaves it out). */
static void test_clock_reversed(void **state)
{
	struct io_phase *p = io_phase_new();
	const struct io_row *r;
	struct io_sim s;

	(void)state;
	io_sim_init(&s, p, 0);
	io_sim_rq_issue(&s, 0x9, 0, IO_OP_READ, 1000, 0, 8);
	io_sim_rq_complete(&s, 0x9, 900, 4096, 4096);
	r = row_of(p, IO_OP_READ, IO_CL_UNKNOWN);
	assert_non_null(r);
	assert_int_equal(r->st.requests, 1);
	assert_int_equal(r->st.dev_ns, 0);
	assert_int_equal(s.lost.clock_reversed, 1);
	assert_int_equal(io_lost_total(&s.lost), 1); /* the issue whose bios were not seen */
	io_result_free(p);
}

/* The losses add up each once: completions the sweep found are a part of complete_missed, and
 * the late and clock-reversed ones are not losses. */
static void test_lost_total(void **state)
{
	struct io_lost l = { .complete_missed = 3, .complete_swept = 2, .complete_late = 5,
			     .clock_reversed = 7, .reqs_full = 1 };

	(void)state;
	assert_int_equal(io_lost_total(&l), 4);
}

/* ---- aggregation and reconciliation ---- */

static void add_bytes(struct io_phase *p, uint32_t dev, uint8_t op, uint8_t cls, uint64_t bytes)
{
	struct io_stat st;

	memset(&st, 0, sizeof(st));
	st.requests = bytes / 65536 + 1;
	st.bytes = bytes;
	io_phase_add(p, dev, op, cls, &st);
}

static void add_below(struct io_phase *p, uint32_t dev, uint32_t upper, uint8_t op,
		      uint64_t bytes)
{
	struct io_stat st;

	memset(&st, 0, sizeof(st));
	st.requests = bytes / 65536 + 1;
	st.bytes = bytes;
	io_phase_add_upper(p, dev, upper, op, IO_CL_STACK, &st);
}

/* I/O below a loop device is charged by the workload's share of the loop device's bytes (the
 * journal and untracked requests aside); a phase where the loop device had no bytes takes the
 * share of the nearest earlier phase that had; a loop over a loop is charged top down. */
static void test_stack_charge(void **state)
{
	const uint32_t vda = 254u << 20, loop0 = 7u << 20, loop1 = (7u << 20) | 1, loop2 =
		(7u << 20) | 2;
	struct io_phase *a = io_phase_new(), *b = io_phase_new();
	const struct io_phase *prev[1] = { a };
	struct io_level_stat v;
	struct io_stackline sl = { .head = "/mnt (ext4)", .nlevels = 2, .ndev = { 1, 1 },
				   .dev = { { loop0 }, { vda } } };
	struct io_layers l;
	char line[128];

	(void)state;
	/* phase a: loop0 written 3/4 by the workload, 1/4 by another process, plus journal */
	add_bytes(a, loop0, IO_OP_WRITE, IO_CL_WB_TREE, 48 << 20);
	add_bytes(a, loop0, IO_OP_WRITE, IO_CL_OTHER, 16 << 20);
	add_bytes(a, loop0, IO_OP_WRITE, IO_CL_JOURNAL, 1 << 20);
	add_below(a, vda, loop0, IO_OP_WRITE, 64 << 20);
	add_bytes(a, vda, IO_OP_WRITE, IO_CL_OTHER, 4096);
	/* a read below loop0 with no read on loop0: no share, nothing charged */
	add_below(a, vda, loop0, IO_OP_READ, 8192);
	assert_true(io_upper_share(a, loop0, IO_OP_WRITE) > 0.749);
	assert_true(io_upper_share(a, loop0, IO_OP_WRITE) < 0.751);
	assert_true(io_upper_share(a, loop0, IO_OP_READ) < 0);
	io_stack_charge(a, NULL, 0);
	assert_int_equal(a->rows[3].charged, 48 << 20);
	assert_int_equal(a->rows[5].charged, 0);
	assert_int_equal(io_phase_workload_bytes(a, vda, IO_OP_WRITE), 48 << 20);
	io_layers_compute(a, NULL, &l);
	assert_int_equal(l.blk_write_stack, 64 << 20);
	assert_int_equal(l.blk_write_stack_tree, 48 << 20);

	io_phase_dev(a, loop0);
	snprintf(io_phase_dev(a, loop0)->name, 32, "loop0");
	snprintf(io_phase_dev(a, vda)->name, 32, "vda");
	assert_string_equal(io_stackline_format(a, &sl, line, sizeof(line)),
			    "/mnt (ext4) \u2192 loop0 \u2192 vda");
	io_level_stat(a, vda, &v);
	assert_int_equal(v.bytes, (64 << 20) + 4096 + 8192);
	assert_int_equal(v.below_bytes, (64 << 20) + 8192);
	assert_int_equal(v.below_workload_bytes, 48 << 20);
	assert_int_equal(v.workload_bytes, 48 << 20);

	/* phase b: the loop driver's writeback lands a phase later; loop2 over loop1 over vda:
	 * loop2 all the workload's, loop1 half loop2's and half another's */
	add_below(b, vda, loop0, IO_OP_WRITE, 8 << 20);
	add_bytes(b, loop2, IO_OP_WRITE, IO_CL_TREE, 10 << 20);
	add_below(b, loop1, loop2, IO_OP_WRITE, 10 << 20);
	add_bytes(b, loop1, IO_OP_WRITE, IO_CL_OTHER, 10 << 20);
	add_below(b, vda, loop1, IO_OP_WRITE, 20 << 20);
	io_stack_charge(b, prev, 1);
	assert_int_equal(b->rows[0].charged, 6 << 20);   /* 3/4 of 8 MiB, a's share */
	assert_int_equal(b->rows[2].charged, 10 << 20);  /* all of loop2's */
	assert_int_equal(b->rows[4].charged, 10 << 20);  /* half of loop1's 20 MiB below */
	io_stack_charge(b, NULL, 0);
	assert_int_equal(b->rows[0].charged, 0);         /* no earlier phase: nothing known */
	io_result_free(a);
	io_result_free(b);
}

/* The workload's wait on a loop device charged further down: by the share of the loop device's
 * busy time that the requests below it, done for it, were outstanding; never more than the wait
 * nor than that request time; nothing without requests below or without busy time. */
static void test_wait_below(void **state)
{
	const uint32_t vda = 254u << 20, loop0 = 7u << 20, loop1 = (7u << 20) | 1;
	struct io_phase *p = io_phase_new();
	struct io_stat st = { .requests = 4, .bytes = 1 << 20, .queue_ns = 100000000,
			      .dev_ns = 500000000 };

	(void)state;
	io_phase_dev(p, loop0)->busy_ns = 800000000;   /* loop0 busy 0.8 s */
	io_phase_dev(p, loop1)->busy_ns = 100000000;   /* loop1 busy 0.1 s */
	io_phase_add_upper(p, vda, loop0, IO_OP_WRITE, IO_CL_STACK, &st);   /* 0.6 s below loop0 */
	io_phase_add_upper(p, vda, loop1, IO_OP_FLUSH, IO_CL_STACK, &st);   /* 0.6 s below loop1 */
	io_phase_add_upper(p, vda, 0, IO_OP_WRITE, IO_CL_OTHER, &st);      /* not below anything */
	assert_int_equal(io_below_request_ns(p, loop0), 600000000);
	assert_int_equal(io_below_request_ns(p, vda), 0);
	/* 0.6 of 0.8 s: three quarters of the wait */
	assert_int_equal(io_wait_below(p, loop0, 400000000), 300000000);
	/* a wait longer than the request time below: at most that time */
	assert_int_equal(io_wait_below(p, loop0, 1000000000), 600000000);
	/* below longer than busy (requests in parallel, or written back later): all of the wait */
	assert_int_equal(io_wait_below(p, loop1, 50000000), 50000000);
	assert_int_equal(io_wait_below(p, vda, 50000000), 0);
	assert_int_equal(io_wait_below(p, loop0, 0), 0);
	/* the requests below were in flight together: vda busy 0.25 s although they summed 0.6 s */
	io_phase_dev(p, vda)->busy_ns = 250000000;
	assert_int_equal(io_wait_below(p, loop0, 1000000000), 250000000);
	assert_int_equal(io_wait_below(p, loop0, 400000000), 125000000);
	io_phase_dev(p, loop0)->busy_ns = 0;
	assert_int_equal(io_wait_below(p, loop0, 400000000), 0);
	io_result_free(p);
}

static void test_layers_buffered(void **state)
{
	struct io_phase *p = io_phase_new();
	struct io_devinfo *d;
	struct io_layers l;
	struct io_stat sum;

	(void)state;
	p->sys_write_bytes = 64 << 20;
	p->sys_read_bytes = 1 << 20;
	p->ctr.dirtied_bytes = 64 << 20;
	p->ctr.wb_tree_bytes = 48 << 20;
	p->tree_dirtied_total = 64 << 20;
	p->tree_wb_total = 48 << 20;
	add_bytes(p, DEV, IO_OP_WRITE, IO_CL_WB_TREE, 48 << 20);
	add_bytes(p, DEV, IO_OP_WRITE, IO_CL_JOURNAL, 100 << 10);
	add_bytes(p, DEV, IO_OP_WRITE, IO_CL_OTHER, 1 << 20);
	add_bytes(p, DEV + 1, IO_OP_READ, IO_CL_TREE, 256 << 10);   /* a partition of DEV */
	add_bytes(p, 0xfe00000, IO_OP_WRITE, IO_CL_OTHER, 5 << 20); /* another disk: not ours */
	d = io_phase_dev(p, DEV + 1);
	d->disk = DEV;
	d->is_partition = 1;
	d = io_phase_dev(p, DEV);
	d->has_stat = 1;
	d->stat.wr_sectors = ((48 << 20) + (100 << 10) + (1 << 20)) / 512;
	d->stat.rd_sectors = (256 << 10) / 512;
	io_layers_compute(p, NULL, &l);
	assert_int_equal(l.ndisks, 1);
	assert_int_equal(l.blk_write_wb_tree, 48 << 20);
	assert_int_equal(l.blk_write_journal, 100 << 10);
	assert_int_equal(l.blk_write_other, 1 << 20);           /* the other disk is left out */
	assert_int_equal(l.blk_read_tree, 256 << 10);           /* partition counted under its disk */
	assert_int_equal(l.still_dirty, 16 << 20);
	assert_int_equal(l.write_not_dirtied, 0);
	assert_int_equal(l.read_from_cache, (1 << 20) - (256 << 10));
	assert_int_equal(l.read_ahead_extra, 0);
	assert_int_equal(l.write_overhead, 100 << 10);
	assert_int_equal(l.dev_minus_block, 0);
	assert_int_equal(io_phase_sum(p, DEV, -1, -1, &sum), 4);
	assert_int_equal(sum.bytes, (48 << 20) + (100 << 10) + (1 << 20) + (256 << 10));
	io_result_free(p);
}

static void test_layers_direct_and_readahead(void **state)
{
	struct io_phase *p = io_phase_new();
	struct io_layers l;

	(void)state;
	p->sys_write_bytes = 16 << 20;                 /* O_DIRECT: nothing dirtied */
	p->sys_read_bytes = 1 << 20;
	add_bytes(p, DEV, IO_OP_WRITE, IO_CL_TREE, 16 << 20);
	add_bytes(p, DEV, IO_OP_READ, IO_CL_TREE, 2 << 20);   /* readahead read twice as much */
	io_layers_compute(p, NULL, &l);
	assert_int_equal(l.write_not_dirtied, 16 << 20);
	assert_int_equal(l.blk_write_tree, 16 << 20);
	assert_int_equal(l.read_ahead_extra, 1 << 20);
	assert_int_equal(l.read_from_cache, 0);
	io_result_free(p);
}

/*
 * Still dirty is of this phase's writes: the running totals are per session, so after a flush
 * phase that dirtied nothing it is 0, and a later phase counts only its own growth (it once showed
 * 5.12 MiB after syncfs, growing from phase to phase).
 */
static void test_still_dirty_per_phase(void **state)
{
	struct io_phase *work = io_phase_new(), *flush = io_phase_new(), *again = io_phase_new();
	struct io_layers l;

	(void)state;
	/* work: dirtied 10 MiB, 2 MiB written back during it, 1 MiB of it removed (drift) */
	work->ctr.dirtied_bytes = 10 << 20;
	work->tree_dirtied_total = 10 << 20;
	work->tree_wb_total = 2 << 20;
	io_layers_compute(work, NULL, &l);
	assert_int_equal(l.still_dirty, 8 << 20);
	/* flush: nothing dirtied, 3 MiB written back; the session totals disagree by 5 MiB */
	flush->tree_dirtied_total = 10 << 20;
	flush->tree_wb_total = 5 << 20;
	io_layers_compute(flush, work, &l);
	assert_int_equal(l.still_dirty, 0);
	io_layers_compute(flush, NULL, &l); /* the old session-wide view said 5 MiB */
	assert_int_equal(l.still_dirty, 0);  /* never more than dirtied in the phase (0) */
	/* a second work phase: dirtied 4 MiB more, none written back */
	again->ctr.dirtied_bytes = 4 << 20;
	again->tree_dirtied_total = 14 << 20;
	again->tree_wb_total = 5 << 20;
	io_layers_compute(again, flush, &l);
	assert_int_equal(l.still_dirty, 4 << 20);
	assert_true(l.still_dirty <= l.dirtied);
	io_result_free(work);
	io_result_free(flush);
	io_result_free(again);
}

static void test_sysstat(void **state)
{
	struct io_sysstat a, b, d;

	(void)state;
	assert_int_equal(io_sysstat_parse("1 2 3 4 5 6 7 8 9 10 11", &a), 11);
	assert_int_equal(io_sysstat_parse("  11 2 13 4 25 6 1031 8 0 20 21 0 0 0 0 3 4\n", &b), 17);
	assert_int_equal(io_sysstat_parse("1 2 3", &d), -1);
	io_sysstat_delta(&a, &b, &d);
	assert_int_equal(d.rd_ios, 10);
	assert_int_equal(d.wr_ios, 20);
	assert_int_equal(d.wr_sectors, 1024);
	assert_int_equal(d.fl_ios, 3);
}

static void test_log2_slots(void **state)
{
	(void)state;
	assert_int_equal(io_log2(0, IO_LAT_SLOTS), 0);
	assert_int_equal(io_log2(1, IO_LAT_SLOTS), 0);
	assert_int_equal(io_log2(4096, IO_SIZE_SLOTS), 12);
	assert_int_equal(io_log2(~0ull, IO_DEPTH_SLOTS), IO_DEPTH_SLOTS - 1);
	assert_int_equal(io_op_of(1 | (1u << 11)), IO_OP_WRITE);
	assert_int_equal(io_op_of(35), IO_OP_OTHER);
	assert_int_equal(io_classify(1, 1, 1, 1, 1), IO_CL_TREE);
	assert_int_equal(io_classify(0, 0, 0, 1, 1), IO_CL_WB_TREE);
	assert_int_equal(io_classify(0, 0, 0, 1, 0), IO_CL_WB);
	assert_int_equal(io_classify(0, 0, 1, 0, 0), IO_CL_JOURNAL);
	assert_int_equal(io_classify(0, 0, 0, 0, 0), IO_CL_OTHER);
	/* a loop worker, or writeback of a backing file: below an upper device */
	assert_int_equal(io_classify(0, 1, 0, 1, 0), IO_CL_STACK);
	assert_int_equal(io_classify(0, 1, 1, 0, 0), IO_CL_STACK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_union_overlaps_nesting_touching),
		cmocka_unit_test(test_inflight_counter_matches_union),
		cmocka_unit_test(test_busy_split_by_window),
		cmocka_unit_test(test_busy_from_window_start),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_lifecycle_merges),
		cmocka_unit_test(test_lifecycle_requeue),
		cmocka_unit_test(test_lifecycle_untracked),
		cmocka_unit_test(test_clock_reversed),
		cmocka_unit_test(test_lost_total),
		cmocka_unit_test(test_layers_buffered),
		cmocka_unit_test(test_stack_charge),
		cmocka_unit_test(test_wait_below),
		cmocka_unit_test(test_layers_direct_and_readahead),
		cmocka_unit_test(test_still_dirty_per_phase),
		cmocka_unit_test(test_sysstat),
		cmocka_unit_test(test_log2_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
