/* SPDX-License-Identifier: GPL-2.0 */
/* Events of bpf/slow.bpf.c (iowhy attach --slow): what the kernel did while a call was slow. */
#ifndef IOWHY_SLOW_H
#define IOWHY_SLOW_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

enum slow_ev_type {
	SLOW_EV_BDP = 1,      /* a tree task was throttled in balance_dirty_pages: arg = pause ns */
	SLOW_EV_COMMIT_START, /* a jbd2 commit started on device arg (kernel dev_t) */
	SLOW_EV_COMMIT_END,   /* and ended */
	SLOW_EV_WAIT,         /* a tree task inside a syscall slept from ts for arg ns in kernel
			       * stack `stack` (flags: SLOW_WF_D) */
	SLOW_EV_WB_START,     /* writeback of inode arg on device dev started (tid: who writes) */
	SLOW_EV_WB_END,       /* and ended */
};

#define SLOW_WF_D 0x1         /* uninterruptible (D), not TASK_IDLE */

#define SLOW_WAIT_STACKS 4096 /* kernel stacks of sleeps kept (distinct) */
#define SLOW_STACK_DEPTH 32   /* frames kept per stack */

struct slow_ev {
	__u64 ts;
	__u64 arg;
	__u32 tid;
	__u32 type;
	__s32 stack;          /* SLOW_EV_WAIT: id in wait_stacks, or -1 */
	__u32 dev;            /* SLOW_EV_WB_*: the inode's s_dev (kernel encoding); WAIT: flags */
};

#endif
