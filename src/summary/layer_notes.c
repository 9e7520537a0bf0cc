// SPDX-License-Identifier: GPL-2.0
/* What a phase's I/O layer table means, in sentences computed from its numbers: see summary.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "units.h"

__attribute__((format(printf, 2, 3)))
static void note(struct phase_summary *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->nnotes >= LAYER_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->notes[ps->nnotes++], LAYER_NOTE_LEN, fmt, ap);
	va_end(ap);
}

/* Close enough to call two byte counts equal: within 1% or one page. */
static int about(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a, big = a > b ? a : b;

	return d <= IO_PAGE_SIZE || d * 100 <= big;
}

static void read_notes(const struct io_phase *p, const struct io_layers *l,
		       struct phase_summary *ps)
{
	char a[32], b[32];

	if (l->sys_read && l->blk_read_tree == 0)
		note(ps, "reads: none of the %s read by syscalls reached a block device: served from "
		     "page cache (or not file reads: pipes, /dev/zero)",
		     fmt_bytes(a, sizeof(a), l->sys_read));
	else if (l->read_from_cache && !about(l->sys_read, l->blk_read_tree))
		note(ps, "reads: %s of the %s read by syscalls did not reach a block device: served "
		     "from page cache (or not file reads: pipes, /dev/zero)",
		     fmt_bytes(a, sizeof(a), l->read_from_cache), fmt_bytes(b, sizeof(b), l->sys_read));
	if (l->read_ahead_extra && !about(l->sys_read, l->blk_read_tree))
		note(ps, "reads: the block layer read %s more than the syscalls asked for (readahead: "
		     "%llu sync + %llu async calls)", fmt_bytes(a, sizeof(a), l->read_ahead_extra),
		     (unsigned long long)p->ctr.ra_sync, (unsigned long long)p->ctr.ra_async);
}

static void write_notes(const struct io_layers *l, struct phase_summary *ps)
{
	char a[32];
	uint64_t blk_w = l->blk_write_tree + l->blk_write_wb_tree;

	if (l->sys_write && l->write_not_dirtied && !about(l->sys_write, l->dirtied))
		note(ps, "writes: %s written by syscalls never dirtied the page cache (O_DIRECT, "
		     "rewrites of pages already dirty, or not file writes: pipes, terminals)",
		     fmt_bytes(a, sizeof(a), l->write_not_dirtied));
	if (l->dirtied && blk_w < l->dirtied && l->still_dirty)
		note(ps, "writes: %s the workload dirtied in this phase is still in the page cache, not "
		     "yet written back (a flush phase or sync writes it)",
		     fmt_bytes(a, sizeof(a), l->still_dirty));
	if (l->blk_write_wb_tree)
		note(ps, "writeback: flusher threads wrote %s of the workload's files (charged to it)",
		     fmt_bytes(a, sizeof(a), l->blk_write_wb_tree));
	if (l->write_overhead)
		note(ps, "writes: %s of journal and untracked (flush machinery) writes on the same "
		     "devices", fmt_bytes(a, sizeof(a), l->write_overhead));
}

void layer_notes(const struct io_phase *p, const struct io_layers *l, struct phase_summary *ps)
{
	char a[32], b[32], c[32];

	ps->nnotes = 0;
	read_notes(p, l, ps);
	write_notes(l, ps);
	if (l->blk_write_wb + l->blk_write_other + l->blk_read_others)
		note(ps, "background: %s written and %s read by other processes and other writeback "
		     "on the same devices (not the workload's)",
		     fmt_bytes(a, sizeof(a), l->blk_write_wb + l->blk_write_other),
		     fmt_bytes(b, sizeof(b), l->blk_read_others));
	if (l->dev_write + l->dev_read && l->dev_minus_block &&
	    !about(l->dev_write + l->dev_read, l->blk_write_all + l->blk_read_all))
		note(ps, "device counters: %s %s than the traced block layer (%s): requests in flight "
		     "at the window's edges, or untraced requests",
		     fmt_bytes(a, sizeof(a), (uint64_t)llabs(l->dev_minus_block)),
		     l->dev_minus_block > 0 ? "more" : "less",
		     fmt_bytes(c, sizeof(c), l->blk_write_all + l->blk_read_all));
	if (p->ctr.bdp_count)
		note(ps, "throttled: balance_dirty_pages paused the workload %llu times, %s in total",
		     (unsigned long long)p->ctr.bdp_count, fmt_ns(a, sizeof(a), p->ctr.bdp_pause_ns));
}
