/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Passive verdicts for an ordinary run: the verdict rules (verdicts.h) fed with the numbers the
 * run's report already has, per device, summed over the session's phases.
 *
 * The members are the file system's own devices of a device stack with several of them (btrfs
 * over three loop devices), else the disks the workload's own I/O touched that are not a lower
 * level of a stack (vda under loop0 is not a peer of loop0). With fewer than two there is
 * nothing to compare and no verdict.
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

#endif
