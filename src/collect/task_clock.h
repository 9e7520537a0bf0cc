/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A second witness of the tree's CPU time: perf's software task-clock counter, opened on the gated
 * root with inherit, so that every task the root forks carries a copy whose count is folded back
 * into the root's counter when the task exits (as `perf stat -e task-clock -- CMD` counts). It is
 * read from timestamps at perf's own switch hooks, next to the sched_switch tracepoint, by code
 * that shares nothing with iowhy's probes.
 *
 * Why a second witness: getrusage's figure is the scheduler's account (sum_exec_runtime), which
 * dates each switch at the runqueue clock's last update. After a wakeup that asks for preemption
 * that update is skipped, so the woken task is charged from its wakeup (its run-queue wait) and
 * the preempted one is not charged for its last moments. On a busy CPU getrusage differs from
 * any timestamp count by up to the run-queue waits (measured: 5-15% for fio beside two spinners).
 * task-clock is not moved by that, but a task's count ends at its exit hook, before the exit
 * frees the task's memory (~110 us a MiB here): it is a lower bound of the trace's on-CPU time,
 * getrusage the upper one. docs/ACCURACY.md has the numbers.
 *
 *   int fd = task_clock_open(pid);   the root, stopped at its gate (-1: none, errno says why)
 *   uint64_t t0 = task_clock_read(fd);  at the release
 *   ... the tree runs and dies ...
 *   uint64_t ns = task_clock_read(fd) - t0;   then close(fd)
 */
#ifndef IOWHY_TASK_CLOCK_H
#define IOWHY_TASK_CLOCK_H

#include <stdint.h>
#include <sys/types.h>

/* An inherited task-clock counter on pid, counting now; an fd, or -1 with errno set. */
int task_clock_open(pid_t pid);
/* Nanoseconds counted so far by pid and its exited descendants; UINT64_MAX when unreadable. */
uint64_t task_clock_read(int fd);

#endif
