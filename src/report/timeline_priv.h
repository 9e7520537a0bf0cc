/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the timeline: what timeline.c (tasks) and timeline_io.c (devices) share. */
#ifndef IOWHY_TIMELINE_PRIV_H
#define IOWHY_TIMELINE_PRIV_H

#include "timeline.h"

struct tl_slice {
	uint64_t begin, end;
	uint32_t tid, tgid;
	uint16_t nr;
	uint8_t state;
	char comm[IOWHY_COMM_LEN];
};

struct tl_phase {
	char name[48];
	uint64_t start, end;
};

/* A finished request: [begin, issue) in the queue, [issue, done) on the device; submit is when
 * its first bio was queued, by task tid (0: not a tree task). */
struct tl_req {
	uint64_t begin, issue, done, submit, bytes;
	uint32_t dev, tid;
	uint16_t depth;
	uint8_t op, cls, requeues;
};

struct tl_dirty {
	uint64_t ts, tree, sys_dirty, sys_wb;
};

struct tl_dev {
	uint32_t dev;
	char name[32];
};

struct timeline {
	struct tl_slice *s;
	size_t n, cap;
	uint64_t max, dropped, cut_ns;
	struct tl_phase *ph;
	int nph, capph;
	struct tl_req *rq;           /* the devices' requests (--timeline with the I/O probes) */
	size_t nrq, caprq;
	uint64_t rq_dropped, rq_lost; /* left out past the bound; never sent by the probes */
	struct tl_dirty *dt;
	size_t ndt, capdt;
	uint64_t dt_dropped;
	struct tl_dev *devs;
	size_t ndevs, capdevs;
};

/* Grow *p (n used of *cap elements of `size`) to hold one more, up to `max`. 0 or -1. */
int tl_grow(void **p, size_t n, size_t *cap, size_t size, uint64_t max);
/* A JSON string, escaped; microseconds since base to 1/1024 µs (exact in a double); the
 * duration of [begin, end) as the difference of the two rounded times. */
void tl_json_str(FILE *out, const char *s);
void tl_json_us(FILE *out, uint64_t ns, uint64_t base);
void tl_json_dur(FILE *out, uint64_t begin, uint64_t end, uint64_t base);
/* The devices' tracks (requests, flows from their syscalls, queue depth) and the dirty bytes,
 * with at most `budget` counter samples (*cut set when that ran out). Returns the events. */
uint64_t tl_write_devices(FILE *out, const struct timeline *tl, uint64_t base, uint64_t budget,
			  int *cut);
void tl_free_devices(struct timeline *tl);

#endif
