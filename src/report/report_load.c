// SPDX-License-Identifier: GPL-2.0
/* A saved JSON report read back into a session; see report_load.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "report_load.h"
#include "summary.h"
#include "syscalls.h"
#include "io_model.h"
#include "cpu_raw_json.h"
#include "cpu_samples.h"
#include "fuse_model.h"

/* ---- Members ---- */

struct json_object *rl_member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

uint64_t rl_u64(struct json_object *o, const char *key)
{
	struct json_object *v = rl_member(o, key);

	return v ? json_object_get_uint64(v) : 0;
}

const char *rl_str(struct json_object *o, const char *key)
{
	struct json_object *v = rl_member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

size_t rl_alen(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* ---- Header ---- */

/* The probe state a JSON reason names (probe_state_code's inverse); PROBE_ABSENT if none. */
static enum probe_state state_of(const char *code)
{
	for (int st = PROBE_WANTED; st <= PROBE_ATTACH_FAILED; st++)
		if (!strcmp(probe_state_code((enum probe_state)st), code))
			return (enum probe_state)st;
	return PROBE_ABSENT;
}

/* The errno whose strerror() is text (the JSON keeps the text); 0 for "" or an unknown text. */
static int errno_of(const char *text)
{
	for (int e = 1; text[0] && e < 200; e++)
		if (!strcmp(strerror(e), text))
			return e;
	return 0;
}

/* probes.programs back into t (absent in older reports: none). */
static void load_programs(struct json_object *a, struct probe_times *t)
{
	for (size_t i = 0; i < rl_alen(a) && t->nprogs < LOADED_PROGRAMS_MAX; i++) {
		struct json_object *m = json_object_array_get_idx(a, i);
		struct loaded_program *p = &t->progs[t->nprogs++];

		snprintf(p->probe, sizeof(p->probe), "%s", rl_str(m, "probe"));
		snprintf(p->prog, sizeof(p->prog), "%s", rl_str(m, "program"));
		snprintf(p->set, sizeof(p->set), "%s", rl_str(m, "set"));
		p->verified_insns = (uint32_t)rl_u64(m, "verified_insns");
		p->verify_ns = rl_u64(m, "verify_ns");
	}
}

static void load_header(struct json_object *r, struct session_result *s)
{
	struct json_object *ev = rl_member(r, "events"), *probes = rl_member(r, "probes");
	struct json_object *miss = rl_member(probes, "missing");

	snprintf(s->command, sizeof(s->command), "%s", rl_str(r, "command"));
	snprintf(s->kernel, sizeof(s->kernel), "%s", rl_str(r, "kernel"));
	snprintf(s->probe_mode, sizeof(s->probe_mode), "%s", rl_str(r, "probe_mode"));
	s->partial = json_object_get_boolean(rl_member(r, "partial"));
	s->events_total = rl_u64(ev, "total");
	s->events_lost = rl_u64(ev, "lost");
	s->storage_failed = rl_u64(ev, "storage_failed");
	s->nr_folded = rl_u64(ev, "nr_folded");
	s->hidden_switches = rl_u64(ev, "hidden_switches");
	s->hidden_at_event = rl_u64(ev, "hidden_at_event");
	s->hidden_outs = rl_u64(ev, "hidden_switch_outs");
	s->dwait_no_file = rl_u64(ev, "dwait_no_file");
	s->dwait_inflight = rl_u64(ev, "dwait_inflight");
	s->test_hidden = rl_u64(ev, "test_hidden_switches");
	s->setup_ns = rl_u64(r, "setup_ns");
	s->teardown_ns = rl_u64(r, "teardown_ns");
	s->probe_times.load_ns = rl_u64(probes, "load_ns");
	s->probe_times.attach_ns = rl_u64(probes, "attach_ns");
	s->probe_times.detach_ns = rl_u64(probes, "detach_ns");
	s->probe_times.load_cpu_ns = rl_u64(probes, "load_cpu_ns");
	s->probe_times.core_btf_types = rl_u64(probes, "core_btf_types");
	s->probe_times.core_btf_ns = rl_u64(probes, "core_btf_ns");
	s->probe_times.consumer_nice = (int)json_object_get_int(rl_member(probes, "consumer_nice"));
	s->probe_times.consumer_raised_ns = rl_u64(probes, "consumer_raised_ns");
	s->probe_times.start_ns = rl_u64(probes, "start_ns");
	s->event_cost_ps = rl_u64(probes, "event_cost_ps");
	s->event_rings = rl_u64(probes, "event_rings");
	s->event_ring_bytes = rl_u64(probes, "event_ring_bytes");
	s->event_ring_peak = rl_u64(probes, "event_ring_peak_bytes");
	s->io_stat_rows = rl_u64(probes, "io_stat_rows");
	s->io_sweeps = rl_u64(probes, "io_sweeps");
	s->io_sweep_ns = rl_u64(probes, "io_sweep_ns");
	load_programs(rl_member(probes, "programs"), &s->probe_times);
	for (size_t i = 0; i < rl_alen(miss); i++) {
		struct json_object *m = json_object_array_get_idx(miss, i);

		missing_probes_add(&s->missing, rl_str(m, "name"), state_of(rl_str(m, "reason")),
				   errno_of(rl_str(m, "error")));
	}
}

/* ---- One phase ---- */

/* The slot of disk `name` in s->disk_names, given one when new; -1 when all are taken. */
static int disk_slot(struct session_result *s, const char *name)
{
	for (int i = 0; i < IOWHY_DISK_SLOTS; i++) {
		if (!s->disk_names[i][0]) {
			snprintf(s->disk_names[i], sizeof(s->disk_names[i]), "%s", name);
			return i;
		}
		if (!strcmp(s->disk_names[i], name))
			return i;
	}
	return -1;
}

static void load_wall(struct json_object *ph, struct phase_result *p, struct session_result *s)
{
	struct json_object *w = rl_member(ph, "wall"), *g = rl_member(w, "kernel_groups");
	struct json_object *by_dev = rl_member(ph, "iowait_by_device");
	struct wall_view *v = &p->wall;

	v->start_ns = 0;
	v->end_ns = rl_u64(ph, "wall_ns");
	v->bucket_ns[WB_USER] = rl_u64(w, "user_ns");
	v->bucket_ns[WB_KERNEL] = rl_u64(w, "kernel_ns");
	v->bucket_ns[WB_RUNQ] = rl_u64(w, "runq_ns");
	v->bucket_ns[WB_IOWAIT] = rl_u64(w, "iowait_ns");
	v->bucket_ns[WB_OTHER] = rl_u64(w, "other_ns");
	v->unattributed_ns = rl_u64(w, "unattributed_ns");
	for (int k = 0; k < SG_COUNT; k++)
		v->kernel_group_ns[k] = rl_u64(g, sys_group_key((enum sys_group)k));
	json_object_object_foreach(rl_member(ph, "iowait_by_syscall"), name, ns) {
		int nr = strcmp(name, syscall_name(MODEL_NR_NONE)) ? syscall_nr(name) : MODEL_NR_NONE;

		if (nr >= 0 && nr <= MODEL_NR_NONE)
			v->by_nr[WB_IOWAIT][nr] = json_object_get_uint64(ns);
	}
	for (size_t i = 0; i < rl_alen(by_dev); i++) {
		struct json_object *d = json_object_array_get_idx(by_dev, i);
		const char *name = rl_str(d, "name");
		int slot = strcmp(name, "none") ? disk_slot(s, name) : IOWHY_DISK_SLOTS;

		if (slot >= 0)
			v->iowait_by_disk[slot] += rl_u64(d, "ns");
	}
}

static void load_facts(struct json_object *ph, struct phase_result *p)
{
	struct json_object *units = rl_member(ph, "fact_units"), *labels = rl_member(ph, "fact_labels");

	json_object_object_foreach(rl_member(ph, "facts"), key, val) {
		struct fact *f;

		if (p->facts.n >= FACTS_MAX)
			break;
		f = &p->facts.f[p->facts.n++];
		snprintf(f->key, sizeof(f->key), "%s", key);
		snprintf(f->label, sizeof(f->label), "%s", rl_member(labels, key) ? rl_str(labels, key) : key);
		snprintf(f->unit, sizeof(f->unit), "%s", rl_str(units, key));
		f->value = val ? json_object_get_double(val) : 0;
	}
}

static int load_comms(struct json_object *ph, struct phase_result *p)
{
	struct json_object *a = rl_member(ph, "comms");
	size_t n = rl_alen(a);

	p->comms = calloc(n ? n : 1, sizeof(*p->comms));
	if (!p->comms)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct comm_stats *c = &p->comms[i];

		strncpy(c->comm, rl_str(o, "comm"), IOWHY_COMM_LEN - 1);
		c->tasks = (uint32_t)rl_u64(o, "tasks");
		c->forks = (uint32_t)rl_u64(o, "forks");
		c->execs = (uint32_t)rl_u64(o, "execs");
		c->exits = (uint32_t)rl_u64(o, "exits");
		c->state_ns[IOWHY_TS_USER] = rl_u64(o, "user_ns");
		c->state_ns[IOWHY_TS_KERNEL] = rl_u64(o, "kernel_ns");
		c->state_ns[IOWHY_TS_RUNQ] = rl_u64(o, "runq_ns");
		c->state_ns[IOWHY_TS_DWAIT] = rl_u64(o, "iowait_ns");
		c->state_ns[IOWHY_TS_SWAIT] = rl_u64(o, "other_ns");
		c->vol_switches = rl_u64(o, "vol_switches");
		c->invol_switches = rl_u64(o, "invol_switches");
		c->faults = rl_u64(o, "faults");
	}
	p->ncomms = n;
	return 0;
}

static void load_syscalls(struct json_object *ph, struct phase_result *p)
{
	struct json_object *a = rl_member(ph, "syscalls");

	for (size_t i = 0; i < rl_alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		uint64_t nr = rl_u64(o, "nr");
		struct iowhy_sys_stat *st;

		if (nr >= IOWHY_NR_SLOTS)
			continue;
		st = &p->sys[nr];
		st->count = rl_u64(o, "count");
		st->total_ns = rl_u64(o, "total_ns");
		st->oncpu_ns = rl_u64(o, "oncpu_ns");
		st->max_ns = rl_u64(o, "max_ns");
		st->ret_sum = rl_u64(o, "bytes");
		report_load_hist(rl_member(o, "hist"), st->hist, IOWHY_HIST_SLOTS);
	}
}

/* The split of the user bucket by samples (cpu_samples.wall_user_split), the wall view's sub-rows:
 * the rest of the samples is not in the JSON. Returns 0, or -1 out of memory. */
static int load_user_split(struct json_object *ph, struct phase_result *p)
{
	struct json_object *cs = rl_member(ph, "cpu_samples"), *split = rl_member(cs, "wall_user_split");

	if (!split)
		return 0;
	p->samples = cpu_samples_new((uint32_t)rl_u64(cs, "hz"));
	if (!p->samples)
		return -1;
	for (int c = 0; c < CC_OUTSIDE; c++) {
		struct json_object *e = rl_member(split, cpu_class_name(c));
		struct cs_estimate *w = &p->samples->wall_user[c];

		w->samples = rl_u64(e, "samples");
		w->share = json_object_get_double(rl_member(e, "share"));
		w->share_err = json_object_get_double(rl_member(e, "share_err"));
		w->ns = (double)rl_u64(e, "ns");
		w->err_ns = (double)rl_u64(e, "err_ns");
		p->samples->class_samples[c] = w->samples;
		p->samples->outside += w->samples;
	}
	return 0;
}

static const char *const attach_buckets[WB_COUNT] = { "user", "kernel", "runq", "iowait", "other" };

/* A process's or cgroup's wall view and bytes (report_attach.c's put_wall and put_bytes). */
static void load_attach_row(struct json_object *o, uint64_t *start, uint64_t *end, uint64_t *bucket,
			    uint64_t *unattr, uint64_t *bytes4)
{
	static const char *const bk[4] = { "read_bytes", "write_bytes", "reads", "writes" };
	struct json_object *w = rl_member(o, "wall");

	*start = 0;
	*end = rl_u64(o, "wall_ns");
	for (int b = 0; b < WB_COUNT; b++)
		bucket[b] = rl_u64(w, attach_buckets[b]);
	*unattr = rl_u64(w, "unattributed");
	for (int i = 0; i < 4; i++) /* null under --lite: unknown, all ones as attach keeps it */
		bytes4[i] = rl_member(o, bk[i]) ? rl_u64(o, bk[i]) : UINT64_MAX;
}

/* attach's per-process and per-cgroup tables. Returns 0, or -1 out of memory. */
static int load_attach_tables(struct json_object *a, struct phase_result *p)
{
	struct json_object *procs = rl_member(a, "processes"), *cgs = rl_member(a, "cgroups");
	size_t np = rl_alen(procs), nc = rl_alen(cgs);

	if (np && !(p->procs = calloc(np, sizeof(*p->procs))))
		return -1;
	if (cgs && !(p->cgroups = calloc(nc ? nc : 1, sizeof(*p->cgroups))))
		return -1;
	for (size_t i = 0; i < nc; i++) {
		struct json_object *o = json_object_array_get_idx(cgs, i);
		struct cgroup_row *r = &p->cgroups[p->ncgroups++];
		uint64_t b[4];

		snprintf(r->path, sizeof(r->path), "%s", rl_str(o, "path"));
		r->nprocs = (uint32_t)rl_u64(o, "processes");
		r->cpu_ns = rl_u64(o, "cpu_ns");
		load_attach_row(o, &r->start_ns, &r->end_ns, r->bucket_ns, &r->unattributed_ns, b);
		r->read_bytes = b[0], r->write_bytes = b[1], r->reads = b[2], r->writes = b[3];
	}
	p->cgroups_untracked = rl_u64(a, "cgroups_untracked");
	for (size_t i = 0; i < np; i++) {
		struct json_object *o = json_object_array_get_idx(procs, i);
		struct proc_row *r = &p->procs[p->nprocs++];
		const char *cg = rl_str(o, "cgroup");
		uint64_t b[4];

		r->tgid = (uint32_t)rl_u64(o, "pid");
		snprintf(r->comm, sizeof(r->comm), "%s", rl_str(o, "comm"));
		load_attach_row(o, &r->start_ns, &r->end_ns, r->bucket_ns, &r->unattributed_ns, b);
		r->read_bytes = b[0], r->write_bytes = b[1], r->reads = b[2], r->writes = b[3];
		r->exited = json_object_get_boolean(rl_member(o, "exited"));
		r->cgroup = -1;
		for (size_t c = 0; cg[0] && c < p->ncgroups; c++)
			if (!strcmp(p->cgroups[c].path, cg))
				r->cgroup = (int32_t)c;
	}
	p->procs_untracked = rl_u64(a, "processes_untracked");
	return 0;
}

/* attach's window: what was traced, whether under --lite (no syscall probes: one on-CPU row,
 * split by the samples as the live report did), its processes and cgroups. Returns 0, or -1 out of
 * memory. */
static int load_attach(struct json_object *ph, struct phase_result *p, struct session_result *s)
{
	struct json_object *a = rl_member(ph, "attach");

	if (!a)
		return 0;
	snprintf(p->target, sizeof(p->target), "%s", rl_str(a, "target"));
	snprintf(p->end_note, sizeof(p->end_note), "%s", rl_str(a, "ended"));
	snprintf(p->seeded_by, sizeof(p->seeded_by), "%s", rl_str(a, "seeded_by"));
	snprintf(p->seed_note, sizeof(p->seed_note), "%s", rl_str(a, "seed_note"));
	p->seeded_ns = rl_u64(a, "seeded_ns");
	p->lite = json_object_get_boolean(rl_member(a, "lite"));
	if (p->lite)
		s->lite = 1;
	return load_attach_tables(a, p);
}

static int load_phase(struct json_object *ph, struct phase_result *p, struct session_result *s)
{
	struct json_object *cpu = rl_member(ph, "cpu_check"), *tr = rl_member(ph, "trace");

	snprintf(p->name, sizeof(p->name), "%s", rl_str(ph, "name"));
	snprintf(p->column, sizeof(p->column), "%s", rl_str(ph, "column"));
	p->kind = strcmp(rl_str(ph, "kind"), "flush") ? PHASE_WORK : PHASE_FLUSH;
	p->status = (int)json_object_get_int(rl_member(ph, "status"));
	p->partial = json_object_get_boolean(rl_member(ph, "partial"));
	load_wall(ph, p, s);
	load_facts(ph, p);
	p->rusage_user_ns = rl_u64(cpu, "rusage_user_ns");
	p->rusage_sys_ns = rl_u64(cpu, "rusage_sys_ns");
	p->task_clock_ok = rl_member(cpu, "task_clock_ns") != NULL;
	p->task_clock_ns = rl_u64(cpu, "task_clock_ns");
	p->events = rl_u64(tr, "events");
	p->out_of_order = rl_u64(tr, "out_of_order");
	p->events_lost = rl_u64(tr, "events_lost");
	p->unknown_task = rl_u64(tr, "unknown_task");
	p->clock_skew_events = rl_u64(tr, "clock_skew_events");
	p->clock_skew_max_ns = rl_u64(tr, "clock_skew_max_ns");
	p->tasks_left = rl_u64(tr, "tasks_left");
	p->prog_run_ns = rl_u64(tr, "programs_run_ns");
	p->prog_runs = rl_u64(tr, "programs_runs");
	p->prog_on_ns = rl_u64(tr, "programs_stats_on_ns");
	p->prog_windows = rl_u64(tr, "programs_stats_windows");
	p->prog_missed = rl_u64(tr, "programs_missed_runs");
	p->prog_missed_top = rl_u64(tr, "programs_missed_most_runs");
	snprintf(p->prog_missed_top_name, sizeof(p->prog_missed_top_name), "%s",
		 rl_str(tr, "programs_missed_most"));
	p->tracer_cpu_ns = rl_u64(tr, "tracer_cpu_ns");
	load_syscalls(ph, p);
	if (load_attach(ph, p, s))
		return -1;
	if (rl_member(ph, "io") && !(p->io = report_load_io(rl_member(ph, "io"), &s->missing)))
		return -1;
	if (load_comms(ph, p) ||
	    (rl_member(ph, "fuse") && !(p->fuse = report_load_fuse(rl_member(ph, "fuse")))))
		return -1;
	if (cpu_raw_load(rl_member(ph, "cpu_samples"), rl_member(ph, "offcpu"), p, &p->samples))
		return -1;
	/* a JSON without the raw samples still has the wall view's user split */
	return p->samples ? 0 : load_user_split(ph, p);
}

/* ---- The summary the run computed ---- */

static void load_disks(struct json_object *r, struct session_summary *sum)
{
	struct json_object *a = rl_member(r, "disks");

	sum->ndisks = 0;
	for (size_t i = 0; i < rl_alen(a) && sum->ndisks < SUMMARY_DISKS; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct disk_line *d = &sum->disks[sum->ndisks++];

		snprintf(d->name, sizeof(d->name), "%s", rl_str(o, "name"));
		d->window_ns = rl_u64(o, "window_ns");
		d->busy_ns = rl_u64(o, "busy_ns");
		d->requests = rl_u64(o, "requests");
		d->read_bytes = rl_u64(o, "read_bytes");
		d->write_bytes = rl_u64(o, "write_bytes");
		d->workload_bytes = rl_u64(o, "workload_bytes");
		d->iowait_ns = rl_u64(o, "iowait_ns");
	}
}

static void load_explanation(struct json_object *r, struct explanation *e)
{
	struct json_object *a = rl_member(r, "explanation_sentences");

	e->n = 0;
	for (size_t i = 0; i < rl_alen(a) && e->n < EXPLAIN_MAX; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct sentence *se = &e->s[e->n++];

		snprintf(se->kind, sizeof(se->kind), "%s", rl_str(o, "kind"));
		snprintf(se->text, sizeof(se->text), "%s", rl_str(o, "text"));
		se->nnums = 0;
		json_object_object_foreach(rl_member(o, "numbers"), key, val) {
			if (se->nnums >= SENTENCE_NUMS)
				break;
			snprintf(se->num[se->nnums].key, sizeof(se->num[0].key), "%s", key);
			se->num[se->nnums++].value = val ? json_object_get_double(val) : 0;
		}
	}
}

/* Columns and headline figures follow from the phases as the run computed them; the disks and
 * the explanation need what the JSON keeps only in summary form: they are taken from it. */
static int load_summary(struct json_object *r, struct session_result *s)
{
	struct json_object *phases = rl_member(r, "phases");

	if (summary_compute(s))
		return -1;
	for (int i = 0; i < s->nphases; i++)
		report_load_layers(rl_member(json_object_array_get_idx(phases, i), "io"),
				   &s->summary->phases[i]);
	load_disks(r, s->summary);
	load_explanation(r, &s->summary->expl);
	return 0;
}

/* Does any phase have FUSE requests without their histograms (a report of an older iowhy, which
 * -v cannot show as the run did)? */
static int old_fuse_rows(struct json_object *phases)
{
	for (size_t i = 0; i < rl_alen(phases); i++) {
		struct json_object *f = rl_member(json_object_array_get_idx(phases, i), "fuse");
		struct json_object *rows = rl_member(f, "requests");

		for (size_t k = 0; k < rl_alen(rows); k++)
			if (!rl_member(json_object_array_get_idx(rows, k), "hist"))
				return 1;
	}
	return 0;
}

/* ---- API ---- */

int report_load(const char *path, struct session_result *s, char *err, size_t errlen)
{
	return report_load_detail(path, s, 0, err, errlen);
}

int report_load_detail(const char *path, struct session_result *s, int detail, char *err,
		       size_t errlen)
{
	struct json_object *r, *phases;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	r = json_object_from_file(path);
	if (!r) {
		snprintf(err, errlen, "not a JSON file (%s)", json_util_get_last_err());
		err[strcspn(err, "\n")] = 0;
		return -1;
	}
	phases = rl_member(r, "phases");
	if (!json_object_is_type(r, json_type_object) || !rl_member(r, "schema_version") ||
	    !rl_alen(phases) || !rl_member(r, "tool")) {
		snprintf(err, errlen, "not an iowhy JSON report (no schema_version, tool or phases)");
		json_object_put(r);
		return -1;
	}
	if (rl_u64(r, "schema_version") != REPORT_SCHEMA_VERSION) {
		snprintf(err, errlen, "schema version %llu; this iowhy reads version %d",
			 (unsigned long long)rl_u64(r, "schema_version"), REPORT_SCHEMA_VERSION);
		json_object_put(r);
		return -1;
	}
	if (detail > 0 && old_fuse_rows(phases)) {
		snprintf(err, errlen, "-v: this JSON keeps the FUSE requests' percentiles, not their "
			 "histograms (written by an older iowhy; the default and -q reports work)");
		json_object_put(r);
		return -1;
	}
	s->tool = strdup(rl_str(r, "tool"));
	s->phases = calloc(rl_alen(phases), sizeof(*s->phases));
	if (!s->tool || !s->phases)
		rc = -2;
	load_header(r, s);
	for (size_t i = 0; !rc && i < rl_alen(phases) && i < SESSION_MAX_PHASES; i++) {
		s->nphases++;
		if (load_phase(json_object_array_get_idx(phases, i), &s->phases[i], s))
			rc = -2;
	}
	if (!rc && load_summary(r, s))
		rc = -2;
	if (rc)
		snprintf(err, errlen, "out of memory");
	json_object_put(r);
	return rc;
}

void report_load_free(struct session_result *s)
{
	summary_free(s);
	for (int i = 0; i < s->nphases; i++) {
		free(s->phases[i].comms);
		free(s->phases[i].procs);
		free(s->phases[i].cgroups);
		io_result_free(s->phases[i].io);
		cpu_samples_free(s->phases[i].samples);
		fuse_phase_free(s->phases[i].fuse);
	}
	free(s->phases);
	free((char *)s->tool);
	memset(s, 0, sizeof(*s));
}
