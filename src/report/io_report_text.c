// SPDX-License-Identifier: GPL-2.0
/* The device / page-cache section of the text report; see io_report.h. */
#include <stdlib.h>
#include <string.h>
#include "io_report.h"
#include "io_model.h"
#include "hist.h"
#include "units.h"

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

/* ---- text ---- */

static void text_rows(FILE *out, const struct io_phase *p)
{
	size_t *idx = io_phase_sorted_rows(p);
	double secs = io_phase_rate_secs(p);
	char b[5][32];

	if (!idx)
		return;
	fprintf(out, "  %-10s %-7s %-27s %8s %10s %8s %10s %5s %26s %26s %5s\n", "device", "op",
		"submitted by", "requests", "bytes", "IOPS", "MiB/s", "seq%", "queue p50/p99/max",
		"device p50/p99/max", "depth");
	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[idx[i]];
		const struct io_stat *s = &r->st;
		const struct io_devinfo *d = io_phase_find_dev(p, r->dev);
		char name[40], q[64], dv[64], who[40];

		snprintf(who, sizeof(who), "%s", io_class_name(r->cls));
		if (r->cls == IO_CL_STACK)
			snprintf(who, sizeof(who), "below %s", io_phase_dev_name(p, r->upper));
		snprintf(name, sizeof(name), "%s%s", d && d->is_partition ? " " : "",
			 io_phase_dev_name(p, r->dev));
		snprintf(q, sizeof(q), "%s/%s/%s",
			 fmt_ns(b[0], 32, io_lat_pct(s->qhist, 50, s->queue_max)),
			 fmt_ns(b[1], 32, io_lat_pct(s->qhist, 99, s->queue_max)),
			 fmt_ns(b[2], 32, s->queue_max));
		snprintf(dv, sizeof(dv), "%s/%s/%s",
			 fmt_ns(b[0], 32, io_lat_pct(s->dhist, 50, s->dev_max)),
			 fmt_ns(b[1], 32, io_lat_pct(s->dhist, 99, s->dev_max)),
			 fmt_ns(b[2], 32, s->dev_max));
		fprintf(out, "  %-10s %-7s %-27s %8llu %10s %8.0f %10.1f %5.0f %26s %26s %5llu\n", name,
			io_op_name(r->op), who, (unsigned long long)s->requests,
			fmt_bytes(b[3], 32, s->bytes), ratio(s->requests, secs),
			ratio(s->bytes / 1048576.0, secs), 100.0 * ratio(s->seq, s->requests), q, dv,
			(unsigned long long)hist_percentile(s->depth_hist, IO_DEPTH_SLOTS, 50, 0));
	}
	free(idx);
}

/* Each file system on stacked devices: its line, then every level's devices with their
 * requests, bytes (the workload's, and what was done below an upper device and charged to it),
 * average queue and device time, and busy time. */
static void text_stacks(FILE *out, const struct io_phase *p)
{
	char line[512], a[32], b[32], c[32], d[32], e[32], f[32];

	for (size_t s = 0; s < p->nstacks; s++) {
		const struct io_stackline *sl = &p->stacks[s];

		fprintf(out, "  stack %s\n", io_stackline_format(p, sl, line, sizeof(line)));
		for (int l = 0; l < sl->nlevels; l++)
			for (int i = 0; i < sl->ndev[l]; i++) {
				struct io_level_stat v;
				uint64_t n;

				io_level_stat(p, sl->dev[l][i], &v);
				n = v.requests ? v.requests : 1;
				fprintf(out, "    %-8s %llu requests %s, the workload's %s",
					io_phase_dev_name(p, sl->dev[l][i]),
					(unsigned long long)v.requests, fmt_bytes(a, 32, v.bytes),
					fmt_bytes(b, 32, v.workload_bytes));
				if (v.below_bytes)
					fprintf(out, " (below stacked devices %s, charged %s)",
						fmt_bytes(c, 32, v.below_bytes),
						fmt_bytes(d, 32, v.below_workload_bytes));
				fprintf(out, "; queue avg %s, device avg %s, busy %s\n",
					fmt_ns(e, 32, v.queue_ns / n), fmt_ns(f, 32, v.dev_ns / n),
					fmt_ns(a, 32, v.busy_ns));
			}
	}
}

static void text_devices(FILE *out, const struct io_phase *p)
{
	char a[32], b[32], c[32], d[32];

	for (size_t i = 0; i < p->ndevs; i++) {
		const struct io_devinfo *v = &p->devs[i];

		if (v->is_partition || (!v->busy_ns && !v->has_stat))
			continue;
		fprintf(out, "  %-10s busy %s of %s (%s), %llu requests issued", v->name,
			fmt_ns(a, sizeof(a), v->busy_ns), fmt_ns(b, sizeof(b), p->window_ns),
			fmt_pct(c, sizeof(c), ratio(v->busy_ns, p->window_ns)),
			(unsigned long long)v->issued);
		if (v->has_stat)
			fprintf(out, "; device counters: %llu reads %s, %llu writes %s, %llu flushes",
				(unsigned long long)v->stat.rd_ios,
				fmt_bytes(a, sizeof(a), v->stat.rd_sectors * 512),
				(unsigned long long)v->stat.wr_ios,
				fmt_bytes(d, sizeof(d), v->stat.wr_sectors * 512),
				(unsigned long long)v->stat.fl_ios);
		fputc('\n', out);
	}
}

static void text_page_cache(FILE *out, const struct io_phase *p, const struct io_layers *l)
{
	const struct io_phase_ctr *c = &p->ctr;
	char a[32], b[32], d[32], e[32];

	fprintf(out, "  page cache: dirtied %s (%llu new inodes), added %s, removed %s; readahead "
		"%llu sync + %llu async calls, %llu pages asked\n",
		fmt_bytes(a, sizeof(a), c->dirtied_bytes), (unsigned long long)c->dirtied_inodes,
		fmt_bytes(b, sizeof(b), c->pc_added_bytes), fmt_bytes(d, sizeof(d), c->pc_removed_bytes),
		(unsigned long long)c->ra_sync, (unsigned long long)c->ra_async,
		(unsigned long long)c->ra_pages);
	fprintf(out, "  writeback: %s written back (%llu inodes), %s of it the workload's files "
		"(%llu inodes); of what it dirtied in this phase still dirty: %s; "
		"balance_dirty_pages: %llu pauses, %s\n",
		fmt_bytes(a, sizeof(a), c->wb_bytes), (unsigned long long)c->wb_inodes,
		fmt_bytes(b, sizeof(b), c->wb_tree_bytes), (unsigned long long)c->wb_tree_inodes,
		fmt_bytes(d, sizeof(d), l->still_dirty),
		(unsigned long long)c->bdp_count, fmt_ns(e, sizeof(e), c->bdp_pause_ns));
}

static void text_fs(FILE *out, const struct io_phase *p)
{
	char a[32], b[32], c[32], d[32];

	for (size_t i = 0; i < p->nfs; i++) {
		const struct io_fs_stat *s = &p->fs[i].st;
		uint64_t n = s->fsync + s->fdatasync;

		fprintf(out, "  fsync on %s: %llu fsync + %llu fdatasync, total %s, avg %s, p99 %s, "
			"max %s\n", io_phase_dev_name(p, p->fs[i].dev), (unsigned long long)s->fsync,
			(unsigned long long)s->fdatasync, fmt_ns(a, sizeof(a), s->total_ns),
			fmt_ns(b, sizeof(b), n ? s->total_ns / n : 0),
			fmt_ns(c, sizeof(c), io_lat_pct(s->hist, 99, s->max_ns)),
			fmt_ns(d, sizeof(d), s->max_ns));
	}
	for (size_t i = 0; i < p->njbd; i++) {
		const struct io_jbd_stat *s = &p->jbd[i].st;
		uint64_t n = s->commits ? s->commits : 1;

		fprintf(out, "  journal %s: %llu commits (%llu sync), commit time %s (max %s); per "
			"commit avg: wait %s, locked %s, flushing %s, logging %s, %llu blocks\n",
			io_phase_dev_name(p, p->jbd[i].dev), (unsigned long long)s->commits,
			(unsigned long long)s->sync_commits, fmt_ns(a, sizeof(a), s->commit_ns),
			fmt_ns(b, sizeof(b), s->commit_max), fmt_ns(c, sizeof(c), s->wait_ns / n),
			fmt_ns(d, sizeof(d), s->locked_ns / n),
			fmt_ns(a, sizeof(a), s->flushing_ns / n), fmt_ns(b, sizeof(b), s->logging_ns / n),
			(unsigned long long)(s->blocks / n));
	}
}

static void text_layers(FILE *out, const struct io_layers *l, const struct phase_summary *ps)
{
	struct { const char *label; uint64_t w, r; int has_r; } rows[] = {
		{ "syscalls (read/write family)", l->sys_write, l->sys_read, 1 },
		{ "page cache (dirtied / added)", l->dirtied, l->pc_added, 1 },
		{ "written back (workload files)", l->wb_tree, 0, 0 },
		{ "block layer: workload", l->blk_write_tree, l->blk_read_tree, 1 },
		{ "block layer: writeback for it", l->blk_write_wb_tree, 0, 0 },
		{ "block layer: journal", l->blk_write_journal, 0, 0 },
		{ "block layer: below, for it", l->blk_write_stack_tree, l->blk_read_stack_tree, 1 },
		{ "block layer: others", l->blk_write_wb + l->blk_write_other + l->blk_write_unknown +
		  l->blk_write_stack - l->blk_write_stack_tree, l->blk_read_others, 1 },
		{ "device counters (/sys/block)", l->dev_write, l->dev_read, 1 },
	};
	char a[32], b[32];

	fprintf(out, "  layers%s:%*s %12s %12s\n", l->ndisks ? "" : " (no block I/O)", 24, "",
		"written", "read");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		fprintf(out, "    %-30s %12s %12s\n", rows[i].label, fmt_bytes(a, sizeof(a), rows[i].w),
			rows[i].has_r ? fmt_bytes(b, sizeof(b), rows[i].r) : "-");
	for (int i = 0; i < ps->nnotes; i++)
		fprintf(out, "    - %s\n", ps->notes[i]);
}

void io_report_text(FILE *out, const struct phase_result *pr, const struct phase_summary *ps)
{
	const struct io_phase *p = pr->io;
	const struct io_layers *l = &ps->layers;

	if (!p || !ps->has_io)
		return;
	fprintf(out, "\n Devices and kernel I/O\n");
	if (p->nrows)
		text_rows(out, p);
	else
		fprintf(out, "  no block requests completed in this phase\n");
	text_devices(out, p);
	text_stacks(out, p);
	text_page_cache(out, p, l);
	text_fs(out, p);
	text_layers(out, l, ps);
	if (io_lost_total(&p->lost))
		fprintf(out, "  not tracked: %llu issued unseen (untracked class), %llu completions "
			"without issue, %llu completions the kernel ran no program for (not "
			"counted; %llu found by the sweep), %llu map-full drops\n",
			(unsigned long long)p->lost.issue_unseen,
			(unsigned long long)p->lost.complete_untracked,
			(unsigned long long)p->lost.complete_missed,
			(unsigned long long)p->lost.complete_swept,
			(unsigned long long)(io_lost_total(&p->lost) - p->lost.issue_unseen -
					     p->lost.complete_untracked - p->lost.complete_missed));
	if (p->lost.clock_reversed)
		fprintf(out, "  %llu requests completed before they were issued by the clock (the CPUs' "
			"clocks disagreed): their device time counted as 0\n",
			(unsigned long long)p->lost.clock_reversed);
	if (p->missing.n) {
		char list[2048];

		fprintf(out, "  probes missing: %s\n",
			missing_probes_text(&p->missing, list, sizeof(list)));
	}
}

/* "  vda  busy 1.20 s of 4.00 s (30.0%); 1,234 requests: read 10.0 MiB, written 117 MiB, the
 * workload's 110 MiB; I/O wait 800 ms". Disks with none of the workload's bytes and none of its
 * I/O wait (other processes' work on the same host) are named on one line at the end. */
void io_report_disks_text(FILE *out, const struct session_summary *sum)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32], others[160] = "";
	int nothers = 0;

	if (!sum || (!sum->ndisks && !sum->nverdicts))
		return;
	/* (a verdict needs no disk: a FUSE daemon's CPU) */
	fprintf(out, sum->ndisks ? "\n== devices (traced phases) ==\n" : "\n== verdicts ==\n");
	for (int i = 0; i < sum->ndisks; i++) {
		const struct disk_line *dl = &sum->disks[i];
		size_t used = strlen(others);

		if (!dl->workload_bytes && !dl->iowait_ns) {
			if (used + strlen(dl->name) + 8 < sizeof(others))
				snprintf(others + used, sizeof(others) - used, "%s%s",
					 nothers ? ", " : "", dl->name);
			else if (!strstr(others, ", ..."))
				snprintf(others + used, sizeof(others) - used, ", ...");
			nothers++;
			continue;
		}

		fprintf(out, "  %-6s busy %s of %s (%s); %s requests: read %s, written %s, the "
			"workload's %s", dl->name, fmt_ns(a, sizeof(a), dl->busy_ns),
			fmt_ns(b, sizeof(b), dl->window_ns),
			fmt_pct(c, sizeof(c), ratio(dl->busy_ns, dl->window_ns)),
			fmt_count(d, sizeof(d), dl->requests), fmt_bytes(e, sizeof(e), dl->read_bytes),
			fmt_bytes(f, sizeof(f), dl->write_bytes),
			fmt_bytes(g, sizeof(g), dl->workload_bytes));
		if (dl->iowait_ns)
			fprintf(out, "; I/O wait %s", fmt_ns(a, sizeof(a), dl->iowait_ns));
		if (dl->missed) /* the kernel ran neither completion program: not in the figures */
			fprintf(out, "; %s more whose completion iowhy did not see (not measured; "
				"each counts busy until it was found: busy is at most that)",
				fmt_count(a, sizeof(a), dl->missed));
		fputc('\n', out);
	}
	if (nothers)
		fprintf(out, "  busy with other processes' work only: %s (-v: every phase's devices)\n",
			others);
	for (int i = 0; i < sum->nstacks; i++) {
		const struct stack_line *st = &sum->stacks[i];

		fprintf(out, "  stack %s", st->line);
		if (st->most >= 0)
			fprintf(out, ": the workload waited %s on %s; %s of it on %s's requests%s%s",
				fmt_ns(a, sizeof(a), st->iowait_ns_total), st->head,
				fmt_ns(b, sizeof(b), st->iowait_ns[st->most]), st->dev[st->most],
				st->below[0] ? ", which sit on " : "", st->below);
		if (st->most >= 0 && st->below[0] && st->below_ns[st->most])
			fprintf(out, "; %s of that in %s's requests below them",
				fmt_ns(a, sizeof(a), st->below_ns[st->most]), st->below);
		fputc('\n', out);
	}
	for (int i = 0; i < sum->nverdicts; i++)
		fprintf(out, "  verdict (%s): %s\n", vd_kind_name(sum->verdicts[i].kind),
			sum->verdicts[i].text);
	if (sum->vin.nmembers >= 2 && !sum->nverdicts) {
		fprintf(out, "  verdicts: nothing stands out among");
		for (int i = 0; i < sum->vin.nmembers; i++)
			fprintf(out, "%s %s", i ? "," : "", sum->vin.m[i].name);
		fputc('\n', out);
	}
}
