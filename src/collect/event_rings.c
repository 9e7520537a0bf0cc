// SPDX-License-Identifier: GPL-2.0
/* The core's per-CPU event rings (event_rings.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "event_rings.h"

#define RING_MAX (8u << 20)
#define RING_MIN (256u << 10)
#define RINGS_ALL (64u << 20)
/* A turn: what one ring may hand on before the next ring's turn (~2,700 records). */
#define TURN_BYTES (64u << 10)

__u32 event_ring_bytes(int nonline, int shared, const char *env_mb)
{
	__u32 per = RING_MAX;

	if (env_mb && *env_mb) {
		char *end;
		unsigned long mb = strtoul(env_mb, &end, 10);

		if (!*end && mb >= 1 && mb <= 1024 && !(mb & (mb - 1)))
			return (__u32)mb << 20;
	}
	if (nonline < 1)
		nonline = 1;
	if (shared) {
		while (per < RINGS_ALL && per < (__u64)nonline * RING_MAX)
			per <<= 1;
		return per;
	}
	while (per > RING_MIN && (__u64)per * (__u64)nonline > RINGS_ALL)
		per >>= 1;
	return per;
}

/* Walk a CPU list: each range a-b (or a) in turn; fn returns non-zero to stop. -1 if malformed. */
static int cpu_list_walk(const char *list, int (*fn)(void *, long, long), void *ctx)
{
	const char *p = list;

	while (p && *p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return -1;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -1;
			p = end;
		}
		if (fn(ctx, a, b))
			return 0;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return 0;
}

struct cpu_find {
	long cpu;
	int found;
};

static int find_cpu(void *ctx, long a, long b)
{
	struct cpu_find *f = ctx;

	f->found = f->cpu >= a && f->cpu <= b;
	return f->found;
}

static int count_cpus(void *ctx, long a, long b)
{
	*(long *)ctx += b - a + 1;
	return 0;
}

int cpu_list_has(const char *list, int cpu)
{
	struct cpu_find f = { cpu, 0 };

	if (!list || cpu_list_walk(list, find_cpu, &f) || !cpu_list_count(list))
		return 1;
	return f.found;
}

int cpu_list_count(const char *list)
{
	long n = 0;

	if (!list || cpu_list_walk(list, count_cpus, &n))
		return 0;
	return n > 1 << 20 ? 0 : (int)n;
}

int event_rings_make(struct event_rings *r, int n, __u32 bytes, const char *online)
{
	memset(r, 0, sizeof(*r));
	r->outer_fd = -1;
	r->v = calloc((size_t)(n > 0 ? n : 1), sizeof(*r->v));
	if (!r->v) {
		fprintf(stderr, "iowhy: out of memory\n");
		return -1;
	}
	r->n = n;
	r->bytes = bytes;
	for (int i = 0; i < n; i++)
		r->v[i].fd = -1;
	for (int i = 0; i < n; i++) {
		__u32 size = cpu_list_has(online, i) ? bytes : EVENT_RING_OFFLINE_BYTES;

		r->v[i].fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "iowhy_events", 0, 0, size, NULL);
		if (r->v[i].fd < 0) {
			fprintf(stderr, "iowhy: cannot make the event ring buffer of CPU %d (%u KiB): %s\n",
				i, size >> 10, strerror(errno));
			event_rings_free(r);
			return -1;
		}
	}
	return 0;
}

int event_rings_outer(struct event_rings *r)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .inner_map_fd = r->n > 0 ? r->v[0].fd : -1);

	r->outer_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "events", sizeof(__u32),
				     sizeof(__u32), (__u32)r->n, &o);
	if (r->outer_fd < 0) {
		fprintf(stderr, "iowhy: cannot make the array of the event ring buffers: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

int event_rings_install(const struct event_rings *r)
{
	__u32 *keys = calloc((size_t)r->n, sizeof(*keys)), *fds = calloc((size_t)r->n, sizeof(*fds));
	__u32 count = (__u32)r->n;
	int rc = -1;

	if (!keys || !fds) {
		fprintf(stderr, "iowhy: out of memory\n");
		goto out;
	}
	for (int i = 0; i < r->n; i++) {
		keys[i] = (__u32)i;
		fds[i] = (__u32)r->v[i].fd;
	}
	/* one batch: the kernel waits for an RCU grace period after each update of an array of maps
	 * from user space (10-20 ms on a VM), once after a batch (5-11 ms for two rings on 6.18) */
	if (!getenv("IOWHY_TEST_RING_INSTALL_EACH") && /* tests: the other way */
	    !bpf_map_update_batch(r->outer_fd, keys, fds, &count, NULL) && count == (__u32)r->n) {
		rc = 0;
		goto out;
	}
	/* a kernel without batches for this map type: one at a time */
	for (int i = 0; i < r->n; i++) {
		if (bpf_map_update_elem(r->outer_fd, &keys[i], &fds[i], BPF_ANY)) {
			fprintf(stderr, "iowhy: cannot install the event ring buffer of CPU %d: %s\n", i,
				strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	free(keys);
	free(fds);
	return rc;
}

/* libbpf's callback: hand the record on, count it against the ring's take and its turn. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct event_rings *r = ctx;
	struct event_ring *g = &r->v[r->cur];
	int rc = r->fn(r->ctx, r->cur, data, size);

	if (rc) {
		r->stop = rc;
		return -ECANCELED;
	}
	g->taken += (size + BPF_RINGBUF_HDR_SZ + 7) & ~(size_t)7;
	if (g->taken >= g->take) {
		g->done = 1;
		return -ECANCELED;
	}
	return g->taken >= r->turn_end ? -ECANCELED : 0;
}

int event_rings_map(struct event_rings *r, event_ring_fn fn, void *ctx)
{
	size_t pg = (size_t)getpagesize();

	r->fn = fn;
	r->ctx = ctx;
	for (int i = 0; i < r->n; i++) {
		struct event_ring *g = &r->v[i];

		g->rb = ring_buffer__new(g->fd, on_record, r, NULL);
		if (!g->rb) {
			fprintf(stderr, "iowhy: cannot open the event ring buffer: %s\n", strerror(errno));
			event_rings_unmap(r);
			return -1;
		}
		/* the consumer and producer positions (first two pages), to see how full it is */
		g->pos = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, g->fd, 0);
		if (g->pos == MAP_FAILED)
			g->pos = NULL;
	}
	return 0;
}

int event_rings_mapped(const struct event_rings *r)
{
	return r->n > 0 && r->v[0].rb != NULL;
}

void event_rings_unmap(struct event_rings *r)
{
	for (int i = 0; i < r->n; i++) {
		struct event_ring *g = &r->v[i];

		if (g->rb)
			ring_buffer__free(g->rb);
		g->rb = NULL;
		if (g->pos)
			munmap(g->pos, 2 * (size_t)getpagesize());
		g->pos = NULL;
	}
}

/* Bytes ring g holds that are not read, UINT64_MAX when its positions are not mapped. */
static __u64 ring_used(const struct event_ring *g)
{
	const volatile unsigned long *cons, *prod;

	if (!g->pos)
		return UINT64_MAX;
	cons = (const volatile unsigned long *)g->pos;
	prod = (const volatile unsigned long *)((const char *)g->pos + getpagesize());
	return *prod - *cons;
}

int event_rings_skip(const struct event_rings *r)
{
	size_t pg = (size_t)getpagesize();
	int rc = 0;

	for (int i = 0; i < r->n; i++) {
		int fd = r->v[i].fd;
		unsigned long *cons = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		unsigned long *prod = cons == MAP_FAILED ? MAP_FAILED :
				      mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, (off_t)pg);

		if (prod != MAP_FAILED) {
			__atomic_store_n(cons, __atomic_load_n(prod, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
			munmap(prod, pg);
		} else {
			rc = -1;
		}
		if (cons != MAP_FAILED)
			munmap(cons, pg);
	}
	return rc;
}

int event_rings_read(struct event_rings *r)
{
	int left = 0;

	r->stop = 0;
	for (int i = 0; i < r->n; i++) {
		struct event_ring *g = &r->v[i];

		g->take = ring_used(g);
		g->taken = 0;
		g->done = !g->rb || !g->take;
		left += !g->done;
	}
	while (left > 0) {
		for (int i = 0; i < r->n; i++) {
			struct event_ring *g = &r->v[i];
			int n;

			if (g->done)
				continue;
			r->cur = i;
			r->turn_end = g->taken + TURN_BYTES;
			n = ring_buffer__consume(g->rb);
			if (r->stop)
				return r->stop;
			if (n >= 0) /* read until empty */
				g->done = 1;
			else if (n != -ECANCELED)
				return n;
			left -= g->done;
		}
	}
	return 0;
}

__u64 event_rings_used(struct event_rings *r)
{
	__u64 most = 0;

	for (int i = 0; i < r->n; i++) {
		__u64 u = ring_used(&r->v[i]);

		if (u != UINT64_MAX && u > most)
			most = u;
	}
	if (most > r->peak)
		r->peak = most;
	return most;
}

void event_rings_free(struct event_rings *r)
{
	event_rings_unmap(r);
	for (int i = 0; i < r->n; i++)
		if (r->v[i].fd >= 0)
			close(r->v[i].fd);
	if (r->outer_fd > 0) /* (0: rings never made, the struct zeroed) */
		close(r->outer_fd);
	free(r->v);
	memset(r, 0, sizeof(*r));
	r->outer_fd = -1;
}
