/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A child process that shares iowhy's memory until it execs or exits (clone(CLONE_VM), as
 * posix_spawn makes one), for the short-lived children iowhy starts once its probes are loaded:
 * the traced calibration's and a command's before its exec.
 *
 * Why: a fork copies the page tables of a process of ~45 MiB and makes every private page of the
 * parent copy-on-write; on a VM where a page fault costs ~16 µs the parent then pays for each
 * first write to its own memory. A CLONE_VM child copies nothing.
 *
 * The rules for fn (the child runs on a stack of its own, in the parent's memory and with a copy
 * of its file descriptors):
 *   - system calls through libc's thin wrappers only (read, write, close, prctl, sigaction,
 *     execv, _exit, syscall); never malloc, stdio (dprintf to an fd is fine), or libc's setuid
 *     family (they signal the parent's threads: use raw setres[ug]id / setgroups);
 *   - a failing call writes the parent's errno (they share the thread's TLS): read errno at once;
 *   - return (the child then exits with that status) or _exit / exec.
 *
 *   struct vm_child c;
 *   pid_t pid = vm_child_start(&c, fn, arg);   -1 and errno if it could not start
 *   ... waitpid(pid, ...) ...
 *   vm_child_free(&c);                         only once the child has exec'd or been reaped
 */
#ifndef IOWHY_VM_CHILD_H
#define IOWHY_VM_CHILD_H

#include <stddef.h>
#include <sys/types.h>

struct vm_child {
	void *stack;
	size_t size;
};

pid_t vm_child_start(struct vm_child *c, int (*fn)(void *), void *arg);
/* The same, made in the cgroup whose directory is open as cgroup_fd (-1: none) where the kernel
 * can (clone3's CLONE_INTO_CGROUP, x86-64): *placed is then 1. Moving a process into a cgroup
 * afterwards (cgroup.procs) waits for an RCU grace period, ~15 ms on a VM; a child made there
 * waits for nothing. *placed 0: the child is where the caller is. */
pid_t vm_child_start_in(struct vm_child *c, int (*fn)(void *), void *arg, int cgroup_fd,
			int *placed);
void vm_child_free(struct vm_child *c);

#endif
