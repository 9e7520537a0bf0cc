/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The summary of a session, computed once after its phases (summary_compute, called by the
 * engine before the reporters): the explanation as structured sentences, each phase's I/O layer
 * table with its notes, the side-by-side columns with each workload's headline figures, and one
 * line per device. The text and JSON reporters read it and compute nothing of their own.
 */
#ifndef IOWHY_SUMMARY_H
#define IOWHY_SUMMARY_H

#include <stdint.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"
#include "io_model.h"
#include "columns.h"
#include "explain.h"
#include "verdicts.h"

#define LAYER_NOTES_MAX 12
#define LAYER_NOTE_LEN 200
#define HEADLINES_MAX 6
#define SUMMARY_DISKS 16
#define SUMMARY_STACKS 4

/* What the summary knows of one phase. */
struct phase_summary {
	/* Events were lost while the phase ran (phase_result.events_lost, or the session lost events it
	 * could not place in a phase): a task whose switch-out was lost counts as on CPU until its next
	 * event, so the wall and work views are fiction, not a measurement. What the kernel counts
	 * itself (syscall counts and times, bytes, block I/O) stays exact. */
	int wall_unmeasured;
	uint64_t lost;              /* the phase's lost events (the session's, when not placed) */
	uint64_t tracing_cost_ns;   /* what tracing cost the phase, estimated (tracing_cost_ns) */
	int has_io;                 /* phase_result.io was traced */
	struct io_layers layers;    /* the layer table (still_dirty: of this phase's writes) */
	int nnotes;                 /* what the layer table means, in sentences */
	char notes[LAYER_NOTES_MAX][LAYER_NOTE_LEN];
};

/* A workload's own headline figure as a row of the side-by-side table, e.g. MiB/s, IOPS, p99,
 * files/s: from the phase facts, the trimmed mean over each column's work phases. */
enum headline_kind { HL_MIBS, HL_IOPS, HL_P99, HL_FILES_PER_S, HL_COUNT };

struct headline {
	enum headline_kind kind;
	const char *label;          /* "MiB/s", "IOPS", "p99 latency", "files/s" */
	const char *key;            /* JSON key: "mib_per_s", "iops", "p99_ns", "files_per_s" */
	double value[SESSION_MAX_PHASES]; /* per column; < 0 when the column has no such fact */
};

/* One disk over the whole session: what the device table says in one line. */
struct disk_line {
	char name[32];
	uint64_t window_ns;         /* sum of the windows of the phases that saw it */
	uint64_t busy_ns;           /* time with >= 1 request in flight, summed over those phases */
	uint64_t requests, read_bytes, write_bytes; /* traced completed requests, every class */
	uint64_t workload_bytes;    /* of those bytes: the workload's and writeback of its files */
	uint64_t iowait_ns;         /* the workload's I/O wait charged to this disk */
	uint64_t missed;            /* dispatches whose completion no program saw (not in requests) */
};

/* A device stack the workload's I/O went through, over the session, with the workload's I/O wait
 * charged to each of its devices: "the workload waited 3.9 s on /mnt; 3.7 s of it on loop2's
 * requests". */
#define STACK_LINE_DEVS 16

struct stack_line {
	char line[256];             /* "/mnt (btrfs raid0) → loop0, loop1, loop2 → vda" */
	char head[96];              /* "/mnt (btrfs raid0)" */
	int ndevs;
	char dev[STACK_LINE_DEVS][32];
	int level[STACK_LINE_DEVS]; /* 0: the file system's own devices */
	int on[STACK_LINE_DEVS];    /* 1 + the index in dev[] of the first device it sits on; 0: none
				     * known */
	uint64_t iowait_ns[STACK_LINE_DEVS];
	uint64_t iowait_ns_total;   /* over all its devices */
	uint64_t below_ns[STACK_LINE_DEVS]; /* of iowait_ns[i]: while the requests below device i,
					     * done for it, were outstanding (io_wait_below) */
	int most;                   /* index of the device with the most of it; -1 when none */
	char below[32];             /* the first device the most waited one sits on, "" if none known */
};

struct session_summary {
	struct phase_summary *phases;  /* one per session phase */
	int nphases;
	struct column cols[SESSION_MAX_PHASES];
	int ncols;
	struct headline head[HEADLINES_MAX];
	int nhead;
	struct disk_line disks[SUMMARY_DISKS];
	int ndisks;
	struct stack_line stacks[SUMMARY_STACKS]; /* device stacks the workload's I/O went through */
	int nstacks;
	struct vd_input vin;        /* the verdicts' inputs (run_verdicts.h): members, nmembers >= 2 */
	struct verdict verdicts[VD_MAX]; /* what the numbers support; nverdicts 0: nothing stands out */
	int nverdicts;
	struct vd_withdrawn withdrawn[VD_MAX]; /* verdicts that contradicted their numbers or each
						* other, taken back (verdicts_check) */
	int nwithdrawn;
	struct explanation expl;
};

/* Compute s->summary from the phases (replacing any earlier one). Returns 0, or -1 when out of
 * memory (s->summary is then NULL and the reporters print the raw numbers only). */
int summary_compute(struct session_result *s);
/* What tracing cost phase p, estimated two ways: its events x the cost per event calibrated at
 * start (tracing_events_cost_ns; 0 when not calibrated), and its programs' own run time from the
 * kernel's statistics, scaled from the part of the phase they were on to its wall
 * (tracing_programs_ns; 0 when not measured: a lower bound, the tracepoints' dispatch is not in
 * it). tracing_cost_ns is the larger; TRACING_COST_WARN_PCT of the wall or more: the report says
 * so. */
#define TRACING_COST_WARN_PCT 5
#define TRACING_COST_WARN_MIN_NS 10000000ull /* and at least this much (10 ms) */
uint64_t tracing_events_cost_ns(const struct session_result *s, const struct phase_result *p);
uint64_t tracing_programs_ns(const struct phase_result *p);
uint64_t tracing_cost_ns(const struct session_result *s, const struct phase_result *p);
void summary_free(struct session_result *s);

/* The layer notes of one phase, from its I/O data and layer table (used by summary_compute). */
void layer_notes(const struct io_phase *p, const struct io_layers *l, struct phase_summary *ps);

/* Value of headline kind k for one phase: < 0 when its facts do not give it. */
double headline_value(const struct phase_result *p, enum headline_kind k);

#endif
