/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Session summaries the reporters and the explanation share: grouping phases into side-by-side
 * columns, averaging a number over a column's runs, ranking a phase's syscalls.
 */
#ifndef IOWHY_COLUMNS_H
#define IOWHY_COLUMNS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"
#include "stats.h"
#include "text.h"


/* The phases of one side-by-side column: its work phases (more than one: repeated runs) and its
 * flush phases, as indexes into session_result.phases, in session order. */
struct column {
	char name[48];        /* the phases' column, or the phase name when it has none */
	int work[SESSION_MAX_PHASES], nwork;
	int flush[SESSION_MAX_PHASES], nflush;
};

/* Columns of the session in order of first appearance; returns how many (at most maxcols).
 * Phases past SESSION_MAX_PHASES per column and kind are not included. */
int session_columns(const struct session_result *s, struct column *cols, int maxcols);

/* A number read from one phase; `arg` selects the bucket, group or syscall. */
typedef double (*phase_value_fn)(const struct phase_result *p, int arg);

double pv_wall(const struct phase_result *p, int unused);
double pv_bucket(const struct phase_result *p, int bucket);          /* enum wall_bucket */
double pv_group(const struct phase_result *p, int group);            /* enum sys_group */
double pv_unattributed(const struct phase_result *p, int unused);
/* attach --lite: the on-CPU time's parts by CPU samples (an estimate; 0 without samples). */
enum pv_lite_part { PVL_USER, PVL_KERNEL, PVL_SYSCALLS, PVL_FAULTS, PVL_IRQ, PVL_KOTHER };
double pv_lite(const struct phase_result *p, int part);              /* enum pv_lite_part */
double pv_sys_count(const struct phase_result *p, int nr);
double pv_sys_total(const struct phase_result *p, int nr);
double pv_sys_oncpu(const struct phase_result *p, int nr);
/* wall.by_nr[bucket][nr], with arg = BY_NR_ARG(bucket, nr); nr may be MODEL_NR_NONE. */
#define BY_NR_ARG(bucket, nr) ((bucket) * (IOWHY_NR_SLOTS + 1) + (int)(nr))
double pv_by_nr(const struct phase_result *p, int arg);

/* Trimmed mean of get(phase, arg) over the phases listed in idx[0..n); 0 when n == 0. */
double phases_mean(const struct session_result *s, const int *idx, int n, phase_value_fn get,
		   int arg);
/* Summary of get(phase, arg) over the listed phases; returns -1 when n == 0. */
int phases_summary(const struct session_result *s, const int *idx, int n, phase_value_fn get,
		   int arg, struct summary *out);
/* The listed phase whose wall time is closest to their median (the representative run); -1 if
 * n == 0. */
int phases_median_run(const struct session_result *s, const int *idx, int n);

/* Syscall slots of p with any count or time, by total time (largest first, then by number).
 * `nrs` must hold IOWHY_NR_SLOTS entries. Returns how many. */
int phase_syscalls_by_total(const struct phase_result *p, unsigned *nrs);

#endif
