// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's F2 control (`iowhy __floor --timer`): the least an exact per-syscall timer must
 * do, and nothing more. At sys_enter the current task's entry time goes into its task storage; at
 * sys_exit the call's duration is added to a per-CPU total. Two clock reads, one task-storage
 * access each, one add: no membership check (every task of the machine is timed), no per-syscall
 * rows, no histogram, no record for user space. What a workload loses under it beyond F1 (empty
 * programs on the same pair) is the price of timing each syscall at all.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} ft_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ft_total SEC(".maps");

SEC("tp_btf/sys_enter")
int BPF_PROG(ft_enter, struct pt_regs *regs, long id)
{
	__u64 *t = bpf_task_storage_get(&ft_start, bpf_get_current_task_btf(), 0,
					BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (t)
		*t = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ft_exit, struct pt_regs *regs, long ret)
{
	__u64 *t = bpf_task_storage_get(&ft_start, bpf_get_current_task_btf(), 0, 0), *sum;
	__u32 zero = 0;

	if (!t || !*t)
		return 0;
	sum = bpf_map_lookup_elem(&ft_total, &zero);
	if (sum)
		*sum += bpf_ktime_get_ns() - *t;
	*t = 0;
	return 0;
}
