// SPDX-License-Identifier: GPL-2.0
/* The device / page-cache section of a phase's report (text and JSON); see io_report.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "io_report.h"
#include "io_model.h"
#include "hist.h"
#include "units.h"

#define NOTES_MAX 12
#define NOTE_LEN 200

struct notes {
	int n;
	char line[NOTES_MAX][NOTE_LEN];
};

static void note(struct notes *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct notes *ns, const char *fmt, ...)
{
	va_list ap;

	if (ns->n >= NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(ns->line[ns->n++], NOTE_LEN, fmt, ap);
	va_end(ap);
}

static const struct io_phase *io_of(const struct phase_result *p)
{
	return p->io;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

/* Close enough to call two byte counts equal: within 1% or one page. */
static int about(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a, big = a > b ? a : b;

	return d <= IO_PAGE_SIZE || d * 100 <= big;
}

/* The explanations of the layer table, computed from the numbers. */
static void explain_layers(const struct io_phase *p, const struct io_layers *l, struct notes *ns)
{
	char a[32], b[32], c[32];
	uint64_t blk_w = l->blk_write_tree + l->blk_write_wb_tree;

	if (l->sys_read && l->blk_read_tree == 0)
		note(ns, "reads: none of the %s read by syscalls reached a block device: served from page cache "
		     "(or not file reads: pipes, /dev/zero)",
		     fmt_bytes(a, sizeof(a), l->sys_read));
	else if (l->read_from_cache && !about(l->sys_read, l->blk_read_tree))
		note(ns, "reads: %s of the %s read by syscalls did not reach a block device: served from page "
		     "cache (or not file reads: pipes, /dev/zero)",
		     fmt_bytes(a, sizeof(a), l->read_from_cache), fmt_bytes(b, sizeof(b), l->sys_read));
	if (l->read_ahead_extra && !about(l->sys_read, l->blk_read_tree))
		note(ns, "reads: the block layer read %s more than the syscalls asked for (readahead: "
		     "%llu sync + %llu async calls)", fmt_bytes(a, sizeof(a), l->read_ahead_extra),
		     (unsigned long long)p->ctr.ra_sync, (unsigned long long)p->ctr.ra_async);
	if (l->sys_write && l->write_not_dirtied && !about(l->sys_write, l->dirtied))
		note(ns, "writes: %s written by syscalls never dirtied the page cache (O_DIRECT, rewrites of "
		     "pages already dirty, or not file writes: pipes, terminals)", fmt_bytes(a, sizeof(a), l->write_not_dirtied));
	if (l->dirtied && blk_w < l->dirtied && l->still_dirty)
		note(ns, "writes: %s the workload dirtied is still in the page cache, not yet written "
		     "back (a flush phase or sync writes it)", fmt_bytes(a, sizeof(a), l->still_dirty));
	if (l->blk_write_wb_tree)
		note(ns, "writeback: flusher threads wrote %s of the workload's files (charged to it)",
		     fmt_bytes(a, sizeof(a), l->blk_write_wb_tree));
	if (l->write_overhead)
		note(ns, "writes: %s of journal and untracked (flush machinery) writes on the same "
		     "devices", fmt_bytes(a, sizeof(a), l->write_overhead));
	if (l->blk_write_wb + l->blk_write_other + l->blk_read_others)
		note(ns, "background: %s written and %s read by other processes and other writeback "
		     "on the same devices (not the workload's)",
		     fmt_bytes(a, sizeof(a), l->blk_write_wb + l->blk_write_other),
		     fmt_bytes(b, sizeof(b), l->blk_read_others));
	if (l->dev_write + l->dev_read && l->dev_minus_block &&
	    !about(l->dev_write + l->dev_read, l->blk_write_all + l->blk_read_all))
		note(ns, "device counters: %s %s than the traced block layer (%s): requests in flight "
		     "at the window's edges, or untraced requests",
		     fmt_bytes(a, sizeof(a), (uint64_t)llabs(l->dev_minus_block)),
		     l->dev_minus_block > 0 ? "more" : "less",
		     fmt_bytes(c, sizeof(c), l->blk_write_all + l->blk_read_all));
	if (p->ctr.bdp_count)
		note(ns, "throttled: balance_dirty_pages paused the workload %llu times, %s in total",
		     (unsigned long long)p->ctr.bdp_count, fmt_ns(a, sizeof(a), p->ctr.bdp_pause_ns));
}

static uint64_t lost_total(const struct io_lost *l)
{
	const __u64 *v = (const __u64 *)l;
	uint64_t s = 0;

	for (size_t k = 0; k < sizeof(*l) / sizeof(__u64); k++)
		s += v[k];
	return s;
}

/* Percentile of a latency histogram; 0 when every value was 0 (max known to be 0). */
static uint64_t lat_pct(const uint32_t *h, int n, double p, uint64_t max)
{
	return max ? hist_percentile(h, n, p, max) : 0;
}

/* Row order: by disk, device, op, class. */
static const struct io_phase *sort_p;

static int cmp_rows(const void *a, const void *b)
{
	const struct io_row *x = &sort_p->rows[*(const size_t *)a], *y = &sort_p->rows[*(const size_t *)b];
	uint32_t dx = io_phase_disk_of(sort_p, x->dev), dy = io_phase_disk_of(sort_p, y->dev);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->op != y->op)
		return x->op - y->op;
	return x->cls - y->cls;
}

static size_t *sorted_rows(const struct io_phase *p)
{
	size_t *idx = malloc((p->nrows + 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < p->nrows; i++)
		idx[i] = i;
	sort_p = p;
	qsort(idx, p->nrows, sizeof(*idx), cmp_rows);
	return idx;
}

static const char *dev_name(const struct io_phase *p, uint32_t dev)
{
	const struct io_devinfo *d = io_phase_find_dev(p, dev);

	return d ? d->name : "?";
}

/* ---- text ---- */

static void text_rows(FILE *out, const struct io_phase *p)
{
	size_t *idx = sorted_rows(p);
	double secs = p->window_ns / 1e9;
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
		char name[40], q[64], dv[64];

		snprintf(name, sizeof(name), "%s%s", d && d->is_partition ? " " : "", dev_name(p, r->dev));
		snprintf(q, sizeof(q), "%s/%s/%s",
			 fmt_ns(b[0], 32, lat_pct(s->qhist, IO_LAT_SLOTS, 50, s->queue_max)),
			 fmt_ns(b[1], 32, lat_pct(s->qhist, IO_LAT_SLOTS, 99, s->queue_max)),
			 fmt_ns(b[2], 32, s->queue_max));
		snprintf(dv, sizeof(dv), "%s/%s/%s",
			 fmt_ns(b[0], 32, lat_pct(s->dhist, IO_LAT_SLOTS, 50, s->dev_max)),
			 fmt_ns(b[1], 32, lat_pct(s->dhist, IO_LAT_SLOTS, 99, s->dev_max)),
			 fmt_ns(b[2], 32, s->dev_max));
		fprintf(out, "  %-10s %-7s %-27s %8llu %10s %8.0f %10.1f %5.0f %26s %26s %5llu\n", name,
			io_op_name(r->op), io_class_name(r->cls), (unsigned long long)s->requests,
			fmt_bytes(b[3], 32, s->bytes), ratio(s->requests, secs),
			ratio(s->bytes / 1048576.0, secs), 100.0 * ratio(s->seq, s->requests), q, dv,
			(unsigned long long)hist_percentile(s->depth_hist, IO_DEPTH_SLOTS, 50, 0));
	}
	free(idx);
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

static uint64_t l_still_dirty(const struct io_phase *p)
{
	struct io_layers l;

	io_layers_compute(p, &l);
	return l.still_dirty;
}

static void text_page_cache(FILE *out, const struct io_phase *p)
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
		"(%llu inodes); the workload's files still dirty: %s; balance_dirty_pages: %llu "
		"pauses, %s\n",
		fmt_bytes(a, sizeof(a), c->wb_bytes), (unsigned long long)c->wb_inodes,
		fmt_bytes(b, sizeof(b), c->wb_tree_bytes), (unsigned long long)c->wb_tree_inodes,
		fmt_bytes(d, sizeof(d), l_still_dirty(p)),
		(unsigned long long)c->bdp_count, fmt_ns(e, sizeof(e), c->bdp_pause_ns));
}

static void text_fs(FILE *out, const struct io_phase *p)
{
	char a[32], b[32], c[32], d[32];

	for (size_t i = 0; i < p->nfs; i++) {
		const struct io_fs_stat *s = &p->fs[i].st;
		uint64_t n = s->fsync + s->fdatasync;

		fprintf(out, "  fsync on %s: %llu fsync + %llu fdatasync, total %s, avg %s, p99 %s, "
			"max %s\n", dev_name(p, p->fs[i].dev), (unsigned long long)s->fsync,
			(unsigned long long)s->fdatasync, fmt_ns(a, sizeof(a), s->total_ns),
			fmt_ns(b, sizeof(b), n ? s->total_ns / n : 0),
			fmt_ns(c, sizeof(c), lat_pct(s->hist, IO_LAT_SLOTS, 99, s->max_ns)),
			fmt_ns(d, sizeof(d), s->max_ns));
	}
	for (size_t i = 0; i < p->njbd; i++) {
		const struct io_jbd_stat *s = &p->jbd[i].st;
		uint64_t n = s->commits ? s->commits : 1;

		fprintf(out, "  journal %s: %llu commits (%llu sync), commit time %s (max %s); per "
			"commit avg: wait %s, locked %s, flushing %s, logging %s, %llu blocks\n",
			dev_name(p, p->jbd[i].dev), (unsigned long long)s->commits,
			(unsigned long long)s->sync_commits, fmt_ns(a, sizeof(a), s->commit_ns),
			fmt_ns(b, sizeof(b), s->commit_max), fmt_ns(c, sizeof(c), s->wait_ns / n),
			fmt_ns(d, sizeof(d), s->locked_ns / n),
			fmt_ns(a, sizeof(a), s->flushing_ns / n), fmt_ns(b, sizeof(b), s->logging_ns / n),
			(unsigned long long)(s->blocks / n));
	}
}

static void text_layers(FILE *out, const struct io_phase *p, const struct io_layers *l)
{
	struct { const char *label; uint64_t w, r; int has_r; } rows[] = {
		{ "syscalls (read/write family)", l->sys_write, l->sys_read, 1 },
		{ "page cache (dirtied / added)", l->dirtied, l->pc_added, 1 },
		{ "written back (workload files)", l->wb_tree, 0, 0 },
		{ "block layer: workload", l->blk_write_tree, l->blk_read_tree, 1 },
		{ "block layer: writeback for it", l->blk_write_wb_tree, 0, 0 },
		{ "block layer: journal", l->blk_write_journal, 0, 0 },
		{ "block layer: others", l->blk_write_wb + l->blk_write_other + l->blk_write_unknown,
		  l->blk_read_others, 1 },
		{ "device counters (/sys/block)", l->dev_write, l->dev_read, 1 },
	};
	struct notes ns = { 0 };
	char a[32], b[32];

	fprintf(out, "  layers%s:%*s %12s %12s\n", l->ndisks ? "" : " (no block I/O)", 24, "",
		"written", "read");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		fprintf(out, "    %-30s %12s %12s\n", rows[i].label, fmt_bytes(a, sizeof(a), rows[i].w),
			rows[i].has_r ? fmt_bytes(b, sizeof(b), rows[i].r) : "-");
	explain_layers(p, l, &ns);
	for (int i = 0; i < ns.n; i++)
		fprintf(out, "    - %s\n", ns.line[i]);
}

void io_report_text(FILE *out, const struct phase_result *pr)
{
	const struct io_phase *p = io_of(pr);
	struct io_layers l;

	if (!p)
		return;
	io_layers_compute(p, &l);
	fprintf(out, "\n Devices and kernel I/O\n");
	if (p->nrows)
		text_rows(out, p);
	else
		fprintf(out, "  no block requests completed in this phase\n");
	text_devices(out, p);
	text_page_cache(out, p);
	text_fs(out, p);
	text_layers(out, p, &l);
	if (lost_total(&p->lost))
		fprintf(out, "  not tracked: %llu issued unseen (untracked class), %llu completions "
			"without issue, %llu map-full drops\n",
			(unsigned long long)p->lost.issue_unseen,
			(unsigned long long)p->lost.complete_untracked,
			(unsigned long long)(lost_total(&p->lost) - p->lost.issue_unseen -
					     p->lost.complete_untracked));
	if (p->missing.n) {
		char list[2048];

		fprintf(out, "  probes missing: %s\n",
			missing_probes_text(&p->missing, list, sizeof(list)));
	}
}

/* ---- JSON ---- */

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

static void put_dbl(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static struct json_object *hist_arr(const uint32_t *h, int n)
{
	struct json_object *a = json_object_new_array();
	int last = n - 1;

	while (last >= 0 && !h[last])
		last--;
	for (int k = 0; k <= last; k++)
		json_object_array_add(a, json_object_new_int64(h[k]));
	return a;
}

static struct json_object *lat_obj(const uint32_t *h, uint64_t total, uint64_t max)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "total", total);
	put_u64(o, "p50", lat_pct(h, IO_LAT_SLOTS, 50, max));
	put_u64(o, "p90", lat_pct(h, IO_LAT_SLOTS, 90, max));
	put_u64(o, "p99", lat_pct(h, IO_LAT_SLOTS, 99, max));
	put_u64(o, "max", max);
	put(o, "hist", hist_arr(h, IO_LAT_SLOTS));
	return o;
}

static void put_devref(struct json_object *o, const struct io_phase *p, uint32_t dev)
{
	const struct io_devinfo *d = io_phase_find_dev(p, dev);
	char mm[24];

	snprintf(mm, sizeof(mm), "%u:%u", IO_DEV_MAJOR(dev), IO_DEV_MINOR(dev));
	put(o, "dev", json_object_new_string(mm));
	put(o, "name", json_object_new_string(d ? d->name : mm));
	put(o, "disk", json_object_new_string(d ? d->disk_name : mm));
}

static struct json_object *requests_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();
	size_t *idx = sorted_rows(p);
	double secs = p->window_ns / 1e9;

	for (size_t i = 0; idx && i < p->nrows; i++) {
		const struct io_row *r = &p->rows[idx[i]];
		const struct io_stat *s = &r->st;
		struct json_object *o = json_object_new_object();

		put_devref(o, p, r->dev);
		put(o, "op", json_object_new_string(io_op_name(r->op)));
		put(o, "class", json_object_new_string(io_class_key(r->cls)));
		put_u64(o, "requests", s->requests);
		put_u64(o, "bytes", s->bytes);
		put_dbl(o, "iops", ratio(s->requests, secs));
		put_dbl(o, "mib_per_s", ratio(s->bytes / 1048576.0, secs));
		put_u64(o, "sequential", s->seq);
		put_dbl(o, "sequential_share", ratio(s->seq, s->requests));
		put_u64(o, "requeues", s->requeues);
		put(o, "queue_ns", lat_obj(s->qhist, s->queue_ns, s->queue_max));
		put(o, "device_ns", lat_obj(s->dhist, s->dev_ns, s->dev_max));
		put(o, "size_hist_log2_bytes", hist_arr(s->size_hist, IO_SIZE_SLOTS));
		put(o, "depth_hist_log2", hist_arr(s->depth_hist, IO_DEPTH_SLOTS));
		json_object_array_add(a, o);
	}
	free(idx);
	return a;
}

static struct json_object *devices_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->ndevs; i++) {
		const struct io_devinfo *d = &p->devs[i];
		struct json_object *o = json_object_new_object(), *st;

		put_devref(o, p, d->dev);
		put(o, "partition", json_object_new_boolean(d->is_partition));
		put_u64(o, "busy_ns", d->busy_ns);
		put_dbl(o, "utilization", ratio(d->busy_ns, p->window_ns));
		put_u64(o, "issued", d->issued);
		if (d->has_stat) {
			st = json_object_new_object();
			put_u64(st, "read_ios", d->stat.rd_ios);
			put_u64(st, "read_bytes", d->stat.rd_sectors * 512);
			put_u64(st, "read_merges", d->stat.rd_merges);
			put_u64(st, "write_ios", d->stat.wr_ios);
			put_u64(st, "write_bytes", d->stat.wr_sectors * 512);
			put_u64(st, "write_merges", d->stat.wr_merges);
			put_u64(st, "discard_ios", d->stat.dc_ios);
			put_u64(st, "flush_ios", d->stat.fl_ios);
			put_u64(st, "io_ticks_ms", d->stat.io_ticks);
			put(o, "stat", st);
		} else {
			put(o, "stat", NULL);
		}
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *page_cache_obj(const struct io_phase *p)
{
	const struct io_phase_ctr *c = &p->ctr;
	struct json_object *o = json_object_new_object();

	put_u64(o, "dirtied_bytes", c->dirtied_bytes);
	put_u64(o, "dirtied_inodes", c->dirtied_inodes);
	put_u64(o, "added_bytes", c->pc_added_bytes);
	put_u64(o, "removed_bytes", c->pc_removed_bytes);
	put_u64(o, "readahead_sync", c->ra_sync);
	put_u64(o, "readahead_async", c->ra_async);
	put_u64(o, "readahead_pages", c->ra_pages);
	put_u64(o, "balance_dirty_pages_count", c->bdp_count);
	put_u64(o, "balance_dirty_pages_pause_ns", c->bdp_pause_ns);
	put_u64(o, "written_back_bytes", c->wb_bytes);
	put_u64(o, "written_back_inodes", c->wb_inodes);
	put_u64(o, "written_back_workload_bytes", c->wb_tree_bytes);
	put_u64(o, "written_back_workload_inodes", c->wb_tree_inodes);
	put_u64(o, "workload_inodes", p->tree_inodes);
	put_u64(o, "workload_dirtied_total_bytes", p->tree_dirtied_total);
	put_u64(o, "workload_written_back_total_bytes", p->tree_wb_total);
	put_u64(o, "workload_removed_total_bytes", p->tree_removed_total);
	put_u64(o, "bio_backmerges", c->bio_backmerges);
	put_u64(o, "bio_frontmerges", c->bio_frontmerges);
	put_u64(o, "request_merges", c->rq_merges);
	put_u64(o, "requeues", c->requeues);
	put_u64(o, "splits", c->splits);
	return o;
}

static struct json_object *fs_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->nfs; i++) {
		const struct io_fs_stat *s = &p->fs[i].st;
		struct json_object *o = json_object_new_object();

		put_devref(o, p, p->fs[i].dev);
		put_u64(o, "fsync", s->fsync);
		put_u64(o, "fdatasync", s->fdatasync);
		put(o, "latency_ns", lat_obj(s->hist, s->total_ns, s->max_ns));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *jbd_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->njbd; i++) {
		const struct io_jbd_stat *s = &p->jbd[i].st;
		struct json_object *o = json_object_new_object();

		put_devref(o, p, p->jbd[i].dev);
		put_u64(o, "commits", s->commits);
		put_u64(o, "sync_commits", s->sync_commits);
		put_u64(o, "wait_ns", s->wait_ns);
		put_u64(o, "request_delay_ns", s->request_delay_ns);
		put_u64(o, "running_ns", s->running_ns);
		put_u64(o, "locked_ns", s->locked_ns);
		put_u64(o, "flushing_ns", s->flushing_ns);
		put_u64(o, "logging_ns", s->logging_ns);
		put_u64(o, "handles", s->handles);
		put_u64(o, "blocks", s->blocks);
		put_u64(o, "blocks_logged", s->blocks_logged);
		put_u64(o, "commit_count", s->commit_count);
		put(o, "commit_ns", lat_obj(s->hist, s->commit_ns, s->commit_max));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *layers_obj(const struct io_phase *p, const struct io_layers *l)
{
	struct json_object *o = json_object_new_object(), *notes = json_object_new_array();
	struct notes ns = { 0 };

	put_u64(o, "sys_write_bytes", l->sys_write);
	put_u64(o, "sys_read_bytes", l->sys_read);
	put_u64(o, "sys_writes", p->sys_writes);
	put_u64(o, "sys_reads", p->sys_reads);
	put_u64(o, "dirtied_bytes", l->dirtied);
	put_u64(o, "page_cache_added_bytes", l->pc_added);
	put_u64(o, "written_back_workload_bytes", l->wb_tree);
	put_u64(o, "written_back_bytes", l->wb_all);
	put_u64(o, "block_write_workload_bytes", l->blk_write_tree);
	put_u64(o, "block_write_writeback_workload_bytes", l->blk_write_wb_tree);
	put_u64(o, "block_write_writeback_other_bytes", l->blk_write_wb);
	put_u64(o, "block_write_journal_bytes", l->blk_write_journal);
	put_u64(o, "block_write_other_bytes", l->blk_write_other);
	put_u64(o, "block_write_untracked_bytes", l->blk_write_unknown);
	put_u64(o, "block_read_workload_bytes", l->blk_read_tree);
	put_u64(o, "block_read_others_bytes", l->blk_read_others);
	put_u64(o, "block_write_bytes", l->blk_write_all);
	put_u64(o, "block_read_bytes", l->blk_read_all);
	put_u64(o, "device_write_bytes", l->dev_write);
	put_u64(o, "device_read_bytes", l->dev_read);
	put_u64(o, "still_dirty_bytes", l->still_dirty);
	put_u64(o, "write_not_dirtied_bytes", l->write_not_dirtied);
	put_u64(o, "read_from_cache_bytes", l->read_from_cache);
	put_u64(o, "read_ahead_extra_bytes", l->read_ahead_extra);
	put_u64(o, "write_overhead_bytes", l->write_overhead);
	put(o, "device_minus_block_bytes", json_object_new_int64(l->dev_minus_block));
	put_u64(o, "disks", l->ndisks);
	explain_layers(p, l, &ns);
	for (int i = 0; i < ns.n; i++)
		json_object_array_add(notes, json_object_new_string(ns.line[i]));
	put(o, "notes", notes);
	return o;
}

static struct json_object *lost_obj(const struct io_lost *l)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "bios_full", l->bios_full);
	put_u64(o, "requests_full", l->reqs_full);
	put_u64(o, "stats_full", l->stats_full);
	put_u64(o, "devices_full", l->devs_full);
	put_u64(o, "inodes_full", l->inodes_full);
	put_u64(o, "writeback_full", l->wb_full);
	put_u64(o, "fs_full", l->fs_full);
	put_u64(o, "issue_unseen", l->issue_unseen);
	put_u64(o, "complete_untracked", l->complete_untracked);
	put_u64(o, "fsync_unmatched", l->fsync_unmatched);
	put_u64(o, "commit_unmatched", l->commit_unmatched);
	return o;
}

/* The names of the probes that are not attached. */
static struct json_object *missing_arr(const struct missing_probes *m)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < m->n; i++)
		json_object_array_add(a, json_object_new_string(m->v[i].name));
	return a;
}

void io_report_json(struct json_object *phase_obj, const struct phase_result *pr)
{
	const struct io_phase *p = io_of(pr);
	struct json_object *o;
	struct io_layers l;

	if (!p)
		return;
	io_layers_compute(p, &l);
	o = json_object_new_object();
	put_u64(o, "window_ns", p->window_ns);
	put(o, "requests", requests_arr(p));
	put(o, "devices", devices_arr(p));
	put(o, "page_cache", page_cache_obj(p));
	put(o, "fsync", fs_arr(p));
	put(o, "journal", jbd_arr(p));
	put(o, "layers", layers_obj(p, &l));
	put(o, "lost", lost_obj(&p->lost));
	put(o, "missing", missing_arr(&p->missing));
	put(phase_obj, "io", o);
}
