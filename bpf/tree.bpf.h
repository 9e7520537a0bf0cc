/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Membership of the workload tree, shared by every iowhy BPF object: the per-task state of tree
 * tasks lives in task storage (tp_btf) or, in the raw_tp fallback, in a hash keyed by tid. Objects
 * other than the core one reuse the core's map fds (bpf_map__reuse_fd) before load.
 */
#ifndef IOWHY_TREE_BPF_H
#define IOWHY_TREE_BPF_H

#include "iowhy.h"

const volatile bool use_hash = false;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct iowhy_task);
} task_store SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct iowhy_task);
} task_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_inflight);
} tree_inflight SEC(".maps");

/* disk (MAJ << 20 | MIN, as the kernel's dev_t) -> slot in tree_inflight */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u32);
} disk_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_last_complete);
} last_complete SEC(".maps");

/* Per-task state of a tree task, or NULL for tasks outside the tree. */
static __always_inline struct iowhy_task *task_of(struct task_struct *t, __u32 tid)
{
	if (use_hash)
		return bpf_map_lookup_elem(&task_hash, &tid);
	return bpf_task_storage_get(&task_store, t, 0, 0);
}

static __always_inline struct iowhy_task *task_create(struct task_struct *t, __u32 tid)
{
	if (use_hash) {
		struct iowhy_task zero = {};
		bpf_map_update_elem(&task_hash, &tid, &zero, BPF_ANY);
		return bpf_map_lookup_elem(&task_hash, &tid);
	}
	return bpf_task_storage_get(&task_store, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
}

static __always_inline void task_forget(struct task_struct *t, __u32 tid)
{
	if (use_hash)
		bpf_map_delete_elem(&task_hash, &tid);
	else
		bpf_task_storage_delete(&task_store, t);
}

#endif
