/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iowhy hunt PATH|DEVICE: an active, read-only investigation of a storage stack. Discovers the
 * device stack, reads each member alone with O_DIRECT through io_uring at a few queue depths
 * (random 4k and sequential 1M), then all members together, finds the queue-depth knees and
 * prints a member table with a verdict (verdicts.h). Never opens a device for writing.
 */
#ifndef IOWHY_HUNT_H
#define IOWHY_HUNT_H

/* argv[0] is "hunt"; returns iowhy's exit status (2 for bad input or a stack it cannot map). */
int cmd_hunt(int argc, char **argv);

#endif
