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
#include "calltrack.h"

#define REPORT_SCHEMA_VERSION 1

struct io_phase;        /* io_model.h */
struct session_summary; /* summary.h: computed from the results, above this layer */
struct cpu_samples;   /* cpu_samples.h */

/* One process of an attach window (per thread group): its own wall view over its time in the
 * window (the same buckets, adding up to it) and the bytes its syscalls read and wrote. */
struct proc_row {
	uint32_t tgid;
	char comm[IOWHY_COMM_LEN];
	uint64_t start_ns, end_ns;          /* its part of the window */
	uint64_t bucket_ns[WB_COUNT];
	uint64_t unattributed_ns;
	uint64_t iowait_by_disk[IOWHY_DISK_SLOTS + 1];
	uint64_t read_bytes, write_bytes, reads, writes; /* -1 (all ones) under --lite: unknown */
	int exited;                         /* it ended within the window */
	int32_t cgroup;                     /* -a, --cgroup: index into cgroups (-1: unknown) */
};

/* One cgroup of an attach -a / --cgroup window (its cgroup v2 path): the wall view of its tasks
 * over its part of the window, their CPU (task time) and the bytes their syscalls moved. */
#define CGROUP_PATH_LEN 256
struct cgroup_row {
	char path[CGROUP_PATH_LEN];         /* "/system.slice/x.service" ("..." at the end: cut) */
	uint32_t nprocs;                    /* processes seen in it */
	uint64_t start_ns, end_ns;
	uint64_t bucket_ns[WB_COUNT];
	uint64_t unattributed_ns;
	uint64_t cpu_ns;                    /* its tasks' on-CPU time, summed (task time) */
	uint64_t read_bytes, write_bytes, reads, writes; /* -1 (all ones) under --lite */
};

/* A syscall kept by --slow: its breakdown, and the devices it waited on while it ran. */
#define SLOW_MAX 200
#define SLOW_WAITS 3     /* wait stacks kept per slow call */
struct slow_call {
	struct ct_call c;
	char comm[IOWHY_COMM_LEN];
	double busy_pct[CT_DISKS];   /* c.disk[i]'s busy % over the call (/sys/block io_ticks) */
	double depth[CT_DISKS];      /* and its mean queue depth (time_in_queue) */
	/* what the kernel did meanwhile (bpf/slow.bpf.c; 0 when those probes are missing) */
	uint32_t bdp_count;          /* balance_dirty_pages pauses of this task inside the call */
	uint64_t bdp_ns;             /* and their planned length */
	uint32_t commits;            /* jbd2 commits that overlapped the call */
	uint64_t commit_overlap_ns;  /* the part of the call they covered (summed) */
	uint64_t commit_max_ns;      /* the longest of them, start to end */
	char commit_dev[32];         /* its file system's device */
	/* its sleeps by kernel wait stack (bpf/slow.bpf.c: sleeps of --slow MS / 50 or more) */
	struct slow_wait {
		uint64_t ns;             /* asleep in this stack inside the call */
		uint32_t count;
		uint8_t uninterruptible; /* D (not TASK_IDLE): I/O wait; else another wait */
		char where[128];         /* innermost kernel frames "a ← b ← c"; "?": stack lost */
	} waits[SLOW_WAITS];
	int nwaits;                  /* stacks kept, longest first */
	uint64_t waits_ns;           /* every sleep of the call that was timed (all stacks) */
	int waits_traced;            /* the sleep probe ran */
	/* the inode under writeback on its disks that overlapped it the longest (0: none seen) */
	uint64_t wb_ino;
	uint64_t wb_overlap_ns;
	char wb_dev[32];             /* the inode's device */
	char wb_path[160];           /* its path, when the call's process had it open; else "" */
};
/* Slowest first (qsort). */
int slow_call_cmp(const void *a, const void *b);

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
	/* perf's task-clock of the tree over the phase (collect/task_clock.h), when task_clock_ok */
	uint64_t task_clock_ns;
	int task_clock_ok;
	uint64_t tasks_left;      /* tree tasks still alive when the phase was closed */
	uint64_t events, out_of_order, unknown_task;
	/* events the kernel's rings (and the consumer) lost while the phase ran: the counters read at
	 * its start and end. Any: its wall and work views are not a measurement (summary.h) */
	uint64_t events_lost;
	/* wakeups dated over 1 ms after their task's switch-in (the CPUs' clocks disagreed), and the
	 * largest difference (model.h) */
	uint64_t clock_skew_events, clock_skew_max_ns;
	/* iowhy's BPF programs over the phase, from the kernel's statistics while they were on
	 * (prog_on_ns of the wall; 0: not measured): their run time and runs in that time */
	uint64_t prog_run_ns, prog_runs, prog_on_ns, prog_windows;
	/* runs of iowhy's programs the kernel skipped in the phase (a tracepoint hit while the same
	 * program already ran on that CPU: recursion_misses), and the program that missed most */
	uint64_t prog_missed, prog_missed_top;
	char prog_missed_top_name[32];
	/* iowhy's own CPU time (all its threads: the consumer, the model, the statistics) over the
	 * phase; on a machine whose CPUs are all busy it is taken from the workload too */
	uint64_t tracer_cpu_ns;
	struct phase_facts facts;
	struct io_phase *io;      /* device / page-cache data (io_model.h), NULL when not traced */
	struct cpu_samples *samples; /* CPU samples (cpu_samples.h), NULL with --no-sample */
	struct fuse_phase *fuse;  /* FUSE requests and daemons (fuse_model.h), NULL when not traced */
	struct proc_row *procs;   /* attach: per process, busiest first (owned); NULL otherwise */
	size_t nprocs;
	uint64_t procs_untracked; /* attach: processes beyond the per-process table (in the totals only) */
	struct cgroup_row *cgroups; /* attach -a / --cgroup: per cgroup, busiest first (owned) */
	size_t ncgroups;
	uint64_t cgroups_untracked; /* processes whose cgroup did not fit the table (in the totals) */
	char target[160];         /* attach: what was traced ("pid 123", "cgroup /x", "all") */
	char end_note[160];       /* attach: why the window ended early ("pid 123 exited"), or "" */
	uint64_t seeded_ns;       /* attach: every target task at attach traced from here (CLOCK_MONOTONIC) */
	char seeded_by[16];       /* attach: "task_iter" (bpf/seed.bpf.c) or "proc" (/proc/PID/task) */
	char seed_note[96];       /* attach, seeded by /proc: why not by the task iterator */
	int lite;                 /* --lite: no syscall probes (syscall counts not available) */
	struct slow_call *slow;   /* --slow: the slowest calls, slowest first (owned) */
	size_t nslow;
	uint64_t slow_more;       /* calls over the threshold that were not kept */
	uint64_t slow_min_ns;     /* the threshold */
	int slow_traced;          /* --slow was given */
	int slow_context;         /* bit 0: balance_dirty_pages traced, bit 1: jbd2 commits traced */
};

struct session_result {
	const char *tool;          /* "run", "gen", ... */
	char command[512];         /* what was run, for the header */
	char kernel[128];          /* uname -r */
	char probe_mode[16];       /* "tp_btf" or "raw_tp" */
	struct missing_probes missing; /* optional probes that are not attached, and why */
	struct probe_times probe_times; /* loading, attaching and detaching every probe set */
	int partial;               /* Ctrl-C or a failure cut the session short */
	int lite;                  /* --lite: no syscall probes: no syscall counts, on-CPU not split */
	uint64_t events_lost, storage_failed, nr_folded, events_total;
	uint64_t hidden_switches;  /* switch-ins the kernel did not trace (see iowhy.bpf.c) */
	uint64_t hidden_at_event;  /* of these, found by an event of the task, not its switch-out */
	uint64_t hidden_outs;      /* switch-outs the kernel did not trace, found at the CPU's next */
	uint64_t dwait_no_file;    /* D sleeps with no file of their own (iowhy.h iowhy_counters) */
	uint64_t dwait_inflight;   /* of these, with workload I/O in flight */
	uint64_t test_hidden;      /* switch-ins hidden on purpose (IOWHY_TEST_HIDE_SWITCHES) */
	uint64_t events_late;      /* arrived after a later event was handed to the model */
	uint64_t setup_ns, teardown_ns; /* untraced: before hooks; after hooks and the cleanup */
	uint64_t event_cost_ps;    /* tracing cost per event, calibrated at start (0: unknown) */
	uint64_t event_rings;      /* the core's event rings (one per CPU, or 1 shared) */
	uint64_t event_ring_bytes; /* each ring's size */
	uint64_t event_ring_peak;  /* the most one ring held unread when the consumer looked */
	uint64_t io_stat_rows;     /* rows per I/O statistics key: the CPUs (one each), 1 (shared), 0 */
	uint64_t io_sweeps, io_sweep_ns; /* the sweep's runs (io_probes.c) and their time in all */
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
