// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy attach --slow: the kernel's side of a slow call, in time order. balance_dirty_pages pauses
 * of tree tasks and jbd2 commits (every journal: a tree task's fsync waits for whichever commit
 * holds its transaction) go to a small ring buffer; user space matches them to the slow calls.
 * Loaded only with --slow; shares the core's tree maps (tree.bpf.h).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "tree.bpf.h"
#include "slow.h"

char LICENSE[] SEC("license") = "GPL";

/* The kernel's tick in ns (1/HZ: jiffies), set by user space before load (tick_ns()). */
const volatile __u64 tick_ns = 4000000;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} slow_events SEC(".maps");

__u64 slow_lost = 0;

/* One event; ts 0: now. */
static __always_inline void send_at(__u32 type, __u32 tid, __u64 arg, __u64 ts, __s32 stack,
				    __u32 dev)
{
	struct slow_ev *e = bpf_ringbuf_reserve(&slow_events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&slow_lost, 1);
		return;
	}
	e->ts = ts ? ts : bpf_ktime_get_ns();
	e->arg = arg;
	e->tid = tid;
	e->type = type;
	e->stack = stack;
	e->dev = dev;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

static __always_inline void send(__u32 type, __u32 tid, __u64 arg)
{
	send_at(type, tid, arg, 0, -1, 0);
}

SEC("tp_btf/balance_dirty_pages")
int BPF_PROG(slow_bdp, struct bdi_writeback *wb, struct dirty_throttle_control *dtc,
	     unsigned long dirty_ratelimit, unsigned long task_ratelimit, unsigned long dirtied,
	     unsigned long period, long pause, unsigned long start_time)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (pause <= 0 || !current_task(tid))
		return 0;
	send(SLOW_EV_BDP, tid, (__u64)pause * tick_ns);
	return 0;
}

SEC("tp_btf/jbd2_start_commit")
int BPF_PROG(slow_commit_start, journal_t *journal, transaction_t *commit)
{
	send(SLOW_EV_COMMIT_START, 0, BPF_CORE_READ(journal, j_fs_dev, bd_dev));
	return 0;
}

SEC("tp_btf/jbd2_end_commit")
int BPF_PROG(slow_commit_end, journal_t *journal, transaction_t *commit)
{
	send(SLOW_EV_COMMIT_END, 0, BPF_CORE_READ(journal, j_fs_dev, bd_dev));
	return 0;
}

/* ---- the sleeps of tree tasks inside syscalls, with their kernel stacks ---- */

#define TASK_RUNNING_MASK_ 0xff  /* prev_state bits of a real sleep (S, D, ...); 0: preempted */
#define TASK_UNINTERRUPTIBLE_ 0x2
#define TASK_NOLOAD_ 0x400

/* Sleeps shorter than this are not sent (--slow MS / 50; set by user space). */
const volatile __u64 min_wait_ns = 1000000;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, SLOW_WAIT_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SLOW_STACK_DEPTH * sizeof(__u64));
} wait_stacks SEC(".maps");

struct wait_pending {
	__u64 ts;
	__s32 stack;
	__u32 flags;
};

/* Tasks asleep, by tid (LRU: a task that exits asleep is forgotten in time). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct wait_pending);
} wait_pending SEC(".maps");

__u64 wait_stack_lost = 0;
__s64 wait_pending_n = 0;

/* prev goes to sleep inside a syscall: stamp it with the time and its kernel stack. next comes
 * back: a sleep long enough goes to the ring buffer. */
static __always_inline void wait_switch(void *ctx, struct task_struct *prev,
					struct task_struct *next, unsigned int prev_state)
{
	__u32 ptid = BPF_CORE_READ(prev, pid), ntid;
	struct wait_pending *w;
	struct iowhy_task *t;
	__u64 now = 0;

	if (ptid && (prev_state & TASK_RUNNING_MASK_) && (t = current_task(ptid)) &&
	    t->nr != IOWHY_NR_NONE) {
		struct wait_pending p = {};

		p.stack = bpf_get_stackid(ctx, &wait_stacks, 0);
		if (p.stack < 0)
			__sync_fetch_and_add(&wait_stack_lost, 1);
		p.flags = (prev_state & TASK_UNINTERRUPTIBLE_) && !(prev_state & TASK_NOLOAD_) ?
			  SLOW_WF_D : 0;
		now = bpf_ktime_get_ns();
		p.ts = now;
		if (bpf_map_update_elem(&wait_pending, &ptid, &p, BPF_ANY) == 0)
			__sync_fetch_and_add(&wait_pending_n, 1);
	}
	if (*(volatile __s64 *)&wait_pending_n <= 0)
		return;
	ntid = BPF_CORE_READ(next, pid);
	w = ntid ? bpf_map_lookup_elem(&wait_pending, &ntid) : NULL;
	if (!w)
		return;
	if (!now)
		now = bpf_ktime_get_ns();
	if (now - w->ts >= min_wait_ns)
		send_at(SLOW_EV_WAIT, ntid, now - w->ts, w->ts, w->stack, w->flags);
	if (!bpf_map_delete_elem(&wait_pending, &ntid))
		__sync_fetch_and_add(&wait_pending_n, -1);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(slow_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	wait_switch(ctx, prev, next, prev_state);
	return 0;
}

/* ---- inodes under writeback ---- */

static __always_inline void wb_inode(__u32 type, struct inode *inode)
{
	send_at(type, (__u32)bpf_get_current_pid_tgid(), BPF_CORE_READ(inode, i_ino), 0, -1,
		BPF_CORE_READ(inode, i_sb, s_dev));
}

SEC("tp_btf/writeback_single_inode_start")
int BPF_PROG(slow_wb_start, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	wb_inode(SLOW_EV_WB_START, inode);
	return 0;
}

SEC("tp_btf/writeback_single_inode")
int BPF_PROG(slow_wb_end, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	wb_inode(SLOW_EV_WB_END, inode);
	return 0;
}

/* ext4's own writeback of an inode (fsync, sync_file_range: not through the flusher) */
SEC("tp_btf/ext4_writepages")
int BPF_PROG(slow_ext4_wp_start, struct inode *inode, struct writeback_control *wbc)
{
	wb_inode(SLOW_EV_WB_START, inode);
	return 0;
}

SEC("tp_btf/ext4_writepages_result")
int BPF_PROG(slow_ext4_wp_end, struct inode *inode, struct writeback_control *wbc, int ret,
	     int pages_written)
{
	wb_inode(SLOW_EV_WB_END, inode);
	return 0;
}
