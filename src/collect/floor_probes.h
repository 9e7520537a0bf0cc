/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing floor, for the benchmark's controls (bench/overhead.sh F0 and F1): an empty program
 * ("return 0", two instructions, tp_btf) on every tracepoint iowhy's probes stand on, one per probe
 * as iowhy attaches them, taken from the same probe tables (core_probe_specs, io_probe_specs), so
 * the list cannot drift from what iowhy uses. What a workload loses under it is what any tracer on
 * those tracepoints costs on this host; iowhy's own work is what it loses beyond that.
 */
#ifndef IOWHY_FLOOR_PROBES_H
#define IOWHY_FLOOR_PROBES_H

#include "probe_set.h"

struct floor_timer_bpf;

enum floor_kind {
	FLOOR_ALL,       /* F0: every tracepoint of the core and I/O probes */
	FLOOR_CORE,      /* the core probes' tracepoints only (what --no-io attaches) */
	FLOOR_SYSCALLS,  /* F1: raw_syscalls sys_enter and sys_exit only */
	FLOOR_TIMER,     /* F2: the least an exact syscall timer does, on the same pair
			  * (bpf/floor_timer.bpf.c): its two programs, not empty ones */
	FLOOR_IO_TIMER,  /* F3: F2 and the least an exact account of off-CPU time (sleep and
			  * run-queue wait) and of each request's device time does: six programs */
	FLOOR_SAMPLER,   /* FS: an empty program on the sampler's cpu-clock event of every CPU at
			  * the sampling frequency: what sampling costs before iowhy's program */
};

struct floor_probes {
	struct probe_set set[2];  /* core, I/O: the probes' states */
	int fd[2][PROBE_SET_MAX]; /* program fds, -1 if none */
	int link[2][PROBE_SET_MAX];
	int attached;             /* how many programs are attached */
	struct floor_timer_bpf *timer; /* FLOOR_TIMER's or FLOOR_IO_TIMER's object, else NULL */
	int *perf_fds, nperf;          /* FLOOR_SAMPLER's events, -1 where a CPU has none */
	int sample_prog;               /* FLOOR_SAMPLER's empty program, else -1 */
};

/* Whether a probe of that name belongs to the floor of `kind`. */
int floor_wants(enum floor_kind kind, int set, const char *name);
/* Load and attach the empty programs (IOWHY_SKIP_PROBES and tracepoints absent from the kernel are
 * left out, as iowhy leaves them out), or for FLOOR_TIMER the timer's two, for FLOOR_IO_TIMER its
 * six. Returns 0, or -1 after
 * one line on stderr (detached). */
int floor_probes_attach(struct floor_probes *f, enum floor_kind kind);
/* FLOOR_SAMPLER at `hz` (1..SAMPLER_MAX_HZ); the same contract. */
int floor_sampler_attach(struct floor_probes *f, unsigned hz);
/* Detach and close everything. Safe to call twice. */
void floor_probes_detach(struct floor_probes *f);

#endif
