/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline (--timeline FILE): every tree task's state slices (user, kernel by syscall, run
 * queue, I/O wait, other wait) from the model's slice sink, with the phases and a counter of the
 * tree's tasks by state, in the Chrome trace-event JSON format that Perfetto UI and
 * chrome://tracing open. Bounded: at most max_events slices and counter samples; when cut, the
 * file says so (otherData.cut, an instant event at the cut) and what it left out.
 */
#ifndef IOWHY_TIMELINE_H
#define IOWHY_TIMELINE_H

#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "model.h"

#define TIMELINE_MAX_DEFAULT 200000   /* about 50 MB of JSON: what chrome://tracing still opens */

struct timeline;

struct timeline *timeline_new(uint64_t max_events);
void timeline_free(struct timeline *tl);
/* A phase begins at start_ns; the slices that follow are its own. Returns 0 or -1 (memory). */
int timeline_phase_begin(struct timeline *tl, const char *name, uint64_t start_ns);
void timeline_phase_end(struct timeline *tl, uint64_t end_ns);
/* The model's slice sink (model_set_slice_sink(m, timeline_slice, tl)). */
void timeline_slice(void *tl, const struct model_slice *s);
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
