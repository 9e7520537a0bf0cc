// SPDX-License-Identifier: GPL-2.0
/* The "io" member of a saved JSON report read back (report_load.c): requests with their latency
 * histograms, devices, page cache, fsync, journal, losses, and the layer table with its notes. */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "report_load.h"
#include "io_model.h"
#include "summary.h"

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static uint64_t u64(struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key);

	return v ? json_object_get_uint64(v) : 0;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t alen(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* "MAJ:MIN" as the kernel's dev_t (major << 20 | minor). */
static uint32_t dev_of(const char *mm)
{
	unsigned maj = 0, min = 0;

	if (sscanf(mm, "%u:%u", &maj, &min) != 2)
		return 0;
	return maj << 20 | (min & 0xfffff);
}

static void hist_of(struct json_object *a, uint32_t *h, int n)
{
	for (size_t i = 0; i < alen(a) && (int)i < n; i++)
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
	d->thr_read_bps = u64(t, "read_bps");
	d->thr_write_bps = u64(t, "write_bps");
	d->thr_read_iops = u64(t, "read_iops");
	d->thr_write_iops = u64(t, "write_iops");
	snprintf(d->thr_cgroup, sizeof(d->thr_cgroup), "%s", str(t, "cgroup"));
}

static void load_devices(struct json_object *a, struct io_phase *p)
{
	for (size_t i = 0; i < alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *st = member(o, "stat");
		struct io_devinfo *d = io_phase_dev(p, dev_of(str(o, "dev")));

		if (!d)
			return;
		snprintf(d->name, sizeof(d->name), "%s", str(o, "name"));
		snprintf(d->disk_name, sizeof(d->disk_name), "%s", str(o, "disk"));
		d->is_partition = json_object_get_boolean(member(o, "partition"));
		d->busy_ns = u64(o, "busy_ns");
		d->issued = u64(o, "issued");
		d->has_stat = st && json_object_is_type(st, json_type_object);
		d->stat.rd_ios = u64(st, "read_ios");
		d->stat.rd_sectors = u64(st, "read_bytes") / 512;
		d->stat.rd_merges = u64(st, "read_merges");
		d->stat.wr_ios = u64(st, "write_ios");
		d->stat.wr_sectors = u64(st, "write_bytes") / 512;
		d->stat.wr_merges = u64(st, "write_merges");
		d->stat.dc_ios = u64(st, "discard_ios");
		d->stat.fl_ios = u64(st, "flush_ios");
		d->stat.io_ticks = u64(st, "io_ticks_ns") / 1000000;
		load_throttle(member(o, "throttle"), d);
	}
	/* the disk of each device, by its name */
	for (size_t i = 0; i < p->ndevs; i++)
		for (size_t k = 0; k < p->ndevs; k++)
			if (!strcmp(p->devs[k].name, p->devs[i].disk_name))
				p->devs[i].disk = p->devs[k].dev;
}

static int load_requests(struct json_object *a, struct io_phase *p)
{
	for (size_t i = 0; i < alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct json_object *q = member(o, "queue_ns"), *d = member(o, "device_ns");
		int op = index_of(str(o, "op"), io_op_name, IO_OP_COUNT);
		int cls = index_of(str(o, "class"), io_class_key, IO_CL_COUNT);
		uint32_t dev = dev_of(str(o, "dev"));
		struct io_devinfo *di;
		struct io_stat st;

		if (op < 0 || cls < 0)
			continue;
		memset(&st, 0, sizeof(st));
		st.requests = u64(o, "requests");
		st.bytes = u64(o, "bytes");
		st.seq = u64(o, "sequential");
		st.requeues = u64(o, "requeues");
		st.queue_ns = u64(q, "total");
		st.queue_max = u64(q, "max");
		st.dev_ns = u64(d, "total");
		st.dev_max = u64(d, "max");
		hist_of(member(q, "hist"), st.qhist, IO_LAT_SLOTS);
		hist_of(member(d, "hist"), st.dhist, IO_LAT_SLOTS);
		hist_of(member(o, "size_hist_log2_bytes"), st.size_hist, IO_SIZE_SLOTS);
		hist_of(member(o, "depth_hist_log2"), st.depth_hist, IO_DEPTH_SLOTS);
		if (!io_phase_find_dev(p, dev) && (di = io_phase_dev(p, dev))) {
			snprintf(di->name, sizeof(di->name), "%s", str(o, "name"));
			snprintf(di->disk_name, sizeof(di->disk_name), "%s", str(o, "disk"));
		}
		if (io_phase_add_upper(p, dev, dev_of(str(o, "upper_dev")), (uint8_t)op,
				       (uint8_t)cls, &st))
			return -1;
	}
	return 0;
}

/* The stack lines (io.stacks): head and each level's devices. */
static int load_stacks(struct json_object *a, struct io_phase *p)
{
	for (size_t i = 0; i < alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *lv = member(o, "levels");
		struct io_stackline sl;

		memset(&sl, 0, sizeof(sl));
		snprintf(sl.head, sizeof(sl.head), "%s", str(o, "head"));
		for (size_t l = 0; l < alen(lv) && l < IO_STACK_LEVELS; l++) {
			struct json_object *devs = json_object_array_get_idx(lv, l);

			for (size_t k = 0; k < alen(devs) && k < IO_STACK_WIDTH; k++)
				sl.dev[l][sl.ndev[l]++] =
					dev_of(str(json_object_array_get_idx(devs, k), "dev"));
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

	c->dirtied_bytes = u64(o, "dirtied_bytes");
	c->dirtied_inodes = u64(o, "dirtied_inodes");
	c->pc_added_bytes = u64(o, "added_bytes");
	c->pc_removed_bytes = u64(o, "removed_bytes");
	c->ra_sync = u64(o, "readahead_sync");
	c->ra_async = u64(o, "readahead_async");
	c->ra_pages = u64(o, "readahead_pages");
	c->bdp_count = u64(o, "balance_dirty_pages_count");
	c->bdp_pause_ns = u64(o, "balance_dirty_pages_pause_ns");
	c->wb_bytes = u64(o, "written_back_bytes");
	c->wb_inodes = u64(o, "written_back_inodes");
	c->wb_tree_bytes = u64(o, "written_back_workload_bytes");
	c->wb_tree_inodes = u64(o, "written_back_workload_inodes");
	c->bio_backmerges = u64(o, "bio_backmerges");
	c->bio_frontmerges = u64(o, "bio_frontmerges");
	c->rq_merges = u64(o, "request_merges");
	c->requeues = u64(o, "requeues");
	c->splits = u64(o, "splits");
	p->tree_inodes = u64(o, "workload_inodes");
	p->tree_dirtied_total = u64(o, "workload_dirtied_total_bytes");
	p->tree_wb_total = u64(o, "workload_written_back_total_bytes");
	p->tree_removed_total = u64(o, "workload_removed_total_bytes");
}

static int load_fs_jbd(struct json_object *fs, struct json_object *jbd, struct io_phase *p)
{
	p->fs = calloc(alen(fs) ? alen(fs) : 1, sizeof(*p->fs));
	p->jbd = calloc(alen(jbd) ? alen(jbd) : 1, sizeof(*p->jbd));
	if (!p->fs || !p->jbd)
		return -1;
	for (size_t i = 0; i < alen(fs); i++) {
		struct json_object *o = json_object_array_get_idx(fs, i), *l = member(o, "latency_ns");
		struct io_fs_stat *s = &p->fs[p->nfs].st;

		p->fs[p->nfs++].dev = dev_of(str(o, "dev"));
		s->fsync = u64(o, "fsync");
		s->fdatasync = u64(o, "fdatasync");
		s->total_ns = u64(l, "total");
		s->max_ns = u64(l, "max");
		hist_of(member(l, "hist"), s->hist, IO_LAT_SLOTS);
	}
	for (size_t i = 0; i < alen(jbd); i++) {
		struct json_object *o = json_object_array_get_idx(jbd, i), *c = member(o, "commit_ns");
		struct io_jbd_stat *s = &p->jbd[p->njbd].st;

		p->jbd[p->njbd++].dev = dev_of(str(o, "dev"));
		s->commits = u64(o, "commits");
		s->sync_commits = u64(o, "sync_commits");
		s->wait_ns = u64(o, "wait_ns");
		s->request_delay_ns = u64(o, "request_delay_ns");
		s->running_ns = u64(o, "running_ns");
		s->locked_ns = u64(o, "locked_ns");
		s->flushing_ns = u64(o, "flushing_ns");
		s->logging_ns = u64(o, "logging_ns");
		s->handles = u64(o, "handles");
		s->blocks = u64(o, "blocks");
		s->blocks_logged = u64(o, "blocks_logged");
		s->commit_count = u64(o, "commit_count");
		s->commit_ns = u64(c, "total");
		s->commit_max = u64(c, "max");
		hist_of(member(c, "hist"), s->hist, IO_LAT_SLOTS);
	}
	return 0;
}

static void load_lost(struct json_object *o, struct io_phase *p)
{
	struct io_lost *l = &p->lost;

	l->bios_full = u64(o, "bios_full");
	l->reqs_full = u64(o, "requests_full");
	l->stats_full = u64(o, "stats_full");
	l->devs_full = u64(o, "devices_full");
	l->inodes_full = u64(o, "inodes_full");
	l->wb_full = u64(o, "writeback_full");
	l->fs_full = u64(o, "fs_full");
	l->issue_unseen = u64(o, "issue_unseen");
	l->complete_untracked = u64(o, "complete_untracked");
	l->fsync_unmatched = u64(o, "fsync_unmatched");
	l->commit_unmatched = u64(o, "commit_unmatched");
}

struct io_phase *report_load_io(struct json_object *io, const struct missing_probes *sm)
{
	struct json_object *miss = member(io, "missing"), *lay = member(io, "layers");
	struct io_phase *p;

	if (!io || !json_object_is_type(io, json_type_object))
		return NULL;
	p = io_phase_new();
	if (!p)
		return NULL;
	p->window_ns = u64(io, "window_ns");
	load_devices(member(io, "devices"), p);
	if (load_requests(member(io, "requests"), p) || load_stacks(member(io, "stacks"), p) ||
	    load_fs_jbd(member(io, "fsync"), member(io, "journal"), p)) {
		io_result_free(p);
		return NULL;
	}
	load_page_cache(member(io, "page_cache"), p);
	load_lost(member(io, "lost"), p);
	p->sys_write_bytes = u64(lay, "sys_write_bytes");
	p->sys_read_bytes = u64(lay, "sys_read_bytes");
	p->sys_writes = u64(lay, "sys_writes");
	p->sys_reads = u64(lay, "sys_reads");
	for (size_t i = 0; i < alen(miss); i++) { /* names only: why, from the session's list */
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
	struct json_object *o = member(io, "layers"), *notes = member(o, "notes");
	struct io_layers *l = &ps->layers;

	if (!o)
		return;
	ps->has_io = 1;
	l->sys_write = u64(o, "sys_write_bytes");
	l->sys_read = u64(o, "sys_read_bytes");
	l->dirtied = u64(o, "dirtied_bytes");
	l->pc_added = u64(o, "page_cache_added_bytes");
	l->wb_tree = u64(o, "written_back_workload_bytes");
	l->wb_all = u64(o, "written_back_bytes");
	l->blk_write_tree = u64(o, "block_write_workload_bytes");
	l->blk_write_wb_tree = u64(o, "block_write_writeback_workload_bytes");
	l->blk_write_wb = u64(o, "block_write_writeback_other_bytes");
	l->blk_write_journal = u64(o, "block_write_journal_bytes");
	l->blk_write_other = u64(o, "block_write_other_bytes");
	l->blk_write_unknown = u64(o, "block_write_untracked_bytes");
	l->blk_read_tree = u64(o, "block_read_workload_bytes");
	l->blk_read_others = u64(o, "block_read_others_bytes");
	l->blk_write_all = u64(o, "block_write_bytes");
	l->blk_read_all = u64(o, "block_read_bytes");
	l->dev_write = u64(o, "device_write_bytes");
	l->dev_read = u64(o, "device_read_bytes");
	l->still_dirty = u64(o, "still_dirty_bytes");
	l->write_not_dirtied = u64(o, "write_not_dirtied_bytes");
	l->read_from_cache = u64(o, "read_from_cache_bytes");
	l->read_ahead_extra = u64(o, "read_ahead_extra_bytes");
	l->write_overhead = u64(o, "write_overhead_bytes");
	l->dev_minus_block = json_object_get_int64(member(o, "device_minus_block_bytes"));
	l->ndisks = (int)u64(o, "disks");
	ps->nnotes = 0;
	for (size_t i = 0; i < alen(notes) && ps->nnotes < LAYER_NOTES_MAX; i++)
		snprintf(ps->notes[ps->nnotes++], LAYER_NOTE_LEN, "%s",
			 json_object_get_string(json_object_array_get_idx(notes, i)));
}
