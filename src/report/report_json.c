// SPDX-License-Identifier: GPL-2.0
/* The JSON report (docs/json.md), built with json-c: the library does all the escaping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "io_report.h"
#include "cpu_report.h"
#include "fuse_report.h"
#include "report.h"
#include "report_attach.h"
#include "columns.h"
#include "json_put.h"
#include "summary.h"
#include "wall_parts.h"
#include "cpu_split.h"
#include "syscalls.h"
#include "hist.h"

/* ---- Session header ---- */

static struct json_object *events_obj(const struct session_result *s)
{
	struct json_object *o = json_object_new_object();

	jput_u64(o, "total", s->events_total);
	jput_u64(o, "lost", s->events_lost);
	jput_u64(o, "storage_failed", s->storage_failed);
	jput_u64(o, "nr_folded", s->nr_folded);
	jput_u64(o, "late", s->events_late);
	jput_u64(o, "hidden_switches", s->hidden_switches);
	jput_u64(o, "hidden_at_event", s->hidden_at_event);
	jput_u64(o, "hidden_switch_outs", s->hidden_outs);
	jput_u64(o, "dwait_no_file", s->dwait_no_file);
	jput_u64(o, "dwait_inflight", s->dwait_inflight);
	if (s->test_hidden)
		jput_u64(o, "test_hidden_switches", s->test_hidden);
	return o;
}

/* The BPF programs loaded, in load order, with what the verifier spent on each. */
static struct json_object *programs_arr(const struct probe_times *t)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < t->nprogs && i < LOADED_PROGRAMS_MAX; i++) {
		const struct loaded_program *p = &t->progs[i];
		struct json_object *m = json_object_new_object();

		jput_str(m, "probe", p->probe);
		jput_str(m, "program", p->prog);
		jput_str(m, "set", p->set);
		jput_u64(m, "verified_insns", p->verified_insns);
		jput_u64(m, "verify_ns", p->verify_ns);
		json_object_array_add(a, m);
	}
	return a;
}

/* The probes: what setting them up and tearing them down cost, and why each missing one is. */
static struct json_object *probes_obj(const struct session_result *s)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	jput_u64(o, "load_ns", s->probe_times.load_ns);
	jput_u64(o, "attach_ns", s->probe_times.attach_ns);
	jput_u64(o, "detach_ns", s->probe_times.detach_ns);
	jput_u64(o, "load_cpu_ns", s->probe_times.load_cpu_ns);
	jput_u64(o, "start_ns", s->probe_times.start_ns);
	jput_u64(o, "core_btf_types", s->probe_times.core_btf_types);
	jput_u64(o, "core_btf_ns", s->probe_times.core_btf_ns);
	jput_i64(o, "consumer_nice", s->probe_times.consumer_nice);
	jput_u64(o, "consumer_raised_ns", s->probe_times.consumer_raised_ns);
	jput_u64(o, "event_cost_ps", s->event_cost_ps);
	jput_u64(o, "event_rings", s->event_rings);
	jput_u64(o, "event_ring_bytes", s->event_ring_bytes);
	jput_u64(o, "event_ring_peak_bytes", s->event_ring_peak);
	jput_u64(o, "io_stat_rows", s->io_stat_rows);
	jput_u64(o, "io_sweeps", s->io_sweeps);
	jput_u64(o, "io_sweep_ns", s->io_sweep_ns);
	jput(o, "programs", programs_arr(&s->probe_times));
	for (unsigned i = 0; i < s->missing.n; i++) {
		const struct missing_probe *p = &s->missing.v[i];
		struct json_object *m = json_object_new_object();

		jput_str(m, "name", p->name);
		jput_str(m, "reason", probe_state_code(p->why));
		jput_str(m, "error", p->err ? strerror(p->err) : "");
		json_object_array_add(a, m);
	}
	jput(o, "missing", a);
	return o;
}

/* ---- One phase ---- */

static struct json_object *wall_obj(const struct wall_view *w)
{
	struct json_object *o = json_object_new_object(), *groups = json_object_new_object();

	jput_u64(o, "user_ns", w->bucket_ns[WB_USER]);
	jput_u64(o, "kernel_ns", w->bucket_ns[WB_KERNEL]);
	for (int g = 0; g < SG_COUNT; g++)
		jput_u64(groups, sys_group_key((enum sys_group)g), w->kernel_group_ns[g]);
	jput(o, "kernel_groups", groups);
	jput_u64(o, "runq_ns", w->bucket_ns[WB_RUNQ]);
	jput_u64(o, "iowait_ns", w->bucket_ns[WB_IOWAIT]);
	jput_u64(o, "other_ns", w->bucket_ns[WB_OTHER]);
	jput_u64(o, "unattributed_ns", w->unattributed_ns);
	return o;
}

static struct json_object *iowait_obj(const struct wall_view *w)
{
	struct json_object *o = json_object_new_object();

	for (unsigned nr = 0; nr <= MODEL_NR_NONE; nr++)
		if (w->by_nr[WB_IOWAIT][nr])
			jput_u64(o, syscall_name(nr), w->by_nr[WB_IOWAIT][nr]);
	return o;
}

static void add_facts(struct json_object *phase, const struct phase_facts *pf)
{
	struct json_object *facts = json_object_new_object(), *units = json_object_new_object();
	struct json_object *labels = json_object_new_object();

	for (int i = 0; i < pf->n && i < FACTS_MAX; i++) {
		const struct fact *f = &pf->f[i];

		jput(facts, f->key, jnumber(f->value));
		jput_str(units, f->key, f->unit);
		jput_str(labels, f->key, f->label);
	}
	jput(phase, "facts", facts);
	jput(phase, "fact_units", units);
	jput(phase, "fact_labels", labels);
}

static struct json_object *cpu_check_obj(const struct phase_result *p)
{
	struct json_object *o = json_object_new_object();
	uint64_t user = 0, kernel = 0;

	for (size_t i = 0; i < p->ncomms; i++) {
		user += p->comms[i].state_ns[IOWHY_TS_USER];
		kernel += p->comms[i].state_ns[IOWHY_TS_KERNEL];
	}
	jput_u64(o, "tree_cpu_ns", phase_cpu_ns(p));
	jput_u64(o, "rusage_cpu_ns", p->rusage_user_ns + p->rusage_sys_ns);
	jput_u64(o, "tree_user_ns", user);
	jput_u64(o, "tree_kernel_ns", kernel);
	jput_u64(o, "rusage_user_ns", p->rusage_user_ns);
	jput_u64(o, "rusage_sys_ns", p->rusage_sys_ns);
	if (p->task_clock_ok)
		jput_u64(o, "task_clock_ns", p->task_clock_ns);
	return o;
}

static struct json_object *comm_obj(const struct comm_stats *c)
{
	struct json_object *o = json_object_new_object();
	char name[IOWHY_COMM_LEN + 1];

	memcpy(name, c->comm, IOWHY_COMM_LEN);
	name[IOWHY_COMM_LEN] = '\0';
	jput_str(o, "comm", name);
	jput_u64(o, "tasks", c->tasks);
	jput_u64(o, "forks", c->forks);
	jput_u64(o, "execs", c->execs);
	jput_u64(o, "exits", c->exits);
	jput_u64(o, "user_ns", c->state_ns[IOWHY_TS_USER]);
	jput_u64(o, "kernel_ns", c->state_ns[IOWHY_TS_KERNEL]);
	jput_u64(o, "runq_ns", c->state_ns[IOWHY_TS_RUNQ]);
	jput_u64(o, "iowait_ns", c->state_ns[IOWHY_TS_DWAIT]);
	jput_u64(o, "other_ns", c->state_ns[IOWHY_TS_SWAIT]);
	jput_u64(o, "vol_switches", c->vol_switches);
	jput_u64(o, "invol_switches", c->invol_switches);
	jput_u64(o, "faults", c->faults);
	return o;
}

static struct json_object *comms_arr(const struct phase_result *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->ncomms; i++)
		json_object_array_add(a, comm_obj(&p->comms[i]));
	return a;
}

static struct json_object *syscall_obj(unsigned nr, const struct iowhy_sys_stat *st)
{
	struct json_object *o = json_object_new_object();

	jput(o, "name", json_object_new_string(syscall_name(nr)));
	jput_i64(o, "nr", nr);
	jput_u64(o, "count", st->count);
	jput_u64(o, "total_ns", st->total_ns);
	jput_u64(o, "oncpu_ns", sys_oncpu_ns(st));
	jput_u64(o, "avg_ns", st->count ? st->total_ns / st->count : 0);
	if (syscall_returns_bytes(nr))
		jput_u64(o, "bytes", st->ret_sum);
	jput_u64(o, "p50_ns", hist_percentile(st->hist, IOWHY_HIST_SLOTS, 50, st->max_ns));
	jput_u64(o, "p90_ns", hist_percentile(st->hist, IOWHY_HIST_SLOTS, 90, st->max_ns));
	jput_u64(o, "p99_ns", hist_percentile(st->hist, IOWHY_HIST_SLOTS, 99, st->max_ns));
	jput_u64(o, "max_ns", st->max_ns);
	jput(o, "hist", jhist(st->hist, IOWHY_HIST_SLOTS));
	jput(o, "group", json_object_new_string(sys_group_key(syscall_group(nr))));
	return o;
}

static struct json_object *syscalls_arr(const struct phase_result *p)
{
	struct json_object *a = json_object_new_array();
	unsigned nrs[IOWHY_NR_SLOTS];
	int n = phase_syscalls_by_total(p, nrs);

	for (int i = 0; i < n; i++)
		json_object_array_add(a, syscall_obj(nrs[i], &p->sys[nrs[i]]));
	return a;
}

static struct json_object *trace_obj(const struct phase_result *p)
{
	struct json_object *o = json_object_new_object();

	jput_u64(o, "events", p->events);
	jput_u64(o, "events_lost", p->events_lost);
	jput_u64(o, "out_of_order", p->out_of_order);
	jput_u64(o, "unknown_task", p->unknown_task);
	jput_u64(o, "clock_skew_events", p->clock_skew_events);
	jput_u64(o, "clock_skew_max_ns", p->clock_skew_max_ns);
	jput_u64(o, "tasks_left", p->tasks_left);
	jput_u64(o, "programs_run_ns", p->prog_run_ns);
	jput_u64(o, "programs_runs", p->prog_runs);
	jput_u64(o, "programs_stats_on_ns", p->prog_on_ns);
	jput_u64(o, "programs_stats_windows", p->prog_windows);
	jput_u64(o, "programs_missed_runs", p->prog_missed);
	if (p->prog_missed) {
		jput_str(o, "programs_missed_most", p->prog_missed_top_name);
		jput_u64(o, "programs_missed_most_runs", p->prog_missed_top);
	}
	jput_u64(o, "tracer_cpu_ns", p->tracer_cpu_ns);
	return o;
}

/* [{"name": "loop0", "ns": ...}, ..., {"name": "none", "ns": ...}]: nonzero entries only. */
static struct json_object *iowait_disk_arr(const struct phase_result *p, const char (*names)[32])
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i <= IOWHY_DISK_SLOTS; i++) {
		struct json_object *o;

		if (!p->wall.iowait_by_disk[i])
			continue;
		o = json_object_new_object();
		jput_str(o, "name", i < IOWHY_DISK_SLOTS ? names[i] : "none");
		jput_u64(o, "ns", p->wall.iowait_by_disk[i]);
		json_object_array_add(a, o);
	}
	return a;
}

/* The workload's FUSE waits in the wall view's wait buckets (wall_parts.h), longest first. */
static struct json_object *wall_fuse_arr(const struct phase_result *p)
{
	struct json_object *a = json_object_new_array();
	struct fuse_part parts[FUSE_PARTS_MAX];
	int n = wall_fuse_parts(p, parts, FUSE_PARTS_MAX);

	for (int i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();

		jput_str(o, "mount", parts[i].mount);
		jput_str(o, "opcode", parts[i].op);
		jput_str(o, "in", parts[i].bucket == WB_IOWAIT ? "iowait" : "other");
		jput_u64(o, "ns", (uint64_t)parts[i].ns); /* down: the parts stay within the bucket */
		json_object_array_add(a, o);
	}
	return a;
}

/* The headline user/kernel split of the phase's CPU (cpu_split.h). */
static struct json_object *cpu_split_obj(const struct phase_result *p)
{
	struct json_object *o = json_object_new_object();
	struct cpu_split cs;

	cpu_split_of(p, &cs);
	jput_str(o, "state", cpu_split_state_name(cs.state));
	jput_u64(o, "samples", cs.samples);
	jput_u64(o, "outside_syscalls_ns", (uint64_t)(cs.outside_ns + 0.5));
	jput_u64(o, "kernel_in_syscalls_ns", (uint64_t)(cs.traced_kernel_ns + 0.5));
	if (cpu_split_shown(&cs)) {
		jput_u64(o, "user_ns", (uint64_t)(cs.user_ns + 0.5));
		jput_u64(o, "kernel_ns", (uint64_t)(cs.kernel_ns + 0.5));
		jput_u64(o, "err_ns", (uint64_t)(cs.err_ns + 0.5));
	} else {
		jput(o, "user_ns", NULL);
		jput(o, "kernel_ns", NULL);
		jput(o, "err_ns", NULL);
		jput_u64(o, "samples_needed", (uint64_t)(cs.needed_samples + 0.5));
	}
	return o;
}

static struct json_object *phase_obj(const struct phase_result *p, const char (*disk_names)[32],
				     const struct phase_summary *ps)
{
	struct json_object *o = json_object_new_object();

	jput_str(o, "name", p->name);
	jput_str(o, "column", p->column[0] ? p->column : p->name);
	jput(o, "kind", json_object_new_string(p->kind == PHASE_FLUSH ? "flush" : "work"));
	jput_i64(o, "status", p->status);
	jput_bool(o, "partial", p->partial);
	jput_u64(o, "wall_ns", wall_ns(&p->wall));
	jput(o, "wall", wall_obj(&p->wall));
	/* lost events in the phase: the wall and work views are not a measurement (summary.h) */
	jput_bool(o, "wall_measured", !(ps && ps->wall_unmeasured));
	jput(o, "cpu_split", cpu_split_obj(p));
	jput(o, "iowait_by_syscall", iowait_obj(&p->wall));
	jput(o, "iowait_by_device", iowait_disk_arr(p, disk_names));
	jput(o, "wall_fuse_waits", wall_fuse_arr(p));
	add_facts(o, &p->facts);
	jput(o, "cpu_check", cpu_check_obj(p));
	jput(o, "trace", trace_obj(p));
	if (ps) /* the slowdown the header's warning states (whether or not it is shown) */
		jput_u64(json_object_object_get(o, "trace"), "tracing_cost_ns", ps->tracing_cost_ns);
	jput(o, "comms", comms_arr(p));
	jput(o, "syscalls", p->lite ? NULL : syscalls_arr(p)); /* --lite: not available */
	report_attach_json(o, p, disk_names);
	if (p->io && ps)
		io_report_json(o, p, ps);
	cpu_report_json(o, p);
	fuse_report_json(o, p);
	return o;
}

/* The explanation's texts, one string per sentence (group). */
static struct json_object *explanation_arr(const struct explanation *e)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; e && i < e->n; i++)
		json_object_array_add(a, json_object_new_string(e->s[i].text));
	return a;
}

/* The same sentences with their kind and the numbers they state. */
static struct json_object *sentences_arr(const struct explanation *e)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; e && i < e->n; i++) {
		const struct sentence *se = &e->s[i];
		struct json_object *o = json_object_new_object(), *nums = json_object_new_object();

		jput_str(o, "kind", se->kind);
		jput_str(o, "text", se->text);
		for (int k = 0; k < se->nnums; k++)
			jput(nums, se->num[k].key, jnumber(se->num[k].value));
		jput(o, "numbers", nums);
		json_object_array_add(a, o);
	}
	return a;
}

/* The side-by-side columns: their phases and the workload's headline figures. */
static struct json_object *columns_arr(const struct session_result *s,
				       const struct session_summary *sum)
{
	struct json_object *a = json_object_new_array();

	for (int c = 0; sum && c < sum->ncols; c++) {
		const struct column *col = &sum->cols[c];
		struct json_object *o = json_object_new_object(), *w = json_object_new_array();
		struct json_object *f = json_object_new_array(), *h = json_object_new_object();

		jput_str(o, "name", col->name);
		for (int i = 0; i < col->nwork; i++)
			json_object_array_add(w, json_object_new_string(s->phases[col->work[i]].name));
		for (int i = 0; i < col->nflush; i++)
			json_object_array_add(f, json_object_new_string(s->phases[col->flush[i]].name));
		jput(o, "work_phases", w);
		jput(o, "flush_phases", f);
		for (int k = 0; k < sum->nhead; k++)
			if (sum->head[k].value[c] >= 0)
				jput(h, sum->head[k].key, jnumber(sum->head[k].value[c]));
		jput(o, "headline", h);
		json_object_array_add(a, o);
	}
	return a;
}

/* One object per disk over the whole session (the default text report's device lines). */
static struct json_object *disks_arr(const struct session_summary *sum)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; sum && i < sum->ndisks; i++) {
		const struct disk_line *d = &sum->disks[i];
		struct json_object *o = json_object_new_object();

		jput_str(o, "name", d->name);
		jput_u64(o, "window_ns", d->window_ns);
		jput_u64(o, "busy_ns", d->busy_ns);
		jput_u64(o, "requests", d->requests);
		jput_u64(o, "missed_completions", d->missed);
		jput_bool(o, "busy_exact", !d->missed);
		jput_u64(o, "read_bytes", d->read_bytes);
		jput_u64(o, "write_bytes", d->write_bytes);
		jput_u64(o, "workload_bytes", d->workload_bytes);
		jput_u64(o, "iowait_ns", d->iowait_ns);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *session_obj(const struct session_result *s)
{
	struct json_object *o = json_object_new_object(), *phases = json_object_new_array();
	const struct session_summary *sum = s->summary;

	jput_i64(o, "schema_version", REPORT_SCHEMA_VERSION);
	jput_str(o, "tool", s->tool ? s->tool : "");
	jput_str(o, "command", s->command);
	jput_str(o, "kernel", s->kernel);
	jput_str(o, "probe_mode", s->probe_mode);
	jput_bool(o, "partial", s->partial);
	jput_u64(o, "setup_ns", s->setup_ns);       /* untraced, before the phases */
	jput_u64(o, "teardown_ns", s->teardown_ns); /* untraced, after them: checks and removal */
	jput(o, "events", events_obj(s));
	jput(o, "missing_probes", jprobe_names(&s->missing));
	jput(o, "probes", probes_obj(s));
	for (int i = 0; i < s->nphases; i++)
		json_object_array_add(phases, phase_obj(&s->phases[i], s->disk_names,
							sum ? &sum->phases[i] : NULL));
	jput(o, "phases", phases);
	jput(o, "columns", columns_arr(s, sum));
	jput(o, "disks", disks_arr(sum));
	jput(o, "stacks", io_report_stacks_json(sum));
	jput(o, "verdicts", io_report_verdicts_json(sum));
	jput(o, "verdicts_withdrawn", io_report_verdicts_withdrawn_json(sum));
	jput(o, "verdict_inputs", io_report_verdict_inputs_json(sum));
	jput(o, "explanation", explanation_arr(sum ? &sum->expl : NULL));
	jput(o, "explanation_sentences", sentences_arr(sum ? &sum->expl : NULL));
	return o;
}

/* ---- Output ---- */

/* Write text to f (named `name` in messages); closes f unless it is stdout. */
static int write_text(FILE *f, const char *name, const char *text)
{
	int to_stdout = f == stdout;
	int err = 0;

	errno = 0;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		err = errno ? errno : EIO;
	if (fflush(f) == EOF && !err)
		err = errno ? errno : EIO;
	if (!to_stdout && fclose(f) == EOF && !err)
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "iowhy: cannot write JSON report '%s': %s\n", name, strerror(err));
		return -1;
	}
	return 0;
}

int report_json_file(FILE *f, const char *name, const struct session_result *s)
{
	struct json_object *root = session_obj(s);
	const char *text;
	int ret;

	if (!root) {
		fprintf(stderr, "iowhy: cannot build JSON report: out of memory\n");
		if (f != stdout)
			fclose(f);
		return -1;
	}
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		fprintf(stderr, "iowhy: cannot build JSON report: out of memory\n");
		json_object_put(root);
		if (f != stdout)
			fclose(f);
		return -1;
	}
	ret = write_text(f, name, text);
	json_object_put(root);
	return ret;
}

/* --json -: to standard output (a file is opened by the engine: outfile_open). */
int report_json_stdout(const struct session_result *s)
{
	return report_json_file(stdout, "-", s);
}
