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
 */
#ifndef IOWHY_PROG_RUNTIME_H
#define IOWHY_PROG_RUNTIME_H

#include <stdint.h>

struct probe_set;

/* The program sets to read: a function that fills up to max pointers (NULL entries allowed: a set
 * that is not loaded yet) and returns how many it wrote. */
typedef int (*prog_runtime_sets_fn)(void *ctx, const struct probe_set **sets, int max);

/* A phase's figures (all programs, all CPUs). */
struct prog_runtime_phase {
	uint64_t run_ns;      /* program run time while statistics were on */
	uint64_t runs;        /* program runs while statistics were on */
	uint64_t on_ns;       /* how long statistics were on within the phase */
	uint64_t windows;     /* how many times they were switched on */
	uint64_t wall_ns;     /* the phase's length as seen here */
};

struct prog_runtime;

/* NULL when out of memory. When statistics cannot be enabled (no CAP_SYS_ADMIN, an old kernel:
 * found at the first phase's start, and not tried again) the figures are zeros. */
struct prog_runtime *prog_runtime_new(prog_runtime_sets_fn sets, void *ctx);
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
