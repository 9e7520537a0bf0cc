/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscalls one by one, from the model's event stream: each call's duration and where it went (on
 * CPU, run queue, I/O wait by disk, other waits). A call counts only when its entry was seen (calls
 * in progress at the start, and a new child's return from clone, are not whole calls). Pure C.
 */
#ifndef IOWHY_CALLTRACK_H
#define IOWHY_CALLTRACK_H

#include <stdint.h>
#include "iowhy.h"

#define CT_DISKS 4   /* disks a call's I/O wait is kept for; the rest is "other disks" */

struct ct_call {
	uint32_t tid, tgid;
	uint16_t nr;
	uint64_t start_ns, end_ns;
	uint64_t oncpu_ns, runq_ns, other_ns;
	uint64_t iowait_ns;                  /* = the sum of disk_ns[] + iowait_nodisk_ns */
	int ndisks;
	uint8_t disk[CT_DISKS];              /* disk slots (core disk_names) */
	uint64_t disk_ns[CT_DISKS];
	uint64_t iowait_nodisk_ns;           /* no disk known (or more than CT_DISKS) */
};

typedef void (*ct_done_fn)(void *ctx, const struct ct_call *c);

struct ct_task;

struct calltrack {
	struct ct_task **tab;
	size_t cap, count;
	uint64_t calls;          /* whole calls seen */
	ct_done_fn done;
	void *ctx;
};

/* done(ctx, call) is called for every whole call when it ends. */
void calltrack_init(struct calltrack *t, ct_done_fn done, void *ctx);
/* Feed one event (time-ordered, as the model gets them). */
void calltrack_event(struct calltrack *t, const struct iowhy_event *e);
void calltrack_free(struct calltrack *t);

#endif
