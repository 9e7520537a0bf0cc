// SPDX-License-Identifier: GPL-2.0
/* --slow: sleeps by wait stack and inodes under writeback, per call (see slow_waits.h). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "slow_waits.h"
#include "slow_probes.h"
#include "sysblock.h"

#define WRING 16384     /* sleeps kept (the newest) */
#define BRING 4096      /* writebacks kept */
#define STACKS_PER_CALL 16
#define WAIT_FRAMES 4   /* frames named per stack */

struct wait_rec {
	uint64_t t0, t1;
	uint32_t tid, flags;
	int32_t stack;
};

struct wb_rec {
	uint64_t t0, t1;    /* t1 0: not ended yet */
	uint64_t ino;
	uint32_t dev, tid;
};

struct slow_waits {
	struct wait_rec waits[WRING];
	size_t nwaits;
	struct wb_rec wbs[BRING];
	size_t nwbs;
};

struct slow_waits *slow_waits_new(void)
{
	return calloc(1, sizeof(struct slow_waits));
}

void slow_waits_reset(struct slow_waits *w)
{
	if (w)
		w->nwaits = w->nwbs = 0;
}

void slow_waits_free(struct slow_waits *w)
{
	free(w);
}

/* The newest open writeback of (dev, ino) by tid: ended at ts. */
static void wb_end(struct slow_waits *w, const struct slow_ev *e)
{
	size_t first = w->nwbs > BRING ? w->nwbs - BRING : 0;

	for (size_t i = w->nwbs; i-- > first;) {
		struct wb_rec *b = &w->wbs[i % BRING];

		if (!b->t1 && b->ino == e->arg && b->dev == e->dev && b->tid == e->tid) {
			b->t1 = e->ts;
			return;
		}
	}
}

void slow_waits_event(struct slow_waits *w, const struct slow_ev *e)
{
	if (!w)
		return;
	switch (e->type) {
	case SLOW_EV_WAIT:
		w->waits[w->nwaits++ % WRING] = (struct wait_rec){ e->ts, e->ts + e->arg, e->tid,
								   e->dev, e->stack };
		break;
	case SLOW_EV_WB_START:
		w->wbs[w->nwbs++ % BRING] = (struct wb_rec){ e->ts, 0, e->arg, e->dev, e->tid };
		break;
	case SLOW_EV_WB_END:
		wb_end(w, e);
		break;
	default:
		break;
	}
}

/* The part of [a0, a1) inside [b0, b1). */
static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t from = a0 > b0 ? a0 : b0, to = a1 < b1 ? a1 : b1;

	return to > from ? to - from : 0;
}

struct stack_sum {
	int32_t stack;
	uint32_t flags, count;
	uint64_t ns;
};

static int cmp_sum(const void *x, const void *y)
{
	const struct stack_sum *a = x, *b = y;

	return (a->ns < b->ns) - (a->ns > b->ns);
}

/* The call's task's sleeps inside it, summed per stack; the longest SLOW_WAITS named. */
static void call_waits(struct slow_waits *w, struct slow_probes *sp, struct slow_call *sc)
{
	struct stack_sum sums[STACKS_PER_CALL];
	size_t first = w->nwaits > WRING ? w->nwaits - WRING : 0;
	int n = 0;

	for (size_t i = first; i < w->nwaits; i++) {
		const struct wait_rec *r = &w->waits[i % WRING];
		uint64_t ns = overlap(r->t0, r->t1, sc->c.start_ns, sc->c.end_ns);
		int k;

		if (r->tid != sc->c.tid || !ns)
			continue;
		sc->waits_ns += ns;
		for (k = 0; k < n && (sums[k].stack != r->stack || sums[k].flags != r->flags); k++)
			;
		if (k == n) {
			if (n == STACKS_PER_CALL)
				continue; /* in waits_ns, not named */
			sums[n++] = (struct stack_sum){ r->stack, r->flags, 0, 0 };
		}
		sums[k].count++;
		sums[k].ns += ns;
	}
	qsort(sums, (size_t)n, sizeof(sums[0]), cmp_sum);
	for (int k = 0; k < n && k < SLOW_WAITS; k++) {
		struct slow_wait *o = &sc->waits[k];

		o->ns = sums[k].ns;
		o->count = sums[k].count;
		o->uninterruptible = (sums[k].flags & SLOW_WF_D) != 0;
		slow_probes_stack(sp, sums[k].stack, WAIT_FRAMES, o->where, sizeof(o->where));
	}
	sc->nwaits = n < SLOW_WAITS ? n : SLOW_WAITS;
}

/* The path of the file (dev, ino) process tgid has open, into buf ("" when none). */
static void open_path(uint32_t tgid, dev_t dev, uint64_t ino, char *buf, size_t n)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%u/fd", tgid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		struct stat st;
		ssize_t len;

		/* the fd's file itself (the magic link is followed), read-only */
		if (d->d_name[0] == '.' || fstatat(dirfd(dir), d->d_name, &st, 0) ||
		    st.st_ino != ino || st.st_dev != dev)
			continue;
		len = readlinkat(dirfd(dir), d->d_name, buf, n - 1);
		buf[len > 0 ? len : 0] = 0;
		break;
	}
	closedir(dir);
}

/* The writeback on the call's disks that overlapped it the longest. */
static void call_writeback(struct slow_waits *w, struct slow_call *sc, slow_disk_fn on_disks,
			   void *ctx)
{
	size_t first = w->nwbs > BRING ? w->nwbs - BRING : 0;
	uint32_t kdev = 0;

	for (size_t i = first; i < w->nwbs; i++) {
		const struct wb_rec *b = &w->wbs[i % BRING];
		uint64_t ns = overlap(b->t0, b->t1 ? b->t1 : sc->c.end_ns, sc->c.start_ns,
				      sc->c.end_ns);
		char disk[32];

		if (ns <= sc->wb_overlap_ns || !on_disks(ctx, &sc->c, b->dev, disk))
			continue;
		sc->wb_overlap_ns = ns;
		sc->wb_ino = b->ino;
		kdev = b->dev;
		snprintf(sc->wb_dev, sizeof(sc->wb_dev), "%s", disk);
	}
	if (sc->wb_ino)
		open_path(sc->c.tgid, dev_of_kdev(kdev), sc->wb_ino, sc->wb_path,
			  sizeof(sc->wb_path));
}

void slow_waits_apply(struct slow_waits *w, struct slow_probes *sp, struct slow_call *sc,
		      slow_disk_fn on_disks, void *ctx)
{
	if (!w)
		return;
	call_waits(w, sp, sc);
	call_writeback(w, sc, on_disks, ctx);
}
