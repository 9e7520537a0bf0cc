/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by the core BPF program (iowhy.bpf.c) and user space.
 * Plain fixed-size types only: this header is included by both sides.
 */
#ifndef IOWHY_SHARED_H
#define IOWHY_SHARED_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "loglin.h"

#define IOWHY_MAX_PHASES 16    /* phases (workload, flush, ...) per session */
#define IOWHY_NR_SLOTS 512     /* syscall numbers tracked; larger ones fold into the last */
#define IOWHY_NR_NONE 0xffff   /* "not inside a syscall" */
#define IOWHY_HIST_SLOTS LOGLIN_BUCKETS /* latency histogram buckets (ns): bpf/loglin.h */
#define IOWHY_COMM_LEN 16
#define IOWHY_DISK_SLOTS 32    /* disks whose in-flight workload I/O is tracked for I/O wait */
#define IOWHY_LOG_LEN 16       /* syscall transitions a task batches before one ring-buffer record */

/* Task states as the model sees them. */
enum iowhy_state {
	IOWHY_TS_USER = 0,  /* on CPU, not inside a syscall */
	IOWHY_TS_KERNEL,    /* on CPU, inside syscall `nr` */
	IOWHY_TS_RUNQ,      /* runnable, waiting for a CPU (woken, preempted, new) */
	IOWHY_TS_DWAIT,     /* off CPU, uninterruptible sleep (not TASK_IDLE) */
	IOWHY_TS_SWAIT,     /* off CPU, any other sleep */
	IOWHY_TS_DEAD,      /* final switch-out */
	IOWHY_TS_COUNT,
};

enum iowhy_event_type {
	IOWHY_EV_STATE = 1, /* task `tid` entered `state` */
	IOWHY_EV_FORK,      /* `tid` created `arg` (tgid `arg2`); carries the parent's comm */
	IOWHY_EV_EXEC,      /* `tid` exec'd; carries the new comm */
	IOWHY_EV_BATCH,     /* `arg` STATE transitions of `tid` (USER/KERNEL at syscall entry and exit) */
	IOWHY_EV_SWITCH,    /* a context switch between two tree tasks in one record: this STATE event
			     * (prev's switch-out) and a second one after it (next's switch-in) */
};

/* Event flags. */
#define IOWHY_EVF_PREEMPT 0x1  /* STATE RUNQ: involuntary switch-out */
#define IOWHY_EVF_IOWAIT 0x2   /* STATE DWAIT: task had in_iowait set */
#define IOWHY_EVF_THREAD 0x4   /* FORK: child shares the parent's thread group */
#define IOWHY_EVF_HIDDEN 0x8   /* STATE USER/KERNEL: a switch-in the kernel did not trace, dated;
				* STATE SWAIT: a switch-out it did not trace, `arg` ns before `ts` */
#define IOWHY_EVF_TAIL 0x10    /* BATCH: a struct iowhy_batch_head, and after it in the same record
				* the switch-out (STATE) or the switch (SWITCH) that sent it */

struct iowhy_event {
	__u64 ts;     /* bpf_ktime_get_ns(), CLOCK_MONOTONIC */
	__u32 tid;
	__u32 tgid;
	__u8 type;    /* enum iowhy_event_type */
	__u8 state;   /* enum iowhy_state (STATE events) */
	__u8 phase;
	__u8 flags;
	__u16 nr;     /* syscall in effect, IOWHY_NR_NONE if none */
	__u16 pad;
	__u32 arg;    /* FORK: child tid; EXEC: the pid before the exec (differs when a thread other
		       * than the leader execs: it takes the leader's); STATE DWAIT: mask of disk slots with workload I/O in flight;
		       * STATE RUNQ after DWAIT: mask of the disk whose completion woke it (0: other;
		       * arg2: the disk of the last workload completion during the sleep, 0: none);
		       * STATE USER/KERNEL with IOWHY_EVF_HIDDEN: ns of the stint before `ts` (the
		       * event is dated at most HIDDEN_MAX_NS back; the model moves these from the
		       * task's run-queue wait to CPU); arg2: after DWAIT (its wakeup was not traced
		       * either), as at a RUNQ event, the disk that completed last during the sleep */
	__u32 arg2;   /* FORK: child tgid; EXEC and STATE DEAD: page faults since the last exec
		       * (the kernel's own per-task min_flt + maj_flt, as getrusage counts them) */
};

/* FORK and EXEC events carry a comm after the header. */
struct iowhy_event_comm {
	struct iowhy_event h;
	char comm[IOWHY_COMM_LEN];
};

/*
 * One syscall entry or exit of a task, batched in its per-task state and sent IOWHY_LOG_LEN at a
 * time (or earlier: before any other event of the task, and at the next timer interrupt on its CPU),
 * instead of one ring-buffer record each. User space puts the stream back in time order.
 */
struct iowhy_logent {
	__u64 ts;
	__u16 nr;     /* syscall in effect after the transition, IOWHY_NR_NONE if none */
	__u8 state;   /* IOWHY_TS_USER or IOWHY_TS_KERNEL */
	__u8 pad[5];
};

struct iowhy_event_batch {
	struct iowhy_event h;   /* type IOWHY_EV_BATCH, arg = entries used */
	struct iowhy_logent e[IOWHY_LOG_LEN];
};

/* The few transitions a task's switch-out sends in its own record (IOWHY_EVF_TAIL): a task that
 * sleeps at every call has one or two (its last call's exit, the next one's entry) at each
 * switch-out, and a record of their own cost a second reservation in the ring. */
#define IOWHY_TAIL_LOG 2
struct iowhy_batch_head {
	struct iowhy_event h;   /* type IOWHY_EV_BATCH, flags IOWHY_EVF_TAIL, arg = entries used */
	struct iowhy_logent e[IOWHY_TAIL_LOG];
};

/* Per (phase, syscall) counters, per CPU (map sys_stats). */
struct iowhy_sys_counts {
	__u64 count;
	__u64 total_ns;
	__u64 oncpu_ns;
	__u64 max_ns;
	__u64 ret_sum;   /* sum of positive return values: bytes for read/write-family calls */
};

/* Per syscall latency histogram of the phase being traced (hist_tag), a row per CPU (map sys_hist,
 * key cpu * IOWHY_NR_SLOTS + nr): 4 KiB a syscall, so not one per phase. */
struct iowhy_sys_hist {
	__u32 b[IOWHY_HIST_SLOTS];
};

/* A syscall's statistics in a phase as user space hands them on: the counters summed over the
 * CPUs, and the histogram. */
struct iowhy_sys_stat {
	__u64 count;
	__u64 total_ns;
	__u64 oncpu_ns;
	__u64 max_ns;
	__u64 ret_sum;
	__u32 hist[IOWHY_HIST_SLOTS];
};

/*
 * The workload's requests in flight per disk slot (slots: disk_slots map, filled by user space from
 * /sys/block). The io probes count requests of the tree, of writeback for it and of the journal
 * between issue and completion; the core reads the counts when a tree task sleeps uninterruptibly
 * with no file of its own to wait on (iowhy.bpf.c disks_in_flight). The counts are a row per CPU
 * (iowhy_inflight_pc: the issue adds where it runs, the completion takes off where it runs, and the
 * reader sums the rows), unless the kernel cannot read another CPU's row (before 5.19): then the
 * count[] here, which every CPU writes.
 */
struct iowhy_inflight_pc {
	__s32 count[IOWHY_DISK_SLOTS];
};

struct iowhy_inflight {
	__u32 count[IOWHY_DISK_SLOTS];
	/* the workload dirtied a file on the disk or queued a request to it: only then are the
	 * disk's journal requests the workload's (another file system's commits are not) */
	__u8 used[IOWHY_DISK_SLOTS];
};

/* The disk slot (+1) of the last workload request completion and when, for wakeup attribution:
 * one word that every CPU reads, written whole (the pair is never seen half old, half new): the
 * slot in the top bits, the time (ns since boot, its low IOWHY_LC_TS_BITS: 9 years) below. */
#define IOWHY_LC_TS_BITS 58
#define IOWHY_LC_TS_MASK ((1ull << IOWHY_LC_TS_BITS) - 1)
struct iowhy_last_complete {
	__u64 word;
};

/* Counters of everything the BPF side could not record. */
struct iowhy_counters {
	__u64 events_lost;      /* ring buffer full */
	__u64 storage_failed;   /* could not create per-task state at fork */
	__u64 nr_folded;        /* syscall numbers >= IOWHY_NR_SLOTS */
	__u64 hidden_switches;  /* switch-ins the kernel did not trace, found later (iowhy.bpf.c) */
	__u64 hidden_at_event;  /* of these, found by an event of the task itself, not its switch-out */
	__u64 hidden_outs;      /* switch-outs the kernel did not trace, found at this CPU's next
				 * switch (iowhy.bpf.c hidden_switch_out) */
	__u64 test_hidden;      /* switch-ins hidden on purpose (IOWHY_TEST_HIDE_SWITCHES) */
	__u64 dwait_no_file;    /* sleeps in D with no file of their own: charged to the disks with
				 * workload I/O in flight (iowhy.bpf.c dwait_disks) */
	__u64 dwait_inflight;   /* of these, with workload I/O in flight on some disk */
};

/* fd_syscalls flags */
#define IOWHY_SYSF_FD 0x1     /* first argument is a file descriptor */
#define IOWHY_SYSF_READ 0x2   /* returns bytes read */
#define IOWHY_SYSF_WRITE 0x4  /* returns bytes written */

/* Bytes read and written by the syscalls of one thread group (iowhy attach), per CPU. */
struct iowhy_proc_io {
	__u64 read_bytes, write_bytes;
	__u64 reads, writes;
};

/* Per-task state kept in the kernel. */
struct iowhy_task {
	__u64 sys_start;   /* sys_enter timestamp */
	__u64 on_since;    /* on CPU: last switch-in (or sys_enter); off CPU: the switch-out */
	__u64 sys_oncpu;   /* on-CPU time inside the current syscall so far */
	__u16 nr;          /* current syscall, IOWHY_NR_NONE outside */
	__u8 phase;
	__u8 state;        /* enum iowhy_state, last emitted */
	__u8 count_sys;    /* 0 while returning from clone in a new child */
	__u8 nlog;         /* entries in log[] not yet sent */
	__u8 busy;         /* process context is changing log[]: the timer interrupt keeps off */
	__u8 pad;
	__u64 flt_base;    /* the task's min_flt + maj_flt at its last exec (or when it joined) */
	struct iowhy_logent log[IOWHY_LOG_LEN];
	/* Off-CPU (tp_btf, while CPU sampling is on; offcpu.bpf.h): after log[], so the running copy
	 * (iowhy_cpu) does not carry them: only the core's sched_switch reads and writes them. */
	__u64 off_ts;      /* switch-out into D; 0 while not asleep in D */
	__u64 off_acc_ns;  /* D time since its last captured stack */
	__u32 off_acc_n;   /* sleeps in off_acc_ns */
	__u8 off_phase;    /* the phase tag of off_ts and off_acc_* */
	__u8 off_pad[3];
};

/*
 * The disks a task's uninterruptible sleep is charged to when it wakes: the disk whose completion
 * woke it (`waker`, from the RUNQ event's arg); else the disk of the last workload completion
 * during the sleep (`last`, arg2: a wakeup from a completion worker can come milliseconds later,
 * and a throttled disk's held bios were not in flight when the task went to sleep); else those
 * with workload I/O in flight when it went to sleep (`slept`, the DWAIT event's mask). Shared by
 * the model's wall view and the per-call tracker.
 */
static inline __u32 iowhy_wait_disks(__u32 waker, __u32 last, __u32 slept)
{
	return waker ? waker : last ? last : slept;
}

#endif
