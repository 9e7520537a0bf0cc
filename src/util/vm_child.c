// SPDX-License-Identifier: GPL-2.0
/* A child that shares iowhy's memory until it execs or exits; see vm_child.h. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/sched.h>
#include "vm_child.h"

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* execvp's PATH search and a script's fallback to sh build their names on the stack */
#define VM_CHILD_STACK (256 * 1024)

#if defined(__x86_64__)
/*
 * long vm_clone3(struct clone_args *args, size_t size, int (*fn)(void *), void *arg): clone3, the
 * child calling fn(arg) on the stack the args give and exiting with its value; the parent gets
 * the pid or -errno. libc has no clone3 wrapper that runs a function (clone() cannot take
 * CLONE_INTO_CGROUP, a flag above bit 31). fn and arg wait in r9 and r8, which the syscall keeps.
 */
long vm_clone3(struct clone_args *args, size_t size, int (*fn)(void *), void *arg);
__asm__(".text\n"
	".globl vm_clone3\n"
	".type vm_clone3, @function\n"
	"vm_clone3:\n"
	"	mov %rcx, %r8\n"
	"	mov %rdx, %r9\n"
	"	mov $435, %eax\n" /* __NR_clone3 */
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jz 1f\n"
	"	ret\n"
	"1:	xor %ebp, %ebp\n" /* the child: the outermost frame, on its own stack */
	"	and $-16, %rsp\n"
	"	mov %r8, %rdi\n"
	"	call *%r9\n"
	"	mov %rax, %rdi\n"
	"	mov $60, %eax\n" /* __NR_exit */
	"	syscall\n"
	"	hlt\n"
	".size vm_clone3, . - vm_clone3\n");
#endif

/* The child made in the cgroup whose directory is open as cgroup_fd (clone3, CLONE_INTO_CGROUP):
 * > 0, or 0 where that cannot be done here (another architecture, a kernel before 5.7, a
 * refusal, IOWHY_TEST_NO_CLONE3=1), and the caller clones as before. */
static pid_t clone_into(struct vm_child *c, int (*fn)(void *), void *arg, int cgroup_fd)
{
#if defined(__x86_64__)
	struct clone_args a;
	long pid;

	if (cgroup_fd < 0 || getenv("IOWHY_TEST_NO_CLONE3"))
		return 0;
	memset(&a, 0, sizeof(a));
	a.flags = CLONE_VM | CLONE_INTO_CGROUP;
	a.exit_signal = SIGCHLD;
	a.stack = (__u64)(uintptr_t)c->stack;
	a.stack_size = c->size;
	a.cgroup = (__u64)cgroup_fd;
	pid = vm_clone3(&a, sizeof(a), fn, arg);
	return pid > 0 ? (pid_t)pid : 0;
#else
	(void)c, (void)fn, (void)arg, (void)cgroup_fd;
	return 0;
#endif
}

pid_t vm_child_start(struct vm_child *c, int (*fn)(void *), void *arg)
{
	return vm_child_start_in(c, fn, arg, -1, NULL);
}

pid_t vm_child_start_in(struct vm_child *c, int (*fn)(void *), void *arg, int cgroup_fd,
			int *placed)
{
	pid_t pid;
	int err;

	if (placed)
		*placed = 0;
	c->size = VM_CHILD_STACK;
	c->stack = mmap(NULL, c->size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
	if (c->stack == MAP_FAILED) {
		c->stack = NULL;
		return -1;
	}
	pid = clone_into(c, fn, arg, cgroup_fd);
	if (pid > 0) {
		if (placed)
			*placed = 1;
		return pid;
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
