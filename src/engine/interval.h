/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live intervals (--interval S, --json-lines FILE, --prometheus FILE) and slow calls (--slow MS):
 * every S seconds while a phase runs, one compact block (text: redrawn in place on a terminal,
 * appended with a timestamp otherwise), one JSON line, one rewrite of the Prometheus textfile. The
 * last, shorter interval ends with the phase, so the intervals add up to the phase's wall.
 */
#ifndef IOWHY_INTERVAL_H
#define IOWHY_INTERVAL_H

#include <stdint.h>
#include "iowhy.h"
#include "interval_data.h"
#include "session.h"

struct interval_out;
struct session;
struct model;
struct phase_result;

/* Open the outputs (NULL when no interval option is set, or on error: *err 2 after one line). */
struct interval_out *interval_open(const char *tool, const struct common_opts *o, int *err);
struct core_probes;
struct missing_probes;
/* --slow: load the probes of the kernel's side of slow calls (after the core probes). */
void interval_load_probes(struct interval_out *iv, struct core_probes *core);
/* Their probes that are not attached, with why. */
void interval_missing(const struct interval_out *iv, struct missing_probes *out);
/* A phase starts: its model, its start, what it traces, its phase tag (for the device tables). */
void interval_begin(struct interval_out *iv, struct session *s, struct model *m, uint64_t start,
		    const char *target, int tag, int lite);
/* -a / --cgroup: the busiest processes of each interval (fills at most max, returns how many). */
void interval_set_procs(struct interval_out *iv,
			int (*fn)(void *ctx, struct iv_proc *out, int max), void *ctx);
/*
 * -a / --cgroup: the cgroups of each interval: fn fills the sample's cgroups (the busiest of the
 * interval) and cg_total (the busiest since the start, then "other").
 */
void interval_set_cgroups(struct interval_out *iv,
			  void (*fn)(void *ctx, struct interval_sample *s), void *ctx);
/* Every event the phase model takes (syscalls one by one: the slowest, --slow). */
void interval_event(struct interval_out *iv, const struct iowhy_event *e, const char *comm);
/* Called in the drain loop: a block when one is due. */
void interval_poll(struct interval_out *iv, uint64_t now);
/* The phase ended and its model is finished: the last block; the slow calls go to r. */
void interval_end(struct interval_out *iv, struct phase_result *r);
/* Close the outputs. 0, or -1 if one could not be written (message printed). */
int interval_close(struct interval_out *iv);

#endif
