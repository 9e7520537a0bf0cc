/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's cgroup: every process the workload starts, however it daemonizes or regroups,
 * can be signalled and killed as a whole; and a guard process kills it if iowhy itself dies
 * (SIGKILL included), so no descendant outlives the session.
 */
#ifndef IOWHY_WORKLOAD_GROUP_H
#define IOWHY_WORKLOAD_GROUP_H

#include <sys/types.h>

struct wgroup {
	char path[512];      /* the cgroup v2 directory, "" without one */
	char home[512];      /* iowhy's own cgroup v2 directory (leftovers go back there) */
	int has_kill;        /* cgroup.kill exists (Linux >= 5.14) */
	int dir_fd;          /* the cgroup's directory, open (-1: none), for clone3 into it */
	int guard_wr;        /* write end of the guard's pipe (-1: no guard) */
	pid_t guard;
};

/*
 * Make the cgroup (a child of iowhy's own cgroup v2, else of the hierarchy's root) and start the
 * guard. Without cgroup v2 the workload is killed by process group only: says so in one line.
 * The guard closes every fd but its pipe: it holds none of iowhy's probes or files.
 */
void wgroup_open(struct wgroup *g);
/* Move pid (the gated child, before it is released) into the cgroup. 0, or -1. A move waits for
 * an RCU grace period (~15 ms on a VM): a child made in the cgroup (vm_child_start_in with
 * dir_fd) needs none. */
int wgroup_add(struct wgroup *g, pid_t pid);
/* Send sig to every process in the cgroup (SIGKILL: cgroup.kill when there is one). */
void wgroup_signal(struct wgroup *g, int sig);
/* Processes still in the cgroup (0 without one). */
int wgroup_count(struct wgroup *g);
/*
 * End of the session: tell the guard all is well, move processes the workload left running back to
 * iowhy's own cgroup (they are not killed unless `kill_rest`), remove the cgroup.
 */
void wgroup_close(struct wgroup *g, int kill_rest);

#endif
