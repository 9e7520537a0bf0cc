/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the devices and the kernel did for one phase (phase_result.io): plain structs filled by the
 * loader (io_probes.c) from the BPF maps and /sys, and pure functions over them. No kernel, no
 * libbpf: the unit tests drive everything here with synthetic data.
 *
 *  - busy time: union of intervals (io_interval_union) and the streaming in-flight counter the BPF
 *    side runs (io_dev_* in bpf/io.h); both must agree.
 *  - request tracking: io_sim replays block-layer events (bio queue, split, merges, insert, issue,
 *    requeue, complete) with exactly the rules of bpf/io.bpf.c, producing the same rows.
 *  - aggregation: rows per (dev, op, class) summed by disk / op / class.
 *  - reconciliation: the layer table (syscalls -> page cache -> writeback -> block layer -> device).
 */
#ifndef IOWHY_IO_MODEL_H
#define IOWHY_IO_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "io.h"
#include "probe_status.h"

/* /sys/block/DEV/stat fields (Documentation/block/stat.rst), as a delta over the phase. */
struct io_sysstat {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;
	uint64_t fl_ios, fl_ticks;
};

/* Parse the text of a stat file (11, 15 or 17 numbers). Returns the count parsed, -1 if < 11. */
int io_sysstat_parse(const char *text, struct io_sysstat *out);
/* out = b - a, field by field (in_flight is b's). */
void io_sysstat_delta(const struct io_sysstat *a, const struct io_sysstat *b, struct io_sysstat *out);

struct io_row {
	uint32_t dev;              /* bio's device (partition or disk) */
	uint32_t upper;            /* IO_CL_STACK: the upper device it was done for; else 0 */
	uint8_t op, cls;
	uint64_t charged;          /* IO_CL_STACK: bytes charged to the workload (io_stack_charge) */
	struct io_stat st;
};

struct io_devinfo {
	uint32_t dev;              /* kernel dev_t (major << 20 | minor) */
	uint32_t disk;             /* the whole disk it belongs to (itself for a disk) */
	char name[32];             /* "vda1", "loop0"; "MAJ:MIN" when /sys does not know it */
	char disk_name[32];
	int is_partition;
	uint64_t busy_ns;          /* disks: time with >= 1 request in flight during the phase */
	uint64_t issued;           /* disks: requests issued during the phase (all submitters) */
	uint64_t missed;           /* disks: dispatches whose completion no program saw, ended during
				    * the phase (this disk's part of io.lost.complete_missed) */
	int has_stat;
	struct io_sysstat stat;    /* /sys/block delta over the phase */
	/* blk-throttle limits configured on this device for the workload's blkio cgroup (0: none) */
	uint64_t thr_read_bps, thr_write_bps, thr_read_iops, thr_write_iops;
	char thr_cgroup[64];       /* the cgroup that set the first limit found ("/x"), "" none */
};

struct io_fsrow {
	uint32_t dev;
	struct io_fs_stat st;
};

struct io_jbdrow {
	uint32_t dev;
	struct io_jbd_stat st;
};

/* A file system's device stack as seen in a phase: "/mnt (ext4) → loop0 → vda", one level per
 * depth (partitions folded into their disk), filled by the loader from sysfs. */
#define IO_STACK_LEVELS 4
#define IO_STACK_WIDTH 8

struct io_stackline {
	char head[96];             /* "/mnt (ext4)", "/mnt (btrfs raid0)" */
	int nlevels;
	int ndev[IO_STACK_LEVELS];
	uint32_t dev[IO_STACK_LEVELS][IO_STACK_WIDTH]; /* kernel dev_t of each level's devices */
	/* 1 + the index in the next level of the first device each one sits on; 0: none known */
	uint8_t on[IO_STACK_LEVELS][IO_STACK_WIDTH];
};

struct io_phase {
	uint64_t window_ns;        /* phase window (begin -> end) */
	uint64_t rate_ns;          /* the phase's wall (the workload's release to its end), the time
				    * the rates are over; 0: unknown (window_ns then) */
	struct io_row *rows;
	size_t nrows, caprows;
	struct io_devinfo *devs;
	size_t ndevs, capdevs;
	struct io_fsrow *fs;
	size_t nfs;
	struct io_jbdrow *jbd;
	size_t njbd;
	struct io_phase_ctr ctr;
	struct io_lost lost;       /* what could not be tracked during the phase */
	uint64_t sys_read_bytes, sys_write_bytes;  /* read/write-family syscalls of the tree */
	uint64_t sys_reads, sys_writes;
	uint64_t tree_inodes;      /* inodes the tree has dirtied so far (session) */
	uint64_t tree_dirtied_total, tree_wb_total; /* their bytes dirtied / written back so far */
	uint64_t tree_removed_total; /* ... and dropped by the tree before writeback (truncate, unlink) */
	struct missing_probes missing; /* probes of this part that are not attached, and why */
	struct io_stackline *stacks; /* file systems on stacked devices the workload's I/O touched */
	size_t nstacks;
};

struct io_phase *io_phase_new(void);
/* The seconds IOPS and MiB/s are over: the phase's wall (rate_ns), else its window. The window
 * begins before the workload is released and ends after the phase's drain: over it, fio's rates
 * came out 0.1-3.5% low. */
double io_phase_rate_secs(const struct io_phase *p);
/* Free a struct io_phase (phase_result.io); NULL is fine. */
void io_result_free(struct io_phase *io);
/* Add st to row (dev, op, cls), creating it. Returns 0 or -1 (out of memory). */
int io_phase_add(struct io_phase *p, uint32_t dev, uint8_t op, uint8_t cls, const struct io_stat *st);
/* The same for a row done for upper device `upper` (IO_CL_STACK; 0 otherwise). */
int io_phase_add_upper(struct io_phase *p, uint32_t dev, uint32_t upper, uint8_t op, uint8_t cls,
		       const struct io_stat *st);
/* Append a stack line (copied). Returns 0 or -1 (out of memory). */
int io_phase_add_stack(struct io_phase *p, const struct io_stackline *s);

/* ---- I/O a stacking driver did for an upper device (IO_CL_STACK) ---- */

/* The workload's share of upper device `upper`'s `op` bytes in p: its own requests, writeback of
 * its files and what was charged to it below (for a stack of stacks), over every request except
 * the journal's and the untracked ones (the journal follows the data it commits). -1 when the
 * upper device had no such bytes in p. */
double io_upper_share(const struct io_phase *p, uint32_t upper, int op);
/* Set rows[].charged of every IO_CL_STACK row of p: its bytes times the workload's share of its
 * upper device (same op) in p, or, when the upper device had no bytes in p, in the nearest
 * earlier phase that had (prev[0] the previous phase, prev[1] the one before...; nprev may be
 * 0). The lower I/O of a buffered loop device often lands a phase after the upper writes. */
void io_stack_charge(struct io_phase *p, const struct io_phase *const *prev, int nprev);
/* Bytes of p's rows on disk (0 = any) that are the workload's: its own and writeback of its
 * files (read and write), plus what io_stack_charge charged to it. */
uint64_t io_phase_workload_bytes(const struct io_phase *p, uint32_t disk, int op);
/* Device entry for dev, created (zeroed, disk = dev) when missing; NULL when out of memory. */
struct io_devinfo *io_phase_dev(struct io_phase *p, uint32_t dev);
const struct io_devinfo *io_phase_find_dev(const struct io_phase *p, uint32_t dev);

/* a += b (counts, sums, histograms; max of maxima). */
void io_stat_merge(struct io_stat *a, const struct io_stat *b);
/* Sum the rows matching: disk (0 = any; a row matches if its dev is the disk or one of its
 * partitions), op (-1 any), cls (-1 any). Returns the number of rows summed. */
size_t io_phase_sum(const struct io_phase *p, uint32_t disk, int op, int cls, struct io_stat *out);
/* The disk a dev belongs to, from p->devs (dev itself if unknown). */
uint32_t io_phase_disk_of(const struct io_phase *p, uint32_t dev);

/* Indexes of p->rows ordered by disk, device, op, class (malloc'ed; NULL when out of memory). */
size_t *io_phase_sorted_rows(const struct io_phase *p);
/* Name of dev in p->devs, "?" when unknown. */
const char *io_phase_dev_name(const struct io_phase *p, uint32_t dev);
/* Everything that could not be tracked, summed. */
uint64_t io_lost_total(const struct io_lost *l);
/* Percentile of an IO_LAT_SLOTS latency histogram; 0 when every value was 0 (max 0). */
uint64_t io_lat_pct(const uint32_t *h, double pct, uint64_t max);

const char *io_op_name(int op);      /* "read", "write", "flush", "discard", "other" */
const char *io_class_name(int cls);  /* "workload", "writeback (workload)", "writeback", ... */
const char *io_class_key(int cls);   /* "tree", "writeback_tree", "writeback", "journal", ... */

/* One device of a stack line, over the phase: every completed request on it (read, write), what
 * of it is the workload's (io_phase_workload_bytes), what of it was done below a stacked device
 * and charged, the latency sums, and the busy time. */
struct io_level_stat {
	uint64_t requests, bytes, workload_bytes;
	uint64_t below_bytes, below_workload_bytes; /* IO_CL_STACK rows on it */
	uint64_t queue_ns, dev_ns;                  /* sums over the requests */
	uint64_t busy_ns;
};

void io_level_stat(const struct io_phase *p, uint32_t dev, struct io_level_stat *out);
/* The time requests below upper device `upper` (class stack, done for it, on any disk) were
 * outstanding in phase p: the sum over them of queue + device time, ns. */
uint64_t io_below_request_ns(const struct io_phase *p, uint32_t upper);
/* Of wait_ns the workload waited on `upper`'s requests in phase p, the part that overlapped the
 * requests below it done for it, estimated by their share of `upper`'s busy time: wait ×
 * min(1, io_below_request_ns / busy), never more than that request time. 0 when unknown. */
uint64_t io_wait_below(const struct io_phase *p, uint32_t upper, uint64_t wait_ns);
/* "/mnt (ext4) → loop0 → vda". Returns buf. */
char *io_stackline_format(const struct io_phase *p, const struct io_stackline *sl, char *buf,
			  size_t len);

/* ---- busy time ---- */

struct io_interval {
	uint64_t start, end;       /* [start, end) */
};

/* Total length of the union of the intervals (sorts iv in place). */
uint64_t io_interval_union(struct io_interval *iv, size_t n);

/* ---- request tracking (the rules of bpf/io.bpf.c, replayed in user space) ---- */

#define IO_SIM_MAX 64

struct io_sim {
	struct { uint64_t id; struct io_bio b; int used; } bios[IO_SIM_MAX];
	struct { uint64_t id; struct io_req r; int used; } reqs[IO_SIM_MAX];
	struct io_dev_state dev;   /* one disk */
	uint32_t phase;            /* current window */
	uint64_t begin;            /* when it began (0: the simulation's start) */
	struct io_phase *out;      /* rows of completed requests */
	struct io_lost lost;
	uint64_t backmerges, frontmerges, rq_merges, requeues;
};

void io_sim_init(struct io_sim *s, struct io_phase *out, uint32_t phase);
/* block_bio_queue / block_split in the submitter's context (already classified). */
void io_sim_bio_queue(struct io_sim *s, uint64_t bio, uint64_t now, uint32_t dev, uint8_t cls,
		      uint8_t phase);
void io_sim_bio_backmerge(struct io_sim *s, uint64_t bio);
void io_sim_bio_frontmerge(struct io_sim *s, uint64_t bio);
/* Request rq (first bio first_bio, op) inserted / issued at sector for nr_sectors. */
void io_sim_rq_insert(struct io_sim *s, uint64_t rq, uint64_t first_bio, uint8_t op, uint64_t now);
void io_sim_rq_issue(struct io_sim *s, uint64_t rq, uint64_t first_bio, uint8_t op, uint64_t now,
		     uint64_t sector, uint32_t nr_sectors);
void io_sim_rq_requeue(struct io_sim *s, uint64_t rq, uint64_t now);
void io_sim_rq_merge(struct io_sim *s, uint64_t rq);
/* nr_bytes completed out of `remaining`. */
void io_sim_rq_complete(struct io_sim *s, uint64_t rq, uint64_t now, uint64_t nr_bytes,
			uint64_t remaining);
/* Requests still tracked (neither completed nor merged away). */
int io_sim_tracked(const struct io_sim *s);

/* ---- layer reconciliation ---- */

struct io_layers {
	/* measured */
	uint64_t sys_write, sys_read;          /* bytes through read/write-family syscalls */
	uint64_t dirtied;                       /* page cache bytes the tree dirtied */
	uint64_t pc_added;                      /* page cache bytes added for the tree */
	uint64_t wb_tree, wb_all;               /* written back: the tree's inodes / all inodes */
	uint64_t blk_write_tree, blk_write_wb_tree, blk_write_wb, blk_write_journal;
	uint64_t blk_write_other, blk_write_unknown;
	uint64_t blk_write_stack, blk_write_stack_tree; /* below stacked devices: all, the workload's */
	uint64_t blk_read_tree, blk_read_others;
	uint64_t blk_read_stack_tree;          /* reads below stacked devices for the workload */
	uint64_t blk_write_all, blk_read_all;   /* every class, on the devices below */
	uint64_t dev_write, dev_read;           /* /sys/block deltas of those disks */
	uint64_t still_dirty;                   /* of what the tree dirtied in this phase: not written
						 * back nor removed by its end (<= dirtied) */
	int ndisks;                             /* disks the workload's I/O touched */
	/* derived (each >= 0) */
	uint64_t write_not_dirtied;   /* sys_write - dirtied: O_DIRECT, or rewrites of dirty pages */
	uint64_t read_from_cache;     /* sys_read - blk_read_tree: served from the page cache */
	uint64_t read_ahead_extra;    /* blk_read_tree - sys_read: read ahead beyond what was asked */
	uint64_t write_overhead;      /* journal + unknown writes on those disks */
	int64_t dev_minus_block;      /* (dev_write + dev_read) - (blk_write_all + blk_read_all) */
};

/* The layer table of a phase. The disks are those with requests of the tree or of writeback for
 * the tree; when there are none, every disk with requests. `before` is the session's previous
 * phase (its tree_*_total are the running totals at this phase's start), NULL for the first:
 * still_dirty counts only what this phase dirtied. */
void io_layers_compute(const struct io_phase *p, const struct io_phase *before,
		       struct io_layers *l);

#endif
