/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Puts the event stream back in time order before the model sees it. The BPF side sends a task's
 * syscall transitions in batches (at most a tick late), and each CPU writes its own ring, read in
 * turns, so records arrive out of time order. Events wait here until they are older than a window;
 * then they are released in (timestamp, arrival) order. Each source (a CPU's ring) has a lane;
 * most events arrive in order within their lane: those go to its FIFO (constant time); one a few
 * behind the lane's newest is moved into its place there; the others go to a min-heap; a release
 * merges the lanes and the heap.
 * Pure C, no kernel: unit-tested.
 */
#ifndef IOWHY_REORDER_H
#define IOWHY_REORDER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "iowhy.h"

/* 40 bytes: the few events with a comm (FORK, EXEC) keep it in a side table, e.pad = slot + 1. */
struct reorder_item {
	struct iowhy_event e;
	uint64_t seq;             /* arrival order: ties on the timestamp keep it */
};

struct reorder_comm {
	char comm[IOWHY_COMM_LEN];
};

/* An event at most this many behind its lane's newest is moved into its place in the lane (the
 * lanes stay in order); one further behind goes to the heap. */
#define REORDER_SHIFT_MAX 64

/* Sources beyond this many share lanes (source % REORDER_LANES): their events interleave, and
 * the heap takes more of them. */
#define REORDER_LANES 8

struct reorder_lane {
	struct reorder_item *fifo; /* events that arrived in order: a ring, oldest first */
	size_t head, len, fcap;
};

struct reorder {
	struct reorder_item *heap; /* events that arrived out of order: a min-heap */
	size_t hn, cap;
	struct reorder_lane lanes[REORDER_LANES];
	unsigned lane;            /* the lane pushes go to (reorder_use_lane) */
	unsigned nlanes;          /* lanes used so far: 1 + the highest */
	size_t n;                 /* events held: hn + the lanes' len */
	struct reorder_comm *comms; /* comms of held events; free slots chained through free_ */
	uint16_t *free_;
	size_t ncomms, nfree;
	uint64_t seq;
	uint64_t released_ts;     /* timestamp of the last event released */
	uint64_t late;            /* events that arrived after a later one was released */
};

typedef void (*reorder_fn)(void *ctx, const struct iowhy_event *e, const char *comm);

void reorder_init(struct reorder *r);
/* Pushes from here on come from source `src` (a CPU's ring; 0 until called): its events arrive
 * nearly in time order among themselves. */
void reorder_use_lane(struct reorder *r, unsigned src);
/* Queue one event (comm: FORK/EXEC, else NULL). Returns 0, or -1 when out of memory (dropped). */
int reorder_push(struct reorder *r, const struct iowhy_event *e, const char *comm);
/* Queue the transitions of a batch record as STATE events. Returns how many could not be queued. */
size_t reorder_push_batch(struct reorder *r, const struct iowhy_event_batch *b, size_t size);
/* Queue a switch record (IOWHY_EV_SWITCH, `size` bytes): its first event (prev's switch-out) as a
 * STATE event, then its second (next's switch-in) when the record holds it. Returns how many could
 * not be queued. */
size_t reorder_push_switch(struct reorder *r, const struct iowhy_event *e, size_t size);
/*
 * Queue one ring-buffer record of the core (bpf/iowhy.bpf.c), whatever its type: a batch becomes
 * its STATE events, a switch record its one or two, a batch with a tail (IOWHY_EVF_TAIL) its
 * transitions and then the switch after them; FORK and EXEC keep their comm. Nothing of a
 * record too short for its header. *newest:
 * the latest timestamp in it (0 if none). Returns how many events could not be queued.
 */
size_t reorder_push_record(struct reorder *r, const void *data, size_t size, uint64_t *newest);
/* Release, in (timestamp, arrival) order, every queued event with ts <= upto. Returns the count. */
size_t reorder_release(struct reorder *r, uint64_t upto, reorder_fn fn, void *ctx);
/* Timestamp of the oldest event held (0 if none). */
uint64_t reorder_peek_ts(const struct reorder *r);
void reorder_free(struct reorder *r);

#endif
