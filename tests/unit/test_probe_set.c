// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: probe sets (collect/probe_set.c) and the missing-probe list (model/probe_status.c).
 * No kernel: presence is checked against a BTF built here, and loading goes through a loader whose
 * "load" only looks at which programs are set to autoload (the real skeletons are opened, which
 * needs no privilege). Also: every program of bpf/iowhy.bpf.c and bpf/io.bpf.c is declared by its
 * loader under the tracepoint its section names, and the JSON report carries the list with reasons.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include "probe_set.h"
#include "bg_call.h"
#include "core_probes.h"
#include "calibrate.h"
#include "io_probes.h"
#include "report.h"
#include "iowhy.skel.h"
#include "io.skel.h"

/* Run fn with stderr going to a buffer. */
/* The JSON report into a file, as the engine writes --json FILE (it opens it: outfile_open). */
static int json_to(const char *path, const struct session_result *s)
{
	FILE *out = fopen(path, "w");

	return out ? report_json_file(out, path, s) : -1;
}

static void capture_stderr(char *out, size_t n, void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/iowhy-test-stderr-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	ssize_t got;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	got = pread(fd, out, n - 1, 0);
	out[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* ---- IOWHY_SKIP_PROBES parsing ---- */

static void test_skip_list(void **state)
{
	(void)state;
	assert_true(probe_skip_listed("block:block_rq_issue", "block:block_rq_issue"));
	assert_true(probe_skip_listed("a:b,block:block_rq_issue", "block:block_rq_issue"));
	assert_true(probe_skip_listed("block:block_rq_issue,a:b", "block:block_rq_issue"));
	assert_true(probe_skip_listed(" a:b , sched:sched_wakeup ,", "sched:sched_wakeup"));
	assert_true(probe_skip_listed("\tsched:sched_wakeup", "sched:sched_wakeup"));
	/* a name is matched whole, never as a prefix or a suffix */
	assert_false(probe_skip_listed("sched:sched_wakeup_new", "sched:sched_wakeup"));
	assert_false(probe_skip_listed("sched:sched_wakeup", "sched:sched_wakeup_new"));
	assert_false(probe_skip_listed("xsched:sched_wakeup", "sched:sched_wakeup"));
	assert_false(probe_skip_listed("sched_wakeup", "sched:sched_wakeup"));
	assert_false(probe_skip_listed(NULL, "sched:sched_wakeup"));
	assert_false(probe_skip_listed("", "sched:sched_wakeup"));
	assert_false(probe_skip_listed(",,", "sched:sched_wakeup"));
	assert_false(probe_skip_listed(",,", ""));
}

/* ---- prepare: skipped and absent, required and optional ---- */

/* A kernel BTF that has the tracepoints sched_switch and block_rq_issue only. */
static struct btf *fake_kernel(void)
{
	struct btf *b = btf__new_empty();
	int id;

	assert_non_null(b);
	id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	assert_true(id > 0);
	assert_true(btf__add_typedef(b, "btf_trace_sched_switch", id) > 0);
	assert_true(btf__add_typedef(b, "btf_trace_block_rq_issue", id) > 0);
	return b;
}

static const struct probe_spec specs[] = {
	{ "sched:sched_switch", { "btf_sched_switch", "raw_sched_switch" }, PROBE_REQUIRED },
	{ "block:block_rq_issue", { "btf_sched_wakeup", "raw_sched_wakeup" }, 0 },
	{ "jbd2:jbd2_run_stats", { "btf_sched_wakeup_new", "raw_sched_wakeup_new" }, 0 },
	{ "perf:cpu_clock", { "btf_sched_process_exec", "raw_sched_process_exec" },
	  PROBE_NOT_TRACEPOINT },
};
#define NSPECS ((int)(sizeof(specs) / sizeof(specs[0])))

static void test_tracepoint_exists(void **state)
{
	struct btf *b = fake_kernel();

	(void)state;
	assert_true(probe_tracepoint_exists(b, "sched:sched_switch"));
	assert_true(probe_tracepoint_exists(b, "block:block_rq_issue"));
	assert_false(probe_tracepoint_exists(b, "sched:sched_wakeup"));
	assert_false(probe_tracepoint_exists(NULL, "sched:sched_switch"));
	btf__free(b);
}

/* tracefs's answer: the event's directory under events/CATEGORY/ */
static void test_tracefs_event_exists(void **state)
{
	char dir[] = "/tmp/iowhy-tracefs.XXXXXX", path[128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sched", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/sched/sched_switch", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_true(probe_tracefs_event_exists(dir, "sched:sched_switch"));
	assert_false(probe_tracefs_event_exists(dir, "sched:sched_wakeup"));
	assert_false(probe_tracefs_event_exists(dir, "block:sched_switch"));
	assert_false(probe_tracefs_event_exists(dir, "sched_switch"));
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sched", dir);
	rmdir(path);
	rmdir(dir);
}

/* An event ring per online CPU: 8 MiB each, less where there are more than 8 (64 MiB in all, at
 * least 256 KiB each), or IOWHY_RINGBUF_MB; one shared ring as the old transport sized it. */
static void test_ringbuf_bytes(void **state)
{
	(void)state;
	assert_int_equal(event_ring_bytes(1, 0, NULL), 8u << 20);
	assert_int_equal(event_ring_bytes(0, 0, NULL), 8u << 20);
	assert_int_equal(event_ring_bytes(2, 0, NULL), 8u << 20);
	assert_int_equal(event_ring_bytes(3, 0, NULL), 8u << 20);
	assert_int_equal(event_ring_bytes(8, 0, NULL), 8u << 20);
	assert_int_equal(event_ring_bytes(9, 0, NULL), 4u << 20);
	assert_int_equal(event_ring_bytes(64, 0, NULL), 1u << 20);
	assert_int_equal(event_ring_bytes(256, 0, ""), 256u << 10);
	assert_int_equal(event_ring_bytes(4096, 0, NULL), 256u << 10); /* the least */
	assert_int_equal(event_ring_bytes(2, 0, "4"), 4u << 20);
	assert_int_equal(event_ring_bytes(2, 0, "1024"), 1024u << 20);
	assert_int_equal(event_ring_bytes(2, 0, "3"), 8u << 20);    /* not a power of two */
	assert_int_equal(event_ring_bytes(2, 0, "0"), 8u << 20);
	assert_int_equal(event_ring_bytes(2, 0, "2048"), 8u << 20); /* too big */
	assert_int_equal(event_ring_bytes(2, 0, "8x"), 8u << 20);
	/* one ring that every CPU shares: 8 MiB a CPU, a power of two, 64 MiB at most */
	assert_int_equal(event_ring_bytes(1, 1, NULL), 8u << 20);
	assert_int_equal(event_ring_bytes(2, 1, NULL), 16u << 20);
	assert_int_equal(event_ring_bytes(3, 1, NULL), 32u << 20);
	assert_int_equal(event_ring_bytes(512, 1, NULL), 64u << 20);
	assert_int_equal(event_ring_bytes(2, 1, "4"), 4u << 20);
	assert_int_equal(event_ring_bytes(2, 1, "3"), 16u << 20); /* not a power of two */
}

/* Kernel CPU lists (/sys/devices/system/cpu/online): which CPUs get a full event ring. */
static void test_cpu_list(void **state)
{
	(void)state;
	assert_int_equal(cpu_list_count("0-1\n"), 2);
	assert_int_equal(cpu_list_count("0,2-3,8"), 4);
	assert_int_equal(cpu_list_count("5"), 1);
	assert_int_equal(cpu_list_count(""), 0);
	assert_int_equal(cpu_list_count(NULL), 0);
	assert_int_equal(cpu_list_count("0-"), 0);   /* malformed */
	assert_int_equal(cpu_list_count("3-1"), 0);
	assert_int_equal(cpu_list_count("0;1"), 0);
	assert_true(cpu_list_has("0,2-3,8\n", 0));
	assert_false(cpu_list_has("0,2-3,8\n", 1));
	assert_true(cpu_list_has("0,2-3,8\n", 3));
	assert_false(cpu_list_has("0,2-3,8\n", 7));
	assert_true(cpu_list_has("0,2-3,8\n", 8));
	assert_false(cpu_list_has("0,2-3,8\n", 9));
	assert_true(cpu_list_has(NULL, 63));       /* unknown: every CPU online */
	assert_true(cpu_list_has("x", 5));
	assert_true(cpu_list_has("", 5));
}

/* One traced event costs half of what tracing adds to a null syscall (entry and exit). */
static void test_event_cost(void **state)
{
	(void)state;
	assert_int_equal(calib_event_cost_ps(340000, 820000), 240000);
	assert_int_equal(calib_event_cost_ps(500000, 400000), 0); /* noise: never negative */
	assert_int_equal(calib_event_cost_ps(0, 0), 0);
}

static void test_prepare_optional(void **state)
{
	struct probe_set s;
	struct btf *b = fake_kernel();

	(void)state;
	assert_int_equal(probe_set_init(&s, "test", specs, NSPECS), 0);
	assert_int_equal(probe_set_prepare(&s, "block:block_rq_issue", b), 0);
	assert_int_equal(s.p[0].state, PROBE_WANTED);
	assert_int_equal(s.p[1].state, PROBE_SKIPPED);   /* present, but skipped */
	assert_int_equal(s.p[2].state, PROBE_ABSENT);    /* no btf_trace_jbd2_run_stats */
	assert_int_equal(s.p[3].state, PROBE_WANTED);    /* not a tracepoint: not looked for */
	/* without BTF nothing is absent */
	assert_int_equal(probe_set_init(&s, "test", specs, NSPECS), 0);
	assert_int_equal(probe_set_prepare(&s, NULL, NULL), 0);
	for (int i = 0; i < NSPECS; i++)
		assert_int_equal(s.p[i].state, PROBE_WANTED);
	btf__free(b);
}

struct prepare_call {
	struct probe_set *s;
	const char *skip;
	struct btf *btf;
	int rc;
};

static void call_prepare(void *arg)
{
	struct prepare_call *c = arg;

	c->rc = probe_set_prepare(c->s, c->skip, c->btf);
}

static void test_prepare_required_out(void **state)
{
	static const struct probe_spec req[] = {
		{ "sched:sched_wakeup", { "btf_sched_wakeup" }, PROBE_REQUIRED },
	};
	struct probe_set s;
	struct btf *b = fake_kernel();
	struct prepare_call c = { &s, "sched:sched_switch", b, 0 };
	char msg[512];

	(void)state;
	/* skipped */
	assert_int_equal(probe_set_init(&s, "test", specs, NSPECS), 0);
	capture_stderr(msg, sizeof(msg), call_prepare, &c);
	assert_int_equal(c.rc, -1);
	assert_string_equal(msg, "iowhy: cannot attach the required tracepoint sched:sched_switch: "
			    "skipped by IOWHY_SKIP_PROBES\n");
	/* absent */
	assert_int_equal(probe_set_init(&s, "test", req, 1), 0);
	c.skip = NULL;
	capture_stderr(msg, sizeof(msg), call_prepare, &c);
	assert_int_equal(c.rc, -1);
	assert_int_equal(count_lines(msg), 1);
	assert_string_equal(msg, "iowhy: cannot attach the required tracepoint sched:sched_wakeup: "
			    "not in this kernel\n");
	btf__free(b);
}

static void test_init_too_many(void **state)
{
	struct probe_spec many[PROBE_SET_MAX + 1];
	struct probe_set s;

	(void)state;
	memset(many, 0, sizeof(many));
	assert_int_equal(probe_set_init(&s, "test", many, PROBE_SET_MAX + 1), -1);
	assert_int_equal(probe_set_init(&s, "test", many, PROBE_SET_MAX), 0);
}

struct warn_call {
	const char *list;
	const struct probe_set *const *sets;
	int n, rc;
};

static void call_warn(void *arg)
{
	struct warn_call *c = arg;

	c->rc = probe_skip_warn_unknown(c->list, c->sets, c->n);
}

static void test_skip_unknown_warned(void **state)
{
	struct probe_set a, b;
	const struct probe_set *sets[] = { &a, NULL, &b };
	struct warn_call c = { "sched:sched_switch, jbd2:jbd2_run_stats,,perf:cpu_clock", sets, 3,
			       0 };
	char msg[1024];

	(void)state;
	assert_int_equal(probe_set_init(&a, "a", specs, 2), 0);
	assert_int_equal(probe_set_init(&b, "b", specs + 3, 1), 0);
	capture_stderr(msg, sizeof(msg), call_warn, &c);
	assert_int_equal(c.rc, 1);
	assert_int_equal(count_lines(msg), 1);
	assert_non_null(strstr(msg, "IOWHY_SKIP_PROBES names jbd2:jbd2_run_stats, but no probe"));
	c.list = "block_rq_issue,sched_switch";
	capture_stderr(msg, sizeof(msg), call_warn, &c);
	assert_int_equal(c.rc, 2);
	assert_int_equal(count_lines(msg), 2);
	c.list = NULL;
	capture_stderr(msg, sizeof(msg), call_warn, &c);
	assert_int_equal(c.rc, 0);
	assert_string_equal(msg, "");
}

/* ---- load: autoload only what is used; isolate what does not load ---- */

struct fake {
	const char *bad[4];      /* programs the fake verifier refuses */
	int loads;               /* load attempts */
	char loaded[64][48];     /* programs set to autoload at the last successful load */
	int nloaded;
};

static void *fake_open(void *ctx)
{
	(void)ctx;
	return iowhy_bpf__open();
}

static struct bpf_object *fake_object(void *skel)
{
	return ((struct iowhy_bpf *)skel)->obj;
}

static struct fake *the_fake;

/* The fake "load": fails when a refused program is set to autoload, else records what is. */
static int fake_verify(void *skel)
{
	struct bpf_object *obj = fake_object(skel);
	struct bpf_program *p;
	int n = 0;

	the_fake->loads++;
	bpf_object__for_each_program(p, obj) {
		if (!bpf_program__autoload(p))
			continue;
		for (int i = 0; i < 4 && the_fake->bad[i]; i++)
			if (!strcmp(bpf_program__name(p), the_fake->bad[i]))
				return -EINVAL;
	}
	bpf_object__for_each_program(p, obj)
		if (bpf_program__autoload(p) && n < 64)
			snprintf(the_fake->loaded[n++], sizeof(the_fake->loaded[0]), "%s",
				 bpf_program__name(p));
	the_fake->nloaded = n;
	return 0;
}

static void fake_destroy(void *skel)
{
	iowhy_bpf__destroy(skel);
}

static int loaded(const struct fake *f, const char *prog)
{
	for (int i = 0; i < f->nloaded; i++)
		if (!strcmp(f->loaded[i], prog))
			return 1;
	return 0;
}

static const struct probe_loader fake_loader = { fake_open, fake_object, fake_verify, fake_destroy,
						 NULL };

static void test_load_autoloads_only_wanted(void **state)
{
	struct fake f = { .bad = { NULL } };
	struct probe_set s;
	void *skel;

	(void)state;
	the_fake = &f;
	assert_int_equal(probe_set_init(&s, "core", core_probe_specs, core_probe_nspecs), 0);
	assert_int_equal(probe_set_prepare(&s, "sched:sched_wakeup", NULL), 0);
	skel = probe_set_load(&s, PROBE_TP_BTF, &fake_loader);
	assert_non_null(skel);
	assert_int_equal(f.loads, 1);
	/* every wanted tp_btf program, nothing of raw_tp, not the skipped one */
	assert_int_equal(f.nloaded, core_probe_nspecs - 1);
	assert_true(loaded(&f, "btf_sched_switch"));
	assert_false(loaded(&f, "btf_sched_wakeup"));
	assert_false(loaded(&f, "raw_sched_switch"));
	assert_non_null(s.p[probe_set_find(&s, "sched:sched_switch")].prog);
	assert_null(s.p[probe_set_find(&s, "sched:sched_wakeup")].prog);
	iowhy_bpf__destroy(skel);

	/* the other flavour */
	f.loads = 0;
	skel = probe_set_load(&s, PROBE_RAW_TP, &fake_loader);
	assert_non_null(skel);
	assert_int_equal(f.nloaded, core_probe_nspecs - 1);
	assert_true(loaded(&f, "raw_sched_switch"));
	assert_false(loaded(&f, "btf_sched_switch"));
	assert_false(loaded(&f, "raw_sched_wakeup"));
	assert_int_equal(s.flavour, PROBE_RAW_TP);
	iowhy_bpf__destroy(skel);
}

static void test_load_isolates_optional_failure(void **state)
{
	struct fake f = { .bad = { "btf_tick", NULL } };
	struct missing_probes m = { 0 };
	struct probe_set s;
	void *skel;
	int tick;

	(void)state;
	the_fake = &f;
	assert_int_equal(probe_set_init(&s, "core", core_probe_specs, core_probe_nspecs), 0);
	assert_int_equal(probe_set_prepare(&s, NULL, NULL), 0);
	skel = probe_set_load(&s, PROBE_TP_BTF, &fake_loader);
	assert_non_null(skel);
	tick = probe_set_find(&s, "timer:hrtimer_expire_entry");
	assert_true(tick >= 0);
	assert_int_equal(s.p[tick].state, PROBE_LOAD_FAILED);
	assert_int_equal(s.p[tick].err, EINVAL);
	assert_false(loaded(&f, "btf_tick"));
	assert_int_equal(f.nloaded, core_probe_nspecs - 1);
	/* 1 together + 1 per probe alone + 1 final */
	assert_int_equal(f.loads, 1 + core_probe_nspecs + 1);
	for (int i = 0; i < s.n; i++)
		if (i != tick)
			assert_int_equal(s.p[i].state, PROBE_WANTED);
	iowhy_bpf__destroy(skel);
	/* after the loader attached the rest itself */
	for (int i = 0; i < s.n; i++)
		if (i != tick)
			probe_set_mark(&s, i, PROBE_ATTACHED, 0);
	assert_int_equal(probe_set_count(&s, PROBE_ATTACHED), core_probe_nspecs - 1);
	assert_false(probe_set_attached(&s, "timer:hrtimer_expire_entry"));
	assert_true(probe_set_attached(&s, "sched:sched_switch"));
	assert_int_equal(probe_set_missing(&s, &m), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].name, "timer:hrtimer_expire_entry");
	assert_int_equal(m.v[0].why, PROBE_LOAD_FAILED);
	assert_int_equal(m.v[0].err, EINVAL);
}

static void test_load_required_failure(void **state)
{
	struct fake f = { .bad = { "btf_sched_switch", NULL } };
	struct probe_set s;
	void *skel;
	int sw;

	(void)state;
	the_fake = &f;
	assert_int_equal(probe_set_init(&s, "core", core_probe_specs, core_probe_nspecs), 0);
	assert_int_equal(probe_set_prepare(&s, NULL, NULL), 0);
	assert_null(probe_set_load(&s, PROBE_TP_BTF, &fake_loader));
	sw = probe_set_find(&s, "sched:sched_switch");
	assert_int_equal(s.p[sw].state, PROBE_LOAD_FAILED);
	/* the next flavour starts afresh and loads */
	skel = probe_set_load(&s, PROBE_RAW_TP, &fake_loader);
	assert_non_null(skel);
	assert_int_equal(s.p[sw].state, PROBE_WANTED);
	assert_true(loaded(&f, "raw_sched_switch"));
	assert_true(s.load_ns > 0);
	iowhy_bpf__destroy(skel);
}

/* Probes marked `later` wait for probe_set_load_later, which loads them alone; the programs of
 * both loads are what probe_set_add_times lists. */
static void test_load_later(void **state)
{
	struct fake f = { .bad = { NULL } };
	struct probe_times t;
	struct probe_set s;
	void *skel, *more;
	int tick, wake;

	(void)state;
	the_fake = &f;
	assert_int_equal(probe_set_init(&s, "core", core_probe_specs, core_probe_nspecs), 0);
	assert_int_equal(probe_set_prepare(&s, NULL, NULL), 0);
	tick = probe_set_find(&s, "timer:hrtimer_expire_entry");
	wake = probe_set_find(&s, "sched:sched_wakeup");
	s.p[tick].later = s.p[wake].later = 1;
	skel = probe_set_load(&s, PROBE_TP_BTF, &fake_loader);
	assert_non_null(skel);
	assert_int_equal(f.nloaded, core_probe_nspecs - 2);
	assert_false(loaded(&f, "btf_tick"));
	assert_null(s.p[tick].prog);
	assert_int_equal(s.p[tick].state, PROBE_WANTED);
	memset(&t, 0, sizeof(t));
	probe_set_add_times(&s, &t);
	assert_int_equal(t.nprogs, core_probe_nspecs - 2);
	assert_string_equal(t.progs[0].set, "core");
	assert_string_equal(t.progs[0].probe, core_probe_specs[0].name);
	assert_string_equal(t.progs[0].prog, core_probe_specs[0].prog[PROBE_TP_BTF]);

	more = probe_set_load_later(&s, &fake_loader);
	assert_non_null(more);
	assert_int_equal(f.nloaded, 2);
	assert_true(loaded(&f, "btf_tick"));
	assert_true(loaded(&f, "btf_sched_wakeup"));
	assert_non_null(s.p[tick].prog);
	assert_int_equal(s.p[tick].later, 0);
	assert_int_equal(s.p[tick].state, PROBE_WANTED);
	memset(&t, 0, sizeof(t));
	probe_set_add_times(&s, &t);
	assert_int_equal(t.nprogs, core_probe_nspecs);
	iowhy_bpf__destroy(more);

	/* a later load that fails marks its probes, not the others */
	f.bad[0] = "btf_tick";
	s.p[tick].later = 1;
	s.p[tick].prog = NULL;
	assert_null(probe_set_load_later(&s, &fake_loader));
	assert_int_equal(s.p[tick].state, PROBE_LOAD_FAILED);
	assert_int_equal(s.p[tick].err, EINVAL);
	assert_int_equal(s.p[wake].state, PROBE_WANTED);
	iowhy_bpf__destroy(skel);
}

static pid_t caller_tid;

/* bg_call's function for the test: 7 when it runs in a thread other than the caller's with every
 * signal blocked. */
static int in_thread(void *arg)
{
	sigset_t now;

	(void)arg;
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	return gettid() != caller_tid && sigismember(&now, SIGINT) && sigismember(&now, SIGTERM) ?
	       7 : 1;
}

static void test_bg_call(void **state)
{
	struct bg_call c, never = { 0 };
	sigset_t now;

	(void)state;
	caller_tid = gettid();
	bg_call_start(&c, in_thread, NULL);
	assert_int_equal(bg_call_wait(&c), 7);
	assert_int_equal(bg_call_wait(&c), 7); /* twice is fine */
	assert_int_equal(bg_call_wait(&never), 0);
	/* the caller's own mask is as it was */
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	assert_false(sigismember(&now, SIGINT));
}

/* ---- the loaders' tables match the BPF objects ---- */

/* Every program of obj is claimed by exactly one spec in the flavour its section names, on the
 * tracepoint the spec's name names; every program a spec names exists. */
static void check_table(struct bpf_object *obj, const struct probe_spec *t, int n)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p);
		int claims = 0;

		for (int i = 0; i < n; i++) {
			for (int fl = 0; fl < PROBE_FLAVOURS; fl++) {
				const char *prefix = fl == PROBE_TP_BTF ? "tp_btf/" : "raw_tp/";
				const char *event = strchr(t[i].name, ':');

				if (!t[i].prog[fl] || strcmp(t[i].prog[fl], bpf_program__name(p)))
					continue;
				claims++;
				assert_non_null(event);
				if (t[i].flags & PROBE_RUN) { /* run by user space: a syscall program */
					if (strcmp(sec, "syscall"))
						fail_msg("%s: section %s, declared as run (%s)",
							 bpf_program__name(p), sec, t[i].name);
					continue;
				}
				if (strncmp(sec, prefix, strlen(prefix)) ||
				    strcmp(sec + strlen(prefix), event + 1))
					fail_msg("%s: section %s, declared as %s",
						 bpf_program__name(p), sec, t[i].name);
			}
		}
		if (claims != 1)
			fail_msg("program %s (%s) is declared %d times", bpf_program__name(p), sec,
				 claims);
	}
	for (int i = 0; i < n; i++)
		for (int fl = 0; fl < PROBE_FLAVOURS; fl++)
			if (t[i].prog[fl] && !bpf_object__find_program_by_name(obj, t[i].prog[fl]))
				fail_msg("%s: no program %s", t[i].name, t[i].prog[fl]);
}

static void test_tables_match_objects(void **state)
{
	struct iowhy_bpf *core = iowhy_bpf__open();
	struct io_bpf *io = io_bpf__open();

	(void)state;
	assert_non_null(core);
	assert_non_null(io);
	check_table(core->obj, core_probe_specs, core_probe_nspecs);
	check_table(io->obj, io_probe_specs, io_probe_nspecs);
	for (int i = 0; i < io_probe_nspecs; i++)
		assert_false(io_probe_specs[i].flags & PROBE_REQUIRED); /* all optional */
	iowhy_bpf__destroy(core);
	io_bpf__destroy(io);
}

/* ---- the missing list ---- */

static void test_missing_list(void **state)
{
	struct missing_probes a = { 0 }, b = { 0 };
	char text[512];

	(void)state;
	assert_int_equal(missing_probes_add(&a, "sched:sched_wakeup", PROBE_SKIPPED, 0), 0);
	assert_int_equal(missing_probes_add(&a, "jbd2:jbd2_run_stats", PROBE_ABSENT, 0), 0);
	assert_int_equal(missing_probes_add(&b, "block:block_rq_issue", PROBE_ATTACH_FAILED, EPERM),
			 0);
	assert_int_equal(missing_probes_add(&b, "sched:sched_wakeup", PROBE_SKIPPED, 0), 0);
	assert_int_equal(missing_probes_append(&a, &b), 0);
	assert_int_equal(a.n, 3); /* the same tracepoint in two sets is listed once */
	assert_string_equal(a.v[2].name, "block:block_rq_issue");
	assert_string_equal(missing_probes_text(&a, text, sizeof(text)),
			    "sched:sched_wakeup (skipped by IOWHY_SKIP_PROBES), "
			    "jbd2:jbd2_run_stats, "
			    "block:block_rq_issue (failed to attach: Operation not permitted)");
	b.n = 0;
	assert_string_equal(missing_probes_text(&b, text, sizeof(text)), "");
	/* a subsystem the kernel lacks is one entry; two absent probes of a category stay named */
	missing_probes_add(&b, "nfs:nfs_initiate_write", PROBE_ABSENT, 0);
	missing_probes_add(&b, "nfs:nfs_writeback_done", PROBE_ABSENT, 0);
	missing_probes_add(&b, "nfs:nfs_commit_done", PROBE_ABSENT, 0);
	missing_probes_add(&b, "sunrpc:rpc_task_begin", PROBE_ABSENT, 0);
	missing_probes_add(&b, "sunrpc:rpc_task_end", PROBE_ABSENT, 0);
	missing_probes_add(&b, "fuse:fuse_request_end", PROBE_SKIPPED, 0);
	assert_string_equal(missing_probes_text(&b, text, sizeof(text)),
			    "nfs:* (3 tracepoints), sunrpc:rpc_task_begin, sunrpc:rpc_task_end, "
			    "fuse:fuse_request_end (skipped by IOWHY_SKIP_PROBES)");
	b.n = 0;
	assert_string_equal(probe_state_code(PROBE_ABSENT), "absent");
	assert_string_equal(probe_state_code(PROBE_SKIPPED), "skipped");
	assert_string_equal(probe_state_code(PROBE_LOAD_FAILED), "load_failed");
	assert_string_equal(probe_state_code(PROBE_ATTACH_FAILED), "attach_failed");
	/* full */
	for (int i = 0; i < MISSING_PROBES_MAX; i++) {
		snprintf(text, sizeof(text), "x:p%d", i);
		missing_probes_add(&b, text, PROBE_ABSENT, 0);
	}
	assert_int_equal(b.n, MISSING_PROBES_MAX);
	assert_int_equal(missing_probes_add(&b, "x:one_more", PROBE_ABSENT, 0), -1);
	/* a short buffer is cut, never overrun */
	assert_int_equal(strlen(missing_probes_text(&a, text, 10)), 9);
}

/* ---- the JSON report: the list, the reasons, the times ---- */

static void test_json_probes(void **state)
{
	struct session_result r;
	char path[64];
	struct json_object *root, *probes, *list, *m, *v;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.tool = "run";
	missing_probes_add(&r.missing, "block:block_rq_issue", PROBE_SKIPPED, 0);
	missing_probes_add(&r.missing, "ext4:ext4_sync_file_enter", PROBE_ATTACH_FAILED, ENOENT);
	r.probe_times.load_ns = 300000000;
	r.probe_times.attach_ns = 7000000;
	r.probe_times.detach_ns = 13000000;
	r.probe_times.load_cpu_ns = 90000000;
	r.probe_times.nprogs = 1;
	snprintf(r.probe_times.progs[0].probe, PROBE_NAME_LEN, "block:block_rq_issue");
	snprintf(r.probe_times.progs[0].prog, 32, "io_rq_issue");
	snprintf(r.probe_times.progs[0].set, 16, "I/O");
	r.probe_times.progs[0].verified_insns = 538;
	r.probe_times.progs[0].verify_ns = 1500000;
	snprintf(path, sizeof(path), "/tmp/iowhy-test-probes-%d.json", (int)getpid());
	assert_int_equal(json_to(path, &r), 0);
	root = json_object_from_file(path);
	unlink(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "missing_probes", &list));
	assert_int_equal(json_object_array_length(list), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(list, 0)),
			    "block:block_rq_issue");
	assert_true(json_object_object_get_ex(root, "probes", &probes));
	assert_true(json_object_object_get_ex(probes, "load_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 300000000);
	assert_true(json_object_object_get_ex(probes, "attach_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 7000000);
	assert_true(json_object_object_get_ex(probes, "detach_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 13000000);
	assert_true(json_object_object_get_ex(probes, "load_cpu_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 90000000);
	assert_true(json_object_object_get_ex(probes, "programs", &list));
	assert_int_equal(json_object_array_length(list), 1);
	m = json_object_array_get_idx(list, 0);
	assert_true(json_object_object_get_ex(m, "probe", &v));
	assert_string_equal(json_object_get_string(v), "block:block_rq_issue");
	assert_true(json_object_object_get_ex(m, "program", &v));
	assert_string_equal(json_object_get_string(v), "io_rq_issue");
	assert_true(json_object_object_get_ex(m, "set", &v));
	assert_string_equal(json_object_get_string(v), "I/O");
	assert_true(json_object_object_get_ex(m, "verified_insns", &v));
	assert_int_equal(json_object_get_uint64(v), 538);
	assert_true(json_object_object_get_ex(m, "verify_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 1500000);
	assert_true(json_object_object_get_ex(probes, "missing", &list));
	assert_int_equal(json_object_array_length(list), 2);
	m = json_object_array_get_idx(list, 0);
	assert_true(json_object_object_get_ex(m, "name", &v));
	assert_string_equal(json_object_get_string(v), "block:block_rq_issue");
	assert_true(json_object_object_get_ex(m, "reason", &v));
	assert_string_equal(json_object_get_string(v), "skipped");
	assert_true(json_object_object_get_ex(m, "error", &v));
	assert_string_equal(json_object_get_string(v), "");
	m = json_object_array_get_idx(list, 1);
	assert_true(json_object_object_get_ex(m, "reason", &v));
	assert_string_equal(json_object_get_string(v), "attach_failed");
	assert_true(json_object_object_get_ex(m, "error", &v));
	assert_string_equal(json_object_get_string(v), strerror(ENOENT));
	json_object_put(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_list),
		cmocka_unit_test(test_tracepoint_exists),
		cmocka_unit_test(test_tracefs_event_exists),
		cmocka_unit_test(test_ringbuf_bytes),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_event_cost),
		cmocka_unit_test(test_prepare_optional),
		cmocka_unit_test(test_prepare_required_out),
		cmocka_unit_test(test_init_too_many),
		cmocka_unit_test(test_skip_unknown_warned),
		cmocka_unit_test(test_load_autoloads_only_wanted),
		cmocka_unit_test(test_load_isolates_optional_failure),
		cmocka_unit_test(test_load_required_failure),
		cmocka_unit_test(test_load_later),
		cmocka_unit_test(test_bg_call),
		cmocka_unit_test(test_tables_match_objects),
		cmocka_unit_test(test_missing_list),
		cmocka_unit_test(test_json_probes),
	};

	libbpf_set_print(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
