// SPDX-License-Identifier: GPL-2.0
/* One live interval as one JSON line (--json-lines; docs/json.md). */
#include <string.h>
#include "cpu_split.h"
#include "interval_out.h"
#include "json_put.h"
#include "syscalls.h"

static const char *const bucket_keys[WB_COUNT] = { "user_ns", "kernel_ns", "runq_ns", "iowait_ns",
						   "other_ns" };

static struct json_object *wall_obj(const struct interval_sample *s)
{
	struct json_object *w = json_object_new_object(), *g = json_object_new_object();

	for (int k = 0; k < WB_COUNT; k++)
		jput_u64(w, bucket_keys[k], s->bucket_ns[k]);
	jput_u64(w, "unattributed_ns", s->unattributed_ns);
	for (int k = 0; k < SG_COUNT; k++)
		jput_u64(g, sys_group_key((enum sys_group)k), s->kernel_group_ns[k]);
	jput(w, "kernel_groups", s->lite ? NULL : g);
	if (s->lite)
		json_object_put(g);
	return w;
}

/* The interval's user/kernel split by CPU samples (null without a sampler); the figures are null
 * unless it is shown (state exact or sampled), as in a report's phases[].cpu_split. */
static struct json_object *split_obj(const struct interval_sample *s)
{
	const struct iv_split *c = &s->split;
	int shown = c->state == CPU_SPLIT_EXACT || c->state == CPU_SPLIT_SAMPLED;
	struct json_object *o;

	if (!c->sampled)
		return NULL;
	o = json_object_new_object();
	jput_str(o, "state", cpu_split_state_name((enum cpu_split_state)c->state));
	jput_u64(o, "samples", c->samples);
	jput(o, "user_ns", shown ? json_object_new_int64((int64_t)(c->user_ns + 0.5)) : NULL);
	jput(o, "kernel_ns", shown ? json_object_new_int64((int64_t)(c->kernel_ns + 0.5)) : NULL);
	jput(o, "err_ns", shown ? json_object_new_int64((int64_t)(c->err_ns + 0.5)) : NULL);
	jput(o, "samples_needed",
	     shown ? NULL : json_object_new_int64((int64_t)(c->needed_samples + 0.5)));
	/* since the start: every interval's estimate summed, errors in quadrature (the counters) */
	jput_u64(o, "total_user_ns", (uint64_t)(s->total_user_ns + 0.5));
	jput_u64(o, "total_kernel_ns", (uint64_t)(s->total_kernel_ns + 0.5));
	jput_u64(o, "total_err_ns", (uint64_t)(s->total_split_err_ns + 0.5));
	return o;
}

static struct json_object *devs_arr(const struct interval_sample *s)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < s->ndevs; i++) {
		const struct iv_dev *d = &s->devs[i];
		struct json_object *o = json_object_new_object();

		jput_str(o, "name", d->name);
		jput_dbl(o, "iops", d->iops);
		jput_dbl(o, "mib_per_s", d->mib_s);
		jput(o, "p99_ns", d->p99_ns ? jnumber((double)d->p99_ns) : NULL);
		jput_dbl(o, "queue_depth", d->queue_depth);
		jput_dbl(o, "busy_pct", d->busy_pct);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *procs_arr(const struct interval_sample *s)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < s->nprocs; i++) {
		const struct iv_proc *p = &s->procs[i];
		struct json_object *o = json_object_new_object();

		jput_u64(o, "pid", p->pid);
		jput_str(o, "comm", p->comm);
		jput_u64(o, "ns", p->ns);
		for (int k = 0; k < WB_COUNT; k++)
			jput_u64(o, bucket_keys[k], p->bucket_ns[k]);
		json_object_array_add(a, o);
	}
	return a;
}

/* -a / --cgroup: the busiest cgroups of the interval (bytes null under --lite). */
static struct json_object *cgroups_arr(const struct interval_sample *s)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < s->ncgroups; i++) {
		const struct iv_cgroup *g = &s->cgroups[i];
		struct json_object *o = json_object_new_object();

		jput_str(o, "path", g->path);
		jput_u64(o, "processes", g->nprocs);
		jput_u64(o, "ns", g->ns);
		for (int k = 0; k < WB_COUNT; k++)
			jput_u64(o, bucket_keys[k], g->bucket_ns[k]);
		jput(o, "read_bytes", s->lite ? NULL : json_object_new_int64((int64_t)g->read_bytes));
		jput(o, "write_bytes", s->lite ? NULL : json_object_new_int64((int64_t)g->write_bytes));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *slowest_obj(const struct interval_sample *s)
{
	struct json_object *o;

	if (s->lite || !s->slowest.ns)
		return NULL;
	o = json_object_new_object();
	jput_str(o, "syscall", syscall_name(s->slowest.nr));
	jput_u64(o, "ns", s->slowest.ns);
	jput_u64(o, "tid", s->slowest.tid);
	jput_str(o, "comm", s->slowest.comm);
	return o;
}

int interval_json_line(FILE *out, const struct interval_sample *s)
{
	struct json_object *o = json_object_new_object();
	int rc;

	jput_u64(o, "seq", s->seq);
	jput_bool(o, "final", s->final);
	jput_str(o, "target", s->target);
	jput_dbl(o, "time", s->unix_time);
	jput_u64(o, "start_ns", s->start_ns);
	jput_u64(o, "end_ns", s->end_ns);
	jput_u64(o, "interval_ns", s->end_ns - s->start_ns);
	jput(o, "wall", wall_obj(s));
	jput(o, "cpu_split", split_obj(s));
	jput(o, "devices", devs_arr(s));
	jput_u64(o, "dirty_bytes", s->dirty_bytes);
	jput_u64(o, "writeback_bytes", s->writeback_bytes);
	jput(o, "slowest_call", slowest_obj(s));
	jput(o, "processes", procs_arr(s));
	jput(o, "cgroups", cgroups_arr(s));
	jput_bool(o, "lite", s->lite);
	rc = fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)) < 0 ||
	     fflush(out) ? -1 : 0;
	json_object_put(o);
	return rc;
}
