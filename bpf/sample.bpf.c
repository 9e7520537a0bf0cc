// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy CPU sampler: a perf_event program on the software cpu-clock event of every CPU. It keeps
 * only samples of tree tasks (this CPU's running copy, kept by the core's sched_switch probe, says
 * whether the current task is one) and counts them in the kernel, per (phase, mode, in-syscall,
 * syscall, comm, kernel stack, user stack). User space reads and clears a phase's counts at its
 * end.
 *
 * Exec: the file every tree task exec'd (path, device, inode), so user space can find the ELF
 * files whose build ids the user stacks hold.
 *
 * Off-CPU: the time a tree task sleeps uninterruptibly is added to its kernel stack (per phase and
 * comm), in maps shared with the core (offcpu_maps.bpf.h). tp_btf: the core's sched_switch program
 * does it (offcpu.bpf.h: a stack walk at most about once per period of D time per task, not once
 * per sleep; at 36k I/Os a second a walk per sleep cost 11% of the wall). raw_tp fallback: this
 * object's switch program takes the stack at every switch-out and times the sleep in a hash by tid.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "sample.h"
#include "tree.bpf.h"
#include "offcpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, IOWHY_SAMPLE_KEYS);
	__type(key, struct iowhy_sample_key);
	__type(value, __u64);
} samples SEC(".maps");

/*
 * The samples' stacks, by bucket: a stack's bucket is a hash of its frames mod IOWHY_STACKS, and a
 * bucket holds the first stack that came to it (a later, different one is lost and counted), as a
 * BPF_MAP_TYPE_STACK_TRACE map does. Hashes made at first use rather than stack-trace maps, which
 * the kernel makes whole at load (24 MiB here: ~40 ms of every start).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, IOWHY_STACKS);
	__type(key, __u32);
	__type(value, struct iowhy_kstack);
} kstacks SEC(".maps");

/* User stacks as (build id, file offset) frames: they resolve after the process is gone. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, IOWHY_STACKS);
	__type(key, __u32);
	__type(value, struct iowhy_ustack);
} ustacks SEC(".maps");

#define USTACK_WORDS (sizeof(struct iowhy_ustack) / sizeof(__u64))

/* Where a sample's stacks are taken before they are stored. */
struct sample_scratch {
	struct iowhy_kstack k;
	struct iowhy_ustack u;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sample_scratch);
} sample_scratch SEC(".maps");

/* FNV-1a over n 64-bit words (a stack past its end is zeros: no branch per frame). */
static __always_inline __u32 hash_words(const __u64 *w, __u32 n)
{
	__u32 h = 2166136261u;

	for (__u32 i = 0; i < n; i++) {
		h = (h ^ (__u32)w[i]) * 16777619u;
		h = (h ^ (__u32)(w[i] >> 32)) * 16777619u;
	}
	return h;
}

/* Store the stack in buf (n words) in its bucket of map: the bucket, or -1 when a different stack
 * holds it or the map is full. */
static __always_inline __s32 store_stack(void *map, const __u64 *buf, __u32 n)
{
	__u32 id = hash_words(buf, n) % IOWHY_STACKS;
	const __u64 *have;

	if (!bpf_map_update_elem(map, &id, buf, BPF_NOEXIST))
		return (__s32)id;
	have = bpf_map_lookup_elem(map, &id);
	if (!have)
		return -1;
	for (__u32 i = 0; i < n; i++)
		if (have[i] != buf[i])
			return -1;
	return (__s32)id;
}

/* The current kernel stack's bucket in kstacks, or -1. */
static __noinline __s32 kernel_stack(struct bpf_perf_event_data *ctx, struct sample_scratch *b)
{
	if (bpf_get_stack(ctx, b->k.ip, sizeof(b->k.ip), 0) <= 0)
		return -1;
	return store_stack(&kstacks, b->k.ip, IOWHY_KSTACK_DEPTH);
}

/* The current user stack's bucket in ustacks (build-id frames), or -1. */
static __noinline __s32 user_stack(struct bpf_perf_event_data *ctx, struct sample_scratch *b)
{
	if (bpf_get_stack(ctx, b->u.f, sizeof(b->u.f), BPF_F_USER_STACK | BPF_F_USER_BUILD_ID) <= 0)
		return -1;
	return store_stack(&ustacks, (const __u64 *)b->u.f, USTACK_WORDS);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IOWHY_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct iowhy_sample_counters);
} sample_counters SEC(".maps");

/* Samples whose CPU's running copy did not name the current task (running since before attach)
 * and whose per-task state did not either (not a tree task, or no state). */
__u64 unknown_task = 0;

/* --lite (no syscall probes): name the syscall of a kernel-mode sample from the task's user
 * registers (IOWHY_SF_REGS_NR), for the sampled kernel time by syscall. */
const volatile bool regs_nr = false;

/* The syscall number in the task's user registers (the entry code saves it there), or
 * IOWHY_NR_NONE: a kernel thread, an interrupt (negative), no such helper on this kernel. Which
 * samples really are in a syscall is for user space to tell from their kernel stacks (a page
 * fault from user mode leaves its error code in the same slot). */
static __always_inline __u16 user_regs_nr(void)
{
#if defined(__TARGET_ARCH_x86) || defined(__TARGET_ARCH_arm64)
	struct pt_regs *r;
	long nr;

	if (!bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs))
		return IOWHY_NR_NONE;
	r = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
#if defined(__TARGET_ARCH_x86)
	if (!r || (BPF_CORE_READ(r, cs) & 3) != 3) /* not from user mode: a kernel thread */
		return IOWHY_NR_NONE;
	nr = (long)BPF_CORE_READ(r, orig_ax);
#else
	if (!r)
		return IOWHY_NR_NONE;
	nr = (long)BPF_CORE_READ(r, syscallno);
#endif
	return nr >= 0 && nr < IOWHY_NR_NONE ? (__u16)nr : IOWHY_NR_NONE;
#else
	return IOWHY_NR_NONE;
#endif
}

/* Kernel mode, from the interrupted registers (the context allows 8-byte loads only). */
static __always_inline int kernel_mode(struct bpf_perf_event_data *ctx)
{
#if defined(__TARGET_ARCH_x86)
	return (*(volatile __u64 *)&ctx->regs.cs & 3) == 0;
#elif defined(__TARGET_ARCH_arm64)
	return (*(volatile __u64 *)&ctx->regs.pstate & 0xf) != 0;
#else
	return PT_REGS_IP(&ctx->regs) >= 0x8000000000000000ull;
#endif
}

SEC("perf_event")
int on_sample(struct bpf_perf_event_data *ctx)
{
	struct iowhy_sample_key key = {};
	struct iowhy_sample_counters *c;
	struct iowhy_cpu *s = cpu_slot();
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), tag;
	struct iowhy_task *t;
	struct sample_scratch *b;
	__u64 one = 1, *n;
	__u32 zero = 0;

	if (!s || !tid)
		return 0;
	if (s->tid != tid) {
		/* not switched since attach (a task that has not left its CPU): its own state */
		t = current_task(tid);
		if (!t) {
			__sync_fetch_and_add(&unknown_task, 1);
			return 0;
		}
	} else if (!s->tree) {
		return 0;
	} else {
		t = &s->t;
	}
	tag = t->phase % IOWHY_MAX_PHASES;
	c = bpf_map_lookup_elem(&sample_counters, &tag);
	b = bpf_map_lookup_elem(&sample_scratch, &zero);
	if (!c || !b)
		return 0;
	c->samples++;
	key.phase = t->phase;
	key.nr = t->nr;
	if (key.nr != IOWHY_NR_NONE)
		key.flags |= IOWHY_SF_SYSCALL;
	key.kstack = -1;
	if (kernel_mode(ctx)) {
		key.flags |= IOWHY_SF_KERNEL;
		if (regs_nr && key.nr == IOWHY_NR_NONE) {
			key.nr = user_regs_nr();
			if (key.nr != IOWHY_NR_NONE)
				key.flags |= IOWHY_SF_REGS_NR;
		}
		key.kstack = kernel_stack(ctx, b);
		if (key.kstack < 0)
			c->kstack_lost++;
	}
	if (!(key.flags & IOWHY_SF_SYSCALL)) {
		c->outside++;
		if (!(key.flags & IOWHY_SF_KERNEL))
			c->user_outside++;
	}
	key.ustack = user_stack(ctx, b);
	if (key.ustack < 0)
		c->ustack_lost++;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	n = bpf_map_lookup_elem(&samples, &key);
	if (n) {
		__sync_fetch_and_add(n, 1);
		return 0;
	}
	if (bpf_map_update_elem(&samples, &key, &one, BPF_NOEXIST)) {
		n = bpf_map_lookup_elem(&samples, &key);
		if (n)
			__sync_fetch_and_add(n, 1);
		else
			c->key_lost++;
	}
	return 0;
}

/* ---- off-CPU ---- */

#define TASK_UNINTERRUPTIBLE_ 0x2
#define TASK_NOLOAD_ 0x400

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, IOWHY_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, IOWHY_KSTACK_DEPTH * sizeof(__u64));
} offstacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOWHY_OFF_PENDING);
	__type(key, __u32);
	__type(value, struct iowhy_off_pending);
} off_pending SEC(".maps");

/* Sleeps being timed (entries in off_pending): while none is, a switch-in needs no lookup. */
__s64 off_pending_n = 0;

/* prev (current) goes to sleep: if it is a tree task entering D (not TASK_IDLE), stamp it with
 * its kernel stack. next comes back: if it was stamped, add the time asleep to its stack. */
static __always_inline void off_switch(void *ctx, struct task_struct *prev,
				       struct task_struct *next, unsigned int prev_state)
{
	struct iowhy_off_pending *w;
	struct iowhy_task *c;
	__u32 ptid, ntid;
	__u64 now = 0;

	ptid = BPF_CORE_READ(prev, pid);
	if (ptid && (prev_state & TASK_UNINTERRUPTIBLE_) && !(prev_state & TASK_NOLOAD_) &&
	    (c = task_of(prev, ptid))) {
		struct iowhy_off_pending p = {};
		struct iowhy_off_counters *k;
		__u32 tag = c->phase % IOWHY_MAX_PHASES;

		k = bpf_map_lookup_elem(&off_counters, &tag);
		p.key.phase = c->phase;
		p.key.kstack = bpf_get_stackid(ctx, &offstacks, 0);
		if (p.key.kstack < 0) {
			p.key.kstack = -1;
			if (k)
				k->stack_lost++;
		}
		bpf_get_current_comm(p.key.comm, sizeof(p.key.comm));
		now = bpf_ktime_get_ns();
		p.ts = now;
		if (k)
			k->sleeps++;
		if (bpf_map_update_elem(&off_pending, &ptid, &p, BPF_NOEXIST) == 0)
			__sync_fetch_and_add(&off_pending_n, 1);
		else if (bpf_map_update_elem(&off_pending, &ptid, &p, BPF_EXIST) && k)
			k->pending_lost++;
	}
	if (*(volatile __s64 *)&off_pending_n <= 0)
		return;
	ntid = BPF_CORE_READ(next, pid);
	if (!ntid)
		return;
	w = bpf_map_lookup_elem(&off_pending, &ntid);
	if (w) {
		struct iowhy_off_val one = {}, *v;

		if (!now)
			now = bpf_ktime_get_ns();
		v = bpf_map_lookup_elem(&offcpu, &w->key);
		if (v) {
			__sync_fetch_and_add(&v->count, 1);
			__sync_fetch_and_add(&v->ns, now - w->ts);
		} else {
			one.count = 1;
			one.ns = now - w->ts;
			if (bpf_map_update_elem(&offcpu, &w->key, &one, BPF_NOEXIST)) {
				__u32 tag = w->key.phase % IOWHY_MAX_PHASES;
				struct iowhy_off_counters *k;

				k = bpf_map_lookup_elem(&off_counters, &tag);
				if (k)
					k->key_lost++;
			}
		}
		if (!bpf_map_delete_elem(&off_pending, &ntid))
			__sync_fetch_and_add(&off_pending_n, -1);
	}
}

SEC("raw_tp/sched_switch")
int BPF_PROG(off_raw_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	off_switch(ctx, prev, next, prev_state);
	return 0;
}

/* ---- exec'd files ---- */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOWHY_EXEC_FILES);
	__type(key, struct iowhy_exec_key);
	__type(value, __u64);
} exec_files SEC(".maps");

/* The file a tree task just exec'd (for a script: its interpreter, as bprm->interp names it). */
static __always_inline void exec_file(struct task_struct *p, struct linux_binprm *bprm)
{
	struct iowhy_exec_key k = {};
	__u32 tid = BPF_CORE_READ(p, pid);
	__u64 one = 1, *n;

	if (!task_of(p, tid))
		return;
	bpf_probe_read_kernel_str(k.path, sizeof(k.path), BPF_CORE_READ(bprm, interp));
	k.ino = BPF_CORE_READ(bprm, file, f_inode, i_ino);
	k.dev = BPF_CORE_READ(bprm, file, f_inode, i_sb, s_dev);
	n = bpf_map_lookup_elem(&exec_files, &k);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&exec_files, &k, &one, BPF_NOEXIST);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(exec_btf, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	exec_file(p, bprm);
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(exec_raw, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	exec_file(p, bprm);
	return 0;
}
