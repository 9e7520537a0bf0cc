// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy core probes: membership of the workload tree, syscalls, scheduler.
 *
 * Every program exists twice: a tp_btf flavour (typed arguments, per-task
 * state in task storage) and a raw_tp flavour (the fallback: per-task state in
 * a hash keyed by tid). User space loads one set, chosen by a load probe, and
 * sets `use_hash` to match before load; the verifier prunes the other path.
 *
 * The programs only collect: state transitions of tree tasks go to a ring
 * buffer for the user-space model, syscall statistics are summed per CPU.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "tree.bpf.h"
#include "offcpu.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_RUNNING_ 0x0
#define TASK_UNINTERRUPTIBLE_ 0x2
#define TASK_DEAD_ 0x80
#define TASK_NOLOAD_ 0x400

/*
 * The event rings: one per CPU, each written only by the programs of its CPU (a ring shared by all
 * CPUs made every record a transfer of its lock, its producer position and its data line from the
 * CPU that wrote last: ~0.5 us of a switch's 0.85 and ~0.4 of a wakeup's 0.6 under fio 16 jobs).
 * User space makes the rings, puts them here by CPU and merges them by time (its reorder buffer).
 * The template's size is a page; each ring's is set when user space makes it.
 */
struct event_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1); /* the rings: set by user space before load */
	__type(key, __u32);
	__array(values, struct event_ring);
} events SEC(".maps");

/* Rings in `events`: one per possible CPU, or 1 (IOWHY_TEST_ONE_RING: all CPUs share ring 0). */
const volatile __u32 nr_rings = 1;

/* This CPU's event ring (a program runs with migration disabled), NULL if user space made none. */
static __always_inline void *ring(void)
{
	__u32 i = nr_rings > 1 ? bpf_get_smp_processor_id() : 0;

	return bpf_map_lookup_elem(&events, &i);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IOWHY_MAX_PHASES * IOWHY_NR_SLOTS);
	__type(key, __u32);
	__type(value, struct iowhy_sys_counts);
} sys_stats SEC(".maps");

/* Row cpu * IOWHY_NR_SLOTS + nr: a plain array with a row per CPU, not a per-CPU array, whose 512
 * values of 4 KiB the kernel's per-CPU allocator made one by one (~17 ms at every start, holding
 * the lock every other object's per-CPU maps wait for). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOWHY_NR_SLOTS); /* times the possible CPUs: set at load */
	__type(key, __u32);
	__type(value, struct iowhy_sys_hist);
} sys_hist SEC(".maps");

/* The phase whose syscalls go into sys_hist (set by user space as each phase starts). */
volatile __u32 hist_tag = 0;

/* Syscalls that end after this (bpf_ktime_get_ns) are not counted in sys_stats: an attach window's
 * end, stored by user space the moment it reads the clock for it, so a target that goes on calling
 * while iowhy is preempted before it reads the table adds nothing (~0: no end). */
volatile __u64 sys_until = ~0ULL;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct iowhy_counters);
} counters SEC(".maps");

/* Per syscall, filled by user space: IOWHY_SYSF_FD (its first argument is a file descriptor),
 * IOWHY_SYSF_READ / IOWHY_SYSF_WRITE (it returns bytes read / written). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOWHY_NR_SLOTS);
	__type(key, __u32);
	__type(value, __u8);
} fd_syscalls SEC(".maps");

/* Set by user space (iowhy attach): keep per-process byte counts in proc_io. */
const volatile bool per_proc = false;

/* Bytes read and written by syscalls, per thread group (per CPU; iowhy attach). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct iowhy_proc_io);
} proc_io SEC(".maps");

static __always_inline struct iowhy_counters *cnt(void)
{
	__u32 zero = 0;
	return bpf_map_lookup_elem(&counters, &zero);
}

static __always_inline void count_lost(__u32 n)
{
	struct iowhy_counters *k = cnt();

	if (k)
		k->events_lost += n;
}

/* Set by user space once the timer probe (btf_tick/raw_tick) is attached: it bounds how long a
 * transition can wait in a task's log, so only then are syscall transitions batched. */
bool batch_log = false;

/* A STATE event of task c (tid) at ts; c's state becomes `state`. */
static __always_inline void fill_state(struct iowhy_event *e, __u64 ts, __u32 tid, __u32 tgid,
				       struct iowhy_task *c, __u8 state, __u8 flags, __u32 arg,
				       __u32 arg2)
{
	c->state = state;
	e->ts = ts;
	e->tid = tid;
	e->tgid = tgid;
	e->type = IOWHY_EV_STATE;
	e->state = state;
	e->phase = c->phase;
	e->flags = flags;
	e->nr = c->nr;
	e->pad = 0;
	e->arg = arg;
	e->arg2 = arg2;
}

static __always_inline void emit(__u64 ts, __u32 tid, __u32 tgid, struct iowhy_task *c,
				 __u8 state, __u8 flags, __u32 arg, __u32 arg2)
{
	void *rb = ring();
	struct iowhy_event *e;

	e = rb ? bpf_ringbuf_reserve(rb, sizeof(*e), 0) : NULL;
	if (!e) {
		c->state = state;
		count_lost(1);
		return;
	}
	fill_state(e, ts, tid, tgid, c, state, flags, arg, arg2);
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* The head of a switch record that carries the switching-out task's last `np` (1..IOWHY_TAIL_LOG)
 * syscall transitions (IOWHY_EVF_TAIL), taken from its log. */
static __always_inline void fill_tail(struct iowhy_batch_head *b, const struct iowhy_event *out,
				      const struct iowhy_logent *log, __u32 np)
{
	b->h = *out;
	b->h.ts = log[0].ts;
	b->h.type = IOWHY_EV_BATCH;
	b->h.flags = IOWHY_EVF_TAIL;
	b->h.arg = np;
	b->h.arg2 = 0;
	b->e[0] = log[0];
	b->e[1] = log[1];
}

/*
 * prev's switch-out (`out`, a STATE event, already filled in), alone or, when next (n) is a tree
 * task too, in one record with next's switch-in: one reservation instead of two (each is a write
 * to the ring's producer position). The last s->tail (0..IOWHY_TAIL_LOG) of prev's batched
 * transitions, still in this CPU's copy's log, go first in the same record (fill_tail).
 */
static __always_inline void emit_switch(const struct iowhy_event *out, __u64 ts, __u32 ntid,
					__u32 ntgid, struct iowhy_task *n, struct iowhy_cpu *s)
{
	struct iowhy_event *e;
	__u8 in = n ? (n->nr == IOWHY_NR_NONE ? IOWHY_TS_USER : IOWHY_TS_KERNEL) : 0;
	void *rb = ring();
	__u32 np = s ? *(volatile __u32 *)&s->tail : 0;

	if (np) { /* one layout (a second event unread when next is not a tree task: fewer paths) */
		struct {
			struct iowhy_batch_head b;
			struct iowhy_event e[2];
		} *r = rb ? bpf_ringbuf_reserve(rb, sizeof(*r), 0) : NULL;

		if (!r) {
			if (n)
				n->state = in;
			count_lost((n ? 2 : 1) + np);
			return;
		}
		fill_tail(&r->b, out, s->t.log, np);
		r->e[0] = *out;
		if (n) {
			r->e[0].type = IOWHY_EV_SWITCH;
			fill_state(&r->e[1], ts, ntid, ntgid, n, in, 0, 0, 0);
		} else {
			r->e[1] = *out;
		}
		bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
		return;
	}
	if (!n) {
		e = rb ? bpf_ringbuf_reserve(rb, sizeof(*e), 0) : NULL;
		if (!e) {
			count_lost(1);
			return;
		}
		*e = *out;
		bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
		return;
	}
	e = rb ? bpf_ringbuf_reserve(rb, 2 * sizeof(*e), 0) : NULL;
	if (!e) {
		n->state = in;
		count_lost(2);
		return;
	}
	e[0] = *out;
	e[0].type = IOWHY_EV_SWITCH;
	fill_state(&e[1], ts, ntid, ntgid, n, in, 0, 0, 0);
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

static __always_inline void emit_comm(__u64 ts, __u32 tid, __u32 tgid, struct iowhy_task *c,
				      __u8 type, __u32 arg, __u32 arg2, __u8 flags)
{
	struct iowhy_event_comm *e;
	void *rb = ring();

	e = rb ? bpf_ringbuf_reserve(rb, sizeof(*e), 0) : NULL;
	if (!e) {
		count_lost(1);
		return;
	}
	e->h.ts = ts;
	e->h.tid = tid;
	e->h.tgid = tgid;
	e->h.type = type;
	e->h.state = c->state;
	e->h.phase = c->phase;
	e->h.flags = flags;
	e->h.nr = c->nr;
	e->h.pad = 0;
	e->h.arg = arg;
	e->h.arg2 = arg2;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

/* A batch record of N entries (N a constant: the ring's reserve takes a constant size); only the
 * first h.arg of them are the task's (user space reads that many, within the record's size). */
#define SEND_BATCH(N)                                                                   \
	do {                                                                            \
		void *rb_ = ring();                                                     \
		struct {                                                                \
			struct iowhy_event h;                                           \
			struct iowhy_logent e[N];                                       \
		} *b_ = rb_ ? bpf_ringbuf_reserve(rb_, sizeof(*b_), 0) : NULL;         \
                                                                                        \
		if (!b_) {                                                              \
			count_lost(n);                                                  \
			return;                                                         \
		}                                                                       \
		b_->h.ts = c->log[0].ts;                                                \
		b_->h.tid = tid;                                                        \
		b_->h.tgid = tgid;                                                      \
		b_->h.type = IOWHY_EV_BATCH;                                            \
		b_->h.state = c->state;                                                 \
		b_->h.phase = c->phase;                                                 \
		b_->h.flags = 0;                                                        \
		b_->h.nr = c->nr;                                                       \
		b_->h.pad = 0;                                                          \
		b_->h.arg = n;                                                          \
		b_->h.arg2 = 0;                                                         \
		for (int i_ = 0; i_ < (N); i_++)                                        \
			b_->e[i_] = c->log[i_];                                         \
		bpf_ringbuf_submit(b_, BPF_RB_NO_WAKEUP);                               \
	} while (0)

/*
 * Send the task's batched syscall transitions (one record). Before any other event of the task.
 * The record holds 2, 4 or IOWHY_LOG_LEN entries, the fewest that take them: a task that sleeps
 * at every call (a read that waits for its disk) sends one or two at each switch-out, and a full
 * record was 296 bytes, five cache lines written and read for 16 bytes of news.
 */
static __always_inline void flush_log(struct iowhy_task *c, __u32 tid, __u32 tgid)
{
	__u32 n = c->nlog;

	if (!n)
		return;
	c->nlog = 0;
	if (n <= 2)
		SEND_BATCH(2);
	else if (n <= 4)
		SEND_BATCH(4);
	else
		SEND_BATCH(IOWHY_LOG_LEN);
}

/* A syscall entry (KERNEL) or exit (USER) of the current task: batched, or sent at once. */
static __always_inline void log_state(__u64 ts, __u32 tid, __u32 tgid, struct iowhy_task *c, __u8 state)
{
	__u32 n;

	if (!batch_log) {
		emit(ts, tid, tgid, c, state, 0, 0, 0);
		return;
	}
	c->state = state;
	n = c->nlog;
	if (n >= IOWHY_LOG_LEN) { /* cannot happen: a full log is sent at once */
		flush_log(c, tid, tgid);
		n = 0;
	}
	c->log[n].ts = ts;
	c->log[n].nr = c->nr;
	c->log[n].state = state;
	c->nlog = n + 1;
	if (n + 1 == IOWHY_LOG_LEN)
		flush_log(c, tid, tgid);
}

/* Process context that changes the log marks the task busy, so that the timer interrupt (btf_tick),
 * which may arrive in the middle, leaves the log alone. */
static __always_inline void set_busy(struct iowhy_task *c, __u8 v)
{
	*(volatile __u8 *)&c->busy = v;
}

/*
 * Page faults of a task: the kernel's own per-task counters (zeroed at fork, never at exec), read at
 * exec and exit only. No per-fault probe: a fault costs the workload nothing extra.
 */
static __always_inline __u64 task_faults(struct task_struct *t)
{
	return BPF_CORE_READ(t, min_flt) + BPF_CORE_READ(t, maj_flt);
}

/* The possible CPUs (user space sets it): the rows of the in-flight counts to sum. */
const volatile __u32 nr_cpus = 1;

struct inflight_sum {
	__s32 n[IOWHY_DISK_SLOTS];
};

/* The slots whose count is above 0, without a branch per slot (the verifier would walk each):
 * the sign bit of -n is 1 for n > 0. */
static __always_inline __u32 positive_slots(const __s32 *n)
{
	__u32 mask = 0;

#pragma unroll
	for (int i = 0; i < IOWHY_DISK_SLOTS; i++)
		mask |= ((__u32)-n[i] >> 31) << i;
	return mask;
}

static long add_inflight_row(__u64 cpu, void *ctx)
{
	struct iowhy_inflight_pc *pc;
	struct inflight_sum *sum = ctx;
	__u32 zero = 0;

	pc = bpf_map_lookup_percpu_elem(&tree_inflight_pc, &zero, (__u32)cpu);
	if (!pc)
		return 1;
#pragma unroll
	for (int i = 0; i < IOWHY_DISK_SLOTS; i++)
		sum->n[i] += pc->count[i];
	return 0;
}

/* The slots whose rows' sum is above 0 (a completion's row may go below 0, the sum does not). A
 * global function: the verifier checks it once, not in each path of sched_switch that reaches it. */
__noinline __u32 inflight_rows_mask(void)
{
	struct inflight_sum sum = {};

	bpf_loop(nr_cpus, add_inflight_row, &sum, 0);
	return positive_slots(sum.n);
}

/* Mask of the disk slots on which workload I/O is in flight (io.bpf.c keeps the counts: rows per
 * CPU, or the shared count[] on kernels before 5.19). */
static __always_inline __u32 disks_in_flight(void)
{
	struct iowhy_inflight *f;
	__u32 zero = 0;

	if (inflight_per_cpu())
		return inflight_rows_mask();
	f = bpf_map_lookup_elem(&tree_inflight, &zero);
	return f ? positive_slots((const __s32 *)f->count) : 0;
}

/* iowhy attach: add a data syscall's bytes to the current thread group's row. */
static __always_inline void proc_bytes(__u32 nr, long ret)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct iowhy_proc_io *p, zero = {};
	__u8 *f = bpf_map_lookup_elem(&fd_syscalls, &nr);

	if (!f || !(*f & (IOWHY_SYSF_READ | IOWHY_SYSF_WRITE)))
		return;
	p = bpf_map_lookup_elem(&proc_io, &tgid);
	if (!p) {
		bpf_map_update_elem(&proc_io, &tgid, &zero, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&proc_io, &tgid);
		if (!p)
			return;
	}
	if (*f & IOWHY_SYSF_WRITE) {
		p->write_bytes += ret;
		p->writes++;
	} else {
		p->read_bytes += ret;
		p->reads++;
	}
}

/* A syscall of a tree task ended at `now`: add it to the statistics. */
static __always_inline void sys_done(struct iowhy_task *c, __u64 now, long ret)
{
	struct iowhy_sys_counts *s;
	struct iowhy_sys_hist *h;
	__u64 total, oncpu;
	__u32 idx, nr;

	if (!c->count_sys) {
		c->count_sys = 1;
		return;
	}
	if (now > sys_until)
		return;
	total = now - c->sys_start;
	oncpu = c->sys_oncpu;
	idx = (c->phase % IOWHY_MAX_PHASES) * IOWHY_NR_SLOTS + c->nr;
	s = bpf_map_lookup_elem(&sys_stats, &idx);
	if (!s)
		return;
	s->count++;
	s->total_ns += total;
	s->oncpu_ns += oncpu;
	if (ret > 0)
		s->ret_sum += ret;
	if (total > s->max_ns)
		s->max_ns = total;
	if (per_proc && ret > 0)
		proc_bytes(c->nr, ret);
	if (c->phase % IOWHY_MAX_PHASES != hist_tag)
		return;
	/* (a program runs with migration disabled: the CPU's row is its own, as in a per-CPU map) */
	nr = bpf_get_smp_processor_id() * IOWHY_NR_SLOTS + c->nr;
	h = bpf_map_lookup_elem(&sys_hist, &nr);
	if (h)
		h->b[loglin_bucket(total)]++;
}

/* Completion-to-wakeup distance within which a request completion counts as the waker. */
#define WAKER_WINDOW_NS 200000

/*
 * At the wakeup (or hidden switch-in, `now`) of a task asleep since `slept`: the disk of the last
 * workload request completion (one word for all CPUs), as *waker when it is waking the task (just
 * now), as *last when it came at any time during the sleep. A wakeup from a file system's
 * completion worker can come milliseconds after the completion, and the disk need not be one the
 * task had requests in flight on when it went to sleep: a member throttled for the workload's
 * cgroup holds its bios back before they are requests (its waits once went to the other raid0
 * members).
 */
static __always_inline void waking_disk(__u64 now, __u64 slept, __u32 *waker, __u32 *last)
{
	struct iowhy_last_complete *l;
	__u32 zero = 0, slot1;
	__u64 w, ts;

	*waker = *last = 0;
	l = bpf_map_lookup_elem(&last_complete, &zero);
	if (!l)
		return;
	w = *(volatile __u64 *)&l->word;
	slot1 = w >> IOWHY_LC_TS_BITS;
	ts = w & IOWHY_LC_TS_MASK;
	now &= IOWHY_LC_TS_MASK;
	slept &= IOWHY_LC_TS_MASK;
	if (!slot1 || slot1 > IOWHY_DISK_SLOTS || ts < slept || ts > now)
		return;
	*last = 1u << (slot1 - 1);
	if (now - ts <= WAKER_WINDOW_NS)
		*waker = *last;
}

/* A hidden switch-in's event is dated at most this long before the switch-out that reveals it, so
 * that it stays well inside user space's reorder window (REORDER_WINDOW_NS, 30 ms); the rest of the
 * stint travels in the event's arg and the model moves it from the run queue back to CPU. */
#define HIDDEN_MAX_NS (20ull * 1000 * 1000)

/* Tests only (IOWHY_TEST_HIDE_SWITCHES=N): every Nth switch from a task outside the tree to a tree
 * task is ignored, as some kernels make such switches without the tracepoint (below). */
const volatile __u32 test_hide_every = 0;
__u64 test_hide_seen = 0;

/*
 * `t`, a tree task running on this CPU, was switched in without our seeing it: the last
 * sched_switch here named another task as next (s->tid). Some kernels switch without the
 * tracepoint: on one host, every switch away from a few threads of the VM's own agent, and some
 * switches from the idle task (measured with ftrace's sched_switch too: ~0.2% of all switches).
 * If our records still have it off CPU, send that switch-in, no earlier than the last switch seen
 * here. It is found at the task's switch-out (`at_switch`), or earlier by an event of its own (a
 * syscall, a fork, an exec, a timer tick: running_task). At the switch-out the kernel's account of
 * the stint is up to date: sum_exec_runtime since it was picked. Between switches that sum is
 * brought up to date only at ticks, but the task clock at the pick is exact (se.exec_start, the
 * clock at the last update, less what was added since the pick) and this CPU's last traced switch
 * gives that clock's offset from ours (clk_off).
 * The same when the switch-in was seen but this CPU's slot holds the task as outside the tree:
 * its task-storage lookup then failed (the storage's per-CPU busy guard is held by a task-storage
 * section that was preempted on this CPU, bpf_task_storage_lock being migrate_disable only), and
 * the stint would otherwise count as run-queue wait (a soak run beside spinners: calib touch's
 * traced CPU 460 ms against task-clock 510, getrusage 546 and 547 samples).
 * Returns whether a switch-in was sent.
 */
static __always_inline bool hidden_switch_in(struct task_struct *t, struct iowhy_task *c,
					     struct iowhy_cpu *s, __u32 tid, __u32 tgid, __u64 now,
					     bool at_switch)
{
	__u64 ran = BPF_CORE_READ(t, se.sum_exec_runtime) - BPF_CORE_READ(t, se.prev_sum_exec_runtime);
	__u64 in = now - ran, back = 0;
	struct iowhy_counters *k = cnt();
	__u32 waker, last = 0;

	if (c->state < IOWHY_TS_RUNQ || c->state >= IOWHY_TS_DEAD) /* its own event told its state */
		return false;
	if (k) {
		k->hidden_switches++;
		if (!at_switch)
			k->hidden_at_event++;
	}
	if (!at_switch && s->clk_off) {
		__u64 picked = BPF_CORE_READ(t, se.exec_start) - ran + s->clk_off;

		if (picked <= now)
			in = picked;
	}
	if (ran > now || in < s->at)
		in = s->at;
	/* its wakeup was not traced either (the kernel's idle-to-task switch on one host): the
	 * disk that completed last during the sleep, before it ran, in arg2 as at a wakeup */
	if (c->state == IOWHY_TS_DWAIT)
		waking_disk(in, c->on_since, &waker, &last);
	c->on_since = in;
	if (now - in > HIDDEN_MAX_NS) {
		back = now - HIDDEN_MAX_NS - in;
		in = now - HIDDEN_MAX_NS;
	}
	emit(in, tid, tgid, c, c->nr == IOWHY_NR_NONE ? IOWHY_TS_USER : IOWHY_TS_KERNEL,
	     IOWHY_EVF_HIDDEN, back > 0xffffffffull ? 0xffffffffu : (__u32)back, last);
	return true;
}

/*
 * The state of the current task (tid) for an event of its own: this CPU's copy when it holds it,
 * else its task storage, NULL outside the tree. A tree task that our records still have off CPU
 * was switched in here without the tracepoint: its switch-in is sent first (hidden_switch_in), so
 * that a stint that ends in a syscall rather than a switch-out (a spinner's last, a task that
 * wakes, runs and calls) is not shown as run-queue wait. Not while process context on this CPU is
 * changing the task's state (the timer interrupt: busy).
 */
static __always_inline struct iowhy_task *running_task(__u32 tid, __u32 tgid)
{
	struct iowhy_cpu *s = cpu_slot();
	struct iowhy_task *c;

	if (s && s->tid == tid)
		return s->tree ? &s->t : NULL;
	c = task_of(use_hash ? NULL : bpf_get_current_task_btf(), tid);
	if (c && s && c->state >= IOWHY_TS_RUNQ && c->state < IOWHY_TS_DEAD &&
	    !*(volatile __u8 *)&c->busy) {
		set_busy(c, 1);
		hidden_switch_in((struct task_struct *)bpf_get_current_task(), c, s, tid, tgid,
				 bpf_ktime_get_ns(), false);
		set_busy(c, 0);
	}
	return c;
}

static __always_inline void on_sys_enter(long id)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct iowhy_task *c = running_task((__u32)pid_tgid, pid_tgid >> 32);
	__u64 now;

	if (!c)
		return;
	now = bpf_ktime_get_ns();
	if (id < 0 || id >= IOWHY_NR_SLOTS) {
		struct iowhy_counters *k = cnt();
		if (k)
			k->nr_folded++;
		id = IOWHY_NR_SLOTS - 1;
	}
	set_busy(c, 1);
	c->nr = id;
	c->sys_start = now;
	c->on_since = now;
	c->sys_oncpu = 0;
	c->count_sys = 1;
	log_state(now, (__u32)pid_tgid, pid_tgid >> 32, c, IOWHY_TS_KERNEL);
	set_busy(c, 0);
}

static __always_inline void on_sys_exit(long ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct iowhy_task *c = running_task((__u32)pid_tgid, pid_tgid >> 32);
	__u64 now;

	if (!c || c->nr == IOWHY_NR_NONE)
		return;
	now = bpf_ktime_get_ns();
	set_busy(c, 1);
	c->sys_oncpu += now - c->on_since;
	sys_done(c, now, ret);
	c->nr = IOWHY_NR_NONE;
	log_state(now, (__u32)pid_tgid, pid_tgid >> 32, c, IOWHY_TS_USER);
	set_busy(c, 0);
}

/*
 * A field of a task passed to the program: a plain load in the tp_btf flavour, whose task pointers
 * are typed, a probe read in the raw_tp one. `btf` is a constant in each program: the other
 * branch is compiled away.
 */
#define TFIELD(btf, t, f) ((btf) ? (t)->f : BPF_CORE_READ(t, f))

/*
 * Mask of the disk behind the file descriptor the current syscall works on (fd → file → inode →
 * superblock → s_dev → slot), or 0: a task in D inside write(fd) waits on that file's device.
 * Called in sched_switch, where `current` is still the task going to sleep: its first syscall
 * argument is read from its saved user registers, not on every syscall.
 */
static __always_inline __u32 fd_disk(struct iowhy_task *c)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u32 nr = c->nr, key, *slot;
	struct fdtable *fdt;
	struct file **fds, *f = NULL;
	__u8 *is_fd;
	long fd;

	if (nr >= IOWHY_NR_SLOTS)
		return 0;
	is_fd = bpf_map_lookup_elem(&fd_syscalls, &nr);
	if (!is_fd || !(*is_fd & IOWHY_SYSF_FD))
		return 0;
	/* plain loads: t is typed (bpf_get_current_task_btf) in either flavour */
	fd = PT_REGS_PARM1_SYSCALL((struct pt_regs *)bpf_task_pt_regs(t));
	fdt = t->files ? t->files->fdt : NULL;
	if (fd < 0 || !fdt || fd >= fdt->max_fds)
		return 0;
	fds = fdt->fd;
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return 0;
	key = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
	slot = bpf_map_lookup_elem(&disk_slots, &key);
	return slot && *slot < IOWHY_DISK_SLOTS ? 1u << *slot : 0;
}

/* The disks a task going to uninterruptible sleep waits on: its fd's, else those with workload I/O
 * in flight. (The model prefers the disk whose completion wakes it, when one does.) */
static __always_inline __u32 dwait_disks(struct iowhy_task *c)
{
	__u32 m = fd_disk(c);
	struct iowhy_counters *k;

	if (m)
		return m;
	m = disks_in_flight();
	k = cnt();
	if (k) {
		k->dwait_no_file++;
		/* no branch on m: its 32 bits would each become a path the verifier walks */
		k->dwait_inflight += ((__u64)m + 0xffffffffull) >> 32;
	}
	return m;
}

/*
 * This CPU's slot holds a tree task that is no longer on it: it left without the tracepoint (on
 * one host, every switch away from a few threads of the VM's own agent: their switch-ins are
 * traced, their switch-outs never, and they stayed "on CPU" for the whole window). Found when the
 * CPU goes idle (power:cpu_idle: it left then, `now`), or at the CPU's next traced switch, whose
 * leaving task is another: then it left when its own account says, the CPU time it had at the
 * switch-in (rt0) plus what it ran since, after its switch-in (`at`), and at most HIDDEN_MAX_NS
 * back (the reorder window: how much longer ago goes in the event's arg, with IOWHY_EVF_HIDDEN,
 * and the model takes it off the task's CPU). Its batched transitions go out
 * first; it is sent as asleep (its real state is not at hand) until its next traced switch-in or
 * event. The slot no longer holds it.
 */
__noinline int hidden_switch_out(struct iowhy_cpu *s, int idle)
{
	__u64 now = bpf_ktime_get_ns(), out = now, back = 0;
	struct iowhy_counters *k;

	if (!s) /* (a global function: verified once, not in each program's switch path) */
		return 0;
	k = cnt();
	if (!idle) {
		/* (a plain load first: inside the CO-RE read the slot's field would be relocated too) */
		struct task_struct *t = (struct task_struct *)s->task;
		__u64 rt = BPF_CORE_READ(t, se.sum_exec_runtime);

		out = s->at + (rt > s->rt0 ? rt - s->rt0 : 0);
		if (out > now)
			out = now;
		if (now - out > HIDDEN_MAX_NS) {
			back = now - HIDDEN_MAX_NS - out;
			out = now - HIDDEN_MAX_NS;
		}
	}
	if (k)
		k->hidden_outs++;
	if (s->t.nr != IOWHY_NR_NONE && out > s->t.on_since)
		s->t.sys_oncpu += out - s->t.on_since;
	s->t.on_since = out;
	flush_log(&s->t, s->tid, s->tgid);
	emit(out, s->tid, s->tgid, &s->t, IOWHY_TS_SWAIT, back ? IOWHY_EVF_HIDDEN : 0,
	     back > 0xffffffffull ? 0xffffffffu : (__u32)back, 0);
	s->tree = 0;
	return 0;
}

static __always_inline void on_switch(const bool btf, bool preempt, struct task_struct *prev,
				      struct task_struct *next, unsigned int prev_state)
{
	__u32 ptid = TFIELD(btf, prev, pid), ntid = TFIELD(btf, next, pid);
	struct iowhy_cpu *s = cpu_slot();
	struct iowhy_event out;
	bool have_out = false;
	struct iowhy_task *c;
	__u64 now = 0;

	/* tests: a switch the kernel makes without the tracepoint (see test_hide_every) */
	if (test_hide_every && !(ptid && task_of(prev, ptid)) && ntid && task_of(next, ntid) &&
	    __sync_fetch_and_add(&test_hide_seen, 1) % test_hide_every == test_hide_every - 1) {
		struct iowhy_counters *k = cnt();

		if (k)
			k->test_hidden++;
		return;
	}
	if (s && s->tree && s->tid && s->tid != ptid)
		hidden_switch_out(s, 0);
	c = ptid ? task_of(prev, ptid) : NULL;
	if (c && s && s->tid == ptid && s->tree) {
		/* write the running copy back: its batched transitions go out from here, before the
		 * switch-out event (a few in the switch's own record: emit_switch), so only what
		 * precedes the log is copied */
		if (s->t.nlog <= IOWHY_TAIL_LOG) { /* s->t.log stays as it is until the end */
			s->tail = s->t.nlog;
			s->t.nlog = 0;
		} else {
			flush_log(&s->t, ptid, TFIELD(btf, prev, tgid));
		}
		__builtin_memcpy(c, &s->t, __builtin_offsetof(struct iowhy_task, log));
	}
	if (c) {
		__u32 tgid = TFIELD(btf, prev, tgid), disks = 0;
		__u8 flags = 0, state;

		if (prev_state & TASK_DEAD_)
			state = IOWHY_TS_DEAD;
		else if (preempt || prev_state == TASK_RUNNING_)
			state = IOWHY_TS_RUNQ, flags = IOWHY_EVF_PREEMPT;
		else if ((prev_state & TASK_UNINTERRUPTIBLE_) && !(prev_state & TASK_NOLOAD_))
			state = IOWHY_TS_DWAIT;
		else
			state = IOWHY_TS_SWAIT;
		if (state == IOWHY_TS_DWAIT) {
			if (btf ? BPF_CORE_READ_BITFIELD(prev, in_iowait) :
				  BPF_CORE_READ_BITFIELD_PROBED(prev, in_iowait))
				flags = IOWHY_EVF_IOWAIT;
			disks = dwait_disks(c);
		}
		/* Stamp the switch-out after the work above: that work is still the task's CPU time,
		 * as the kernel's own accounting (rusage) counts it. */
		now = bpf_ktime_get_ns();
		if (s && (s->tid != ptid || !s->tree))
			hidden_switch_in(prev, c, s, ptid, tgid, now, true);
		if (c->nr != IOWHY_NR_NONE) {
			c->sys_oncpu += now - c->on_since;
			if (state == IOWHY_TS_DEAD)
				sys_done(c, now, 0);
		}
		c->on_since = now; /* off CPU: when it went (its wakeup reads it) */
		if (btf && state == IOWHY_TS_DWAIT && off_on)
			iowhy_off_sleep(c, now);
		/* interrupts are off here: no busy mark needed (with a tail, the copy written back
		 * above left no log here) */
		flush_log(c, ptid, tgid);
		/* sent below, with next's switch-in when next is a tree task */
		fill_state(&out, now, ptid, tgid, c, state, flags, disks,
			   state == IOWHY_TS_DEAD ? (__u32)(task_faults(prev) - c->flt_base) : 0);
		have_out = true;
		if (state == IOWHY_TS_DEAD)
			task_forget(prev, ptid);
	}
	c = ntid ? task_of(next, ntid) : NULL;
	if (c) {
		if (!now)
			now = bpf_ktime_get_ns();
		c->on_since = now;
		if (btf && off_on && c->off_ts)
			iowhy_off_wake(next, c, now);
		if (have_out)
			emit_switch(&out, now, ntid, TFIELD(btf, next, tgid), c, s);
		else
			emit(now, ntid, TFIELD(btf, next, tgid), c,
			     c->nr == IOWHY_NR_NONE ? IOWHY_TS_USER : IOWHY_TS_KERNEL, 0, 0, 0);
	} else if (have_out) {
		emit_switch(&out, now, 0, 0, NULL, s);
	}
	if (s) {
		s->tail = 0;
		s->at = now ? now : bpf_ktime_get_ns();
		/* the scheduler brought prev's task clock up to date for this switch (se.exec_start;
		 * the idle task has none): the offset between that clock and ours (hidden_switch_in) */
		if (ptid)
			s->clk_off = (__s64)(s->at - TFIELD(btf, prev, se.exec_start));
		/* the storage's log is empty (sent at switch-out): copy what precedes it */
		if (c)
			__builtin_memcpy(&s->t, c, __builtin_offsetof(struct iowhy_task, log));
		s->tree = c != NULL;
		s->tid = ntid;
		s->tgid = ntid ? TFIELD(btf, next, tgid) : 0;
		s->task = (__u64)next;
		s->rt0 = c ? BPF_CORE_READ(next, se.sum_exec_runtime) : 0;
	}
}

static __always_inline void on_wakeup(const bool btf, struct task_struct *p)
{
	__u32 tid = TFIELD(btf, p, pid);
	struct iowhy_task *c = task_of(p, tid);
	__u32 waker = 0, last = 0;
	__u64 now;

	/* A wakeup of a task that is still running (ttwu_runnable) changes nothing. */
	if (!c || (c->state != IOWHY_TS_DWAIT && c->state != IOWHY_TS_SWAIT))
		return;
	now = bpf_ktime_get_ns();
	if (c->state == IOWHY_TS_DWAIT)
		waking_disk(now, c->on_since, &waker, &last);
	emit(now, tid, TFIELD(btf, p, tgid), c, IOWHY_TS_RUNQ, 0, waker, last);
}

static __always_inline void on_fork(struct task_struct *parent, struct task_struct *child)
{
	__u32 ptid = BPF_CORE_READ(parent, pid), ctid = BPF_CORE_READ(child, pid);
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	struct iowhy_task *pc = running_task(ptid, ptgid), *cc; /* the parent is current */
	__u64 now;

	if (!pc)
		return;
	cc = task_create(child, ctid);
	if (!cc) {
		struct iowhy_counters *k = cnt();
		if (k)
			k->storage_failed++;
		return;
	}
	now = bpf_ktime_get_ns();
	set_busy(pc, 1);
	flush_log(pc, ptid, ptgid);
	/* The child starts inside the parent's clone and returns from it
	 * (ret_from_fork → sys_exit); that return is not a second call. */
	cc->phase = pc->phase;
	cc->nr = pc->nr;
	cc->sys_start = now;
	cc->on_since = now;
	cc->sys_oncpu = 0;
	cc->count_sys = 0;
	cc->state = IOWHY_TS_RUNQ;
	cc->flt_base = task_faults(child);
	emit_comm(now, ptid, ptgid, pc, IOWHY_EV_FORK, ctid, ctgid,
		  ctgid == ptgid ? IOWHY_EVF_THREAD : 0);
	set_busy(pc, 0);
}

/*
 * A new task that no fork tracepoint announced joins as a child of the task that made it, when
 * that is a tree task: io_uring's workers (iou-wrk-PID) come from create_io_thread, which calls
 * copy_process without kernel_clone's sched_process_fork; their maker wakes them
 * (wake_up_new_task runs in it). Left out, their requests and queue time were "other" work:
 * fio with io_uring had 847 of 1,252 reads outside the workload.
 */
static __always_inline void on_wakeup_new(const bool btf, struct task_struct *p)
{
	__u32 tid = TFIELD(btf, p, pid);

	if (tid && !task_of(p, tid))
		on_fork((struct task_struct *)bpf_get_current_task(), p);
	on_wakeup(btf, p);
}

static __always_inline void on_exec(__u32 old_pid)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct iowhy_cpu *s = cpu_slot();
	struct iowhy_task *c;
	__u64 faults;

	/* A thread other than the leader that execs takes the leader's pid (the leader gets the
	 * thread's): its running copy follows, and in the fallback its hash entry (the old entry stays
	 * for the leader's death when that is still to come). */
	if (old_pid != (__u32)pid_tgid) {
		__u32 tid = (__u32)pid_tgid;
		/* switched in after de_thread's exchange: in the fallback this CPU's copy came from the
		 * leader's entry, or from none when the leader had died (then nothing of the new
		 * program was counted until its next switch) */
		int stale = s && s->tid == tid;

		if (s && s->tree && s->tid == old_pid)
			s->tid = tid;
		if (use_hash) {
			struct iowhy_task *o = bpf_map_lookup_elem(&task_hash, &old_pid), *n;
			int leader_alive = bpf_map_lookup_elem(&task_hash, &tid) != NULL;

			if (o && !bpf_map_update_elem(&task_hash, &tid, o, BPF_ANY) && !leader_alive)
				bpf_map_delete_elem(&task_hash, &old_pid);
			n = stale ? bpf_map_lookup_elem(&task_hash, &tid) : NULL;
			if (n) {
				if (s->tree) /* the thread's own transitions since the switch-in */
					flush_log(&s->t, tid, pid_tgid >> 32);
				__builtin_memcpy(&s->t, n, __builtin_offsetof(struct iowhy_task, log));
				s->t.nlog = 0;
				s->tree = 1;
			}
		}
	}
	c = running_task((__u32)pid_tgid, pid_tgid >> 32);
	if (!c)
		return;
	/* the faults so far belong to the old program (its comm) */
	faults = task_faults((struct task_struct *)bpf_get_current_task());
	set_busy(c, 1);
	flush_log(c, (__u32)pid_tgid, pid_tgid >> 32);
	emit_comm(bpf_ktime_get_ns(), (__u32)pid_tgid, pid_tgid >> 32, c, IOWHY_EV_EXEC, old_pid,
		  (__u32)(faults - c->flt_base), 0);
	c->flt_base = faults;
	set_busy(c, 0);
}

/* A timer interrupt (every tick on a busy CPU): send the interrupted tree task's batched
 * transitions, so none waits longer than a tick. Not while process context is changing them. A
 * switch-in of it the kernel did not trace is found here too, within a tick (running_task). */
static __always_inline void on_tick(void)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct iowhy_task *c;

	if (!(__u32)pid_tgid)
		return;
	c = running_task((__u32)pid_tgid, pid_tgid >> 32);
	if (c && c->nlog && !*(volatile __u8 *)&c->busy)
		flush_log(c, (__u32)pid_tgid, pid_tgid >> 32);
}

/* ---- tp_btf flavour ---- */

/* power:cpu_idle, entering idle (state is PWR_EVENT_EXIT, -1, on the way out): a tree task still
 * in this CPU's slot left it without the tracepoint. */
static __always_inline void on_idle(__u32 state)
{
	struct iowhy_cpu *s;

	if (state == (__u32)-1)
		return;
	s = cpu_slot();
	if (s && s->tree && s->tid)
		hidden_switch_out(s, 1);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(btf_sys_enter, struct pt_regs *regs, long id)
{
	on_sys_enter(id);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(btf_sys_exit, struct pt_regs *regs, long ret)
{
	on_sys_exit(ret);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	on_switch(true, preempt, prev, next, prev_state);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(btf_sched_wakeup, struct task_struct *p)
{
	on_wakeup(true, p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(btf_sched_wakeup_new, struct task_struct *p)
{
	on_wakeup_new(true, p);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(btf_sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	on_fork(parent, child);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(btf_sched_process_exec, struct task_struct *p, pid_t old_pid)
{
	on_exec(old_pid);
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(btf_tick)
{
	on_tick();
	return 0;
}

/* ---- raw_tp flavour (fallback; task pointers are read, never trusted) ---- */

SEC("tp_btf/cpu_idle")
int BPF_PROG(btf_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	on_idle(state);
	return 0;
}

SEC("raw_tp/cpu_idle")
int BPF_PROG(raw_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	on_idle(state);
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(raw_sys_enter, struct pt_regs *regs, long id)
{
	on_sys_enter(id);
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(raw_sys_exit, struct pt_regs *regs, long ret)
{
	on_sys_exit(ret);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(raw_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	on_switch(false, preempt, prev, next, prev_state);
	return 0;
}

SEC("raw_tp/sched_wakeup")
int BPF_PROG(raw_sched_wakeup, struct task_struct *p)
{
	on_wakeup(false, p);
	return 0;
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(raw_sched_wakeup_new, struct task_struct *p)
{
	on_wakeup_new(false, p);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(raw_sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	on_fork(parent, child);
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(raw_sched_process_exec, struct task_struct *p, pid_t old_pid)
{
	on_exec(old_pid);
	return 0;
}

SEC("raw_tp/hrtimer_expire_entry")
int BPF_PROG(raw_tick)
{
	on_tick();
	return 0;
}
