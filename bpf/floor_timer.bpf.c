// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmarks' timer controls (`iowhy __floor --timer | --io-timer`): the least an exact tracer
 * must do, and nothing more.
 *
 * F2 (--timer, bench/syscall_floor.sh): at sys_enter the current task's entry time goes into its
 * task storage; at sys_exit the call's duration is added to a per-CPU total. Two clock reads, one
 * task-storage access each, one add: no membership check (every task of the machine is timed), no
 * per-syscall rows, no histogram, no record for user space. What a workload loses under it beyond
 * F1 (empty programs on the same pair) is the price of timing each syscall at all.
 *
 * F3 (--io-timer, bench/io_floor.sh): F2, and what an exact answer to "where did an I/O-bound
 * task's time go" cannot do without: each task's time off CPU (stamped at the switch-out, added at
 * the switch-in), split at its wakeup into sleep and run-queue wait, and each request's device time
 * (its issue time in a hash by request, added at its completion). One clock read and one
 * task-storage access per event, one hash update and one lookup + delete per request; still no
 * membership check, no per-disk or per-phase state, no record for user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct ft_task {
	__u64 sys;   /* in a syscall since */
	__u64 off;   /* off CPU since (F3) */
	__u64 woke;  /* woken at (F3) */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ft_task);
} ft_start SEC(".maps");

struct ft_totals {
	__u64 sys_ns, sleep_ns, runq_ns, dev_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ft_totals);
} ft_total SEC(".maps");

/* F3: requests on the device: request -> issue time (sized as iowhy sizes its own, at load) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u64);
} ft_reqs SEC(".maps");

static __always_inline struct ft_totals *totals(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&ft_total, &zero);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ft_enter, struct pt_regs *regs, long id)
{
	struct ft_task *t = bpf_task_storage_get(&ft_start, bpf_get_current_task_btf(), 0,
						 BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (t)
		t->sys = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ft_exit, struct pt_regs *regs, long ret)
{
	struct ft_task *t = bpf_task_storage_get(&ft_start, bpf_get_current_task_btf(), 0, 0);
	struct ft_totals *sum;

	if (!t || !t->sys)
		return 0;
	sum = totals();
	if (sum)
		sum->sys_ns += bpf_ktime_get_ns() - t->sys;
	t->sys = 0;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(ft_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();
	struct ft_task *t = bpf_task_storage_get(&ft_start, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	struct ft_totals *sum;

	if (t)
		t->off = now;
	t = bpf_task_storage_get(&ft_start, next, 0, 0);
	if (!t || !t->off)
		return 0;
	sum = totals();
	if (sum) {
		__u64 woke = t->woke > t->off ? t->woke : t->off;

		sum->sleep_ns += woke - t->off;
		sum->runq_ns += now - woke;
	}
	t->off = t->woke = 0;
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(ft_wakeup, struct task_struct *p)
{
	struct ft_task *t = bpf_task_storage_get(&ft_start, p, 0, 0);

	if (t)
		t->woke = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(ft_issue, struct request *rq)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();

	bpf_map_update_elem(&ft_reqs, &key, &now, BPF_ANY);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(ft_complete, struct request *rq)
{
	__u64 key = (__u64)rq, *t = bpf_map_lookup_elem(&ft_reqs, &key);
	struct ft_totals *sum;

	if (!t)
		return 0;
	sum = totals();
	if (sum)
		sum->dev_ns += bpf_ktime_get_ns() - *t;
	bpf_map_delete_elem(&ft_reqs, &key);
	return 0;
}
