/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structures shared by the FUSE probes (bpf/fuse.bpf.c) and user space (src/collect/fuse_probes.c).
 * Plain fixed-size types only: this header is included by both sides.
 */
#ifndef IOWHY_FUSE_H
#define IOWHY_FUSE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define FUSE_NO_PHASE 0xff      /* no window open */
#define FUSE_MAX_PHASES 16      /* as IOWHY_MAX_PHASES */
#define FUSE_LAT_SLOTS 544      /* log-linear ns buckets, 16 per power of two (fuse_lat_slot) */
#define FUSE_OP_FOLD 63         /* opcodes >= this (CUSE_INIT) fold into it */
#define FUSE_IN_HDR 40          /* sizeof(struct fuse_in_header) */
#define FUSE_OUT_HDR 16         /* sizeof(struct fuse_out_header) */
#define FUSE_IN_UNIQUE 8        /* offset of fuse_in_header.unique */
#define FUSE_WRITE_IN 40        /* sizeof(struct fuse_write_in) (protocol >= 7.9) */
#define FUSE_OP_READ 15
#define FUSE_OP_WRITE 16

/* Who a request is charged to. */
enum fuse_who {
	FUSE_WHO_TREE = 0,   /* sent by a workload tree task */
	FUSE_WHO_WB,         /* sent by a flusher writing back an inode the tree dirtied */
	FUSE_WHO_OTHER,      /* anything else sent while the window was open */
	FUSE_WHO_COUNT,
};

/* Daemon accounting classes: what a daemon thread was doing. */
enum fuse_dcls {
	FUSE_D_CPU = 0,      /* on CPU */
	FUSE_D_RUNQ,         /* runnable, waiting for a CPU */
	FUSE_D_DISK,         /* uninterruptible with in_iowait: disk I/O */
	FUSE_D_NET,          /* asleep in a socket syscall, or in read/write/... on a socket */
	FUSE_D_IDLE,         /* asleep reading /dev/fuse: waiting for requests */
	FUSE_D_OTHER,        /* any other sleep (nanosleep, locks, pipes, poll ...) */
	FUSE_D_COUNT,
};

struct fuse_key {
	__u32 conn;          /* the connection: the mount's st_dev (kernel dev_t encoding) */
	__u16 op;            /* opcode, folded at FUSE_OP_FOLD */
	__u8 phase;
	__u8 who;            /* enum fuse_who */
};

/* Per (connection, opcode, phase, who), per CPU. */
struct fuse_stat {
	__u64 count;         /* requests that ended */
	__u64 errors;        /* ... with a non-zero error (aborted ones too) */
	__u64 in_bytes;      /* request payload: len - header (WRITE: minus fuse_write_in: data) */
	__u64 out_bytes;     /* reply payload: len - header (READ: the data) */
	__u64 lat_ns;        /* sum of send -> end */
	__u64 max_ns;
	__u64 wait_ns;       /* sum of send -> end of synchronous requests: the sender waited */
	__u64 waits;         /* synchronous requests */
	__u64 replied;       /* answered by a daemon (not aborted) */
	__u64 paired;        /* ... by the thread that read it: its time charged per request */
	__u64 dreq_ns[FUSE_D_COUNT]; /* that thread's time from its read to the reply, by class */
	__u32 hist[FUSE_LAT_SLOTS];
};

/* A request between send and end. */
struct fuse_inflight_key {
	__u64 unique;
	__u32 conn;
	__u32 pad;
};

struct fuse_inflight {
	__u64 t_send;
	__u32 len;           /* in.h.len */
	__u16 op;
	__u8 phase;
	__u8 who;
	__u8 sync;           /* not FR_BACKGROUND: the sender sleeps until the end */
	__u8 pad[3];
	__u32 tgid;          /* the sender's process (a workload request: its row in tstats) */
};

/* The daemon time charged per request to one workload process that sent requests, per phase. */
struct fuse_tkey {
	__u32 tgid;
	__u32 phase;
};

struct fuse_tstat {
	__u64 replied;       /* its requests answered by a daemon (not aborted) */
	__u64 paired;        /* ... by the thread that read them */
	__u64 dreq_ns[FUSE_D_COUNT]; /* those threads' time from each read to its reply */
	char comm[16];       /* the sender's, set at its first request on a CPU */
};

/* A process known to serve a FUSE connection. */
struct fuse_daemon {
	__u32 conn;          /* 0 until a request ends in one of its threads */
	__u32 replies;       /* requests whose end ran in it (it wrote their reply) */
	__u32 parent;        /* a helper (e.g. sshfs's ssh): the daemon it is a child of; else 0 */
	__u32 pad;
	char comm[16];
};

/* Per (daemon tgid, phase): time in each class, all of it and the part that overlapped the
 * workload's FUSE requests in flight. */
struct fuse_dkey {
	__u32 tgid;
	__u32 phase;
};

struct fuse_dstat {
	__u64 total_ns[FUSE_D_COUNT];
	__u64 overlap_ns[FUSE_D_COUNT];
	__u64 wall_ns[FUSE_D_COUNT];         /* process view: the highest class of its threads */
	__u64 wall_overlap_ns[FUSE_D_COUNT]; /* ... while the workload had requests in flight */
	__u64 replies;       /* requests it answered in the phase */
	__u64 net_tx;        /* bytes its syscalls sent on sockets */
	__u64 net_rx;        /* bytes its syscalls received from sockets */
	__u64 wreplies;      /* replies to the workload's (and its writeback's) requests */
	__u64 paired;        /* ... written by the thread that read the request */
	__u64 handoff;       /* ... written by a thread that did not read it (charged by overlap) */
	__u64 req_ns[FUSE_D_COUNT]; /* the paired ones: thread time from read to reply, by class */
};

/*
 * Per daemon process: how many of its threads are in each class now, and when its process-level
 * state last changed. The process is in the first class, in the order CPU, run queue, disk I/O
 * wait, network wait, other wait, waiting for requests, that has a thread in it.
 */
struct fuse_dproc {
	__u64 since;
	__u64 busy_at_since;
	__s32 n[FUSE_D_COUNT];
	__u32 pad;
	__u64 cum[FUSE_D_COUNT]; /* its process-level time per class so far (all phases) */
};

/* A daemon's disk I/O wait per device (the st_dev of the file its syscall was on; 0: unknown, e.g.
 * a page fault), per phase. */
struct fuse_ddkey {
	__u32 tgid;
	__u32 dev;
	__u32 phase;
};

struct fuse_ddstat {
	__u64 total_ns;
	__u64 overlap_ns;
};

/* Per daemon thread: the class of the interval that began at `since`. */
struct fuse_dthread {
	__u64 since;
	__u64 busy_at_since; /* the busy clock at `since` */
	__u32 tgid;
	__u16 nr;            /* syscall in progress, 0xffff none */
	__u8 cls;            /* class of the current interval */
	__u8 fdkind;         /* of the syscall's fd: enum fuse_fdkind */
	__u32 dev;           /* st_dev of the syscall's file (0: none, or not an fd syscall) */
	__u32 r_conn;        /* the request it read last from /dev/fuse (r_on: not answered) */
	__u64 r_unique;
	__u64 r_ns[FUSE_D_COUNT]; /* its time since that read, by class */
	__u64 r_cum[FUSE_D_COUNT]; /* its process's cum[] when its current other wait began */
	__u8 r_on;
	__u8 sp_on;          /* r_on by a splice into pipe sp_pipe: its header not read yet */
	__u8 pad2[2];
	__u32 sp_len;        /* that splice's length: the request's in.h.len */
	__u64 sp_pipe;       /* the pipe (its struct pipe_inode_info) */
};

enum fuse_fdkind { FUSE_FD_NONE = 0, FUSE_FD_SOCK, FUSE_FD_DEVFUSE };

/* Everything the probes could not record, per CPU. */
struct fuse_lost {
	__u64 inflight_full;   /* a request could not be remembered at send */
	__u64 unmatched_end;   /* an end without its send (sent before attach, or lost above) */
	__u64 stats_full;      /* no row for a (connection, opcode) */
	__u64 daemon_full;     /* daemon maps full */
};

/* Latency slot of v ns: v itself below 16, else 16 slots per power of two (about 6% wide). */
static inline __attribute__((always_inline)) __u32 fuse_lat_slot(__u64 v)
{
	__u32 k = 0, s;
	__u64 x = v;

	if (v < 16)
		return (__u32)v;
	if (x >> 32) { x >>= 32; k += 32; }
	if (x >> 16) { x >>= 16; k += 16; }
	if (x >> 8) { x >>= 8; k += 8; }
	if (x >> 4) { x >>= 4; k += 4; }
	if (x >> 2) { x >>= 2; k += 2; }
	if (x >> 1) { k += 1; }
	s = (k - 3) * 16 + ((v >> (k - 4)) & 15);
	return s < FUSE_LAT_SLOTS ? s : FUSE_LAT_SLOTS - 1;
}

/* Lowest value of slot s (ns); the slot ends where slot s + 1 begins. */
static inline __u64 fuse_lat_lower(__u32 s)
{
	if (s < 16)
		return s;
	return (__u64)(16 + s % 16) << (s / 16 - 1);
}

#define FUSE_NET_NR_SLOTS 512  /* syscall numbers of the network group (bitmap from user space) */
#define FUSE_DEVFUSE_RDEV ((10u << 20) | 229u) /* /dev/fuse: char 10:229 (kernel dev_t) */

#endif
