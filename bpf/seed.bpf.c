// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy attach: the tasks that already run, made tree members by a task iterator. For each task of
 * the target (tgid in seed_tgids, or every task but iowhy's with seed_all) that is not a member yet,
 * one pass reads its state (__state, on_cpu), the syscall it sleeps in (its saved orig_ax, as
 * /proc/PID/syscall reads it) and its page faults, writes its tree state (task storage, or the tid
 * hash of the raw_tp fallback: the core's maps, tree.bpf.h) and sends a record (seed.h) to the
 * reader, which starts the model's tasks in the same states.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "tree.bpf.h"
#include "seed.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_UNINTERRUPTIBLE_ 0x2
#define TASK_NOLOAD_ 0x400
#define PF_KTHREAD_ 0x00200000

const volatile __u32 seed_self = 0;   /* iowhy's tgid: never a member */
const volatile bool seed_all = false; /* -a: every task */
const volatile bool seed_lite = false; /* --lite: no syscall is kept (no probe would end it) */
const volatile __u8 seed_phase = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} seed_tgids SEC(".maps");

/* The syscall a sleeping user task is in, as /proc/PID/syscall says it: its saved orig_ax. */
static __always_inline __u16 sleeping_in(struct task_struct *t)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(t);
	long nr = regs ? BPF_CORE_READ(regs, orig_ax) : -1;

	if (nr < 0)
		return IOWHY_NR_NONE;
	return nr < IOWHY_NR_SLOTS ? (__u16)nr : IOWHY_NR_SLOTS - 1;
}

SEC("iter/task")
int seed_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct iowhy_task v = {};
	struct seed_rec r = {};
	unsigned int st;

	if (!t)
		return 0;
	r.tid = t->pid;
	r.tgid = t->tgid;
	if (r.tgid == seed_self || !r.tid || t->exit_state)
		return 0;
	if (!seed_all && !bpf_map_lookup_elem(&seed_tgids, &r.tgid))
		return 0;
	if (task_of(t, r.tid))
		return 0; /* a member already (a rescan) */
	r.kthread = (t->flags & PF_KTHREAD_) != 0;
	st = BPF_CORE_READ(t, __state);
	r.nr = IOWHY_NR_NONE;
	if (!st) {
		r.state = BPF_CORE_READ(t, on_cpu) ? IOWHY_TS_USER : IOWHY_TS_RUNQ;
	} else {
		r.state = (st & TASK_UNINTERRUPTIBLE_) && !(st & TASK_NOLOAD_) ? IOWHY_TS_DWAIT :
										 IOWHY_TS_SWAIT;
		if (!r.kthread && !seed_lite)
			r.nr = sleeping_in(t);
	}
	/* the state is whole when it appears: a probe on another CPU never sees it half written */
	v.nr = r.nr;
	v.phase = seed_phase;
	v.state = r.state;
	v.count_sys = 0; /* a call in progress at attach is not a whole call */
	v.flt_base = t->min_flt + t->maj_flt;
	if (use_hash ? bpf_map_update_elem(&task_hash, &r.tid, &v, BPF_NOEXIST)
		     : !bpf_task_storage_get(&task_store, t, &v, BPF_LOCAL_STORAGE_GET_F_CREATE))
		return 0; /* not a member: at attach, the /proc walk after the pass tries it */
	r.ts = bpf_ktime_get_ns();
	__builtin_memcpy(r.comm, t->comm, sizeof(r.comm));
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
