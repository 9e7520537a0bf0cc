/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tracing costs per event on this host, measured at start (a few ms): 2,000 null syscalls
 * (getppid, in 5 batches, the fastest batch counts) by iowhy before the probes are attached, and
 * the same by a child that is a traced tree task after they are. Half the difference per call is
 * the cost of one traced event (a syscall is an entry and an exit transition). The report compares
 * events x cost with the wall (honesty line when it exceeds 5%).
 */
#ifndef IOWHY_CALIBRATE_H
#define IOWHY_CALIBRATE_H

#include <stdint.h>
#include <sys/types.h>

/* Time of one null syscall in this process, in picoseconds (min over the batches). */
uint64_t calib_null_syscall_ps(void);
/* The cost of one traced event from untraced and traced null-syscall times (ps; 0 if not more). */
uint64_t calib_event_cost_ps(uint64_t untraced_ps, uint64_t traced_ps);
/* Makes pid (blocked in read(2) on its gate) a traced tree task. 0, or -1. */
typedef int (*calib_add_fn)(void *ctx, pid_t pid);
/* Fork a child, make it a tree task with add, release it, and take its null-syscall time (ps).
 * Returns 0, or -1 (nothing measured). */
int calib_traced_ps(calib_add_fn add, void *ctx, unsigned long long *traced_ps);

#endif
