/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block layer, page cache, writeback and journal tracing (bpf/io.bpf.c): the structures shared with
 * user space, and the small pieces of logic both sides run (the BPF programs on live events, the
 * pure model user/io_model.c on synthetic ones in the unit tests). Plain fixed-size types only.
 *
 * Devices are kernel dev_t values (major << 20 | minor), as in struct block_device.bd_dev.
 */
#ifndef IOWHY_IO_H
#define IOWHY_IO_H

#include "log2.h"

#ifndef __bpf__
#include <linux/types.h>
#endif
#include "iowhy.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#define IO_MAX_PHASES IOWHY_MAX_PHASES
/* Statistics rows are one per CPU (map io_stats_pc) up to this many possible CPUs: a row is 8 KiB,
 * made for every possible CPU */
#define IO_STATS_PER_CPU_MAX 16
#define IO_NO_PHASE 0xff          /* current_phase between phases: background I/O is not counted */
#define IO_LAT_SLOTS IOWHY_HIST_SLOTS  /* latency (ns): log-linear buckets, bpf/loglin.h */
#define IO_SIZE_SLOTS 32          /* log2(bytes) */
#define IO_DEPTH_SLOTS 12         /* log2(requests in flight, this one included) */
#define IO_PAGE_SIZE 4096ULL

#define IO_DEV_MAJOR(d) ((d) >> 20)
#define IO_DEV_MINOR(d) ((d) & 0xfffff)

/* Operations, as REQ_OP_* (the low byte of cmd_flags / bi_opf); everything else is OTHER. */
enum io_op { IO_OP_READ, IO_OP_WRITE, IO_OP_FLUSH, IO_OP_DISCARD, IO_OP_OTHER, IO_OP_COUNT };

/* Who submitted a request: decided at block_bio_queue, in the submitter's context. */
enum io_class {
	IO_CL_TREE,      /* a task of the workload tree */
	IO_CL_WB_TREE,   /* writeback (flusher) of an inode the tree dirtied: done for the workload */
	IO_CL_WB,        /* other writeback */
	IO_CL_JOURNAL,   /* jbd2 */
	IO_CL_OTHER,     /* anything else */
	IO_CL_UNKNOWN,   /* request whose bios were never seen queued (e.g. flush machinery) */
	IO_CL_STACK,     /* a stacking driver's I/O for an upper device (loop worker, backing-file
			  * writeback): charged by the upper device's owners (io_stack_charge) */
	IO_CL_COUNT,
};

/* ---- block layer ---- */

/* Per (phase, dev, op, class) statistics of completed requests; a per-CPU hash. */
struct io_key {
	__u32 dev;       /* the bio's device (a partition when the I/O went to one) */
	__u8 phase, op, cls, pad;
	__u32 upper;     /* IO_CL_STACK: the upper device it was done for (loopN); else 0 */
};

struct io_stat {
	__u64 requests;
	__u64 bytes;
	__u64 seq;          /* requests that started where the previous one to the disk ended */
	__u64 requeues;
	__u64 queue_ns, dev_ns;     /* sums */
	__u64 queue_max, dev_max;
	__u32 qhist[IO_LAT_SLOTS];  /* queue time: insert (or bio queue) -> issue */
	__u32 dhist[IO_LAT_SLOTS];  /* device time: issue -> complete */
	__u32 size_hist[IO_SIZE_SLOTS];
	__u32 depth_hist[IO_DEPTH_SLOTS];
};

/* A bio seen at block_bio_queue, until it becomes (the first bio of) a request. */
struct io_bio {
	__u64 t_queue;
	__u32 dev;
	__u8 phase, cls, pad[2];
	__u32 upper;        /* IO_CL_STACK: the upper device */
	__u32 pad2;
};

/* A CPU's last bio queued (io.bpf.c bio_last): its address (0: none) and class; a cache line. */
struct io_bio_slot {
	__u64 key;
	struct io_bio b;
	__u64 pad[4];
};

/* A request being tracked, keyed by its address, from insert/issue to completion. */
struct io_req {
	__u64 t_queue;      /* first bio queued (0 if never seen) */
	__u64 t_insert;     /* last insert (or requeue) */
	__u64 t_issue;      /* last issue; 0 while not on the device (never issued, requeued, or
			     * `issued` still 1: its dispatch ended by the sweep, io.bpf.c io_sweep) */
	__u64 bytes;        /* completed so far (completions can be partial) */
	__u32 dev, disk;
	__u16 depth;        /* in flight at issue, this one included */
	__u8 phase, cls, op, seq, requeues, issued;
	__u8 wslot;         /* 1 + the disk slot counted in tree_inflight while issued; 0: none */
	__u8 pad2[3];
	__u32 tid;          /* the tree task that queued its first bio (--timeline only), else 0 */
	__u32 upper;        /* IO_CL_STACK: the upper device */
	__u32 size;         /* bytes left at the last issue (block_io_done completes the rest) */
};

/* A request's slot in req_slots (io.bpf.c): its address (0: free) and its state. */
struct io_req_slot {
	__u64 key;
	struct io_req r;
};

/* --timeline only: one finished request, sent on the ring buffer rq_events (io.bpf.c). */
struct io_rq_rec {
	__u64 t_queue;      /* first bio queued (0 if never seen) */
	__u64 t_insert;     /* last insert or requeue (0 if never inserted) */
	__u64 t_issue;      /* last issue */
	__u64 t_done;       /* completion */
	__u64 bytes;
	__u32 dev, disk;
	__u32 tid;          /* the tree task that queued it, 0 if not a tree task's */
	__u16 depth;        /* in flight at issue, this one included */
	__u8 phase, cls, op, requeues, pad[2];
};

/* Per-disk state: in-flight count, busy time (union of intervals with >= 1 request in flight). */
struct io_dev_state {
	__u64 last_ns;              /* last issue/complete/requeue on this disk */
	__u64 next_sector;          /* where the last issued request ended */
	__u32 inflight;
	__u32 primed;               /* next_sector is valid */
	__u64 busy_ns[IO_MAX_PHASES];
	__u64 issued[IO_MAX_PHASES];
	__u64 missed[IO_MAX_PHASES]; /* dispatches ended with their completion unseen (io_end_stale) */
};

#ifdef __bpf__
#define IO_LOCK_T struct bpf_spin_lock
#else
#define IO_LOCK_T __u32               /* struct bpf_spin_lock is one __u32 */
#endif

struct io_dev {
	IO_LOCK_T lock;
	__u32 pad;
	struct io_dev_state s;
};

/* ---- page cache, writeback, fsync, journal ---- */

/* Per-phase counters (per-CPU array indexed by phase). Tree context unless said otherwise. */
struct io_phase_ctr {
	__u64 dirtied_bytes;        /* folios the tree made dirty */
	__u64 dirtied_inodes;       /* inodes the tree dirtied first in this phase */
	__u64 pc_added_bytes;       /* added to the page cache in tree context (reads, readahead, writes) */
	__u64 pc_removed_bytes;     /* removed in tree context (truncate, unlink) */
	__u64 ra_sync, ra_async;    /* readahead calls */
	__u64 ra_pages;             /* pages readahead asked for */
	__u64 bdp_count;            /* balance_dirty_pages throttling events */
	__u64 bdp_pause_ns;         /* pauses it imposed */
	__u64 wb_bytes;             /* written back (any inode, window phase, any context) */
	__u64 wb_tree_bytes;        /* of that, inodes the tree dirtied */
	__u64 wb_inodes, wb_tree_inodes;
	__u64 bio_backmerges, bio_frontmerges, rq_merges, requeues, splits;
	__u64 bios_other_phase;     /* background bios queued while no phase was open */
};

/* Per (phase, fs dev): fsync/fdatasync of tree tasks (ext4_sync_file_enter/exit). */
struct io_fs_key {
	__u32 dev;
	__u32 phase;
};

struct io_fs_stat {
	__u64 fsync, fdatasync;
	__u64 total_ns, max_ns;
	__u32 hist[IO_LAT_SLOTS];
};

/* Per (window phase, fs dev): jbd2 commits (jbd2_run_stats, jbd2_start/end_commit). */
struct io_jbd_stat {
	__u64 commits;              /* jbd2_run_stats events */
	__u64 wait_ns, request_delay_ns, running_ns, locked_ns, flushing_ns, logging_ns;
	__u64 handles, blocks, blocks_logged;
	__u64 commit_count, commit_ns, commit_max, sync_commits; /* start_commit -> end_commit */
	__u32 hist[IO_LAT_SLOTS];
};

/* A row a CPU keeps aside when its map could not make it though it had room: the statistics maps
 * are hashes made at first use, whose allocator may have no element at hand in a tracepoint's
 * context long before the map is full (-ENOMEM; rows of 4-8 KiB: it keeps 1-3 spare). A full map
 * stays full (a loss, counted). The same key (zero-padded), the
 * same sums; read with the map's rows, added by key; cleared with them when their phase begins
 * again. A CPU has IO_SPILL_ROWS of them, for rows of every kind. */
#define IO_SPILL_ROWS 64
enum { IO_SPILL_IO = 1, IO_SPILL_FS, IO_SPILL_JBD };
struct io_spill {
	__u64 used;                 /* 0: free, else the kind of row (IO_SPILL_*) */
	union {
		__u64 raw[2];       /* zero-padded */
		struct io_key io;
		struct io_fs_key fs;
	} key;
	union {
		struct io_stat io;
		struct io_fs_stat fs;
		struct io_jbd_stat jbd;
	} v;
};

/* The inodes the tree dirtied (a set, bpf/inode_set.h), summed over the session: per-CPU, one entry.
 * The bytes here are those of the inodes in the set, whatever phase (or none) was open. */
struct io_inode_totals {
	__u64 inodes;               /* inodes in the set */
	__u64 dirtied_bytes;        /* dirtied by the tree */
	__u64 wb_bytes;             /* written back (any context) */
	__u64 removed_bytes;        /* dropped from the page cache by the tree (truncate, unlink) */
};

/* Everything that could not be tracked: shown in the report, never silent. */
struct io_lost {
	__u64 bios_full;            /* bio map full */
	__u64 reqs_full;            /* request map full */
	__u64 stats_full;           /* statistics map full */
	__u64 devs_full;
	__u64 inodes_full;
	__u64 wb_full;
	__u64 fs_full;
	__u64 issue_unseen;         /* request issued whose bios were never seen queued (class UNKNOWN) */
	__u64 complete_untracked;   /* completion of a request never seen issued */
	__u64 fsync_unmatched;      /* ext4_sync_file_exit without enter */
	__u64 commit_unmatched;     /* jbd2_end_commit without start */
	/* a request inserted or issued again while still issued in our records: the kernel ran
	 * neither completion program for its last I/O (not counted, its device time unknown; its
	 * in-flight counts end there: io.bpf.c req_get) */
	__u64 complete_missed;
	/* not a loss: a request whose completion was dated before its issue (the two CPUs' clocks
	 * disagreed), its device time counted as 0. Last: io_lost_total leaves it out. */
	__u64 clock_reversed;
	/* not a loss either: completions that block_rq_complete's program did not see (the kernel
	 * skips a program's run on a CPU where it is already running: a device's completion
	 * interrupt inside another's completion), taken at the request's block_io_done instead */
	__u64 complete_late;
	/* of complete_missed, those the sweep found (io.bpf.c io_sweep: the kernel had freed the
	 * request) rather than the request's next use. Last: io_lost_total leaves it out. */
	__u64 complete_swept;
};

/* The sweep's context (io.bpf.c io_sweep), in and out, for BPF_PROG_RUN (io_probes.c). */
struct io_sweep_ctx {
	__u64 min_age_ns;           /* in: dispatches issued at least this long ago */
	__u32 all;                  /* in: look at every request slot, even with no disk quiet for
				     * min_age (a phase's end: no later sweep of this phase) */
	__u32 phase;                /* in: the phase tag the disks' missed counts go to
				     * (IO_NO_PHASE: none) */
	__u32 looked;               /* out: such dispatches still issued in the records */
	__u32 ended;                /* out: of those, ended (the kernel had freed the request) */
	__u32 young;                /* out: younger dispatches whose request the kernel held idle
				     * (not in flight, not complete): missed, or just issued */
	__u64 young_issue;          /* out: the latest issue time of those (ktime ns), 0 if none */
};

/* ---- logic shared by the BPF programs and the pure model ---- */

static __always_inline __u32 io_log2(__u64 v, __u32 nslots)
{
	return log2_slot(v, nslots);
}

#ifdef __bpf__
/* io_log2 as a global BPF function (io.bpf.c), verified once on its own: inlined four times in one
 * program its branches multiply into more states than the verifier accepts. */
__u32 io_slot(__u64 v, __u32 nslots);
#else
static inline __u32 io_slot(__u64 v, __u32 nslots)
{
	return io_log2(v, nslots);
}
#endif

/* Histogram slot of v, bounded for the verifier whatever io_slot returned (the empty asm hides
 * the value from the compiler, which would otherwise drop the check it can prove redundant). */
#ifdef __bpf__
#define IO_SLOT(v, n) ({ __u64 s_ = io_slot((v), (n)); asm volatile("" : "+r"(s_));	\
			 s_ < (n) ? s_ : (n) - 1; })
#else
#define IO_SLOT(v, n) io_slot((v), (n))
#endif

/* Latency bucket of v (loglin_bucket), bounded the same way; in BPF a global function too. */
#ifdef __bpf__
__u32 io_lat_bucket(__u64 v);
#define IO_LAT_SLOT(v) ({ __u64 s_ = io_lat_bucket(v); asm volatile("" : "+r"(s_));	\
			  s_ & (IO_LAT_SLOTS - 1); })
#else
#define IO_LAT_SLOT(v) loglin_bucket(v)
#endif

static __always_inline __u8 io_op_of(__u32 opf)
{
	__u32 op = opf & 0xff;

	return op < IO_OP_OTHER ? op : IO_OP_OTHER;
}

/* Class of a bio from what is known about its submitter: `stack` when it works for an upper
 * device (a loop worker inside a work item, or writeback of a loop device's backing file). */
static __always_inline __u8 io_classify(int tree, int stack, int jbd2, int in_writeback,
					int wb_tree_inode)
{
	if (tree)
		return IO_CL_TREE;
	if (stack)
		return IO_CL_STACK;
	if (jbd2)
		return IO_CL_JOURNAL;
	if (in_writeback)
		return wb_tree_inode ? IO_CL_WB_TREE : IO_CL_WB;
	return IO_CL_OTHER;
}

/* An io (blkio) cgroup a tree task exec'd in: the phase, and the cgroup's id (its directory's
 * inode number in the cgroup file system), so user space can read its blk-throttle limits. */
struct io_css {
	__u32 phase;
	__u32 pad;
	__u64 cgid;
};

/* A backing file of a stacking driver (loop): its (dev, ino) -> the upper device (map
 * stack_inodes, filled by user space from /sys/block/loopN/loop/backing_file). */
struct io_stack_ino {
	__u32 dev;          /* the backing file's s_dev (kernel dev_t) */
	__u32 pad;
	__u64 ino;
};

/* Advance the disk's busy clock to `now`: time since the last event, if anything was in flight,
 * goes to the busy time of `phase` (the window open now), but never time from before that window
 * began (`begin`): a request in flight across a window edge counts from the edge on. */
static __always_inline void io_dev_tick(struct io_dev_state *d, __u64 now, __u32 phase, __u64 begin)
{
	__u64 from = d->last_ns > begin ? d->last_ns : begin;

	if (d->inflight && now > from && phase < IO_MAX_PHASES)
		d->busy_ns[phase] += now - from;
	if (now > d->last_ns)
		d->last_ns = now;
}

/* A request went to the device. Returns the depth (in flight, this one included); *seq is set
 * when it starts where the previous request to the disk ended. */
static __always_inline __u32 io_dev_issue(struct io_dev_state *d, __u64 now, __u32 phase, __u64 begin,
					  __u64 sector, __u32 nr_sectors, __u8 *seq)
{
	io_dev_tick(d, now, phase, begin);
	d->inflight++;
	*seq = d->primed && nr_sectors && d->next_sector == sector;
	if (nr_sectors) {
		d->next_sector = sector + nr_sectors;
		d->primed = 1;
	}
	if (phase < IO_MAX_PHASES)
		d->issued[phase]++;
	return d->inflight;
}

/* A request left the device (completed, or requeued). */
static __always_inline void io_dev_done(struct io_dev_state *d, __u64 now, __u32 phase, __u64 begin)
{
	io_dev_tick(d, now, phase, begin);
	if (d->inflight)
		d->inflight--;
}

static __always_inline void io_req_issue(struct io_req *r, __u64 now, __u32 depth, __u8 seq)
{
	r->t_issue = now;
	r->issued = 1;
	r->depth = depth > 0xffff ? 0xffff : depth;
	r->seq = seq;
}

/* Back from the device to the queue. Returns 1 if it was on the device. */
static __always_inline int io_req_requeue(struct io_req *r, __u64 now)
{
	int was = r->t_issue != 0;

	r->issued = 0;
	r->t_issue = 0;
	r->t_insert = now;
	if (r->requeues < 0xff)
		r->requeues++;
	return was;
}

/* Completion of nr_bytes of a request that had `remaining` bytes left. Returns 1 when it is done. */
static __always_inline int io_req_complete(struct io_req *r, __u64 nr_bytes, __u64 remaining)
{
	r->bytes += nr_bytes;
	return nr_bytes >= remaining;
}

static __always_inline __u64 io_req_queue_ns(const struct io_req *r)
{
	__u64 start = r->t_insert ? r->t_insert : r->t_queue;

	return start && r->t_issue > start ? r->t_issue - start : 0;
}

/* x += v; atomic in BPF where the statistics row is shared by the CPUs (map io_stats, `shared`),
 * a plain add in a CPU's own row (io_stats_pc) and in user space. */
#ifdef __bpf__
#define IO_ADD(x, v)                                                                   \
	do {                                                                           \
		if (shared)                                                            \
			__sync_fetch_and_add(&(x), (v));                               \
		else                                                                   \
			(x) += (v);                                                    \
	} while (0)
#else
#define IO_ADD(x, v) ((void)shared, (x) += (v))
#endif

/* Add a finished request to its statistics row, `shared` by the CPUs or this CPU's own (a
 * constant where it is called: one branch is compiled). (The maxima are plain stores: in a shared
 * row two CPUs that complete at the same instant may keep the smaller of the two.) */
static __always_inline void io_stat_add(struct io_stat *s, const struct io_req *r, __u64 now,
					const int shared)
{
	__u64 q = io_req_queue_ns(r);
	__u64 d = r->t_issue && now > r->t_issue ? now - r->t_issue : 0;

	IO_ADD(s->requests, 1);
	IO_ADD(s->bytes, r->bytes);
	if (r->seq) /* (each add is an atomic on a row the CPUs share: none for a 0) */
		IO_ADD(s->seq, r->seq);
	if (r->requeues)
		IO_ADD(s->requeues, r->requeues);
	IO_ADD(s->queue_ns, q);
	IO_ADD(s->dev_ns, d);
	if (q > s->queue_max)
		s->queue_max = q;
	if (d > s->dev_max)
		s->dev_max = d;
	IO_ADD(s->qhist[IO_LAT_SLOT(q)], 1);
	IO_ADD(s->dhist[IO_LAT_SLOT(d)], 1);
	IO_ADD(s->size_hist[IO_SLOT(r->bytes, IO_SIZE_SLOTS)], 1);
	IO_ADD(s->depth_hist[IO_SLOT(r->depth, IO_DEPTH_SLOTS)], 1);
}

#endif
