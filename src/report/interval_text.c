// SPDX-License-Identifier: GPL-2.0
/* The compact text block of one live interval (see interval_out.h). */
#include <string.h>
#include <time.h>
#include "cpu_split.h"
#include "interval_out.h"
#include "syscalls.h"
#include "units.h"

/* The wall view's buckets: the CPU outside and inside the syscall tracepoints, not user and
 * kernel CPU (the split line below gives those); under --lite, one on-CPU bucket. */
static const char *const bucket_names[WB_COUNT] = { "cpu-outside-syscalls", "cpu-in-syscalls",
						    "runq", "iowait", "other" };

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

/* A process's or cgroup's CPU columns: outside and inside syscalls (the tracepoints' line, not
 * user and kernel), or on-CPU under --lite. */
static void cpu_cols(FILE *out, const struct interval_sample *s, const uint64_t *b, uint64_t ns)
{
	if (s->lite)
		fprintf(out, "on-CPU %5.1f%%", pct(b[WB_USER] + b[WB_KERNEL], ns));
	else
		fprintf(out, "cpu outside syscalls %5.1f%% in %5.1f%%", pct(b[WB_USER], ns),
			pct(b[WB_KERNEL], ns));
}

/* "  cpu: user code 12.3% ±1.1, kernel 40.1% (180 samples)", or why it is not split. */
static int split_line(FILE *out, const struct interval_sample *s, uint64_t len)
{
	const struct iv_split *c = &s->split;

	if (!c->sampled) {
		fprintf(out, "  cpu: user/kernel not split (no CPU samples)\n");
		return 1;
	}
	if (c->state == CPU_SPLIT_EXACT || c->state == CPU_SPLIT_SAMPLED)
		fprintf(out, "  cpu: user code %.1f%% ±%.1f, kernel %.1f%% (%llu samples)\n",
			len ? 100.0 * c->user_ns / (double)len : 0.0,
			len ? 100.0 * c->err_ns / (double)len : 0.0,
			len ? 100.0 * c->kernel_ns / (double)len : 0.0,
			(unsigned long long)c->samples);
	else
		fprintf(out, "  cpu: user/kernel not split (%llu samples, ~%.0f needed)\n",
			(unsigned long long)c->samples, c->needed_samples);
	return 1;
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
	for (int k = 0; k < WB_COUNT; k++) {
		if (s->lite && k == WB_KERNEL)
			continue;
		fprintf(out, " %s %.1f%%", s->lite && k == WB_USER ? "on-CPU" : bucket_names[k],
			pct(s->bucket_ns[k], len));
	}
	if (s->unattributed_ns)
		fprintf(out, " unattributed %.1f%%", pct(s->unattributed_ns, len));
	fprintf(out, "\n");
	lines++;
	lines += split_line(out, s, len);
	for (int i = 0; i < s->nprocs; i++) {
		const struct iv_proc *p = &s->procs[i];

		fprintf(out, "  %7u %-16.16s ", p->pid, p->comm);
		cpu_cols(out, s, p->bucket_ns, p->ns);
		fprintf(out, " runq %5.1f%% iowait %5.1f%%\n", pct(p->bucket_ns[WB_RUNQ], p->ns),
			pct(p->bucket_ns[WB_IOWAIT], p->ns));
		lines++;
	}
	for (int i = 0; i < s->ncgroups; i++) {
		const struct iv_cgroup *g = &s->cgroups[i];

		fprintf(out, "  cgroup  ");
		cpu_cols(out, s, g->bucket_ns, g->ns);
		fprintf(out, " runq %5.1f%% iowait %5.1f%%", pct(g->bucket_ns[WB_RUNQ], g->ns),
			pct(g->bucket_ns[WB_IOWAIT], g->ns));
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
