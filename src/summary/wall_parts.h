/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of wall-view rows that the tracepoints cannot split themselves, as sub-rows for the
 * text and HTML wall views and the JSON:
 * - the user bucket split by the CPU samples (user code, page faults, syscall entry/exit,
 *   interrupts, other kernel; cpu_samples_split): an estimate, each part with its standard error;
 *   the parts add up to the bucket.
 * - the workload's waits on FUSE requests, one part per (mount, opcode), placed in the wait
 *   buckets: see wall_fuse_parts.
 */
#ifndef IOWHY_WALL_PARTS_H
#define IOWHY_WALL_PARTS_H

#include <stdint.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"
#include "cpu_samples.h"

/* ---- the user bucket, split by samples ---- */

/* One part of the user bucket over one phase or a column's phases. */
struct user_part {
	int known;          /* the phase(s) had samples outside syscalls to split by */
	double ns, err_ns;  /* the estimate and its standard error (a column: trimmed means) */
	uint64_t samples;   /* samples of this class (a column: summed over its phases) */
};

/* Does phase p's user bucket have a split (samples outside syscalls, syscall probes)? */
int wall_user_split_known(const struct phase_result *p);
/* Part `cls` (< CC_OUTSIDE) of phase p's user bucket (not known: no split). */
void wall_user_part_of(const struct phase_result *p, int cls, struct user_part *out);
/* Part `cls` (< CC_OUTSIDE) of the user bucket over the phases idx[0..n): trimmed means of the
 * estimate and its error (a single run's error: the mean's is no larger), samples summed. Not
 * known when any of the phases has no split (or n == 0). */
void wall_user_part(const struct session_result *s, const int *idx, int n, int cls,
		    struct user_part *out);
/* Whether a part is to be printed with its error: fewer than CS_FEW samples (0 included). */
int user_part_few(const struct user_part *u);

/* ---- FUSE waits in the wait buckets ---- */

#define FUSE_PART_LABEL 96
#define FUSE_PARTS_MAX 8    /* per phase; further (mount, opcode) pairs are left out */

struct fuse_part {
	char label[FUSE_PART_LABEL];  /* "waiting on FUSE (/mnt/x, WRITE)" (a long mount: its end) */
	char mount[160];              /* the mount point, or "conn M:N" when it is unknown */
	char op[24];                  /* "WRITE", ... */
	int bucket;                   /* WB_OTHER or WB_IOWAIT */
	double ns;                    /* wall time */
};

/*
 * The workload's waits on FUSE requests of phase p in its wall view's wait buckets, longest first;
 * returns how many (at most max, only those > 0). The FUSE probes time each synchronous request
 * of the workload from send to end (task time, per mount and opcode); the sender sleeps
 * interruptibly (S: other wait) unless the daemon declined interrupts (then killable, D: I/O wait
 * with no disk in flight). The total wait goes into other wait up to that bucket, the rest into
 * the I/O wait with no disk in flight up to that; each (mount, opcode) gets its share of both.
 * Waits of several tasks at once count once on the wall, so the parts never exceed the buckets.
 */
int wall_fuse_parts(const struct phase_result *p, struct fuse_part *out, int max);
/* The distinct (label, bucket) parts of the phases idx[0..n) of `ncols` columns (idx[c], n[c]),
 * longest first by their largest value; returns how many (at most max). */
int wall_fuse_keys(const struct session_result *s, const int *const *idx, const int *n, int ncols,
		   struct fuse_part *keys, int max);
/* The trimmed mean over the phases idx[0..n) of the part matching key (label and bucket; 0 in a
 * phase without it). */
double wall_fuse_part_mean(const struct session_result *s, const int *idx, int n,
			   const struct fuse_part *key);

#endif
