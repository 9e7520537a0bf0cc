// SPDX-License-Identifier: GPL-2.0
/* The compact text block of one live interval (see interval_out.h). */
#include <string.h>
#include <time.h>
#include "interval_out.h"
#include "syscalls.h"
#include "units.h"

static const char *const bucket_names[WB_COUNT] = { "user", "kernel", "runq", "iowait", "other" };

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "HH:MM:SS" of a Unix time, local. */
static void clock_str(char *buf, size_t n, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	localtime_r(&s, &tm);
	strftime(buf, n, "%H:%M:%S", &tm);
}

int interval_text(FILE *out, const struct interval_sample *s, int tty, int prev_lines)
{
	uint64_t len = s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
	char a[32], b[32], c[32], when[16];
	int lines = 0;

	if (tty && prev_lines)
		fprintf(out, "\033[%dA\033[J", prev_lines); /* over the previous block */
	clock_str(when, sizeof(when), s->unix_time);
	fprintf(out, "%s #%llu %s +%s (%s)%s\n", when, (unsigned long long)s->seq, s->target,
		fmt_ns(a, sizeof(a), s->since_start_ns), fmt_ns(b, sizeof(b), len),
		s->final ? " final" : "");
	lines++;
	fprintf(out, "  wall:");
	for (int k = 0; k < WB_COUNT; k++)
		fprintf(out, " %s %.1f%%", s->lite && k == WB_USER ? "on-CPU" : bucket_names[k],
			pct(s->bucket_ns[k], len));
	if (s->unattributed_ns)
		fprintf(out, " unattributed %.1f%%", pct(s->unattributed_ns, len));
	fprintf(out, "\n");
	lines++;
	for (int i = 0; i < s->nprocs; i++) {
		const struct iv_proc *p = &s->procs[i];

		fprintf(out, "  %7u %-16.16s user %5.1f%% kernel %5.1f%% runq %5.1f%% iowait %5.1f%%\n",
			p->pid, p->comm, pct(p->bucket_ns[WB_USER], p->ns),
			pct(p->bucket_ns[WB_KERNEL], p->ns), pct(p->bucket_ns[WB_RUNQ], p->ns),
			pct(p->bucket_ns[WB_IOWAIT], p->ns));
		lines++;
	}
	for (int i = 0; i < s->ncgroups; i++) {
		const struct iv_cgroup *g = &s->cgroups[i];

		fprintf(out, "  cgroup  user %5.1f%% kernel %5.1f%% runq %5.1f%% iowait %5.1f%%",
			pct(g->bucket_ns[WB_USER], g->ns), pct(g->bucket_ns[WB_KERNEL], g->ns),
			pct(g->bucket_ns[WB_RUNQ], g->ns), pct(g->bucket_ns[WB_IOWAIT], g->ns));
		if (s->lite)
			fprintf(out, "  read n/a written n/a");
		else
			fprintf(out, "  read %s written %s", fmt_bytes(a, sizeof(a), g->read_bytes),
				fmt_bytes(b, sizeof(b), g->write_bytes));
		fprintf(out, "  %s\n", g->path);
		lines++;
	}
	for (int i = 0; i < s->ndevs; i++) {
		const struct iv_dev *d = &s->devs[i];

		fprintf(out, "  %-8s %8.0f IOPS %8.1f MiB/s  p99 %9s  depth %5.1f  busy %5.1f%%\n",
			d->name, d->iops, d->mib_s, d->p99_ns ? fmt_ns(a, sizeof(a), d->p99_ns) : "-",
			d->queue_depth, d->busy_pct);
		lines++;
	}
	fprintf(out, "  dirty %s, writeback %s", fmt_bytes(a, sizeof(a), s->dirty_bytes),
		fmt_bytes(b, sizeof(b), s->writeback_bytes));
	if (s->lite)
		fprintf(out, "; slowest call: n/a (--lite)");
	else if (s->slowest.ns)
		fprintf(out, "; slowest call: %s %s (%s, tid %u)", syscall_name(s->slowest.nr),
			fmt_ns(c, sizeof(c), s->slowest.ns), s->slowest.comm, s->slowest.tid);
	else
		fprintf(out, "; slowest call: none ended");
	fprintf(out, "\n");
	lines++;
	fflush(out);
	return lines;
}
