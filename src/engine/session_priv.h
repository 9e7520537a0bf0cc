/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the engine: what session.c shares with the other ways of running a phase (attach.c). Not
 * for workloads (they see phase.h and session.h only).
 */
#ifndef IOWHY_SESSION_PRIV_H
#define IOWHY_SESSION_PRIV_H

#include "core_probes.h"
#include "io_probes.h"
#include "model.h"
#include "facts.h"
#include "interval.h"

/* The phase whose model takes the events; events of any other phase are counted as stray. */
struct phase_ctx {
	struct model model;
	int tag;          /* phase index mod IOWHY_MAX_PHASES, as the BPF side tags events */
	int open;
	uint64_t stray;
	/* Optional: sees every event the model takes, after it (attach: per-process views). */
	void (*tap)(void *ctx, const struct iowhy_event *e, const char *comm);
	void *tap_ctx;
	struct interval_out *iv;  /* --interval / --slow: sees every event too */
};

struct sampler;
struct fuse_probes;
struct timeline;

struct session {
	struct core_probes core;
	struct io_probes *io;
	struct sampler *smp;          /* CPU samples (NULL with --no-sample) */
	struct fuse_probes *fuse;     /* FUSE requests and daemons (NULL with --no-io) */
	struct phase_ctx pc;
	struct phase_facts *shared;   /* MAP_SHARED: the child writes its facts here */
	struct timeline *tl;          /* --timeline: the tasks' state slices, else NULL */
	struct interval_out *iv;      /* live intervals and slow calls (NULL without) */
	struct prog_runtime *prt;     /* the programs' own run time per phase (NULL: unknown) */
	uint64_t cost_cpu0;           /* iowhy's own CPU time at the phase's start */
	uint64_t first_release;       /* when the first workload was released (0: not yet) */
};

/* The programs' own run time over a phase (kernel BPF statistics, sampled): begin at the phase's
 * start, poll in its loop, end into its result; free with the probes. */
/* Events lost so far: in the kernel (a full ring) and by the consumer. */
uint64_t session_events_lost(struct session *s);
void session_cost_begin(struct session *s, uint64_t now);
void session_cost_poll(struct session *s, uint64_t now);
void session_cost_end(struct session *s, uint64_t now, struct phase_result *r);
void session_cost_free(struct session *s);

/* Forget an interrupt: for attach, Ctrl-C or SIGTERM is the normal end of the window. */
void session_clear_interrupt(void);
/* A finished phase's model into its result (the wall view, the work view's rows, the model's
 * counters); the model is freed. */
void phase_take_model(struct phase_result *r, struct model *m);

#endif
