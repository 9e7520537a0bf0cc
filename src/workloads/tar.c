// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy tar: an ingest service reading a tar archive without unpacking it. Untraced, iowhy builds a
 * real ustar archive with libarchive (optionally gzip-compressed). Traced, R readers each walk the
 * headers and pull their own members (member k goes to reader k mod R) by byte range with pread
 * ("give me bytes 8800-35663 of the tar"); a .tar.gz is read as a stream through zlib instead.
 * Each member's CRC-32 is checked against the one recorded when it was written.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lazy_libs.h"
#include "units.h"
#include "storage.h"

#define TAR_BLOCK 512
#define TAR_CHUNK (1u << 20)


static const char tar_usage[] =
	"usage: iowhy tar [--members M] [--member-size S] [--readers R] [--gzip] [--archive PATH]\n"
	"                 [options]\n"
	"  Builds a ustar archive of M members of S bytes (libarchive), then R readers walk the\n"
	"  headers and pread their members' byte ranges (member k to reader k mod R); --gzip streams\n"
	"  a .tar.gz through zlib instead. --archive keeps the archive at PATH (must not exist).\n";
/* ---- building the archive (untraced) ---- */

static int add_member(const struct archive_api *ar, struct archive *a, struct tar_set *t, uint64_t k,
		      char *buf, struct prng *g)
{
	struct archive_entry *e = ar->entry_new();
	char name[32];
	uLong crc = crc32(0L, Z_NULL, 0);
	int rc = 0;

	snprintf(name, sizeof(name), "m%06llu.bin", (unsigned long long)k);
	ar->entry_set_pathname(e, name);
	ar->entry_set_size(e, (la_int64_t)t->member_size);
	ar->entry_set_filetype(e, AE_IFREG);
	ar->entry_set_perm(e, 0644);
	ar->entry_set_mtime(e, time(NULL), 0);
	if (ar->write_header(a, e) != ARCHIVE_OK)
		rc = wl_fail("tar", "%s: %s", t->path, ar->error_string(a));
	for (uint64_t done = 0; rc == 0 && done < t->member_size;) {
		size_t n = t->member_size - done < TAR_CHUNK ? (size_t)(t->member_size - done) : TAR_CHUNK;

		prng_fill(g, buf, n);
		crc = crc32_z(crc, (const unsigned char *)buf, n);
		if (ar->write_data(a, buf, n) != (la_ssize_t)n)
			rc = wl_fail("tar", "%s: %s", t->path, ar->error_string(a));
		done += n;
	}
	t->crc[k] = (uint32_t)crc;
	ar->entry_free(e);
	return rc;
}

static int sync_path(const char *path)
{
	int fd = open(path, O_RDONLY);
	int rc = fd < 0 || fsync(fd) < 0 ? wl_fail("tar", "fsync %s: %s", path, strerror(errno)) : 0;

	if (fd >= 0)
		close(fd);
	return rc;
}

int tar_build(struct tar_set *t, uint64_t seed)
{
	const struct archive_api *ar = archive_api("tar");
	struct archive *a = ar ? ar->write_new() : NULL;
	char *buf = wl_buf("tar", TAR_CHUNK);
	struct prng g;
	int rc = 0, fd = -1;

	t->crc = calloc((size_t)t->members, sizeof(*t->crc));
	if (!ar || !a || !buf || !t->crc) {
		free(buf);
		if (a)
			ar->write_free(a);
		return ar ? wl_fail("tar", "out of memory") : -1;
	}
	prng_seed(&g, seed);
	ar->write_set_format_ustar(a);
	if (t->gzip)
		ar->write_add_filter_gzip(a);
	/* O_EXCL|O_NOFOLLOW: never through a link planted at the name, never over a file */
	fd = open(t->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		rc = wl_fail("tar", "create %s: %s", t->path, strerror(errno));
	else if (ar->write_open_fd(a, fd) != ARCHIVE_OK)
		rc = wl_fail("tar", "create %s: %s", t->path, ar->error_string(a));
	for (uint64_t k = 0; rc == 0 && k < t->members; k++)
		rc = add_member(ar, a, t, k, buf, &g);
	if (ar->write_close(a) != ARCHIVE_OK && rc == 0)
		rc = wl_fail("tar", "%s: %s", t->path, ar->error_string(a));
	ar->write_free(a);
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc ? rc : sync_path(t->path);
}

/* ---- reading headers ---- */

struct tar_hdr {
	uint64_t index, size;        /* member number (from its name m%06d.bin) and data size */
};

static uint64_t octal_field(const unsigned char *p, int len)
{
	uint64_t v = 0;

	if (p[0] & 0x80) {           /* base-256 (sizes over 8 GiB) */
		for (int k = 1; k < len; k++)
			v = v << 8 | p[k];
		return v;
	}
	for (int k = 0; k < len && p[k] >= '0' && p[k] <= '7'; k++)
		v = v * 8 + (uint64_t)(p[k] - '0');
	return v;
}

static int zero_block(const unsigned char *h)
{
	for (int k = 0; k < TAR_BLOCK; k++)
		if (h[k])
			return 0;
	return 1;
}

/* 1 = a member header, 0 = end of archive, -1 = not a valid ustar header. */
static int parse_header(const unsigned char *h, struct tar_hdr *out)
{
	uint64_t sum = 0;

	if (zero_block(h))
		return 0;
	for (int k = 0; k < TAR_BLOCK; k++)
		sum += k >= 148 && k < 156 ? ' ' : h[k];
	if (memcmp(h + 257, "ustar", 5) != 0 || sum != octal_field(h + 148, 8))
		return -1;
	out->size = octal_field(h + 124, 12);
	out->index = h[0] == 'm' ? strtoull((const char *)h + 1, NULL, 10) : UINT64_MAX;
	return 1;
}

static uint64_t padded(uint64_t n)
{
	return (n + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
}

/* ---- readers (traced) ---- */

struct reader {
	const struct tar_set *t;
	int id, failed;
	uint64_t members, bytes, ok, headers;
	char *buf;
};

static void check_member(struct reader *r, const struct tar_hdr *h, uLong crc)
{
	r->members++;
	r->bytes += h->size;
	if (h->index < r->t->members && r->t->crc[h->index] == (uint32_t)crc)
		r->ok++;
}

static int pread_member(struct reader *r, int fd, uint64_t off, const struct tar_hdr *h)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	for (uint64_t done = 0; done < h->size;) {
		size_t n = h->size - done < TAR_CHUNK ? (size_t)(h->size - done) : TAR_CHUNK;

		if (wl_pread_all(fd, r->buf, n, off + done) < 0)
			return wl_fail("tar", "read %s at %llu: %s", r->t->path,
				       (unsigned long long)(off + done), strerror(errno));
		crc = crc32_z(crc, (unsigned char *)r->buf, n);
		done += n;
	}
	check_member(r, h, crc);
	return 0;
}

static int read_plain(struct reader *r)
{
	unsigned char h[TAR_BLOCK];
	struct tar_hdr th;
	uint64_t off = 0;
	int fd = open(r->t->path, O_RDONLY), rc = 0, kind;

	if (fd < 0)
		return wl_fail("tar", "open %s: %s", r->t->path, strerror(errno));
	for (uint64_t k = 0; rc == 0; k++) {
		if (wl_pread_all(fd, h, TAR_BLOCK, off) < 0 || (kind = parse_header(h, &th)) < 0) {
			rc = wl_fail("tar", "%s: bad header at %llu", r->t->path, (unsigned long long)off);
			break;
		}
		if (kind == 0)
			break;
		r->headers++;
		if (k % (uint64_t)r->t->readers == (uint64_t)r->id)
			rc = pread_member(r, fd, off + TAR_BLOCK, &th);
		off += TAR_BLOCK + padded(th.size);
	}
	close(fd);
	return rc;
}

static int gz_take(gzFile g, void *buf, size_t n)
{
	return gzread(g, buf, (unsigned)n) == (int)n ? 0 : -1;
}

/* Stream the member's data (ours: checksum it; others': skip, which still inflates it). */
static int gz_member(struct reader *r, gzFile g, const struct tar_hdr *h, int mine)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	if (!mine)
		return gzseek(g, (z_off_t)padded(h->size), SEEK_CUR) < 0 ? -1 : 0;
	for (uint64_t done = 0; done < h->size;) {
		size_t n = h->size - done < TAR_CHUNK ? (size_t)(h->size - done) : TAR_CHUNK;

		if (gz_take(g, r->buf, n) < 0)
			return -1;
		crc = crc32_z(crc, (unsigned char *)r->buf, n);
		done += n;
	}
	check_member(r, h, crc);
	return gzseek(g, (z_off_t)(padded(h->size) - h->size), SEEK_CUR) < 0 ? -1 : 0;
}

static int read_gzip(struct reader *r)
{
	unsigned char h[TAR_BLOCK];
	struct tar_hdr th;
	gzFile g = gzopen(r->t->path, "rb");
	int rc = 0, kind;

	if (!g)
		return wl_fail("tar", "open %s: %s", r->t->path, strerror(errno));
	gzbuffer(g, 256 * 1024);
	for (uint64_t k = 0; rc == 0; k++) {
		if (gz_take(g, h, TAR_BLOCK) < 0 || (kind = parse_header(h, &th)) < 0) {
			rc = wl_fail("tar", "%s: bad header in member %llu", r->t->path, (unsigned long long)k);
			break;
		}
		if (kind == 0)
			break;
		r->headers++;
		if (gz_member(r, g, &th, k % (uint64_t)r->t->readers == (uint64_t)r->id) < 0)
			rc = wl_fail("tar", "%s: truncated member %llu", r->t->path, (unsigned long long)k);
	}
	gzclose(g);
	return rc;
}

static void *reader_run(void *arg)
{
	struct reader *r = arg;

	r->buf = wl_buf("tar", TAR_CHUNK);
	r->failed = !r->buf || (r->t->gzip ? read_gzip(r) : read_plain(r)) < 0;
	free(r->buf);
	return NULL;
}

static void tar_facts(const struct tar_set *t, const struct reader *rd, uint64_t ns,
		      struct phase_facts *f)
{
	uint64_t members = 0, bytes = 0, ok = 0, headers = 0;

	for (int k = 0; k < t->readers; k++) {
		members += rd[k].members;
		bytes += rd[k].bytes;
		ok += rd[k].ok;
		headers += rd[k].headers;
	}
	wl_facts_rate(f, bytes, ns);
	facts_set(f, "members_read", "members read", "", (double)members);
	facts_set(f, "checksums_ok", "members whose CRC-32 matches", "", (double)ok);
	facts_set(f, "headers_read", "headers read (all readers)", "", (double)headers);
	facts_set(f, "readers", "readers", "", t->readers);
}

int tar_fn(void *arg, struct phase_facts *f)
{
	const struct tar_set *t = arg;
	struct reader *rd = t->readers > 0 ? calloc((size_t)t->readers, sizeof(*rd)) : NULL;
	pthread_t *tid = t->readers > 0 ? calloc((size_t)t->readers, sizeof(*tid)) : NULL;
	int started = 1, failed = 0;
	uint64_t t0 = wl_now_ns();

	if (!rd || !tid) {
		free(rd);
		free(tid);
		return 1;
	}
	for (int k = 0; k < t->readers; k++)
		rd[k] = (struct reader){ .t = t, .id = k };
	for (; started < t->readers; started++)
		if (pthread_create(&tid[started], NULL, reader_run, &rd[started]) != 0)
			break;
	reader_run(&rd[0]);
	for (int k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
	for (int k = 0; k < t->readers; k++)
		failed |= rd[k].failed || k >= started;
	if (!failed)
		tar_facts(t, rd, wl_now_ns() - t0, f);
	free(rd);
	free(tid);
	return failed;
}

/* ---- options ---- */

enum { TAR_O_MEMBERS = 256, TAR_O_MEMBER_SIZE, TAR_O_READERS, TAR_O_ARCHIVE, TAR_O_GZIP };

static const struct opt_def tar_opt_defs[] = {
	{ "members", TAR_O_MEMBERS, "M", "members in the archive (default 100)" },
	{ "member-size", TAR_O_MEMBER_SIZE, "S", "bytes per member (default 64k)" },
	{ "readers", TAR_O_READERS, "R", "readers walking the archive at once (default 4)" },
	{ "gzip", TAR_O_GZIP, NULL, "a .tar.gz, read through zlib" },
	{ "archive", TAR_O_ARCHIVE, "PATH", "build the archive at PATH and keep it (must not exist)" },
	{ NULL, 0, NULL, NULL },
};

/* tar's own options: 0, or -1 after a one-line message. */
static int tar_handle(void *ctx, int key, const char *v)
{
	struct tar_opts *o = ctx;

	switch (key) {
	case TAR_O_MEMBERS:
		return wl_counts("tar", "--members", v, 1000000, &o->members) != 1 ? -1 : 0;
	case TAR_O_MEMBER_SIZE:
		return wl_size("tar", "--member-size", v, 1ull << 32, &o->member_size) < 0 ? -1 : 0;
	case TAR_O_READERS:
		return wl_counts("tar", "--readers", v, 256, &o->readers) != 1 ? -1 : 0;
	case TAR_O_ARCHIVE:
		o->archive = v;
		return 0;
	case TAR_O_GZIP:
		o->gzip = 1;
		return 0;
	}
	return 0;
}

const struct cmd_def tar_cmd = {
	.name = "tar",
	.usage = tar_usage,
	.opts = tar_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_NONE,
	.handle = tar_handle,
};

int tar_parse(int argc, char **argv, struct tar_opts *o)
{
	struct stat st;
	uint64_t need;
	int rc;

	memset(o, 0, sizeof(*o));
	o->members = 100;
	o->member_size = 64 * 1024;
	o->readers = 4;
	rc = opts_parse(&tar_cmd, argc, argv, &o->co, o, NULL);
	if (rc)
		return rc;
	if (!archive_api("tar")) /* opened here, before any phase, not while one is traced */
		return 1;
	/* lstat: a dangling symbolic link exists too (and would send the archive elsewhere) */
	if (o->archive && lstat(o->archive, &st) == 0)
		return wl_usage_error("tar", "--archive %s exists%s; iowhy does not overwrite files",
				      o->archive, S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
	need = o->members * (TAR_BLOCK + padded(o->member_size));
	if (need > SIZE_MAX_ACCEPTED)
		return wl_usage_error("tar", "an archive of %llu bytes is too large",
				      (unsigned long long)need);
	if (wl_free_bytes(o->co.dir ? o->co.dir : ".") < need)
		return wl_usage_error("tar", "the archive (%llu bytes) does not fit under %s",
				      (unsigned long long)need, o->co.dir ? o->co.dir : ".");
	return 0;
}

/* ---- parent-side hooks and the command ---- */

struct tar_run {
	struct tar_set *t;
	const struct common_opts *co;
};

static int tar_before(void *arg)
{
	struct tar_run *r = arg;

	if (!r->t->crc && tar_build(r->t, 0x7a7) < 0)
		return 1;
	wl_maybe_drop("tar", r->co);
	return 0;
}

static int tar_run_fn(void *arg, struct phase_facts *f)
{
	return tar_fn(((struct tar_run *)arg)->t, f);
}

static int tar_after(void *arg, struct phase_facts *f)
{
	struct tar_run *r = arg;
	const struct fact *ok = facts_get(f, "checksums_ok"), *n = facts_get(f, "members_read");

	if (ok && n && ok->value == (double)r->t->members && n->value == (double)r->t->members)
		return 0;
	fprintf(stderr, "iowhy tar: %.0f of %llu members read back with the checksum they were written with\n",
		ok ? ok->value : 0, (unsigned long long)r->t->members);
	return 1;
}

static int plan_tar(const struct tar_opts *o, struct tar_set *t, struct tar_run *runs, struct wl_plan *p)
{
	char col[32];
	int rc = wl_plan_check("tar", o->co.repeat);

	snprintf(col, sizeof(col), "readers=%d%s", t->readers, t->gzip ? " gzip" : "");
	for (int rep = 1; rc == 0 && rep <= o->co.repeat; rep++) {
		struct phase_spec *ph = wl_plan_add(p, col, rep, o->co.repeat, PHASE_WORK, tar_run_fn,
						    &runs[rep - 1]);

		runs[rep - 1] = (struct tar_run){ .t = t, .co = &o->co };
		ph->before = tar_before;
		ph->after = tar_after;
	}
	return rc;
}

int cmd_tar(int argc, char **argv)
{
	struct tar_opts o;
	struct tar_set t = { 0 };
	struct scratch s, *sp = NULL;
	struct wl_plan *p;
	struct tar_run *runs;
	int rc = tar_parse(argc, argv, &o);

	if (rc)
		return wl_exit_status(rc);
	t = (struct tar_set){ .members = o.members, .member_size = o.member_size, .gzip = o.gzip,
			      .readers = (int)o.readers };
	p = calloc(1, sizeof(*p));
	runs = calloc((size_t)o.co.repeat, sizeof(*runs));
	if (!p || !runs) {
		rc = 1;
	} else if (o.archive) {
		snprintf(t.path, sizeof(t.path), "%s", o.archive);
	} else if (wl_scratch(&s, &o.co) == 0) {
		sp = &s;
		/* relative: the phases run in the scratch area */
		snprintf(t.path, sizeof(t.path), "archive.tar%s", o.gzip ? ".gz" : "");
	} else {
		rc = 1;
	}
	if (rc == 0) {
		p->comm = "iowhy-tar";
		rc = plan_tar(&o, &t, runs, p);
		if (rc == 0)
			rc = wl_session("tar", argc, argv, p, &o.co, sp);
		else if (sp)
			scratch_remove(sp);
	}
	free(t.crc);
	free(runs);
	free(p);
	return rc;
}
