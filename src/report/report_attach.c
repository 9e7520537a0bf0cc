// SPDX-License-Identifier: GPL-2.0
/* The attach parts of the text and JSON reports (see report_attach.h). */
#include <stdio.h>
#include <string.h>
#include "report_attach.h"
#include "json_put.h"
#include "units.h"
#include "syscalls.h"
#include "lite_split.h"

#define TOP_PROCS 10       /* processes listed by default (-v: all) */
#define UNKNOWN_BYTES (~0ull)

static const char *const bucket_keys[WB_COUNT] = { "user", "kernel", "runq", "iowait", "other" };

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The kernel column's cell: its share, "n/a" under --lite (no syscall probes: on CPU is one
 * bucket, split only by samples for the whole target). */
static const char *kernel_cell(char *buf, size_t n, uint64_t ns, uint64_t whole, int lite)
{
	if (lite)
		snprintf(buf, n, "%6s", "n/a");
	else
		snprintf(buf, n, "%5.1f%%", share(ns, whole));
	return buf;
}

/* One process row: pid, comm, its time in the window, each bucket's share, bytes. */
static void proc_line(FILE *out, const struct proc_row *r, int lite)
{
	uint64_t w = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	char t[32], k[16], rb[32], wb[32];

	fprintf(out, "  %7u %-16.16s %9s %5.1f%% %s %5.1f%% %5.1f%% %5.1f%%", r->tgid, r->comm,
		fmt_ns(t, sizeof(t), w), share(r->bucket_ns[WB_USER], w),
		kernel_cell(k, sizeof(k), r->bucket_ns[WB_KERNEL], w, lite), share(r->bucket_ns[WB_RUNQ], w),
		share(r->bucket_ns[WB_IOWAIT], w), share(r->bucket_ns[WB_OTHER], w));
	if (lite)
		fprintf(out, " %10s %10s", "n/a", "n/a");
	else
		fprintf(out, " %10s %10s", fmt_bytes(rb, sizeof(rb), r->read_bytes),
			fmt_bytes(wb, sizeof(wb), r->write_bytes));
	fprintf(out, "%s\n", r->exited ? "  (exited)" : "");
}

static void print_procs(FILE *out, const struct phase_result *p, int detail)
{
	size_t shown = detail > 0 || p->nprocs <= TOP_PROCS ? p->nprocs : TOP_PROCS;

	if (!p->nprocs || detail < 0)
		return;
	fprintf(out, "\n== per process (each one's own wall view over its time in the window; "
		     "busiest first) ==\n");
	fprintf(out, "  %7s %-16s %9s %6s %6s %6s %6s %6s %10s %10s\n", "pid", "comm", "time",
		p->lite ? "on CPU" : "user", "kernel", "runq", "iowait", "other", "read", "written");
	for (size_t i = 0; i < shown; i++)
		proc_line(out, &p->procs[i], p->lite);
	if (shown < p->nprocs)
		fprintf(out, "  ... %zu more (-v lists all; --json has every one)\n",
			p->nprocs - shown);
	if (p->procs_untracked)
		fprintf(out, "  ! about %llu more processes did not fit the per-process table (they are "
			     "in the totals above)\n", (unsigned long long)p->procs_untracked);
}

/* One cgroup row: its wall view's shares, its CPU, bytes, processes, path. */
static void cgroup_line(FILE *out, const struct cgroup_row *r, int lite)
{
	uint64_t w = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	char t[32], k[16], c[32], rb[32], wb[32];

	fprintf(out, "  %9s %5.1f%% %s %5.1f%% %5.1f%% %5.1f%% %9s %10s %10s %5u  %s\n",
		fmt_ns(t, sizeof(t), w), share(r->bucket_ns[WB_USER], w),
		kernel_cell(k, sizeof(k), r->bucket_ns[WB_KERNEL], w, lite),
		share(r->bucket_ns[WB_RUNQ], w),
		share(r->bucket_ns[WB_IOWAIT], w), share(r->bucket_ns[WB_OTHER], w),
		fmt_ns(c, sizeof(c), r->cpu_ns), lite ? "n/a" : fmt_bytes(rb, sizeof(rb), r->read_bytes),
		lite ? "n/a" : fmt_bytes(wb, sizeof(wb), r->write_bytes), r->nprocs, r->path);
}

/* "== per cgroup ==": the busiest cgroups (cgroup v2 paths), each one's own wall view. */
static void print_cgroups(FILE *out, const struct phase_result *p, int detail)
{
	size_t shown = detail > 0 || p->ncgroups <= TOP_PROCS ? p->ncgroups : TOP_PROCS;

	if (!p->ncgroups || detail < 0)
		return;
	fprintf(out, "\n== per cgroup (v2 path; the wall view of its tasks over its time in the "
		     "window; busiest first) ==\n");
	fprintf(out, "  %9s %6s %6s %6s %6s %6s %9s %10s %10s %5s  %s\n", "time",
		p->lite ? "on CPU" : "user", "kernel", "runq", "iowait", "other", "task CPU",
		"read", "written", "procs", "cgroup");
	for (size_t i = 0; i < shown; i++)
		cgroup_line(out, &p->cgroups[i], p->lite);
	if (shown < p->ncgroups)
		fprintf(out, "  ... %zu more (-v lists all; --json has every one)\n",
			p->ncgroups - shown);
	if (p->cgroups_untracked)
		fprintf(out, "  ! %llu processes in cgroups beyond the table (in the totals above)\n",
			(unsigned long long)p->cgroups_untracked);
}

#define SLOW_SHOWN 20   /* slow calls listed by default (-v: all kept) */

/* "212 ms" */
static const char *dur(char *buf, size_t n, uint64_t ns)
{
	return fmt_ns(buf, n, ns);
}

/* One slow call: what it was, how long, and where the time went. */
static void slow_line(FILE *out, const struct slow_call *s, const char (*disks)[32], uint64_t t0,
		      int context)
{
	const struct ct_call *c = &s->c;
	char a[32], b[32], d[32], e[32], f[32];

	fprintf(out, "  %s %s (%s, tid %u, at +%s): on CPU %s, run queue %s, I/O wait %s",
		syscall_name(c->nr), dur(a, sizeof(a), c->end_ns - c->start_ns), s->comm, c->tid,
		dur(b, sizeof(b), c->start_ns > t0 ? c->start_ns - t0 : 0),
		dur(d, sizeof(d), c->oncpu_ns), dur(e, sizeof(e), c->runq_ns),
		dur(f, sizeof(f), c->iowait_ns));
	for (int i = 0; i < c->ndisks; i++)
		fprintf(out, "%s%s %s (busy %.0f%%, depth %.1f)", i ? ", " : " [",
			disks[c->disk[i]][0] ? disks[c->disk[i]] : "?",
			dur(a, sizeof(a), c->disk_ns[i]), s->busy_pct[i], s->depth[i]);
	if (c->iowait_nodisk_ns)
		fprintf(out, "%sno disk known %s", c->ndisks ? ", " : " [",
			dur(a, sizeof(a), c->iowait_nodisk_ns));
	if (c->ndisks || c->iowait_nodisk_ns)
		fprintf(out, "]");
	fprintf(out, ", other waits %s\n", dur(a, sizeof(a), c->other_ns));
	if ((context & 1) && s->bdp_count)
		fprintf(out, "      meanwhile: %u balance_dirty_pages pause%s (%s planned): dirty-page "
			     "throttling\n", s->bdp_count, s->bdp_count == 1 ? "" : "s",
			dur(a, sizeof(a), s->bdp_ns));
	if ((context & 2) && s->commits)
		fprintf(out, "      meanwhile: %u jbd2 commit%s covering %s of it (the longest, of %s, "
			     "took %s)\n", s->commits, s->commits == 1 ? "" : "s",
			dur(a, sizeof(a), s->commit_overlap_ns), s->commit_dev,
			dur(b, sizeof(b), s->commit_max_ns));
	if (s->wb_ino)
		fprintf(out, "      meanwhile: writeback of inode %llu%s%s%s on %s covering %s of it\n",
			(unsigned long long)s->wb_ino, s->wb_path[0] ? " (" : "", s->wb_path,
			s->wb_path[0] ? ")" : "", s->wb_dev, dur(a, sizeof(a), s->wb_overlap_ns));
	for (int i = 0; i < s->nwaits; i++)
		fprintf(out, "      %s %s asleep (%s) in %s (%u×)\n", i ? "      " : "waits:",
			dur(a, sizeof(a), s->waits[i].ns),
			s->waits[i].uninterruptible ? "D" : "S", s->waits[i].where,
			s->waits[i].count);
}

static void print_slow(FILE *out, const struct phase_result *p, const char (*disks)[32],
		       int detail)
{
	size_t shown = detail > 0 || p->nslow <= SLOW_SHOWN ? p->nslow : SLOW_SHOWN;
	char a[32];

	if (!p->slow_traced || detail < 0)
		return;
	fprintf(out, "\n== syscalls of %s or more: %zu%s (slowest first; on CPU + run queue + I/O "
		     "wait + other = each call's time) ==\n", dur(a, sizeof(a), p->slow_min_ns),
		p->nslow + (size_t)p->slow_more, p->slow_more ? ", the slowest kept" : "");
	if ((p->slow_context & 3) != 3)
		fprintf(out, "  (%s not traced: the probes are missing)\n",
			!(p->slow_context & 1) && !(p->slow_context & 2) ?
			"dirty throttling and journal commits" :
			!(p->slow_context & 1) ? "dirty throttling" : "journal commits");
	for (size_t i = 0; i < shown; i++)
		slow_line(out, &p->slow[i], disks, p->wall.start_ns, p->slow_context);
	if (shown < p->nslow || p->slow_more)
		fprintf(out, "  ... %zu more listed with -v or in --json, %llu more not kept\n",
			p->nslow - shown, (unsigned long long)p->slow_more);
}

/* ---- --lite: the on-CPU time split by samples ---- */

/* The on-CPU time of a lite phase (the wall view has no user/kernel split: all of it is in the
 * user bucket). */
static uint64_t lite_on_cpu(const struct phase_result *p)
{
	return p->wall.bucket_ns[WB_USER] + p->wall.bucket_ns[WB_KERNEL];
}

/* The split of a lite phase: 0, or -1 without samples (--no-sample, sampler missing, none). */
static int lite_get(const struct phase_result *p, struct lite_split *ls)
{
	if (!p->lite || !p->samples)
		return -1;
	return lite_split(p->samples, lite_on_cpu(p), ls);
}

/* One row: "label  time ± err  % wall  share ± err of CPU", "(few samples)" below CS_FEW. */
static void lite_row(FILE *out, int indent, const char *label, const struct ls_part *x,
		     uint64_t wall)
{
	char a[32], b[32];

	fprintf(out, "  %*s%-*s %9s ± %-9s %5.1f%%   %5.1f%% ± %.1f%s\n", indent, "",
		24 - indent, label, fmt_ns(a, sizeof(a), (uint64_t)x->ns),
		fmt_ns(b, sizeof(b), (uint64_t)x->err_ns),
		wall ? 100.0 * x->ns / (double)wall : 0.0, 100.0 * x->share, 100.0 * x->share_err,
		x->samples < CS_FEW ? "  (few samples)" : "");
}

/* "== on CPU, split by CPU samples ==": user code, kernel, kernel by syscall group and outside
 * syscalls, the syscalls with the most samples. */
static void print_lite_split(FILE *out, const struct phase_result *p)
{
	uint64_t wall = wall_ns(&p->wall);
	struct lite_split ls;
	char a[32], b[32];

	if (lite_get(p, &ls)) {
		fprintf(out, "--lite: no syscall probes: syscall counts are not available, and with "
			     "no CPU samples on-CPU time is not split into user and kernel (shown "
			     "as user CPU)\n");
		return;
	}
	fprintf(out, "--lite: no syscall probes: syscall counts are not available; on-CPU time is "
		     "split by %s CPU samples (estimates, ± one standard error)\n",
		fmt_count(a, sizeof(a), ls.samples));
	fprintf(out, "\n== on CPU, split by CPU samples (--lite) ==\n");
	fprintf(out, "  %-24s %9s   ± error   %6s   %s\n", "", "time", "% wall", "% of CPU");
	fprintf(out, "  %-24s %9s   %-9s %5.1f%%\n", "on CPU (measured)",
		fmt_ns(a, sizeof(a), ls.on_cpu_ns), "",
		wall ? 100.0 * (double)ls.on_cpu_ns / (double)wall : 0.0);
	lite_row(out, 2, "user code", &ls.user, wall);
	lite_row(out, 2, "kernel", &ls.kernel, wall);
	lite_row(out, 4, "in syscalls", &ls.syscalls, wall);
	for (int g = 0; g < SG_COUNT; g++)
		if (ls.group[g].samples)
			lite_row(out, 6, sys_group_name((enum sys_group)g), &ls.group[g], wall);
	for (int k = 0; k < LS_OUTSIDE_COUNT; k++)
		if (ls.outside[k].samples)
			lite_row(out, 4, ls_outside_label((enum ls_outside)k), &ls.outside[k],
				 wall);
	if (ls.ntop) {
		fprintf(out, "  syscalls by sampled kernel time (entry and exit path included; "
			     "counts not available):");
		for (size_t i = 0; i < ls.ntop && i < 5; i++)
			fprintf(out, "%s %s %s ± %s", i ? "," : "",
				ls.top[i].nr == IOWHY_NR_NONE ? "(not named)" :
				syscall_name(ls.top[i].nr),
				fmt_ns(a, sizeof(a), (uint64_t)ls.top[i].p.ns),
				fmt_ns(b, sizeof(b), (uint64_t)ls.top[i].p.err_ns));
		fprintf(out, "\n");
	}
}

void report_attach_text(FILE *out, const struct phase_result *p, const char (*disks)[32],
			int detail)
{
	char a[32];

	print_slow(out, p, disks, detail);
	if (!p->target[0])
		return;
	fprintf(out, "\nattached to %s for %s%s%s\n", p->target,
		fmt_ns(a, sizeof(a), wall_ns(&p->wall)), p->end_note[0] ? "; ended: " : "",
		p->end_note);
	if (!strcmp(p->seeded_by, "task_iter"))
		fprintf(out, "  tasks at attach seeded by a BPF task iterator%s%s%s\n",
			p->seed_note[0] ? " (" : "", p->seed_note, p->seed_note[0] ? ")" : "");
	else if (p->seeded_by[0])
		fprintf(out, "  tasks at attach seeded from /proc (%s)\n", p->seed_note);
	if (p->lite)
		print_lite_split(out, p);
	print_procs(out, p, detail);
	print_cgroups(out, p, detail);
}

/* "wall_ns" and "wall": a row's own wall view (its buckets add up to wall_ns). */
static void put_wall(struct json_object *o, uint64_t start, uint64_t end,
		     const uint64_t *bucket_ns, uint64_t unattributed_ns)
{
	struct json_object *w = json_object_new_object();

	jput_u64(o, "wall_ns", end > start ? end - start : 0);
	for (int b = 0; b < WB_COUNT; b++)
		jput_u64(w, bucket_keys[b], bucket_ns[b]);
	jput_u64(w, "unattributed", unattributed_ns);
	jput(o, "wall", w);
}

/* The processes' byte members: null under --lite (unknown), else the counts. */
static void put_bytes(struct json_object *o, int lite, uint64_t rb, uint64_t wb, uint64_t r,
		      uint64_t w)
{
	if (lite) {
		jput(o, "read_bytes", NULL);
		jput(o, "write_bytes", NULL);
		jput(o, "reads", NULL);
		jput(o, "writes", NULL);
	} else {
		jput_u64(o, "read_bytes", rb);
		jput_u64(o, "write_bytes", wb);
		jput_u64(o, "reads", r);
		jput_u64(o, "writes", w);
	}
}

static struct json_object *proc_obj(const struct phase_result *p, const struct proc_row *r)
{
	int lite = p->lite;
	struct json_object *o = json_object_new_object();

	jput_u64(o, "pid", r->tgid);
	jput_str(o, "comm", r->comm);
	put_wall(o, r->start_ns, r->end_ns, r->bucket_ns, r->unattributed_ns);
	put_bytes(o, lite, r->read_bytes, r->write_bytes, r->reads, r->writes);
	jput_bool(o, "exited", r->exited);
	if (p->cgroups) {
		if (r->cgroup >= 0 && (size_t)r->cgroup < p->ncgroups)
			jput_str(o, "cgroup", p->cgroups[r->cgroup].path);
		else
			jput(o, "cgroup", NULL);
	}
	return o;
}

static struct json_object *cgroup_obj(const struct cgroup_row *r, int lite)
{
	struct json_object *o = json_object_new_object();

	jput_str(o, "path", r->path);
	jput_u64(o, "processes", r->nprocs);
	put_wall(o, r->start_ns, r->end_ns, r->bucket_ns, r->unattributed_ns);
	jput_u64(o, "cpu_ns", r->cpu_ns);
	put_bytes(o, lite, r->read_bytes, r->write_bytes, r->reads, r->writes);
	return o;
}

/* "waits" (null when the sleep probe did not run), "waits_timed_ns", "writeback_inode". */
static void slow_waits_json(struct json_object *o, const struct slow_call *s)
{
	struct json_object *arr = json_object_new_array(), *wb;

	for (int i = 0; i < s->nwaits; i++) {
		struct json_object *w = json_object_new_object();

		jput_str(w, "where", s->waits[i].where);
		jput_u64(w, "ns", s->waits[i].ns);
		jput_u64(w, "count", s->waits[i].count);
		jput_bool(w, "uninterruptible", s->waits[i].uninterruptible);
		json_object_array_add(arr, w);
	}
	if (s->waits_traced) {
		jput(o, "waits", arr);
		jput_u64(o, "waits_timed_ns", s->waits_ns);
	} else {
		json_object_put(arr);
		jput(o, "waits", NULL);
		jput(o, "waits_timed_ns", NULL);
	}
	if (!s->wb_ino) {
		jput(o, "writeback_inode", NULL);
		return;
	}
	wb = json_object_new_object();
	jput_u64(wb, "ino", s->wb_ino);
	jput_str(wb, "device", s->wb_dev);
	if (s->wb_path[0])
		jput_str(wb, "path", s->wb_path);
	else
		jput(wb, "path", NULL);
	jput_u64(wb, "overlap_ns", s->wb_overlap_ns);
	jput(o, "writeback_inode", wb);
}

static struct json_object *slow_obj(const struct slow_call *s, const char (*disks)[32],
				    int context)
{
	struct json_object *o = json_object_new_object(), *dv = json_object_new_array();
	const struct ct_call *c = &s->c;

	jput_str(o, "syscall", syscall_name(c->nr));
	jput_u64(o, "tid", c->tid);
	jput_u64(o, "pid", c->tgid);
	jput_str(o, "comm", s->comm);
	jput_u64(o, "start_ns", c->start_ns);
	jput_u64(o, "duration_ns", c->end_ns - c->start_ns);
	jput_u64(o, "oncpu_ns", c->oncpu_ns);
	jput_u64(o, "runq_ns", c->runq_ns);
	jput_u64(o, "iowait_ns", c->iowait_ns);
	jput_u64(o, "other_ns", c->other_ns);
	for (int i = 0; i < c->ndisks; i++) {
		struct json_object *d = json_object_new_object();

		jput_str(d, "name", disks[c->disk[i]]);
		jput_u64(d, "ns", c->disk_ns[i]);
		jput_dbl(d, "busy_pct", s->busy_pct[i]);
		jput_dbl(d, "queue_depth", s->depth[i]);
		json_object_array_add(dv, d);
	}
	jput(o, "iowait_by_device", dv);
	jput_u64(o, "iowait_no_device_ns", c->iowait_nodisk_ns);
	if (context & 1) {
		jput_u64(o, "dirty_throttle_pauses", s->bdp_count);
		jput_u64(o, "dirty_throttle_ns", s->bdp_ns);
	} else {
		jput(o, "dirty_throttle_pauses", NULL);
		jput(o, "dirty_throttle_ns", NULL);
	}
	if (context & 2) {
		jput_u64(o, "journal_commits", s->commits);
		jput_u64(o, "journal_commit_overlap_ns", s->commit_overlap_ns);
		jput_u64(o, "journal_commit_max_ns", s->commit_max_ns);
		jput_str(o, "journal_device", s->commit_dev);
	} else {
		jput(o, "journal_commits", NULL);
		jput(o, "journal_commit_overlap_ns", NULL);
		jput(o, "journal_commit_max_ns", NULL);
		jput(o, "journal_device", NULL);
	}
	slow_waits_json(o, s);
	return o;
}

static struct json_object *lite_part(const struct ls_part *x)
{
	struct json_object *o = json_object_new_object();

	jput_u64(o, "samples", x->samples);
	jput_dbl(o, "share", x->share);
	jput_dbl(o, "share_err", x->share_err);
	jput_u64(o, "ns", (uint64_t)x->ns);
	jput_u64(o, "err_ns", (uint64_t)x->err_ns);
	return o;
}

/* "lite_cpu": the on-CPU time split by samples (null without samples). */
static struct json_object *lite_obj(const struct phase_result *p)
{
	struct json_object *o, *g, *k, *top;
	struct lite_split ls;

	if (lite_get(p, &ls))
		return NULL;
	o = json_object_new_object();
	g = json_object_new_object();
	k = json_object_new_object();
	top = json_object_new_array();
	jput_u64(o, "samples", ls.samples);
	jput_u64(o, "on_cpu_ns", ls.on_cpu_ns);
	jput(o, "user", lite_part(&ls.user));
	jput(o, "kernel", lite_part(&ls.kernel));
	jput(o, "syscalls", lite_part(&ls.syscalls));
	for (int i = 0; i < SG_COUNT; i++)
		jput(g, sys_group_key((enum sys_group)i), lite_part(&ls.group[i]));
	jput(o, "kernel_by_group", g);
	for (int i = 0; i < LS_OUTSIDE_COUNT; i++)
		jput(k, ls_outside_key((enum ls_outside)i), lite_part(&ls.outside[i]));
	jput(o, "kernel_outside_syscalls", k);
	jput_u64(o, "syscall_samples_unnamed", ls.unnamed);
	for (size_t i = 0; i < ls.ntop; i++) {
		struct json_object *x = lite_part(&ls.top[i].p);

		if (ls.top[i].nr == IOWHY_NR_NONE)
			jput(x, "name", NULL);
		else
			jput_str(x, "name", syscall_name(ls.top[i].nr));
		json_object_array_add(top, x);
	}
	jput(o, "top_syscalls", top);
	jput(o, "syscall_counts", NULL); /* not available: never zeros */
	return o;
}

void report_attach_json(struct json_object *phase, const struct phase_result *p,
			const char (*disks)[32])
{
	struct json_object *o, *procs;

	if (p->slow_traced) {
		struct json_object *sl = json_object_new_object(), *arr = json_object_new_array();

		jput_u64(sl, "min_ns", p->slow_min_ns);
		jput_u64(sl, "kept", p->nslow);
		jput_u64(sl, "not_kept", p->slow_more);
		for (size_t i = 0; i < p->nslow; i++)
			json_object_array_add(arr, slow_obj(&p->slow[i], disks, p->slow_context));
		jput(sl, "calls", arr);
		jput(phase, "slow_calls", sl);
	}
	if (!p->target[0])
		return;
	o = json_object_new_object();
	procs = json_object_new_array();
	jput_str(o, "target", p->target);
	jput_str(o, "ended", p->end_note);
	jput_u64(o, "window_start_ns", p->wall.start_ns); /* CLOCK_MONOTONIC */
	jput_u64(o, "seeded_ns", p->seeded_ns);
	jput_str(o, "seeded_by", p->seeded_by);
	jput(o, "seed_note", p->seed_note[0] ? json_object_new_string(p->seed_note) : NULL);
	jput_u64(o, "window_end_ns", p->wall.end_ns);
	jput_bool(o, "lite", p->lite);
	if (p->lite)
		jput(o, "lite_cpu", lite_obj(p));
	for (size_t i = 0; i < p->nprocs; i++)
		json_object_array_add(procs, proc_obj(p, &p->procs[i]));
	jput(o, "processes", procs);
	jput_u64(o, "processes_untracked", p->procs_untracked);
	if (p->cgroups) {
		struct json_object *cgs = json_object_new_array();

		for (size_t i = 0; i < p->ncgroups; i++)
			json_object_array_add(cgs, cgroup_obj(&p->cgroups[i], p->lite));
		jput(o, "cgroups", cgs);
		jput_u64(o, "cgroups_untracked", p->cgroups_untracked);
	}
	jput(phase, "attach", o);
	jput_bool(phase, "syscalls_available", !p->lite);
}
