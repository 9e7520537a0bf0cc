/* SPDX-License-Identifier: GPL-2.0 */
/* One live interval of a session (--interval): what the engine measured, for the formatters. */
#ifndef IOWHY_INTERVAL_DATA_H
#define IOWHY_INTERVAL_DATA_H

#include <stdint.h>
#include "model.h"

#define IV_MAX_DEVS 8
#define IV_TOP_PROCS 10
#define IV_TOP_CGROUPS 10
#define IV_CGROUP_PATH 256

struct iv_dev {
	char name[32];
	double iops, mib_s;
	uint64_t p99_ns;        /* device time (issue -> complete) of traced requests; 0: none */
	double queue_depth;     /* mean requests in the queue (time_in_queue / interval) */
	double busy_pct;        /* io_ticks / interval */
};

struct iv_proc {
	uint32_t pid;
	char comm[IOWHY_COMM_LEN];
	uint64_t bucket_ns[WB_COUNT];
	uint64_t ns;            /* its time in the interval */
};

/* -a / --cgroup: one cgroup (v2 path) over the interval and since the start. */
struct iv_cgroup {
	char path[IV_CGROUP_PATH];          /* "other": the cgroups not listed, summed */
	uint32_t nprocs;                    /* processes seen in it so far */
	uint64_t bucket_ns[WB_COUNT];       /* its own wall view over the interval */
	uint64_t ns;                        /* its time in the interval */
	uint64_t read_bytes, write_bytes;   /* its processes' syscall bytes in the interval */
	uint64_t total_bucket_ns[WB_COUNT]; /* since the start */
	uint64_t total_read_bytes, total_write_bytes;
};

struct iv_call {           /* the slowest syscall that ended in the interval */
	uint64_t ns;            /* 0: none */
	uint32_t tid;
	uint16_t nr;
	char comm[IOWHY_COMM_LEN];
};

/* On-CPU time split into user code and kernel by the CPU samples (summary/cpu_split.h). */
struct iv_split {
	int sampled;             /* the sampler ran (else nothing below is known) */
	int state;               /* enum cpu_split_state */
	uint64_t samples;        /* samples outside the syscall tracepoints (--lite: all) */
	double user_ns, kernel_ns, err_ns;  /* shown when state is exact or sampled */
	double needed_samples;   /* not shown: about how many samples a split would need */
};

struct interval_sample {
	uint64_t seq;                    /* 1, 2, ... */
	int final;                       /* the last one: up to the end of the session */
	double unix_time;                /* the interval's end, seconds since the epoch */
	uint64_t start_ns, end_ns;       /* CLOCK_MONOTONIC, the model's clock */
	uint64_t since_start_ns;         /* the end, from the session's start */
	uint64_t bucket_ns[WB_COUNT];
	uint64_t kernel_group_ns[SG_COUNT];
	uint64_t unattributed_ns;
	int ndevs;
	struct iv_dev devs[IV_MAX_DEVS];
	uint64_t dirty_bytes, writeback_bytes;   /* /proc/meminfo at the end */
	struct iv_call slowest;
	int nprocs;                      /* -a / --cgroup: the busiest processes */
	struct iv_proc procs[IV_TOP_PROCS];
	int ncgroups;                    /* -a / --cgroup: the busiest cgroups of the interval */
	struct iv_cgroup cgroups[IV_TOP_CGROUPS];
	int ncg_total;                   /* the busiest since the start, then "other" (Prometheus) */
	struct iv_cgroup cg_total[IV_TOP_CGROUPS + 1];
	int lite;                        /* no syscall probes: no slowest call, on-CPU not split */
	const char *target;              /* what is traced ("pid 12", "all processes", "run") */
	/* since the start, for counters (Prometheus) */
	uint64_t total_bucket_ns[WB_COUNT];
	uint64_t total_kernel_group_ns[SG_COUNT];
	/* the interval's split, and since the start the sum of every interval's estimate (counters;
	 * an interval with no sample counts half of its CPU outside syscalls as user code) with the
	 * errors added in quadrature */
	struct iv_split split;
	double total_user_ns, total_kernel_ns, total_split_err_ns;
};

#endif
