/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the CPU samples add to the explanation: how much of the time the tracepoints call user CPU
 * was the kernel outside syscalls (page faults, the syscall entry/exit path, interrupts), and what
 * the busiest program's page faults were. For explain.c and the reporters.
 */
#ifndef IOWHY_CPU_EXPLAIN_H
#define IOWHY_CPU_EXPLAIN_H

#include <stddef.h>
#include "result.h"

#define CPU_EXPLAIN_MIN_SAMPLES 20   /* fewer samples outside syscalls: say nothing (and fewer
				      * than half as many page-fault samples: nothing of them) */

/*
 * One or two sentences (newline-terminated) about phase p into buf (always NUL-terminated when
 * n > 0). Returns the length written, 0 when there is nothing to say (no samples, too few).
 */
size_t cpu_explain(const struct phase_result *p, char *buf, size_t n);

#endif
