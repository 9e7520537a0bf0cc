// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the reorder buffer between the ring buffer and the model (user/reorder.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "reorder.h"

struct sink {
	struct iowhy_event ev[4096];
	char comm[4096][IOWHY_COMM_LEN];
	int has_comm[4096];
	size_t n;
};

static void collect(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct sink *s = ctx;

	assert_true(s->n < 4096);
	s->ev[s->n] = *e;
	s->has_comm[s->n] = comm != NULL;
	if (comm)
		memcpy(s->comm[s->n], comm, IOWHY_COMM_LEN);
	s->n++;
}

static struct iowhy_event ev(uint64_t ts, uint32_t tid, uint8_t state)
{
	struct iowhy_event e = { .ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_STATE, .state = state };

	return e;
}

/* Released in timestamp order; equal timestamps keep their arrival order; comm travels along. */
static void test_order(void **state)
{
	static struct sink s;
	struct reorder r;
	struct iowhy_event e;
	char comm[IOWHY_COMM_LEN] = "dd";

	(void)state;
	memset(&s, 0, sizeof(s));
	reorder_init(&r);
	uint64_t ts[] = { 50, 10, 40, 10, 30, 20, 10 };
	for (uint32_t i = 0; i < 7; i++)
		assert_int_equal(reorder_push(&r, &(struct iowhy_event){ .ts = ts[i], .tid = i }, NULL), 0);
	e = ev(35, 99, 0);
	e.type = IOWHY_EV_EXEC;
	reorder_push(&r, &e, comm); /* a whole IOWHY_COMM_LEN buffer, as the ring buffer gives */
	assert_int_equal(reorder_release(&r, UINT64_MAX, collect, &s), 8);
	uint64_t want_ts[] = { 10, 10, 10, 20, 30, 35, 40, 50 };
	uint32_t want_tid[] = { 1, 3, 6, 5, 4, 99, 2, 0 };
	for (int i = 0; i < 8; i++) {
		assert_int_equal(s.ev[i].ts, want_ts[i]);
		assert_int_equal(s.ev[i].tid, want_tid[i]);
		assert_int_equal(s.has_comm[i], want_tid[i] == 99);
	}
	assert_string_equal(s.comm[5], "dd");
	assert_int_equal(r.n, 0);
	reorder_free(&r);
}

/* Only what is older than the cut is released; the rest waits for a later release. */
static void test_window(void **state)
{
	static struct sink s;
	struct reorder r;

	(void)state;
	memset(&s, 0, sizeof(s));
	reorder_init(&r);
	for (uint64_t t = 100; t >= 10; t -= 10)
		reorder_push(&r, &(struct iowhy_event){ .ts = t }, NULL);
	assert_int_equal(reorder_release(&r, 45, collect, &s), 4);
	assert_int_equal(s.ev[3].ts, 40);
	/* an event older than what went out: still released (first), and counted late */
	reorder_push(&r, &(struct iowhy_event){ .ts = 15 }, NULL);
	assert_int_equal(r.late, 1);
	reorder_push(&r, &(struct iowhy_event){ .ts = 55 }, NULL);
	assert_int_equal(r.late, 1);
	assert_int_equal(reorder_release(&r, 60, collect, &s), 4);
	assert_int_equal(s.ev[4].ts, 15);
	assert_int_equal(s.ev[5].ts, 50);
	assert_int_equal(s.ev[6].ts, 55);
	assert_int_equal(s.ev[7].ts, 60);
	assert_int_equal(reorder_release(&r, 60, collect, &s), 0);
	assert_int_equal(r.n, 4);
	reorder_free(&r);
}

/* A batch record becomes STATE events with its header's task and phase, entry by entry. */
static void test_batch(void **state)
{
	static struct sink s;
	struct iowhy_event_batch b;
	struct reorder r;

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(&b, 0, sizeof(b));
	reorder_init(&r);
	b.h.type = IOWHY_EV_BATCH;
	b.h.tid = 7;
	b.h.tgid = 5;
	b.h.phase = 2;
	b.h.arg = 3;
	b.h.flags = 0xff; /* not copied into the transitions */
	for (int i = 0; i < IOWHY_LOG_LEN; i++) {
		b.e[i].ts = 1000 + i;
		b.e[i].state = i % 2 ? IOWHY_TS_USER : IOWHY_TS_KERNEL;
		b.e[i].nr = i % 2 ? IOWHY_NR_NONE : 39;
	}
	reorder_push(&r, &(struct iowhy_event){ .ts = 1001, .tid = 8 }, NULL);
	assert_int_equal(reorder_push_batch(&r, &b, sizeof(b)), 0);
	assert_int_equal(r.n, 4); /* arg = 3 entries, not IOWHY_LOG_LEN */
	assert_int_equal(reorder_release(&r, UINT64_MAX, collect, &s), 4);
	assert_int_equal(s.ev[0].ts, 1000);
	assert_int_equal(s.ev[0].tid, 7);
	assert_int_equal(s.ev[0].tgid, 5);
	assert_int_equal(s.ev[0].phase, 2);
	assert_int_equal(s.ev[0].type, IOWHY_EV_STATE);
	assert_int_equal(s.ev[0].state, IOWHY_TS_KERNEL);
	assert_int_equal(s.ev[0].nr, 39);
	assert_int_equal(s.ev[0].flags, 0);
	assert_int_equal(s.ev[1].tid, 8); /* pushed first, same ts: before the batch's entry */
	assert_int_equal(s.ev[2].ts, 1001);
	assert_int_equal(s.ev[2].state, IOWHY_TS_USER);
	assert_int_equal(s.ev[2].nr, IOWHY_NR_NONE);
	assert_int_equal(s.ev[3].ts, 1002);
	/* a short record never reads past its end; a count over IOWHY_LOG_LEN is capped */
	b.h.arg = 200;
	assert_int_equal(reorder_push_batch(&r, &b, sizeof(b.h) + 2 * sizeof(b.e[0])), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(reorder_push_batch(&r, &b, sizeof(b)), 0);
	assert_int_equal(r.n, 2 + IOWHY_LOG_LEN);
	/* shorter than its header: nothing is read (ASan in `make sanitize` sees any byte past it;
	 * found by fuzz/fuzz_reorder.c) */
	{
		struct iowhy_event_batch *tiny = malloc(8);

		assert_non_null(tiny);
		memset(tiny, 0xff, 8);
		assert_int_equal(reorder_push_batch(&r, tiny, 8), 0);
		assert_int_equal(r.n, 2 + IOWHY_LOG_LEN);
		free(tiny);
	}
	reorder_free(&r);
}

/* A switch record: prev's switch-out becomes a STATE event, next's switch-in follows it (same
 * time, in that order); a record cut after its first event gives that one only; a variable-size
 * batch record of 2 entries gives its 2. */
static void test_switch(void **state)
{
	static struct sink s;
	struct iowhy_event pair[2];
	struct iowhy_event_batch b;
	struct reorder r;

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(pair, 0, sizeof(pair));
	reorder_init(&r);
	pair[0] = (struct iowhy_event){ .ts = 500, .tid = 3, .type = IOWHY_EV_SWITCH,
					.state = IOWHY_TS_DWAIT, .arg = 4 };
	pair[1] = (struct iowhy_event){ .ts = 500, .tid = 9, .type = IOWHY_EV_STATE,
					.state = IOWHY_TS_USER };
	assert_int_equal(reorder_push_switch(&r, pair, sizeof(pair)), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(reorder_push_switch(&r, pair, sizeof(pair[0])), 0);
	assert_int_equal(r.n, 3);
	assert_int_equal(reorder_push_switch(&r, pair, sizeof(pair[0]) - 1), 0); /* nothing read */
	assert_int_equal(r.n, 3);
	memset(&b, 0, sizeof(b));
	b.h = (struct iowhy_event){ .ts = 600, .tid = 9, .type = IOWHY_EV_BATCH, .arg = 2 };
	b.e[0] = (struct iowhy_logent){ .ts = 600, .nr = 17, .state = IOWHY_TS_KERNEL };
	b.e[1] = (struct iowhy_logent){ .ts = 601, .nr = IOWHY_NR_NONE, .state = IOWHY_TS_USER };
	assert_int_equal(reorder_push_batch(&r, &b, sizeof(b.h) + 2 * sizeof(b.e[0])), 0);
	assert_int_equal(r.n, 5);
	assert_int_equal(reorder_release(&r, UINT64_MAX, collect, &s), 5);
	assert_int_equal(s.ev[0].tid, 3);
	assert_int_equal(s.ev[0].type, IOWHY_EV_STATE);
	assert_int_equal(s.ev[0].state, IOWHY_TS_DWAIT);
	assert_int_equal(s.ev[0].arg, 4);
	assert_int_equal(s.ev[1].tid, 9);
	assert_int_equal(s.ev[1].state, IOWHY_TS_USER);
	assert_int_equal(s.ev[2].tid, 3);
	assert_int_equal(s.ev[3].ts, 600);
	assert_int_equal(s.ev[3].nr, 17);
	assert_int_equal(s.ev[4].ts, 601);
	assert_int_equal(s.ev[4].state, IOWHY_TS_USER);
	reorder_free(&r);
}

/* Many events in random order come out sorted (the heap grows past its first allocation). */
static void test_many(void **state)
{
	struct reorder r;
	uint64_t last = 0;
	size_t n = 0;

	(void)state;
	reorder_init(&r);
	srand(7);
	for (int i = 0; i < 20000; i++)
		reorder_push(&r, &(struct iowhy_event){ .ts = (uint64_t)rand() % 5000 }, NULL);
	while (r.n) {
		uint64_t t = reorder_peek_ts(&r);

		assert_true(t >= last);
		last = t;
		static struct sink s;
		s.n = 0;
		n += reorder_release(&r, t, collect, &s);
	}
	assert_int_equal(n, 20000);
	reorder_free(&r);
}

/* In order, checked as it comes out: (ts, then arrival = tid) never goes back. */
struct order_check {
	uint64_t ts;
	uint32_t tid;
	size_t n;
};

static void check_order(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct order_check *c = ctx;

	(void)comm;
	assert_true(e->ts > c->ts || (e->ts == c->ts && e->tid > c->tid) || !c->n);
	c->ts = e->ts;
	c->tid = e->tid;
	c->n++;
}

/* A mostly ordered stream (the usual case: the in-order FIFO) with stragglers a little late (moved
 * into place in the FIFO) and far behind (the heap), released part way so the FIFO wraps, then
 * grows while wrapped: all out in (ts, arrival) order. */
static void test_fifo_wrap(void **state)
{
	struct order_check c = { 0 };
	struct reorder r;
	uint32_t id = 0;
	uint64_t t = 1000;

	(void)state;
	reorder_init(&r);
	for (int i = 0; i < 3000; i++, t += 10)
		assert_int_equal(reorder_push(&r, &(struct iowhy_event){ .ts = t, .tid = id++ }, NULL), 0);
	assert_int_equal(reorder_release(&r, 1000 + 2000 * 10, check_order, &c), 2001);
	for (int i = 0; i < 9000; i++, t += 10) {
		/* every 7th arrives 25 ns late, every 11th ties with the one before, every 97th is
		 * 100 events behind (past REORDER_SHIFT_MAX: the heap) */
		uint64_t ts = i % 97 == 50 ? t - 1000 : i % 7 == 3 ? t - 25 : i % 11 == 5 ? t - 10 : t;

		assert_int_equal(reorder_push(&r, &(struct iowhy_event){ .ts = ts, .tid = id++ }, NULL), 0);
	}
	assert_int_equal(r.n, 3000 - 2001 + 9000);
	assert_true(r.hn > 0 && r.lanes[0].len > 4096); /* both used; the FIFO grew while wrapped */
	assert_int_equal(reorder_peek_ts(&r), 1000 + 2001 * 10);
	assert_int_equal(reorder_release(&r, UINT64_MAX, check_order, &c), 3000 - 2001 + 9000);
	assert_int_equal(c.n, 12000);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.late, 0);
	reorder_free(&r);
}

/*
 * Per-CPU rings read in turns: each source's events in order, the sources interleaved a chunk at a
 * time, so most events are older than the last one pushed. Each source's lane takes them in order
 * (the heap stays empty) and a release merges the lanes in (ts, arrival) order. With more sources
 * than lanes (two sources a lane) the order holds too, the heap taking what a lane cannot.
 */
static void test_lanes(void **state)
{
	(void)state;
	for (int nsrc = 2; nsrc <= 2 * REORDER_LANES; nsrc += 2 * REORDER_LANES - 2) {
		struct order_check c = { 0 };
		struct reorder r;
		uint64_t next[2 * REORDER_LANES];
		uint32_t id = 0;
		size_t pushed = 0;

		reorder_init(&r);
		for (int s = 0; s < nsrc; s++)
			next[s] = 1000 + (uint64_t)s; /* sources interleave in time; ties below */
		for (int turn = 0; turn < 40; turn++) {
			for (int s = 0; s < nsrc; s++) {
				reorder_use_lane(&r, (unsigned)s);
				for (int i = 0; i < 50; i++, pushed++) {
					assert_int_equal(reorder_push(&r, &(struct iowhy_event){
						.ts = next[s], .tid = id++ }, NULL), 0);
					next[s] += 10 * (uint64_t)(i % 3 == 0 ? 0 : 1) + 1;
				}
			}
			if (turn == 20) /* release part way, as a drain does */
				reorder_release(&r, 1000 + 20 * 50 * 7, check_order, &c);
		}
		/* two sources a lane: a turn's 50 events are behind the lane's newest by at most
		 * 50, moved into place in the lane */
		assert_int_equal(r.hn, 0);
		reorder_release(&r, UINT64_MAX, check_order, &c);
		assert_int_equal(c.n, pushed);
		assert_int_equal(r.n, 0);
		assert_int_equal(r.late, 0);
		reorder_free(&r);
	}
}

/*
 * In-lane placement: an event a few behind its lane's newest goes into its place in the lane (the
 * heap stays empty), also across the lane's wrap and among equal timestamps (after them: arrival
 * order); one more than REORDER_SHIFT_MAX behind goes to the heap. The order out is exact either
 * way.
 */
static void test_lane_insert(void **state)
{
	struct order_check c = { 0 };
	struct reorder r;
	uint32_t id = 0;
	uint64_t t = 1000;
	size_t pushed = 0;

	(void)state;
	reorder_init(&r);
	/* fill the lane, then release most of it so that the next events wrap the ring */
	for (int i = 0; i < 4000; i++, t += 10, pushed++)
		assert_int_equal(reorder_push(&r, &(struct iowhy_event){ .ts = t, .tid = id++ }, NULL), 0);
	assert_int_equal(reorder_release(&r, t - 200, check_order, &c), 4000 - 19);
	for (int i = 0; i < 600; i++, t += 10, pushed += 2) {
		assert_int_equal(reorder_push(&r, &(struct iowhy_event){ .ts = t, .tid = id++ }, NULL), 0);
		/* 3 events behind, and sometimes tied with one of them (it then comes after it) */
		assert_int_equal(reorder_push(&r, &(struct iowhy_event){
			.ts = i % 5 ? t - 25 : t - 20, .tid = id++ }, NULL), 0);
	}
	assert_int_equal(r.hn, 0);
	/* far behind: the heap */
	assert_int_equal(reorder_push(&r, &(struct iowhy_event){ .ts = t - 10 * (REORDER_SHIFT_MAX + 5),
					  .tid = id++ }, NULL), 0);
	pushed++;
	assert_int_equal(r.hn, 1);
	assert_int_equal(reorder_release(&r, UINT64_MAX, check_order, &c), pushed - (4000 - 19));
	assert_int_equal(c.n, pushed);
	assert_int_equal(r.late, 0);
	reorder_free(&r);
}

/* Whole ring records (reorder_push_record): a batch, a two-event switch record, one cut short
 * after its switch-out, one too short for any event, a FORK with its comm; the newest timestamp
 * of each. */
static void test_records(void **state)
{
	static struct sink s;
	struct iowhy_event_batch b;
	struct iowhy_event pair[2];
	struct iowhy_event_comm fork;
	struct reorder r;
	uint64_t newest;

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(&b, 0, sizeof(b));
	memset(pair, 0, sizeof(pair));
	reorder_init(&r);
	b.h = (struct iowhy_event){ .ts = 100, .tid = 5, .tgid = 5, .type = IOWHY_EV_BATCH,
				    .phase = 2, .arg = 2 };
	b.e[0] = (struct iowhy_logent){ .ts = 100, .nr = IOWHY_NR_NONE, .state = IOWHY_TS_USER };
	b.e[1] = (struct iowhy_logent){ .ts = 200, .nr = 17, .state = IOWHY_TS_KERNEL };
	assert_int_equal(reorder_push_record(&r, &b, sizeof(b.h) + 2 * sizeof(b.e[0]), &newest), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(newest, 200);
	pair[0] = (struct iowhy_event){ .ts = 300, .tid = 5, .tgid = 5, .type = IOWHY_EV_SWITCH,
					.state = IOWHY_TS_DWAIT, .phase = 2, .nr = 17, .arg = 1 };
	pair[1] = (struct iowhy_event){ .ts = 301, .tid = 6, .tgid = 6, .type = IOWHY_EV_STATE,
					.state = IOWHY_TS_USER };
	assert_int_equal(reorder_push_record(&r, pair, sizeof(pair), &newest), 0);
	assert_int_equal(r.n, 4);
	assert_int_equal(newest, 301);
	pair[0].ts = 400;
	assert_int_equal(reorder_push_record(&r, pair, sizeof(pair) - 1, &newest), 0);
	assert_int_equal(r.n, 5); /* the switch-in cut short: the switch-out alone */
	assert_int_equal(newest, 400);
	assert_int_equal(reorder_push_record(&r, pair, sizeof(pair[0]) - 1, &newest), 0);
	assert_int_equal(r.n, 5);
	assert_int_equal(newest, 0);
	memset(&fork, 0, sizeof(fork));
	fork.h = (struct iowhy_event){ .ts = 700, .tid = 5, .type = IOWHY_EV_FORK, .arg = 8 };
	strcpy(fork.comm, "fio");
	assert_int_equal(reorder_push_record(&r, &fork, sizeof(fork), &newest), 0);
	assert_int_equal(r.n, 6);
	assert_int_equal(newest, 700);
	assert_int_equal(reorder_release(&r, UINT64_MAX, collect, &s), 6);
	uint64_t want_ts[] = { 100, 200, 300, 301, 400, 700 };
	uint32_t want_tid[] = { 5, 5, 5, 6, 5, 5 };
	uint8_t want_state[] = { IOWHY_TS_USER, IOWHY_TS_KERNEL, IOWHY_TS_DWAIT, IOWHY_TS_USER,
				 IOWHY_TS_DWAIT };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(s.ev[i].ts, want_ts[i]);
		assert_int_equal(s.ev[i].tid, want_tid[i]);
		if (i < 5) {
			assert_int_equal(s.ev[i].type, IOWHY_EV_STATE);
			assert_int_equal(s.ev[i].state, want_state[i]);
			assert_false(s.has_comm[i]);
		}
	}
	assert_int_equal(s.ev[1].nr, 17);
	assert_int_equal(s.ev[1].phase, 2);
	assert_int_equal(s.ev[2].arg, 1);
	assert_int_equal(s.ev[5].type, IOWHY_EV_FORK);
	assert_true(s.has_comm[5]);
	assert_string_equal(s.comm[5], "fio");
	reorder_free(&r);
}

/* A switch record with a tail (IOWHY_EVF_TAIL): the switching task's last one or two
 * transitions, then the switch-out alone or the pair; each becomes its events in order, none read
 * of a record cut inside its head. */
static void test_tail_records(void **state)
{
	static struct sink s;
	struct {
		struct iowhy_batch_head b;
		struct iowhy_event e[2];
	} rec;
	struct reorder r;
	uint64_t newest;

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(&rec, 0, sizeof(rec));
	reorder_init(&r);
	rec.b.h = (struct iowhy_event){ .ts = 100, .tid = 5, .tgid = 5, .type = IOWHY_EV_BATCH,
					.phase = 2, .flags = IOWHY_EVF_TAIL, .arg = 2 };
	rec.b.e[0] = (struct iowhy_logent){ .ts = 100, .nr = IOWHY_NR_NONE, .state = IOWHY_TS_USER };
	rec.b.e[1] = (struct iowhy_logent){ .ts = 200, .nr = 17, .state = IOWHY_TS_KERNEL };
	rec.e[0] = (struct iowhy_event){ .ts = 300, .tid = 5, .tgid = 5, .type = IOWHY_EV_SWITCH,
					 .state = IOWHY_TS_DWAIT, .phase = 2, .nr = 17, .arg = 1 };
	rec.e[1] = (struct iowhy_event){ .ts = 301, .tid = 6, .tgid = 6, .type = IOWHY_EV_STATE,
					 .state = IOWHY_TS_USER };
	assert_int_equal(reorder_push_record(&r, &rec, sizeof(rec), &newest), 0);
	assert_int_equal(r.n, 4);
	assert_int_equal(newest, 301);
	/* one transition, then the switch-out alone (next is not a tree task) */
	rec.b.h.ts = rec.b.e[0].ts = 400;
	rec.b.h.arg = 1;
	rec.b.e[0].nr = 18;
	rec.b.e[0].state = IOWHY_TS_KERNEL;
	rec.e[0].ts = 500;
	rec.e[0].type = IOWHY_EV_STATE;
	assert_int_equal(reorder_push_record(&r, &rec, sizeof(rec.b) + sizeof(rec.e[0]), &newest), 0);
	assert_int_equal(r.n, 6);
	assert_int_equal(newest, 500);
	/* cut inside the head: nothing */
	assert_int_equal(reorder_push_record(&r, &rec, sizeof(rec.b) - 1, &newest), 0);
	assert_int_equal(r.n, 6);
	assert_int_equal(reorder_release(&r, UINT64_MAX, collect, &s), 6);
	uint64_t want_ts[] = { 100, 200, 300, 301, 400, 500 };
	uint32_t want_tid[] = { 5, 5, 5, 6, 5, 5 };
	uint8_t want_state[] = { IOWHY_TS_USER, IOWHY_TS_KERNEL, IOWHY_TS_DWAIT, IOWHY_TS_USER,
				 IOWHY_TS_KERNEL, IOWHY_TS_DWAIT };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(s.ev[i].ts, want_ts[i]);
		assert_int_equal(s.ev[i].tid, want_tid[i]);
		assert_int_equal(s.ev[i].type, IOWHY_EV_STATE);
		assert_int_equal(s.ev[i].state, want_state[i]);
	}
	assert_int_equal(s.ev[1].nr, 17);
	assert_int_equal(s.ev[1].phase, 2);
	assert_int_equal(s.ev[4].nr, 18);
	assert_int_equal(s.ev[2].arg, 1);
	reorder_free(&r);
}

/* Comms wait in a side table: each comes out with its own event, slots are reused. */
static void test_comm_slots(void **state)
{
	static struct sink s;
	struct reorder r;
	char comm[IOWHY_COMM_LEN];

	(void)state;
	reorder_init(&r);
	for (int round = 0; round < 2; round++) {
		memset(&s, 0, sizeof(s));
		for (uint32_t i = 0; i < 100; i++) {
			struct iowhy_event e = ev(1000 - i, i, 0);

			e.type = IOWHY_EV_EXEC;
			memset(comm, 0, sizeof(comm));
			snprintf(comm, sizeof(comm), "c%u", i);
			assert_int_equal(reorder_push(&r, &e, i % 3 ? comm : NULL), 0);
		}
		assert_int_equal(reorder_release(&r, UINT64_MAX, collect, &s), 100);
		for (size_t k = 0; k < 100; k++) {
			uint32_t tid = s.ev[k].tid;

			assert_int_equal(s.ev[k].pad, 0);
			assert_int_equal(s.has_comm[k], tid % 3 != 0);
			snprintf(comm, sizeof(comm), "c%u", tid);
			if (tid % 3)
				assert_string_equal(s.comm[k], comm);
		}
	}
	assert_true(r.ncomms <= 67); /* the second round reused the first round's slots */
	reorder_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_batch),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_fifo_wrap),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_lane_insert),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_tail_records),
		cmocka_unit_test(test_comm_slots),
	};

	return cmocka_run_group_tests_name("reorder", tests, NULL, NULL);
}
