/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdicts: which member or layer limits the work, from per-member numbers. Pure functions: the
 * caller (hunt, or a report over several devices) fills struct vd_input; each verdict states its
 * evidence in one sentence and carries the numbers it was computed from (for the JSON).
 *
 * Rules (thresholds below):
 *   throttled      blk-throttle configured for the workload's cgroup on a member, and the member
 *                  runs at that limit or is slow; or (one device, or all alike) a flat MiB/s
 *                  ceiling over the queue depths while latency grows with depth
 *   slow member    a member's device latency (or busy %) several times the others' median
 *                  (and, when measured alone by hunt, its throughput several times lower)
 *   shared         together the members reach few members' worth of what each reaches alone
 *   cpu-bound      one thread at ~100% of a CPU (on it or waiting in the run queue for it)
 *                  while the devices are mostly idle
 *   queue-depth    about one request in flight and the device idle between requests
 *   writeback      balance_dirty_pages pauses a large share of the wall (less the time the work
 *                  waited for a CPU: a loaded host's run queue is not the work's)
 *   journal        waits on journal commits a large share of the wall (the same)
 *   fuse-daemon-cpu  a FUSE daemon on a CPU for most of the time the workload waited on its
 *                  requests: the daemon's own work (encryption, compression) is the wait
 *                  (run_fuse_verdicts in run_verdicts.h: from a run's FUSE numbers, no members)
 *
 * Members are peers: devices of one stack that share the work's requests (hunt's set, a RAID's
 * disks). Devices a run merely touched (independent != 0: the disk it loaded its binaries from
 * beside the one it wrote) are not compared with each other: no slow-member or shared verdict
 * among them. In a run's report (passive != 0) a verdict about one device needs the workload to
 * have waited on it. verdicts_check() holds a set of verdicts to these rules and withdraws any
 * verdict that contradicts its numbers or another verdict.
 */
#ifndef IOWHY_VERDICTS_H
#define IOWHY_VERDICTS_H

#include <stdint.h>

#define VD_MAX_MEMBERS 16
#define VD_MAX_DEPTHS 8
#define VD_MAX_INPUTS 10
#define VD_MAX 24

#define VD_SLOW_RATIO 3.0      /* slow member: latency/busy this many times the others' median */
#define VD_IDLE_BUSY_PCT 50.0  /* ... while the others are below this busy % */
#define VD_AT_LIMIT 0.7        /* throttled: throughput at least this share of the limit */
#define VD_FLAT_RATIO 1.2      /* ceiling: best/worst throughput over the depths at most this */
#define VD_SHARED_SHARE 0.7    /* shared: together at most this share of the members' worth */
#define VD_CPU_PCT 90.0        /* cpu-bound: the busiest thread at least this % of a CPU (run
				* queue included: a thread waiting for a CPU is held by CPU) */
#define VD_CPU_DEV_BUSY 50.0   /* ... while no device is busier than this */
#define VD_QD_INFLIGHT 1.2     /* queue-depth: at most this many requests in flight */
#define VD_WAIT_SHARE 0.10     /* writeback/journal: waits at least this share of the wall, less
				* its run-queue wait */
#define VD_FUSE_CPU_SHARE 0.5  /* fuse-daemon-cpu: the daemon on a CPU at least this share of the
				* workload's FUSE wait */

struct vd_member {
	char name[32];
	double lat_us;     /* device latency per request (mean) */
	double qwait_us;   /* queue wait per request (mean), 0 if unknown */
	double busy_pct;   /* share of the time with a request in flight, 0..100 (0: unknown) */
	double mib_s;      /* throughput */
	double iops;
	double inflight;   /* mean requests in flight while busy (0: unknown) */
	unsigned int major, minor;
	/* blk-throttle limits for the workload's cgroup on this device (0: none) */
	uint64_t thr_read_bps, thr_write_bps, thr_read_iops, thr_write_iops;
	char thr_cgroup[64];
	char bottom[64];   /* the device at the bottom of its stack ("vda"), "" if unknown */
	/* active measurements (hunt): throughput and latency alone at increasing queue depth */
	int ndepth;
	double depth[VD_MAX_DEPTHS], depth_mib_s[VD_MAX_DEPTHS], depth_lat_us[VD_MAX_DEPTHS];
	double alone_mib_s;    /* best throughput alone (0: not measured) */
	double together_mib_s; /* its throughput while all members ran together (0: not measured) */
	double iowait_s;       /* the workload's I/O wait charged to it (a run; 0: unknown) */
};

struct vd_input {
	int nmembers;
	struct vd_member m[VD_MAX_MEMBERS];
	char shared_lower[64]; /* the device every member sits on ("vda"), "" if none known */
	int writes;            /* the work writes (throttle direction); 0 reads */
	char top_thread[32];   /* the busiest thread and its share of one CPU, % */
	double top_thread_cpu_pct;
	double top_thread_runq_pct; /* ... and of the wall it waited for a CPU (run queue), % */
	double wall_s, dirty_pause_s, journal_wait_s;
	double runq_s;         /* of the wall: the work waiting for a CPU (the host's contention) */
	int independent;       /* the members are devices a run touched, not peers of one stack */
	int passive;           /* a run's report (not hunt): iowait_s of each member is known */
};

enum vd_kind {
	VD_THROTTLED, VD_SLOW_MEMBER, VD_SHARED, VD_CPU_BOUND, VD_QUEUE_DEPTH, VD_WRITEBACK,
	VD_JOURNAL, VD_FUSE_CPU,
};

struct vd_kv {
	char key[24];
	double val;
};

struct verdict {
	enum vd_kind kind;
	char subject[64];  /* the member, the thread, or the shared device */
	char text[512];    /* one sentence with the evidence */
	int ninputs;
	struct vd_kv inputs[VD_MAX_INPUTS];
};

/* All verdicts the numbers support, most specific first; returns how many (0: nothing stands
 * out). The set passes verdicts_check(). */
int verdicts_compute(const struct vd_input *in, struct verdict *out, int max);

/* A verdict taken back by verdicts_check(), and why. */
struct vd_withdrawn {
	enum vd_kind kind;
	char subject[64];
	char why[160];
};

/* Hold v[0..n) to the rules against each other and against their inputs: a slow member needs
 * two or more peers, its stated ratio is the ratio of the two numbers it quotes, every member
 * named slow is slower on the quoted measure than every member not named, all named slow on one
 * measure, no member both throttled and slow, and (passive) no device verdict where the workload
 * did not wait. Contradicting verdicts are removed from v (the weaker of a pair) and described in
 * w (up to wmax); returns the new count of v. *nw gets the number withdrawn. */
int verdicts_check(const struct vd_input *in, struct verdict *v, int n, struct vd_withdrawn *w,
		   int wmax, int *nw);

/* verdicts_compute(), with what verdicts_check() withdrew in w[0..wmax) and *nw (a rule that
 * contradicts its own numbers or another rule: none is expected). */
int verdicts_compute_checked(const struct vd_input *in, struct verdict *out, int max,
			     struct vd_withdrawn *w, int wmax, int *nw);

/* "throttled", "slow-member", "shared", "cpu-bound", "queue-depth", "writeback", "journal",
 * "fuse-daemon-cpu" */
const char *vd_kind_name(enum vd_kind k);

#endif
