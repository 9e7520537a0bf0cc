/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iowhy attach: trace tasks that already run instead of starting a workload. Targets: processes
 * (-p: all their threads and everything they start from now on), a cgroup directory (v2, or a v1
 * hierarchy's: its tasks, their children, and tasks that join it later) or the whole machine (-a:
 * every task but iowhy's). Each task is seeded into the tree in the state it is in (by a BPF task
 * iterator, collect/seed_iter.h; from /proc where the kernel refuses one), so the wall view is
 * closed from the first instant. The window ends after --duration, on Ctrl-C or
 * SIGTERM (the normal end: exit 0), or when a -p target exits (noted in the report).
 */
#ifndef IOWHY_ATTACH_H
#define IOWHY_ATTACH_H

#include <stdint.h>
#include <sys/types.h>
#include "session.h"

#define ATTACH_MAX_PIDS 64

enum attach_kind { ATTACH_NONE, ATTACH_PIDS, ATTACH_CGROUP, ATTACH_ALL };

struct attach_target {
	enum attach_kind kind;
	pid_t pids[ATTACH_MAX_PIDS];  /* -p */
	int npids;
	const char *cgroup;           /* --cgroup PATH as given */
	uint64_t duration_ns;         /* --duration D; 0: until Ctrl-C */
	int lite;                     /* --lite: no syscall probes */
};

/*
 * Check the targets (one line and 2 for a bad one: no such process, a kernel thread, iowhy
 * itself, a cgroup directory that does not exist), then trace them in one phase and report like
 * run. Returns iowhy's exit status.
 */
int attach_main(const struct attach_target *t, const struct common_opts *co, const char *command);

struct session;
struct phase_spec;
struct phase_result;
/* The attach phase (session.c calls it for a phase_spec with .attach). 0; 2 after one line
 * when a target is bad or vanished during attach (nothing stays attached); -1 on other errors. */
int attach_run_phase(struct session *s, const struct phase_spec *ps, int idx,
		     struct phase_result *r);

#endif
