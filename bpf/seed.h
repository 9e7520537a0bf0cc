/* SPDX-License-Identifier: GPL-2.0 */
/* What the task iterator of bpf/seed.bpf.c writes for each task it made a tree member. */
#ifndef IOWHY_SEED_H
#define IOWHY_SEED_H

#include "iowhy.h"

struct seed_rec {
	__u32 tid, tgid;
	__u16 nr;       /* the syscall it sleeps in (orig_ax), IOWHY_NR_NONE if none or on a CPU */
	__u8 state;     /* enum iowhy_state: USER (on a CPU), RUNQ, DWAIT, SWAIT */
	__u8 kthread;   /* PF_KTHREAD */
	char comm[IOWHY_COMM_LEN];
	__u64 ts;       /* when its tree state was written (CLOCK_MONOTONIC) */
};

#endif
