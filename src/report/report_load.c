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

/* ---- Members ---- */

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static uint64_t u64(struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key);

	return v ? json_object_get_uint64(v) : 0;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t alen(struct json_object *a)
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
	for (size_t i = 0; i < alen(a) && t->nprogs < LOADED_PROGRAMS_MAX; i++) {
		struct json_object *m = json_object_array_get_idx(a, i);
		struct loaded_program *p = &t->progs[t->nprogs++];

		snprintf(p->probe, sizeof(p->probe), "%s", str(m, "probe"));
		snprintf(p->prog, sizeof(p->prog), "%s", str(m, "program"));
		snprintf(p->set, sizeof(p->set), "%s", str(m, "set"));
		p->verified_insns = (uint32_t)u64(m, "verified_insns");
		p->verify_ns = u64(m, "verify_ns");
	}
}

static void load_header(struct json_object *r, struct session_result *s)
{
	struct json_object *ev = member(r, "events"), *probes = member(r, "probes");
	struct json_object *miss = member(probes, "missing");

	snprintf(s->command, sizeof(s->command), "%s", str(r, "command"));
	snprintf(s->kernel, sizeof(s->kernel), "%s", str(r, "kernel"));
	snprintf(s->probe_mode, sizeof(s->probe_mode), "%s", str(r, "probe_mode"));
	s->partial = json_object_get_boolean(member(r, "partial"));
	s->events_total = u64(ev, "total");
	s->events_lost = u64(ev, "lost");
	s->storage_failed = u64(ev, "storage_failed");
	s->nr_folded = u64(ev, "nr_folded");
	s->setup_ns = u64(r, "setup_ns");
	s->teardown_ns = u64(r, "teardown_ns");
	s->probe_times.load_ns = u64(probes, "load_ns");
	s->probe_times.attach_ns = u64(probes, "attach_ns");
	s->probe_times.detach_ns = u64(probes, "detach_ns");
	s->probe_times.load_cpu_ns = u64(probes, "load_cpu_ns");
	load_programs(member(probes, "programs"), &s->probe_times);
	for (size_t i = 0; i < alen(miss); i++) {
		struct json_object *m = json_object_array_get_idx(miss, i);

		missing_probes_add(&s->missing, str(m, "name"), state_of(str(m, "reason")),
				   errno_of(str(m, "error")));
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
	struct json_object *w = member(ph, "wall"), *g = member(w, "kernel_groups");
	struct json_object *by_dev = member(ph, "iowait_by_device");
	struct wall_view *v = &p->wall;

	v->start_ns = 0;
	v->end_ns = u64(ph, "wall_ns");
	v->bucket_ns[WB_USER] = u64(w, "user_ns");
	v->bucket_ns[WB_KERNEL] = u64(w, "kernel_ns");
	v->bucket_ns[WB_RUNQ] = u64(w, "runq_ns");
	v->bucket_ns[WB_IOWAIT] = u64(w, "iowait_ns");
	v->bucket_ns[WB_OTHER] = u64(w, "other_ns");
	v->unattributed_ns = u64(w, "unattributed_ns");
	for (int k = 0; k < SG_COUNT; k++)
		v->kernel_group_ns[k] = u64(g, sys_group_key((enum sys_group)k));
	json_object_object_foreach(member(ph, "iowait_by_syscall"), name, ns) {
		int nr = strcmp(name, syscall_name(MODEL_NR_NONE)) ? syscall_nr(name) : MODEL_NR_NONE;

		if (nr >= 0 && nr <= MODEL_NR_NONE)
			v->by_nr[WB_IOWAIT][nr] = json_object_get_uint64(ns);
	}
	for (size_t i = 0; i < alen(by_dev); i++) {
		struct json_object *d = json_object_array_get_idx(by_dev, i);
		const char *name = str(d, "name");
		int slot = strcmp(name, "none") ? disk_slot(s, name) : IOWHY_DISK_SLOTS;

		if (slot >= 0)
			v->iowait_by_disk[slot] += u64(d, "ns");
	}
}

static void load_facts(struct json_object *ph, struct phase_result *p)
{
	struct json_object *units = member(ph, "fact_units");

	json_object_object_foreach(member(ph, "facts"), key, val) {
		struct fact *f;

		if (p->facts.n >= FACTS_MAX)
			break;
		f = &p->facts.f[p->facts.n++];
		snprintf(f->key, sizeof(f->key), "%s", key);
		snprintf(f->label, sizeof(f->label), "%s", key); /* the JSON keeps no labels */
		snprintf(f->unit, sizeof(f->unit), "%s", str(units, key));
		f->value = val ? json_object_get_double(val) : 0;
	}
}

static int load_comms(struct json_object *ph, struct phase_result *p)
{
	struct json_object *a = member(ph, "comms");
	size_t n = alen(a);

	p->comms = calloc(n ? n : 1, sizeof(*p->comms));
	if (!p->comms)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct comm_stats *c = &p->comms[i];

		strncpy(c->comm, str(o, "comm"), IOWHY_COMM_LEN - 1);
		c->tasks = (uint32_t)u64(o, "tasks");
		c->forks = (uint32_t)u64(o, "forks");
		c->execs = (uint32_t)u64(o, "execs");
		c->exits = (uint32_t)u64(o, "exits");
		c->state_ns[IOWHY_TS_USER] = u64(o, "user_ns");
		c->state_ns[IOWHY_TS_KERNEL] = u64(o, "kernel_ns");
		c->state_ns[IOWHY_TS_RUNQ] = u64(o, "runq_ns");
		c->state_ns[IOWHY_TS_DWAIT] = u64(o, "iowait_ns");
		c->state_ns[IOWHY_TS_SWAIT] = u64(o, "other_ns");
		c->vol_switches = u64(o, "vol_switches");
		c->invol_switches = u64(o, "invol_switches");
		c->faults = u64(o, "faults");
	}
	p->ncomms = n;
	return 0;
}

static void load_syscalls(struct json_object *ph, struct phase_result *p)
{
	struct json_object *a = member(ph, "syscalls");

	for (size_t i = 0; i < alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		uint64_t nr = u64(o, "nr");
		struct iowhy_sys_stat *st;

		if (nr >= IOWHY_NR_SLOTS)
			continue;
		st = &p->sys[nr];
		st->count = u64(o, "count");
		st->total_ns = u64(o, "total_ns");
		st->oncpu_ns = u64(o, "oncpu_ns");
		st->max_ns = u64(o, "max_ns");
		st->ret_sum = u64(o, "bytes");
	}
}

static int load_phase(struct json_object *ph, struct phase_result *p, struct session_result *s)
{
	struct json_object *cpu = member(ph, "cpu_check"), *tr = member(ph, "trace");

	snprintf(p->name, sizeof(p->name), "%s", str(ph, "name"));
	snprintf(p->column, sizeof(p->column), "%s", str(ph, "column"));
	p->kind = strcmp(str(ph, "kind"), "flush") ? PHASE_WORK : PHASE_FLUSH;
	p->status = (int)json_object_get_int(member(ph, "status"));
	p->partial = json_object_get_boolean(member(ph, "partial"));
	load_wall(ph, p, s);
	load_facts(ph, p);
	p->rusage_user_ns = u64(cpu, "rusage_user_ns");
	p->rusage_sys_ns = u64(cpu, "rusage_sys_ns");
	p->events = u64(tr, "events");
	p->out_of_order = u64(tr, "out_of_order");
	p->unknown_task = u64(tr, "unknown_task");
	p->tasks_left = u64(tr, "tasks_left");
	load_syscalls(ph, p);
	if (member(ph, "io") && !(p->io = report_load_io(member(ph, "io"), &s->missing)))
		return -1;
	return load_comms(ph, p);
}

/* ---- The summary the run computed ---- */

static void load_disks(struct json_object *r, struct session_summary *sum)
{
	struct json_object *a = member(r, "disks");

	sum->ndisks = 0;
	for (size_t i = 0; i < alen(a) && sum->ndisks < SUMMARY_DISKS; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct disk_line *d = &sum->disks[sum->ndisks++];

		snprintf(d->name, sizeof(d->name), "%s", str(o, "name"));
		d->window_ns = u64(o, "window_ns");
		d->busy_ns = u64(o, "busy_ns");
		d->requests = u64(o, "requests");
		d->read_bytes = u64(o, "read_bytes");
		d->write_bytes = u64(o, "write_bytes");
		d->workload_bytes = u64(o, "workload_bytes");
		d->iowait_ns = u64(o, "iowait_ns");
	}
}

static void load_explanation(struct json_object *r, struct explanation *e)
{
	struct json_object *a = member(r, "explanation_sentences");

	e->n = 0;
	for (size_t i = 0; i < alen(a) && e->n < EXPLAIN_MAX; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct sentence *se = &e->s[e->n++];

		snprintf(se->kind, sizeof(se->kind), "%s", str(o, "kind"));
		snprintf(se->text, sizeof(se->text), "%s", str(o, "text"));
		se->nnums = 0;
		json_object_object_foreach(member(o, "numbers"), key, val) {
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
	struct json_object *phases = member(r, "phases");

	if (summary_compute(s))
		return -1;
	for (int i = 0; i < s->nphases; i++)
		report_load_layers(member(json_object_array_get_idx(phases, i), "io"),
				   &s->summary->phases[i]);
	load_disks(r, s->summary);
	load_explanation(r, &s->summary->expl);
	return 0;
}

/* ---- API ---- */

int report_load(const char *path, struct session_result *s, char *err, size_t errlen)
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
	phases = member(r, "phases");
	if (!json_object_is_type(r, json_type_object) || !member(r, "schema_version") ||
	    !alen(phases) || !member(r, "tool")) {
		snprintf(err, errlen, "not an iowhy JSON report (no schema_version, tool or phases)");
		json_object_put(r);
		return -1;
	}
	if (u64(r, "schema_version") != REPORT_SCHEMA_VERSION) {
		snprintf(err, errlen, "schema version %llu; this iowhy reads version %d",
			 (unsigned long long)u64(r, "schema_version"), REPORT_SCHEMA_VERSION);
		json_object_put(r);
		return -1;
	}
	s->tool = strdup(str(r, "tool"));
	s->phases = calloc(alen(phases), sizeof(*s->phases));
	if (!s->tool || !s->phases)
		rc = -2;
	load_header(r, s);
	for (size_t i = 0; !rc && i < alen(phases) && i < SESSION_MAX_PHASES; i++) {
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
		io_result_free(s->phases[i].io);
	}
	free(s->phases);
	free((char *)s->tool);
	memset(s, 0, sizeof(*s));
}
