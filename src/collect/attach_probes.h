/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `iowhy attach` adds to the core probes: tasks that already run are made tree members with
 * the state they are in (read from /proc/PID/task/TID: stat and syscall), so the model knows every
 * member's state from the first instant; per-process byte counts; is a task a member yet.
 */
#ifndef IOWHY_ATTACH_PROBES_H
#define IOWHY_ATTACH_PROBES_H

#include <stdint.h>
#include <sys/types.h>
#include "iowhy.h"

struct core_probes;

/* One task as /proc shows it. */
struct seed_task {
	pid_t tid, tgid;
	char comm[IOWHY_COMM_LEN];
	enum iowhy_state state;   /* USER (running), RUNQ, DWAIT, SWAIT */
	uint16_t nr;              /* syscall it sleeps in, IOWHY_NR_NONE if none or unknown */
	int kthread;              /* a kernel thread (PF_KTHREAD) */
	uint64_t seeded_ns;       /* when it was made a member (CLOCK_MONOTONIC; set by the seeding) */
};

/* Read task tid of process tgid. 0, or -1 if it is gone. */
int seed_read_task(pid_t tgid, pid_t tid, struct seed_task *out);
/* Process pid's flags say it is a kernel thread: 1; 0 if not; -1 if it does not exist. */
int seed_is_kthread(pid_t pid);
/*
 * Make t a member of phase `phase` in the state it was read in. With `lite` its syscall is not
 * kept (no syscall probe would ever end it). 0, or -1 (errno: ESRCH when it has exited).
 */
int core_probes_seed(struct core_probes *c, const struct seed_task *t, int phase, int lite);
/* Whether task tid (a thread of any process) is a member. */
int core_probes_is_member(struct core_probes *c, pid_t tid);
/*
 * Forget which task each CPU was running (the per-CPU copy of cpu_task): a task seeded while it
 * runs is then looked up in its task storage at its next event rather than ignored until it
 * switches out. Call right after seeding.
 */
void core_probes_forget_running(struct core_probes *c);

/* Bytes read and written by one process (sum over CPUs). */
struct proc_io_row {
	uint32_t tgid;
	uint64_t read_bytes, write_bytes, reads, writes;
};
/* Every process's counts (allocated in *rows, free()). Returns how many, or -1. */
int core_probes_proc_io(struct core_probes *c, struct proc_io_row **rows);

#endif
