/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by the CPU sampler (sample.bpf.c) and user space (sampler.c).
 * Plain fixed-size types only: this header is included by both sides.
 */
#ifndef IOWHY_SAMPLE_H
#define IOWHY_SAMPLE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "iowhy.h"

#define IOWHY_SAMPLE_KEYS 16384     /* distinct aggregation keys held at once */
#define IOWHY_STACKS 16384          /* stack map entries (kernel and user maps each) */
#define IOWHY_KSTACK_DEPTH 64       /* kernel frames kept per stack */
#define IOWHY_USTACK_DEPTH 32       /* user frames kept per stack (build-id form: 32 bytes each) */

#define IOWHY_SF_KERNEL 0x1         /* the CPU was in kernel mode */
#define IOWHY_SF_SYSCALL 0x2        /* the task was between sys_enter and sys_exit */
#define IOWHY_SF_REGS_NR 0x4        /* --lite, kernel mode: nr read from the user registers */

/* What one group of samples has in common; the value is the number of samples. */
struct iowhy_sample_key {
	__s32 kstack;                /* id in kstacks, or -1 (user mode, or the stack was lost) */
	__s32 ustack;                /* id in ustacks, or -1 */
	__u16 nr;                    /* syscall in effect, IOWHY_NR_NONE outside (but see
				      * IOWHY_SF_REGS_NR) */
	__u8 phase;
	__u8 flags;                  /* IOWHY_SF_* */
	char comm[IOWHY_COMM_LEN];
};

/* Per phase tag, per CPU: what was sampled and what could not be recorded. */
struct iowhy_sample_counters {
	__u64 samples;               /* samples of tree tasks (recorded or not) */
	__u64 kstack_lost;           /* kernel stack not stored (bucket collision, error) */
	__u64 ustack_lost;           /* user stack could not be stored */
	__u64 key_lost;              /* aggregation map full: sample dropped */
	__u64 outside;               /* samples outside the syscall tracepoints (--lite: all) */
	__u64 user_outside;          /* of those, in user mode: user code (live intervals' split) */
};

/* The files tree tasks exec'd (interpreter path for scripts), for user symbols by build id. */
#define IOWHY_EXEC_FILES 1024
#define IOWHY_PATH_LEN 256

struct iowhy_exec_key {
	__u32 dev;                   /* the file's s_dev (kernel encoding: major << 20 | minor) */
	__u32 pad;
	__u64 ino;
	char path[IOWHY_PATH_LEN];   /* as given to execve: may be relative to the caller's cwd */
};

/* Off-CPU: a tree task's uninterruptible sleeps, summed per (phase, comm, kernel stack). */
#define IOWHY_OFF_KEYS 8192
#define IOWHY_OFF_PENDING 65536    /* tasks asleep at once */

struct iowhy_off_key {
	__s32 kstack;                /* id in offstacks, or -1 */
	__u8 phase;
	__u8 pad[3];
	char comm[IOWHY_COMM_LEN];
};

struct iowhy_off_val {
	__u64 count;                 /* sleeps */
	__u64 ns;                    /* switch-out to switch-in */
};

/* A sleep in progress, by tid. */
struct iowhy_off_pending {
	__u64 ts;
	struct iowhy_off_key key;
};

/* Per phase tag, per CPU. */
struct iowhy_off_counters {
	__u64 sleeps;                /* switch-outs into D of tree tasks */
	__u64 stack_lost;            /* kernel stack could not be stored */
	__u64 pending_lost;          /* too many tasks asleep at once: sleep not timed */
	__u64 key_lost;              /* aggregation map full: sleep dropped */
	/* tp_btf: D time (and sleeps) of tree tasks not yet given a stack: a task's sleeps since its
	 * last captured one, below the sampling period (signed per CPU: a capture on one CPU takes
	 * back what sleeps on another held; the sum over CPUs is what is still held) */
	__s64 held_ns;
	__s64 held_n;
	__u64 walks;                 /* tp_btf: stacks walked (at most one a period of D time, and
				      * within the CPU's walk budget) */
};
/* A kernel stack (innermost frame first, zeros past its end): the samples' stacks by bucket, the
 * off-CPU path's (tp_btf, bpf_get_task_stack) under a hash of its frames. */
struct iowhy_kstack {
	__u64 ip[IOWHY_KSTACK_DEPTH];
};
/* A user stack as (build id, file offset) frames, BPF_STACK_BUILD_ID_EMPTY past its end. */
struct iowhy_ustack {
	struct bpf_stack_build_id f[IOWHY_USTACK_DEPTH];
};

#endif
