/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU stacks, tp_btf path, done inside the core's sched_switch program (included by
 * iowhy.bpf.c only): the time a tree task sleeps uninterruptibly is added to its kernel stack (per
 * phase and comm). The switch-out only stamps the task's own state (iowhy_task.off_*); at its
 * switch-in, once its D time since its last captured stack reaches the sampling period (at most
 * 1 ms: every sleep that long on its own) and the CPU's walk budget allows, the sleeping task's
 * stack is taken (bpf_get_task_stack) and given that time. The stack walk, the dearest step, is
 * paid at most about once per period of D time per task, not once per sleep.
 *
 * The core does this, not a second sched_switch program of the sampler, so that a switch costs one
 * program run, one task-storage lookup per task and one clock read: the sampler's own program took
 * ~240 ns of every switch under fio 16 jobs, most of it lookups the core had just made.
 *
 * The sampler turns it on at attach (off_on, after the parameters) and off at close; while it is
 * off the switch pays one load and a branch.
 */
#ifndef IOWHY_OFFCPU_BPF_H
#define IOWHY_OFFCPU_BPF_H

#include "offcpu_maps.bpf.h"

/* Set by the sampler (sampler.c), off_on last: the sampling period of D time (at most 1 ms), and a
 * CPU's stack-walk budget: at most one walk per off_walk_ns on average, off_walk_burst saved up
 * (0: no budget). With many tasks in short D sleeps (fio, 16 jobs: ~14,000 walks a second at one
 * per ms of each task's D time) the walks were half the off-CPU cost; past the budget a task keeps
 * holding its D time until a walk is allowed, so every sleep still goes to a stack of its task. */
volatile __u32 off_on = 0;
volatile __u64 off_period_ns = 0;
volatile __u64 off_walk_ns = 0;
volatile __u64 off_walk_burst = 0;

struct iowhy_off_budget {
	__u64 last;                  /* when the credit was last brought up to date */
	__u64 credit;                /* ns of credit; a walk costs off_walk_ns */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_off_budget);
} off_budget SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_kstack);
} off_scratch SEC(".maps");

/* May this CPU walk a stack now? Takes the walk's cost from the credit when it may. */
static __always_inline bool off_walk_allowed(__u64 now)
{
	__u64 walk = off_walk_ns, cap = walk * off_walk_burst, credit;
	struct iowhy_off_budget *b;
	__u32 zero = 0;

	if (!walk)
		return true;
	b = bpf_map_lookup_elem(&off_budget, &zero);
	if (!b)
		return true;
	credit = b->credit + (now > b->last ? now - b->last : 0);
	if (credit > cap)
		credit = cap;
	b->last = now;
	if (credit < walk) {
		b->credit = credit;
		return false;
	}
	b->credit = credit - walk;
	return true;
}

/* The sleeping task t's kernel stack, stored in offstacks_h: its id, or -1 (counted in k). */
static __noinline __s32 off_task_stack(struct task_struct *t, struct iowhy_off_counters *k)
{
	struct iowhy_kstack *buf, *have;
	__u32 zero = 0, h = 2166136261u;
	long len;

	buf = bpf_map_lookup_elem(&off_scratch, &zero);
	if (!buf)
		return -1;
	len = bpf_get_task_stack(t, buf->ip, sizeof(buf->ip), 0);
	if (len <= 0) {
		if (k)
			k->stack_lost++;
		return -1;
	}
	/* bpf_get_task_stack zeroes the buffer past the stack: hash all of it, no branch per frame
	 * (the verifier walks the loop once per frame) */
	for (__u32 i = 0; i < IOWHY_KSTACK_DEPTH; i++) {
		__u64 ip = buf->ip[i];

		h = (h ^ (__u32)ip) * 16777619u;
		h = (h ^ (__u32)(ip >> 32)) * 16777619u;
	}
	h &= 0x7fffffff; /* ids are s32 in the keys; -1 means none */
	if (!bpf_map_update_elem(&offstacks_h, &h, buf, BPF_NOEXIST))
		return (__s32)h;
	have = bpf_map_lookup_elem(&offstacks_h, &h);
	if (have && have->ip[0] == buf->ip[0] && have->ip[1] == buf->ip[1] &&
	    have->ip[2] == buf->ip[2] && have->ip[3] == buf->ip[3])
		return (__s32)h;
	if (k)
		k->stack_lost++; /* another stack under the same hash, or the map is full */
	return -1;
}

/* A pointer argument of a global function that the verifier takes as a trusted kernel pointer. */
#define OFF_ARG_TRUSTED __attribute__((btf_decl_tag("arg:trusted")))

/*
 * The two steps are global functions: the verifier checks each once, on its own. Inlined or static,
 * their bodies were checked again for every state the switch program reached them in, and the
 * program took 11,000 verified instructions instead of ~7,600 (its ~5,600 and the sampler's old
 * switch program's ~2,000).
 */

/* Tree task c goes to sleep in D at `now`: stamp it (a new phase lets go of what it held of the
 * old one: the old phase's held counters say how much). */
__noinline int iowhy_off_sleep(struct iowhy_task *c, __u64 now)
{
	struct iowhy_off_counters *k;
	__u32 tag;

	if (!c)
		return 0;
	tag = c->phase % IOWHY_MAX_PHASES;
	k = bpf_map_lookup_elem(&off_counters, &tag);
	if (c->off_phase != c->phase) {
		c->off_acc_ns = 0;
		c->off_acc_n = 0;
		c->off_phase = c->phase;
	}
	c->off_ts = now;
	if (k)
		k->sleeps++;
	return 0;
}

/* Tree task `next` (its state c) comes back at `now` from a D sleep it began as a tree task: add
 * the sleep to its held time, and once that reaches off_period_ns (and the CPU's walk budget
 * allows) give it all to next's stack. */
__noinline int iowhy_off_wake(struct task_struct *next OFF_ARG_TRUSTED, struct iowhy_task *c,
			      __u64 now)
{
	struct iowhy_off_val one = {}, *v;
	struct iowhy_off_counters *k;
	struct iowhy_off_key key = {};
	__u32 tag;
	__u64 d;

	if (!c || !next)
		return 0;
	tag = c->off_phase % IOWHY_MAX_PHASES;
	d = now > c->off_ts ? now - c->off_ts : 0;
	c->off_ts = 0;
	k = bpf_map_lookup_elem(&off_counters, &tag);
	c->off_acc_ns += d;
	c->off_acc_n++;
	if (c->off_acc_ns < off_period_ns || !off_walk_allowed(now)) {
		if (k) {
			k->held_ns += d;
			k->held_n++;
		}
		return 0;
	}
	if (k) { /* what earlier sleeps held goes to this stack with this one */
		k->held_ns -= c->off_acc_ns - d;
		k->held_n -= c->off_acc_n - 1;
		k->walks++;
	}
	key.phase = c->off_phase;
	key.kstack = off_task_stack(next, k);
	bpf_probe_read_kernel_str(key.comm, sizeof(key.comm), next->comm);
	v = bpf_map_lookup_elem(&offcpu, &key);
	if (v) {
		__sync_fetch_and_add(&v->count, c->off_acc_n);
		__sync_fetch_and_add(&v->ns, c->off_acc_ns);
	} else {
		one.count = c->off_acc_n;
		one.ns = c->off_acc_ns;
		if (bpf_map_update_elem(&offcpu, &key, &one, BPF_NOEXIST) && k)
			k->key_lost++;
	}
	c->off_acc_ns = 0;
	c->off_acc_n = 0;
	return 0;
}

#endif
