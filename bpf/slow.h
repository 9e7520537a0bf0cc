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
};

struct slow_ev {
	__u64 ts;
	__u64 arg;
	__u32 tid;
	__u32 type;
};

#endif
