/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's contract with a workload: a phase. iowhy forks one gated child per phase; the child
 * waits until every probe is attached, then runs `fn(arg)` (a built-in workload) or execs `argv`
 * (iowhy run). Everything the child and its descendants do is the phase's workload; nothing else is.
 * Workloads include this header, session.h and options.h (the command line), nothing else of the
 * engine.
 */
#ifndef IOWHY_PHASE_H
#define IOWHY_PHASE_H

#include <sys/types.h>
#include "facts.h"

/* A directory a phase works in, held open: the fd and the device and inode it had when opened. */
struct phase_dir {
	int fd;
	dev_t dev;
	ino_t ino;
};

struct attach_target;

struct phase_spec {
	char name[48];        /* unique: "loop", "loop/flush", "bs=4k" */
	char column[32];      /* side-by-side column this phase belongs to: "loop" */
	enum phase_kind kind;
	const char *comm;     /* name the gated child takes before release (prctl), or NULL */
	/* Built-in: runs in the child after release; returns the exit status (0 ok). The child may
	 * fill *facts. */
	int (*fn)(void *arg, struct phase_facts *facts);
	void *arg;
	/* External: exec'd in the child after release when fn is NULL. */
	char **argv;
	/* Optional, in the parent before the phase is forked (untraced): prepare (mkdir, drop caches).
	 * Non-zero return aborts the session with that status after printing its message. */
	int (*before)(void *arg);
	/* Optional, in the parent after the phase (untraced): verify / clean; may add facts. */
	int (*after)(void *arg, struct phase_facts *facts);
	/* Optional: the working directory of `before`, the phase and `after` (fchdir to dir->fd,
	 * checked by device and inode; the parent returns to its own afterwards). Relative names the
	 * workload uses resolve there, whatever happens to the directory's name meanwhile. */
	const struct phase_dir *cwd;
	/* Optional (run -u): the workload runs as this user: its uid, gid and groups (initgroups),
	 * HOME, USER and LOGNAME; iowhy and the probes stay root. */
	const char *user;
	/* Optional (iowhy attach): no child; the phase traces tasks that already run (attach.h). */
	const struct attach_target *attach;
	int attach_note;      /* attach: one line on stderr when the window starts */
};

#endif
