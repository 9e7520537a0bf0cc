// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline's devices (see timeline.h): per device one process track whose threads are lanes of
 * requests that never overlap; each request a slice ("write 64 KiB") holding its queue and device
 * slices; a flow from the syscall slice of the tree task that queued it; a counter of the device's
 * queue depth; and on pid 0 a counter of the dirty bytes.
 */
#include <stdlib.h>
#include <string.h>
#include "timeline_priv.h"
#include "units.h"

#define DEV_PID0 0x40000000u     /* above any pid (pid_max <= 2^22) */
#define DEV_PID_STEP 0x10000u    /* a device's lanes are its pid + 1 + lane */
#define MAX_LANES (DEV_PID_STEP - 2)

void timeline_request(void *ctx, const struct io_rq_rec *r)
{
	struct timeline *tl = ctx;
	uint64_t start = r->t_insert ? r->t_insert : r->t_queue;
	struct tl_req *q;

	if (tl->rq_dropped || tl->n + tl->nrq >= tl->max ||
	    tl_grow((void **)&tl->rq, tl->nrq, &tl->caprq, sizeof(*tl->rq), tl->max - tl->n)) {
		if (!tl->rq_dropped++ && !tl->dropped)
			tl->cut_ns = r->t_done;
		return;
	}
	q = &tl->rq[tl->nrq++];
	memset(q, 0, sizeof(*q));
	/* the report's queue time: from the last insert (else the first bio) to the issue */
	q->issue = r->t_issue;
	q->begin = start && start < q->issue ? start : q->issue;
	q->done = r->t_done > q->issue ? r->t_done : q->issue;
	q->submit = r->t_queue && r->t_queue <= q->begin ? r->t_queue : 0;
	q->bytes = r->bytes;
	q->dev = r->dev;
	q->tid = r->tid;
	q->depth = r->depth;
	q->op = r->op;
	q->cls = r->cls;
	q->requeues = r->requeues;
}

void timeline_dirty(void *ctx, uint64_t ts, uint64_t tree, uint64_t sys_dirty, uint64_t sys_wb)
{
	struct timeline *tl = ctx;

	if (tl_grow((void **)&tl->dt, tl->ndt, &tl->capdt, sizeof(*tl->dt), tl->max)) {
		tl->dt_dropped++;
		return;
	}
	tl->dt[tl->ndt++] = (struct tl_dirty){ ts, tree, sys_dirty, sys_wb };
}

int timeline_devices(struct timeline *tl, const struct io_phase *p)
{
	for (size_t i = 0; p && i < p->ndevs; i++) {
		size_t j = 0;

		while (j < tl->ndevs && tl->devs[j].dev != p->devs[i].dev)
			j++;
		if (j == tl->ndevs) {
			if (tl_grow((void **)&tl->devs, tl->ndevs, &tl->capdevs, sizeof(*tl->devs),
				    SIZE_MAX))
				return -1;
			tl->ndevs++;
		}
		tl->devs[j].dev = p->devs[i].dev;
		snprintf(tl->devs[j].name, sizeof(tl->devs[j].name), "%s", p->devs[i].name);
	}
	return 0;
}

void timeline_requests_lost(struct timeline *tl, uint64_t lost)
{
	tl->rq_lost = lost;
}

uint64_t timeline_requests(const struct timeline *tl)
{
	return tl->nrq;
}

uint64_t timeline_requests_dropped(const struct timeline *tl)
{
	return tl->rq_dropped;
}

void tl_free_devices(struct timeline *tl)
{
	free(tl->rq);
	free(tl->dt);
	free(tl->devs);
}

/* ---- Writing ---- */

static void dev_name(const struct timeline *tl, uint32_t dev, char *buf, size_t n)
{
	for (size_t i = 0; i < tl->ndevs; i++) {
		if (tl->devs[i].dev == dev && tl->devs[i].name[0]) {
			snprintf(buf, n, "%s", tl->devs[i].name);
			return;
		}
	}
	snprintf(buf, n, "%u:%u", IO_DEV_MAJOR(dev), IO_DEV_MINOR(dev));
}

static int cmp_req(const void *a, const void *b)
{
	const struct tl_req *x = *(const struct tl_req *const *)a;
	const struct tl_req *y = *(const struct tl_req *const *)b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

struct tid_tgid {
	uint32_t tid, tgid;
};

static int cmp_tid(const void *a, const void *b)
{
	const struct tid_tgid *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The thread group of every task with slices, sorted by tid (*n of them; NULL when none). */
static struct tid_tgid *task_groups(const struct timeline *tl, size_t *n)
{
	struct tid_tgid *t = malloc((tl->n ? tl->n : 1) * sizeof(*t));
	size_t k = 0;

	*n = 0;
	if (!t)
		return NULL;
	for (size_t i = 0; i < tl->n; i++)
		t[i] = (struct tid_tgid){ tl->s[i].tid, tl->s[i].tgid };
	qsort(t, tl->n, sizeof(*t), cmp_tid);
	for (size_t i = 0; i < tl->n; i++)
		if (!k || t[k - 1].tid != t[i].tid)
			t[k++] = t[i];
	*n = k;
	return t;
}

static uint32_t tgid_of(const struct tid_tgid *t, size_t n, uint32_t tid)
{
	struct tid_tgid key = { tid, 0 }, *f;

	f = tid && t ? bsearch(&key, t, n, sizeof(*t), cmp_tid) : NULL;
	return f ? f->tgid : 0;
}

/* A slice on a device lane. */
static void req_part(FILE *out, uint32_t pid, uint32_t tid, const char *cat, const char *name,
		     uint64_t b, uint64_t e, uint64_t base)
{
	fprintf(out, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"cat\":\"%s\",\"name\":\"%s\",\"ts\":",
		pid, tid, cat, name);
	tl_json_us(out, b, base);
	fputs(",\"dur\":", out);
	tl_json_dur(out, b, e, base);
	fputs("}", out);
}

/* One request: its slice with the queue and device parts inside; the flow from its submitter's
 * syscall slice when that task has a track. Returns the events written. */
static uint64_t write_req(FILE *out, const struct tl_req *q, const char *dev, uint32_t pid,
			  uint32_t lane, uint64_t id, uint32_t tgid, uint64_t base)
{
	char size[32];
	uint64_t ev = 2;

	fmt_bytes(size, sizeof(size), q->bytes);
	fprintf(out, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"cat\":\"request\",\"name\":\"%s %s\","
		     "\"ts\":", pid, lane, io_op_name(q->op), size);
	tl_json_us(out, q->begin, base);
	fputs(",\"dur\":", out);
	tl_json_dur(out, q->begin, q->done, base);
	fputs(",\"args\":{\"dev\":", out);
	tl_json_str(out, dev);
	fprintf(out, ",\"op\":\"%s\",\"bytes\":%llu,\"class\":\"%s\",\"queue_ns\":%llu,"
		     "\"device_ns\":%llu,\"depth\":%u,\"requeues\":%u,\"submitter_tid\":%u}}",
		io_op_name(q->op), (unsigned long long)q->bytes, io_class_key(q->cls),
		(unsigned long long)(q->issue - q->begin), (unsigned long long)(q->done - q->issue),
		q->depth, q->requeues, q->tid);
	if (q->issue > q->begin) {
		req_part(out, pid, lane, "queue", "queue", q->begin, q->issue, base);
		ev++;
	}
	req_part(out, pid, lane, "device", "device", q->issue, q->done, base);
	if (!tgid || !q->submit)
		return ev;
	fprintf(out, ",\n{\"ph\":\"s\",\"cat\":\"submit\",\"name\":\"submit\",\"id\":%llu,"
		     "\"pid\":%u,\"tid\":%u,\"ts\":", (unsigned long long)id, tgid, q->tid);
	tl_json_us(out, q->submit, base);
	fprintf(out, "},\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"submit\",\"name\":\"submit\","
		     "\"id\":%llu,\"pid\":%u,\"tid\":%u,\"ts\":", (unsigned long long)id, pid, lane);
	tl_json_us(out, q->begin, base);
	fputs("}", out);
	return ev + 2;
}

/* The lane of a request beginning at `begin`: the first whose last request has ended. */
static uint32_t lane_for(uint64_t *ends, uint32_t *nlanes, uint64_t begin, uint64_t done)
{
	uint32_t l = 0;

	while (l < *nlanes && ends[l] > begin)
		l++;
	if (l == *nlanes) {
		if (*nlanes < MAX_LANES)
			(*nlanes)++;
		else
			l = MAX_LANES - 1; /* (not reached: that many requests in flight at once) */
	}
	ends[l] = done;
	return l;
}

struct qedge {
	uint64_t t;
	int dq, dd;     /* change of the queued and on-device counts */
};

static int cmp_qedge(const void *a, const void *b)
{
	const struct qedge *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/* The queue depth of one device (its requests r[0..n)), one sample per change, within *budget. */
static uint64_t write_depth(FILE *out, const struct tl_req *const *r, size_t n, uint32_t pid,
			    uint64_t base, uint64_t *budget, int *cut)
{
	struct qedge *e = malloc((3 * n + 1) * sizeof(*e));
	long long q = 0, d = 0;
	uint64_t ev = 0;
	size_t ne = 0;

	if (!e)
		return 0;
	for (size_t i = 0; i < n; i++) {
		e[ne++] = (struct qedge){ r[i]->begin, 1, 0 };
		e[ne++] = (struct qedge){ r[i]->issue, -1, 1 };
		e[ne++] = (struct qedge){ r[i]->done, 0, -1 };
	}
	qsort(e, ne, sizeof(*e), cmp_qedge);
	for (size_t i = 0; i < ne; i++) {
		q += e[i].dq;
		d += e[i].dd;
		if (i + 1 < ne && e[i + 1].t == e[i].t)
			continue;
		if (!*budget) {
			*cut = 1;
			break;
		}
		fprintf(out, ",\n{\"ph\":\"C\",\"name\":\"queue depth\",\"pid\":%u,\"ts\":", pid);
		tl_json_us(out, e[i].t, base);
		fprintf(out, ",\"args\":{\"queued\":%lld,\"on device\":%lld}}", q, d);
		(*budget)--;
		ev++;
	}
	free(e);
	return ev;
}

/* Names of a device's track and lanes. */
static uint64_t write_dev_names(FILE *out, const char *dev, uint32_t pid, uint32_t nlanes)
{
	fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":", pid);
	fprintf(out, "\"device %s\"}}", dev);
	fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,"
		     "\"args\":{\"sort_index\":%u}}", pid, pid);
	for (uint32_t l = 0; l < nlanes; l++)
		fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
			     "\"args\":{\"name\":\"%s requests %u\"}}", pid, pid + 1 + l, dev, l + 1);
	return 2 + nlanes;
}

/* One device: its requests r[0..n) (sorted by begin) on lanes, then its queue depth. */
static uint64_t write_dev(FILE *out, const struct timeline *tl, const struct tl_req *const *r,
			  size_t n, uint32_t pid, const struct tid_tgid *tg, size_t ntg,
			  uint64_t *id, uint64_t base, uint64_t *budget, int *cut)
{
	uint64_t *ends = calloc(MAX_LANES, sizeof(*ends)), ev = 0;
	uint32_t nlanes = 0;
	char dev[32];

	if (!ends)
		return 0;
	dev_name(tl, r[0]->dev, dev, sizeof(dev));
	for (size_t i = 0; i < n; i++) {
		uint32_t lane = lane_for(ends, &nlanes, r[i]->begin, r[i]->done);

		ev += write_req(out, r[i], dev, pid, pid + 1 + lane, ++*id,
				tgid_of(tg, ntg, r[i]->tid), base);
	}
	free(ends);
	ev += write_dev_names(out, dev, pid, nlanes);
	return ev + write_depth(out, r, n, pid, base, budget, cut);
}

/* The dirty bytes over time on pid 0, within *budget. */
static uint64_t write_dirty(FILE *out, const struct timeline *tl, uint64_t base, uint64_t *budget,
			    int *cut)
{
	uint64_t ev = 0;

	for (size_t i = 0; i < tl->ndt; i++) {
		const struct tl_dirty *d = &tl->dt[i];

		if (!*budget) {
			*cut = 1;
			break;
		}
		fputs(",\n{\"ph\":\"C\",\"name\":\"dirty bytes\",\"pid\":0,\"ts\":", out);
		tl_json_us(out, d->ts, base);
		fprintf(out, ",\"args\":{\"workload's files\":%llu,\"system dirty\":%llu,"
			     "\"system writeback\":%llu}}", (unsigned long long)d->tree,
			(unsigned long long)d->sys_dirty, (unsigned long long)d->sys_wb);
		(*budget)--;
		ev++;
	}
	return ev;
}

uint64_t tl_write_devices(FILE *out, const struct timeline *tl, uint64_t base, uint64_t budget,
			  int *cut)
{
	const struct tl_req **o = malloc((tl->nrq ? tl->nrq : 1) * sizeof(*o));
	struct tid_tgid *tg;
	uint64_t ev, id = 0;
	size_t ntg, i, j;
	uint32_t pid = DEV_PID0;

	if (!o)
		return 0;
	/* first: a few samples a second, where the queue depths can be two per request */
	ev = write_dirty(out, tl, base, &budget, cut);
	tg = task_groups(tl, &ntg);
	for (i = 0; i < tl->nrq; i++)
		o[i] = &tl->rq[i];
	qsort(o, tl->nrq, sizeof(*o), cmp_req);
	for (i = 0; i < tl->nrq; i = j, pid += DEV_PID_STEP) {
		for (j = i; j < tl->nrq && o[j]->dev == o[i]->dev; j++)
			;
		ev += write_dev(out, tl, o + i, j - i, pid, tg, ntg, &id, base, &budget, cut);
	}
	free(tg);
	free(o);
	return ev;
}
