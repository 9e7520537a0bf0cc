// SPDX-License-Identifier: GPL-2.0
/* The time-order buffer between the ring buffer and the model (see reorder.h). */
#include <stdlib.h>
#include <string.h>
#include "reorder.h"

void reorder_init(struct reorder *r)
{
	memset(r, 0, sizeof(*r));
	r->nlanes = 1;
}

void reorder_use_lane(struct reorder *r, unsigned src)
{
	r->lane = src % REORDER_LANES;
	if (r->lane >= r->nlanes)
		r->nlanes = r->lane + 1;
}

static int before(const struct reorder_item *a, const struct reorder_item *b)
{
	return a->e.ts < b->e.ts || (a->e.ts == b->e.ts && a->seq < b->seq);
}

static void swap(struct reorder_item *a, struct reorder_item *b)
{
	struct reorder_item t = *a;

	*a = *b;
	*b = t;
}

/* Grow an item array of *cap to hold one more (doubling, from 4096). 0, or -1 out of memory. */
static int grow(struct reorder_item **a, size_t *cap)
{
	size_t c = *cap ? *cap * 2 : 4096;
	struct reorder_item *p = realloc(*a, c * sizeof(*p));

	if (!p)
		return -1;
	*a = p;
	*cap = c;
	return 0;
}

/* A lane's i-th oldest item. */
static struct reorder_item *fifo_at(struct reorder_lane *l, size_t i)
{
	return &l->fifo[(l->head + i) & (l->fcap - 1)];
}

/* Append to a lane's FIFO (which stays sorted: only items not before its newest come here). */
static int fifo_push(struct reorder_lane *l, const struct reorder_item *it)
{
	if (l->len == l->fcap) {
		size_t old = l->fcap;

		if (grow(&l->fifo, &l->fcap))
			return -1;
		/* full ring of `old`: head .. old-1, then 0 .. head-1; the latter move to old .. */
		if (old && l->head)
			memcpy(&l->fifo[old], l->fifo, l->head * sizeof(*l->fifo));
	}
	*fifo_at(l, l->len++) = *it;
	return 0;
}

/* Put `it` into lane l with the `back` newest items after it (it is before them, not before the
 * one ahead of them): appended, then moved down past them. */
static int fifo_insert(struct reorder_lane *l, const struct reorder_item *it, size_t back)
{
	size_t at;

	if (fifo_push(l, it))
		return -1;
	at = l->len - 1 - back;
	for (size_t i = l->len - 1; i > at; i--)
		*fifo_at(l, i) = *fifo_at(l, i - 1);
	*fifo_at(l, at) = *it;
	return 0;
}

static int heap_push(struct reorder *r, const struct reorder_item *it)
{
	size_t i;

	if (r->hn == r->cap && grow(&r->heap, &r->cap))
		return -1;
	i = r->hn++;
	r->heap[i] = *it;
	while (i > 0 && before(&r->heap[i], &r->heap[(i - 1) / 2])) {
		swap(&r->heap[i], &r->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

/* Keep comm in a free slot of the side table. Returns slot + 1, or 0 when out of memory or slots. */
static uint16_t comm_keep(struct reorder *r, const char *comm)
{
	size_t slot;

	if (r->nfree) {
		slot = r->free_[--r->nfree];
	} else {
		struct reorder_comm *c;
		uint16_t *f;

		if (r->ncomms >= UINT16_MAX)
			return 0;
		c = realloc(r->comms, (r->ncomms + 1) * sizeof(*c));
		if (!c)
			return 0;
		r->comms = c;
		f = realloc(r->free_, (r->ncomms + 1) * sizeof(*f));
		if (!f)
			return 0;
		r->free_ = f;
		slot = r->ncomms++;
	}
	memcpy(r->comms[slot].comm, comm, IOWHY_COMM_LEN);
	return (uint16_t)(slot + 1);
}

int reorder_push(struct reorder *r, const struct iowhy_event *e, const char *comm)
{
	struct reorder_lane *l = &r->lanes[r->lane];
	struct reorder_item it;
	int rc;

	if (r->released_ts && e->ts < r->released_ts)
		r->late++;
	it.e = *e;
	it.e.pad = 0;
	if (comm && !(it.e.pad = comm_keep(r, comm)))
		return -1;
	it.seq = r->seq++;
	if (!l->len || !before(&it, fifo_at(l, l->len - 1))) {
		rc = fifo_push(l, &it);
	} else {
		/* a little behind the lane's newest (a batched transition behind a wakeup sent
		 * meanwhile): moved into its place in the lane when at most REORDER_SHIFT_MAX are
		 * after it, else the heap (a heap of the window's thousands of events cost more than
		 * the rest of the buffer: bench/consumer_replay) */
		size_t back = 1;

		while (back < l->len && back < REORDER_SHIFT_MAX &&
		       before(&it, fifo_at(l, l->len - 1 - back)))
			back++;
		if (back < REORDER_SHIFT_MAX)
			rc = fifo_insert(l, &it, back);
		else
			rc = heap_push(r, &it);
	}
	if (!rc)
		r->n++;
	else if (it.e.pad)
		r->free_[r->nfree++] = it.e.pad - 1;
	return rc;
}

size_t reorder_push_batch(struct reorder *r, const struct iowhy_event_batch *b, size_t size)
{
	size_t n, fit, dropped = 0;

	if (size < sizeof(b->h)) /* the header is not all there: read nothing of it */
		return 0;
	n = b->h.arg;
	fit = (size - sizeof(b->h)) / sizeof(b->e[0]);
	if (n > fit)
		n = fit;
	if (n > IOWHY_LOG_LEN)
		n = IOWHY_LOG_LEN;
	for (size_t i = 0; i < n; i++) {
		struct iowhy_event e = b->h;

		e.ts = b->e[i].ts;
		e.type = IOWHY_EV_STATE;
		e.state = b->e[i].state;
		e.nr = b->e[i].nr;
		e.flags = 0;
		e.arg = e.arg2 = 0;
		dropped += reorder_push(r, &e, NULL) != 0;
	}
	return dropped;
}

size_t reorder_push_switch(struct reorder *r, const struct iowhy_event *e, size_t size)
{
	struct iowhy_event out;
	size_t dropped = 0;

	if (size < sizeof(*e)) /* the first event is not all there: read nothing of it */
		return 0;
	out = *e;
	out.type = IOWHY_EV_STATE;
	dropped += reorder_push(r, &out, NULL) != 0;
	if (size >= 2 * sizeof(*e))
		dropped += reorder_push(r, e + 1, NULL) != 0;
	return dropped;
}

size_t reorder_push_record(struct reorder *r, const void *data, size_t size, uint64_t *newest)
{
	const struct iowhy_event *e = data;
	size_t dropped;

	*newest = 0;
	if (size < sizeof(*e))
		return 0;
	*newest = e->ts;
	if (e->type == IOWHY_EV_BATCH && (e->flags & IOWHY_EVF_TAIL)) {
		/* a switch's record: the switching task's last transitions, then the switch */
		const size_t head = sizeof(struct iowhy_batch_head);
		uint64_t rest = 0;

		if (size < head)
			return 0;
		dropped = reorder_push_batch(r, data, head);
		dropped += reorder_push_record(r, (const char *)data + head, size - head, &rest);
		if (rest > *newest)
			*newest = rest;
		return dropped;
	}
	if (e->type == IOWHY_EV_BATCH) {
		const struct iowhy_event_batch *b = data;
		size_t n = b->h.arg;

		dropped = reorder_push_batch(r, b, size);
		if (n && n <= IOWHY_LOG_LEN && size >= sizeof(b->h) + n * sizeof(b->e[0]))
			*newest = b->e[n - 1].ts;
		return dropped;
	}
	if (e->type == IOWHY_EV_SWITCH) {
		/* a switch between two tree tasks: prev's switch-out, then next's switch-in */
		dropped = reorder_push_switch(r, e, size);
		if (size >= 2 * sizeof(*e) && e[1].ts > *newest)
			*newest = e[1].ts;
		return dropped;
	}
	return reorder_push(r, e, size >= sizeof(struct iowhy_event_comm) ?
				      ((const struct iowhy_event_comm *)data)->comm : NULL) != 0;
}

static void heap_pop(struct reorder *r)
{
	size_t i = 0;

	r->heap[0] = r->heap[--r->hn];
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->hn && before(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->hn && before(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		swap(&r->heap[i], &r->heap[m]);
		i = m;
	}
}

/* The lane whose oldest item is the oldest held outside the heap, NULL if all are empty. */
static struct reorder_lane *oldest_lane(struct reorder *r)
{
	struct reorder_lane *best = NULL;

	for (unsigned i = 0; i < r->nlanes; i++) {
		struct reorder_lane *l = &r->lanes[i];

		if (l->len && (!best || before(fifo_at(l, 0), fifo_at(best, 0))))
			best = l;
	}
	return best;
}

size_t reorder_release(struct reorder *r, uint64_t upto, reorder_fn fn, void *ctx)
{
	size_t count = 0;

	while (r->n) {
		struct reorder_item it;
		struct reorder_lane *l = oldest_lane(r);
		int from_fifo = l && (!r->hn || before(fifo_at(l, 0), &r->heap[0]));

		it = from_fifo ? *fifo_at(l, 0) : r->heap[0];
		if (it.e.ts > upto)
			break;
		if (from_fifo) {
			l->head = (l->head + 1) & (l->fcap - 1);
			l->len--;
		} else {
			heap_pop(r);
		}
		r->n--;
		if (it.e.ts > r->released_ts)
			r->released_ts = it.e.ts;
		if (it.e.pad) {
			char comm[IOWHY_COMM_LEN];

			memcpy(comm, r->comms[it.e.pad - 1].comm, IOWHY_COMM_LEN);
			r->free_[r->nfree++] = it.e.pad - 1;
			it.e.pad = 0;
			fn(ctx, &it.e, comm);
		} else {
			fn(ctx, &it.e, NULL);
		}
		count++;
	}
	return count;
}

uint64_t reorder_peek_ts(const struct reorder *r)
{
	struct reorder_lane *l = oldest_lane((struct reorder *)r);
	const struct reorder_item *f = l ? fifo_at(l, 0) : NULL;

	if (f && (!r->hn || before(f, &r->heap[0])))
		return f->e.ts;
	return r->hn ? r->heap[0].e.ts : 0;
}

void reorder_free(struct reorder *r)
{
	free(r->heap);
	for (unsigned i = 0; i < REORDER_LANES; i++)
		free(r->lanes[i].fifo);
	free(r->comms);
	free(r->free_);
	memset(r, 0, sizeof(*r));
}
