// SPDX-License-Identifier: GPL-2.0
/* A child that shares iowhy's memory until it execs or exits; see vm_child.h. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include "vm_child.h"

/* execvp's PATH search and a script's fallback to sh build their names on the stack */
#define VM_CHILD_STACK (256 * 1024)

pid_t vm_child_start(struct vm_child *c, int (*fn)(void *), void *arg)
{
	pid_t pid;
	int err;

	c->size = VM_CHILD_STACK;
	c->stack = mmap(NULL, c->size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
	if (c->stack == MAP_FAILED) {
		c->stack = NULL;
		return -1;
	}
	/* the stack grows down from its end; SIGCHLD: reaped with waitpid like a fork's child */
	pid = clone(fn, (char *)c->stack + c->size, CLONE_VM | SIGCHLD, arg);
	if (pid < 0) {
		err = errno;
		vm_child_free(c);
		errno = err;
	}
	return pid;
}

void vm_child_free(struct vm_child *c)
{
	if (c->stack)
		munmap(c->stack, c->size);
	c->stack = NULL;
}
