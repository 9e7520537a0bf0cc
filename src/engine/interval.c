// SPDX-License-Identifier: GPL-2.0
/* Live intervals and slow calls (see interval.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "interval.h"
#include "calltrack.h"
#include "clock.h"
#include "cpu_split.h"
#include "dev_lat.h"
#include "hist.h"
#include "interval_out.h"
#include "meminfo.h"
#include "outfile.h"
#include "result.h"
#include "sampler.h"
#include "session_priv.h"
#include "sysblock.h"
#include "slow_probes.h"
#include "slow_waits.h"

#define MODEL_LAG_NS (100ull * 1000 * 1000) /* events older than this have all been delivered */
#define MAX_DISKS 64
#define RING 4096                           /* device samples kept for slow calls (20 ms each) */
#define KRING 8192                          /* pauses and commits kept for slow calls */

/* /sys/block/NAME/stat fields we use, and when they were read. */
struct dstat {
	uint64_t ios, sectors, io_ticks, in_queue; /* reads+writes, sectors, ms busy, ms weighted */
};

/* One device sample for slow calls: every traced disk slot at one instant. */
struct ring_entry {
	uint64_t t;
	uint32_t io_ticks[IOWHY_DISK_SLOTS], in_queue[IOWHY_DISK_SLOTS];
};

struct interval_out {
	const char *tool;
	uint64_t every;
	const char *prom_path;
	FILE *text, *jl;
	int tty, lines, failed;
	uint64_t slow_ns;          /* --slow: keep calls at least this long */
	/* the phase */
	struct session *s;
	struct model *m;
	const char *target;
	int tag, lite, open;
	uint64_t start, cut, next_due, seq;
	uint64_t prev_bucket[WB_COUNT], prev_group[SG_COUNT], prev_unattr;
	uint64_t tot_bucket[WB_COUNT], tot_group[SG_COUNT];
	uint64_t prev_outside, prev_user;        /* the sampler's running counts at the last cut */
	double tot_user, tot_kernel, tot_err2;   /* the split's estimates summed, errors squared */
	int (*procs_fn)(void *ctx, struct iv_proc *out, int max);
	void *procs_ctx;
	void (*cgroups_fn)(void *ctx, struct interval_sample *s);
	void *cgroups_ctx;
	/* devices */
	int ndisks;
	char disk[MAX_DISKS][32];
	uint32_t disk_kdev[MAX_DISKS];
	struct dstat dprev[MAX_DISKS];
	uint64_t dprev_t;
	struct dev_lat lat_prev[MAX_DISKS];
	int nlat_prev;
	/* calls */
	struct calltrack ct;
	struct iv_call slowest;
	struct slow_call *slow;    /* kept, at most SLOW_MAX */
	size_t nslow;
	uint64_t slow_more;        /* over the threshold but not kept */
	struct ring_entry *ring;
	size_t ring_n;             /* samples taken (the ring holds the last RING) */
	struct slow_probes *sp;    /* balance_dirty_pages and jbd2 (--slow) */
	struct kev { uint64_t t0, t1; uint32_t tid, dev; } *bdp, *commits; /* rings of KRING */
	size_t nbdp, ncommits;
	struct slow_waits *sw;     /* sleeps by wait stack, inodes under writeback (--slow) */
};

/* ---- devices ---- */

static int read_dstat(const char *name, struct dstat *d)
{
	char buf[512];
	unsigned long long f[11] = { 0 };

	if (sysblock_read_attr(name, "stat", buf, sizeof(buf)) < 0)
		return -1;
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
		   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10]) != 11)
		return -1;
	d->ios = f[0] + f[4];
	d->sectors = f[2] + f[6];
	d->io_ticks = f[9];
	d->in_queue = f[10];
	return 0;
}

/* The disks (not partitions) of the machine. */
static void list_disks(struct interval_out *iv)
{
	struct sysblock_entry *e = calloc(256, sizeof(*e));
	int n = e ? sysblock_list(e, 256) : 0;

	iv->ndisks = 0;
	for (int i = 0; i < n && iv->ndisks < MAX_DISKS; i++) {
		if (e[i].is_partition)
			continue;
		snprintf(iv->disk[iv->ndisks], sizeof(iv->disk[0]), "%.31s", e[i].name);
		iv->disk_kdev[iv->ndisks] = kdev_of(e[i].dev);
		read_dstat(e[i].name, &iv->dprev[iv->ndisks]);
		iv->ndisks++;
	}
	free(e);
}

/* A partition's disk (as kernel dev_t values), for the latency histograms. */
static uint32_t kdisk_of(uint32_t kdev)
{
	struct sysblock_entry e;

	if (sysblock_lookup(dev_of_kdev(kdev), &e))
		return kdev;
	return kdev_of(e.disk_dev);
}

/* p99 of the traced requests of disk kdev completed since the previous interval. */
static uint64_t disk_p99(struct interval_out *iv, const struct dev_lat *now, int nnow,
			 uint32_t kdev)
{
	uint32_t h[IOWHY_HIST_SLOTS] = { 0 };
	uint64_t any = 0;

	for (int i = 0; i < nnow; i++) {
		const struct dev_lat *prev = NULL;

		if (now[i].kdev != kdev)
			continue;
		for (int k = 0; k < iv->nlat_prev; k++)
			if (iv->lat_prev[k].kdev == kdev)
				prev = &iv->lat_prev[k];
		for (int k = 0; k < IOWHY_HIST_SLOTS; k++) {
			uint64_t d = now[i].hist[k] - (prev ? prev->hist[k] : 0);

			h[k] = (uint32_t)d;
			any += d;
		}
	}
	return any ? hist_percentile(h, IOWHY_HIST_SLOTS, 99, 0) : 0;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct iv_dev *x = a, *y = b;

	return (x->iops < y->iops) - (x->iops > y->iops);
}

/* Each active disk's rates over the interval (at most IV_MAX_DEVS, busiest first). */
static void sample_devices(struct interval_out *iv, struct interval_sample *smp, uint64_t now)
{
	static struct iv_dev all[MAX_DISKS];
	struct dev_lat lat[MAX_DISKS];
	double secs = (double)(now - iv->dprev_t) / 1e9, ms = secs * 1000.0;
	int nlat = iv->s->io ? dev_lat_read(iv->s->io, iv->tag, kdisk_of, lat, MAX_DISKS) : 0;
	int n = 0;

	if (nlat < 0)
		nlat = 0;
	for (int i = 0; i < iv->ndisks && secs > 0; i++) {
		struct dstat d;

		if (read_dstat(iv->disk[i], &d))
			continue;
		if (d.ios != iv->dprev[i].ios || d.io_ticks != iv->dprev[i].io_ticks) {
			struct iv_dev *o = &all[n++];

			snprintf(o->name, sizeof(o->name), "%s", iv->disk[i]);
			o->iops = (double)(d.ios - iv->dprev[i].ios) / secs;
			o->mib_s = (double)(d.sectors - iv->dprev[i].sectors) * 512.0 / 1048576.0 / secs;
			o->busy_pct = 100.0 * (double)(d.io_ticks - iv->dprev[i].io_ticks) / ms;
			if (o->busy_pct > 100.0)
				o->busy_pct = 100.0;
			o->queue_depth = (double)(d.in_queue - iv->dprev[i].in_queue) / ms;
			o->p99_ns = disk_p99(iv, lat, nlat, iv->disk_kdev[i]);
		}
		iv->dprev[i] = d;
	}
	iv->dprev_t = now;
	memcpy(iv->lat_prev, lat, sizeof(lat[0]) * (size_t)nlat);
	iv->nlat_prev = nlat;
	qsort(all, (size_t)n, sizeof(all[0]), cmp_dev);
	smp->ndevs = n < IV_MAX_DEVS ? n : IV_MAX_DEVS;
	memcpy(smp->devs, all, sizeof(all[0]) * (size_t)smp->ndevs);
}

/* ---- slow calls: device context ---- */

/* One sample of every traced disk slot (--slow), into the ring. */
static void ring_sample(struct interval_out *iv, uint64_t now)
{
	struct ring_entry *r;

	if (!iv->ring)
		return;
	r = &iv->ring[iv->ring_n % RING];
	memset(r, 0, sizeof(*r));
	r->t = now;
	for (int s = 0; s < IOWHY_DISK_SLOTS; s++) {
		const char *name = iv->s->core.disk_names[s];
		struct dstat d;

		if (!name[0] || read_dstat(name, &d))
			continue;
		r->io_ticks[s] = (uint32_t)d.io_ticks;
		r->in_queue[s] = (uint32_t)d.in_queue;
	}
	iv->ring_n++;
}

/* Busy % and mean queue depth of disk slot `s` over [from, to] from the ring (the samples just
 * around it); 0 when the ring does not cover it. */
static void ring_context(struct interval_out *iv, int s, uint64_t from, uint64_t to, double *busy,
			 double *depth)
{
	const struct ring_entry *a = NULL, *b = NULL;
	size_t first = iv->ring_n > RING ? iv->ring_n - RING : 0;

	*busy = *depth = 0;
	for (size_t i = first; i < iv->ring_n; i++) {
		const struct ring_entry *r = &iv->ring[i % RING];

		if (r->t <= from)
			a = r;
		if (r->t >= to && !b)
			b = r;
	}
	if (!a || !b || b->t <= a->t)
		return;
	*busy = 100.0 * (double)(b->io_ticks[s] - a->io_ticks[s]) / ((double)(b->t - a->t) / 1e6);
	*depth = (double)(b->in_queue[s] - a->in_queue[s]) / ((double)(b->t - a->t) / 1e6);
	if (*busy > 100.0)
		*busy = 100.0;
}

/* An event of bpf/slow.bpf.c: a pause [ts, ts + pause] of a task, or a commit's start or end. */
static void on_kernel_event(void *ctx, const struct slow_ev *e)
{
	struct interval_out *iv = ctx;

	if (e->type == SLOW_EV_BDP) {
		iv->bdp[iv->nbdp++ % KRING] = (struct kev){ e->ts, e->ts + e->arg, e->tid, 0 };
	} else if (e->type == SLOW_EV_COMMIT_START) {
		iv->commits[iv->ncommits++ % KRING] = (struct kev){ e->ts, 0, 0, (uint32_t)e->arg };
	} else if (e->type >= SLOW_EV_WAIT) {
		slow_waits_event(iv->sw, e);
	} else if (e->type == SLOW_EV_COMMIT_END) {
		size_t first = iv->ncommits > KRING ? iv->ncommits - KRING : 0;

		for (size_t i = iv->ncommits; i-- > first;) {
			struct kev *k = &iv->commits[i % KRING];

			if (k->dev == e->arg && !k->t1) {
				k->t1 = e->ts;
				break;
			}
		}
	}
}

/* Whether a journal on device kdev (a disk or a partition) is on one of the disks the call waited
 * on; a call that waited on no known disk takes every journal here (kernel_context then keeps the
 * one whose commit woke it: waited_journal). */
static int on_call_disks(struct interval_out *iv, const struct ct_call *c, uint32_t kdev,
			 struct sysblock_entry *e)
{
	if (sysblock_lookup(dev_of_kdev(kdev), e))
		snprintf(e->disk, sizeof(e->disk), "%u:%u", kdev >> 20, kdev & 0xfffff);
	if (!c->ndisks)
		return 1;
	for (int i = 0; i < c->ndisks; i++)
		if (!strcmp(iv->s->core.disk_names[c->disk[i]], e->disk))
			return 1;
	return 0;
}

/* The disk the call waited on longest (its journal is the one it waited for); NULL if none. */
static const char *most_waited_disk(const struct interval_out *iv, const struct ct_call *c)
{
	int best = -1;

	for (int i = 0; i < c->ndisks; i++)
		if (best < 0 || c->disk_ns[i] > c->disk_ns[best])
			best = i;
	return best < 0 ? NULL : iv->s->core.disk_names[c->disk[best]];
}

/* on_call_disks for slow_waits: the device's name into disk (32 bytes). */
static int disk_of_call(void *ctx, const struct ct_call *c, uint32_t kdev, char *disk)
{
	struct sysblock_entry e;
	int on = on_call_disks(ctx, c, kdev, &e);

	snprintf(disk, 32, "%s", e.disk);
	return on;
}

/*
 * The journal a call that waited on no known disk waited for (an fsync asleep in
 * jbd2_log_wait_commit): the one whose commit ended last inside the call, since the waiter wakes
 * when its commit ends. Other file systems' commits overlap it by chance. 0 if none ended in it.
 */
static uint32_t waited_journal(const struct interval_out *iv, const struct ct_call *c)
{
	size_t first = iv->ncommits > KRING ? iv->ncommits - KRING : 0;
	uint64_t best = 0;
	uint32_t dev = 0;

	for (size_t i = first; i < iv->ncommits; i++) {
		const struct kev *k = &iv->commits[i % KRING];

		if (k->t1 && k->t1 >= c->start_ns && k->t1 <= c->end_ns && k->t1 >= best) {
			best = k->t1;
			dev = k->dev;
		}
	}
	return dev;
}

/* Pauses of the call's task inside it, and the commits that overlapped it of the journal it waited
 * for: on the disk it waited on longest, else the one whose commit woke it. */
static void kernel_context(struct interval_out *iv, struct slow_call *sc)
{
	const struct ct_call *c = &sc->c;
	const char *disk = most_waited_disk(iv, c);
	uint32_t journal;
	size_t first;

	slow_probes_poll(iv->sp, on_kernel_event, iv);
	first = iv->nbdp > KRING ? iv->nbdp - KRING : 0;
	for (size_t i = first; i < iv->nbdp; i++) {
		const struct kev *k = &iv->bdp[i % KRING];

		if (k->tid == c->tid && k->t0 >= c->start_ns && k->t0 <= c->end_ns) {
			sc->bdp_count++;
			sc->bdp_ns += k->t1 - k->t0;
		}
	}
	first = iv->ncommits > KRING ? iv->ncommits - KRING : 0;
	journal = c->ndisks ? 0 : waited_journal(iv, c);
	for (size_t i = first; i < iv->ncommits; i++) {
		const struct kev *k = &iv->commits[i % KRING];
		uint64_t end = k->t1 ? k->t1 : c->end_ns;
		uint64_t from = k->t0 > c->start_ns ? k->t0 : c->start_ns;
		uint64_t to = end < c->end_ns ? end : c->end_ns;
		struct sysblock_entry e;

		if (to <= from || !on_call_disks(iv, c, k->dev, &e) || (journal && k->dev != journal) ||
		    (disk && strcmp(e.disk, disk)))
			continue;
		sc->commits++;
		sc->commit_overlap_ns += to - from;
		if (end - k->t0 > sc->commit_max_ns) {
			sc->commit_max_ns = end - k->t0;
			snprintf(sc->commit_dev, sizeof(sc->commit_dev), "%s", e.disk);
		}
	}
	sc->waits_traced = slow_probes_attached(iv->sp, "sched:sched_switch");
	slow_waits_apply(iv->sw, iv->sp, sc, disk_of_call, iv);
}

static void comm_of(uint32_t tgid, uint32_t tid, char *out)
{
	char path[64], buf[IOWHY_COMM_LEN + 2] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", tgid, tid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, sizeof(buf), f))
		snprintf(buf, sizeof(buf), "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	buf[IOWHY_COMM_LEN - 1] = 0; /* a comm is at most 15 bytes */
	memcpy(out, buf, IOWHY_COMM_LEN);
}

/* The kept call with the shortest duration (to be replaced by a longer one). */
static size_t shortest_kept(const struct interval_out *iv)
{
	size_t k = 0;

	for (size_t i = 1; i < iv->nslow; i++)
		if (iv->slow[i].c.end_ns - iv->slow[i].c.start_ns <
		    iv->slow[k].c.end_ns - iv->slow[k].c.start_ns)
			k = i;
	return k;
}

/* A call over the --slow threshold: kept with its device context (bounded: the slowest stay). */
static void keep_slow(struct interval_out *iv, const struct ct_call *c)
{
	uint64_t d = c->end_ns - c->start_ns;
	struct slow_call *sc;

	if (iv->nslow < SLOW_MAX) {
		sc = &iv->slow[iv->nslow++];
	} else {
		size_t k = shortest_kept(iv);

		iv->slow_more++;
		if (iv->slow[k].c.end_ns - iv->slow[k].c.start_ns >= d)
			return;
		sc = &iv->slow[k];
	}
	memset(sc, 0, sizeof(*sc));
	sc->c = *c;
	comm_of(c->tgid, c->tid, sc->comm);
	for (int i = 0; i < c->ndisks; i++)
		ring_context(iv, c->disk[i], c->start_ns, c->end_ns, &sc->busy_pct[i], &sc->depth[i]);
	if (iv->sp)
		kernel_context(iv, sc);
}

static void on_call(void *ctx, const struct ct_call *c)
{
	struct interval_out *iv = ctx;
	uint64_t d = c->end_ns - c->start_ns;

	if (d > iv->slowest.ns) {
		iv->slowest.ns = d;
		iv->slowest.tid = c->tid;
		iv->slowest.nr = c->nr;
		comm_of(c->tgid, c->tid, iv->slowest.comm);
	}
	if (iv->slow && d >= iv->slow_ns)
		keep_slow(iv, c);
}

/* ---- the user/kernel split ---- */

/* The interval's on-CPU time split by the samples taken in it (the sampler's running counts of
 * the phase: a cut reads them now, while the wall view lags by the reorder window; a share, not a
 * time, is taken from them), and the running sums for counters. */
static void split_interval(struct interval_out *iv, struct interval_sample *smp)
{
	double outside = (double)smp->bucket_ns[WB_USER] +
			 (iv->lite ? (double)smp->bucket_ns[WB_KERNEL] : 0);
	double traced = iv->lite ? 0 : (double)smp->bucket_ns[WB_KERNEL];
	uint64_t n_out, n_user, dn, du;
	struct cpu_split c;
	double u, e;

	smp->total_user_ns = iv->tot_user;
	smp->total_kernel_ns = iv->tot_kernel;
	smp->total_split_err_ns = sqrt(iv->tot_err2);
	if (sampler_split_counts(iv->s ? iv->s->smp : NULL, iv->tag, &n_out, &n_user))
		return;
	dn = n_out >= iv->prev_outside ? n_out - iv->prev_outside : n_out;
	du = n_user >= iv->prev_user ? n_user - iv->prev_user : n_user;
	iv->prev_outside = n_out;
	iv->prev_user = n_user;
	cpu_split_counts((double)(smp->end_ns - smp->start_ns), outside, traced, dn, du, &c);
	smp->split.sampled = 1;
	smp->split.state = (int)c.state;
	smp->split.samples = c.samples;
	smp->split.user_ns = c.user_ns;
	smp->split.kernel_ns = c.kernel_ns;
	smp->split.err_ns = c.err_ns;
	smp->split.needed_samples = c.needed_samples;
	if (c.state == CPU_SPLIT_NONE) { /* nothing known of its share: half, +- 1/sqrt(12) */
		u = outside / 2;
		e = outside / sqrt(12);
	} else {
		u = c.user_ns;
		e = c.err_ns;
	}
	iv->tot_user += u;
	iv->tot_kernel += traced + outside - u;
	iv->tot_err2 += e * e;
	smp->total_user_ns = iv->tot_user;
	smp->total_kernel_ns = iv->tot_kernel;
	smp->total_split_err_ns = sqrt(iv->tot_err2);
}

/* ---- blocks ---- */

/* One interval, from the previous cut to `to` (model time): wall deltas, devices, outputs. */
static void cut(struct interval_out *iv, uint64_t to, int final)
{
	static struct interval_sample smp;
	const struct wall_view *w = &iv->m->wall;
	struct timespec rt;

	memset(&smp, 0, sizeof(smp));
	smp.seq = ++iv->seq;
	smp.final = final;
	/* the model's wall may start later than the interval's (at the release: model_gate) */
	if (iv->cut < w->start_ns && to >= w->start_ns)
		iv->cut = iv->start = w->start_ns;
	smp.start_ns = iv->cut;
	smp.end_ns = to;
	smp.since_start_ns = to - iv->start;
	clock_gettime(CLOCK_REALTIME, &rt);
	smp.unix_time = (double)rt.tv_sec + (double)rt.tv_nsec / 1e9;
	for (int k = 0; k < WB_COUNT; k++) {
		smp.bucket_ns[k] = w->bucket_ns[k] - iv->prev_bucket[k];
		iv->prev_bucket[k] = w->bucket_ns[k];
		iv->tot_bucket[k] += smp.bucket_ns[k];
		smp.total_bucket_ns[k] = iv->tot_bucket[k];
	}
	for (int k = 0; k < SG_COUNT; k++) {
		smp.kernel_group_ns[k] = w->kernel_group_ns[k] - iv->prev_group[k];
		iv->prev_group[k] = w->kernel_group_ns[k];
		iv->tot_group[k] += smp.kernel_group_ns[k];
		smp.total_kernel_group_ns[k] = iv->tot_group[k];
	}
	split_interval(iv, &smp);
	smp.unattributed_ns = w->unattributed_ns - iv->prev_unattr;
	iv->prev_unattr = w->unattributed_ns;
	sample_devices(iv, &smp, now_ns());
	meminfo_dirty(&smp.dirty_bytes, &smp.writeback_bytes);
	smp.slowest = iv->slowest;
	memset(&iv->slowest, 0, sizeof(iv->slowest));
	smp.lite = iv->lite;
	smp.target = iv->target;
	if (iv->procs_fn)
		smp.nprocs = iv->procs_fn(iv->procs_ctx, smp.procs, IV_TOP_PROCS);
	if (iv->cgroups_fn)
		iv->cgroups_fn(iv->cgroups_ctx, &smp);
	iv->cut = to;
	if (iv->text)
		iv->lines = interval_text(iv->text, &smp, iv->tty, iv->tty ? iv->lines : 0);
	if (iv->jl && interval_json_line(iv->jl, &smp) && !iv->failed) {
		fprintf(stderr, "iowhy %s: cannot write --json-lines: %s\n", iv->tool, strerror(errno));
		iv->failed = 1;
	}
	if (iv->prom_path && prometheus_write(iv->prom_path, &smp) && !iv->failed) {
		fprintf(stderr, "iowhy %s: cannot write --prometheus %s: %s\n", iv->tool, iv->prom_path,
			strerror(errno));
		iv->failed = 1;
	}
}

/* ---- API ---- */

struct interval_out *interval_open(const char *tool, const struct common_opts *o, int *err)
{
	struct interval_out *iv;
	int json_stdout = o->json_path && !strcmp(o->json_path, "-");

	*err = 0;
	if (!o->interval_ns && !o->slow_ns)
		return NULL;
	iv = calloc(1, sizeof(*iv));
	if (!iv) {
		fprintf(stderr, "iowhy %s: out of memory\n", tool);
		*err = 1;
		return NULL;
	}
	iv->tool = tool;
	iv->every = o->interval_ns;
	iv->prom_path = o->prometheus;
	iv->slow_ns = o->slow_ns;
	if (iv->every) /* run: the command owns stdout; --json -: so does the JSON */
		iv->text = !strcmp(tool, "run") || json_stdout ? stderr : stdout;
	iv->tty = iv->text && isatty(fileno(iv->text));
	if (o->json_lines && !(iv->jl = outfile_open(tool, "--json-lines", o->json_lines))) {
		free(iv);
		*err = 2;
		return NULL;
	}
	if (iv->slow_ns) {
		iv->slow = calloc(SLOW_MAX, sizeof(*iv->slow));
		iv->ring = calloc(RING, sizeof(*iv->ring));
		iv->bdp = calloc(KRING, sizeof(*iv->bdp));
		iv->commits = calloc(KRING, sizeof(*iv->commits));
		iv->sw = slow_waits_new();
		if (!iv->slow || !iv->ring || !iv->bdp || !iv->commits || !iv->sw) {
			fprintf(stderr, "iowhy %s: out of memory\n", tool);
			interval_close(iv);
			*err = 1;
			return NULL;
		}
	}
	return iv;
}

void interval_begin(struct interval_out *iv, struct session *s, struct model *m, uint64_t start,
		    const char *target, int tag, int lite)
{
	if (!iv)
		return;
	iv->s = s;
	iv->m = m;
	iv->start = iv->cut = start;
	iv->next_due = start + iv->every;
	iv->target = target;
	iv->tag = tag;
	iv->lite = lite;
	iv->open = 1;
	iv->procs_fn = NULL;
	iv->cgroups_fn = NULL;
	memset(iv->prev_bucket, 0, sizeof(iv->prev_bucket));
	memset(iv->prev_group, 0, sizeof(iv->prev_group));
	iv->prev_unattr = 0;
	iv->prev_outside = iv->prev_user = 0; /* the sampler's counts restart with the phase */
	iv->nslow = 0;
	iv->slow_more = 0;
	iv->ring_n = 0;
	iv->nbdp = iv->ncommits = 0;
	slow_waits_reset(iv->sw);
	memset(&iv->slowest, 0, sizeof(iv->slowest));
	calltrack_free(&iv->ct);
	calltrack_init(&iv->ct, on_call, iv);
	iv->dprev_t = now_ns();
	iv->nlat_prev = 0;
	list_disks(iv);
	ring_sample(iv, iv->dprev_t);
}

void interval_load_probes(struct interval_out *iv, struct core_probes *core)
{
	/* sleeps under a fiftieth of the threshold are not named (nor sent) */
	uint64_t min_wait = iv && iv->slow_ns / 50 > 10000 ? iv->slow_ns / 50 : 10000;

	if (iv && iv->slow_ns && !iv->sp) /* on failure: one line, calls listed without */
		slow_probes_open(&iv->sp, core, min_wait);
}

void interval_missing(const struct interval_out *iv, struct missing_probes *out)
{
	if (iv)
		slow_probes_missing(iv->sp, out);
}

void interval_set_procs(struct interval_out *iv,
			int (*fn)(void *ctx, struct iv_proc *out, int max), void *ctx)
{
	if (!iv)
		return;
	iv->procs_fn = fn;
	iv->procs_ctx = ctx;
}

void interval_set_cgroups(struct interval_out *iv,
			  void (*fn)(void *ctx, struct interval_sample *s), void *ctx)
{
	if (!iv)
		return;
	iv->cgroups_fn = fn;
	iv->cgroups_ctx = ctx;
}

void interval_event(struct interval_out *iv, const struct iowhy_event *e, const char *comm)
{
	(void)comm;
	if (iv && iv->open && !iv->lite)
		calltrack_event(&iv->ct, e);
}

void interval_poll(struct interval_out *iv, uint64_t now)
{
	if (!iv || !iv->open)
		return;
	slow_probes_poll(iv->sp, on_kernel_event, iv);
	ring_sample(iv, now);
	if (!iv->every || now < iv->next_due || now < iv->start + MODEL_LAG_NS)
		return;
	/* the model lags the clock by the reorder window: cut where every event is in */
	model_advance(iv->m, now - MODEL_LAG_NS);
	cut(iv, iv->m->last_ns > iv->cut ? iv->m->last_ns : iv->cut, 0);
	iv->next_due += iv->every;
	if (iv->next_due <= now)
		iv->next_due = now + iv->every;
}

void interval_end(struct interval_out *iv, struct phase_result *r)
{
	if (!iv || !iv->open)
		return;
	if (iv->every)
		cut(iv, iv->m->wall.end_ns > iv->cut ? iv->m->wall.end_ns : iv->cut, 1);
	if (iv->slow && r) {
		r->slow = malloc(sizeof(*r->slow) * (iv->nslow ? iv->nslow : 1));
		if (r->slow) {
			memcpy(r->slow, iv->slow, sizeof(*r->slow) * iv->nslow);
			r->nslow = iv->nslow;
			qsort(r->slow, r->nslow, sizeof(*r->slow), slow_call_cmp);
		}
		r->slow_more = iv->slow_more;
		r->slow_min_ns = iv->slow_ns;
		r->slow_traced = 1;
		r->slow_context =
			(slow_probes_attached(iv->sp, "writeback:balance_dirty_pages") ? 1 : 0) |
			(slow_probes_attached(iv->sp, "jbd2:jbd2_start_commit") &&
			 slow_probes_attached(iv->sp, "jbd2:jbd2_end_commit") ? 2 : 0);
	}
	calltrack_free(&iv->ct);
	iv->open = 0;
}

int interval_close(struct interval_out *iv)
{
	int rc;

	if (!iv)
		return 0;
	rc = iv->failed ? -1 : 0;
	if (iv->jl && fclose(iv->jl) && !rc) {
		fprintf(stderr, "iowhy %s: cannot write --json-lines: %s\n", iv->tool, strerror(errno));
		rc = -1;
	}
	calltrack_free(&iv->ct);
	slow_probes_close(iv->sp);
	free(iv->slow);
	free(iv->ring);
	free(iv->bdp);
	free(iv->commits);
	slow_waits_free(iv->sw);
	free(iv);
	return rc;
}
