// SPDX-License-Identifier: GPL-2.0
/* The JSON report (docs/json.md), built with json-c: the library does all the escaping. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "io_report.h"
#include "report.h"
#include "columns.h"
#include "explain.h"
#include "syscalls.h"
#include "hist.h"

#define EXPLAIN_LEN 8192

/* ---- Small builders ---- */

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	put(o, key, json_object_new_uint64(v));
}

static void put_int(struct json_object *o, const char *key, int64_t v)
{
	put(o, key, json_object_new_int64(v));
}

static void put_bool(struct json_object *o, const char *key, int v)
{
	put(o, key, json_object_new_boolean(v != 0));
}

/* Strings come from the kernel (comms) or the user (command): made valid UTF-8 first. */
static void put_str(struct json_object *o, const char *key, const char *s)
{
	size_t n = strlen(s) + 1;
	char *clean = malloc(n);

	if (!clean) {
		put(o, key, json_object_new_string(""));
		return;
	}
	clean_text(clean, n, s);
	put(o, key, json_object_new_string(clean));
	free(clean);
}

/* A whole number as an integer, anything else as a double (JSON has no NaN: null). */
static struct json_object *number(double v)
{
	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

/* ---- Session header ---- */

static struct json_object *events_obj(const struct session_result *s)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "total", s->events_total);
	put_u64(o, "lost", s->events_lost);
	put_u64(o, "storage_failed", s->storage_failed);
	put_u64(o, "nr_folded", s->nr_folded);
	return o;
}

/* "a, b,c" -> ["a","b","c"] */
static struct json_object *missing_arr(const char *missing)
{
	struct json_object *a = json_object_new_array();
	char item[sizeof(((struct session_result *)0)->missing)];
	const char *p = missing;

	while (*p) {
		size_t len = strcspn(p, ",");
		size_t start = strspn(p, " ");

		if (start < len) {
			size_t end = len;

			while (end > start && p[end - 1] == ' ')
				end--;
			snprintf(item, sizeof(item), "%.*s", (int)(end - start), p + start);
			json_object_array_add(a, json_object_new_string(item));
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return a;
}

/* ---- One phase ---- */

static struct json_object *wall_obj(const struct wall_view *w)
{
	struct json_object *o = json_object_new_object(), *groups = json_object_new_object();

	put_u64(o, "user_ns", w->bucket_ns[WB_USER]);
	put_u64(o, "kernel_ns", w->bucket_ns[WB_KERNEL]);
	for (int g = 0; g < SG_COUNT; g++)
		put_u64(groups, sys_group_key((enum sys_group)g), w->kernel_group_ns[g]);
	put(o, "kernel_groups", groups);
	put_u64(o, "runq_ns", w->bucket_ns[WB_RUNQ]);
	put_u64(o, "iowait_ns", w->bucket_ns[WB_IOWAIT]);
	put_u64(o, "other_ns", w->bucket_ns[WB_OTHER]);
	put_u64(o, "unattributed_ns", w->unattributed_ns);
	return o;
}

static struct json_object *iowait_obj(const struct wall_view *w)
{
	struct json_object *o = json_object_new_object();

	for (unsigned nr = 0; nr <= MODEL_NR_NONE; nr++)
		if (w->by_nr[WB_IOWAIT][nr])
			put_u64(o, syscall_name(nr), w->by_nr[WB_IOWAIT][nr]);
	return o;
}

static void add_facts(struct json_object *phase, const struct phase_facts *pf)
{
	struct json_object *facts = json_object_new_object(), *units = json_object_new_object();

	for (int i = 0; i < pf->n && i < FACTS_MAX; i++) {
		const struct fact *f = &pf->f[i];

		put(facts, f->key, number(f->value));
		put_str(units, f->key, f->unit);
	}
	put(phase, "facts", facts);
	put(phase, "fact_units", units);
}

static struct json_object *cpu_check_obj(const struct phase_result *p)
{
	struct json_object *o = json_object_new_object();
	uint64_t user = 0, kernel = 0;

	for (size_t i = 0; i < p->ncomms; i++) {
		user += p->comms[i].state_ns[IOWHY_TS_USER];
		kernel += p->comms[i].state_ns[IOWHY_TS_KERNEL];
	}
	put_u64(o, "tree_cpu_ns", phase_cpu_ns(p));
	put_u64(o, "rusage_cpu_ns", p->rusage_user_ns + p->rusage_sys_ns);
	put_u64(o, "tree_user_ns", user);
	put_u64(o, "tree_kernel_ns", kernel);
	put_u64(o, "rusage_user_ns", p->rusage_user_ns);
	put_u64(o, "rusage_sys_ns", p->rusage_sys_ns);
	return o;
}

static struct json_object *comm_obj(const struct comm_stats *c)
{
	struct json_object *o = json_object_new_object();
	char name[IOWHY_COMM_LEN + 1];

	memcpy(name, c->comm, IOWHY_COMM_LEN);
	name[IOWHY_COMM_LEN] = '\0';
	put_str(o, "comm", name);
	put_u64(o, "tasks", c->tasks);
	put_u64(o, "forks", c->forks);
	put_u64(o, "execs", c->execs);
	put_u64(o, "exits", c->exits);
	put_u64(o, "user_ns", c->state_ns[IOWHY_TS_USER]);
	put_u64(o, "kernel_ns", c->state_ns[IOWHY_TS_KERNEL]);
	put_u64(o, "runq_ns", c->state_ns[IOWHY_TS_RUNQ]);
	put_u64(o, "iowait_ns", c->state_ns[IOWHY_TS_DWAIT]);
	put_u64(o, "other_ns", c->state_ns[IOWHY_TS_SWAIT]);
	put_u64(o, "vol_switches", c->vol_switches);
	put_u64(o, "invol_switches", c->invol_switches);
	put_u64(o, "faults", c->faults);
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

	put(o, "name", json_object_new_string(syscall_name(nr)));
	put_int(o, "nr", nr);
	put_u64(o, "count", st->count);
	put_u64(o, "total_ns", st->total_ns);
	put_u64(o, "oncpu_ns", st->oncpu_ns);
	put_u64(o, "avg_ns", st->count ? st->total_ns / st->count : 0);
	if (syscall_returns_bytes(nr))
		put_u64(o, "bytes", st->ret_sum);
	put_u64(o, "p50_ns", hist_percentile(st->hist, IOWHY_HIST_SLOTS, 50, st->max_ns));
	put_u64(o, "p90_ns", hist_percentile(st->hist, IOWHY_HIST_SLOTS, 90, st->max_ns));
	put_u64(o, "p99_ns", hist_percentile(st->hist, IOWHY_HIST_SLOTS, 99, st->max_ns));
	put_u64(o, "max_ns", st->max_ns);
	put(o, "group", json_object_new_string(sys_group_key(syscall_group(nr))));
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

	put_u64(o, "events", p->events);
	put_u64(o, "out_of_order", p->out_of_order);
	put_u64(o, "unknown_task", p->unknown_task);
	put_u64(o, "tasks_left", p->tasks_left);
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
		put_str(o, "name", i < IOWHY_DISK_SLOTS ? names[i] : "none");
		put_u64(o, "ns", p->wall.iowait_by_disk[i]);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *phase_obj(const struct phase_result *p, const char (*disk_names)[32])
{
	struct json_object *o = json_object_new_object();

	put_str(o, "name", p->name);
	put_str(o, "column", p->column[0] ? p->column : p->name);
	put(o, "kind", json_object_new_string(p->kind == PHASE_FLUSH ? "flush" : "work"));
	put_int(o, "status", p->status);
	put_bool(o, "partial", p->partial);
	put_u64(o, "wall_ns", wall_ns(&p->wall));
	put(o, "wall", wall_obj(&p->wall));
	put(o, "iowait_by_syscall", iowait_obj(&p->wall));
	put(o, "iowait_by_device", iowait_disk_arr(p, disk_names));
	add_facts(o, &p->facts);
	put(o, "cpu_check", cpu_check_obj(p));
	put(o, "trace", trace_obj(p));
	put(o, "comms", comms_arr(p));
	put(o, "syscalls", syscalls_arr(p));
	if (p->io)
		io_report_json(o, p);
	return o;
}

static struct json_object *explanation_arr(const struct session_result *s)
{
	struct json_object *a = json_object_new_array();
	char *buf = malloc(EXPLAIN_LEN), *line, *save = NULL;

	if (!buf)
		return a;
	explain(s, buf, EXPLAIN_LEN);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		json_object_array_add(a, json_object_new_string(line));
	free(buf);
	return a;
}

static struct json_object *session_obj(const struct session_result *s)
{
	struct json_object *o = json_object_new_object(), *phases = json_object_new_array();

	put_int(o, "schema_version", REPORT_SCHEMA_VERSION);
	put_str(o, "tool", s->tool ? s->tool : "");
	put_str(o, "command", s->command);
	put_str(o, "kernel", s->kernel);
	put_str(o, "probe_mode", s->probe_mode);
	put_bool(o, "partial", s->partial);
	put(o, "events", events_obj(s));
	put(o, "missing_probes", missing_arr(s->missing));
	for (int i = 0; i < s->nphases; i++)
		json_object_array_add(phases, phase_obj(&s->phases[i], s->disk_names));
	put(o, "phases", phases);
	put(o, "explanation", explanation_arr(s));
	return o;
}

/* ---- Output ---- */

static int write_text(const char *path, const char *text)
{
	int to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	int err = 0;

	if (!f) {
		fprintf(stderr, "iowhy: cannot write JSON report '%s': %s\n", path, strerror(errno));
		return -1;
	}
	errno = 0;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		err = errno ? errno : EIO;
	if (fflush(f) == EOF && !err)
		err = errno ? errno : EIO;
	if (!to_stdout && fclose(f) == EOF && !err)
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "iowhy: cannot write JSON report '%s': %s\n", path, strerror(err));
		return -1;
	}
	return 0;
}

int report_json(const char *path, const struct session_result *s)
{
	struct json_object *root = session_obj(s);
	const char *text;
	int ret;

	if (!root) {
		fprintf(stderr, "iowhy: cannot build JSON report: out of memory\n");
		return -1;
	}
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		fprintf(stderr, "iowhy: cannot build JSON report: out of memory\n");
		json_object_put(root);
		return -1;
	}
	ret = write_text(path, text);
	json_object_put(root);
	return ret;
}
