/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What iowhy's own BPF programs cost while a phase runs, from the kernel's BPF run-time statistics
 * (run count and run time per program, kept only while statistics are enabled: BPF_ENABLE_STATS).
 * Keeping them on costs every program run two clock reads, so they are on 50 ms at a time: from
 * each phase's start, then after 0.5 s, and each wait twice the one before, up to 4 s (each switch
 * patches kernel text on every CPU: a long phase should not pay for hundreds). The phase's
 * figures are scaled by the share of its wall they were on, less one clock read per run (what the
 * statistics add; timed at start). The run time of the programs is a lower bound of what tracing
 * costs: the tracepoints' own dispatch is not in it (the floor, bench/overhead.sh F0).
 * Also the runs the kernel skipped (recursion_misses, always counted): a tracepoint hit while the
 * same program already ran on that CPU (an interrupt's event during a task's): its event is lost.
 */
#ifndef IOWHY_PROG_RUNTIME_H
#define IOWHY_PROG_RUNTIME_H

#include <stdint.h>

struct probe_set;

/* A program to read: its fd and name. */
struct prog_ref {
	int fd;
	const char *name;
};

/* The programs to read: a function that fills up to max of them and returns how many it wrote
 * (called at each switch: a set loaded later is read from then on). */
typedef int (*prog_runtime_progs_fn)(void *ctx, struct prog_ref *progs, int max);

/* The loaded programs of probe sets (NULL entries allowed: a set not loaded yet) into progs. */
int prog_runtime_sets_progs(const struct probe_set *const *sets, int nsets, struct prog_ref *progs,
			    int max);

/* A phase's figures (all programs, all CPUs). */
struct prog_runtime_phase {
	uint64_t run_ns;      /* program run time while statistics were on */
	uint64_t runs;        /* program runs while statistics were on */
	uint64_t on_ns;       /* how long statistics were on within the phase */
	uint64_t windows;     /* how many times they were switched on */
	uint64_t wall_ns;     /* the phase's length as seen here */
	uint64_t missed;      /* runs the kernel skipped in the phase (recursion_misses), all programs */
	uint64_t missed_top;  /* ... of them, the program that missed most */
	char missed_top_name[32];
};

struct prog_runtime;

/* NULL when out of memory. With stats 0, or when statistics cannot be enabled (no CAP_SYS_ADMIN,
 * an old kernel: found at the first phase's start, and not tried again), the run-time figures are
 * zeros; the skipped runs are counted all the same. */
struct prog_runtime *prog_runtime_new(prog_runtime_progs_fn progs, void *ctx, int stats);
void prog_runtime_free(struct prog_runtime *r);
/* A phase starts at now (CLOCK_MONOTONIC ns): statistics on at once. */
void prog_runtime_begin(struct prog_runtime *r, uint64_t now);
/* Called often while the phase runs: switches statistics on and off. */
void prog_runtime_poll(struct prog_runtime *r, uint64_t now);
/* The phase ends at now: its figures (zeros for r NULL). */
struct prog_runtime_phase prog_runtime_end(struct prog_runtime *r, uint64_t now);
/* The estimate for the whole phase: run_ns scaled by wall / on (0 when never on). */
uint64_t prog_runtime_estimate_ns(const struct prog_runtime_phase *p);

#endif
