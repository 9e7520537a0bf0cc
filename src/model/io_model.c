// SPDX-License-Identifier: GPL-2.0
/* The pure I/O model: see io_model.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io_model.h"
#include "hist.h"

/* ---- /sys/block stat ---- */

int io_sysstat_parse(const char *text, struct io_sysstat *out)
{
	uint64_t v[17] = { 0 };
	const char *s = text;
	char *end;
	int n = 0;

	memset(out, 0, sizeof(*out));
	while (n < 17) {
		unsigned long long x = strtoull(s, &end, 10);

		if (end == s)
			break;
		v[n++] = x;
		s = end;
	}
	if (n < 11)
		return -1;
	out->rd_ios = v[0]; out->rd_merges = v[1]; out->rd_sectors = v[2]; out->rd_ticks = v[3];
	out->wr_ios = v[4]; out->wr_merges = v[5]; out->wr_sectors = v[6]; out->wr_ticks = v[7];
	out->in_flight = v[8]; out->io_ticks = v[9]; out->time_in_queue = v[10];
	out->dc_ios = v[11]; out->dc_merges = v[12]; out->dc_sectors = v[13]; out->dc_ticks = v[14];
	out->fl_ios = v[15]; out->fl_ticks = v[16];
	return n;
}

static uint64_t sub0(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

void io_sysstat_delta(const struct io_sysstat *a, const struct io_sysstat *b, struct io_sysstat *o)
{
	o->rd_ios = sub0(b->rd_ios, a->rd_ios);
	o->rd_merges = sub0(b->rd_merges, a->rd_merges);
	o->rd_sectors = sub0(b->rd_sectors, a->rd_sectors);
	o->rd_ticks = sub0(b->rd_ticks, a->rd_ticks);
	o->wr_ios = sub0(b->wr_ios, a->wr_ios);
	o->wr_merges = sub0(b->wr_merges, a->wr_merges);
	o->wr_sectors = sub0(b->wr_sectors, a->wr_sectors);
	o->wr_ticks = sub0(b->wr_ticks, a->wr_ticks);
	o->in_flight = b->in_flight;
	o->io_ticks = sub0(b->io_ticks, a->io_ticks);
	o->time_in_queue = sub0(b->time_in_queue, a->time_in_queue);
	o->dc_ios = sub0(b->dc_ios, a->dc_ios);
	o->dc_merges = sub0(b->dc_merges, a->dc_merges);
	o->dc_sectors = sub0(b->dc_sectors, a->dc_sectors);
	o->dc_ticks = sub0(b->dc_ticks, a->dc_ticks);
	o->fl_ios = sub0(b->fl_ios, a->fl_ios);
	o->fl_ticks = sub0(b->fl_ticks, a->fl_ticks);
}

/* ---- the phase result ---- */

struct io_phase *io_phase_new(void)
{
	return calloc(1, sizeof(struct io_phase));
}

void io_result_free(struct io_phase *p)
{
	if (!p)
		return;
	free(p->rows);
	free(p->devs);
	free(p->fs);
	free(p->jbd);
	free(p->stacks);
	free(p);
}

void io_stat_merge(struct io_stat *a, const struct io_stat *b)
{
	int k;

	a->requests += b->requests;
	a->bytes += b->bytes;
	a->seq += b->seq;
	a->requeues += b->requeues;
	a->queue_ns += b->queue_ns;
	a->dev_ns += b->dev_ns;
	if (b->queue_max > a->queue_max)
		a->queue_max = b->queue_max;
	if (b->dev_max > a->dev_max)
		a->dev_max = b->dev_max;
	for (k = 0; k < IO_LAT_SLOTS; k++) {
		a->qhist[k] += b->qhist[k];
		a->dhist[k] += b->dhist[k];
	}
	for (k = 0; k < IO_SIZE_SLOTS; k++)
		a->size_hist[k] += b->size_hist[k];
	for (k = 0; k < IO_DEPTH_SLOTS; k++)
		a->depth_hist[k] += b->depth_hist[k];
}

int io_phase_add(struct io_phase *p, uint32_t dev, uint8_t op, uint8_t cls, const struct io_stat *st)
{
	return io_phase_add_upper(p, dev, 0, op, cls, st);
}

int io_phase_add_upper(struct io_phase *p, uint32_t dev, uint32_t upper, uint8_t op, uint8_t cls,
		       const struct io_stat *st)
{
	struct io_row *r;
	size_t i;

	for (i = 0; i < p->nrows; i++) {
		r = &p->rows[i];
		if (r->dev == dev && r->upper == upper && r->op == op && r->cls == cls) {
			io_stat_merge(&r->st, st);
			return 0;
		}
	}
	if (p->nrows == p->caprows) {
		size_t cap = p->caprows ? 2 * p->caprows : 16;

		r = realloc(p->rows, cap * sizeof(*r));
		if (!r)
			return -1;
		p->rows = r;
		p->caprows = cap;
	}
	r = &p->rows[p->nrows++];
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->upper = upper;
	r->op = op;
	r->cls = cls;
	r->st = *st;
	return 0;
}

const struct io_devinfo *io_phase_find_dev(const struct io_phase *p, uint32_t dev)
{
	for (size_t i = 0; i < p->ndevs; i++)
		if (p->devs[i].dev == dev)
			return &p->devs[i];
	return NULL;
}

struct io_devinfo *io_phase_dev(struct io_phase *p, uint32_t dev)
{
	struct io_devinfo *d = (struct io_devinfo *)io_phase_find_dev(p, dev);

	if (d)
		return d;
	if (p->ndevs == p->capdevs) {
		size_t cap = p->capdevs ? 2 * p->capdevs : 8;

		d = realloc(p->devs, cap * sizeof(*d));
		if (!d)
			return NULL;
		p->devs = d;
		p->capdevs = cap;
	}
	d = &p->devs[p->ndevs++];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->disk = dev;
	snprintf(d->name, sizeof(d->name), "%u:%u", IO_DEV_MAJOR(dev), IO_DEV_MINOR(dev));
	snprintf(d->disk_name, sizeof(d->disk_name), "%s", d->name);
	return d;
}

uint32_t io_phase_disk_of(const struct io_phase *p, uint32_t dev)
{
	const struct io_devinfo *d = io_phase_find_dev(p, dev);

	return d ? d->disk : dev;
}

size_t io_phase_sum(const struct io_phase *p, uint32_t disk, int op, int cls, struct io_stat *out)
{
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];

		if (disk && io_phase_disk_of(p, r->dev) != disk)
			continue;
		if ((op >= 0 && r->op != op) || (cls >= 0 && r->cls != cls))
			continue;
		io_stat_merge(out, &r->st);
		n++;
	}
	return n;
}

const char *io_op_name(int op)
{
	static const char *const n[IO_OP_COUNT] = { "read", "write", "flush", "discard", "other" };

	return op >= 0 && op < IO_OP_COUNT ? n[op] : "?";
}

const char *io_class_name(int cls)
{
	static const char *const n[IO_CL_COUNT] = {
		"workload", "writeback for the workload", "writeback (other)", "journal (jbd2)",
		"other processes", "untracked", "below a stacked device",
	};

	return cls >= 0 && cls < IO_CL_COUNT ? n[cls] : "?";
}

const char *io_class_key(int cls)
{
	static const char *const n[IO_CL_COUNT] = {
		"tree", "writeback_tree", "writeback", "journal", "other", "untracked", "stack",
	};

	return cls >= 0 && cls < IO_CL_COUNT ? n[cls] : "?";
}

int io_phase_add_stack(struct io_phase *p, const struct io_stackline *sl)
{
	struct io_stackline *n = realloc(p->stacks, (p->nstacks + 1) * sizeof(*n));

	if (!n)
		return -1;
	p->stacks = n;
	p->stacks[p->nstacks++] = *sl;
	return 0;
}

/* ---- stacked devices ---- */

/* Whether row r is on device dev itself or on one of its partitions. */
static int row_on(const struct io_phase *p, const struct io_row *r, uint32_t dev)
{
	return r->dev == dev || io_phase_disk_of(p, r->dev) == dev;
}

double io_upper_share(const struct io_phase *p, uint32_t upper, int op)
{
	uint64_t mine = 0, all = 0;

	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];

		if (r->op != op || !row_on(p, r, upper) || r->cls == IO_CL_JOURNAL ||
		    r->cls == IO_CL_UNKNOWN)
			continue;
		all += r->st.bytes;
		if (r->cls == IO_CL_TREE || r->cls == IO_CL_WB_TREE)
			mine += r->st.bytes;
		else if (r->cls == IO_CL_STACK)
			mine += r->charged;
	}
	return all ? (double)mine / (double)all : -1.0;
}

/* How many stacked levels charge their I/O onto device `upper` in p: 0 when none (a top device),
 * so rows are charged top down (a loop over a loop). */
static int stack_depth(const struct io_phase *p, uint32_t upper, int guard)
{
	int d = 0;

	for (size_t i = 0; guard < 8 && i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];

		if (r->cls == IO_CL_STACK && row_on(p, r, upper)) {
			int k = 1 + stack_depth(p, r->upper, guard + 1);

			d = k > d ? k : d;
		}
	}
	return d;
}

void io_stack_charge(struct io_phase *p, const struct io_phase *const *prev, int nprev)
{
	int maxd = 0;

	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i].cls == IO_CL_STACK) {
			int d = stack_depth(p, p->rows[i].upper, 0);

			maxd = d > maxd ? d : maxd;
		}
	/* rows for a top device first (nothing stacked charged on it): their charge feeds the
	 * share of the device they sit on, which is charged next */
	for (int level = 0; level <= maxd; level++) {
		for (size_t i = 0; i < p->nrows; i++) {
			struct io_row *r = &p->rows[i];
			double share;

			if (r->cls != IO_CL_STACK || stack_depth(p, r->upper, 0) != level)
				continue;
			share = io_upper_share(p, r->upper, r->op);
			for (int k = 0; share < 0 && k < nprev; k++)
				share = prev[k] ? io_upper_share(prev[k], r->upper, r->op) : -1.0;
			r->charged = share > 0 ? (uint64_t)(share * (double)r->st.bytes + 0.5) : 0;
		}
	}
}

uint64_t io_phase_workload_bytes(const struct io_phase *p, uint32_t disk, int op)
{
	uint64_t b = 0;

	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];

		if ((disk && io_phase_disk_of(p, r->dev) != disk) || (op >= 0 && r->op != op))
			continue;
		if (r->cls == IO_CL_TREE || r->cls == IO_CL_WB_TREE)
			b += r->st.bytes;
		else if (r->cls == IO_CL_STACK)
			b += r->charged;
	}
	return b;
}

void io_level_stat(const struct io_phase *p, uint32_t dev, struct io_level_stat *o)
{
	const struct io_devinfo *d = io_phase_find_dev(p, dev);

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];

		if (io_phase_disk_of(p, r->dev) != dev ||
		    (r->op != IO_OP_READ && r->op != IO_OP_WRITE))
			continue;
		o->requests += r->st.requests;
		o->bytes += r->st.bytes;
		o->queue_ns += r->st.queue_ns;
		o->dev_ns += r->st.dev_ns;
		if (r->cls == IO_CL_STACK) {
			o->below_bytes += r->st.bytes;
			o->below_workload_bytes += r->charged;
		}
	}
	o->workload_bytes = io_phase_workload_bytes(p, dev, IO_OP_READ) +
			    io_phase_workload_bytes(p, dev, IO_OP_WRITE);
	o->busy_ns = d ? d->busy_ns : 0;
}

uint64_t io_below_request_ns(const struct io_phase *p, uint32_t upper)
{
	uint64_t ns = 0;

	for (size_t i = 0; upper && i < p->nrows; i++)
		if (p->rows[i].cls == IO_CL_STACK && p->rows[i].upper == upper)
			ns += p->rows[i].st.queue_ns + p->rows[i].st.dev_ns;
	return ns;
}

/* The busy time (>= 1 request in flight) of the disks below upper (those its stack rows are on):
 * what the requests below can have overlapped, however many of them were in flight at once. */
static uint64_t below_busy_ns(const struct io_phase *p, uint32_t upper)
{
	uint32_t seen[8];
	int n = 0;
	uint64_t ns = 0;

	for (size_t i = 0; upper && i < p->nrows; i++) {
		const struct io_devinfo *d;
		uint32_t disk;
		int k;

		if (p->rows[i].cls != IO_CL_STACK || p->rows[i].upper != upper)
			continue;
		d = io_phase_find_dev(p, p->rows[i].dev);
		disk = d ? d->disk : p->rows[i].dev;
		for (k = 0; k < n && seen[k] != disk; k++)
			;
		if (k < n || n == 8)
			continue;
		seen[n++] = disk;
		d = io_phase_find_dev(p, disk);
		ns += d ? d->busy_ns : 0;
	}
	return ns;
}

uint64_t io_wait_below(const struct io_phase *p, uint32_t upper, uint64_t wait_ns)
{
	const struct io_devinfo *d = io_phase_find_dev(p, upper);
	uint64_t below = io_below_request_ns(p, upper), busy = d ? d->busy_ns : 0, part;
	uint64_t lbusy = below_busy_ns(p, upper);

	/* requests below in flight together: their summed time is more than the time they took */
	if (lbusy && below > lbusy)
		below = lbusy;
	if (!wait_ns || !below || !busy)
		return 0;
	part = below >= busy ? wait_ns : (uint64_t)((double)wait_ns * (double)below / (double)busy);
	return part < below ? part : below;
}

char *io_stackline_format(const struct io_phase *p, const struct io_stackline *sl, char *buf,
			  size_t len)
{
	size_t at = 0;
	int n = snprintf(buf, len, "%s", sl->head);

	at = n > 0 && (size_t)n < len ? (size_t)n : 0;
	for (int l = 0; l < sl->nlevels && l < IO_STACK_LEVELS; l++)
		for (int i = 0; i < sl->ndev[l] && i < IO_STACK_WIDTH && at < len; i++) {
			n = snprintf(buf + at, len - at, "%s%s", i ? ", " : " \u2192 ",
				     io_phase_dev_name(p, sl->dev[l][i]));
			if (n < 0 || (size_t)n >= len - at)
				return buf;
			at += (size_t)n;
		}
	return buf;
}

/* ---- busy time ---- */

static int cmp_interval(const void *a, const void *b)
{
	const struct io_interval *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

uint64_t io_interval_union(struct io_interval *iv, size_t n)
{
	uint64_t total = 0, cs = 0, ce = 0;
	int open = 0;

	qsort(iv, n, sizeof(*iv), cmp_interval);
	for (size_t i = 0; i < n; i++) {
		if (iv[i].end <= iv[i].start)
			continue;
		if (open && iv[i].start <= ce) {
			if (iv[i].end > ce)
				ce = iv[i].end;
			continue;
		}
		if (open)
			total += ce - cs;
		cs = iv[i].start;
		ce = iv[i].end;
		open = 1;
	}
	if (open)
		total += ce - cs;
	return total;
}

/* ---- request tracking ---- */

void io_sim_init(struct io_sim *s, struct io_phase *out, uint32_t phase)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
	s->phase = phase;
}

static struct io_bio *sim_bio(struct io_sim *s, uint64_t id, int create)
{
	int free_slot = -1;

	for (int i = 0; i < IO_SIM_MAX; i++) {
		if (s->bios[i].used && s->bios[i].id == id)
			return &s->bios[i].b;
		if (!s->bios[i].used && free_slot < 0)
			free_slot = i;
	}
	if (!create || free_slot < 0)
		return NULL;
	s->bios[free_slot].used = 1;
	s->bios[free_slot].id = id;
	memset(&s->bios[free_slot].b, 0, sizeof(struct io_bio));
	return &s->bios[free_slot].b;
}

static void sim_bio_delete(struct io_sim *s, uint64_t id)
{
	for (int i = 0; i < IO_SIM_MAX; i++)
		if (s->bios[i].used && s->bios[i].id == id)
			s->bios[i].used = 0;
}

static struct io_req *sim_req_find(struct io_sim *s, uint64_t id)
{
	for (int i = 0; i < IO_SIM_MAX; i++)
		if (s->reqs[i].used && s->reqs[i].id == id)
			return &s->reqs[i].r;
	return NULL;
}

static void sim_req_delete(struct io_sim *s, uint64_t id)
{
	for (int i = 0; i < IO_SIM_MAX; i++)
		if (s->reqs[i].used && s->reqs[i].id == id)
			s->reqs[i].used = 0;
}

/* req_get() of io.bpf.c. */
static struct io_req *sim_req_get(struct io_sim *s, uint64_t rq, uint64_t first_bio, uint8_t op)
{
	struct io_req *r = sim_req_find(s, rq);
	struct io_bio *b;

	if (r)
		return r;
	for (int i = 0; i < IO_SIM_MAX; i++) {
		if (s->reqs[i].used)
			continue;
		s->reqs[i].used = 1;
		s->reqs[i].id = rq;
		r = &s->reqs[i].r;
		memset(r, 0, sizeof(*r));
		b = first_bio ? sim_bio(s, first_bio, 0) : NULL;
		if (b) {
			r->t_queue = b->t_queue;
			r->dev = b->dev;
			r->phase = b->phase;
			r->cls = b->cls;
			sim_bio_delete(s, first_bio);
		} else {
			r->cls = IO_CL_UNKNOWN;
			r->phase = s->phase;
			s->lost.issue_unseen++;
		}
		r->op = op;
		return r;
	}
	s->lost.reqs_full++;
	return NULL;
}

void io_sim_bio_queue(struct io_sim *s, uint64_t bio, uint64_t now, uint32_t dev, uint8_t cls,
		      uint8_t phase)
{
	struct io_bio *b = sim_bio(s, bio, 1);

	if (!b) {
		s->lost.bios_full++;
		return;
	}
	b->t_queue = now;
	b->dev = dev;
	b->cls = cls;
	b->phase = phase;
}

void io_sim_bio_backmerge(struct io_sim *s, uint64_t bio)
{
	sim_bio_delete(s, bio);
	s->backmerges++;
}

void io_sim_bio_frontmerge(struct io_sim *s, uint64_t bio)
{
	(void)bio;
	s->frontmerges++;
}

void io_sim_rq_insert(struct io_sim *s, uint64_t rq, uint64_t first_bio, uint8_t op, uint64_t now)
{
	struct io_req *r = sim_req_get(s, rq, first_bio, op);

	if (r)
		r->t_insert = now;
}

void io_sim_rq_issue(struct io_sim *s, uint64_t rq, uint64_t first_bio, uint8_t op, uint64_t now,
		     uint64_t sector, uint32_t nr_sectors)
{
	struct io_req *r = sim_req_get(s, rq, first_bio, op);
	uint32_t depth;
	__u8 seq = 0;

	if (!r || r->issued)
		return;
	depth = io_dev_issue(&s->dev, now, s->phase, s->begin, sector, nr_sectors, &seq);
	io_req_issue(r, now, depth, seq);
}

void io_sim_rq_requeue(struct io_sim *s, uint64_t rq, uint64_t now)
{
	struct io_req *r = sim_req_find(s, rq);

	if (!r)
		return;
	s->requeues++;
	if (io_req_requeue(r, now))
		io_dev_done(&s->dev, now, s->phase, s->begin);
}

void io_sim_rq_merge(struct io_sim *s, uint64_t rq)
{
	sim_req_delete(s, rq);
	s->rq_merges++;
}

void io_sim_rq_complete(struct io_sim *s, uint64_t rq, uint64_t now, uint64_t nr_bytes,
			uint64_t remaining)
{
	struct io_req *r = sim_req_find(s, rq);
	struct io_stat st;

	if (!r || !r->issued) {
		s->lost.complete_untracked++;
		if (r)
			sim_req_delete(s, rq);
		return;
	}
	if (!io_req_complete(r, nr_bytes, remaining))
		return;
	if (r->t_issue > now)
		s->lost.clock_reversed++;
	io_dev_done(&s->dev, now, s->phase, s->begin);
	if (r->phase < IO_MAX_PHASES && s->out) {
		memset(&st, 0, sizeof(st));
		io_stat_add(&st, r, now, 0);
		if (io_phase_add(s->out, r->dev, r->op, r->cls, &st))
			s->lost.stats_full++;
	}
	sim_req_delete(s, rq);
}

int io_sim_tracked(const struct io_sim *s)
{
	int n = 0;

	for (int i = 0; i < IO_SIM_MAX; i++)
		n += s->reqs[i].used;
	return n;
}

/* ---- layer reconciliation ---- */

static int disk_in(const uint32_t *disks, int n, uint32_t d)
{
	for (int i = 0; i < n; i++)
		if (disks[i] == d)
			return 1;
	return 0;
}

/* Disks the workload's I/O touched (or every disk with requests when it touched none). */
static int workload_disks(const struct io_phase *p, uint32_t *disks, int max)
{
	int n = 0, pass;

	for (pass = 0; pass < 2 && n == 0; pass++) {
		for (size_t i = 0; i < p->nrows && n < max; i++) {
			const struct io_row *r = &p->rows[i];
			uint32_t d = io_phase_disk_of(p, r->dev);

			if (pass == 0 && r->cls != IO_CL_TREE && r->cls != IO_CL_WB_TREE &&
			    !(r->cls == IO_CL_STACK && r->charged))
				continue;
			if (!disk_in(disks, n, d))
				disks[n++] = d;
		}
	}
	return n;
}

static uint64_t diff0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* What the tree dirtied in this phase and had not written back nor removed by its end: the
 * running totals' growth over the phase, never more than the phase's dirtied bytes. */
static uint64_t phase_still_dirty(const struct io_phase *p, const struct io_phase *before)
{
	uint64_t d0 = before ? before->tree_dirtied_total : 0;
	uint64_t w0 = before ? before->tree_wb_total : 0;
	uint64_t r0 = before ? before->tree_removed_total : 0;
	uint64_t dirtied = diff0(p->tree_dirtied_total, d0);
	uint64_t gone = diff0(p->tree_wb_total, w0) + diff0(p->tree_removed_total, r0);
	uint64_t still = diff0(dirtied, gone);

	return still < p->ctr.dirtied_bytes ? still : p->ctr.dirtied_bytes;
}

void io_layers_compute(const struct io_phase *p, const struct io_phase *before,
		       struct io_layers *l)
{
	uint32_t disks[64];
	int n = workload_disks(p, disks, 64);

	memset(l, 0, sizeof(*l));
	l->ndisks = n;
	l->sys_write = p->sys_write_bytes;
	l->sys_read = p->sys_read_bytes;
	l->dirtied = p->ctr.dirtied_bytes;
	l->pc_added = p->ctr.pc_added_bytes;
	l->wb_tree = p->ctr.wb_tree_bytes;
	l->wb_all = p->ctr.wb_bytes;
	l->still_dirty = phase_still_dirty(p, before);
	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];
		uint64_t b = r->st.bytes;

		if (!disk_in(disks, n, io_phase_disk_of(p, r->dev)))
			continue;
		if (r->op == IO_OP_READ) {
			l->blk_read_all += b;
			if (r->cls == IO_CL_TREE)
				l->blk_read_tree += b;
			else if (r->cls == IO_CL_STACK)
				l->blk_read_stack_tree += r->charged;
			if (r->cls != IO_CL_TREE)
				l->blk_read_others += r->cls == IO_CL_STACK ? b - r->charged : b;
			continue;
		}
		if (r->op != IO_OP_WRITE)
			continue;
		l->blk_write_all += b;
		switch (r->cls) {
		case IO_CL_TREE: l->blk_write_tree += b; break;
		case IO_CL_WB_TREE: l->blk_write_wb_tree += b; break;
		case IO_CL_WB: l->blk_write_wb += b; break;
		case IO_CL_JOURNAL: l->blk_write_journal += b; break;
		case IO_CL_OTHER: l->blk_write_other += b; break;
		case IO_CL_STACK:
			l->blk_write_stack += b;
			l->blk_write_stack_tree += r->charged;
			break;
		default: l->blk_write_unknown += b; break;
		}
	}
	for (size_t i = 0; i < p->ndevs; i++) {
		const struct io_devinfo *d = &p->devs[i];

		if (d->is_partition || !d->has_stat || !disk_in(disks, n, d->dev))
			continue;
		l->dev_write += d->stat.wr_sectors * 512;
		l->dev_read += d->stat.rd_sectors * 512;
	}
	l->write_not_dirtied = diff0(l->sys_write, l->dirtied);
	l->read_from_cache = diff0(l->sys_read, l->blk_read_tree);
	l->read_ahead_extra = diff0(l->blk_read_tree, l->sys_read);
	l->write_overhead = l->blk_write_journal + l->blk_write_unknown;
	l->dev_minus_block = (int64_t)(l->dev_write + l->dev_read) -
			     (int64_t)(l->blk_write_all + l->blk_read_all);
}

/* Row order: by disk, device, op, class. */
static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct io_phase *p = arg;
	const struct io_row *x = &p->rows[*(const size_t *)a], *y = &p->rows[*(const size_t *)b];
	uint32_t dx = io_phase_disk_of(p, x->dev), dy = io_phase_disk_of(p, y->dev);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->op != y->op)
		return x->op - y->op;
	if (x->cls != y->cls)
		return x->cls - y->cls;
	return (x->upper > y->upper) - (x->upper < y->upper);
}

size_t *io_phase_sorted_rows(const struct io_phase *p)
{
	size_t *idx = malloc((p->nrows + 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < p->nrows; i++)
		idx[i] = i;
	qsort_r(idx, p->nrows, sizeof(*idx), cmp_rows, (void *)p);
	return idx;
}

const char *io_phase_dev_name(const struct io_phase *p, uint32_t dev)
{
	const struct io_devinfo *d = io_phase_find_dev(p, dev);

	return d ? d->name : "?";
}

uint64_t io_lost_total(const struct io_lost *l)
{
	const __u64 *v = (const __u64 *)l;
	uint64_t s = 0;

	for (size_t k = 0; k < sizeof(*l) / sizeof(__u64); k++)
		s += v[k];
	/* not losses; complete_swept is a part of complete_missed */
	return s - l->clock_reversed - l->complete_late - l->complete_swept;
}

uint64_t io_lat_pct(const uint32_t *h, double pct, uint64_t max)
{
	return max ? hist_percentile(h, IO_LAT_SLOTS, pct, max) : 0;
}

double io_phase_rate_secs(const struct io_phase *p)
{
	return (p->rate_ns ? p->rate_ns : p->window_ns) / 1e9;
}
