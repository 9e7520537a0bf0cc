// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy rand: random I/O from N worker threads, each doing pread or pwrite of bs bytes at random
 * bs-aligned offsets (its own PRNG), for an exact total number of operations or for a time. Every
 * operation's latency goes into a histogram: IOPS, throughput and percentiles come out as facts.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "storage.h"

static const char *const op_names[] = { "read", "write", NULL };


static const char rand_usage[] =
	"usage: iowhy rand [FILE | --size S] [--bs B[,B...]] [--op read|write] [--workers N[,N...]]\n"
	"                  [--ops K | --time T] [--direct] [options]\n"
	"  N threads pread/pwrite B bytes (default 4k) at random B-aligned offsets: K operations in\n"
	"  total (default: the file's size / B) or for T (500ms, 10s). --op write needs --size.\n";
/* ---- the traced work ---- */

struct worker {
	const struct rand_job *job;
	int id, failed;
	uint64_t ops;                /* to do (ops mode); done afterwards */
	uint64_t deadline_ns;        /* time mode: 0 in ops mode */
	_Atomic uint64_t *progress;
	struct wl_lat lat;
};

static int worker_open(const struct rand_job *j)
{
	int flags = (j->op == RAND_WRITE ? O_WRONLY : O_RDONLY) | (j->direct ? O_DIRECT : 0);
	int fd = open(j->path, flags);

	if (fd < 0)
		wl_fail("rand", "open %s%s: %s", j->path, j->direct ? " (O_DIRECT)" : "", strerror(errno));
	return fd;
}

/* One operation at a random block; its latency goes into the histogram. */
static int one_op(struct worker *w, int fd, char *buf, struct prng *g, uint64_t nblocks)
{
	const struct rand_job *j = w->job;
	uint64_t off = prng_next(g) % nblocks * j->bs, t0 = wl_now_ns(), t1;
	ssize_t r;

	do {
		r = j->op == RAND_WRITE ? pwrite(fd, buf, j->bs, (off_t)off) : pread(fd, buf, j->bs, (off_t)off);
	} while (r < 0 && errno == EINTR);
	t1 = wl_now_ns();
	if (r != (ssize_t)j->bs)
		return wl_fail("rand", "%s %s at %llu: %s", op_names[j->op], j->path, (unsigned long long)off,
			       r < 0 ? strerror(errno) : "short transfer");
	wl_lat_add(&w->lat, t1 - t0);
	return 0;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct rand_job *j = w->job;
	uint64_t nblocks = j->size / j->bs, done = 0;
	char *buf = wl_buf("rand", (size_t)j->bs);
	int fd = buf ? worker_open(j) : -1;
	struct wl_progress pg;
	struct prng g;

	w->failed = 1;
	if (fd < 0)
		goto out;
	prng_seed(&g, j->seed * 1000003u + (uint64_t)w->id);
	prng_fill(&g, buf, (size_t)j->bs);
	wl_progress_init_unit(&pg, "rand", w->deadline_ns ? 0 : j->ops, "ops");
	while (w->deadline_ns ? w->lat.max_ns == 0 || wl_now_ns() < w->deadline_ns : done < w->ops) {
		if (one_op(w, fd, buf, &g, nblocks) < 0)
			goto out;
		done++;
		atomic_fetch_add_explicit(w->progress, 1, memory_order_relaxed);
		if (w->id == 0)
			wl_progress(&pg, atomic_load_explicit(w->progress, memory_order_relaxed));
	}
	wl_progress_end(&pg);
	w->ops = done;
	w->failed = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int run_workers(struct worker *w, int n)
{
	pthread_t *tid = n > 0 ? calloc((size_t)n, sizeof(*tid)) : NULL;
	int started = 0, failed = 0;

	if (!tid)
		return -1;
	for (int k = 1; k < n; k++, started++)
		if (pthread_create(&tid[k], NULL, worker_run, &w[k]) != 0)
			break;
	worker_run(&w[0]);
	for (int k = 1; k <= started; k++)
		pthread_join(tid[k], NULL);
	for (int k = 0; k < n; k++)
		failed |= w[k].failed || k > started;
	free(tid);
	return failed ? -1 : 0;
}

static int sync_file(const struct rand_job *j)
{
	int fd = open(j->path, O_WRONLY);
	int rc = fd < 0 || fdatasync(fd) < 0 ? -1 : 0;

	if (rc < 0)
		wl_fail("rand", "fdatasync %s: %s", j->path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

static void rand_facts(const struct rand_job *j, struct worker *w, uint64_t ns, struct phase_facts *f)
{
	struct wl_lat all;
	uint64_t ops = 0;

	wl_lat_init(&all);
	for (int k = 0; k < j->workers; k++) {
		ops += w[k].ops;
		wl_lat_merge(&all, &w[k].lat);
	}
	wl_facts_rate(f, ops * j->bs, ns);
	facts_set(f, "ops", j->op == RAND_WRITE ? "pwrite calls" : "pread calls", "", (double)ops);
	facts_set(f, "iops", "operations per second", "", ns ? (double)ops / wl_secs(ns) : 0);
	wl_facts_lat(f, &all);
}

int rand_fn(void *arg, struct phase_facts *f)
{
	const struct rand_job *j = arg;
	struct worker *w = j->workers > 0 ? calloc((size_t)j->workers, sizeof(*w)) : NULL;
	_Atomic uint64_t progress = 0;
	uint64_t t0, ns;
	int rc = 1;

	if (!w || j->bs == 0 || j->bs > j->size) {
		wl_fail("rand", "bad job (workers %d, bs %llu)", j->workers, (unsigned long long)j->bs);
		free(w);
		return 1;
	}
	t0 = wl_now_ns();
	for (int k = 0; k < j->workers; k++) {
		w[k].job = j;
		w[k].id = k;
		w[k].progress = &progress;
		w[k].ops = j->ops / (uint64_t)j->workers + ((uint64_t)k < j->ops % (uint64_t)j->workers);
		w[k].deadline_ns = j->time_ns ? t0 + j->time_ns : 0;
		wl_lat_init(&w[k].lat);
	}
	if (run_workers(w, j->workers) == 0 && (!j->sync_end || sync_file(j) == 0)) {
		ns = wl_now_ns() - t0;
		rand_facts(j, w, ns, f);
		rc = 0;
	}
	free(w);
	return rc;
}

/* ---- options ---- */

enum { RN_O_SIZE = 256, RN_O_BS, RN_O_WORKERS, RN_O_OP, RN_O_OPS, RN_O_TIME, RN_O_DIRECT };

static const struct opt_def rand_opt_defs[] = {
	{ "size", RN_O_SIZE, "S", "use a file of S random bytes iowhy makes (instead of FILE)" },
	{ "bs", RN_O_BS, "LIST", "I/O sizes, comma-separated, one column each (default 4k)" },
	{ "op", RN_O_OP, "read|write", "pread or pwrite (write needs --size; default read)" },
	{ "workers", RN_O_WORKERS, "LIST", "threads at once, comma-separated (default 1)" },
	{ "ops", RN_O_OPS, "K", "operations in total (default: the file's size / B)" },
	{ "time", RN_O_TIME, "T", "run for T instead (500ms, 10s, 1m)" },
	{ "direct", RN_O_DIRECT, NULL, "O_DIRECT (sizes multiples of 512)" },
	{ NULL, 0, NULL, NULL },
};

/* rand's own options: 0, or -1 after a one-line message. */
static int rand_handle(void *ctx, int key, const char *v)
{
	struct rand_opts *o = ctx;
	char err[160];

	switch (key) {
	case RN_O_SIZE:
		return wl_size("rand", "--size", v, SIZE_MAX_ACCEPTED, &o->size) < 0 ? -1 : 0;
	case RN_O_BS:
		return (o->nbs = wl_sizes("rand", "--bs", v, 64ull << 20, o->bs)) < 0 ? -1 : 0;
	case RN_O_WORKERS:
		return (o->nworkers = wl_counts("rand", "--workers", v, 256, o->workers)) < 0 ? -1 : 0;
	case RN_O_OP:
		return (o->op = wl_choice("rand", "--op", v, op_names)) < 0 ? -1 : 0;
	case RN_O_OPS:
		return wl_counts("rand", "--ops", v, 1ull << 40, &o->ops) != 1 ? -1 : 0;
	case RN_O_TIME:
		if (parse_duration(v, &o->time_ns, err, sizeof(err)) < 0)
			return wl_fail("rand", "--time: %s", err);
		if (o->time_ns == 0)
			return wl_fail("rand", "--time: '%s' is no time at all", v);
		return 0;
	case RN_O_DIRECT:
		o->direct = 1;
		return 0;
	}
	return 0;
}

const struct cmd_def rand_cmd = {
	.name = "rand",
	.usage = rand_usage,
	.opts = rand_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_FILE,
	.handle = rand_handle,
};

static int rand_validate(struct rand_opts *o)
{
	int64_t fsize = 0;

	if (o->file && o->size)
		return wl_usage_error("rand", "give a FILE or --size, not both");
	if (!o->file && !o->size)
		return wl_usage_error("rand", "give a FILE, or --size S for a file iowhy makes");
	if (o->ops && o->time_ns)
		return wl_usage_error("rand", "--ops and --time exclude each other");
	if (o->file && o->op == RAND_WRITE)
		return wl_usage_error("rand", "--op write would overwrite %s; use --size (and --dir) instead",
				      o->file);
	if (o->file && (fsize = wl_file_size("rand", o->file)) < 0)
		return 2;
	if (o->file)
		o->size = (uint64_t)fsize;
	for (int k = 0; k < o->nbs; k++) {
		if (o->direct && o->bs[k] % 512)
			return wl_usage_error("rand", "--direct needs a --bs that is a multiple of 512 (got %llu)",
					      (unsigned long long)o->bs[k]);
		if (o->bs[k] > o->size)
			return wl_usage_error("rand", "--bs %llu is larger than the file", (unsigned long long)o->bs[k]);
	}
	return 0;
}

int rand_parse(int argc, char **argv, struct rand_opts *o)
{
	int rc, file;

	memset(o, 0, sizeof(*o));
	o->bs[0] = 4096;
	o->nbs = 1;
	o->workers[0] = 1;
	o->nworkers = 1;
	rc = opts_parse(&rand_cmd, argc, argv, &o->co, o, &file);
	if (rc)
		return rc;
	o->file = file ? argv[file] : NULL;
	return rand_validate(o);
}

/* ---- parent-side hooks and the command ---- */

struct rand_shared {
	const struct rand_opts *o;
	char path[4200];
	int made;
};

struct rand_run {
	struct rand_job job;
	struct rand_shared *sh;
};

static int rand_before(void *arg)
{
	struct rand_run *r = arg;
	struct rand_shared *sh = r->sh;

	return wl_input_before("rand", sh->o->file, sh->path, &sh->made, sh->o->size, 0x7a4d,
			       &sh->o->co);
}

static void rand_column(char *buf, size_t n, const struct rand_opts *o, uint64_t bs, uint64_t workers)
{
	char lab[24];

	wl_size_label(lab, sizeof(lab), bs);
	if (o->nworkers > 1 && o->nbs > 1)
		snprintf(buf, n, "bs=%.8s workers=%u", lab, (unsigned)workers);
	else if (o->nworkers > 1)
		snprintf(buf, n, "workers=%u", (unsigned)workers);
	else
		snprintf(buf, n, "bs=%s", lab);
}

static int plan_rand(const struct rand_opts *o, struct rand_shared *sh, struct rand_run *runs,
		     struct wl_plan *p)
{
	int n = 0;

	for (int b = 0; b < o->nbs; b++) {
		for (int w = 0; w < o->nworkers; w++) {
			char col[32];

			rand_column(col, sizeof(col), o, o->bs[b], o->workers[w]);
			for (int rep = 1; rep <= o->co.repeat; rep++, n++) {
				struct rand_run *r = &runs[n];
				struct phase_spec *ph = wl_plan_add(p, col, rep, o->co.repeat, PHASE_WORK, rand_fn, r);

				r->sh = sh;
				r->job = (struct rand_job){ .path = sh->path, .size = o->size, .bs = o->bs[b],
							    .op = o->op, .direct = o->direct,
							    .workers = (int)o->workers[w], .ops = o->ops,
							    .time_ns = o->time_ns, .seed = (uint64_t)n + 1 };
				if (!o->ops && !o->time_ns)
					r->job.ops = o->size / o->bs[b];
				if (ph)
					ph->before = rand_before;
			}
		}
	}
	return wl_plan_check("rand", n);
}

int cmd_rand(int argc, char **argv)
{
	struct rand_opts o;
	struct rand_shared sh = { .o = &o };
	struct scratch s, *sp = NULL;
	struct wl_plan *p;
	struct rand_run *runs;
	int rc = rand_parse(argc, argv, &o);

	if (rc)
		return wl_exit_status(rc);
	p = calloc(1, sizeof(*p));
	runs = calloc((size_t)(o.nbs * o.nworkers * o.co.repeat), sizeof(*runs));
	if (!p || !runs || wl_input_path(o.file, "randfile", &o.co, &s, &sp, sh.path, sizeof(sh.path)))
		rc = 1;
	if (rc == 0) {
		p->comm = "iowhy-rand";
		rc = plan_rand(&o, &sh, runs, p);
		if (rc == 0)
			rc = wl_session("rand", argc, argv, p, &o.co, sp);
		else if (sp)
			scratch_remove(sp);
	}
	free(runs);
	free(p);
	return rc;
}
