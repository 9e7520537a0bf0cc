// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the model's slice sink and the timeline (src/report/timeline.c, timeline_io.c) on a
 * small synthetic session, checked exactly: every slice, its begin <= end, per task the slices tile
 * its life; the devices' requests on lanes that never overlap, with their queue and device parts,
 * flows from the submitting syscall that pair up, counters of queue depth and dirty bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "timeline.h"
#include "syscalls.h"

static void ev_state(struct model *m, uint64_t ts, uint32_t tid, int st, uint16_t nr)
{
	struct iowhy_event e = { .ts = ts, .tid = tid, .tgid = 10, .type = IOWHY_EV_STATE,
				 .state = (uint8_t)st, .nr = nr };

	model_event(m, &e, NULL);
}

static void ev_fork(struct model *m, uint64_t ts, uint32_t parent, uint32_t child, uint16_t nr,
		    const char *comm)
{
	struct iowhy_event e = { .ts = ts, .tid = parent, .tgid = 10, .type = IOWHY_EV_FORK,
				 .nr = nr, .arg = child, .arg2 = 10 };

	model_event(m, &e, comm);
}

/*
 * Phase [1000, 5000) ns. Task 10 ("ro\"ot", gated in a read): other wait to 1500, run queue to
 * 2000, user to 2500, kernel in write to 3000 (forks 11 at 2600), I/O wait in fsync to 4000, run
 * queue to 4200, user to the end. Task 11 ("child"): run queue (in clone) 2600 to 3200, user to
 * its death at 3500.
 */
static struct timeline *session(uint64_t max)
{
	struct timeline *tl = timeline_new(max);
	uint16_t rd = (uint16_t)syscall_nr("read"), wr = (uint16_t)syscall_nr("write");
	uint16_t fs = (uint16_t)syscall_nr("fsync"), cl = (uint16_t)syscall_nr("clone");
	struct model m;

	assert_non_null(tl);
	model_init(&m, 1000);
	assert_int_equal(timeline_phase_begin(tl, "work", 1000), 0);
	model_set_slice_sink(&m, timeline_slice, tl);
	model_add_task(&m, 10, 10, "ro\"ot", IOWHY_TS_SWAIT, rd);
	ev_state(&m, 1500, 10, IOWHY_TS_RUNQ, rd);
	ev_state(&m, 2000, 10, IOWHY_TS_USER, IOWHY_NR_NONE);
	ev_state(&m, 2500, 10, IOWHY_TS_KERNEL, wr);
	ev_fork(&m, 2600, 10, 11, cl, "child");
	ev_state(&m, 3000, 10, IOWHY_TS_DWAIT, fs);
	ev_state(&m, 3200, 11, IOWHY_TS_USER, IOWHY_NR_NONE);
	ev_state(&m, 3500, 11, IOWHY_TS_DEAD, IOWHY_NR_NONE);
	ev_state(&m, 4000, 10, IOWHY_TS_RUNQ, fs);
	ev_state(&m, 4200, 10, IOWHY_TS_USER, IOWHY_NR_NONE);
	model_finish(&m, 5000);
	timeline_phase_end(tl, m.wall.end_ns);
	model_free(&m);
	return tl;
}

/* A command longer than any fixed buffer, with a quote, a backslash and a control character. */
static const char *long_cmd(void)
{
	static char cmd[600];

	if (!cmd[0]) {
		memset(cmd, 'a', sizeof(cmd) - 1);
		memcpy(cmd, "cmd \"x\" \\ \x01", 11);
		memcpy(cmd + sizeof(cmd) - 4, "end", 4);
	}
	return cmd;
}

static struct json_object *write_parse(const struct timeline *tl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *root;

	assert_non_null(f);
	timeline_write(f, tl, long_cmd());
	fclose(f);
	root = json_tokener_parse(buf);
	if (!root)
		fail_msg("the timeline is not JSON: %.200s", buf);
	free(buf);
	return root;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("no member %s", k);
	return v;
}

static const char *str(struct json_object *o, const char *k)
{
	return json_object_get_string(get(o, k));
}

/* µs (to 1/1024 µs) back to ns, relative to the phase start (1000). */
static long ns(struct json_object *o, const char *k)
{
	return lround(json_object_get_double(get(o, k)) * 1000.0);
}

/* Where a slice ends: begin + duration added as a viewer adds them (in doubles), in ns. The times
 * are binary fractions, so the sum is exact: the end as written, within half a ns. */
static long end_ns(struct json_object *o)
{
	return lround((json_object_get_double(get(o, "ts")) +
		       json_object_get_double(get(o, "dur"))) * 1000.0);
}

/* A slice's duration in ns: end - begin, each rounded to the ns (exact for ns inputs). */
static long dur_ns(struct json_object *o)
{
	return end_ns(o) - ns(o, "ts");
}

struct want {
	long begin, end;
	const char *name, *cat;
};

static void check_task(struct json_object *events, int tid, const struct want *w, int n)
{
	int seen = 0;
	long prev_end = -1;
	double prev_sum = -1;

	for (size_t i = 0; i < json_object_array_length(events); i++) {
		struct json_object *e = json_object_array_get_idx(events, i);
		double ts, dur;

		if (strcmp(str(e, "ph"), "X") || json_object_get_int(get(e, "tid")) != tid)
			continue;
		/* a viewer's doubles: begin + duration is the next begin exactly (with 3 decimals,
		 * 2.6 + 0.6 would be 3.2000000000000006 and the next slice would overlap it) */
		ts = json_object_get_double(get(e, "ts"));
		dur = json_object_get_double(get(e, "dur"));
		if (prev_sum >= 0)
			assert_true(ts == prev_sum);
		prev_sum = ts + dur;
		assert_true(seen < n);
		assert_true(dur_ns(e) >= 0);
		assert_int_equal(ns(e, "ts"), w[seen].begin - 1000);
		assert_int_equal(end_ns(e), w[seen].end - 1000);
		assert_string_equal(str(e, "name"), w[seen].name);
		assert_string_equal(str(e, "cat"), w[seen].cat);
		assert_int_equal(json_object_get_int(get(e, "pid")), 10);
		if (prev_end >= 0)
			assert_int_equal(ns(e, "ts"), prev_end); /* tiles: no gap, no overlap */
		prev_end = end_ns(e);
		seen++;
	}
	assert_int_equal(seen, n);
}

static void test_slices_exact(void **state)
{
	static const struct want root[] = {
		{ 1000, 1500, "other wait: read", "other" },
		{ 1500, 2000, "run queue: read", "runq" },
		{ 2000, 2500, "user", "user" },
		{ 2500, 3000, "kernel: write", "kernel" },
		{ 3000, 4000, "I/O wait: fsync", "iowait" },
		{ 4000, 4200, "run queue: fsync", "runq" },
		{ 4200, 5000, "user", "user" },
	};
	static const struct want child[] = {
		{ 2600, 3200, "run queue: clone", "runq" },
		{ 3200, 3500, "user", "user" },
	};
	struct timeline *tl = session(1000);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents"), *od = get(r, "otherData");
	int names = 0, phase = 0, io_and_runq = 0;

	(void)state;
	assert_int_equal(timeline_slices(tl), 9);
	assert_int_equal(timeline_dropped(tl), 0);
	check_task(ev, 10, root, 7);
	check_task(ev, 11, child, 2);
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i), *a;

		if (!strcmp(str(e, "ph"), "M") && !strcmp(str(e, "name"), "thread_name")) {
			a = get(e, "args");
			names++;
			assert_string_equal(str(a, "name"),
					    json_object_get_int(get(e, "tid")) == 11 ? "child" :
					    "ro\"ot");
		}
		if (!strcmp(str(e, "ph"), "X") && !strcmp(str(e, "cat"), "phase")) {
			phase++;
			assert_int_equal(ns(e, "ts"), 0);
			assert_int_equal(dur_ns(e), 4000);
		}
		/* at 3000 ns task 10 sleeps on I/O while 11 waits for a CPU */
		if (!strcmp(str(e, "ph"), "C") && ns(e, "ts") == 2000) {
			a = get(e, "args");
			assert_int_equal(json_object_get_int(get(a, "I/O wait")), 1);
			assert_int_equal(json_object_get_int(get(a, "run queue")), 1);
			assert_int_equal(json_object_get_int(get(a, "on CPU")), 0);
			io_and_runq++;
		}
	}
	assert_int_equal(names, 2);
	assert_int_equal(phase, 1);
	assert_int_equal(io_and_runq, 1);
	assert_false(json_object_get_boolean(get(od, "cut")));
	assert_int_equal(strlen(str(od, "command")), 599);   /* whole, control byte as '?' */
	assert_true(!strncmp(str(od, "command"), "cmd \"x\" \\ ?aaa", 14));
	assert_string_equal(str(od, "command") + 596, "end");
	json_object_put(r);
	timeline_free(tl);
}

/* Bounded: three slices kept, the rest counted, the cut stated in the file. */
static void test_cut(void **state)
{
	struct timeline *tl = session(3);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents"), *od = get(r, "otherData");
	int slices = 0, instants = 0, counters = 0;

	(void)state;
	assert_int_equal(timeline_slices(tl), 3);
	assert_int_equal(timeline_dropped(tl), 6);
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);
		const char *ph = str(e, "ph");

		slices += !strcmp(ph, "X") && strcmp(str(e, "cat"), "phase");
		instants += !strcmp(ph, "i");
		counters += !strcmp(ph, "C");
	}
	assert_int_equal(slices, 3);
	assert_int_equal(instants, 1);
	assert_int_equal(counters, 0); /* the budget went to the slices */
	assert_true(json_object_get_boolean(get(od, "cut")));
	assert_int_equal(json_object_get_int(get(od, "slices_left_out")), 6);
	assert_true(json_object_get_boolean(get(od, "counters_cut")));
	json_object_put(r);
	timeline_free(tl);
}

#define SDA ((8u << 20) | 0)
#define SDB ((8u << 20) | 16)

static void req(struct timeline *tl, uint32_t dev, uint32_t tid, uint8_t op, uint64_t bytes,
		uint64_t q, uint64_t ins, uint64_t iss, uint64_t done)
{
	struct io_rq_rec r = { .t_queue = q, .t_insert = ins, .t_issue = iss, .t_done = done,
			       .bytes = bytes, .dev = dev, .disk = dev, .tid = tid, .depth = 1,
			       .op = op, .cls = tid ? IO_CL_TREE : IO_CL_WB };

	timeline_request(tl, &r);
}

/*
 * The session above with four requests and two dirty samples:
 *  R1 sda write 4 KiB by task 10 (in write 2500-3000): queued 2600, inserted 2700, issued 2800,
 *     done 3500;
 *  R2 sda write 8 KiB of writeback (no task): issued 3000 without insert, done 3600 (overlaps R1);
 *  R3 sdb read 8 KiB by task 10 (in fsync's I/O wait): queued 3100, never inserted, issued 3400,
 *     done 3900;
 *  R4 sda write 4 KiB by task 11: queued 3250, inserted 3550, issued 3700, done 4100 (after R1).
 */
static struct timeline *session_io(uint64_t max)
{
	struct timeline *tl = session(max);
	struct io_phase *p = io_phase_new();

	assert_non_null(p);
	snprintf(io_phase_dev(p, SDA)->name, 32, "sda");
	snprintf(io_phase_dev(p, SDB)->name, 32, "sdb");
	assert_int_equal(timeline_devices(tl, p), 0);
	io_result_free(p);
	req(tl, SDA, 10, IO_OP_WRITE, 4096, 2600, 2700, 2800, 3500);
	req(tl, SDA, 0, IO_OP_WRITE, 8192, 0, 0, 3000, 3600);
	req(tl, SDB, 10, IO_OP_READ, 8192, 3100, 0, 3400, 3900);
	req(tl, SDA, 11, IO_OP_WRITE, 4096, 3250, 3550, 3700, 4100);
	timeline_dirty(tl, 2000, 4096, 8192, 0);
	timeline_dirty(tl, 3000, 0, 4096, 4096);
	return tl;
}

static int is(struct json_object *e, const char *k, const char *v)
{
	struct json_object *x = NULL;

	return json_object_object_get_ex(e, k, &x) && !strcmp(json_object_get_string(x), v);
}

static int num(struct json_object *e, const char *k)
{
	return json_object_get_int(get(e, k));
}

/* The request of the device track beginning at `begin` (ns from the phase start + 1000). */
static struct json_object *request_at(struct json_object *ev, long begin)
{
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (is(e, "cat", "request") && ns(e, "ts") == begin - 1000)
			return e;
	}
	fail_msg("no request at %ld", begin);
	return NULL;
}

/* The slice of category cat on (pid, tid) that begins at begin, or NULL. */
static struct json_object *part(struct json_object *ev, int pid, int tid, const char *cat,
				long begin)
{
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (is(e, "ph", "X") && is(e, "cat", cat) && num(e, "pid") == pid &&
		    num(e, "tid") == tid && ns(e, "ts") == begin - 1000)
			return e;
	}
	return NULL;
}

static void check_req(struct json_object *ev, long begin, long issue, long done, const char *dev,
		      const char *op, int bytes)
{
	struct json_object *r = request_at(ev, begin), *a = get(r, "args"), *q, *d;
	int pid = num(r, "pid"), tid = num(r, "tid");

	assert_int_equal(end_ns(r), done - 1000);
	assert_string_equal(str(a, "dev"), dev);
	assert_string_equal(str(a, "op"), op);
	assert_int_equal(num(a, "bytes"), bytes);
	assert_int_equal(num(a, "queue_ns"), issue - begin);
	assert_int_equal(num(a, "device_ns"), done - issue);
	q = part(ev, pid, tid, "queue", begin);
	if (issue > begin) {
		assert_non_null(q);
		assert_int_equal(dur_ns(q), issue - begin);
	} else {
		assert_null(q);
	}
	d = part(ev, pid, tid, "device", issue);
	assert_non_null(d);
	assert_int_equal(dur_ns(d), done - issue);
}

/* Every request exactly, its queue and device parts inside it, the devices named. */
static void test_requests_exact(void **state)
{
	struct timeline *tl = session_io(1000);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents"), *od = get(r, "otherData");
	int named = 0;

	(void)state;
	assert_int_equal(timeline_requests(tl), 4);
	check_req(ev, 2700, 2800, 3500, "sda", "write", 4096);
	check_req(ev, 3000, 3000, 3600, "sda", "write", 8192);
	check_req(ev, 3100, 3400, 3900, "sdb", "read", 8192);
	check_req(ev, 3550, 3700, 4100, "sda", "write", 4096);
	/* R1 and R2 overlap: two lanes; R4 reuses R1's */
	assert_int_not_equal(num(request_at(ev, 2700), "tid"), num(request_at(ev, 3000), "tid"));
	assert_int_equal(num(request_at(ev, 2700), "tid"), num(request_at(ev, 3550), "tid"));
	assert_int_equal(num(request_at(ev, 2700), "pid"), num(request_at(ev, 3000), "pid"));
	assert_int_not_equal(num(request_at(ev, 2700), "pid"), num(request_at(ev, 3100), "pid"));
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (is(e, "name", "process_name") && num(e, "pid") > 10)
			named += is(get(e, "args"), "name", "device sda") +
				 is(get(e, "args"), "name", "device sdb");
	}
	assert_int_equal(named, 2);
	assert_int_equal(json_object_get_int(get(od, "requests")), 4);
	assert_false(json_object_get_boolean(get(od, "cut")));
	json_object_put(r);
	timeline_free(tl);
}

/* Per device lane, the requests never overlap. */
static void test_lanes_disjoint(void **state)
{
	struct timeline *tl = session_io(1000);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents");
	size_t n = json_object_array_length(ev);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(ev, i);

		if (!is(a, "cat", "request"))
			continue;
		for (size_t j = i + 1; j < n; j++) {
			struct json_object *b = json_object_array_get_idx(ev, j);

			if (!is(b, "cat", "request") || num(a, "tid") != num(b, "tid"))
				continue;
			assert_true(end_ns(a) <= ns(b, "ts") ||
				    end_ns(b) <= ns(a, "ts"));
		}
	}
	json_object_put(r);
	timeline_free(tl);
}

/* Flows: one start per request a tree task queued, inside that task's syscall slice at the queue
 * time, and one end with the same id at its request's begin on its lane. */
static void test_flows_pair(void **state)
{
	/* queued at, by, its request's begin; the task's slice then: category, begin */
	static const struct { long submit; int tid; long begin; const char *cat; long in; } want[] = {
		{ 2600, 10, 2700, "kernel", 2500 },   /* kernel: write */
		{ 3100, 10, 3100, "iowait", 3000 },   /* I/O wait: fsync */
		{ 3250, 11, 3550, "user", 3200 },
	};
	struct timeline *tl = session_io(1000);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents");
	size_t n = json_object_array_length(ev);
	int starts = 0, ends = 0;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(ev, i), *f = NULL, *rq;
		int k;

		ends += is(s, "ph", "f");
		if (!is(s, "ph", "s"))
			continue;
		starts++;
		for (k = 0; k < 3 && ns(s, "ts") != want[k].submit - 1000; k++)
			;
		assert_true(k < 3);
		assert_int_equal(num(s, "tid"), want[k].tid);
		assert_int_equal(num(s, "pid"), 10);
		assert_non_null(part(ev, 10, want[k].tid, want[k].cat, want[k].in));
		for (size_t j = 0; j < n; j++) {
			struct json_object *e = json_object_array_get_idx(ev, j);

			if (is(e, "ph", "f") && num(e, "id") == num(s, "id"))
				f = e;
		}
		assert_non_null(f);
		assert_true(is(f, "bp", "e"));
		rq = request_at(ev, want[k].begin);
		assert_int_equal(ns(f, "ts"), want[k].begin - 1000);
		assert_int_equal(num(f, "pid"), num(rq, "pid"));
		assert_int_equal(num(f, "tid"), num(rq, "tid"));
	}
	assert_int_equal(starts, 3); /* R2, writeback, has none */
	assert_int_equal(ends, 3);
	json_object_put(r);
	timeline_free(tl);
}

/* Queue depth per device and the dirty bytes: never negative, exact at chosen instants, zero at
 * the end. */
static void test_counters(void **state)
{
	struct timeline *tl = session_io(1000);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents");
	int sda = num(request_at(ev, 2700), "pid"), seen = 0, dirty = 0;
	long last_q = -1, last_d = -1;

	(void)state;
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i), *a;

		if (!is(e, "ph", "C"))
			continue;
		a = get(e, "args");
		if (is(e, "name", "dirty bytes")) {
			assert_int_equal(num(a, "workload's files"), dirty ? 0 : 4096);
			assert_int_equal(num(a, "system dirty"), dirty ? 4096 : 8192);
			assert_int_equal(num(a, "system writeback"), dirty ? 4096 : 0);
			assert_int_equal(ns(e, "ts"), dirty ? 2000 : 1000);
			dirty++;
		}
		if (!is(e, "name", "queue depth"))
			continue;
		assert_true(num(a, "queued") >= 0);
		assert_true(num(a, "on device") >= 0);
		if (num(e, "pid") != sda)
			continue;
		if (ns(e, "ts") == 2000) { /* R1 on the device, R2 issued straight */
			assert_int_equal(num(a, "queued"), 0);
			assert_int_equal(num(a, "on device"), 2);
		}
		if (ns(e, "ts") == 1700) {
			assert_int_equal(num(a, "queued"), 1);
			assert_int_equal(num(a, "on device"), 0);
		}
		last_q = num(a, "queued");
		last_d = num(a, "on device");
		seen++;
	}
	assert_int_equal(dirty, 2);
	assert_int_equal(seen, 8); /* one per change: 2700 2800 3000 3500 3550 3600 3700 4100 */
	assert_int_equal(last_q, 0);
	assert_int_equal(last_d, 0);
	json_object_put(r);
	timeline_free(tl);
}

/* Room for two counter samples past the slices and requests: they go to the dirty bytes (a few a
 * second) before the tasks-by-state and queue-depth series (one per change), which are cut. A
 * loaded soak run's 2 s window of fsyncs once filled the room with those and kept no dirty bytes. */
static void test_counters_cut_keep_dirty(void **state)
{
	struct timeline *tl = session_io(9 + 4 + 2);
	struct json_object *r = write_parse(tl), *ev = get(r, "traceEvents"), *od = get(r, "otherData");
	int dirty = 0, other = 0;

	(void)state;
	assert_int_equal(timeline_slices(tl), 9);
	assert_int_equal(timeline_requests(tl), 4);
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (!is(e, "ph", "C"))
			continue;
		if (is(e, "name", "dirty bytes"))
			dirty++;
		else
			other++;
	}
	assert_int_equal(dirty, 2);
	assert_int_equal(other, 0);
	assert_false(json_object_get_boolean(get(od, "cut")));
	assert_true(json_object_get_boolean(get(od, "counters_cut")));
	json_object_put(r);
	timeline_free(tl);
}

/* Past the bound the requests are counted, not kept, and the file says so. */
static void test_requests_cut(void **state)
{
	struct timeline *tl = session_io(11);
	struct json_object *r = write_parse(tl), *od = get(r, "otherData");

	(void)state;
	assert_int_equal(timeline_slices(tl), 9);
	assert_int_equal(timeline_requests(tl), 2);
	assert_int_equal(timeline_requests_dropped(tl), 2);
	assert_true(json_object_get_boolean(get(od, "cut")));
	assert_int_equal(json_object_get_int(get(od, "requests_left_out")), 2);
	assert_int_equal(json_object_get_int(get(od, "slices_left_out")), 0);
	json_object_put(r);
	timeline_free(tl);
}

/* A request queued before the phase's clock started (background I/O of the window): time zero
 * moves to it, nothing is clamped, the phase and the tasks keep their exact times. */
static void test_early_request(void **state)
{
	struct timeline *tl = session(1000);
	struct json_object *r, *ev, *rq = NULL, *ph = NULL;

	(void)state;
	req(tl, SDA, 0, IO_OP_WRITE, 4096, 0, 900, 950, 1200);
	r = write_parse(tl);
	ev = get(r, "traceEvents");
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);

		if (is(e, "cat", "request"))
			rq = e;
		if (is(e, "cat", "phase"))
			ph = e;
	}
	assert_non_null(rq);
	assert_non_null(ph);
	assert_int_equal(ns(rq, "ts"), 0);
	assert_int_equal(dur_ns(rq), 300);
	assert_int_equal(ns(ph, "ts"), 100);
	assert_int_equal(dur_ns(ph), 4000);
	json_object_put(r);
	timeline_free(tl);
}

/* Times a viewer adds in doubles: slices of a real run (86018.300 + 7.755 µs is not 86026.055 in
 * doubles) still tile exactly, each begin + duration equal to the next begin, within 1 ns of the
 * true times. */
static void test_viewer_doubles(void **state)
{
	static const uint64_t t[] = { 0, 86018300, 86026055, 86082340, 86105524, 123456789 };
	struct timeline *tl = timeline_new(100);
	struct json_object *r, *ev;
	double prev = -1;
	int k = 0;

	(void)state;
	assert_int_equal(timeline_phase_begin(tl, "work", 0), 0);
	for (int i = 0; i + 1 < (int)(sizeof(t) / sizeof(t[0])); i++)
		timeline_slice(tl, &(struct model_slice){ .tid = 7, .tgid = 7, .comm = "dd",
							  .state = i % 2 ? IOWHY_TS_USER :
									   IOWHY_TS_KERNEL,
							  .nr = IOWHY_NR_NONE, .begin = t[i],
							  .end = t[i + 1] });
	timeline_phase_end(tl, t[5]);
	r = write_parse(tl);
	ev = get(r, "traceEvents");
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		struct json_object *e = json_object_array_get_idx(ev, i);
		double ts, dur;

		if (!is(e, "ph", "X") || num(e, "tid") != 7)
			continue;
		ts = json_object_get_double(get(e, "ts"));
		dur = json_object_get_double(get(e, "dur"));
		if (prev >= 0)
			assert_true(ts == prev);
		assert_true(fabs(ts * 1000 - (double)t[k]) < 1.0);
		assert_true(fabs((ts + dur) * 1000 - (double)t[k + 1]) < 1.0);
		prev = ts + dur;
		k++;
	}
	assert_int_equal(k, 5);
	json_object_put(r);
	timeline_free(tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slices_exact),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_requests_exact),
		cmocka_unit_test(test_lanes_disjoint),
		cmocka_unit_test(test_flows_pair),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_counters_cut_keep_dirty),
		cmocka_unit_test(test_requests_cut),
		cmocka_unit_test(test_early_request),
		cmocka_unit_test(test_viewer_doubles),
	};

	return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
