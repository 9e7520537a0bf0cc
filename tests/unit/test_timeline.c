// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the model's slice sink and the timeline (src/report/timeline.c) on a small synthetic
 * session, checked exactly: every slice, its begin <= end, per task the slices tile its life.
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

/* µs with 3 decimals back to ns, relative to the phase start (1000). */
static long ns(struct json_object *o, const char *k)
{
	return lround(json_object_get_double(get(o, k)) * 1000.0);
}

struct want {
	long begin, end;
	const char *name, *cat;
};

static void check_task(struct json_object *events, int tid, const struct want *w, int n)
{
	int seen = 0;
	long prev_end = -1;

	for (size_t i = 0; i < json_object_array_length(events); i++) {
		struct json_object *e = json_object_array_get_idx(events, i);

		if (strcmp(str(e, "ph"), "X") || json_object_get_int(get(e, "tid")) != tid)
			continue;
		assert_true(seen < n);
		assert_true(ns(e, "dur") >= 0);
		assert_int_equal(ns(e, "ts"), w[seen].begin - 1000);
		assert_int_equal(ns(e, "ts") + ns(e, "dur"), w[seen].end - 1000);
		assert_string_equal(str(e, "name"), w[seen].name);
		assert_string_equal(str(e, "cat"), w[seen].cat);
		assert_int_equal(json_object_get_int(get(e, "pid")), 10);
		if (prev_end >= 0)
			assert_int_equal(ns(e, "ts"), prev_end); /* tiles: no gap, no overlap */
		prev_end = ns(e, "ts") + ns(e, "dur");
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
			assert_int_equal(ns(e, "dur"), 4000);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slices_exact),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests_name("timeline", tests, NULL, NULL);
}
