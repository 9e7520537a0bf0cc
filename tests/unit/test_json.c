// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the JSON report (user/report_json.c), written and parsed back with json-c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <linux/types.h>
#include "outfile.h"
#include "report.h"
#include "syscalls.h"
#include "summary.h"
#include "json_put.h"
#include "io_model.h"

#define MS 1000000ULL

/* A quote, a backslash, a control character and invalid UTF-8 in a 15-byte comm. */
/* The JSON report into a file, as the engine writes --json FILE (it opens it: outfile_open). */
static int json_to(const char *path, const struct session_result *s)
{
	FILE *out = fopen(path, "w");

	return out ? report_json_file(out, path, s) : -1;
}

static const char odd_comm[] = "a\"b\\c\x01\xff";

struct fixture {
	struct session_result s;
	struct phase_result ph[2];
	struct comm_stats comms[2];
	char path[64];
	struct json_object *root;
};

static void fill_sys(struct iowhy_sys_stat *st, uint64_t count, uint64_t total, uint64_t oncpu,
		     uint64_t max)
{
	st->count = count;
	st->total_ns = total;
	st->oncpu_ns = oncpu;
	st->max_ns = max;
	for (uint64_t i = 0; i < count; i++) /* spread evenly over [1024, 2048) ns */
		st->hist[loglin_bucket(1024 + i * 1024 / count)]++;
}

static void fill_work(struct fixture *f)
{
	struct phase_result *p = &f->ph[0];
	int wr = syscall_nr("write"), op = syscall_nr("openat");

	snprintf(p->name, sizeof(p->name), "direct");
	snprintf(p->column, sizeof(p->column), "direct");
	p->kind = PHASE_WORK;
	p->wall.start_ns = 5 * MS;
	p->wall.end_ns = 105 * MS;
	p->wall.bucket_ns[WB_USER] = 10 * MS;
	p->wall.bucket_ns[WB_KERNEL] = 60 * MS;
	p->wall.kernel_group_ns[SG_DATA] = 40 * MS;
	p->wall.kernel_group_ns[SG_META] = 20 * MS;
	p->wall.bucket_ns[WB_RUNQ] = 5 * MS;
	p->wall.bucket_ns[WB_IOWAIT] = 15 * MS;
	p->wall.bucket_ns[WB_OTHER] = 9 * MS;
	p->wall.unattributed_ns = 1 * MS;
	p->wall.by_nr[WB_IOWAIT][wr] = 12 * MS;
	p->wall.by_nr[WB_IOWAIT][MODEL_NR_NONE] = 3 * MS;
	fill_sys(&p->sys[wr], 1000, 55 * MS, 40 * MS, 2 * MS);
	fill_sys(&p->sys[op], 1000, 20 * MS, 20 * MS, 100000);
	p->rusage_user_ns = 11 * MS;
	p->rusage_sys_ns = 59 * MS;
	p->task_clock_ok = 1;
	p->task_clock_ns = 68 * MS;
	p->events = 123456;
	p->out_of_order = 2;
	p->unknown_task = 1;
	p->tasks_left = 0;
	p->facts.n = 2;
	snprintf(p->facts.f[0].key, sizeof(p->facts.f[0].key), "files");
	snprintf(p->facts.f[0].label, sizeof(p->facts.f[0].label), "files created");
	p->facts.f[0].value = 1000;
	snprintf(p->facts.f[1].key, sizeof(p->facts.f[1].key), "app_seconds");
	snprintf(p->facts.f[1].unit, sizeof(p->facts.f[1].unit), "s");
	p->facts.f[1].value = 0.25;

	memcpy(f->comms[0].comm, odd_comm, sizeof(odd_comm));
	f->comms[0].tasks = 1;
	f->comms[0].forks = 3;
	f->comms[0].execs = 1;
	f->comms[0].exits = 1;
	f->comms[0].state_ns[IOWHY_TS_USER] = 10 * MS;
	f->comms[0].state_ns[IOWHY_TS_KERNEL] = 60 * MS;
	f->comms[0].state_ns[IOWHY_TS_RUNQ] = 5 * MS;
	f->comms[0].state_ns[IOWHY_TS_DWAIT] = 15 * MS;
	f->comms[0].state_ns[IOWHY_TS_SWAIT] = 9 * MS;
	f->comms[0].vol_switches = 42;
	f->comms[0].invol_switches = 7;
	memcpy(f->comms[1].comm, "0123456789abcdef", IOWHY_COMM_LEN); /* no terminator */
	f->comms[1].tasks = 2;
	p->comms = f->comms;
	p->ncomms = 2;
}

static void fill_flush(struct fixture *f)
{
	struct phase_result *p = &f->ph[1];
	int sf = syscall_nr("syncfs");

	snprintf(p->name, sizeof(p->name), "direct/flush");
	snprintf(p->column, sizeof(p->column), "direct");
	p->kind = PHASE_FLUSH;
	p->status = 0;
	p->partial = 1;
	p->wall.start_ns = 200 * MS;
	p->wall.end_ns = 230 * MS;
	p->wall.bucket_ns[WB_IOWAIT] = 30 * MS;
	p->wall.by_nr[WB_IOWAIT][sf] = 30 * MS;
	fill_sys(&p->sys[sf], 1, 30 * MS, 1 * MS, 30 * MS);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->s.tool = "gen";
	snprintf(f->s.command, sizeof(f->s.command), "gen --strategy direct \"x\\y\" --count 1000");
	snprintf(f->s.kernel, sizeof(f->s.kernel), "6.1.0-test");
	snprintf(f->s.probe_mode, sizeof(f->s.probe_mode), "tp_btf");
	missing_probes_add(&f->s.missing, "sched_wakeup_new", PROBE_ABSENT, 0);
	missing_probes_add(&f->s.missing, "block_rq_issue", PROBE_SKIPPED, 0);
	f->s.partial = 1;
	f->s.events_total = 200000;
	f->s.events_lost = 3;
	f->s.storage_failed = 4;
	f->s.nr_folded = 5;
	f->s.phases = f->ph;
	f->s.nphases = 2;
	fill_work(f);
	fill_flush(f);
	f->ph[1].events_lost = 3; /* lost in the flush phase: the work phase's views stay measured */
	snprintf(f->path, sizeof(f->path), "/tmp/iowhy-test-json-%d.json", (int)getpid());
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->root)
		json_object_put(f->root);
	unlink(f->path);
	free(f);
	return 0;
}

/* Member `key` of o, which must exist with the given type. */
static struct json_object *get(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("missing key '%s'", key);
	if (!json_object_is_type(v, type))
		fail_msg("key '%s' has type %s", key, json_type_to_name(json_object_get_type(v)));
	return v;
}

static uint64_t u64(struct json_object *o, const char *key)
{
	return json_object_get_uint64(get(o, key, json_type_int));
}

static const char *str(struct json_object *o, const char *key)
{
	return json_object_get_string(get(o, key, json_type_string));
}

static struct json_object *write_and_parse(struct fixture *f)
{
	assert_int_equal(summary_compute(&f->s), 0);
	assert_int_equal(json_to(f->path, &f->s), 0);
	summary_free(&f->s);
	f->root = json_object_from_file(f->path);
	if (!f->root)
		fail_msg("report is not valid JSON: %s", json_util_get_last_err());
	return f->root;
}

static void test_header(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f), *ev, *miss;

	assert_int_equal(u64(r, "schema_version"), REPORT_SCHEMA_VERSION);
	assert_string_equal(str(r, "tool"), "gen");
	assert_string_equal(str(r, "command"), f->s.command); /* quotes and backslash survive */
	assert_string_equal(str(r, "kernel"), "6.1.0-test");
	assert_string_equal(str(r, "probe_mode"), "tp_btf");
	assert_true(json_object_get_boolean(get(r, "partial", json_type_boolean)));
	ev = get(r, "events", json_type_object);
	assert_int_equal(u64(ev, "total"), 200000);
	assert_int_equal(u64(ev, "lost"), 3);
	assert_int_equal(u64(ev, "storage_failed"), 4);
	assert_int_equal(u64(ev, "nr_folded"), 5);
	miss = get(r, "missing_probes", json_type_array);
	assert_int_equal(json_object_array_length(miss), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(miss, 0)),
			    "sched_wakeup_new");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(miss, 1)),
			    "block_rq_issue");
	assert_true(json_object_array_length(get(r, "explanation", json_type_array)) >= 1);
	assert_int_equal(json_object_array_length(get(r, "phases", json_type_array)), 2);
}

static void test_phase_wall(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f);
	struct json_object *p = json_object_array_get_idx(get(r, "phases", json_type_array), 0);
	struct json_object *w, *g, *io;

	assert_string_equal(str(p, "name"), "direct");
	assert_string_equal(str(p, "column"), "direct");
	assert_string_equal(str(p, "kind"), "work");
	assert_int_equal(u64(p, "status"), 0);
	assert_false(json_object_get_boolean(get(p, "partial", json_type_boolean)));
	assert_int_equal(u64(p, "wall_ns"), 100 * MS);
	w = get(p, "wall", json_type_object);
	assert_int_equal(u64(w, "user_ns"), 10 * MS);
	assert_int_equal(u64(w, "kernel_ns"), 60 * MS);
	assert_int_equal(u64(w, "runq_ns"), 5 * MS);
	assert_int_equal(u64(w, "iowait_ns"), 15 * MS);
	assert_int_equal(u64(w, "other_ns"), 9 * MS);
	assert_int_equal(u64(w, "unattributed_ns"), 1 * MS);
	g = get(w, "kernel_groups", json_type_object);
	assert_int_equal(json_object_object_length(g), SG_COUNT);
	assert_int_equal(u64(g, "file_data"), 40 * MS);
	assert_int_equal(u64(g, "file_metadata"), 20 * MS);
	assert_int_equal(u64(g, "process"), 0);
	io = get(p, "iowait_by_syscall", json_type_object);
	assert_int_equal(json_object_object_length(io), 2); /* nonzero only */
	assert_int_equal(u64(io, "write"), 12 * MS);
	assert_int_equal(u64(io, syscall_name(MODEL_NR_NONE)), 3 * MS);
	assert_false(json_object_object_get_ex(p, "io", NULL)); /* not traced */
}

static void test_phase_facts_and_checks(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f);
	struct json_object *p = json_object_array_get_idx(get(r, "phases", json_type_array), 0);
	struct json_object *facts, *units, *cpu, *tr;

	facts = get(p, "facts", json_type_object);
	assert_int_equal(u64(facts, "files"), 1000); /* whole numbers as integers */
	assert_float_equal(json_object_get_double(get(facts, "app_seconds", json_type_double)), 0.25,
			   1e-12);
	units = get(p, "fact_units", json_type_object);
	assert_string_equal(str(units, "files"), "");
	assert_string_equal(str(units, "app_seconds"), "s");
	cpu = get(p, "cpu_check", json_type_object);
	assert_int_equal(u64(cpu, "tree_cpu_ns"), 70 * MS);
	assert_int_equal(u64(cpu, "rusage_cpu_ns"), 70 * MS);
	assert_int_equal(u64(cpu, "rusage_user_ns"), 11 * MS);
	assert_int_equal(u64(cpu, "rusage_sys_ns"), 59 * MS);
	assert_int_equal(u64(cpu, "task_clock_ns"), 68 * MS);
	tr = get(p, "trace", json_type_object);
	assert_int_equal(u64(tr, "events"), 123456);
	assert_int_equal(u64(tr, "out_of_order"), 2);
	assert_int_equal(u64(tr, "unknown_task"), 1);
	assert_int_equal(u64(tr, "tasks_left"), 0);
}

static void test_phase_comms(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f);
	struct json_object *p = json_object_array_get_idx(get(r, "phases", json_type_array), 0);
	struct json_object *comms = get(p, "comms", json_type_array), *c;

	assert_int_equal(json_object_array_length(comms), 2);
	c = json_object_array_get_idx(comms, 0);
	/* escaped by json-c and read back as the same bytes; the control and invalid bytes are '?' */
	assert_string_equal(str(c, "comm"), "a\"b\\c??");
	assert_int_equal(u64(c, "tasks"), 1);
	assert_int_equal(u64(c, "forks"), 3);
	assert_int_equal(u64(c, "execs"), 1);
	assert_int_equal(u64(c, "exits"), 1);
	assert_int_equal(u64(c, "user_ns"), 10 * MS);
	assert_int_equal(u64(c, "kernel_ns"), 60 * MS);
	assert_int_equal(u64(c, "runq_ns"), 5 * MS);
	assert_int_equal(u64(c, "iowait_ns"), 15 * MS);
	assert_int_equal(u64(c, "other_ns"), 9 * MS);
	assert_int_equal(u64(c, "vol_switches"), 42);
	assert_int_equal(u64(c, "invol_switches"), 7);
	c = json_object_array_get_idx(comms, 1);
	assert_string_equal(str(c, "comm"), "0123456789abcdef"); /* full 16 bytes, no overrun */
}

static void test_phase_syscalls(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f);
	struct json_object *p = json_object_array_get_idx(get(r, "phases", json_type_array), 0);
	struct json_object *sys = get(p, "syscalls", json_type_array), *s0, *s1;

	assert_int_equal(json_object_array_length(sys), 2); /* nonzero slots only */
	s0 = json_object_array_get_idx(sys, 0);             /* by total: write first */
	s1 = json_object_array_get_idx(sys, 1);
	assert_string_equal(str(s0, "name"), "write");
	assert_int_equal(u64(s0, "nr"), syscall_nr("write"));
	assert_int_equal(u64(s0, "count"), 1000);
	assert_int_equal(u64(s0, "total_ns"), 55 * MS);
	assert_int_equal(u64(s0, "oncpu_ns"), 40 * MS);
	assert_int_equal(u64(s0, "avg_ns"), 55000);
	/* middle of [1024, 2048), within the log-linear buckets' 1/64 */
	assert_true(u64(s0, "p50_ns") >= 1536 - 24 && u64(s0, "p50_ns") <= 1536 + 24);
	assert_true(u64(s0, "p99_ns") >= 2000 && u64(s0, "p99_ns") <= 2048);
	assert_int_equal(u64(s0, "max_ns"), 2 * MS);
	assert_string_equal(str(s0, "group"), "file_data");
	assert_string_equal(str(s1, "name"), "openat");
	assert_string_equal(str(s1, "group"), "file_metadata");
}

static void test_flush_phase(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f);
	struct json_object *p = json_object_array_get_idx(get(r, "phases", json_type_array), 1);
	struct json_object *sys;

	assert_string_equal(str(p, "name"), "direct/flush");
	assert_string_equal(str(p, "column"), "direct");
	assert_string_equal(str(p, "kind"), "flush");
	assert_true(json_object_get_boolean(get(p, "partial", json_type_boolean)));
	assert_int_equal(u64(p, "wall_ns"), 30 * MS);
	assert_int_equal(u64(get(p, "iowait_by_syscall", json_type_object), "syncfs"), 30 * MS);
	assert_int_equal(json_object_array_length(get(p, "comms", json_type_array)), 0);
	sys = get(p, "syscalls", json_type_array);
	assert_string_equal(str(json_object_array_get_idx(sys, 0), "group"), "sync");
}

static void test_empty_session(void **state)
{
	struct fixture *f = *state;
	struct json_object *r;

	f->s.nphases = 0;
	f->s.missing.n = 0;
	f->s.tool = NULL;
	r = write_and_parse(f);
	assert_string_equal(str(r, "tool"), "");
	assert_int_equal(json_object_array_length(get(r, "phases", json_type_array)), 0);
	assert_int_equal(json_object_array_length(get(r, "missing_probes", json_type_array)), 0);
}

/* Unsigned stays unsigned: a value above 2^63 is written as itself, not as a negative number (the
 * I/O section once went through json_object_new_int64((int64_t)v)). */
static void test_u64_above_2_63(void **state)
{
	struct fixture *f = *state;
	const uint64_t big = (1ULL << 63) + 12345;
	struct json_object *o = json_object_new_object(), *r, *p, *dev, *st;
	struct io_phase *io = io_phase_new();
	struct io_devinfo *d;

	jput_u64(o, "v", big);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"v\":9223372036854788153}");
	json_object_put(o);

	assert_non_null(io);
	io->window_ns = big;
	d = io_phase_dev(io, 8u << 20);
	snprintf(d->name, sizeof(d->name), "sda");
	snprintf(d->disk_name, sizeof(d->disk_name), "sda");
	d->busy_ns = 5;
	d->has_stat = 1;
	d->stat.rd_ios = big;
	d->stat.io_ticks = 7; /* ms in /sys/block: written as io_ticks_ns */
	f->ph[0].io = io;
	r = write_and_parse(f);
	f->ph[0].io = NULL;
	io_result_free(io);
	p = json_object_array_get_idx(get(r, "phases", json_type_array), 0);
	assert_int_equal(u64(get(p, "io", json_type_object), "window_ns"), big);
	dev = json_object_array_get_idx(get(get(p, "io", json_type_object), "devices",
					    json_type_array), 0);
	st = get(dev, "stat", json_type_object);
	assert_true(u64(st, "read_ios") == big);
	assert_true(json_object_get_int64(get(st, "read_ios", json_type_int)) > 0 ||
		    json_object_get_uint64(get(st, "read_ios", json_type_int)) == big);
	assert_int_equal(u64(st, "io_ticks_ns"), 7000000);
	assert_false(json_object_object_get_ex(st, "io_ticks_ms", NULL));
}

/* A syscall's on-CPU time is never written larger than its total (exit_group showed 122.3%). */
static void test_oncpu_clamped(void **state)
{
	struct fixture *f = *state;
	int eg = syscall_nr("exit_group");
	struct json_object *r, *p, *sys;

	fill_sys(&f->ph[0].sys[eg], 1, 1 * MS, 1223 * MS / 1000, 1 * MS);
	r = write_and_parse(f);
	p = json_object_array_get_idx(get(r, "phases", json_type_array), 0);
	sys = get(p, "syscalls", json_type_array);
	for (size_t i = 0; i < json_object_array_length(sys); i++) {
		struct json_object *e = json_object_array_get_idx(sys, i);

		assert_true(u64(e, "oncpu_ns") <= u64(e, "total_ns"));
		if (!strcmp(str(e, "name"), "exit_group"))
			assert_int_equal(u64(e, "oncpu_ns"), 1 * MS);
	}
}

/* The explanation comes as strings and as sentences with their kind and numbers. */
static void test_explanation_sentences(void **state)
{
	struct fixture *f = *state;
	struct json_object *r = write_and_parse(f);
	struct json_object *texts = get(r, "explanation", json_type_array);
	struct json_object *sent = get(r, "explanation_sentences", json_type_array), *s0, *nums;

	assert_true(json_object_array_length(sent) >= 1);
	assert_int_equal(json_object_array_length(sent), json_object_array_length(texts));
	s0 = json_object_array_get_idx(sent, 0);
	assert_string_equal(str(s0, "kind"), "column");
	assert_string_equal(str(s0, "text"),
			    json_object_get_string(json_object_array_get_idx(texts, 0)));
	nums = get(s0, "numbers", json_type_object);
	assert_int_equal(u64(nums, "whole_ns"), 100 * MS);
	assert_true(u64(nums, "part_ns") <= u64(nums, "whole_ns"));
	assert_int_equal(json_object_array_length(get(r, "columns", json_type_array)), 1);
}

static void test_write_failure(void **state)
{
	struct fixture *f = *state;

	assert_null(outfile_open("run", "--json", "/nonexistent-iowhy-dir/report.json"));
	if (access("/dev/full", W_OK) == 0)
		assert_int_equal(json_to("/dev/full", &f->s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phase_wall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phase_facts_and_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phase_comms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phase_syscalls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flush_phase, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_session, setup, teardown),
		cmocka_unit_test_setup_teardown(test_u64_above_2_63, setup, teardown),
		cmocka_unit_test_setup_teardown(test_oncpu_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explanation_sentences, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_failure, setup, teardown),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
