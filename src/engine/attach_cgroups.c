// SPDX-License-Identifier: GPL-2.0
/* iowhy attach: the per-cgroup views (see attach_cgroups.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attach_cgroups.h"
#include "iowhy.h"

struct cg_view {
	char path[CGROUP_PATH_LEN];
	uint32_t nprocs;
	struct model m;
	uint64_t prev[WB_COUNT];   /* --interval: its buckets at the previous interval */
	uint64_t rbytes, wbytes;   /* its processes' syscall bytes so far (summed each interval) */
	uint64_t prev_r, prev_w;   /* and at the previous interval */
};

struct cg_views {
	struct cg_view *v[CG_VIEWS_MAX];
	int n;
	uint64_t untracked;
};

struct cg_views *cg_views_new(void)
{
	return calloc(1, sizeof(struct cg_views));
}

int cgroup2_path_of(pid_t pid, char *buf, size_t n)
{
	char path[64], line[4200];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		size_t len;

		if (strncmp(line, "0::", 3))
			continue;
		len = strcspn(line + 3, "\n");
		line[3 + len] = 0;
		if (len >= n && n > 4) /* cut: keep the start, mark the end */
			snprintf(buf, n, "%.*s...", (int)(n - 4), line + 3);
		else
			snprintf(buf, n, "%s", line + 3);
		found = 0;
	}
	fclose(f);
	return found;
}

int cg_views_of(struct cg_views *c, pid_t tgid, uint64_t start)
{
	char path[CGROUP_PATH_LEN];
	struct cg_view *v;

	if (cgroup2_path_of(tgid, path, sizeof(path)))
		return -1;
	for (int i = 0; i < c->n; i++) {
		if (!strcmp(c->v[i]->path, path)) {
			c->v[i]->nprocs++;
			return i;
		}
	}
	if (c->n == CG_VIEWS_MAX || !(v = calloc(1, sizeof(*v)))) {
		c->untracked++;
		return -1;
	}
	memcpy(v->path, path, sizeof(path));
	v->nprocs = 1;
	model_init(&v->m, start);
	c->v[c->n] = v;
	return c->n++;
}

void cg_views_count(struct cg_views *c, int idx)
{
	if (idx >= 0 && idx < c->n)
		c->v[idx]->nprocs++;
}

struct model *cg_views_model(struct cg_views *c, int idx)
{
	return idx >= 0 && idx < c->n ? &c->v[idx]->m : NULL;
}

uint64_t cg_views_untracked(const struct cg_views *c)
{
	return c->untracked;
}

static uint64_t row_busy(const struct cgroup_row *r)
{
	return r->bucket_ns[WB_USER] + r->bucket_ns[WB_KERNEL] + r->bucket_ns[WB_IOWAIT] +
	       r->bucket_ns[WB_RUNQ];
}

/* Busiest first, then by path. Rows carry their view's index in `reads` while sorting. */
static int cmp_rows(const void *x, const void *y)
{
	const struct cgroup_row *a = x, *b = y;
	uint64_t ba = row_busy(a), bb = row_busy(b);

	return ba < bb ? 1 : ba > bb ? -1 : strcmp(a->path, b->path);
}

/* The view's row: its wall view, its tasks' CPU. */
static void view_row(struct cg_view *v, uint64_t end, struct cgroup_row *r)
{
	model_finish(&v->m, v->m.live ? end : v->m.last_dead_ns);
	memcpy(r->path, v->path, sizeof(r->path));
	r->nprocs = v->nprocs;
	r->start_ns = v->m.wall.start_ns;
	r->end_ns = v->m.wall.end_ns;
	memcpy(r->bucket_ns, v->m.wall.bucket_ns, sizeof(r->bucket_ns));
	r->unattributed_ns = v->m.wall.unattributed_ns;
	for (size_t k = 0; k < v->m.ncomms; k++)
		r->cpu_ns += v->m.comms[k].state_ns[IOWHY_TS_USER] +
			     v->m.comms[k].state_ns[IOWHY_TS_KERNEL];
}

void cg_views_finish(struct cg_views *c, uint64_t end, struct proc_row *procs, size_t nprocs,
		     int lite, struct cgroup_row **out, size_t *n)
{
	struct cgroup_row *rows = c->n ? calloc((size_t)c->n, sizeof(*rows)) : NULL;
	int *order = c->n ? calloc((size_t)c->n, sizeof(*order)) : NULL;

	*out = NULL;
	*n = 0;
	if (!rows || !order) {
		free(rows);
		free(order);
		return;
	}
	for (int i = 0; i < c->n; i++) {
		view_row(c->v[i], end, &rows[i]);
		rows[i].reads = (uint64_t)i;
	}
	qsort(rows, (size_t)c->n, sizeof(*rows), cmp_rows);
	for (int i = 0; i < c->n; i++) {
		order[rows[i].reads] = i;
		rows[i].reads = 0;
	}
	for (size_t p = 0; p < nprocs; p++) {
		struct cgroup_row *r;

		if (procs[p].cgroup < 0 || procs[p].cgroup >= c->n) {
			procs[p].cgroup = -1;
			continue;
		}
		procs[p].cgroup = order[procs[p].cgroup];
		r = &rows[procs[p].cgroup];
		if (lite)
			continue;
		r->read_bytes += procs[p].read_bytes;
		r->write_bytes += procs[p].write_bytes;
		r->reads += procs[p].reads;
		r->writes += procs[p].writes;
	}
	if (lite)
		for (int i = 0; i < c->n; i++)
			rows[i].read_bytes = rows[i].write_bytes = rows[i].reads = rows[i].writes =
				~0ull;
	free(order);
	*out = rows;
	*n = (size_t)c->n;
}

void cg_views_clear_bytes(struct cg_views *c)
{
	for (int i = 0; i < c->n; i++)
		c->v[i]->rbytes = c->v[i]->wbytes = 0;
}

void cg_views_add_bytes(struct cg_views *c, int idx, uint64_t r, uint64_t w)
{
	if (idx < 0 || idx >= c->n)
		return;
	c->v[idx]->rbytes += r;
	c->v[idx]->wbytes += w;
}

static uint64_t iv_busy(const uint64_t *b)
{
	return b[WB_USER] + b[WB_KERNEL] + b[WB_IOWAIT] + b[WB_RUNQ];
}

/* Busiest in the interval first (then the most bytes, then by path). */
static int cmp_iv(const void *x, const void *y)
{
	const struct iv_cgroup *a = x, *b = y;
	uint64_t ba = iv_busy(a->bucket_ns), bb = iv_busy(b->bucket_ns);
	uint64_t ya = a->read_bytes + a->write_bytes, yb = b->read_bytes + b->write_bytes;

	if (ba != bb)
		return ba < bb ? 1 : -1;
	if (ya != yb)
		return ya < yb ? 1 : -1;
	return strcmp(a->path, b->path);
}

/* Busiest since the start first, then by path. */
static int cmp_total(const void *x, const void *y)
{
	const struct iv_cgroup *a = x, *b = y;
	uint64_t ba = iv_busy(a->total_bucket_ns), bb = iv_busy(b->total_bucket_ns);

	return ba < bb ? 1 : ba > bb ? -1 : strcmp(a->path, b->path);
}

/* View v's interval up to `now` into o, and its prevs moved on. */
static void view_interval(struct cg_view *v, uint64_t now, int lite, struct iv_cgroup *o)
{
	model_advance(&v->m, now);
	snprintf(o->path, sizeof(o->path), "%s", v->path);
	o->nprocs = v->nprocs;
	for (int b = 0; b < WB_COUNT; b++) {
		o->bucket_ns[b] = v->m.wall.bucket_ns[b] - v->prev[b];
		o->total_bucket_ns[b] = v->m.wall.bucket_ns[b];
		v->prev[b] = v->m.wall.bucket_ns[b];
		o->ns += o->bucket_ns[b];
	}
	if (lite) {
		o->read_bytes = o->write_bytes = o->total_read_bytes = o->total_write_bytes = ~0ull;
		return;
	}
	/* a process that left the table (it exited, its counts gone) must not make it go back */
	if (v->rbytes < v->prev_r)
		v->rbytes = v->prev_r;
	if (v->wbytes < v->prev_w)
		v->wbytes = v->prev_w;
	o->read_bytes = v->rbytes - v->prev_r;
	o->write_bytes = v->wbytes - v->prev_w;
	o->total_read_bytes = v->prev_r = v->rbytes;
	o->total_write_bytes = v->prev_w = v->wbytes;
}

/* The cgroups after the first `keep` of all[n], summed into one row named "other". */
static void sum_other(const struct iv_cgroup *all, int n, int keep, int lite, struct iv_cgroup *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->path, sizeof(o->path), "other");
	for (int i = keep; i < n; i++) {
		o->nprocs += all[i].nprocs;
		o->ns += all[i].ns;
		for (int b = 0; b < WB_COUNT; b++) {
			o->bucket_ns[b] += all[i].bucket_ns[b];
			o->total_bucket_ns[b] += all[i].total_bucket_ns[b];
		}
		o->read_bytes += all[i].read_bytes;
		o->write_bytes += all[i].write_bytes;
		o->total_read_bytes += all[i].total_read_bytes;
		o->total_write_bytes += all[i].total_write_bytes;
	}
	if (lite)
		o->read_bytes = o->write_bytes = o->total_read_bytes = o->total_write_bytes = ~0ull;
}

void cg_views_interval(struct cg_views *c, uint64_t now, int lite, struct interval_sample *s)
{
	struct iv_cgroup *all = calloc(c->n ? (size_t)c->n : 1, sizeof(*all));
	int n = 0, keep;

	s->ncgroups = s->ncg_total = 0;
	if (!all)
		return;
	for (int i = 0; i < c->n; i++)
		view_interval(c->v[i], now, lite, &all[i]);
	/* Prometheus: the busiest since the start, the rest as "other" */
	qsort(all, (size_t)c->n, sizeof(*all), cmp_total);
	keep = c->n < IV_TOP_CGROUPS ? c->n : IV_TOP_CGROUPS;
	memcpy(s->cg_total, all, (size_t)keep * sizeof(*all));
	s->ncg_total = keep;
	if (c->n > keep)
		sum_other(all, c->n, keep, lite, &s->cg_total[s->ncg_total++]);
	/* the block: the busiest of the interval, those that did something */
	qsort(all, (size_t)c->n, sizeof(*all), cmp_iv);
	while (n < c->n && n < IV_TOP_CGROUPS &&
	       (iv_busy(all[n].bucket_ns) || (!lite && all[n].read_bytes + all[n].write_bytes)))
		n++;
	memcpy(s->cgroups, all, (size_t)n * sizeof(*all));
	s->ncgroups = n;
	free(all);
}

void cg_views_free(struct cg_views *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		model_free(&c->v[i]->m);
		free(c->v[i]);
	}
	free(c);
}
