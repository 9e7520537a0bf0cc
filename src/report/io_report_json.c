// SPDX-License-Identifier: GPL-2.0
/* The device / page-cache member "io" of a phase in the JSON report; see io_report.h. */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "io_report.h"
#include "io_model.h"
#include "json_put.h"

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

static struct json_object *lat_obj(const uint32_t *h, uint64_t total, uint64_t max)
{
	struct json_object *o = json_object_new_object();

	jput_u64(o, "total", total);
	jput_u64(o, "p50", io_lat_pct(h, 50, max));
	jput_u64(o, "p90", io_lat_pct(h, 90, max));
	jput_u64(o, "p99", io_lat_pct(h, 99, max));
	jput_u64(o, "max", max);
	jput(o, "hist", jhist(h, IO_LAT_SLOTS));
	return o;
}

/* "MAJ:MIN" of a kernel dev_t. */
static struct json_object *jdev(uint32_t dev)
{
	char mm[24];

	snprintf(mm, sizeof(mm), "%u:%u", IO_DEV_MAJOR(dev), IO_DEV_MINOR(dev));
	return json_object_new_string(mm);
}

static void put_devref(struct json_object *o, const struct io_phase *p, uint32_t dev)
{
	const struct io_devinfo *d = io_phase_find_dev(p, dev);
	char mm[24];

	snprintf(mm, sizeof(mm), "%u:%u", IO_DEV_MAJOR(dev), IO_DEV_MINOR(dev));
	jput(o, "dev", json_object_new_string(mm));
	jput(o, "name", json_object_new_string(d ? d->name : mm));
	jput(o, "disk", json_object_new_string(d ? d->disk_name : mm));
}

static struct json_object *requests_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();
	size_t *idx = io_phase_sorted_rows(p);
	double secs = io_phase_rate_secs(p);

	for (size_t i = 0; idx && i < p->nrows; i++) {
		const struct io_row *r = &p->rows[idx[i]];
		const struct io_stat *s = &r->st;
		struct json_object *o = json_object_new_object();

		put_devref(o, p, r->dev);
		jput(o, "op", json_object_new_string(io_op_name(r->op)));
		jput(o, "class", json_object_new_string(io_class_key(r->cls)));
		jput(o, "upper", r->cls == IO_CL_STACK ?
		     json_object_new_string(io_phase_dev_name(p, r->upper)) : NULL);
		jput(o, "upper_dev", r->cls == IO_CL_STACK ? jdev(r->upper) : NULL);
		jput_u64(o, "workload_bytes", r->cls == IO_CL_STACK ? r->charged :
			 r->cls == IO_CL_TREE || r->cls == IO_CL_WB_TREE ? s->bytes : 0);
		jput_u64(o, "requests", s->requests);
		jput_u64(o, "bytes", s->bytes);
		jput_dbl(o, "iops", ratio(s->requests, secs));
		jput_dbl(o, "mib_per_s", ratio(s->bytes / 1048576.0, secs));
		jput_u64(o, "sequential", s->seq);
		jput_dbl(o, "sequential_share", ratio(s->seq, s->requests));
		jput_u64(o, "requeues", s->requeues);
		jput(o, "queue_ns", lat_obj(s->qhist, s->queue_ns, s->queue_max));
		jput(o, "device_ns", lat_obj(s->dhist, s->dev_ns, s->dev_max));
		jput(o, "size_hist_log2_bytes", jhist(s->size_hist, IO_SIZE_SLOTS));
		jput(o, "depth_hist_log2", jhist(s->depth_hist, IO_DEPTH_SLOTS));
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
		jput(o, "partition", json_object_new_boolean(d->is_partition));
		jput_u64(o, "busy_ns", d->busy_ns);
		jput_dbl(o, "utilization", ratio(d->busy_ns, p->window_ns));
		jput_u64(o, "issued", d->issued);
		jput_u64(o, "missed_completions", d->missed);
		jput_bool(o, "busy_exact", !d->missed);
		if (d->thr_read_bps || d->thr_write_bps || d->thr_read_iops || d->thr_write_iops) {
			struct json_object *t = json_object_new_object();

			jput_u64(t, "read_bps", d->thr_read_bps);
			jput_u64(t, "write_bps", d->thr_write_bps);
			jput_u64(t, "read_iops", d->thr_read_iops);
			jput_u64(t, "write_iops", d->thr_write_iops);
			jput_str(t, "cgroup", d->thr_cgroup);
			jput(o, "throttle", t);
		} else {
			jput(o, "throttle", NULL);
		}
		if (d->has_stat) {
			st = json_object_new_object();
			jput_u64(st, "read_ios", d->stat.rd_ios);
			jput_u64(st, "read_bytes", d->stat.rd_sectors * 512);
			jput_u64(st, "read_merges", d->stat.rd_merges);
			jput_u64(st, "write_ios", d->stat.wr_ios);
			jput_u64(st, "write_bytes", d->stat.wr_sectors * 512);
			jput_u64(st, "write_merges", d->stat.wr_merges);
			jput_u64(st, "discard_ios", d->stat.dc_ios);
			jput_u64(st, "flush_ios", d->stat.fl_ios);
			jput_u64(st, "io_ticks_ns", d->stat.io_ticks * 1000000ull);
			jput(o, "stat", st);
		} else {
			jput(o, "stat", NULL);
		}
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *page_cache_obj(const struct io_phase *p)
{
	const struct io_phase_ctr *c = &p->ctr;
	struct json_object *o = json_object_new_object();

	jput_u64(o, "dirtied_bytes", c->dirtied_bytes);
	jput_u64(o, "dirtied_inodes", c->dirtied_inodes);
	jput_u64(o, "added_bytes", c->pc_added_bytes);
	jput_u64(o, "removed_bytes", c->pc_removed_bytes);
	jput_u64(o, "readahead_sync", c->ra_sync);
	jput_u64(o, "readahead_async", c->ra_async);
	jput_u64(o, "readahead_pages", c->ra_pages);
	jput_u64(o, "balance_dirty_pages_count", c->bdp_count);
	jput_u64(o, "balance_dirty_pages_pause_ns", c->bdp_pause_ns);
	jput_u64(o, "written_back_bytes", c->wb_bytes);
	jput_u64(o, "written_back_inodes", c->wb_inodes);
	jput_u64(o, "written_back_workload_bytes", c->wb_tree_bytes);
	jput_u64(o, "written_back_workload_inodes", c->wb_tree_inodes);
	jput_u64(o, "workload_inodes", p->tree_inodes);
	jput_u64(o, "workload_dirtied_total_bytes", p->tree_dirtied_total);
	jput_u64(o, "workload_written_back_total_bytes", p->tree_wb_total);
	jput_u64(o, "workload_removed_total_bytes", p->tree_removed_total);
	jput_u64(o, "bio_backmerges", c->bio_backmerges);
	jput_u64(o, "bio_frontmerges", c->bio_frontmerges);
	jput_u64(o, "request_merges", c->rq_merges);
	jput_u64(o, "requeues", c->requeues);
	jput_u64(o, "splits", c->splits);
	return o;
}

static struct json_object *fs_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->nfs; i++) {
		const struct io_fs_stat *s = &p->fs[i].st;
		struct json_object *o = json_object_new_object();

		put_devref(o, p, p->fs[i].dev);
		jput_u64(o, "fsync", s->fsync);
		jput_u64(o, "fdatasync", s->fdatasync);
		jput(o, "latency_ns", lat_obj(s->hist, s->total_ns, s->max_ns));
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
		jput_u64(o, "commits", s->commits);
		jput_u64(o, "sync_commits", s->sync_commits);
		jput_u64(o, "wait_ns", s->wait_ns);
		jput_u64(o, "request_delay_ns", s->request_delay_ns);
		jput_u64(o, "running_ns", s->running_ns);
		jput_u64(o, "locked_ns", s->locked_ns);
		jput_u64(o, "flushing_ns", s->flushing_ns);
		jput_u64(o, "logging_ns", s->logging_ns);
		jput_u64(o, "handles", s->handles);
		jput_u64(o, "blocks", s->blocks);
		jput_u64(o, "blocks_logged", s->blocks_logged);
		jput_u64(o, "commit_count", s->commit_count);
		jput(o, "commit_ns", lat_obj(s->hist, s->commit_ns, s->commit_max));
		json_object_array_add(a, o);
	}
	return a;
}

/* The file systems on stacked devices: the line, and each level's devices with their numbers. */
static struct json_object *stacks_arr(const struct io_phase *p)
{
	struct json_object *a = json_object_new_array();
	char line[512];

	for (size_t s = 0; s < p->nstacks; s++) {
		const struct io_stackline *sl = &p->stacks[s];
		struct json_object *o = json_object_new_object(), *levels = json_object_new_array();

		jput(o, "head", json_object_new_string(sl->head));
		jput(o, "line", json_object_new_string(io_stackline_format(p, sl, line,
									     sizeof(line))));
		for (int l = 0; l < sl->nlevels; l++) {
			struct json_object *lv = json_object_new_array();

			for (int i = 0; i < sl->ndev[l]; i++) {
				struct json_object *d = json_object_new_object();
				struct io_level_stat v;

				io_level_stat(p, sl->dev[l][i], &v);
				put_devref(d, p, sl->dev[l][i]);
				jput_u64(d, "requests", v.requests);
				jput_u64(d, "bytes", v.bytes);
				jput_u64(d, "workload_bytes", v.workload_bytes);
				jput_u64(d, "below_bytes", v.below_bytes);
				jput_u64(d, "below_workload_bytes", v.below_workload_bytes);
				jput_u64(d, "queue_ns", v.queue_ns);
				jput_u64(d, "device_ns", v.dev_ns);
				jput_u64(d, "busy_ns", v.busy_ns);
				jput(d, "sits_on", sl->on[l][i] ?
					 json_object_new_int(sl->on[l][i] - 1) : NULL);
				json_object_array_add(lv, d);
			}
			json_object_array_add(levels, lv);
		}
		jput(o, "levels", levels);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *layers_obj(const struct io_phase *p, const struct phase_summary *ps)
{
	struct json_object *o = json_object_new_object(), *notes = json_object_new_array();
	const struct io_layers *l = &ps->layers;

	jput_u64(o, "sys_write_bytes", l->sys_write);
	jput_u64(o, "sys_read_bytes", l->sys_read);
	jput_u64(o, "sys_writes", p->sys_writes);
	jput_u64(o, "sys_reads", p->sys_reads);
	jput_u64(o, "dirtied_bytes", l->dirtied);
	jput_u64(o, "page_cache_added_bytes", l->pc_added);
	jput_u64(o, "written_back_workload_bytes", l->wb_tree);
	jput_u64(o, "written_back_bytes", l->wb_all);
	jput_u64(o, "block_write_workload_bytes", l->blk_write_tree);
	jput_u64(o, "block_write_writeback_workload_bytes", l->blk_write_wb_tree);
	jput_u64(o, "block_write_writeback_other_bytes", l->blk_write_wb);
	jput_u64(o, "block_write_journal_bytes", l->blk_write_journal);
	jput_u64(o, "block_write_other_bytes", l->blk_write_other);
	jput_u64(o, "block_write_untracked_bytes", l->blk_write_unknown);
	jput_u64(o, "block_write_below_bytes", l->blk_write_stack);
	jput_u64(o, "block_write_below_workload_bytes", l->blk_write_stack_tree);
	jput_u64(o, "block_read_below_workload_bytes", l->blk_read_stack_tree);
	jput_u64(o, "block_read_workload_bytes", l->blk_read_tree);
	jput_u64(o, "block_read_others_bytes", l->blk_read_others);
	jput_u64(o, "block_write_bytes", l->blk_write_all);
	jput_u64(o, "block_read_bytes", l->blk_read_all);
	jput_u64(o, "device_write_bytes", l->dev_write);
	jput_u64(o, "device_read_bytes", l->dev_read);
	jput_u64(o, "still_dirty_bytes", l->still_dirty);
	jput_u64(o, "write_not_dirtied_bytes", l->write_not_dirtied);
	jput_u64(o, "read_from_cache_bytes", l->read_from_cache);
	jput_u64(o, "read_ahead_extra_bytes", l->read_ahead_extra);
	jput_u64(o, "write_overhead_bytes", l->write_overhead);
	jput_i64(o, "device_minus_block_bytes", l->dev_minus_block);
	jput_u64(o, "disks", l->ndisks);
	for (int i = 0; i < ps->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(ps->notes[i]));
	jput(o, "notes", notes);
	return o;
}

static struct json_object *lost_obj(const struct io_lost *l)
{
	struct json_object *o = json_object_new_object();

	jput_u64(o, "bios_full", l->bios_full);
	jput_u64(o, "requests_full", l->reqs_full);
	jput_u64(o, "stats_full", l->stats_full);
	jput_u64(o, "devices_full", l->devs_full);
	jput_u64(o, "inodes_full", l->inodes_full);
	jput_u64(o, "writeback_full", l->wb_full);
	jput_u64(o, "fs_full", l->fs_full);
	jput_u64(o, "issue_unseen", l->issue_unseen);
	jput_u64(o, "complete_untracked", l->complete_untracked);
	jput_u64(o, "fsync_unmatched", l->fsync_unmatched);
	jput_u64(o, "commit_unmatched", l->commit_unmatched);
	jput_u64(o, "clock_reversed", l->clock_reversed);
	jput_u64(o, "complete_late", l->complete_late);
	jput_u64(o, "complete_missed", l->complete_missed);
	jput_u64(o, "complete_swept", l->complete_swept);
	return o;
}

void io_report_json(struct json_object *phase_obj, const struct phase_result *pr,
		    const struct phase_summary *ps)
{
	const struct io_phase *p = pr->io;
	struct json_object *o;

	if (!p || !ps->has_io)
		return;
	o = json_object_new_object();
	jput_u64(o, "window_ns", p->window_ns);
	jput_u64(o, "rate_window_ns", p->rate_ns);
	jput(o, "requests", requests_arr(p));
	jput(o, "devices", devices_arr(p));
	jput(o, "stacks", stacks_arr(p));
	jput(o, "page_cache", page_cache_obj(p));
	jput(o, "fsync", fs_arr(p));
	jput(o, "journal", jbd_arr(p));
	jput(o, "layers", layers_obj(p, ps));
	jput(o, "lost", lost_obj(&p->lost));
	jput(o, "missing", jprobe_names(&p->missing));
	jput(phase_obj, "io", o);
}

struct json_object *io_report_stacks_json(const struct session_summary *sum)
{
	struct json_object *a = json_object_new_array();

	for (int k = 0; sum && k < sum->nstacks; k++) {
		const struct stack_line *st = &sum->stacks[k];
		struct json_object *o = json_object_new_object(), *devs = json_object_new_array();

		jput_str(o, "line", st->line);
		jput_str(o, "head", st->head);
		jput_u64(o, "iowait_ns", st->iowait_ns_total);
		for (int i = 0; i < st->ndevs; i++) {
			struct json_object *d = json_object_new_object();

			jput_str(d, "name", st->dev[i]);
			jput_i64(d, "level", st->level[i]);
			jput_u64(d, "iowait_ns", st->iowait_ns[i]);
			jput_u64(d, "iowait_below_ns", st->below_ns[i]);
			json_object_array_add(devs, d);
		}
		jput(o, "devices", devs);
		jput(o, "most_waited", st->most >= 0 ? json_object_new_string(st->dev[st->most]) :
			NULL);
		jput_u64(o, "most_waited_ns", st->most >= 0 ? st->iowait_ns[st->most] : 0);
		jput(o, "most_waited_below", st->below[0] ? json_object_new_string(st->below) : NULL);
		jput_u64(o, "most_waited_below_ns", st->most >= 0 ? st->below_ns[st->most] : 0);
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *io_report_verdicts_json(const struct session_summary *sum)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; sum && i < sum->nverdicts; i++) {
		const struct verdict *v = &sum->verdicts[i];
		struct json_object *o = json_object_new_object(), *in = json_object_new_object();

		jput_str(o, "kind", vd_kind_name(v->kind));
		jput_str(o, "subject", v->subject);
		jput_str(o, "text", v->text);
		for (int k = 0; k < v->ninputs; k++)
			jput_dbl(in, v->inputs[k].key, v->inputs[k].val);
		jput(o, "inputs", in);
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *io_report_verdicts_withdrawn_json(const struct session_summary *sum)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; sum && i < sum->nwithdrawn && i < VD_MAX; i++) {
		const struct vd_withdrawn *w = &sum->withdrawn[i];
		struct json_object *o = json_object_new_object();

		jput_str(o, "kind", vd_kind_name(w->kind));
		jput_str(o, "subject", w->subject);
		jput_str(o, "why", w->why);
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *io_report_verdict_inputs_json(const struct session_summary *sum)
{
	const struct vd_input *in = sum ? &sum->vin : NULL;
	struct json_object *o, *a;

	if (!in || in->nmembers < 2)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	for (int i = 0; i < in->nmembers; i++) {
		const struct vd_member *m = &in->m[i];
		struct json_object *x = json_object_new_object();

		jput_str(x, "name", m->name);
		jput_dbl(x, "lat_us", m->lat_us);
		jput_dbl(x, "qwait_us", m->qwait_us);
		jput_dbl(x, "busy_pct", m->busy_pct);
		jput_dbl(x, "mib_s", m->mib_s);
		jput_dbl(x, "iops", m->iops);
		jput_dbl(x, "inflight", m->inflight);
		jput_dbl(x, "iowait_s", m->iowait_s);
		jput_u64(x, "throttle_read_bps", m->thr_read_bps);
		jput_u64(x, "throttle_write_bps", m->thr_write_bps);
		jput_u64(x, "throttle_read_iops", m->thr_read_iops);
		jput_u64(x, "throttle_write_iops", m->thr_write_iops);
		jput_str(x, "below", m->bottom);
		json_object_array_add(a, x);
	}
	jput(o, "members", a);
	jput_bool(o, "peers", !in->independent);
	jput_str(o, "shared_lower", in->shared_lower);
	jput_bool(o, "writes", in->writes);
	jput_str(o, "top_thread", in->top_thread);
	jput_dbl(o, "top_thread_cpu_pct", in->top_thread_cpu_pct);
	jput_dbl(o, "top_thread_runq_pct", in->top_thread_runq_pct);
	jput_dbl(o, "wall_s", in->wall_s);
	jput_dbl(o, "runq_s", in->runq_s);
	jput_dbl(o, "dirty_pause_s", in->dirty_pause_s);
	jput_dbl(o, "journal_wait_s", in->journal_wait_s);
	return o;
}
