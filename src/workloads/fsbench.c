// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy fsbench: the four-number summary people compare (as FileSystemBenchmarkCPP prints it):
 * sequential read, random read, sequential write, random write, in MiB/s, with IOPS and latency
 * percentiles, one column each, on one file iowhy makes. Writes end with fdatasync inside the
 * timing, so that they measure the device and not the page cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "storage.h"

enum { FB_SEQ_READ, FB_RAND_READ, FB_SEQ_WRITE, FB_RAND_WRITE, FB_NCOLS };
static const char *const col_names[FB_NCOLS] = { "seq read", "rand read", "seq write", "rand write" };


static const char fsbench_usage[] =
	"usage: iowhy fsbench [--size S] [--bs-seq B] [--bs-rand B] [--ops K] [--direct] [options]\n"
	"  Sequential read, random read, sequential write, random write on one file of S bytes\n"
	"  (default 256M): MiB/s, IOPS and latency percentiles, one column each. Writes end with\n"
	"  fdatasync inside the timing.\n";
/* ---- sequential overwrite ---- */

static int seqwrite_loop(const struct seqwrite_job *j, int fd, char *buf, struct phase_facts *f)
{
	uint64_t done = 0, writes = 0, t0 = wl_now_ns();
	struct wl_progress pg;
	struct wl_lat lat;

	wl_lat_init(&lat);
	wl_progress_init(&pg, "seq write", j->size);
	while (done < j->size) {
		size_t n = j->size - done < j->bs ? (size_t)(j->size - done) : (size_t)j->bs;
		uint64_t w0 = wl_now_ns();
		ssize_t w = write(fd, buf, n);

		wl_lat_add(&lat, wl_now_ns() - w0);
		writes++;
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return wl_fail("fsbench", "write %s: %s", j->path, w < 0 ? strerror(errno) : "no progress");
		done += (uint64_t)w;
		wl_progress(&pg, done);
	}
	if (fdatasync(fd) < 0)
		return wl_fail("fsbench", "fdatasync %s: %s", j->path, strerror(errno));
	wl_progress_end(&pg);
	wl_facts_rate(f, done, wl_now_ns() - t0);
	facts_set(f, "writes", "write calls", "", (double)writes);
	facts_set(f, "iops", "writes per second", "", (double)writes / wl_secs(wl_now_ns() - t0));
	wl_facts_lat(f, &lat);
	return 0;
}

int seqwrite_fn(void *arg, struct phase_facts *f)
{
	const struct seqwrite_job *j = arg;
	char *buf = wl_buf("fsbench", (size_t)j->bs);
	int fd = open(j->path, O_WRONLY | O_CREAT | (j->direct ? O_DIRECT : 0), 0644);
	int rc = 1;
	struct prng g;

	if (fd < 0)
		wl_fail("fsbench", "open %s: %s", j->path, strerror(errno));
	if (buf && fd >= 0) {
		prng_seed(&g, 0xf5b);
		prng_fill(&g, buf, (size_t)j->bs);
		rc = seqwrite_loop(j, fd, buf, f) < 0;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* ---- options ---- */

enum { FB_O_SIZE = 256, FB_O_BS_SEQ, FB_O_BS_RAND, FB_O_OPS, FB_O_DIRECT };

static const struct opt_def fsbench_opt_defs[] = {
	{ "size", FB_O_SIZE, "S", "size of the test file (default 256M)" },
	{ "bs-seq", FB_O_BS_SEQ, "B", "block size of the sequential columns (default 1M)" },
	{ "bs-rand", FB_O_BS_RAND, "B", "block size of the random columns (default 4k)" },
	{ "ops", FB_O_OPS, "K", "operations of each random column (default: S / B, at most 65536)" },
	{ "direct", FB_O_DIRECT, NULL, "O_DIRECT (block sizes multiples of 512)" },
	{ NULL, 0, NULL, NULL },
};

/* fsbench's own options: 0, or -1 after a one-line message. */
static int fb_handle(void *ctx, int key, const char *v)
{
	struct fsbench_opts *o = ctx;

	switch (key) {
	case FB_O_SIZE:
		return wl_size("fsbench", "--size", v, SIZE_MAX_ACCEPTED, &o->size) < 0 ? -1 : 0;
	case FB_O_BS_SEQ:
		return wl_size("fsbench", "--bs-seq", v, 1ull << 30, &o->bs_seq) < 0 ? -1 : 0;
	case FB_O_BS_RAND:
		return wl_size("fsbench", "--bs-rand", v, 64ull << 20, &o->bs_rand) < 0 ? -1 : 0;
	case FB_O_OPS:
		return wl_counts("fsbench", "--ops", v, 1ull << 40, &o->ops) != 1 ? -1 : 0;
	case FB_O_DIRECT:
		o->direct = 1;
		return 0;
	}
	return 0;
}

const struct cmd_def fsbench_cmd = {
	.name = "fsbench",
	.usage = fsbench_usage,
	.opts = fsbench_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_NONE,
	.handle = fb_handle,
};

int fsbench_parse(int argc, char **argv, struct fsbench_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->size = 256ull << 20;
	o->bs_seq = 1 << 20;
	o->bs_rand = 4096;
	rc = opts_parse(&fsbench_cmd, argc, argv, &o->co, o, NULL);
	if (rc)
		return rc;
	if (o->direct && (o->bs_seq % 512 || o->bs_rand % 512))
		return wl_usage_error("fsbench", "--direct needs block sizes that are multiples of 512");
	if (o->bs_seq > o->size || o->bs_rand > o->size)
		return wl_usage_error("fsbench", "the block sizes must not exceed --size");
	if (!o->ops)
		o->ops = o->size / o->bs_rand < 65536 ? o->size / o->bs_rand : 65536;
	if (o->co.dir && wl_free_bytes(o->co.dir) < o->size)
		return wl_usage_error("fsbench", "--size does not fit under %s", o->co.dir);
	return 0;
}

/* ---- the command ---- */

struct fb_shared {
	const struct fsbench_opts *o;
	char path[4200];
	int made;
};

struct fb_run {
	struct fb_shared *sh;
	int col;
	union {
		struct read_job rd;
		struct rand_job rnd;
		struct seqwrite_job wr;
	} u;
};

static int fb_fn(void *arg, struct phase_facts *f)
{
	struct fb_run *r = arg;

	switch (r->col) {
	case FB_SEQ_READ:
		return read_fn(&r->u.rd, f);
	case FB_SEQ_WRITE:
		return seqwrite_fn(&r->u.wr, f);
	default:
		return rand_fn(&r->u.rnd, f);
	}
}

static int fb_before(void *arg)
{
	struct fb_run *r = arg;

	int rc = wl_input_before("fsbench", NULL, r->sh->path, &r->sh->made, r->sh->o->size, 0xf5b,
				 &r->sh->o->co);

	sync(); /* the file just made and the previous column's writes are not this column's */
	return rc;
}

static void fb_job(struct fb_run *r, int col, int seed)
{
	const struct fsbench_opts *o = r->sh->o;
	const char *path = r->sh->path;

	r->col = col;
	if (col == FB_SEQ_READ)
		r->u.rd = (struct read_job){ .path = path, .size = o->size, .bs = o->bs_seq,
					     .direct = o->direct, .threads = 1 };
	else if (col == FB_SEQ_WRITE)
		r->u.wr = (struct seqwrite_job){ .path = path, .size = o->size, .bs = o->bs_seq,
						 .direct = o->direct };
	else
		r->u.rnd = (struct rand_job){ .path = path, .size = o->size, .bs = o->bs_rand,
					      .op = col == FB_RAND_WRITE ? RAND_WRITE : RAND_READ,
					      .direct = o->direct, .workers = 1, .ops = o->ops,
					      .seed = (uint64_t)seed, .sync_end = col == FB_RAND_WRITE };
}

int cmd_fsbench(int argc, char **argv)
{
	struct fsbench_opts o;
	struct fb_shared sh = { .o = &o };
	struct scratch s;
	struct wl_plan *p;
	struct fb_run *runs;
	int rc = fsbench_parse(argc, argv, &o), n = 0;

	if (rc)
		return wl_exit_status(rc);
	if ((rc = wl_plan_check("fsbench", FB_NCOLS * o.co.repeat)) != 0)
		return rc;
	p = calloc(1, sizeof(*p));
	runs = calloc((size_t)(FB_NCOLS * o.co.repeat), sizeof(*runs));
	if (!p || !runs || wl_scratch(&s, &o.co) < 0) {
		free(p);
		free(runs);
		return 1;
	}
	snprintf(sh.path, sizeof(sh.path), "fsbench"); /* relative: the phases run in the area */
	p->comm = "iowhy-fsbench";
	for (int c = 0; c < FB_NCOLS; c++) {
		for (int rep = 1; rep <= o.co.repeat; rep++, n++) {
			struct phase_spec *ph = wl_plan_add(p, col_names[c], rep, o.co.repeat, PHASE_WORK,
							    fb_fn, &runs[n]);

			runs[n].sh = &sh;
			fb_job(&runs[n], c, n + 1);
			ph->before = fb_before;
		}
	}
	rc = wl_session("fsbench", argc, argv, p, &o.co, &s);
	free(runs);
	free(p);
	return rc;
}
