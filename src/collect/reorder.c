// SPDX-License-Identifier: GPL-2.0
/* The time-order buffer between the ring buffer and the model (see reorder.h). */
#include <stdlib.h>
#include <string.h>
#include "reorder.h"

void reorder_init(struct reorder *r)
{
	memset(r, 0, sizeof(*r));
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

int reorder_push(struct reorder *r, const struct iowhy_event *e, const char *comm)
{
	struct reorder_item *it;
	size_t i;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4096;
		struct reorder_item *h = realloc(r->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		r->heap = h;
		r->cap = cap;
	}
	if (r->released_ts && e->ts < r->released_ts)
		r->late++;
	i = r->n++;
	it = &r->heap[i];
	it->e = *e;
	it->has_comm = comm != NULL;
	if (comm)
		memcpy(it->comm, comm, IOWHY_COMM_LEN);
	it->seq = r->seq++;
	while (i > 0 && before(&r->heap[i], &r->heap[(i - 1) / 2])) {
		swap(&r->heap[i], &r->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
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

static void pop(struct reorder *r)
{
	size_t i = 0;

	r->heap[0] = r->heap[--r->n];
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->n && before(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->n && before(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		swap(&r->heap[i], &r->heap[m]);
		i = m;
	}
}

size_t reorder_release(struct reorder *r, uint64_t upto, reorder_fn fn, void *ctx)
{
	size_t count = 0;

	while (r->n && r->heap[0].e.ts <= upto) {
		struct reorder_item it = r->heap[0];

		pop(r);
		if (it.e.ts > r->released_ts)
			r->released_ts = it.e.ts;
		fn(ctx, &it.e, it.has_comm ? it.comm : NULL);
		count++;
	}
	return count;
}

void reorder_free(struct reorder *r)
{
	free(r->heap);
	memset(r, 0, sizeof(*r));
}
