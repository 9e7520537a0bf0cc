// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the reorder buffer (src/collect/reorder.c) fed arbitrary pushes, batch and switch
 * records (any size, any entry count) and releases. Invariants: each release hands out events in
 * (timestamp, arrival) order and never one above its bound; nothing is lost or invented (pushed =
 * released + still queued); a comm travels with its event.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "reorder.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

struct sink {
	uint64_t upto, last_ts, count;
	int first;
};

static void collect(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct sink *s = ctx;

	CHECK(e->ts <= s->upto);
	CHECK(s->first || e->ts >= s->last_ts);
	/* the target tags events with a comm only when it gave one: its first byte is 'c' */
	CHECK(!comm || comm[0] == 'c');
	s->first = 0;
	s->last_ts = e->ts;
	s->count++;
}

/* Take n bytes from the input (zeros past its end). */
static void take(const uint8_t **p, const uint8_t *end, void *out, size_t n)
{
	size_t have = (size_t)(end - *p) < n ? (size_t)(end - *p) : n;

	memset(out, 0, n);
	memcpy(out, *p, have);
	*p += have;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	uint64_t pushed = 0, released = 0;
	struct reorder r;

	reorder_init(&r);
	while (p < end) {
		uint8_t op = *p++;

		if (op % 3 == 0) { /* one event, a comm or not */
			struct iowhy_event e;
			char comm[IOWHY_COMM_LEN] = "c";

			take(&p, end, &e, sizeof(e));
			e.ts &= 0xffffff; /* close timestamps: many ties */
			pushed += reorder_push(&r, &e, (op & 8) ? comm : NULL) == 0;
		} else if (op % 3 == 1) { /* a batch or switch record of any size */
			uint8_t len8 = 0;
			size_t len;
			uint8_t *b;

			take(&p, end, &len8, 1);
			len = (size_t)len8 * 4;
			b = malloc(len ? len : 1);
			CHECK(b);
			take(&p, end, b, len);
			if (len >= sizeof(struct iowhy_event_batch)) {
				struct iowhy_event_batch *bb = (struct iowhy_event_batch *)b;

				for (int i = 0; i < IOWHY_LOG_LEN; i++)
					bb->e[i].ts &= 0xffffff;
			}
			{
				/* the same bytes as a switch record (one or two events) */
				size_t before = r.n, lost = (op & 16) ?
					reorder_push_switch(&r, (void *)b, len) :
					reorder_push_batch(&r, (void *)b, len);

				pushed += r.n - before;
				CHECK(lost == 0);
			}
			free(b);
		} else { /* release up to a bound */
			struct sink s = { .first = 1 };
			uint32_t upto = 0;

			take(&p, end, &upto, sizeof(upto));
			s.upto = (op & 8) ? UINT64_MAX : (upto & 0xffffff);
			CHECK(reorder_release(&r, s.upto, collect, &s) == s.count);
			released += s.count;
		}
		CHECK(pushed == released + r.n);
	}
	reorder_free(&r);
	return 0;
}
