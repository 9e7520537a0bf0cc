/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --slow: the sleeps of each kept call by kernel wait stack, and the inode under writeback on its
 * disks meanwhile (bpf/slow.bpf.c's SLOW_EV_WAIT and SLOW_EV_WB_* events, kept in rings and
 * matched to a call by task and time when it ends).
 */
#ifndef IOWHY_SLOW_WAITS_H
#define IOWHY_SLOW_WAITS_H

#include <stdint.h>
#include "slow.h"
#include "result.h"

struct slow_probes;
struct slow_waits;

/* Whether device kdev (a disk or a partition) is on one of the call's disks; its name into disk
 * (at least 32 bytes). */
typedef int (*slow_disk_fn)(void *ctx, const struct ct_call *c, uint32_t kdev, char *disk);

struct slow_waits *slow_waits_new(void);
/* Forget every event (a new phase). */
void slow_waits_reset(struct slow_waits *w);
/* Keep one event (other types are ignored). */
void slow_waits_event(struct slow_waits *w, const struct slow_ev *e);
/* Fill sc's waits and writeback inode from the events kept. */
void slow_waits_apply(struct slow_waits *w, struct slow_probes *sp, struct slow_call *sc,
		      slow_disk_fn on_disks, void *ctx);
void slow_waits_free(struct slow_waits *w);

#endif
