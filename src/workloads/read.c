// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy read: read a file as fast as possible with a given block size, buffered or O_DIRECT, from
 * one or several threads, optionally hashing it (MD5 from libcrypto, CRC-32 from zlib) to show
 * whether the hash (user CPU) or the device bounds the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "lazy_libs.h"
#include "units.h"
#include "storage.h"

static const char *const hash_names[] = { "none", "md5", "crc32", NULL };


static const char read_usage[] =
	"usage: iowhy read [FILE | --size S] [--bs B[,B...]] [--direct] [--hash none|md5|crc32]\n"
	"                  [--threads N] [options]\n"
	"  Reads FILE (never modified) or a file of S random bytes iowhy makes, with B-byte reads\n"
	"  (default 1M); --direct uses O_DIRECT (B a multiple of 512); --threads splits the file\n"
	"  into N ranges; --hash md5 (libcrypto) or crc32 (zlib) is checked against a second read.\n";
/* ---- hashing ---- */

struct hasher {
	int kind;
	const struct md5_api *api;
	EVP_MD_CTX *md;
	uLong crc;
};

static int hasher_init(struct hasher *h, int kind)
{
	h->kind = kind;
	h->api = NULL;
	h->md = NULL;
	h->crc = crc32(0L, Z_NULL, 0);
	if (kind != HASH_MD5)
		return 0;
	h->api = md5_api("read");
	h->md = h->api ? h->api->ctx_new() : NULL;
	if (!h->md || h->api->init(h->md, h->api->md5(), NULL) != 1)
		return wl_fail("read", "cannot initialise MD5 (libcrypto)");
	return 0;
}

static void hasher_update(struct hasher *h, const void *p, size_t n)
{
	if (h->kind == HASH_MD5)
		h->api->update(h->md, p, n);
	else if (h->kind == HASH_CRC32)
		h->crc = crc32_z(h->crc, p, n);
}

/* Hex digest into hex (>= 33 bytes); frees the context. */
static void hasher_final(struct hasher *h, char *hex, size_t n)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned len = 0;

	if (h->kind == HASH_CRC32)
		snprintf(hex, n, "%08lx", (unsigned long)h->crc);
	if (h->kind != HASH_MD5)
		return;
	h->api->final(h->md, d, &len);
	h->api->ctx_free(h->md);
	h->md = NULL;
	for (unsigned k = 0; k < len && 2 * k + 2 < n; k++)
		snprintf(hex + 2 * k, 3, "%02x", d[k]);
}

int read_digest(const char *path, int hash, char *hex, size_t n)
{
	const size_t chunk = 1 << 20;
	char *buf = wl_buf("read", chunk);
	struct hasher h;
	ssize_t r = 0;
	int fd = open(path, O_RDONLY);

	if (!buf || fd < 0 || hasher_init(&h, hash) < 0) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return wl_fail("read", "cannot hash %s: %s", path, strerror(errno));
	}
	while ((r = read(fd, buf, chunk)) > 0)
		hasher_update(&h, buf, (size_t)r);
	hex[0] = '\0';
	hasher_final(&h, hex, n);
	close(fd);
	free(buf);
	return r < 0 ? wl_fail("read", "read %s: %s", path, strerror(errno)) : 0;
}

/* ---- the traced work: one thread per range ---- */

struct range {
	const struct read_job *job;
	uint64_t start, end;         /* [start, end) */
	uint64_t reads, bytes;
	uLong crc;
	char hex[40];
	int failed, show_progress;
	_Atomic uint64_t *progress;  /* bytes read by every thread */
	struct wl_lat lat;           /* per read() */
};

static int open_range(struct range *rg)
{
	const struct read_job *j = rg->job;
	int fd = open(j->path, O_RDONLY | (j->direct ? O_DIRECT : 0));

	if (fd < 0) {
		wl_fail("read", "open %s%s: %s", j->path, j->direct ? " (O_DIRECT)" : "", strerror(errno));
		return -1;
	}
	if (!j->direct)
		posix_fadvise(fd, (off_t)rg->start, (off_t)(rg->end - rg->start), POSIX_FADV_SEQUENTIAL);
	if (rg->start && lseek(fd, (off_t)rg->start, SEEK_SET) < 0) {
		wl_fail("read", "seek %s: %s", j->path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Length of the next read: bs, or what is left (rounded up to 512 with O_DIRECT: EOF cuts it). */
static size_t next_len(const struct read_job *j, uint64_t left)
{
	uint64_t n = left < j->bs ? left : j->bs;

	if (j->direct)
		n = (n + 511) & ~511ull;
	return (size_t)n;
}

static int read_loop(struct range *rg, int fd, char *buf, struct hasher *h)
{
	const struct read_job *j = rg->job;
	struct wl_progress pg;
	uint64_t off = rg->start;

	wl_progress_init(&pg, "read", j->size);
	while (off < rg->end) {
		uint64_t t0 = wl_now_ns();
		ssize_t r = read(fd, buf, next_len(j, rg->end - off));

		wl_lat_add(&rg->lat, wl_now_ns() - t0);
		rg->reads++;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return wl_fail("read", "read %s at %llu: %s", j->path, (unsigned long long)off,
				       r < 0 ? strerror(errno) : "unexpected end of file");
		if ((uint64_t)r > rg->end - off)
			r = (ssize_t)(rg->end - off);
		hasher_update(h, buf, (size_t)r);
		off += (uint64_t)r;
		atomic_fetch_add_explicit(rg->progress, (uint64_t)r, memory_order_relaxed);
		if (rg->show_progress)
			wl_progress(&pg, atomic_load_explicit(rg->progress, memory_order_relaxed));
	}
	rg->bytes = off - rg->start;
	wl_progress_end(&pg);
	return 0;
}

static void *range_thread(void *arg)
{
	struct range *rg = arg;
	const struct read_job *j = rg->job;
	char *buf = wl_buf("read", (size_t)j->bs);
	struct hasher h;
	int fd = -1;

	rg->failed = 1;
	if (!buf || hasher_init(&h, j->hash) < 0 || (fd = open_range(rg)) < 0)
		goto out;
	rg->failed = read_loop(rg, fd, buf, &h) < 0;
	rg->crc = h.crc;
	hasher_final(&h, rg->hex, sizeof(rg->hex));
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static void split_ranges(const struct read_job *j, struct range *rg, _Atomic uint64_t *progress)
{
	uint64_t per = (j->size + (uint64_t)j->threads - 1) / (uint64_t)j->threads;

	per = (per + j->bs - 1) / j->bs * j->bs;
	for (int t = 0; t < j->threads; t++) {
		memset(&rg[t], 0, sizeof(rg[t]));
		rg[t].job = j;
		rg[t].start = (uint64_t)t * per < j->size ? (uint64_t)t * per : j->size;
		rg[t].end = rg[t].start + per < j->size ? rg[t].start + per : j->size;
		rg[t].progress = progress;
		rg[t].show_progress = t == 0;
		wl_lat_init(&rg[t].lat);
	}
}

static int run_ranges(struct range *rg, int n)
{
	pthread_t *tid = calloc((size_t)n, sizeof(*tid));
	int started = 0, failed = 0;

	if (!tid)
		return -1;
	for (int t = 1; t < n; t++, started++)
		if (pthread_create(&tid[t], NULL, range_thread, &rg[t]) != 0)
			break;
	range_thread(&rg[0]);
	for (int t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	for (int t = 0; t < n; t++)
		failed |= rg[t].failed || t > started;
	free(tid);
	return failed ? -1 : 0;
}

static void hash_facts(const struct read_job *j, const struct range *rg, struct phase_facts *f)
{
	char label[48];
	uLong crc = rg[0].crc;

	if (j->hash == HASH_MD5) {
		snprintf(label, sizeof(label), "md5 %s", rg[0].hex);
		facts_set(f, "md5", label, "", 1);
		return;
	}
	for (int t = 1; t < j->threads; t++)
		crc = crc32_combine(crc, rg[t].crc, (z_off_t)(rg[t].end - rg[t].start));
	snprintf(label, sizeof(label), "crc32 %08lx", (unsigned long)crc);
	facts_set(f, "crc32", label, "", (double)crc);
}

int read_fn(void *arg, struct phase_facts *f)
{
	const struct read_job *j = arg;
	_Atomic uint64_t progress = 0;
	struct range *rg = calloc((size_t)j->threads, sizeof(*rg));
	uint64_t t0, ns, reads = 0, bytes = 0;
	struct wl_lat all;

	if (!rg)
		return 1;
	wl_lat_init(&all);
	split_ranges(j, rg, &progress);
	t0 = wl_now_ns();
	if (run_ranges(rg, j->threads) < 0) {
		free(rg);
		return 1;
	}
	ns = wl_now_ns() - t0;
	for (int t = 0; t < j->threads; t++) {
		reads += rg[t].reads;
		bytes += rg[t].bytes;
		wl_lat_merge(&all, &rg[t].lat);
	}
	wl_facts_rate(f, bytes, ns);
	facts_set(f, "reads", "read calls", "", (double)reads);
	facts_set(f, "iops", "reads per second", "", ns ? (double)reads / wl_secs(ns) : 0);
	wl_facts_lat(f, &all);
	if (j->hash != HASH_NONE)
		hash_facts(j, rg, f);
	free(rg);
	return 0;
}

/* ---- options ---- */

enum { RD_O_SIZE = 256, RD_O_BS, RD_O_HASH, RD_O_THREADS, RD_O_DIRECT };

static const struct opt_def read_opt_defs[] = {
	{ "size", RD_O_SIZE, "S", "read a file of S random bytes iowhy makes (instead of FILE)" },
	{ "bs", RD_O_BS, "LIST", "read sizes, comma-separated, one column each (default 1M)" },
	{ "direct", RD_O_DIRECT, NULL, "O_DIRECT reads (sizes multiples of 512)" },
	{ "hash", RD_O_HASH, "none|md5|crc32", "hash what is read, checked against a second read" },
	{ "threads", RD_O_THREADS, "N", "N threads, each on its own range of the file (default 1)" },
	{ NULL, 0, NULL, NULL },
};

/* read's own options: 0, or -1 after a one-line message. */
static int read_handle(void *ctx, int key, const char *v)
{
	struct read_opts *o = ctx;
	uint64_t n;

	switch (key) {
	case RD_O_SIZE:
		return wl_size("read", "--size", v, SIZE_MAX_ACCEPTED, &o->size) < 0 ? -1 : 0;
	case RD_O_BS:
		return (o->nbs = wl_sizes("read", "--bs", v, 1ull << 30, o->bs)) < 0 ? -1 : 0;
	case RD_O_HASH:
		return (o->hash = wl_choice("read", "--hash", v, hash_names)) < 0 ? -1 : 0;
	case RD_O_THREADS:
		if (wl_counts("read", "--threads", v, 256, &n) != 1)
			return -1;
		o->threads = (int)n;
		return 0;
	case RD_O_DIRECT:
		o->direct = 1;
		return 0;
	}
	return 0;
}

const struct cmd_def read_cmd = {
	.name = "read",
	.usage = read_usage,
	.opts = read_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_FILE,
	.handle = read_handle,
};

static int read_validate(struct read_opts *o)
{
	if (o->file && o->size)
		return wl_usage_error("read", "give a FILE or --size, not both");
	if (!o->file && !o->size)
		return wl_usage_error("read", "give a FILE to read, or --size S to read a file iowhy makes");
	if (o->file && wl_file_size("read", o->file) < 0)
		return 2;
	for (int k = 0; o->direct && k < o->nbs; k++)
		if (o->bs[k] % 512)
			return wl_usage_error("read", "--direct needs a --bs that is a multiple of 512 (got %llu)",
					      (unsigned long long)o->bs[k]);
	if (o->hash == HASH_MD5 && o->threads > 1)
		return wl_usage_error("read", "--hash md5 is sequential: it needs --threads 1");
	if (o->hash == HASH_MD5 && !md5_api("read")) /* opened before any phase is traced */
		return 1;
	return 0;
}

int read_parse(int argc, char **argv, struct read_opts *o)
{
	int rc, file;

	memset(o, 0, sizeof(*o));
	o->bs[0] = 1 << 20;
	o->nbs = 1;
	o->threads = 1;
	rc = opts_parse(&read_cmd, argc, argv, &o->co, o, &file);
	if (rc)
		return rc;
	o->file = file ? argv[file] : NULL;
	return read_validate(o);
}

/* ---- parent-side hooks and the command ---- */

struct read_shared {
	const struct read_opts *o;
	char path[4200];
	int made, have_ref;
	char ref[40];
};

struct read_run {
	struct read_job job;
	struct read_shared *sh;
};

static int read_before(void *arg)
{
	struct read_run *r = arg;
	struct read_shared *sh = r->sh;

	return wl_input_before("read", sh->o->file, sh->path, &sh->made, sh->o->size, 0x5eed,
			       &sh->o->co);
}

static int read_after(void *arg, struct phase_facts *f)
{
	struct read_run *r = arg;
	struct read_shared *sh = r->sh;
	const char *key = hash_names[r->job.hash], *got;
	const struct fact *d = facts_get(f, key);
	char mkey[32];
	int ok;

	if (r->job.hash == HASH_NONE || !d)
		return 0;
	if (!sh->have_ref && read_digest(sh->path, r->job.hash, sh->ref, sizeof(sh->ref)) < 0)
		return 1;
	sh->have_ref = 1;
	got = strchr(d->label, ' ') ? strchr(d->label, ' ') + 1 : "";
	ok = strcmp(got, sh->ref) == 0;
	snprintf(mkey, sizeof(mkey), "%s_matches", key);
	facts_set(f, mkey, "digest matches a separate read", "", ok);
	if (!ok)
		fprintf(stderr, "iowhy read: %s mismatch: read %s, file has %s\n", key, got, sh->ref);
	return ok ? 0 : 1;
}

static int plan_reads(const struct read_opts *o, struct read_shared *sh, struct read_run *runs,
		      struct wl_plan *p)
{
	uint64_t size = o->file ? (uint64_t)wl_file_size("read", o->file) : o->size;
	int n = 0;

	for (int b = 0; b < o->nbs; b++) {
		char col[32], lab[24];

		snprintf(col, sizeof(col), "bs=%s", wl_size_label(lab, sizeof(lab), o->bs[b]));
		for (int rep = 1; rep <= o->co.repeat; rep++, n++) {
			struct read_run *r = &runs[n];
			struct phase_spec *ph = wl_plan_add(p, col, rep, o->co.repeat, PHASE_WORK, read_fn, r);

			r->sh = sh;
			r->job = (struct read_job){ .path = sh->path, .size = size, .bs = o->bs[b],
						    .direct = o->direct, .hash = o->hash, .threads = o->threads };
			if (!ph)
				break;
			ph->before = read_before;
			ph->after = read_after;
		}
	}
	return wl_plan_check("read", n);
}

int cmd_read(int argc, char **argv)
{
	struct read_opts o;
	struct read_shared sh = { .o = &o };
	struct scratch s, *sp = NULL;
	struct wl_plan *p;
	struct read_run *runs;
	int rc = read_parse(argc, argv, &o);

	if (rc)
		return wl_exit_status(rc);
	p = calloc(1, sizeof(*p));
	runs = calloc((size_t)(o.nbs * o.co.repeat), sizeof(*runs));
	if (!p || !runs || wl_input_path(o.file, "readfile", &o.co, &s, &sp, sh.path, sizeof(sh.path)))
		rc = 1;
	if (rc == 0 && p) {
		p->comm = "iowhy-read";
		rc = plan_reads(&o, &sh, runs, p);
		if (rc == 0)
			rc = wl_session("read", argc, argv, p, &o.co, sp);
		else if (sp)
			scratch_remove(sp);
	}
	free(runs);
	free(p);
	return rc;
}
