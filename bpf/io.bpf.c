// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy device and kernel-side I/O probes: block layer, page cache, writeback, fsync, journal.
 *
 * Attribution happens where the work is submitted. A bio is classified at block_bio_queue (and
 * block_split, whose new bio never passes block_bio_queue) in the submitter's context: a workload
 * tree task, a flusher inside writeback_single_inode (charged to the workload when the inode is one
 * the tree dirtied), jbd2, or other. The class travels with the bio to the request it becomes (the
 * request's first bio, looked up at insert/issue) and stays with the request through merges and
 * requeues until it completes. Timestamps are our own: rq->io_start_time_ns is often 0.
 *
 * Phases: tree tasks carry their phase in the core's per-task state (tree.bpf.h); background work
 * (writeback, journal, other processes) is charged to `current_phase`, the window user space opens
 * at the start of each phase and closes at its end (IO_NO_PHASE between phases).
 *
 * Everything is aggregated here; user space only reads the maps when a phase ends.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "tree.bpf.h"
#include "io.h"
#include "tree_inodes.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Window phase for background work, and when its window began (bpf_ktime_get_ns clock); written
 * by user space. */
__u32 current_phase;
__u64 phase_begin_ns;
/* iowhy attach: the window's end (bpf_ktime_get_ns()'s clock), set the moment it is read; requests
 * completing later count neither in the phase's rows nor in the timeline (0: no end yet) */
__u64 phase_until_ns;
/* --timeline: send every finished request on rq_events (user space sets it before loading and
 * sizes rq_events and bio_tids; without it both stay at their minimum). */
__u32 timeline_on;
__u64 rq_events_lost;     /* records rq_events had no room for */

/* The kernel's tick in ns (1/HZ: jiffies), set by user space before load (tick_ns()). */
const volatile __u64 tick_ns = 4000000;

/* The loop driver's work functions, set by user space before load (src/collect/ksym_addrs.c: the
 * kernel's own lookup, not libbpf's parse of all of /proc/kallsyms for `__ksym` externs); 0 when
 * the kernel has no loop driver. A kworker running one of them does I/O for that loop device. */
const volatile __u64 loop_workfn_addr = 0;
const volatile __u64 loop_rootcg_workfn_addr = 0;

/*
 * Pointer arguments read through an untrusted copy: bpf_rdonly_cast (kernel >= 6.2) turns a tp_btf
 * argument into the same type without the verifier's trust, and is inlined to a register move. The
 * loads stay plain (a fault reads as 0), but the verifier no longer searches the kernel's BTF for
 * "<struct>__safe_trusted"-like types (btf_nested_type_is_trusted: four linear searches by name)
 * at every pointer field it loads from the trusted argument, on every path: most of this object's
 * verification time. The object is built a second time with IO_TRUSTED_ARGS, without the kfunc,
 * for older kernels (io_probes.c picks one).
 */
/* The kernel's BTF ids of the structs cast to, set by user space before load
 * (core_btf_struct_id): a type id relocation would need the kernel's whole BTF as libbpf's
 * CO-RE target, which src/collect/core_btf.c cuts down. In both builds, so that both skeletons
 * have the same variables. */
const volatile __u32 kid_bio = 0, kid_request = 0, kid_loop_device = 0, kid_loop_worker = 0,
		     kid_address_space = 0, kid_folio = 0, kid_inode = 0;
#ifdef IO_TRUSTED_ARGS
#define UNTRUSTED(p, type, kid) (p)
#else
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#define UNTRUSTED(p, type, kid) ((type *)bpf_rdonly_cast((p), (kid)))
#endif

/* Set by user space once workqueue_execute_end is attached: without it a worker would stay
 * marked after its loop item, so workqueue_execute_start then marks nothing. */
__u32 wq_end_attached;

/* Set once a stacked device is known (user space filled stack_inodes, or a loop work item ran):
 * until then bio_seen skips the stack lookups. */
__u32 stack_active;

/*
 * The statistics rows (8 KiB with their latency histograms), in one of two maps (user space picks
 * by the number of possible CPUs, io_probes.c, and makes the other one entry): a row per CPU where
 * there are few CPUs (stats_per_cpu: plain adds to lines of its own; the atomic adds to a row the
 * CPUs shared were ~40-80 ns of a completion under fio 16 jobs), else one row the CPUs share
 * (atomic adds), so that memory does not grow with the CPU count.
 */
const volatile bool stats_per_cpu = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 1024);
	__type(key, struct io_key);
	__type(value, struct io_stat);
} io_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, struct io_key);
	__type(value, struct io_stat);
} io_stats_pc SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 32768); /* sized at load: twice reqs (io_probes.c) */
	__type(key, __u64);
	__type(value, struct io_bio);
} bios SEC(".maps");

/*
 * The last bio queued on each CPU (row: the CPU), until a request takes it or the CPU's next bio
 * moves it into bios: most bios become a request on the CPU that queued them, right after, and
 * the LRU hash's update, lookup and delete were a third of the cost of a request here. Any CPU
 * may read a row (a task can move between its bio and its request), so rows are a plain array of
 * cache lines, not a per-CPU map.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* the possible CPUs: set at load */
	__type(key, __u32);
	__type(value, struct io_bio_slot);
} bio_last SEC(".maps");

/* The possible CPUs (bio_last's rows), set by user space. */
const volatile __u32 nr_cpus = 1;
/* Tests only (IOWHY_TEST_BIO_ROW_OFFSET=N): a bio is kept in the row N CPUs on, as if its task
 * moved to another CPU before its request, which then searches the other rows. */
const volatile __u32 test_bio_row_offset = 0;

/* Requests whose slot in req_slots (below) was taken by another: the overflow. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768); /* sized at load from the devices' queues (io_probes.c) */
	__type(key, __u64);
	__type(value, struct io_req);
} reqs SEC(".maps");

/*
 * The tracked requests, each in the slot its address hashes to: a request is issued on one CPU and
 * completed on another, and a hash map's update and delete there took a bucket lock and moved an
 * element between the CPUs' free lists (cache lines both CPUs write, at every request: its
 * completion program cost twice its issue's). A slot (72 bytes: the address and the state) is
 * claimed with a compare-and-swap of its key and released by zeroing it; a request whose slot is
 * taken goes to reqs. 2^(64 - req_slot_shift) slots, set by user space (io_probes.c).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct io_req_slot);
} req_slots SEC(".maps");

const volatile __u32 req_slot_shift = 51;
/* Requests in reqs (an estimate that errs high): while 0, a request not in its slot is untracked
 * without a look in the hash (a miss there reads a cold bucket). */
__s64 reqs_in_hash = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct io_dev);
} devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IO_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct io_phase_ctr);
} phase_ctr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 256); /* (fs, phase): rows of 4 KiB a CPU (latency histogram) */
	__type(key, struct io_fs_key);
	__type(value, struct io_fs_stat);
} fs_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 256); /* (fs, phase): rows of 4 KiB a CPU (latency histogram) */
	__type(key, struct io_fs_key);
	__type(value, struct io_jbd_stat);
} jbd_stats SEC(".maps");

/* The totals of the inodes the tree dirtied (the set itself: tree_inodes.bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct io_inode_totals);
} inode_totals SEC(".maps");


struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u64);
} fsync_start SEC(".maps");

/* blkio (io) cgroups of tree tasks, seen at exec: css address -> phase and cgroup id. A throttled
 * bio is dispatched later by the throttler's worker, not by its submitter; its cgroup names it. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct io_css);
} tree_css SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} commit_start SEC(".maps");

/* Backing files of loop devices: (dev, ino) -> the loop device (user space fills it at each
 * phase start from /sys/block/loopN/loop/backing_file). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct io_stack_ino);
	__type(value, __u32);
} stack_inodes SEC(".maps");

/* Kworkers that ran a loop work item: tid -> the loop device they work for (0: none now), and the
 * item. An entry stays when its item ends (dev 0), so the worker's next item writes it in place:
 * an update and a delete at every item took a bucket lock and moved an element each (~0.3 µs an
 * item, half a loop item a request on a RAM-backed loop). LRU: workers come and go. */
struct io_stack_task {
	__u64 work;
	__u32 dev;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct io_stack_task);
} stack_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct io_lost);
} lost SEC(".maps");

/* The request whose completion this CPU's block_rq_complete program took last: its block_io_done,
 * which follows on the same CPU, then needs no lookup in reqs (a miss in a hash of thousands of
 * requests: a cold bucket, ~100 ns at every request). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} completed_here SEC(".maps");

/* --timeline only: finished requests (struct io_rq_rec), and the tree task that queued a bio until
 * it becomes a request. Sized by user space when the timeline is on; minimal otherwise. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rq_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, __u32);
} bio_tids SEC(".maps");

/* This CPU's rows of the request statistics the hash refused (io.h io_spill). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IO_SPILL_ROWS);
	__type(key, __u32);
	__type(value, struct io_spill);
} io_spill SEC(".maps");

/* Zeroes to create rows of the per-CPU hashes from (the largest value type; never written). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct io_stat);
} zero_row SEC(".maps");

__noinline __u32 io_slot(__u64 v, __u32 nslots)
{
	return io_log2(v, nslots);
}

__noinline __u32 io_lat_bucket(__u64 v)
{
	return loglin_bucket(v);
}

#define LOST(field)                                                     \
	do {                                                            \
		__u32 z_ = 0;                                           \
		struct io_lost *l_ = bpf_map_lookup_elem(&lost, &z_);   \
		if (l_)                                                 \
			l_->field++;                                    \
	} while (0)

/* Row `key` of a hash, created zeroed when missing; NULL when it could not be made (*err: the
 * insert's error, 0 when it was found or made). */
static __always_inline void *row_err(void *map, const void *key, long *err)
{
	void *v = bpf_map_lookup_elem(map, key);
	__u32 z = 0;
	void *zero;

	*err = 0;
	if (v)
		return v;
	zero = bpf_map_lookup_elem(&zero_row, &z);
	if (!zero)
		return NULL;
	*err = bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

#define IO_ENOMEM 12 /* (errno.h is not for BPF objects) */
/* The spilled rows a CPU may use (tests: fewer, IOWHY_TEST_SPILL_ROWS). */
const volatile __u32 spill_rows = IO_SPILL_ROWS;

/* The search of this CPU's spilled rows (io.h io_spill) for (kind, key), by bpf_loop: its callback
 * is verified once, where an unrolled loop of 64 made the completion programs 3x longer. */
struct spill_search {
	__u64 kind, key[2];
	__s32 slot;           /* the row's, or -1 */
	__u32 pad;
};

static long spill_search_row(__u64 i, void *ctx)
{
	struct spill_search *q = ctx;
	__u32 idx = (__u32)i;
	struct io_spill *sp = bpf_map_lookup_elem(&io_spill, &idx);

	if (!sp)
		return 1;
	if (!sp->used) { /* claimed here, unless a nested program took it first */
		if (__sync_val_compare_and_swap(&sp->used, 0, q->kind) != 0)
			return 0;
		sp->key.raw[0] = q->key[0];
		sp->key.raw[1] = q->key[1];
		q->slot = (__s32)idx;
		return 1;
	}
	if (sp->used == q->kind && sp->key.raw[0] == q->key[0] && sp->key.raw[1] == q->key[1]) {
		q->slot = (__s32)idx;
		return 1;
	}
	return 0;
}

/* The row of (kind, key) among this CPU's spilled rows, claimed if new; NULL when all are taken
 * (and on a kernel without bpf_loop, 5.17: none are kept aside there). A program nested into this
 * one (an interrupt's completion) may claim another row for the same key: user space adds rows by
 * key. */
static __always_inline void *spill_row(__u64 kind, const __u64 *key)
{
	struct spill_search q = { .kind = kind, .key = { key[0], key[1] }, .slot = -1 };
	struct io_spill *sp;
	__u32 idx;

	/* (a bpf_loop of a known 0 times fails the load here: EFAULT) */
	if (!spill_rows || !bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_loop))
		return NULL;
	bpf_loop(spill_rows, spill_search_row, &q, 0);
	if (q.slot < 0)
		return NULL;
	idx = (__u32)q.slot;
	sp = bpf_map_lookup_elem(&io_spill, &idx);
	return sp ? &sp->v : NULL;
}

/* row_err(), or when the map refused a new row with room left in it (no element at hand: -ENOMEM),
 * this CPU's spilled row of the key (of KEY_SIZE bytes; *spilled set). A map that is full (-E2BIG)
 * is full: NULL, a loss its caller counts. */
static __always_inline void *row_or_spill(void *map, const void *key, __u32 key_size, __u64 kind,
					  bool *spilled)
{
	__u64 k[2] = {};
	long err;
	void *v = row_err(map, key, &err);

	*spilled = false;
	if (v || err != -IO_ENOMEM || key_size > sizeof(k))
		return v;
	__builtin_memcpy(k, key, key_size);
	*spilled = true;
	return spill_row(kind, k);
}

static __always_inline struct io_phase_ctr *ctr(__u32 phase)
{
	if (phase >= IO_MAX_PHASES)
		return NULL;
	return bpf_map_lookup_elem(&phase_ctr, &phase);
}

static __always_inline __u32 cur_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/* The current task's tree state, NULL outside the workload tree (only its phase is read here). */
static __always_inline struct iowhy_task *tree_task(void)
{
	return current_task(cur_tid());
}

static __always_inline __u64 jiffies_ns(__u64 j)
{
	return j * tick_ns;
}

static __always_inline int comm_is_jbd2(void)
{
	char c[8];

	if (bpf_get_current_comm(c, sizeof(c)))
		return 0;
	return c[0] == 'j' && c[1] == 'b' && c[2] == 'd' && c[3] == '2' && c[4] == '/';
}

/* Typed (tp_btf) pointers are read with plain loads, not bpf_probe_read: these run per folio. */
static __always_inline __u64 folio_bytes(struct folio *f)
{
	unsigned long flags = f->flags.f;

	if (!(flags & (1UL << 6 /* PG_head */)))
		return IO_PAGE_SIZE;
	return IO_PAGE_SIZE << (f->_flags_1 & 0xff);
}

/* The inode's bucket in tree_inodes and its tag; NULL if none (cannot happen: the index is masked). */
static __always_inline struct iowhy_inode_bucket *inode_slot(struct inode *inode, __u64 *tag)
{
	return tree_inode_slot(inode->i_sb->s_dev, inode->i_ino, tag);
}

static __always_inline int tree_dirtied(struct inode *inode)
{
	__u64 tag;
	struct iowhy_inode_bucket *b = inode ? inode_slot(inode, &tag) : NULL;

	return b && inode_set_has(b, tag);
}

static __always_inline struct io_inode_totals *inode_tot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&inode_totals, &zero);
}

/* ---- block layer ---- */

#define BIO_BPS_THROTTLED_ 5   /* bio_flags: dispatched by blk-throttle */

static __always_inline __u64 task_io_css(struct task_struct *t, __u64 *cgid)
{
	int id = bpf_core_enum_value(enum cgroup_subsys_id, io_cgrp_id);
	struct cgroup_subsys_state *css;

	if (id < 0 || id >= CGROUP_SUBSYS_COUNT)
		return 0;
	css = BPF_CORE_READ(t, cgroups, subsys[id]);
	*cgid = css && BPF_CORE_READ(css, parent) ? BPF_CORE_READ(css, cgroup, kn, id) : 0;
	return (__u64)css;
}

/* A bio blk-throttle held back and now dispatches from its worker: if its cgroup is one of the
 * tree's (not the root), the tree submitted it. */
static __always_inline void throttled_tree_bio(struct bio *bio, struct io_bio *b)
{
	struct io_css *phase;
	struct blkcg *cg;
	__u64 css;

	if (!(bio->bi_flags & (1 << BIO_BPS_THROTTLED_)) || !bio->bi_blkg)
		return;
	cg = bio->bi_blkg->blkcg;
	if (!cg || !cg->css.parent)
		return;
	css = (__u64)&cg->css;
	phase = bpf_map_lookup_elem(&tree_css, &css);
	if (!phase)
		return;
	b->cls = IO_CL_TREE;
	b->phase = phase->phase;
}

/* Tests only (IOWHY_TEST_BIO_MOVE_SPIN=N): N empty bpf_loop steps while a bio moves from its row
 * into bios, to widen the moment a request on another CPU may search for it. */
const volatile __u32 test_bio_move_spin = 0;

static long spin_step(__u64 i, void *ctx)
{
	return 0;
}

static __always_inline struct io_bio_slot *bio_row(__u32 cpu)
{
	return bpf_map_lookup_elem(&bio_last, &cpu);
}

/* Remember bio `key` until a request takes it: in this CPU's row, the row's bio before it moved
 * into bios. The move copies it into bios first and then empties the row by a compare-and-swap,
 * so that at every moment the bio is in one place or both: a request on another CPU searching
 * the rows and then bios (bio_take_here) always finds it. (Emptied first, the bio was in neither
 * while the hash's update ran, and a request that searched then was built without it:
 * issue_unseen, about one read in several thousand beside another process's I/O.) If the swap
 * fails, a request took the bio from the row meanwhile, and the copy is deleted: left in bios, it
 * would be found for a later bio at the same address. */
static __always_inline void bio_keep(__u64 key, const struct io_bio *b)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct io_bio_slot *sl;
	__u64 old;

	if (test_bio_row_offset) /* (rodata: the branch is pruned at load when 0) */
		cpu = (cpu + test_bio_row_offset) % nr_cpus;
	sl = bio_row(cpu);

	if (!sl) {
		if (bpf_map_update_elem(&bios, &key, b, BPF_ANY))
			LOST(bios_full);
		return;
	}
	old = *(volatile __u64 *)&sl->key;
	if (old) {
		struct io_bio ob = sl->b;
		int err = bpf_map_update_elem(&bios, &old, &ob, BPF_ANY);

		if (test_bio_move_spin && /* (rodata: pruned at load when 0) */
		    bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_loop))
			bpf_loop(test_bio_move_spin, spin_step, NULL, 0);
		if (__sync_val_compare_and_swap(&sl->key, old, 0) != old) {
			if (!err)
				bpf_map_delete_elem(&bios, &old);
		} else if (err) {
			LOST(bios_full);
		}
	}
	sl->b = *b;
	asm volatile("" ::: "memory");
	*(volatile __u64 *)&sl->key = key;
}

/* Take bio `key` out of row `sl` into *out: false if the row holds another (or it was taken or
 * moved meanwhile: the compare-and-swap confirms the copy). */
static __always_inline bool bio_row_take(struct io_bio_slot *sl, __u64 key, struct io_bio *out)
{
	if (!sl || *(volatile __u64 *)&sl->key != key)
		return false;
	*out = sl->b;
	return __sync_val_compare_and_swap(&sl->key, key, 0) == key;
}

/* The other CPUs' rows, searched by bpf_loop: its callback is verified once, where an unrolled loop
 * over 256 CPUs took the programs that take a bio 1.9 s each to load. */
struct bio_search {
	__u64 key;
	__u32 self;
	__u32 found;
	struct io_bio b;
};

static long bio_search_row(__u64 cpu, void *ctx)
{
	struct bio_search *s = ctx;

	if (cpu == s->self || !bio_row_take(bio_row((__u32)cpu), s->key, &s->b))
		return 0;
	s->found = 1;
	return 1; /* stop */
}

/* Take bio `key` (non-zero), wherever it waits, into *out; false if it was never seen. This CPU's
 * row first, then bios, then the other CPUs' rows (a task that moved after queueing it; not on a
 * kernel without bpf_loop, 5.17). */
static __always_inline bool bio_take_here(__u64 key, struct io_bio *out)
{
	__u32 self = bpf_get_smp_processor_id();
	struct io_bio *b;

	if (bio_row_take(bio_row(self), key, out))
		return true;
	b = bpf_map_lookup_elem(&bios, &key);
	if (b) {
		*out = *b;
		bpf_map_delete_elem(&bios, &key);
		return true;
	}
	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_loop)) {
		struct bio_search st = { .key = key, .self = self };

		bpf_loop(nr_cpus, bio_search_row, &st, 0);
		if (st.found) {
			*out = st.b;
			return true;
		}
	}
	/* moved into bios by its CPU while we looked */
	b = bpf_map_lookup_elem(&bios, &key);
	if (!b)
		return false;
	*out = *b;
	bpf_map_delete_elem(&bios, &key);
	return true;
}

/* bio_take_here as a global function: the verifier checks it once per program, not for every path
 * that reaches it (its bpf_loop callback with it). `key` is a number (read through a probe), not
 * a pointer. */
__noinline int io_bio_take(__u64 key, struct io_bio *out)
{
	if (!out)
		return 0;
	return bio_take_here(key, out);
}

/* Bio `key`'s class, without taking it (a split's parent); false if not seen. */
static __always_inline bool bio_peek(__u64 key, struct io_bio *out)
{
	struct io_bio_slot *sl = bio_row(bpf_get_smp_processor_id());
	struct io_bio *b;

	if (sl && *(volatile __u64 *)&sl->key == key) {
		*out = sl->b;
		if (*(volatile __u64 *)&sl->key == key)
			return true;
	}
	b = bpf_map_lookup_elem(&bios, &key);
	if (!b)
		return false;
	*out = *b;
	return true;
}

/* Forget `bio` (merged into a request that has its own first bio), wherever it waits. */
static __always_inline void bio_forget(struct bio *bio)
{
	struct io_bio tmp;
	__u64 key = 0;

	bpf_probe_read_kernel(&key, sizeof(key), &bio);
	io_bio_take(key, &tmp);
}

/* Classify a bio in its submitter's context and remember it until it becomes a request. */
static __always_inline void bio_seen(struct bio *bio)
{
	struct iowhy_task *c = tree_task();
	__u64 key = (__u64)bio;
	struct io_bio b = {};

	b.t_queue = bpf_ktime_get_ns();
	b.dev = bio->bi_bdev ? bio->bi_bdev->bd_dev : 0;
	if (c) {
		b.cls = IO_CL_TREE;
		b.phase = c->phase;
	} else {
		__u32 tid = cur_tid();
		struct io_stack_task *up = stack_active ? bpf_map_lookup_elem(&stack_tasks, &tid) :
						NULL;
		int jbd2;

		if (up && !up->dev) /* its last loop item ended */
			up = NULL;
		jbd2 = up ? 0 : comm_is_jbd2();
		struct io_wb *w = jbd2 || up ? NULL : bpf_map_lookup_elem(&wb_tasks, &tid);

		b.upper = up ? up->dev : w ? w->upper : 0;
		b.cls = io_classify(0, b.upper != 0, jbd2, w != NULL, w && w->tree);
		b.phase = current_phase;
		if (b.cls == IO_CL_OTHER)
			throttled_tree_bio(bio, &b);
	}
	bio_keep(key, &b);
	if (timeline_on && c) {
		__u32 tid = cur_tid();

		bpf_map_update_elem(&bio_tids, &key, &tid, BPF_ANY);
	}
}

/* --timeline: the tree task that queued bio `bkey`, forgotten once read; 0 if none. */
static __always_inline __u32 bio_tid_take(__u64 bkey)
{
	__u32 *tid, v;

	if (!timeline_on || !bkey)
		return 0;
	tid = bpf_map_lookup_elem(&bio_tids, &bkey);
	if (!tid)
		return 0;
	v = *tid;
	bpf_map_delete_elem(&bio_tids, &bkey);
	return v;
}

/* --timeline: send a finished request to user space; counted when the ring is full. */
static __always_inline void send_rq(const struct io_req *r, __u64 now)
{
	struct io_rq_rec *e;

	if (!timeline_on)
		return;
	e = bpf_ringbuf_reserve(&rq_events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&rq_events_lost, 1);
		return;
	}
	e->t_queue = r->t_queue;
	e->t_insert = r->t_insert;
	e->t_issue = r->t_issue;
	e->t_done = now;
	e->bytes = r->bytes;
	e->dev = r->dev;
	e->disk = r->disk;
	e->tid = r->tid;
	e->depth = r->depth;
	e->phase = r->phase;
	e->cls = r->cls;
	e->op = r->op;
	e->requeues = r->requeues;
	e->pad[0] = e->pad[1] = 0;
	bpf_ringbuf_submit(e, 0);
}

/* The slot of the request at `key` (its address), NULL if none. The address is copied through a
 * read: the verifier allows no shift or multiplication of a pointer. */
static __always_inline struct io_req_slot *req_slot(__u64 key)
{
	__u64 k = 0;
	__u32 i;

	bpf_probe_read_kernel(&k, sizeof(k), &key);
	i = (__u32)(((k >> 6) * 0x9E3779B97F4A7C15ull) >> req_slot_shift);
	return bpf_map_lookup_elem(&req_slots, &i);
}

/* The tracked state of request `key`, NULL if untracked. */
static __always_inline struct io_req *req_find(__u64 key)
{
	struct io_req_slot *sl = req_slot(key);

	if (sl && sl->key == key)
		return &sl->r;
	if (*(volatile __s64 *)&reqs_in_hash <= 0)
		return NULL;
	return bpf_map_lookup_elem(&reqs, &key);
}

/* Forget request `key`. */
static __always_inline void req_forget(__u64 key)
{
	struct io_req_slot *sl = req_slot(key);

	if (sl && sl->key == key) {
		*(volatile __u64 *)&sl->key = 0;
		return;
	}
	if (*(volatile __s64 *)&reqs_in_hash > 0 && !bpf_map_delete_elem(&reqs, &key))
		__sync_fetch_and_add(&reqs_in_hash, -1);
}

/* Track request `key` with state *n: its slot when free, else the overflow hash. NULL when both
 * are full. */
static __always_inline struct io_req *req_track(__u64 key, const struct io_req *n)
{
	struct io_req_slot *sl = req_slot(key);

	if (sl && __sync_val_compare_and_swap(&sl->key, 0, key) == 0) {
		sl->r = *n;
		return &sl->r;
	}
	if (bpf_map_update_elem(&reqs, &key, n, BPF_ANY))
		return NULL;
	__sync_fetch_and_add(&reqs_in_hash, 1);
	return bpf_map_lookup_elem(&reqs, &key);
}

/* The block programs are tp_btf: typed pointers, read with plain loads (no bpf_probe_read per
 * field; a fault reads as 0). They run several times per request, in the submitter's and the
 * completion's path. */
static __always_inline __u32 disk_of(struct request *rq)
{
	struct gendisk *disk = rq->q ? rq->q->disk : NULL;

	if (!disk)
		return 0;
	return ((__u32)disk->major << 20) | (__u32)disk->first_minor;
}

static __always_inline struct io_dev *dev_get(__u32 disk)
{
	struct io_dev *d = bpf_map_lookup_elem(&devs, &disk);
	__u32 z = 0;
	void *zero;

	if (d)
		return d;
	/* zeroes from zero_row (larger than struct io_dev: _Static_assert in io_probes.c), not the
	 * stack: the entry is too big for it beside the issue program's own */
	zero = bpf_map_lookup_elem(&zero_row, &z);
	if (!zero)
		return NULL;
	bpf_map_update_elem(&devs, &disk, zero, BPF_NOEXIST);
	d = bpf_map_lookup_elem(&devs, &disk);
	if (!d)
		LOST(devs_full);
	return d;
}

/* Mark disk dev (a disk or a partition: its disk's slot) as one the workload uses. */
static __always_inline void mark_disk_used(__u32 dev)
{
	__u32 zero = 0, *slot = bpf_map_lookup_elem(&disk_slots, &dev), s;
	struct iowhy_inflight *f = bpf_map_lookup_elem(&tree_inflight, &zero);

	if (!slot || !f)
		return;
	s = *slot; /* read once: the bound below must hold for the index */
	if (s < IOWHY_DISK_SLOTS && !f->used[s])
		f->used[s] = 1;
}

/* Disk slot s's count of workload requests in flight moved by d (+1, -1): in this CPU's row, an
 * atomic add on a line no other CPU writes (a program in an interrupt may run inside this one on the
 * same CPU); or in the count every CPU shares (iowhy.h). */
static __always_inline void inflight_add(__u32 s, __s32 d)
{
	struct iowhy_inflight_pc *pc;
	struct iowhy_inflight *f;
	__u32 zero = 0;

	if (s >= IOWHY_DISK_SLOTS)
		return;
	if (!inflight_per_cpu()) {
		f = bpf_map_lookup_elem(&tree_inflight, &zero);
		if (f)
			__sync_fetch_and_add(&f->count[s], (__u32)d); /* XADD: no atomic sub on BPF v1 */
		return;
	}
	pc = bpf_map_lookup_elem(&tree_inflight_pc, &zero);
	if (pc)
		__sync_fetch_and_add(&pc->count[s], d);
}

/*
 * The workload's requests in flight per disk (its own, writeback of its files, the journal of a
 * disk it uses), for the core's I/O wait by device. Counted from issue to completion or requeue.
 */
static __always_inline void wait_slot_inc(struct io_req *r)
{
	struct iowhy_inflight *f;
	__u32 zero = 0, *slot, s;

	if (r->cls != IO_CL_TREE && r->cls != IO_CL_WB_TREE && r->cls != IO_CL_JOURNAL)
		return;
	slot = bpf_map_lookup_elem(&disk_slots, &r->disk);
	f = bpf_map_lookup_elem(&tree_inflight, &zero);
	if (!slot || !f)
		return;
	s = *slot; /* read once: the bound below must hold for every index */
	if (s >= IOWHY_DISK_SLOTS)
		return;
	if (r->cls != IO_CL_JOURNAL) {
		if (!f->used[s]) /* a store only the first time: the line is read on every CPU */
			f->used[s] = 1;
	} else if (!f->used[s])
		return; /* another file system's commit: not the workload's to wait on */
	inflight_add(s, 1);
	r->wslot = s + 1;
}

static __always_inline void wait_slot_dec(struct io_req *r)
{
	__u32 slot = r->wslot - 1;

	if (!r->wslot)
		return;
	r->wslot = 0;
	inflight_add(slot, -1);
}

/* Remember which disk completed a workload request (tree, its writeback, the journal) last: the
 * core credits a D-sleeping tree task woken right after it (within microseconds) with waiting on
 * that disk. One word for all CPUs: the wakeup often runs on another CPU, in a file system's
 * completion worker (btrfs ends its direct writes in a workqueue), so the last workload
 * completion anywhere names the disk the task waited for last. (It was a per-CPU slot written on
 * every CPU: a lookup and a store a CPU at every completion.) Other work's completions are not
 * remembered: on a busy host they would take the credit from the workload's disk. `slot1`: the
 * disk's slot + 1, as the request's in-flight count took it at issue (no lookup here). */
static __always_inline void note_completion(__u64 slot1, __u64 now)
{
	struct iowhy_last_complete *l;
	__u32 zero = 0;

	l = bpf_map_lookup_elem(&last_complete, &zero);
	if (l)
		*(volatile __u64 *)&l->word = slot1 << IOWHY_LC_TS_BITS | (now & IOWHY_LC_TS_MASK);
}

/* Tests only (IOWHY_TEST_SKIP_COMPLETIONS=N): every Nth run of io_rq_complete does nothing, as when
 * the kernel skips it (below). */
const volatile __u32 test_skip_complete_every = 0;
/* Tests only (IOWHY_TEST_MISS_COMPLETIONS=N): block_io_done's program skips the same requests, as
 * when the kernel runs neither (req_get: a stale request). */
const volatile bool test_miss_done_too = false;
/* Tests only (IOWHY_TEST_NO_UNSTALE=1): the control, stale requests left as they are. */
const volatile bool test_no_unstale = false;

/* The end of a dispatch whose completion no program saw (req_get, io_sweep): counted (`swept`: by
 * the sweep), and the disk's and the workload's in-flight counts released (wslot: 1 + the disk
 * slot counted at issue, or 0). When it ended is not known: no later than the disk's last traced
 * event, or it would be the disk's only request still in flight (the usual case: a completion
 * missed inside another's), so its busy clock is not advanced: the time since that event is not
 * counted busy. (Advanced to now, an idle disk's gap was counted busy for every stale request.)
 * The disk's missed count goes to phase tag `phase` (the sweep at a phase's end runs after the
 * phase closed). A global function, checked once per program. */
__noinline int io_end_stale(__u32 disk, __u32 wslot, __u32 swept, __u32 phase)
{
	struct io_req tmp = { .wslot = (__u8)wslot };
	struct io_dev *d = dev_get(disk);

	LOST(complete_missed);
	if (swept)
		LOST(complete_swept);
	wait_slot_dec(&tmp);
	if (d) {
		bpf_spin_lock(&d->lock);
		if (d->s.inflight)
			d->s.inflight--;
		if (phase < IO_MAX_PHASES) /* the disk's share of complete_missed, per phase */
			d->s.missed[phase]++;
		bpf_spin_unlock(&d->lock);
	}
	return 0;
}

/* Claim the end of r's dispatch (issued at t, not 0): the caller that swaps t_issue from t to 0
 * ends it, once, where the sweep (another CPU) and the request's next use can meet. */
static __always_inline int req_claim_end(struct io_req *r, __u64 t)
{
	return t && __sync_val_compare_and_swap(&r->t_issue, t, 0) == t;
}

/*
 * The tracked state of a request; on first sight built from its first bio (or UNKNOWN). A request
 * still issued in our records that is inserted or issued again had its last dispatch end without
 * our seeing it: the kernel starts a request only from idle, after a completion or a (traced)
 * requeue, and on this host it ran neither completion program for about one request in a thousand
 * under fio (the tracepoint fired: ftrace counted it; a minimal tracer's program missed them too),
 * with no recursion miss counted. Left issued, the entry kept the device's and the workload's
 * in-flight counts up, and the request's next I/O was dated from the old issue (device times of
 * milliseconds for 70 µs reads). Now that dispatch ends here, uncounted (complete_missed; its
 * first bio cannot tell a requeue: a new I/O often gets the bio just freed), and the state is
 * built afresh in the same entry.
 */
static __always_inline struct io_req *req_get(struct request *rq)
{
	__u64 key = (__u64)rq, bkey;
	struct io_req *r = req_find(key);
	struct io_req n = {};
	struct io_bio b;

	if (r && (!r->issued || test_no_unstale))
		return r;
	if (r) { /* stale (above): end that dispatch (unless the sweep did), then build afresh */
		if (req_claim_end(r, r->t_issue))
			io_end_stale(r->disk, r->wslot, 0, current_phase);
		r->wslot = 0;
	}
	/* on first sight (or afresh), built from its first bio (or UNKNOWN) */
	bkey = 0;
	bpf_probe_read_kernel(&bkey, sizeof(bkey), &rq->bio); /* a number, for io_bio_take */
	if (bkey && io_bio_take(bkey, &b)) {
		n.t_queue = b.t_queue;
		n.dev = b.dev;
		n.phase = b.phase;
		n.cls = b.cls;
		n.upper = b.upper;
	} else {
		struct block_device *part = rq->part;

		n.cls = IO_CL_UNKNOWN;
		n.phase = current_phase;
		n.dev = part ? part->bd_dev : 0;
		LOST(issue_unseen);
	}
	n.tid = bio_tid_take(bkey);
	n.disk = disk_of(rq);
	if (!n.dev)
		n.dev = n.disk;
	n.op = io_op_of(rq->cmd_flags);
	if (r) {
		*r = n;
		return r;
	}
	r = req_track(key, &n);
	if (!r)
		LOST(reqs_full);
	return r;
}

static __always_inline void on_rq_insert(struct request *rq)
{
	struct io_req *r = req_get(rq);

	if (r)
		r->t_insert = bpf_ktime_get_ns();
}

static __always_inline void on_rq_issue(struct request *rq)
{
	struct io_req *r = req_get(rq);
	__u64 now = bpf_ktime_get_ns();
	__u64 sector = rq->__sector;
	__u32 nsect = rq->__data_len >> 9, depth;
	struct io_dev *d;
	__u8 seq = 0;

	if (!r)
		return;
	d = dev_get(r->disk);
	if (!d)
		return;
	bpf_spin_lock(&d->lock);
	depth = io_dev_issue(&d->s, now, current_phase, phase_begin_ns, sector, nsect, &seq);
	bpf_spin_unlock(&d->lock);
	io_req_issue(r, now, depth, seq);
	r->size = rq->__data_len;
	wait_slot_inc(r);
}

static __always_inline void on_rq_requeue(struct request *rq)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct io_req *r = req_find(key);
	struct io_phase_ctr *pc;
	struct io_dev *d;

	if (!r)
		return;
	pc = ctr(r->phase);
	if (pc)
		pc->requeues++;
	if (!io_req_requeue(r, now))
		return;
	wait_slot_dec(r);
	d = dev_get(r->disk);
	if (!d)
		return;
	bpf_spin_lock(&d->lock);
	io_dev_done(&d->s, now, current_phase, phase_begin_ns);
	bpf_spin_unlock(&d->lock);
}

static __always_inline void on_rq_complete(struct request *rq, unsigned int nr_bytes)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	struct io_req *r = req_find(key);
	struct io_key k = {};
	struct io_stat *s;
	bool spilled;
	struct io_dev *d;

	if (r && r->wslot) /* the workload's: another's completion must not name the waker */
		note_completion(r->wslot, now); /* its disk's slot + 1, as counted at issue */
	if (!r || !r->t_issue) { /* untracked, not issued, or its dispatch ended by the sweep */
		LOST(complete_untracked);
		if (r)
			req_forget(key);
		return;
	}
	if (!io_req_complete(r, nr_bytes, rq->__data_len))
		return;
	if (r->t_issue > now)
		LOST(clock_reversed);
	wait_slot_dec(r);
	d = dev_get(r->disk);
	if (d) {
		bpf_spin_lock(&d->lock);
		io_dev_done(&d->s, now, current_phase, phase_begin_ns);
		bpf_spin_unlock(&d->lock);
	}
	if (r->phase < IO_MAX_PHASES && !(phase_until_ns && now > phase_until_ns)) {
		k.dev = r->dev;
		k.phase = r->phase;
		k.op = r->op;
		k.cls = r->cls;
		k.upper = r->upper;
		if (stats_per_cpu)
			s = row_or_spill(&io_stats_pc, &k, sizeof(k), IO_SPILL_IO, &spilled);
		else
			s = row_or_spill(&io_stats, &k, sizeof(k), IO_SPILL_IO, &spilled);
		/* atomic adds only to a row the CPUs share (a spilled row is this CPU's own) */
		if (s)
			io_stat_add(s, r, now, !stats_per_cpu && !spilled);
		else
			LOST(stats_full);
		send_rq(r, now);
	}
	req_forget(key);
	{
		__u32 zero = 0;
		__u64 *last = bpf_map_lookup_elem(&completed_here, &zero);

		if (last)
			*last = key;
	}
}

static __always_inline void count_merge(int which)
{
	struct iowhy_task *c = tree_task();
	struct io_phase_ctr *pc = ctr(c ? c->phase : current_phase);

	if (!pc)
		return;
	if (which == 0)
		pc->bio_backmerges++;
	else if (which == 1)
		pc->bio_frontmerges++;
	else if (which == 2)
		pc->rq_merges++;
	else
		pc->splits++;
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(io_bio_queue, struct bio *bio)
{
	bio_seen(UNTRUSTED(bio, struct bio, kid_bio));
	return 0;
}

/* The front part split off a bio never passes block_bio_queue. It is chained to the rest
 * (bi_private = parent): it inherits the parent's class, else it is classified here (the splitter
 * runs in the submitter's context, or in blk-throttle's worker for throttled bios). */
SEC("tp_btf/block_split")
int BPF_PROG(io_split, struct bio *arg, unsigned int new_sector)
{
	struct bio *bio = UNTRUSTED(arg, struct bio, kid_bio);
	__u64 parent = (__u64)bio->bi_private, key = (__u64)bio;
	struct io_bio b;

	count_merge(3);
	if (!parent || !bio_peek(parent, &b)) {
		bio_seen(bio);
		return 0;
	}
	b.t_queue = bpf_ktime_get_ns();
	bio_keep(key, &b);
	if (timeline_on) { /* the split-off part keeps the parent's submitter */
		__u32 *tid = bpf_map_lookup_elem(&bio_tids, &parent);

		if (tid) {
			__u32 v = *tid;

			bpf_map_update_elem(&bio_tids, &key, &v, BPF_ANY);
		}
	}
	return 0;
}

/* A bio merged at the back of a request: the request keeps its first bio's class. */
SEC("tp_btf/block_bio_backmerge")
int BPF_PROG(io_bio_backmerge, struct bio *bio)
{
	__u64 key = (__u64)bio;

	bio_forget(bio);
	if (timeline_on)
		bpf_map_delete_elem(&bio_tids, &key);
	count_merge(0);
	return 0;
}

/* A bio merged at the front becomes the request's first bio: keep it, it names the request. */
SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(io_bio_frontmerge, struct bio *bio)
{
	count_merge(1);
	return 0;
}

/* Request `rq` was merged into another one and is freed without completing. */
SEC("tp_btf/block_rq_merge")
int BPF_PROG(io_rq_merge, struct request *rq)
{
	__u64 key = (__u64)rq;

	req_forget(key);
	count_merge(2);
	return 0;
}

SEC("tp_btf/block_rq_insert")
int BPF_PROG(io_rq_insert, struct request *rq)
{
	on_rq_insert(UNTRUSTED(rq, struct request, kid_request));
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(io_rq_issue, struct request *rq)
{
	on_rq_issue(UNTRUSTED(rq, struct request, kid_request));
	return 0;
}

SEC("tp_btf/block_rq_requeue")
int BPF_PROG(io_rq_requeue, struct request *rq)
{
	on_rq_requeue(rq);
	return 0;
}

__u64 test_complete_seen = 0;

SEC("tp_btf/block_rq_complete")
int BPF_PROG(io_rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	if (test_skip_complete_every &&
	    __sync_fetch_and_add(&test_complete_seen, 1) % test_skip_complete_every ==
		    test_skip_complete_every - 1) {
		__u64 *last, key = (__u64)rq;
		__u32 zero = 0;

		last = test_miss_done_too ? bpf_map_lookup_elem(&completed_here, &zero) : NULL;
		if (last)
			*last = key;
		return 0;
	}
	on_rq_complete(rq, nr_bytes);
	return 0;
}

/*
 * The end of a request's accounting (blk_account_io_done, after its last block_rq_complete). A
 * request still tracked as issued here had its completion missed: the kernel does not run a
 * program on a CPU where the same program is running, and a device's completion interrupt can
 * come inside another device's completion (a loop device's, in its worker or softirq, over the
 * disk that holds its backing file). Missed, it stayed in flight and kept its device busy until
 * the phase's end (a soak run: loop0 and vda each busy 463 ms of 653 ms for ~1 ms requests).
 * Completed here instead.
 */
SEC("tp_btf/block_io_done")
int BPF_PROG(io_done, struct request *rq)
{
	__u64 key = (__u64)rq, *last;
	struct io_req *r;
	__u32 zero = 0;

	last = bpf_map_lookup_elem(&completed_here, &zero);
	if (last) {
		__u64 was = *last;

		*last = 0; /* whatever it held: a slot left by a skipped block_io_done lives one event */
		if (was == key) /* completed just now, by this CPU's block_rq_complete */
			return 0;
	}
	r = req_find(key);
	if (!r || !r->t_issue)
		return 0;
	LOST(complete_late);
	/* at least the bytes left (0 by now, after a whole completion): the size at issue less
	 * what completions already counted */
	on_rq_complete(rq, r->size > r->bytes ? r->size - r->bytes : rq->__data_len);
	return 0;
}

/*
 * The sweep, run by user space (BPF_PROG_RUN, io_probes.c: every IO_SWEEP_EVERY_NS and before a
 * phase's devices are read). A dispatch whose completion no program saw (req_get) is otherwise
 * ended only when its request is used again. A request that is not (an idle disk; a deep queue
 * whose tags go round) stayed in flight in the records, and every gap between the disk's later
 * requests was counted busy: once vda busy 689 ms of 838 against the kernel's io_ticks of 24 ms.
 * When a disk is quiet (in flight in the records, no event for min_age_ns), or at a phase's end
 * (ctx->all), every request still issued in the records is looked up in the kernel: if the
 * request is idle (MQ_RQ_IDLE: the kernel set it so when it freed the request, after both
 * completion tracepoints ran) or its memory is gone (the device was removed), and it was issued at
 * least min_age_ns ago, its dispatch is over and is ended (complete_missed, complete_swept). A
 * request still in flight, or complete with its completion to run (MQ_RQ_COMPLETE: a softirq may
 * still be on its way), is left alone. min_age_ns covers the moment between the issue program and
 * the kernel's marking the request in flight: an idle one issued later is only counted (young,
 * young_issue), for the phase's end to wait for it and sweep again. The sweep writes nothing in
 * the entry but the claim (req_claim_end), so a request used again meanwhile on another CPU keeps
 * its fresh state.
 */
struct sweep_state {
	__u64 now, min_age, young_issue;
	__u32 looked, ended, young, phase;
};

static __always_inline void sweep_req(__u64 key, struct io_req *r, struct sweep_state *c)
{
	struct request *rq = (struct request *)key;
	__u64 t = r->t_issue;
	int state = -1; /* unread: the request's memory is gone */

	if (!key || !r->issued || !t)
		return;
	if (bpf_core_read(&state, sizeof(state), &rq->state))
		state = -1;
	if (state == MQ_RQ_IN_FLIGHT || state == MQ_RQ_COMPLETE)
		return;
	if (c->now < t + c->min_age) { /* idle, but perhaps only not yet marked in flight */
		c->young++;
		if (t > c->young_issue)
			c->young_issue = t;
		return;
	}
	c->looked++;
	if (!req_claim_end(r, t))
		return;
	io_end_stale(r->disk, r->wslot, 1, c->phase);
	c->ended++;
}

static long sweep_slot(struct bpf_map *map, __u32 *key, struct io_req_slot *sl, struct sweep_state *c)
{
	sweep_req(*(volatile __u64 *)&sl->key, &sl->r, c);
	return 0;
}

static long sweep_hashed(struct bpf_map *map, __u64 *key, struct io_req *r, struct sweep_state *c)
{
	sweep_req(*key, r, c);
	return 0;
}

/* Whether disk d is in flight in the records with no event for min_age: a stale dispatch is
 * counted busy only across a gap in the disk's real work (while other requests are on the disk it
 * is busy anyway), and a gap shows here as an old last event. */
static long dev_quiet(struct bpf_map *map, __u32 *key, struct io_dev *d, struct sweep_state *c)
{
	__u64 last = *(volatile __u64 *)&d->s.last_ns;

	if (*(volatile __u32 *)&d->s.inflight && c->now > last + c->min_age) {
		c->looked = 1;
		return 1; /* stop: one is enough */
	}
	return 0;
}

SEC("syscall")
int io_sweep(struct io_sweep_ctx *ctx)
{
	struct sweep_state c = { .now = bpf_ktime_get_ns(), .min_age = ctx->min_age_ns,
				 .phase = ctx->phase };

	/* no disk quiet while in flight in the records: nothing to look at (the slots cost ~13 ns
	 * each: ~105 µs for 8192, at every sweep while fio kept the disks busy); at a phase's end
	 * every slot is looked at (a disk written to until the end was never quiet) */
	if (!ctx->all) {
		bpf_for_each_map_elem(&devs, dev_quiet, &c, 0);
		if (!c.looked)
			return 0;
		c.looked = 0;
	}
	bpf_for_each_map_elem(&req_slots, sweep_slot, &c, 0);
	if (*(volatile __s64 *)&reqs_in_hash > 0)
		bpf_for_each_map_elem(&reqs, sweep_hashed, &c, 0);
	ctx->looked = c.looked;
	ctx->ended = c.ended;
	ctx->young = c.young;
	ctx->young_issue = c.young_issue;
	return 0;
}

/* A tree task exec'd: remember its io cgroup (it may have just joined a throttled one). */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(io_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct iowhy_task *c = tree_task();
	struct io_css v = {};
	__u64 css;

	if (!c)
		return 0;
	css = task_io_css(bpf_get_current_task_btf(), &v.cgid);
	v.phase = c->phase;
	if (css)
		bpf_map_update_elem(&tree_css, &css, &v, BPF_ANY);
	return 0;
}

/* ---- stacked devices: the loop driver's workers ---- */

/* The loop device a work function of the loop driver serves (its disk's dev_t), 0 for any other
 * work. The work item is embedded in struct loop_worker (per-cgroup workers) or is the device's
 * rootcg_work. *backing: its backing file's inode. */
static __always_inline __u32 loop_work_dev(struct work_struct *work, __u64 fn,
					   struct io_stack_ino *backing)
{
	struct loop_device *lo;
	struct gendisk *disk;
	struct inode *ino;
	__u64 w = (__u64)work;

	if (!fn || (fn != loop_workfn_addr && fn != loop_rootcg_workfn_addr))
		return 0;
#ifdef IO_TRUSTED_ARGS /* no bpf_rdonly_cast: a probe read per field */
	if (fn == loop_rootcg_workfn_addr) {
		lo = (struct loop_device *)(w - bpf_core_field_offset(struct loop_device, rootcg_work));
	} else {
		struct loop_worker *lw = (struct loop_worker *)
			(w - bpf_core_field_offset(struct loop_worker, work));

		lo = BPF_CORE_READ(lw, lo);
	}
	disk = BPF_CORE_READ(lo, lo_disk);
	if (!disk)
		return 0;
	ino = BPF_CORE_READ(lo, lo_backing_file, f_inode);
	if (ino) {
		backing->dev = BPF_CORE_READ(ino, i_sb, s_dev);
		backing->ino = BPF_CORE_READ(ino, i_ino);
	}
	return ((__u32)BPF_CORE_READ(disk, major) << 20) | (__u32)BPF_CORE_READ(disk, first_minor);
#else /* plain loads through untrusted pointers (a fault reads as 0): ~9 helper calls fewer */
	if (fn == loop_rootcg_workfn_addr)
		lo = UNTRUSTED((void *)(w - bpf_core_field_offset(struct loop_device, rootcg_work)),
			       struct loop_device, kid_loop_device);
	else
		lo = UNTRUSTED((void *)(w - bpf_core_field_offset(struct loop_worker, work)),
			       struct loop_worker, kid_loop_worker)->lo;
	disk = lo->lo_disk;
	if (!disk)
		return 0;
	ino = lo->lo_backing_file ? lo->lo_backing_file->f_inode : NULL;
	if (ino) {
		backing->dev = ino->i_sb ? ino->i_sb->s_dev : 0;
		backing->ino = ino->i_ino;
	}
	return ((__u32)disk->major << 20) | (__u32)disk->first_minor;
#endif
}

/* A kworker starts a work item: when it is a loop device's, the bios it submits until the item
 * ends are that device's I/O to its backing file (direct, or the fsync of a flush). Once per
 * work item (it runs several commands), not per bio. */
SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(io_wq_start, struct work_struct *work)
{
	struct io_stack_ino k = {};
	__u32 tid, dev = loop_work_dev(work, (__u64)work->func, &k);
	struct io_stack_task *st;

	if (!dev || !wq_end_attached)
		return 0;
	tid = cur_tid();
	if (!stack_active)
		stack_active = 1;
	st = bpf_map_lookup_elem(&stack_tasks, &tid);
	if (st) { /* a worker seen before: in place */
		st->work = (__u64)work;
		st->dev = dev;
	} else {
		struct io_stack_task n = { .work = (__u64)work, .dev = dev };

		bpf_map_update_elem(&stack_tasks, &tid, &n, BPF_ANY);
	}
	/* its backing file, for the flusher's writeback of it (user space adds those it knows) */
	if (k.ino) {
		__u32 *known;

		/* the same file at every item: an update (bucket lock, a new element) only when it
		 * is new or its loop device changed */
		known = bpf_map_lookup_elem(&stack_inodes, &k);
		if (!known || *known != dev)
			bpf_map_update_elem(&stack_inodes, &k, &dev, BPF_ANY);
	}
	return 0;
}

/* The item ended (it may be freed: only its address is compared; the function argument, a
 * function pointer, is not readable from tp_btf). Once a loop item has run, one lookup per item. */
SEC("tp_btf/workqueue_execute_end")
int BPF_PROG(io_wq_end, struct work_struct *work)
{
	struct io_stack_task *st;
	__u32 tid;

	if (!stack_active)
		return 0;
	tid = cur_tid();
	st = bpf_map_lookup_elem(&stack_tasks, &tid);
	if (st && st->work == (__u64)work && st->dev)
		st->dev = 0; /* kept for the worker's next item (stack_tasks) */
	return 0;
}

/* ---- page cache ---- */

SEC("tp_btf/writeback_dirty_folio")
int BPF_PROG(io_dirty_folio, struct folio *folio, struct address_space *arg)
{
	struct address_space *mapping = UNTRUSTED(arg, struct address_space, kid_address_space);
	struct iowhy_task *c = tree_task();
	struct iowhy_inode_bucket *b;
	struct io_inode_totals *tot;
	struct io_phase_ctr *pc;
	struct inode *host;
	__u64 bytes, tag;

	if (!c || !mapping)
		return 0;
	pc = ctr(c->phase);
	bytes = folio_bytes(folio);
	host = mapping->host;
	if (pc)
		pc->dirtied_bytes += bytes;
	b = host ? inode_slot(host, &tag) : NULL;
	if (!b)
		return 0;
	mark_disk_used(BPF_CORE_READ(host, i_sb, s_dev));
	switch (inode_set_add(b, tag)) {
	case INODE_SET_FULL:
		LOST(inodes_full);
		return 0;
	case INODE_SET_ADDED:
		if (pc)
			pc->dirtied_inodes++;
		tot = inode_tot();
		if (tot)
			tot->inodes++;
		break;
	}
	tot = inode_tot();
	if (tot)
		tot->dirtied_bytes += bytes;
	return 0;
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(io_pc_add, struct folio *folio)
{
	struct iowhy_task *c = tree_task();
	struct io_phase_ctr *pc = c ? ctr(c->phase) : NULL;

	if (pc)
		pc->pc_added_bytes += folio_bytes(folio);
	return 0;
}

SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(io_pc_delete, struct folio *arg)
{
	struct folio *folio = UNTRUSTED(arg, struct folio, kid_folio);
	struct iowhy_task *c = tree_task();
	struct io_phase_ctr *pc = c ? ctr(c->phase) : NULL;
	struct io_inode_totals *tot;
	__u64 bytes;

	if (!pc)
		return 0;
	bytes = folio_bytes(folio);
	pc->pc_removed_bytes += bytes;
	if (tree_dirtied(folio->mapping ? folio->mapping->host : NULL) && (tot = inode_tot()))
		tot->removed_bytes += bytes;
	return 0;
}

/* A readahead call in tree context: counted per phase, sync or async, with the pages asked. */
static __always_inline void note_readahead(int async, unsigned long req_count)
{
	struct iowhy_task *c = tree_task();
	struct io_phase_ctr *pc = c ? ctr(c->phase) : NULL;

	if (!pc)
		return;
	if (async)
		pc->ra_async++;
	else
		pc->ra_sync++;
	pc->ra_pages += req_count;
}

SEC("tp_btf/page_cache_sync_ra")
int BPF_PROG(io_ra_sync, struct inode *inode, unsigned long index, struct file_ra_state *ra,
	     unsigned long req_count)
{
	note_readahead(0, req_count);
	return 0;
}

SEC("tp_btf/page_cache_async_ra")
int BPF_PROG(io_ra_async, struct inode *inode, unsigned long index, struct file_ra_state *ra,
	     unsigned long req_count)
{
	note_readahead(1, req_count);
	return 0;
}

SEC("tp_btf/balance_dirty_pages")
int BPF_PROG(io_bdp, struct bdi_writeback *wb, struct dirty_throttle_control *dtc,
	     unsigned long dirty_ratelimit, unsigned long task_ratelimit, unsigned long dirtied,
	     unsigned long period, long pause, unsigned long start_time)
{
	struct iowhy_task *c = tree_task();
	struct io_phase_ctr *pc = c ? ctr(c->phase) : NULL;

	if (!pc)
		return 0;
	pc->bdp_count++;
	if (pause > 0)
		pc->bdp_pause_ns += jiffies_ns(pause);
	return 0;
}

/* ---- writeback ---- */

SEC("tp_btf/writeback_single_inode_start")
int BPF_PROG(io_wb_start, struct inode *arg, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	struct inode *inode = UNTRUSTED(arg, struct inode, kid_inode);
	__u32 tid = cur_tid();
	struct io_wb w = { .tree = tree_dirtied(inode) };

	if (stack_active && inode) {
		struct io_stack_ino k = { .dev = inode->i_sb->s_dev, .ino = inode->i_ino };
		__u32 *up = bpf_map_lookup_elem(&stack_inodes, &k);

		w.upper = up ? *up : 0;
	}
	if (bpf_map_update_elem(&wb_tasks, &tid, &w, BPF_ANY))
		LOST(wb_full);
	return 0;
}

SEC("tp_btf/writeback_single_inode")
int BPF_PROG(io_wb_end, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	struct io_phase_ctr *pc = ctr(current_phase);
	long left = BPF_CORE_READ(wbc, nr_to_write);
	__u64 bytes = 0;
	__u32 tid = cur_tid();
	struct io_wb *w = bpf_map_lookup_elem(&wb_tasks, &tid);

	if ((long)nr_to_write > left)
		bytes = ((long)nr_to_write - left) * IO_PAGE_SIZE;
	if (pc) {
		pc->wb_bytes += bytes;
		pc->wb_inodes++;
	}
	if (w && w->tree) {
		struct io_inode_totals *tot = inode_tot();

		if (tot)
			tot->wb_bytes += bytes;
		if (pc) {
			pc->wb_tree_bytes += bytes;
			pc->wb_tree_inodes++;
		}
	}
	if (w)
		bpf_map_delete_elem(&wb_tasks, &tid);
	return 0;
}

/* ---- fsync (ext4) ---- */

SEC("tp_btf/ext4_sync_file_enter")
int BPF_PROG(io_fsync_enter, struct file *file, int datasync)
{
	__u32 tid = cur_tid();
	__u64 now;

	if (!tree_task())
		return 0;
	now = bpf_ktime_get_ns();
	/* The top bit carries datasync. */
	now = (now & ~(1ULL << 63)) | ((__u64)(datasync != 0) << 63);
	if (bpf_map_update_elem(&fsync_start, &tid, &now, BPF_ANY))
		LOST(fs_full);
	return 0;
}

SEC("tp_btf/ext4_sync_file_exit")
int BPF_PROG(io_fsync_exit, struct inode *inode, int ret)
{
	struct iowhy_task *c = tree_task();
	__u32 tid = cur_tid();
	__u64 *t0, start, d, now;
	struct io_fs_key k = {};
	struct io_fs_stat *s;
	bool spilled;
	int datasync;

	if (!c)
		return 0;
	t0 = bpf_map_lookup_elem(&fsync_start, &tid);
	if (!t0) {
		LOST(fsync_unmatched);
		return 0;
	}
	start = *t0 & ~(1ULL << 63);
	datasync = *t0 >> 63;
	bpf_map_delete_elem(&fsync_start, &tid);
	now = bpf_ktime_get_ns();
	d = now > start ? now - start : 0;
	k.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	k.phase = c->phase;
	s = row_or_spill(&fs_stats, &k, sizeof(k), IO_SPILL_FS, &spilled);
	if (!s) {
		LOST(fs_full);
		return 0;
	}
	if (datasync)
		s->fdatasync++;
	else
		s->fsync++;
	s->total_ns += d;
	if (d > s->max_ns)
		s->max_ns = d;
	s->hist[IO_LAT_SLOT(d)]++;
	return 0;
}

/* ---- journal (jbd2), charged to the window phase ---- */

SEC("tp_btf/jbd2_run_stats")
int BPF_PROG(io_jbd_run_stats, dev_t dev, tid_t tid, struct transaction_run_stats_s *rs)
{
	struct io_fs_key k = { .dev = dev, .phase = current_phase };
	struct io_jbd_stat *s;
	bool spilled;

	if (k.phase >= IO_MAX_PHASES)
		return 0;
	s = row_or_spill(&jbd_stats, &k, sizeof(k), IO_SPILL_JBD, &spilled);
	if (!s) {
		LOST(fs_full);
		return 0;
	}
	s->commits++;
	s->wait_ns += jiffies_ns(BPF_CORE_READ(rs, rs_wait));
	s->request_delay_ns += jiffies_ns(BPF_CORE_READ(rs, rs_request_delay));
	s->running_ns += jiffies_ns(BPF_CORE_READ(rs, rs_running));
	s->locked_ns += jiffies_ns(BPF_CORE_READ(rs, rs_locked));
	s->flushing_ns += jiffies_ns(BPF_CORE_READ(rs, rs_flushing));
	s->logging_ns += jiffies_ns(BPF_CORE_READ(rs, rs_logging));
	s->handles += BPF_CORE_READ(rs, rs_handle_count);
	s->blocks += BPF_CORE_READ(rs, rs_blocks);
	s->blocks_logged += BPF_CORE_READ(rs, rs_blocks_logged);
	return 0;
}

static __always_inline __u32 journal_dev(journal_t *j)
{
	return BPF_CORE_READ(j, j_fs_dev, bd_dev);
}

SEC("tp_btf/jbd2_start_commit")
int BPF_PROG(io_jbd_start, journal_t *journal, transaction_t *commit)
{
	__u32 dev = journal_dev(journal);
	__u64 now = bpf_ktime_get_ns();

	if (bpf_map_update_elem(&commit_start, &dev, &now, BPF_ANY))
		LOST(fs_full);
	return 0;
}

SEC("tp_btf/jbd2_end_commit")
int BPF_PROG(io_jbd_end, journal_t *journal, transaction_t *commit)
{
	__u32 dev = journal_dev(journal);
	__u64 *t0 = bpf_map_lookup_elem(&commit_start, &dev), now, d;
	struct io_fs_key k = { .dev = dev, .phase = current_phase };
	struct io_jbd_stat *s;
	bool spilled;

	if (!t0) {
		LOST(commit_unmatched);
		return 0;
	}
	now = bpf_ktime_get_ns();
	d = now > *t0 ? now - *t0 : 0;
	bpf_map_delete_elem(&commit_start, &dev);
	if (k.phase >= IO_MAX_PHASES)
		return 0;
	s = row_or_spill(&jbd_stats, &k, sizeof(k), IO_SPILL_JBD, &spilled);
	if (!s) {
		LOST(fs_full);
		return 0;
	}
	s->commit_count++;
	s->commit_ns += d;
	if (d > s->commit_max)
		s->commit_max = d;
	if (BPF_CORE_READ_BITFIELD_PROBED(commit, t_synchronous_commit))
		s->sync_commits++;
	s->hist[IO_LAT_SLOT(d)]++;
	return 0;
}
