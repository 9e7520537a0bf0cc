/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iowhy attach -a / --cgroup: one view per cgroup (the cgroup v2 path each process is in when
 * first seen, /proc/PID/cgroup's "0::" line): a model of its own that its processes' events go
 * to, so its wall view is the highest-priority state of any of its tasks at each instant, like the
 * phase's. A process that moves to another cgroup during the window stays in its first one.
 */
#ifndef IOWHY_ATTACH_CGROUPS_H
#define IOWHY_ATTACH_CGROUPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "model.h"
#include "result.h"
#include "interval_data.h"

#define CG_VIEWS_MAX 512   /* cgroups with a view; processes of others count as untracked */

struct cg_views;

/* Empty set. NULL: out of memory. */
struct cg_views *cg_views_new(void);
/* The view of the cgroup process tgid is in now (created starting at `start`; a process counted
 * in it), or -1: its /proc entry is gone, it has no cgroup v2 line, or the table is full. */
int cg_views_of(struct cg_views *c, pid_t tgid, uint64_t start);
/* The same for a cgroup index known otherwise (a child that exited before it was looked at: its
 * parent's), counting the process in it. */
void cg_views_count(struct cg_views *c, int idx);
/* The model of view idx. */
struct model *cg_views_model(struct cg_views *c, int idx);
/* Processes that got no view (table full). */
uint64_t cg_views_untracked(const struct cg_views *c);
/*
 * Close every view at `end` and turn them into rows, busiest first (on CPU + run queue + I/O wait),
 * with the bytes of procs (rows with .cgroup set: renumbered to the rows' order). *out: owned by
 * the caller (NULL, 0 with no view or out of memory).
 */
void cg_views_finish(struct cg_views *c, uint64_t end, struct proc_row *procs, size_t nprocs,
		     int lite, struct cgroup_row **out, size_t *n);
void cg_views_free(struct cg_views *c);

/* --interval: the bytes of each view's processes so far, summed anew each interval: clear, then
 * add each process's counts to its view. */
void cg_views_clear_bytes(struct cg_views *c);
void cg_views_add_bytes(struct cg_views *c, int idx, uint64_t r, uint64_t w);
/*
 * --interval: every view advanced to `now`; s->cgroups gets the busiest of the interval (on CPU +
 * run queue + I/O wait, then bytes; those with neither left out), s->cg_total the busiest since
 * the start followed by one "other" row summing the rest. Bytes are all ones under --lite.
 */
void cg_views_interval(struct cg_views *c, uint64_t now, int lite, struct interval_sample *s);

/* The cgroup v2 path of process pid ("0::PATH" in /proc/PID/cgroup) into buf. 0, or -1. */
int cgroup2_path_of(pid_t pid, char *buf, size_t n);

#endif
