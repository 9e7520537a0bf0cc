/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attribution model: pure functions over plain structs, no kernel.
 *
 * Input: the time-ordered stream of task events of one phase (state changes,
 * forks, execs). Output: the wall view (the phase's wall time cut into buckets
 * that add up to it) and the work view (time per task state, per comm).
 *
 * Wall view rule: at each instant the tree is in its highest-priority task
 * state, in this order: any task on CPU in user mode -> USER; else any on CPU
 * inside a syscall -> KERNEL (split evenly over those tasks' syscall groups);
 * else any runnable -> RUNQ; else any in uninterruptible sleep -> IOWAIT; else
 * OTHER. Time when no task state is known is "unattributed".
 */
#ifndef IOWHY_MODEL_H
#define IOWHY_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "iowhy.h"

enum wall_bucket { WB_USER, WB_KERNEL, WB_RUNQ, WB_IOWAIT, WB_OTHER, WB_COUNT };

/* Syscall groups of kernel CPU time (see syscalls.c for the membership). */
enum sys_group { SG_PROC, SG_DATA, SG_META, SG_MEM, SG_SYNC, SG_OTHER, SG_COUNT };

/* Index of "not inside a syscall" in the by_nr arrays. */
#define MODEL_NR_NONE IOWHY_NR_SLOTS

struct wall_view {
	uint64_t start_ns, end_ns;              /* wall = end_ns - start_ns */
	uint64_t bucket_ns[WB_COUNT];           /* WB_KERNEL = sum of kernel_group_ns */
	uint64_t kernel_group_ns[SG_COUNT];
	uint64_t by_nr[WB_COUNT][IOWHY_NR_SLOTS + 1]; /* each bucket split by syscall in effect */
	uint64_t unattributed_ns;               /* no task state known */
	/* WB_IOWAIT split by the disks with workload I/O in flight when the task went to sleep;
	 * [IOWHY_DISK_SLOTS]: none was in flight (a lock, another process's I/O, untraced device). */
	uint64_t iowait_by_disk[IOWHY_DISK_SLOTS + 1];
};

/* Work view: one row per comm (a task is counted under every comm it had). */
struct comm_stats {
	char comm[IOWHY_COMM_LEN];
	uint32_t tasks, forks, execs, exits;
	uint64_t state_ns[IOWHY_TS_DEAD];       /* USER, KERNEL, RUNQ, DWAIT, SWAIT */
	uint64_t kernel_group_ns[SG_COUNT];
	uint64_t vol_switches, invol_switches;
	uint64_t faults;                        /* page faults (counted at exec and exit) */
};

struct model_task;

/* A wakeup dated this much after its task was switched in is counted as clock disagreement. */
#define CLOCK_SKEW_MIN_NS 1000000ull

/* A task's time in one state, as the model closes it: per task, the slices tile its life inside
 * the phase (from its start or the phase's, to its death or the phase's end) without overlap. */
struct model_slice {
	uint32_t tid, tgid;
	const char *comm;         /* the task's comm (valid during the call) */
	uint8_t state;            /* enum iowhy_state, USER .. SWAIT */
	uint16_t nr;              /* syscall in effect (IOWHY_NR_NONE: none) */
	uint64_t begin, end;      /* [begin, end) ns, begin < end */
};
typedef void (*model_slice_fn)(void *ctx, const struct model_slice *s);

struct model {
	struct wall_view wall;
	struct comm_stats *comms;
	size_t ncomms, capcomms;

	uint64_t events;          /* events fed */
	uint64_t out_of_order;    /* events with a timestamp before the previous one (clamped) */
	uint64_t unknown_task;    /* events for tasks never seen (state unknown) */
	uint64_t hidden_ns;       /* waiting turned into CPU by hidden stints' arg */
	/* wakeups dated more than CLOCK_SKEW_MIN_NS after their task's switch-in (the CPUs' clocks
	 * disagree), and the largest such difference */
	uint64_t clock_skew_events, clock_skew_max_ns;
	uint64_t live;            /* tasks alive */
	uint64_t last_dead_ns;    /* when the last task died (live dropped to 0) */
	uint32_t gate_tid;        /* model_gate: the wall starts at this task's release (0: no) */
	model_slice_fn slice_fn;  /* optional sink of task state slices (model_set_slice_sink) */
	void *slice_ctx;

	/* private */
	struct model_task **htab; size_t hcap, hcount;
	struct model_task *lists[IOWHY_TS_COUNT]; /* tasks per state, intrusive */
	uint64_t count[IOWHY_TS_COUNT];
	uint64_t last_ns;
	uint64_t exec_threads;    /* tasks other than their leader inside execve */
};

void model_init(struct model *m, uint64_t start_ns);
/* After model_init: call fn(ctx, slice) for every task state slice as it closes (NULL: none). */
void model_set_slice_sink(struct model *m, model_slice_fn fn, void *ctx);
/* A task already alive at start (the gated root), in state `st`. */
void model_add_task(struct model *m, uint32_t tid, uint32_t tgid, const char *comm,
		    enum iowhy_state st, uint16_t nr);
/*
 * The gated root `tid` (added with model_add_task, asleep at its gate) is about to be released:
 * if the first event fed is its wakeup, the wall starts there, so that the tracer's own delay
 * between model_init and the release is not the workload's wait. Any other first event leaves
 * the start where it is.
 */
void model_gate(struct model *m, uint32_t tid);
/* Feed one event. `comm` is the event's comm for FORK/EXEC, else NULL. */
void model_event(struct model *m, const struct iowhy_event *e, const char *comm);
/* Account the wall view up to `now` (live intervals): no event earlier than `now` may come after
 * (one would count as out of order). */
void model_advance(struct model *m, uint64_t now);
/* Close the phase at end_ns: account the time up to there. */
void model_finish(struct model *m, uint64_t end_ns);
void model_free(struct model *m);

/* Wall time of a finished view, and the sum of its buckets. */
uint64_t wall_ns(const struct wall_view *w);
uint64_t wall_sum_ns(const struct wall_view *w);

#endif
