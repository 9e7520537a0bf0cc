/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU samples of one phase, symbolised, and what they say: pure functions over plain structs.
 *
 * The sampler (collect/sampler.c) fills rows: a count of samples that share mode, in-syscall
 * state, syscall, comm, kernel stack and user stack (frames as function names, innermost first).
 * cpu_samples_classify puts each row in a class; cpu_samples_split scales the tracepoint-measured
 * user time (time outside sys_enter..sys_exit) by the classes' sample shares, with the binomial
 * standard error of each share: an estimate, not a measurement.
 */
#ifndef IOWHY_CPU_SAMPLES_H
#define IOWHY_CPU_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

/* Where a sample was. The first five are outside syscalls: they split tracepoint "user" time. */
enum cpu_class {
	CC_USER,      /* user code */
	CC_FAULT,     /* kernel, page fault (exc_page_fault, handle_mm_fault, ...) */
	CC_ENTRY,     /* kernel, syscall entry/exit path outside sys_enter..sys_exit */
	CC_IRQ,       /* kernel, interrupt or softirq */
	CC_KOTHER,    /* kernel, anything else outside syscalls (ret_from_fork, lost stack, ...) */
	CC_SYSCALL,   /* between sys_enter and sys_exit (measured by the tracepoints) */
	CC_COUNT,
};
#define CC_OUTSIDE CC_SYSCALL   /* classes below this are outside syscalls */
#define CS_FEW 20               /* fewer samples than this: print the estimate with its error */
#define CS_NONE UINT32_MAX      /* no stack */

/* One aggregated group of samples. */
struct cs_row {
	uint64_t count;
	uint16_t nr;           /* syscall in effect (IOWHY_NR_NONE outside) */
	uint8_t kernel_mode;   /* 1: the CPU was in kernel mode */
	uint8_t in_syscall;    /* 1: between sys_enter and sys_exit */
	uint8_t cls;           /* enum cpu_class, set by cpu_samples_classify */
	char comm[16];
	uint32_t kstack, ustack; /* index into stacks, or CS_NONE */
};

/* A symbolised stack: name indexes, innermost frame first. */
struct cs_stack {
	uint32_t n;
	uint32_t unresolved;   /* frames without a symbol */
	uint32_t *fn;
};

/* A share of the samples outside syscalls, applied to the tracepoint-measured user time. */
struct cs_estimate {
	uint64_t samples;
	double share, share_err;   /* fraction of the outside-syscall samples, binomial std err */
	double ns, err_ns;         /* share (and error) of the measured time it splits */
};

/* Uninterruptible sleeps of tree tasks with one kernel stack (off-CPU). */
struct cs_wait {
	uint64_t count, ns;
	char comm[16];
	uint32_t kstack;       /* index into stacks (scheduler frames trimmed), or CS_NONE */
};

struct cpu_samples {
	uint32_t hz;
	uint64_t samples;           /* samples of tree tasks, as counted in the kernel */
	uint64_t kstack_lost, ustack_lost, key_lost; /* stacks not stored, samples dropped */
	uint64_t unknown_task;      /* samples on CPUs whose running copy named no task (any) */
	uint64_t exec_files;        /* distinct files the tree exec'd */
	uint64_t exec_files_found;  /* of those, found again by path (same device and inode) */
	/* frames of the recorded samples (a stack counts once per sample), set by classify */
	uint64_t kframes, kframes_unresolved, uframes, uframes_unresolved;
	struct cs_row *rows;
	size_t nrows, caprows;
	struct cs_stack *stacks;
	size_t nstacks, capstacks;
	char **names;
	size_t nnames, capnames;
	uint32_t *htab;             /* name interning: open addressing, index + 1 */
	size_t hcap;
	/* off-CPU: sleeps in D of tree tasks, switch-out to switch-in */
	struct cs_wait *waits;
	size_t nwaits, capwaits;
	int off_traced;             /* the off-CPU probe ran (else no waits, none counted) */
	uint64_t off_sleeps;        /* switch-outs into D, as counted in the kernel */
	uint64_t off_stack_lost, off_pending_lost, off_key_lost;
	/* D time (and sleeps) of tasks whose time since their last stack stayed below the sampling
	 * period: timed, given no stack yet (not in the waits) */
	uint64_t off_held_ns, off_held_n;
	uint64_t off_walks;         /* off-CPU stacks walked (tp_btf; within the budget) */

	/* cpu_samples_classify */
	uint64_t recorded;          /* samples in rows */
	uint64_t class_samples[CC_COUNT];
	uint64_t outside;           /* samples in classes below CC_OUTSIDE */
	/* cpu_samples_split */
	struct cs_estimate wall_user[CC_OUTSIDE];  /* the wall view's user bucket, split */
	struct cs_estimate tree_user[CC_OUTSIDE];  /* the tree's user CPU (work view), split */
	uint64_t tree_user_ns, tree_kernel_ns;     /* as the tracepoints measured them */
	double kernel_share, kernel_share_err;     /* corrected kernel share of the tree's CPU */
	double sample_kernel_share;                /* kernel-mode samples / samples */
};

/* Empty sample set at `hz`. NULL: out of memory. */
struct cpu_samples *cpu_samples_new(uint32_t hz);
void cpu_samples_free(struct cpu_samples *cs);
/* Intern a function name; returns its index (UINT32_MAX: out of memory). */
uint32_t cpu_samples_name(struct cpu_samples *cs, const char *name);
/* Add a stack of n name indexes (innermost first), `unresolved` of them without a symbol; returns
 * its index, CS_NONE on failure. */
uint32_t cpu_samples_add_stack(struct cpu_samples *cs, const uint32_t *fn, uint32_t n,
			       uint32_t unresolved);
/* Add a row (copied). Returns 0, or -1 out of memory. */
int cpu_samples_add_row(struct cpu_samples *cs, const struct cs_row *r);

/* Add an off-CPU row (copied). Returns 0, or -1 out of memory. */
int cpu_samples_add_wait(struct cpu_samples *cs, const struct cs_wait *w);
/* Off-CPU time in all rows. */
uint64_t cpu_samples_wait_ns(const struct cpu_samples *cs);
/* Off-CPU stacks by time asleep, rows with the same stack merged (comm of the first). Writes at
 * most max; returns how many. */
size_t cpu_samples_top_waits(const struct cpu_samples *cs, struct cs_wait *out, size_t max);
/* Number of innermost frames of a sched_switch stack that are the scheduler and the probe itself
 * (bpf_prog_*, bpf_trace_run*, __traceiter_*, __schedule, schedule): what to trim. */
uint32_t cpu_samples_sched_frames(const char *const *names, uint32_t n);

/* Class of a row from its mode, in-syscall state and kernel stack. */
enum cpu_class cpu_samples_class_of(const struct cpu_samples *cs, const struct cs_row *r);
/* Classify every row, count samples per class and frames (resolved or not). */
void cpu_samples_classify(struct cpu_samples *cs);
/*
 * Split the measured user time by the shares of the outside-syscall classes: the wall view's user
 * bucket (wall_user_ns) and the tree's user CPU (tree_user_ns), and compute the corrected kernel
 * share of the tree's CPU: (kernel + user * (1 - user-code share)) / (user + kernel).
 */
void cpu_samples_split(struct cpu_samples *cs, uint64_t wall_user_ns, uint64_t tree_user_ns,
		       uint64_t tree_kernel_ns);
struct phase_result;
/* cpu_samples_split for a finished phase: its wall view's user bucket and its work view's CPU. */
void cpu_samples_split_phase(struct cpu_samples *cs, const struct phase_result *p);
/* Standard error of a share of x samples of n: binomial, or Agresti-Coull when x or n - x is under
 * CS_FEW (never 0 with few samples). */
double cs_share_err(uint64_t x, uint64_t n);
const char *cpu_class_name(enum cpu_class c);   /* "user_code", "page_fault", ... (JSON keys) */
const char *cpu_class_label(enum cpu_class c);  /* "user code", "page faults", ... */

/* What a page fault was doing, from its kernel stack. */
enum fault_kind {
	FK_FILE,      /* mapping a file's page (do_read_fault, filemap_fault, filemap_map_pages) */
	FK_COW,       /* copy-on-write (do_wp_page, do_cow_fault): after fork, private mappings */
	FK_ANON,      /* fresh anonymous memory (do_anonymous_page) */
	FK_OTHER,     /* anything else (swap, huge pages, the stack not deep enough) */
	FK_COUNT,
};
enum fault_kind cpu_samples_fault_kind(const struct cpu_samples *cs, const struct cs_row *r);
const char *fault_kind_name(enum fault_kind k);    /* JSON keys: "file", "cow", "anon", "other" */
const char *fault_kind_label(enum fault_kind k);   /* "file mapping", "copy-on-write", ... */

/* The samples of one comm. */
struct cs_comm {
	char comm[16];
	uint64_t samples, outside;
	uint64_t class_samples[CC_COUNT];
	uint64_t fault_kind[FK_COUNT];
};
/* Samples per comm, most first (at most max). Returns how many were written. */
size_t cpu_samples_by_comm(const struct cpu_samples *cs, struct cs_comm *out, size_t max);

/* A function's samples in a selection. */
struct cs_func {
	uint32_t name;
	uint64_t self, total;      /* innermost frame / anywhere in the stack (once per sample) */
	uint32_t caller[2];        /* most frequent callers when it is innermost (CS_NONE: none) */
};

/* Which samples: classes (bit mask of 1 << class), a syscall (-1: any), kernel or user frames. */
struct cs_select {
	unsigned classes;
	int nr;
	int kernel;
};
/* Samples in a selection. */
uint64_t cpu_samples_count(const struct cpu_samples *cs, const struct cs_select *sel);
/* Top functions of a selection by self samples (then total). Returns how many were written. */
size_t cpu_samples_top(const struct cpu_samples *cs, const struct cs_select *sel,
		       struct cs_func *out, size_t max);

#endif
