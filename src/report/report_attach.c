// SPDX-License-Identifier: GPL-2.0
/* The attach parts of the text and JSON reports (see report_attach.h). */
#include <stdio.h>
#include <string.h>
#include "report_attach.h"
#include "json_put.h"
#include "units.h"

#define TOP_PROCS 10       /* processes listed by default (-v: all) */
#define UNKNOWN_BYTES (~0ull)

static const char *const bucket_keys[WB_COUNT] = { "user", "kernel", "runq", "iowait", "other" };

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* One process row: pid, comm, its time in the window, each bucket's share, bytes. */
static void proc_line(FILE *out, const struct proc_row *r, int lite)
{
	uint64_t w = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	char t[32], rb[32], wb[32];

	fprintf(out, "  %7u %-16.16s %9s %5.1f%% %5.1f%% %5.1f%% %5.1f%% %5.1f%%", r->tgid, r->comm,
		fmt_ns(t, sizeof(t), w), share(r->bucket_ns[WB_USER], w),
		share(r->bucket_ns[WB_KERNEL], w), share(r->bucket_ns[WB_RUNQ], w),
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
}

void report_attach_text(FILE *out, const struct phase_result *p, const char (*disks)[32],
			int detail)
{
	char a[32];

	(void)disks;
	if (!p->target[0])
		return;
	fprintf(out, "\nattached to %s for %s%s%s\n", p->target,
		fmt_ns(a, sizeof(a), wall_ns(&p->wall)), p->end_note[0] ? "; ended: " : "",
		p->end_note);
	if (p->lite)
		fprintf(out, "--lite: no syscall probes: syscall counts are not available, and on-CPU "
			     "time is not split into user and kernel (shown as user CPU)\n");
	print_procs(out, p, detail);
}

static struct json_object *proc_obj(const struct proc_row *r, int lite)
{
	struct json_object *o = json_object_new_object(), *w = json_object_new_object();

	jput_u64(o, "pid", r->tgid);
	jput_str(o, "comm", r->comm);
	jput_u64(o, "wall_ns", r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0);
	for (int b = 0; b < WB_COUNT; b++)
		jput_u64(w, bucket_keys[b], r->bucket_ns[b]);
	jput_u64(w, "unattributed", r->unattributed_ns);
	jput(o, "wall", w);
	if (lite) {
		jput(o, "read_bytes", NULL);
		jput(o, "write_bytes", NULL);
		jput(o, "reads", NULL);
		jput(o, "writes", NULL);
	} else {
		jput_u64(o, "read_bytes", r->read_bytes);
		jput_u64(o, "write_bytes", r->write_bytes);
		jput_u64(o, "reads", r->reads);
		jput_u64(o, "writes", r->writes);
	}
	jput_bool(o, "exited", r->exited);
	return o;
}

void report_attach_json(struct json_object *phase, const struct phase_result *p,
			const char (*disks)[32])
{
	struct json_object *o, *procs;

	(void)disks;
	if (!p->target[0])
		return;
	o = json_object_new_object();
	procs = json_object_new_array();
	jput_str(o, "target", p->target);
	jput_str(o, "ended", p->end_note);
	jput_u64(o, "window_start_ns", p->wall.start_ns); /* CLOCK_MONOTONIC */
	jput_u64(o, "window_end_ns", p->wall.end_ns);
	jput_bool(o, "lite", p->lite);
	for (size_t i = 0; i < p->nprocs; i++)
		json_object_array_add(procs, proc_obj(&p->procs[i], p->lite));
	jput(o, "processes", procs);
	jput(phase, "attach", o);
	jput_bool(phase, "syscalls_available", !p->lite);
}
