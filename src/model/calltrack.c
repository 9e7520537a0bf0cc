// SPDX-License-Identifier: GPL-2.0
/* Syscalls one by one (see calltrack.h). Tasks in an open-addressing-free chained hash by tid. */
#include <stdlib.h>
#include <string.h>
#include "calltrack.h"

struct ct_task {
	uint32_t tid;
	uint8_t state;           /* enum iowhy_state as last seen */
	uint8_t whole;           /* the current call's entry was seen */
	uint16_t nr;             /* current call, IOWHY_NR_NONE outside one */
	uint32_t diskmask;       /* DWAIT: disks in flight (or the fd's) at sleep */
	uint64_t last_ns;
	struct ct_call cur;
	struct ct_task *next;
};

static size_t slot(uint32_t tid, size_t cap)
{
	uint32_t h = tid * 2654435761u;

	return (h ^ (h >> 15)) & (cap - 1);
}

void calltrack_init(struct calltrack *t, ct_done_fn done, void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->done = done;
	t->ctx = ctx;
}

static struct ct_task *find(struct calltrack *t, uint32_t tid)
{
	struct ct_task *k;

	if (!t->cap)
		return NULL;
	for (k = t->tab[slot(tid, t->cap)]; k; k = k->next)
		if (k->tid == tid)
			return k;
	return NULL;
}

static void grow(struct calltrack *t)
{
	size_t cap = t->cap ? 2 * t->cap : 1024;
	struct ct_task **tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return;
	for (size_t i = 0; i < t->cap; i++) {
		struct ct_task *k = t->tab[i], *n;

		for (; k; k = n) {
			n = k->next;
			k->next = tab[slot(k->tid, cap)];
			tab[slot(k->tid, cap)] = k;
		}
	}
	free(t->tab);
	t->tab = tab;
	t->cap = cap;
}

static struct ct_task *add(struct calltrack *t, uint32_t tid, uint8_t state, uint16_t nr,
			   uint64_t now)
{
	struct ct_task *k;

	if (4 * (t->count + 1) > 3 * t->cap)
		grow(t);
	if (!t->cap || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->tid = tid;
	k->state = state;
	k->nr = nr;
	k->last_ns = now;
	k->next = t->tab[slot(tid, t->cap)];
	t->tab[slot(tid, t->cap)] = k;
	t->count++;
	return k;
}

static void drop(struct calltrack *t, uint32_t tid)
{
	struct ct_task **p;

	if (!t->cap)
		return;
	for (p = &t->tab[slot(tid, t->cap)]; *p; p = &(*p)->next) {
		if ((*p)->tid == tid) {
			struct ct_task *k = *p;

			*p = k->next;
			free(k);
			t->count--;
			return;
		}
	}
}

/* I/O wait of a call: split over the disks of mask (kept per disk up to CT_DISKS). */
static void add_iowait(struct ct_call *c, uint32_t mask, uint64_t ns)
{
	int n = __builtin_popcount(mask), first = 1;

	c->iowait_ns += ns;
	if (!n) {
		c->iowait_nodisk_ns += ns;
		return;
	}
	for (int s = 0; s < 32; s++) {
		uint64_t part;
		int i;

		if (!(mask & (1u << s)))
			continue;
		part = ns / n + (first ? ns % n : 0);
		first = 0;
		for (i = 0; i < c->ndisks && c->disk[i] != s; i++)
			;
		if (i == c->ndisks && c->ndisks < CT_DISKS) {
			c->disk[c->ndisks] = (uint8_t)s;
			c->disk_ns[c->ndisks++] = 0;
		}
		if (i < c->ndisks)
			c->disk_ns[i] += part;
		else
			c->iowait_nodisk_ns += part;
	}
}

/* The time since the task's last event, into the current call's bucket of its state then. */
static void account(struct ct_task *k, const struct iowhy_event *e)
{
	uint64_t dt = e->ts > k->last_ns ? e->ts - k->last_ns : 0;
	struct ct_call *c = &k->cur;

	if (k->nr == IOWHY_NR_NONE || !dt)
		return;
	switch (k->state) {
	case IOWHY_TS_USER:
	case IOWHY_TS_KERNEL:
		c->oncpu_ns += dt;
		break;
	case IOWHY_TS_RUNQ:
		c->runq_ns += dt;
		break;
	case IOWHY_TS_DWAIT:
		/* the disk whose completion woke it, else the last to complete during the sleep,
		 * else those it slept on (iowhy_wait_disks) */
		if (e->state == IOWHY_TS_RUNQ)
			add_iowait(c, iowhy_wait_disks(e->arg, e->arg2, k->diskmask), dt);
		else /* a hidden switch-in: the wakeup was not traced either */
			add_iowait(c, iowhy_wait_disks(0, e->flags & IOWHY_EVF_HIDDEN ? e->arg2 : 0,
						       k->diskmask), dt);
		break;
	default:
		c->other_ns += dt;
		break;
	}
}

static void start_call(struct ct_task *k, const struct iowhy_event *e)
{
	memset(&k->cur, 0, sizeof(k->cur));
	k->cur.tid = e->tid;
	k->cur.tgid = e->tgid;
	k->cur.nr = e->nr;
	k->cur.start_ns = e->ts;
	k->whole = 1;
}

static void end_call(struct calltrack *t, struct ct_task *k, uint64_t now)
{
	if (!k->whole)
		return;
	k->cur.end_ns = now;
	t->calls++;
	if (t->done)
		t->done(t->ctx, &k->cur);
	k->whole = 0;
}

static void on_state(struct calltrack *t, const struct iowhy_event *e)
{
	struct ct_task *k = find(t, e->tid);

	if (!k) {
		if (e->state != IOWHY_TS_DEAD)
			add(t, e->tid, e->state, e->nr, e->ts); /* a call in progress: not whole */
		return;
	}
	account(k, e);
	if (e->state == IOWHY_TS_DEAD) {
		drop(t, e->tid);
		return;
	}
	if (k->nr != IOWHY_NR_NONE && (e->nr == IOWHY_NR_NONE || e->nr != k->nr))
		end_call(t, k, e->ts);
	if (e->nr != IOWHY_NR_NONE && (k->nr == IOWHY_NR_NONE || e->nr != k->nr)) {
		if (e->state == IOWHY_TS_KERNEL)
			start_call(k, e);
		else
			k->whole = 0; /* its entry was not seen */
	}
	k->nr = e->nr;
	k->state = e->state;
	k->last_ns = e->ts;
	if (e->state == IOWHY_TS_DWAIT)
		k->diskmask = e->arg;
}

void calltrack_event(struct calltrack *t, const struct iowhy_event *e)
{
	struct ct_task *k;

	switch (e->type) {
	case IOWHY_EV_STATE:
		on_state(t, e);
		break;
	case IOWHY_EV_FORK:
		/* the child returns from the parent's clone: not a whole call */
		drop(t, e->arg);
		k = add(t, e->arg, IOWHY_TS_RUNQ, e->nr, e->ts);
		if (k)
			k->whole = 0;
		break;
	default:
		break;
	}
}

void calltrack_free(struct calltrack *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		struct ct_task *k = t->tab[i], *n;

		for (; k; k = n) {
			n = k->next;
			free(k);
		}
	}
	free(t->tab);
	memset(t, 0, sizeof(*t));
}
