/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The headline user/kernel split of a phase's CPU: user CPU is user code, kernel CPU is all the
 * kernel ran for the tree, in system calls or not.
 *
 * The syscall tracepoints bound what they time: from sys_enter to sys_exit. The CPU outside that
 * (the wall view's user bucket) holds user code and kernel work too: the syscall entry/exit path,
 * page faults, interrupts and softirqs, other kernel code. The CPU samples split it by their
 * shares (cpu_samples_split: an estimate with a binomial standard error), so
 *   user CPU   = outside x user-code share                       (estimate, +- its error)
 *   kernel CPU = traced syscall CPU + outside x (1 - that share)  (the same error: the two add up)
 * Under --lite (no syscall probes) the whole on-CPU time is split by the samples (lite_split).
 *
 * The split is shown only where it is reliable: when user code's standard error is at most
 * CPU_SPLIT_MAX_ERR of the phase's wall (5 points of the wall view). Else it is "not split" and
 * the report says how many samples it had, instead of presenting the tracepoint boundary as the
 * user/kernel line. With no sample at all but CPU outside syscalls of at most CPU_SPLIT_MAX_ERR of
 * the wall, any split is within that: half of it is counted user CPU, with the standard deviation
 * of a share known only to lie in [0, 1] (1/sqrt(12)) as its error. Computed once from the phase's numbers; reporters only format it.
 */
#ifndef IOWHY_CPU_SPLIT_H
#define IOWHY_CPU_SPLIT_H

#include <stdint.h>
#include <linux/types.h>
#include "result.h"

#define CPU_SPLIT_MAX_ERR 0.05

enum cpu_split_state {
	CPU_SPLIT_EXACT,    /* no CPU outside the syscall tracepoints: nothing to estimate */
	CPU_SPLIT_SAMPLED,  /* split by samples within CPU_SPLIT_MAX_ERR of the wall */
	CPU_SPLIT_FEW,      /* samples, too few to split reliably */
	CPU_SPLIT_NONE,     /* no samples (sampler off, or none landed outside syscalls) */
};

struct cpu_split {
	enum cpu_split_state state;
	uint64_t samples;           /* the samples it rests on (outside syscalls; --lite: all) */
	double wall_ns;
	double user_ns, kernel_ns;  /* split: user code; all kernel (valid unless FEW or NONE) */
	double err_ns;              /* their standard error (one: they add up to a measured sum) */
	double traced_kernel_ns;    /* the kernel CPU inside syscalls, as traced (--lite: 0) */
	double outside_ns;          /* the CPU outside the syscall tracepoints (--lite: all on-CPU) */
	double needed_samples;      /* FEW or NONE: about how many samples a split would need */
};

/* The split of one phase. */
void cpu_split_of(const struct phase_result *p, struct cpu_split *out);
/* The split from sample counts alone (live intervals): `outside_ns` (the CPU outside the syscall
 * tracepoints; --lite: all on-CPU time, with traced_kernel_ns 0) split by n_user user-mode samples
 * of n_outside, with the same states and error as cpu_split_of. */
void cpu_split_counts(double wall_ns, double outside_ns, double traced_kernel_ns,
		      uint64_t n_outside, uint64_t n_user, struct cpu_split *out);
/* The split over the phases idx[0..n) (a column): trimmed means of the values; the state is the
 * worst of the phases' (n == 0: NONE). */
void cpu_split_cols(const struct session_result *s, const int *idx, int n, struct cpu_split *out);
/* Whether the split's user and kernel figures are to be shown (EXACT or SAMPLED). */
static inline int cpu_split_shown(const struct cpu_split *c)
{
	return c->state == CPU_SPLIT_EXACT || c->state == CPU_SPLIT_SAMPLED;
}
const char *cpu_split_state_name(enum cpu_split_state s);  /* "exact", "sampled", "few_samples", "no_samples" */

#endif
