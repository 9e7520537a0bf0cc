// SPDX-License-Identifier: GPL-2.0
/* The "io" member of a saved JSON report read back (report_load.c): requests with their latency
 * histograms, devices, page cache, fsync, journal, losses, and the layer table with its notes. */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "report_load.h"
#include "io_model.h"
#include "summary.h"

/* "MAJ:MIN" as the kernel's dev_t (major << 20 | minor). */
static uint32_t dev_of(const char *mm)
{
	unsigned maj = 0, min = 0;

	if (sscanf(mm, "%u:%u", &maj, &min) != 2)
		return 0;
	return maj << 20 | (min & 0xfffff);
}

void report_load_hist(struct json_object *a, uint32_t *h, int n)
{
	for (size_t i = 0; i < rl_alen(a) && (int)i < n; i++)
		h[i] = (uint32_t)json_object_get_uint64(json_object_array_get_idx(a, i));
}

static int index_of(const char *name, const char *(*fn)(int), int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(fn(i), name))
			return i;
	return -1;
}

/* A device's blk-throttle limits for the workload's cgroup (`throttle`, or null). */
static void load_throttle(struct json_object *t, struct io_devinfo *d)
{
	if (!t || !json_object_is_type(t, json_type_object))
		return;
	d->thr_read_bps = rl_u64(t, "read_bps");
	d->thr_write_bps = rl_u64(t, "write_bps");
	d->thr_read_iops = rl_u64(t, "read_iops");
	d->thr_write_iops = rl_u64(t, "write_iops");
	snprintf(d->thr_cgroup, sizeof(d->thr_cgroup), "%s", rl_str(t, "cgroup"));
}

static void load_devices(struct json_object *a, struct io_phase *p)
{
	for (size_t i = 0; i < rl_alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *st = rl_member(o, "stat");
		struct io_devinfo *d = io_phase_dev(p, dev_of(rl_str(o, "dev")));

		if (!d)
			return;
		snprintf(d->name, sizeof(d->name), "%s", rl_str(o, "name"));
		snprintf(d->disk_name, sizeof(d->disk_name), "%s", rl_str(o, "disk"));
		d->is_partition = json_object_get_boolean(rl_member(o, "partition"));
		d->busy_ns = rl_u64(o, "busy_ns");
		d->issued = rl_u64(o, "issued");
		d->missed = rl_u64(o, "missed_completions");
		d->has_stat = st && json_object_is_type(st, json_type_object);
		d->stat.rd_ios = rl_u64(st, "read_ios");
		d->stat.rd_sectors = rl_u64(st, "read_bytes") / 512;
		d->stat.rd_merges = rl_u64(st, "read_merges");
		d->stat.wr_ios = rl_u64(st, "write_ios");
		d->stat.wr_sectors = rl_u64(st, "write_bytes") / 512;
		d->stat.wr_merges = rl_u64(st, "write_merges");
		d->stat.dc_ios = rl_u64(st, "discard_ios");
		d->stat.fl_ios = rl_u64(st, "flush_ios");
		d->stat.io_ticks = rl_u64(st, "io_ticks_ns") / 1000000;
		load_throttle(rl_member(o, "throttle"), d);
	}
	/* the disk of each device, by its name */
	for (size_t i = 0; i < p->ndevs; i++)
		for (size_t k = 0; k < p->ndevs; k++)
			if (!strcmp(p->devs[k].name, p->devs[i].disk_name))
				p->devs[i].disk = p->devs[k].dev;
}

static int load_requests(struct json_object *a, struct io_phase *p)
{
	for (size_t i = 0; i < rl_alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct json_object *q = rl_member(o, "queue_ns"), *d = rl_member(o, "device_ns");
		int op = index_of(rl_str(o, "op"), io_op_name, IO_OP_COUNT);
		int cls = index_of(rl_str(o, "class"), io_class_key, IO_CL_COUNT);
		uint32_t dev = dev_of(rl_str(o, "dev"));
		struct io_devinfo *di;
		struct io_stat st;

		if (op < 0 || cls < 0)
			continue;
		memset(&st, 0, sizeof(st));
		st.requests = rl_u64(o, "requests");
		st.bytes = rl_u64(o, "bytes");
		st.seq = rl_u64(o, "sequential");
		st.requeues = rl_u64(o, "requeues");
		st.queue_ns = rl_u64(q, "total");
		st.queue_max = rl_u64(q, "max");
		st.dev_ns = rl_u64(d, "total");
		st.dev_max = rl_u64(d, "max");
		report_load_hist(rl_member(q, "hist"), st.qhist, IO_LAT_SLOTS);
		report_load_hist(rl_member(d, "hist"), st.dhist, IO_LAT_SLOTS);
		report_load_hist(rl_member(o, "size_hist_log2_bytes"), st.size_hist, IO_SIZE_SLOTS);
		report_load_hist(rl_member(o, "depth_hist_log2"), st.depth_hist, IO_DEPTH_SLOTS);
		if (!io_phase_find_dev(p, dev) && (di = io_phase_dev(p, dev))) {
			snprintf(di->name, sizeof(di->name), "%s", rl_str(o, "name"));
			snprintf(di->disk_name, sizeof(di->disk_name), "%s", rl_str(o, "disk"));
		}
		if (io_phase_add_upper(p, dev, dev_of(rl_str(o, "upper_dev")), (uint8_t)op,
				       (uint8_t)cls, &st))
			return -1;
	}
	return 0;
}

/* The stack lines (io.stacks): head and each level's devices. */
static int load_stacks(struct json_object *a, struct io_phase *p)
{
	for (size_t i = 0; i < rl_alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *lv = rl_member(o, "levels");
		struct io_stackline sl;

		memset(&sl, 0, sizeof(sl));
		snprintf(sl.head, sizeof(sl.head), "%s", rl_str(o, "head"));
		for (size_t l = 0; l < rl_alen(lv) && l < IO_STACK_LEVELS; l++) {
			struct json_object *devs = json_object_array_get_idx(lv, l);

			for (size_t k = 0; k < rl_alen(devs) && k < IO_STACK_WIDTH; k++) {
				struct json_object *d = json_object_array_get_idx(devs, k);
				struct json_object *on = rl_member(d, "sits_on");
				int64_t j = on ? json_object_get_int64(on) : -1;

				/* the index in the next level of what it sits on (null: none known) */
				sl.on[l][sl.ndev[l]] = j >= 0 && j < IO_STACK_WIDTH ? (uint8_t)(j + 1) : 0;
				sl.dev[l][sl.ndev[l]++] = dev_of(rl_str(d, "dev"));
			}
			sl.nlevels++;
		}
		if (io_phase_add_stack(p, &sl))
			return -1;
	}
	return 0;
}

static void load_page_cache(struct json_object *o, struct io_phase *p)
{
	struct io_phase_ctr *c = &p->ctr;

	c->dirtied_bytes = rl_u64(o, "dirtied_bytes");
	c->dirtied_inodes = rl_u64(o, "dirtied_inodes");
	c->pc_added_bytes = rl_u64(o, "added_bytes");
	c->pc_removed_bytes = rl_u64(o, "removed_bytes");
	c->ra_sync = rl_u64(o, "readahead_sync");
	c->ra_async = rl_u64(o, "readahead_async");
	c->ra_pages = rl_u64(o, "readahead_pages");
	c->bdp_count = rl_u64(o, "balance_dirty_pages_count");
	c->bdp_pause_ns = rl_u64(o, "balance_dirty_pages_pause_ns");
	c->wb_bytes = rl_u64(o, "written_back_bytes");
	c->wb_inodes = rl_u64(o, "written_back_inodes");
	c->wb_tree_bytes = rl_u64(o, "written_back_workload_bytes");
	c->wb_tree_inodes = rl_u64(o, "written_back_workload_inodes");
	c->bio_backmerges = rl_u64(o, "bio_backmerges");
	c->bio_frontmerges = rl_u64(o, "bio_frontmerges");
	c->rq_merges = rl_u64(o, "request_merges");
	c->requeues = rl_u64(o, "requeues");
	c->splits = rl_u64(o, "splits");
	p->tree_inodes = rl_u64(o, "workload_inodes");
	p->tree_dirtied_total = rl_u64(o, "workload_dirtied_total_bytes");
	p->tree_wb_total = rl_u64(o, "workload_written_back_total_bytes");
	p->tree_removed_total = rl_u64(o, "workload_removed_total_bytes");
}

static int load_fs_jbd(struct json_object *fs, struct json_object *jbd, struct io_phase *p)
{
	p->fs = calloc(rl_alen(fs) ? rl_alen(fs) : 1, sizeof(*p->fs));
	p->jbd = calloc(rl_alen(jbd) ? rl_alen(jbd) : 1, sizeof(*p->jbd));
	if (!p->fs || !p->jbd)
		return -1;
	for (size_t i = 0; i < rl_alen(fs); i++) {
		struct json_object *o = json_object_array_get_idx(fs, i), *l = rl_member(o, "latency_ns");
		struct io_fs_stat *s = &p->fs[p->nfs].st;

		p->fs[p->nfs++].dev = dev_of(rl_str(o, "dev"));
		s->fsync = rl_u64(o, "fsync");
		s->fdatasync = rl_u64(o, "fdatasync");
		s->total_ns = rl_u64(l, "total");
		s->max_ns = rl_u64(l, "max");
		report_load_hist(rl_member(l, "hist"), s->hist, IO_LAT_SLOTS);
	}
	for (size_t i = 0; i < rl_alen(jbd); i++) {
		struct json_object *o = json_object_array_get_idx(jbd, i), *c = rl_member(o, "commit_ns");
		struct io_jbd_stat *s = &p->jbd[p->njbd].st;

		p->jbd[p->njbd++].dev = dev_of(rl_str(o, "dev"));
		s->commits = rl_u64(o, "commits");
		s->sync_commits = rl_u64(o, "sync_commits");
		s->wait_ns = rl_u64(o, "wait_ns");
		s->request_delay_ns = rl_u64(o, "request_delay_ns");
		s->running_ns = rl_u64(o, "running_ns");
		s->locked_ns = rl_u64(o, "locked_ns");
		s->flushing_ns = rl_u64(o, "flushing_ns");
		s->logging_ns = rl_u64(o, "logging_ns");
		s->handles = rl_u64(o, "handles");
		s->blocks = rl_u64(o, "blocks");
		s->blocks_logged = rl_u64(o, "blocks_logged");
		s->commit_count = rl_u64(o, "commit_count");
		s->commit_ns = rl_u64(c, "total");
		s->commit_max = rl_u64(c, "max");
		report_load_hist(rl_member(c, "hist"), s->hist, IO_LAT_SLOTS);
	}
	return 0;
}

static void load_lost(struct json_object *o, struct io_phase *p)
{
	struct io_lost *l = &p->lost;

	l->bios_full = rl_u64(o, "bios_full");
	l->reqs_full = rl_u64(o, "requests_full");
	l->stats_full = rl_u64(o, "stats_full");
	l->devs_full = rl_u64(o, "devices_full");
	l->inodes_full = rl_u64(o, "inodes_full");
	l->wb_full = rl_u64(o, "writeback_full");
	l->fs_full = rl_u64(o, "fs_full");
	l->issue_unseen = rl_u64(o, "issue_unseen");
	l->complete_untracked = rl_u64(o, "complete_untracked");
	l->fsync_unmatched = rl_u64(o, "fsync_unmatched");
	l->commit_unmatched = rl_u64(o, "commit_unmatched");
	l->clock_reversed = rl_u64(o, "clock_reversed");
	l->complete_late = rl_u64(o, "complete_late");
	l->complete_missed = rl_u64(o, "complete_missed");
	l->complete_swept = rl_u64(o, "complete_swept");
}

struct io_phase *report_load_io(struct json_object *io, const struct missing_probes *sm)
{
	struct json_object *miss = rl_member(io, "missing"), *lay = rl_member(io, "layers");
	struct io_phase *p;

	if (!io || !json_object_is_type(io, json_type_object))
		return NULL;
	p = io_phase_new();
	if (!p)
		return NULL;
	p->window_ns = rl_u64(io, "window_ns");
	p->rate_ns = rl_u64(io, "rate_window_ns");
	load_devices(rl_member(io, "devices"), p);
	if (load_requests(rl_member(io, "requests"), p) || load_stacks(rl_member(io, "stacks"), p) ||
	    load_fs_jbd(rl_member(io, "fsync"), rl_member(io, "journal"), p)) {
		io_result_free(p);
		return NULL;
	}
	load_page_cache(rl_member(io, "page_cache"), p);
	load_lost(rl_member(io, "lost"), p);
	p->sys_write_bytes = rl_u64(lay, "sys_write_bytes");
	p->sys_read_bytes = rl_u64(lay, "sys_read_bytes");
	p->sys_writes = rl_u64(lay, "sys_writes");
	p->sys_reads = rl_u64(lay, "sys_reads");
	for (size_t i = 0; i < rl_alen(miss); i++) { /* names only: why, from the session's list */
		const char *name = json_object_get_string(json_object_array_get_idx(miss, i));
		enum probe_state why = PROBE_ABSENT;
		int err = 0;

		for (unsigned k = 0; sm && k < sm->n; k++)
			if (!strcmp(sm->v[k].name, name)) {
				why = sm->v[k].why;
				err = sm->v[k].err;
			}
		missing_probes_add(&p->missing, name, why, err);
	}
	return p;
}

void report_load_layers(struct json_object *io, struct phase_summary *ps)
{
	struct json_object *o = rl_member(io, "layers"), *notes = rl_member(o, "notes");
	struct io_layers *l = &ps->layers;

	if (!o)
		return;
	ps->has_io = 1;
	l->sys_write = rl_u64(o, "sys_write_bytes");
	l->sys_read = rl_u64(o, "sys_read_bytes");
	l->dirtied = rl_u64(o, "dirtied_bytes");
	l->pc_added = rl_u64(o, "page_cache_added_bytes");
	l->wb_tree = rl_u64(o, "written_back_workload_bytes");
	l->wb_all = rl_u64(o, "written_back_bytes");
	l->blk_write_tree = rl_u64(o, "block_write_workload_bytes");
	l->blk_write_wb_tree = rl_u64(o, "block_write_writeback_workload_bytes");
	l->blk_write_wb = rl_u64(o, "block_write_writeback_other_bytes");
	l->blk_write_journal = rl_u64(o, "block_write_journal_bytes");
	l->blk_write_other = rl_u64(o, "block_write_other_bytes");
	l->blk_write_unknown = rl_u64(o, "block_write_untracked_bytes");
	l->blk_read_tree = rl_u64(o, "block_read_workload_bytes");
	l->blk_read_others = rl_u64(o, "block_read_others_bytes");
	l->blk_write_all = rl_u64(o, "block_write_bytes");
	l->blk_read_all = rl_u64(o, "block_read_bytes");
	l->dev_write = rl_u64(o, "device_write_bytes");
	l->dev_read = rl_u64(o, "device_read_bytes");
	l->still_dirty = rl_u64(o, "still_dirty_bytes");
	l->write_not_dirtied = rl_u64(o, "write_not_dirtied_bytes");
	l->read_from_cache = rl_u64(o, "read_from_cache_bytes");
	l->read_ahead_extra = rl_u64(o, "read_ahead_extra_bytes");
	l->write_overhead = rl_u64(o, "write_overhead_bytes");
	l->dev_minus_block = json_object_get_int64(rl_member(o, "device_minus_block_bytes"));
	l->ndisks = (int)rl_u64(o, "disks");
	ps->nnotes = 0;
	for (size_t i = 0; i < rl_alen(notes) && ps->nnotes < LAYER_NOTES_MAX; i++)
		snprintf(ps->notes[ps->nnotes++], LAYER_NOTE_LEN, "%s",
			 json_object_get_string(json_object_array_get_idx(notes, i)));
}
