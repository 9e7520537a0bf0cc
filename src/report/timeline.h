/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline (--timeline FILE): every tree task's state slices (user, kernel by syscall, run
 * queue, I/O wait, other wait) from the model's slice sink, with the phases and a counter of the
 * tree's tasks by state; one track per device with its requests (queue and device time), a flow
 * from the syscall that queued a request to it, counters of each device's queue depth and of the
 * dirty bytes; in the Chrome trace-event JSON format that Perfetto UI and chrome://tracing open.
 * Bounded: at most max_events slices, requests and counter samples; when cut, the file says so
 * (otherData.cut, an instant event at the cut) and what it left out.
 */
#ifndef IOWHY_TIMELINE_H
#define IOWHY_TIMELINE_H

#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "model.h"
#include "io_model.h"

#define TIMELINE_MAX_DEFAULT 200000   /* about 50 MB of JSON: what chrome://tracing still opens */

struct timeline;

struct timeline *timeline_new(uint64_t max_events);
void timeline_free(struct timeline *tl);
/* A phase begins at start_ns; the slices that follow are its own. Returns 0 or -1 (memory). */
int timeline_phase_begin(struct timeline *tl, const char *name, uint64_t start_ns);
void timeline_phase_end(struct timeline *tl, uint64_t end_ns);
/* The model's slice sink (model_set_slice_sink(m, timeline_slice, tl)). */
void timeline_slice(void *tl, const struct model_slice *s);
/* A finished request (the I/O probes' sink, io_probes.h). */
void timeline_request(void *tl, const struct io_rq_rec *r);
/* A sample of the dirty bytes at ts: the tree's files', the system's Dirty and Writeback. */
void timeline_dirty(void *tl, uint64_t ts, uint64_t tree, uint64_t sys_dirty, uint64_t sys_wb);
/* Names of the devices (a phase's p->devs); unnamed ones show as MAJ:MIN. 0 or -1 (memory). */
int timeline_devices(struct timeline *tl, const struct io_phase *p);
/* Requests the probes could not send (their ring buffer was full): said in the file. */
void timeline_requests_lost(struct timeline *tl, uint64_t lost);
/* Requests kept, and left out past the bound. */
uint64_t timeline_requests(const struct timeline *tl);
uint64_t timeline_requests_dropped(const struct timeline *tl);
/* Slices kept, and slices left out past the bound. */
uint64_t timeline_slices(const struct timeline *tl);
uint64_t timeline_dropped(const struct timeline *tl);
/* The trace-event JSON; `command` goes into otherData. Returns the events written. */
uint64_t timeline_write(FILE *out, const struct timeline *tl, const char *command);
/* To f (opened safely by the caller), which is closed here; `name` is for messages. Returns 0, or
 * -1 with a message on stderr. */
int timeline_write_stream(FILE *f, const char *name, const struct timeline *tl,
			  const char *command);

#endif
