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

extern unsigned int CONFIG_HZ __kconfig __weak;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} slow_events SEC(".maps");

__u64 slow_lost = 0;

static __always_inline void send(__u32 type, __u32 tid, __u64 arg)
{
	struct slow_ev *e = bpf_ringbuf_reserve(&slow_events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&slow_lost, 1);
		return;
	}
	e->ts = bpf_ktime_get_ns();
	e->arg = arg;
	e->tid = tid;
	e->type = type;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/balance_dirty_pages")
int BPF_PROG(slow_bdp, struct bdi_writeback *wb, struct dirty_throttle_control *dtc,
	     unsigned long dirty_ratelimit, unsigned long task_ratelimit, unsigned long dirtied,
	     unsigned long period, long pause, unsigned long start_time)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 hz = CONFIG_HZ ? CONFIG_HZ : 250;

	if (pause <= 0 || !current_task(tid))
		return 0;
	send(SLOW_EV_BDP, tid, (__u64)pause * (1000000000ULL / hz));
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
