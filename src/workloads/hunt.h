/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iowhy hunt PATH|DEVICE: an active, read-only investigation of a storage stack. Discovers the
 * device stack, reads each member alone with O_DIRECT through io_uring at a few queue depths
 * (random 4k and sequential 1M), then all members together, finds the queue-depth knees and
 * prints a member table with a verdict (verdicts.h). Never opens a device for writing.
 */
#ifndef IOWHY_HUNT_H
#define IOWHY_HUNT_H

#include "options.h"

/* argv[0] is "hunt"; returns iowhy's exit status (2 for bad input or a stack it cannot map). */
int cmd_hunt(int argc, char **argv);
/* hunt's option table (options.h), for the option tests and the completion check. */
extern const struct cmd_def hunt_cmd;

#define HUNT_MAX_DEPTHS 8

/* What the command line asks of a hunt. */
struct hunt_opts {
	const char *target;         /* PATH or DEVICE */
	double step_s;              /* --time: seconds per step */
	int depth[HUNT_MAX_DEPTHS], ndepth; /* --depths */
	const char *json_path;      /* --json FILE */
	int stack_only;             /* --stack */
	const char *write_path;     /* --write FILE */
	unsigned long long write_mib; /* --write-size */
};

/* Parse `hunt` arguments (argv[0] is "hunt"): options.h's 0, 1 or 2. */
int hunt_parse(int argc, char **argv, struct hunt_opts *o);

#endif
