/* SPDX-License-Identifier: GPL-2.0 */
/* What a session measured, in plain structs: filled by the engine, summarised, then formatted. */
#ifndef IOWHY_RESULT_H
#define IOWHY_RESULT_H

#include <stdio.h>
#include <stdint.h>
#include <linux/types.h>
#include "iowhy.h"
#include "model.h"
#include "facts.h"
#include "probe_status.h"

#define REPORT_SCHEMA_VERSION 1

struct io_phase;        /* io_model.h */
struct session_summary; /* summary.h: computed from the results, above this layer */

struct phase_result {
	char name[48];
	char column[32];
	enum phase_kind kind;
	int status;               /* exit status of the phase (shell-style: 128+sig if killed) */
	int partial;              /* interrupted */
	struct wall_view wall;    /* from the model */
	struct comm_stats *comms; /* work view, owned */
	size_t ncomms;
	struct iowhy_sys_stat sys[IOWHY_NR_SLOTS]; /* summed over CPUs */
	uint64_t rusage_user_ns, rusage_sys_ns;   /* getrusage(RUSAGE_CHILDREN) delta of the phase */
	uint64_t tasks_left;      /* tree tasks still alive when the phase was closed */
	uint64_t events, out_of_order, unknown_task;
	struct phase_facts facts;
	struct io_phase *io;      /* device / page-cache data (io_model.h), NULL when not traced */
};

struct session_result {
	const char *tool;          /* "run", "gen", ... */
	char command[512];         /* what was run, for the header */
	char kernel[128];          /* uname -r */
	char probe_mode[16];       /* "tp_btf" or "raw_tp" */
	struct missing_probes missing; /* optional probes that are not attached, and why */
	struct probe_times probe_times; /* loading, attaching and detaching every probe set */
	int partial;               /* Ctrl-C or a failure cut the session short */
	uint64_t events_lost, storage_failed, nr_folded, events_total;
	uint64_t setup_ns, teardown_ns; /* untraced: before hooks; after hooks and the cleanup */
	uint64_t event_cost_ps;    /* tracing cost per event, calibrated at start (0: unknown) */
	struct phase_result *phases;
	int nphases;
	char disk_names[IOWHY_DISK_SLOTS][32]; /* names of the slots of wall.iowait_by_disk */
	struct session_summary *summary; /* summary_compute(); what the reporters read */
};

/* Sums over a phase's syscall table. */
uint64_t phase_sys_count(const struct phase_result *p, const char *syscall);
/* A syscall's on-CPU time, never more than its total: a call's on-CPU time is stamped at its
 * switch-outs, and exit_group's last stamp can come after the time its total was closed. */
uint64_t sys_oncpu_ns(const struct iowhy_sys_stat *st);
/* Tree CPU (user + kernel) from the work view. */
uint64_t phase_cpu_ns(const struct phase_result *p);

#endif
