// SPDX-License-Identifier: GPL-2.0
/* CPU samples to JSON and back; see cpu_raw_json.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cpu_raw_json.h"
#include "cpu_samples.h"
#include "json_put.h"
#include "report_load.h"

/* ---- Out ---- */

/* A stack index: -1 for none. */
static struct json_object *stack_id(uint32_t s)
{
	return json_object_new_int64(s == CS_NONE ? -1 : (int64_t)s);
}

static struct json_object *stacks_arr(const struct cpu_samples *cs)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < cs->nstacks; i++) {
		struct json_object *o = json_object_new_object(), *f = json_object_new_array();

		for (uint32_t k = 0; k < cs->stacks[i].n; k++)
			json_object_array_add(f, json_object_new_uint64(cs->stacks[i].fn[k]));
		jput(o, "frames", f);
		jput_u64(o, "unresolved", cs->stacks[i].unresolved);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *rows_arr(const struct cpu_samples *cs)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		struct json_object *o = json_object_new_object();
		char comm[sizeof(r->comm) + 1];

		memcpy(comm, r->comm, sizeof(r->comm));
		comm[sizeof(r->comm)] = '\0';
		jput_u64(o, "count", r->count);
		jput_u64(o, "nr", r->nr);
		jput_bool(o, "kernel_mode", r->kernel_mode);
		jput_bool(o, "in_syscall", r->in_syscall);
		jput_str(o, "comm", comm);
		jput(o, "kstack", stack_id(r->kstack));
		jput(o, "ustack", stack_id(r->ustack));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *waits_arr(const struct cpu_samples *cs)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < cs->nwaits; i++) {
		const struct cs_wait *w = &cs->waits[i];
		struct json_object *o = json_object_new_object();
		char comm[sizeof(w->comm) + 1];

		memcpy(comm, w->comm, sizeof(w->comm));
		comm[sizeof(w->comm)] = '\0';
		jput_u64(o, "count", w->count);
		jput_u64(o, "ns", w->ns);
		jput_str(o, "comm", comm);
		jput(o, "kstack", stack_id(w->kstack));
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *cpu_raw_json(const struct cpu_samples *cs)
{
	struct json_object *o = json_object_new_object(), *names = json_object_new_array();

	for (size_t i = 0; i < cs->nnames; i++)
		json_object_array_add(names, json_object_new_string(cs->names[i]));
	jput(o, "names", names);
	jput(o, "stacks", stacks_arr(cs));
	jput(o, "rows", rows_arr(cs));
	jput(o, "waits", waits_arr(cs));
	return o;
}

/* ---- Back ---- */

static void comm_of(struct json_object *o, char *comm, size_t n)
{
	struct json_object *c = rl_member(o, "comm");

	memset(comm, 0, n);
	if (c)
		snprintf(comm, n, "%s", json_object_get_string(c));
}

/* A stack index of the JSON through map (the JSON's index -> ours); CS_NONE for -1 or unknown. */
static uint32_t stack_of(struct json_object *o, const char *key, const uint32_t *map, size_t n)
{
	int64_t v = json_object_get_int64(rl_member(o, key));

	return v >= 0 && (size_t)v < n ? map[v] : CS_NONE;
}

/* Names and stacks; map[i] is the index of the JSON's stack i. 0 or -1. */
static int load_stacks(struct cpu_samples *cs, struct json_object *raw, uint32_t *map)
{
	struct json_object *names = rl_member(raw, "names"), *st = rl_member(raw, "stacks");
	size_t nn = rl_alen(names);
	uint32_t *ids = malloc((nn ? nn : 1) * sizeof(*ids)), *fn = NULL;
	int rc = ids ? 0 : -1;

	for (size_t i = 0; !rc && i < nn; i++) {
		ids[i] = cpu_samples_name(cs, json_object_get_string(
						  json_object_array_get_idx(names, i)));
		rc = ids[i] == UINT32_MAX ? -1 : 0;
	}
	for (size_t i = 0; !rc && i < rl_alen(st); i++) {
		struct json_object *s = json_object_array_get_idx(st, i), *f = rl_member(s, "frames");
		uint32_t n = 0, *p = realloc(fn, (rl_alen(f) + 1) * sizeof(*fn));

		if (!p) {
			rc = -1;
			break;
		}
		fn = p;
		for (size_t k = 0; k < rl_alen(f); k++) {
			uint64_t x = json_object_get_uint64(json_object_array_get_idx(f, k));

			if (x < nn)
				fn[n++] = ids[x];
		}
		map[i] = cpu_samples_add_stack(cs, fn, n, (uint32_t)rl_u64(s, "unresolved"));
		rc = map[i] == CS_NONE ? -1 : 0;
	}
	free(fn);
	free(ids);
	return rc;
}

static int load_rows(struct cpu_samples *cs, struct json_object *raw, const uint32_t *map,
		     size_t nmap)
{
	struct json_object *rows = rl_member(raw, "rows"), *waits = rl_member(raw, "waits");

	for (size_t i = 0; i < rl_alen(rows); i++) {
		struct json_object *o = json_object_array_get_idx(rows, i);
		struct cs_row r = { 0 };

		r.count = rl_u64(o, "count");
		r.nr = (uint16_t)rl_u64(o, "nr");
		r.kernel_mode = json_object_get_boolean(rl_member(o, "kernel_mode"));
		r.in_syscall = json_object_get_boolean(rl_member(o, "in_syscall"));
		comm_of(o, r.comm, sizeof(r.comm));
		r.kstack = stack_of(o, "kstack", map, nmap);
		r.ustack = stack_of(o, "ustack", map, nmap);
		if (cpu_samples_add_row(cs, &r))
			return -1;
	}
	for (size_t i = 0; i < rl_alen(waits); i++) {
		struct json_object *o = json_object_array_get_idx(waits, i);
		struct cs_wait w = { 0 };

		w.count = rl_u64(o, "count");
		w.ns = rl_u64(o, "ns");
		comm_of(o, w.comm, sizeof(w.comm));
		w.kstack = stack_of(o, "kstack", map, nmap);
		if (cpu_samples_add_wait(cs, &w))
			return -1;
	}
	return 0;
}

/* The counters the JSON keeps beside the raw rows. */
static void load_counters(struct cpu_samples *cs, struct json_object *cpu,
			  struct json_object *offcpu)
{
	struct json_object *lost = rl_member(cpu, "lost"), *fr = rl_member(cpu, "frames");
	struct json_object *olost = rl_member(offcpu, "lost");

	cs->samples = rl_u64(cpu, "samples");
	cs->kstack_lost = rl_u64(lost, "kernel_stacks");
	cs->ustack_lost = rl_u64(lost, "user_stacks");
	cs->key_lost = rl_u64(lost, "samples");
	cs->unknown_task = rl_u64(lost, "unknown_task");
	cs->exec_files = rl_u64(fr, "exec_files");
	cs->exec_files_found = rl_u64(fr, "exec_files_found");
	cs->off_traced = offcpu != NULL;
	cs->off_sleeps = rl_u64(offcpu, "sleeps");
	cs->off_stack_lost = rl_u64(olost, "stacks");
	cs->off_pending_lost = rl_u64(olost, "pending");
	cs->off_key_lost = rl_u64(olost, "keys");
	cs->off_held_ns = rl_u64(offcpu, "unsampled_ns");
	cs->off_held_n = rl_u64(offcpu, "unsampled_sleeps");
	cs->off_walks = rl_u64(offcpu, "stack_walks");
}

int cpu_raw_load(struct json_object *cpu, struct json_object *offcpu, const struct phase_result *p,
		 struct cpu_samples **out)
{
	struct json_object *raw = rl_member(cpu, "raw");
	size_t nst = rl_alen(rl_member(raw, "stacks"));
	struct cpu_samples *cs;
	uint32_t *map;

	*out = NULL;
	if (!raw)
		return 0;
	cs = cpu_samples_new((uint32_t)rl_u64(cpu, "hz"));
	map = malloc((nst ? nst : 1) * sizeof(*map));
	if (!cs || !map || load_stacks(cs, raw, map) || load_rows(cs, raw, map, nst)) {
		free(map);
		cpu_samples_free(cs);
		return -1;
	}
	free(map);
	load_counters(cs, cpu, offcpu);
	cpu_samples_classify(cs);
	cpu_samples_split_phase(cs, p);
	*out = cs;
	return 0;
}
