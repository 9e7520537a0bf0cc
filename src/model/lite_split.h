/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attach --lite: the on-CPU time split by CPU samples alone (pure functions).
 *
 * Without the syscall probes the wall view knows only "on CPU". The samples tell user code from
 * kernel code; a kernel sample is inside a system call when its kernel stack holds the syscall
 * entry path (entry_SYSCALL_64, do_syscall_64, __x64_sys_*, ...), and the call is named by its
 * __x64_sys_NAME frame, else by the number the sampler read from the task's user registers (a
 * row with nr set but not in_syscall, IOWHY_SF_REGS_NR). Outside system calls: page faults,
 * interrupts, other kernel work. Each part is share × the measured on-CPU time, with the binomial
 * standard error of the share: an estimate, not a measurement.
 */
#ifndef IOWHY_LITE_SPLIT_H
#define IOWHY_LITE_SPLIT_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"
#include "cpu_samples.h"

/* One part of the on-CPU time. */
struct ls_part {
	uint64_t samples;
	double share, share_err;   /* of all samples; binomial standard error */
	double ns, err_ns;         /* share (and error) of the on-CPU time */
};

/* Kernel time outside system calls. */
enum ls_outside { LS_FAULT, LS_IRQ, LS_KOTHER, LS_OUTSIDE_COUNT };

/* Where one sample row goes. */
enum ls_where { LSW_USER, LSW_SYSCALL, LSW_FAULT, LSW_IRQ, LSW_KOTHER };

#define LS_TOP 10   /* system calls listed by sampled kernel time */

struct ls_syscall {
	unsigned nr;               /* IOWHY_NR_NONE: inside a system call, which one unknown */
	struct ls_part p;
};

struct lite_split {
	uint64_t samples;          /* the samples it rests on (all recorded ones) */
	uint64_t on_cpu_ns;        /* the measured on-CPU time it splits */
	struct ls_part user;       /* user code */
	struct ls_part kernel;     /* everything in kernel mode */
	struct ls_part syscalls;   /* of it, inside system calls (entry and exit path included) */
	struct ls_part group[SG_COUNT];          /* those by syscall group */
	struct ls_part outside[LS_OUTSIDE_COUNT]; /* kernel outside system calls */
	uint64_t unnamed;          /* samples inside a system call that could not be named */
	struct ls_syscall top[LS_TOP];           /* system calls by samples, most first */
	size_t ntop;
};

/* Where a row goes, and (LSW_SYSCALL) which system call, IOWHY_NR_NONE if unknown. Needs
 * cpu_samples_classify to have run (the row's class). */
enum ls_where lite_split_where(const struct cpu_samples *cs, const struct cs_row *r,
			       unsigned *nr);
/* Split on_cpu_ns by the samples. Returns 0, or -1 when there are no samples (out untouched
 * beyond zeros). */
int lite_split(const struct cpu_samples *cs, uint64_t on_cpu_ns, struct lite_split *out);
const char *ls_outside_key(enum ls_outside k);    /* "page_fault", "interrupt", "kernel_other" */
const char *ls_outside_label(enum ls_outside k);  /* "page faults", ... */

#endif
