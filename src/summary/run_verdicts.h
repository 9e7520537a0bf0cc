/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Passive verdicts for an ordinary run: the verdict rules (verdicts.h) fed with the numbers the
 * run's report already has, per device, summed over the session's phases.
 *
 * The members are the file system's own devices of a device stack with several of them (btrfs
 * over three loop devices), else the disks the workload's own I/O touched that are not a lower
 * level of a stack (vda under loop0 is not a peer of loop0): those are independent, never
 * compared with each other. With fewer than two there is nothing to compare and no verdict.
 *
 * A FUSE daemon's verdict needs no members: run_fuse_verdicts looks at each daemon's time on a
 * CPU while the workload had requests in flight, against the workload's wait on them.
 */
#ifndef IOWHY_RUN_VERDICTS_H
#define IOWHY_RUN_VERDICTS_H

#include "verdicts.h"

struct session_result;
struct session_summary;

/* Fill in from the session and its summary (disks, stacks: summary_compute fills them first).
 * Returns the number of members (< 2: no verdict to compute). */
int run_verdict_input(const struct session_result *s, const struct session_summary *sum,
		      struct vd_input *in);

/* The fuse-daemon-cpu verdicts of a run, appended to out[n..max): a daemon on a CPU (process
 * view: any of its threads), or waiting for one, for at least VD_FUSE_CPU_SHARE of the time the
 * workload waited on FUSE requests (the sum of its synchronous requests' send-to-end times), and
 * on a CPU for at least half of that share, over the phases.
 * Returns the new count. */
int run_fuse_verdicts(const struct session_result *s, struct verdict *out, int n, int max);

#endif
