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

/* The in-flight counts' rows per CPU (iowhy.h iowhy_inflight_pc). A count written from both CPUs
 * at every issue and completion was a cache line each event took from the other CPU (fio 16 jobs
 * on a RAM-backed loop: ~0.1 us a request of the I/O programs). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_inflight_pc);
} tree_inflight_pc SEC(".maps");

/* Set by user space in every object alike: the shared counts (tree_inflight's count[]) even where
 * the rows per CPU can be read (tests: IOWHY_TEST_SHARED_INFLIGHT=1). */
const volatile bool inflight_shared = false;

/* Whether the in-flight counts are rows per CPU: the kernel's bpf_map_lookup_percpu_elem (5.19)
 * reads another CPU's row, where the counts are summed. */
static __always_inline bool inflight_per_cpu(void)
{
	return !inflight_shared &&
	       bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_map_lookup_percpu_elem);
}

/* disk (MAJ << 20 | MIN, as the kernel's dev_t) -> slot in tree_inflight */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u32);
} disk_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_last_complete);
} last_complete SEC(".maps");

/*
 * The tree task running on each CPU keeps its state here while it runs: a copy of its task storage
 * made at switch-in and written back at switch-out (sched_switch). The syscall probes then find it
 * with an array lookup instead of a task-storage lookup, and a task known not to be in the tree
 * returns at once. `tid` is the task switched in last (0: unknown, e.g. running since before
 * attach: then the task storage is used).
 */
struct iowhy_cpu {
	__u32 tid;
	__u32 tree;              /* 1: `tid` is a tree task and `t` is its state */
	__u64 at;                /* time of the last switch seen here */
	__s64 clk_off;           /* bpf_ktime_get_ns() less the scheduler's task clock, at that switch */
	struct iowhy_task t;
	/* the switch now going on (iowhy.bpf.c on_switch): how many of t.log's transitions its
	 * record carries (a word in the map, not a variable the verifier follows through it) */
	__u32 tail;
	__u32 tgid;              /* `tid`'s thread group */
	__u64 task;              /* `tid`'s task_struct (an address, read only by probe reads) */
	__u64 rt0;               /* its se.sum_exec_runtime at the switch-in */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_cpu);
} cpu_task SEC(".maps");

static __always_inline struct iowhy_cpu *cpu_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_task, &zero);
}


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

/* The state of the current task (tid): this CPU's copy when it holds it, else its task storage (the
 * task pointer is fetched only then; the raw_tp fallback keys its hash by tid); NULL outside the
 * tree. */
static __always_inline struct iowhy_task *current_task(__u32 tid)
{
	struct iowhy_cpu *s = cpu_slot();

	if (s && s->tid == tid)
		return s->tree ? &s->t : NULL;
	return task_of(use_hash ? NULL : bpf_get_current_task_btf(), tid);
}

#endif
