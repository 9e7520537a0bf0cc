// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy bigfile: make one big file the way people do by hand (dd with a block size, fallocate, a
 * sparse truncate), then flush it, and show dd's view (bytes / write-loop time) next to the real
 * one (write loop + flush).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flush.h"
#include "units.h"
#include "storage.h"

static const char *const method_names[] = { "dd", "fallocate", "truncate", NULL };
static const char *const source_names[] = { "zero", "random", NULL };

struct bf_run {
	struct bigfile_job job;
	const char *flush_dir;            /* the scratch area to syncfs, NULL with --no-sync */
};


static const char bigfile_usage[] =
	"usage: iowhy bigfile --size S [--method dd|fallocate|truncate[,...]] [--bs B[,B...]]\n"
	"                     [--source zero|random] [--sync | --no-sync] [options]\n"
	"  dd: one write() of B bytes per block (default 1M); fallocate: posix_fallocate;\n"
	"  truncate: a sparse ftruncate. Each run ends with a flush phase (syncfs) unless --no-sync;\n"
	"  the flush phase shows dd's view (bytes / write loop) next to write loop + flush.\n";

enum { BF_O_SIZE = 256, BF_O_BS, BF_O_SOURCE, BF_O_METHOD, BF_O_SYNC, BF_O_NOSYNC };

static const struct opt_def bigfile_opt_defs[] = {
	{ "size", BF_O_SIZE, "S", "size of the file (required): 64M, 2G; at most 1 TiB" },
	{ "method", BF_O_METHOD, "LIST", "dd, fallocate, truncate: comma-separated (default dd)" },
	{ "bs", BF_O_BS, "LIST", "dd's block sizes, comma-separated (default 1M)" },
	{ "source", BF_O_SOURCE, "zero|random", "what dd writes (default zero)" },
	{ "sync", BF_O_SYNC, NULL, "a flush phase (syncfs) after each run (the default)" },
	{ "no-sync", BF_O_NOSYNC, NULL, "no flush phase" },
	{ NULL, 0, NULL, NULL },
};

/* ---- options ---- */

struct bf_parse_ctx {
	struct bigfile_opts *o;
	int bs_given, src_given;
};

/* bigfile's own options: 0, or -1 after a one-line message. */
static int bf_handle(void *ctx, int key, const char *v)
{
	struct bf_parse_ctx *c = ctx;
	struct bigfile_opts *o = c->o;

	switch (key) {
	case BF_O_SIZE:
		return wl_size("bigfile", "--size", v, SIZE_MAX_ACCEPTED, &o->size) < 0 ? -1 : 0;
	case BF_O_BS:
		c->bs_given = 1;
		return (o->nbs = wl_sizes("bigfile", "--bs", v, 1ull << 30, o->bs)) < 0 ? -1 : 0;
	case BF_O_SOURCE:
		c->src_given = 1;
		return (o->random = wl_choice("bigfile", "--source", v, source_names)) < 0 ? -1 : 0;
	case BF_O_METHOD:
		o->nmethods = wl_choice_list("bigfile", "--method", v, method_names, o->methods,
					     BF_NMETHODS);
		return o->nmethods < 0 ? -1 : 0;
	case BF_O_SYNC:
	case BF_O_NOSYNC:
		o->sync = key == BF_O_SYNC;
		return 0;
	}
	return 0;
}

const struct cmd_def bigfile_cmd = {
	.name = "bigfile",
	.usage = bigfile_usage,
	.opts = bigfile_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_NONE,
	.handle = bf_handle,
};

static int has_method(const struct bigfile_opts *o, int m)
{
	for (int k = 0; k < o->nmethods; k++)
		if (o->methods[k] == m)
			return 1;
	return 0;
}

int bigfile_parse(int argc, char **argv, struct bigfile_opts *o)
{
	struct bf_parse_ctx c = { .o = o };
	int rc;

	memset(o, 0, sizeof(*o));
	o->methods[0] = BF_DD;
	o->nmethods = 1;
	o->bs[0] = 1 << 20;
	o->nbs = 1;
	o->sync = 1;
	rc = opts_parse(&bigfile_cmd, argc, argv, &o->co, &c, NULL);
	if (rc)
		return rc;
	if (!o->size)
		return wl_usage_error("bigfile", "--size is required (e.g. --size 2G)");
	if ((c.bs_given || c.src_given) && !has_method(o, BF_DD))
		return wl_usage_error("bigfile", "--bs and --source apply to --method dd only");
	return 0;
}

/* ---- the traced work ---- */

static int dd_loop(struct bigfile_job *j, int fd, struct phase_facts *f)
{
	char *buf = wl_buf("bigfile", j->bs);
	uint64_t done = 0, writes = 0, t0;
	struct wl_progress pg;
	struct prng g;

	if (!buf)
		return 1;
	prng_seed(&g, j->bs);
	wl_progress_init(&pg, "bigfile dd", j->size);
	t0 = wl_now_ns();
	while (done < j->size) {
		size_t n = j->size - done < j->bs ? (size_t)(j->size - done) : (size_t)j->bs;
		ssize_t w;

		if (j->random)
			prng_fill(&g, buf, n);
		w = write(fd, buf, n);
		writes++;
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			wl_fail("bigfile", "write %s: %s", j->path, w < 0 ? strerror(errno) : "no progress");
			free(buf);
			return 1;
		}
		done += (uint64_t)w;
		wl_progress(&pg, done);
	}
	wl_facts_rate(f, done, wl_now_ns() - t0);
	facts_set(f, "writes", "write calls", "", (double)writes);
	wl_progress_end(&pg);
	free(buf);
	return 0;
}

static int allocate(struct bigfile_job *j, int fd, struct phase_facts *f)
{
	uint64_t t0 = wl_now_ns();
	int err;

	if (j->method == BF_FALLOCATE)
		err = posix_fallocate(fd, 0, (off_t)j->size);
	else
		err = ftruncate(fd, (off_t)j->size) < 0 ? errno : 0;
	if (err) {
		wl_fail("bigfile", "%s %s: %s", method_names[j->method], j->path, strerror(err));
		return 1;
	}
	facts_set(f, "bytes", "file size", "B", (double)j->size);
	facts_set(f, "app_seconds", "time measured by the workload", "s", wl_secs(wl_now_ns() - t0));
	return 0;
}

int bigfile_fn(void *arg, struct phase_facts *f)
{
	struct bigfile_job *j = arg;
	int fd = open(j->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int rc;

	if (fd < 0) {
		wl_fail("bigfile", "create %s: %s", j->path, strerror(errno));
		return 1;
	}
	rc = j->method == BF_DD ? dd_loop(j, fd, f) : allocate(j, fd, f);
	if (close(fd) < 0 && rc == 0) {
		wl_fail("bigfile", "close %s: %s", j->path, strerror(errno));
		rc = 1;
	}
	return rc;
}

/* ---- parent-side hooks (untraced) ---- */

/* As the published runs: `sync; time (CMD; sync)`. Start clean, with nothing dirty. */
static int bf_before(void *arg)
{
	struct bf_run *r = arg;

	unlink(r->job.path);
	sync();
	wl_maybe_drop("bigfile", r->job.co);
	return 0;
}

static int bf_after_write(void *arg, struct phase_facts *f)
{
	struct bf_run *r = arg;
	const struct fact *s = facts_get(f, "app_seconds");
	struct stat st;

	r->job.write_s = s ? s->value : 0;
	if (stat(r->job.path, &st) == 0) {
		facts_set(f, "file_size", "file size on disk (st_size)", "B", (double)st.st_size);
		facts_set(f, "allocated_bytes", "allocated (st_blocks x 512)", "B",
			  (double)st.st_blocks * 512.0);
	}
	if (!r->flush_dir)
		unlink(r->job.path);
	return 0;
}

static int bf_flush_fn(void *arg, struct phase_facts *f)
{
	return flush_fn((void *)((struct bf_run *)arg)->flush_dir, f);
}

/* The flush phase closes the run: dd's view against write + flush. */
static int bf_after_flush(void *arg, struct phase_facts *f)
{
	struct bf_run *r = arg;
	const struct fact *fl = facts_get(f, "sync_seconds");
	double flush_s = fl ? fl->value : 0, real_s = r->job.write_s + flush_s;
	double bytes = r->job.method == BF_DD ? (double)r->job.size : 0;

	facts_set(f, "write_seconds", r->job.method == BF_DD ? "write loop (what dd times)" :
		  r->job.method == BF_FALLOCATE ? "posix_fallocate" : "ftruncate", "s", r->job.write_s);
	facts_set(f, "real_seconds", "including the flush", "s", real_s);
	if (bytes > 0 && r->job.write_s > 0 && real_s > 0) {
		facts_set(f, "dd_rate", "dd's view: bytes / write loop", "B/s", bytes / r->job.write_s);
		facts_set(f, "real_rate", "real: bytes / (write loop + flush)", "B/s", bytes / real_s);
		facts_set(f, "dd_overstates", "dd's rate / real rate", "", real_s / r->job.write_s);
	}
	unlink(r->job.path);
	return 0;
}

/* ---- the command ---- */

static void column_name(char *buf, size_t n, const struct bigfile_opts *o, int method, uint64_t bs)
{
	char b[24];

	if (method != BF_DD)
		snprintf(buf, n, "%s", method_names[method]);
	else if (o->nmethods == 1)
		snprintf(buf, n, "bs=%s", wl_size_label(b, sizeof(b), bs));
	else
		snprintf(buf, n, "dd bs=%s", wl_size_label(b, sizeof(b), bs));
}

static void add_run(struct wl_plan *p, struct bf_run *r, const char *col, int rep, int repeat)
{
	struct phase_spec *ph = wl_plan_add(p, col, rep, repeat, PHASE_WORK, bigfile_fn, r);

	if (!ph)
		return;
	ph->before = bf_before;
	ph->after = bf_after_write;
	if (!r->flush_dir)
		return;
	ph = wl_plan_add(p, col, rep, repeat, PHASE_FLUSH, bf_flush_fn, r);
	if (!ph)
		return;
	ph->comm = "iowhy-sync";
	ph->after = bf_after_flush;
}

static int plan_runs(const struct bigfile_opts *o, struct wl_plan *p, struct bf_run *runs)
{
	int n = 0, wanted = 0;

	for (int m = 0; m < o->nmethods; m++) {
		int nbs = o->methods[m] == BF_DD ? o->nbs : 1;

		for (int b = 0; b < nbs; b++) {
			char col[32];

			column_name(col, sizeof(col), o, o->methods[m], o->bs[b]);
			for (int rep = 1; rep <= o->co.repeat; rep++, n++) {
				struct bf_run *r = &runs[n];

				snprintf(r->job.path, sizeof(r->job.path), "bigfile");
				r->job.size = o->size;
				r->job.bs = o->bs[b];
				r->job.method = o->methods[m];
				r->job.random = o->random;
				r->job.co = &o->co;
				r->flush_dir = o->sync ? "." : NULL; /* the scratch area */
				wanted += o->sync ? 2 : 1;
				add_run(p, r, col, rep, o->co.repeat);
			}
		}
	}
	return wl_plan_check("bigfile", wanted);
}

static int space_check(const struct bigfile_opts *o)
{
	uint64_t avail = wl_free_bytes(o->co.dir ? o->co.dir : ".");
	char need[32], have[32];

	if (o->nmethods == 1 && o->methods[0] == BF_TRUNCATE)
		return 0;
	if (avail >= o->size + (o->size >> 6))
		return 0;
	return wl_usage_error("bigfile", "--size %s does not fit: %s available under %s",
			      fmt_bytes(need, sizeof(need), o->size), fmt_bytes(have, sizeof(have), avail),
			      o->co.dir ? o->co.dir : ".");
}

int cmd_bigfile(int argc, char **argv)
{
	struct bigfile_opts o;
	struct scratch s;
	struct wl_plan *p;
	struct bf_run *runs;
	int rc = bigfile_parse(argc, argv, &o);

	if (rc)
		return wl_exit_status(rc);
	if ((rc = space_check(&o)) != 0)
		return rc;
	p = calloc(1, sizeof(*p));
	runs = calloc((size_t)(o.nmethods * o.nbs * o.co.repeat), sizeof(*runs));
	if (!p || !runs) {
		free(p);
		free(runs);
		wl_fail("bigfile", "out of memory");
		return 1;
	}
	p->comm = "iowhy-bigfile";
	if (wl_scratch(&s, &o.co) < 0) {
		rc = 1;
	} else if ((rc = plan_runs(&o, p, runs)) != 0) {
		scratch_remove(&s);
	} else {
		rc = wl_session("bigfile", argc, argv, p, &o.co, &s);
	}
	free(runs);
	free(p);
	return rc;
}
