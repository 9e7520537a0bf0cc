// SPDX-License-Identifier: GPL-2.0
/*
 * `iowhy gen`: options, the three small-file strategies, their on-disk check, and the phases
 * handed to the session. The strategies run in the gated child (traced); the hooks run in iowhy
 * (untraced).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "gen.h"
#include "options.h"
#include "units.h"
#include "writer.h"

struct strategy_desc {
	const char *name;
	const char *comm;
};

static const struct strategy_desc strategy_desc[GEN_NSTRATEGIES] = {
	[GEN_LOOP] = { "loop", "iowhy-loop" },
	[GEN_SPLIT] = { "split", "iowhy-split" },
	[GEN_DIRECT] = { "direct", "iowhy-direct" },
};

const char *gen_strategy_name(enum gen_strategy s)
{
	return (unsigned)s < GEN_NSTRATEGIES ? strategy_desc[s].name : "?";
}

static const char gen_usage[] =
	"usage: iowhy gen --strategy loop|split|direct[,...] --size SIZE --count N [--sync]\n"
	"                 [options]\n"
	"Create N files of SIZE bytes of pseudo-random data with each strategy, one after\n"
	"another, each in a fresh directory, traced and reported side by side:\n"
	"  loop    one process per file: the system dd, forked and waited for as a shell\n"
	"          loop does\n"
	"  split   one file of N x SIZE split into N files of SIZE, then removed\n"
	"          (dd + split -n)\n"
	"  direct  one process creates and writes the N files: the floor\n";

enum { GEN_O_STRATEGY = 256, GEN_O_SIZE, GEN_O_COUNT, GEN_O_SYNC };

static const struct opt_def gen_opt_defs[] = {
	{ "strategy", GEN_O_STRATEGY, "LIST", "loop, split, direct: comma-separated, each once, in order" },
	{ "size", GEN_O_SIZE, "SIZE", "bytes per file: 512, 1k, 10k, 1M (k = 1024); at most 1 GiB" },
	{ "count", GEN_O_COUNT, "N", "number of files, at most 10,000,000; SIZE x N at most 64 GiB" },
	{ "sync", GEN_O_SYNC, NULL, "after each run, a flush phase: syncfs() on the filesystem, timed" },
	{ NULL, 0, NULL, NULL },
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---------------------------------------------------------------------------------------------
 * Options
 */

__attribute__((format(printf, 3, 4)))
static int parse_error(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int strategy_by_name(const char *name, size_t len)
{
	for (int s = 0; s < GEN_NSTRATEGIES; s++) {
		const char *known = strategy_desc[s].name;

		if (strlen(known) == len && strncmp(known, name, len) == 0)
			return s;
	}
	return -1;
}

static int has_strategy(const struct gen_opts *o, enum gen_strategy s)
{
	for (int i = 0; i < o->nstrategies; i++)
		if (o->strategies[i] == s)
			return 1;
	return 0;
}

/* "loop,split": appended to o->strategies in order. */
static int parse_strategies(const char *list, struct gen_opts *o, char *err, size_t n)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");
		int s = strategy_by_name(p, len);

		if (len == 0)
			return parse_error(err, n, "--strategy '%s': empty strategy name", list);
		if (s < 0)
			return parse_error(err, n,
					   "--strategy: unknown strategy '%.*s' (loop, split, direct)",
					   (int)len, p);
		if (has_strategy(o, s))
			return parse_error(err, n, "--strategy: '%s' given more than once",
					   strategy_desc[s].name);
		o->strategies[o->nstrategies++] = s;
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* The session runs at most SESSION_MAX_PHASES phases. */
static int check_phase_count(const struct gen_opts *o, char *err, size_t n)
{
	int per_run = o->sync ? 2 : 1;
	int nphases = o->nstrategies * o->common.repeat * per_run;

	if (nphases > SESSION_MAX_PHASES)
		return parse_error(err, n,
				   "%d strateg%s × --repeat %d%s make %d phases; a session runs at most %d",
				   o->nstrategies, o->nstrategies == 1 ? "y" : "ies",
				   o->common.repeat, o->sync ? " × 2 (--sync)" : "", nphases,
				   SESSION_MAX_PHASES);
	return 0;
}

static int check_required(const struct gen_opts *o, int have_size, int have_count, char *err,
			  size_t n)
{
	char a[32], b[32], c[32];

	if (o->nstrategies == 0)
		return parse_error(err, n, "--strategy is required (loop, split, direct)");
	if (!have_size)
		return parse_error(err, n, "--size is required (e.g. --size 10k)");
	if (!have_count)
		return parse_error(err, n, "--count is required (e.g. --count 10000)");
	if (o->size * o->count > GEN_TOTAL_MAX)
		return parse_error(err, n, "--size %s × --count %s is %s, more than 64 GiB",
				   fmt_bytes(a, sizeof(a), o->size),
				   fmt_count(b, sizeof(b), o->count),
				   fmt_bytes(c, sizeof(c), o->size * o->count));
	return check_phase_count(o, err, n);
}

/* What gen's option handler fills: the options and which of the required ones were given. */
struct gen_parse_ctx {
	struct gen_opts *o;
	int have_size, have_count;
};

/* gen's own options: 0, or -1 after a one-line message. */
static int gen_handle(void *ctx, int key, const char *v)
{
	struct gen_parse_ctx *c = ctx;
	char err[320], why[256] = "";
	int rc = 0;

	switch (key) {
	case GEN_O_STRATEGY:
		rc = parse_strategies(v, c->o, err, sizeof(err));
		break;
	case GEN_O_SIZE:
		if (parse_size(v, GEN_SIZE_MAX, &c->o->size, why, sizeof(why)) != 0)
			rc = parse_error(err, sizeof(err), "--size: %s", why);
		c->have_size = 1;
		break;
	case GEN_O_COUNT:
		if (parse_count(v, GEN_COUNT_MAX, &c->o->count, why, sizeof(why)) != 0)
			rc = parse_error(err, sizeof(err), "--count: %s", why);
		c->have_count = 1;
		break;
	case GEN_O_SYNC:
		c->o->sync = 1;
		break;
	}
	if (rc)
		fprintf(stderr, "iowhy gen: %s\n", err);
	return rc;
}

const struct cmd_def gen_cmd = {
	.name = "gen",
	.usage = gen_usage,
	.opts = gen_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_NONE,
	.handle = gen_handle,
};

int gen_parse(int argc, char **argv, struct gen_opts *o)
{
	struct gen_parse_ctx c = { .o = o };
	char err[512];
	int rc;

	memset(o, 0, sizeof(*o));
	rc = opts_parse(&gen_cmd, argc, argv, &o->common, &c, NULL);
	if (rc)
		return rc;
	if (check_required(o, c.have_size, c.have_count, err, sizeof(err)))
		return opts_usage_error("gen", "%s", err);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Free space and programs
 */

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return to ? (v + to - 1) / to * to : v;
}

int gen_check_space(const struct gen_opts *o, const char *dir, char *err, size_t n)
{
	double runs = (double)(o->common.repeat > 0 ? o->common.repeat : 1) * o->nstrategies;
	struct statvfs vfs;
	uint64_t block;
	double need, have, inodes;
	char a[32], b[32];

	if (statvfs(dir, &vfs) != 0)
		return parse_error(err, n, "%s: %s", dir, strerror(errno));
	block = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
	/* Every run keeps its files until the end; split's big file coexists with its pieces. */
	need = runs * (double)o->count * (double)round_up(o->size, block);
	if (has_strategy(o, GEN_SPLIT))
		need += (double)round_up(o->size * o->count, block);
	need *= 1.10;
	have = (double)vfs.f_bavail * (double)block;
	if (need > have)
		return parse_error(err, n,
				   "not enough free space in %s: need %s (10%% headroom included), have %s",
				   dir, fmt_bytes(a, sizeof(a), (uint64_t)need),
				   fmt_bytes(b, sizeof(b), (uint64_t)have));
	inodes = runs * ((double)o->count + 1) + 1;
	if (vfs.f_files > 0 && inodes > (double)vfs.f_favail)
		return parse_error(err, n, "not enough free inodes in %s: need %s, have %s", dir,
				   fmt_count(a, sizeof(a), (uint64_t)inodes),
				   fmt_count(b, sizeof(b), (uint64_t)vfs.f_favail));
	return 0;
}

int gen_find_program(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");
	struct stat st;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		int w;

		if (len > 0) { /* an empty entry would mean the current directory: not for this */
			w = snprintf(out, n, "%.*s/%s", (int)len, path, name);
			if (w > 0 && (size_t)w < n && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(out, X_OK) == 0)
				return 0;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	if (n)
		out[0] = '\0';
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * The strategies (in the gated child)
 */

struct progress {
	struct progress_line line; /* the terminal's progress line (files of SIZE) */
	uint64_t files;          /* files of SIZE completed */
	uint64_t bytes_written;  /* every byte written, split's big file included */
	uint64_t bytes_read;     /* split reading its big file back */
};

static int file_path(const char *dir, const char *name, char *out, size_t n)
{
	int w = snprintf(out, n, "%s/%s", dir, name);

	if (w < 0 || (size_t)w >= n) {
		fprintf(stderr, "iowhy gen: %s/%s: %s\n", dir, name, strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

static int numbered_path(const char *dir, uint64_t i, char *out, size_t n)
{
	char name[32];

	snprintf(name, sizeof(name), "file-%07" PRIu64, i);
	return file_path(dir, name, out, n);
}

/* One line naming the file; returns 1 (the phase's exit status). */
static int io_failure(const char *what, const char *path, int err)
{
	if (err == ENOSPC)
		fprintf(stderr, "iowhy gen: disk full %s %s\n", what, path);
	else
		fprintf(stderr, "iowhy gen: %s %s: %s\n", what, path, strerror(err));
	return 1;
}

static size_t chunk_for(uint64_t size)
{
	/* Whole files per write when they fit in 1 MiB, as dd bs=SIZE count=N would write them. */
	return size <= WRITER_CHUNK ? (size_t)(WRITER_CHUNK / size * size) : WRITER_CHUNK;
}

static int loop_spawn(const struct gen_work *w, const char *path, int devnull, pid_t *pid)
{
	char of[PATH_MAX + 8], bs[32], size[32];
	char *dd_argv[] = { "dd", "if=/dev/urandom", of, bs, "count=1", "iflag=fullblock",
			    "status=none", NULL };
	char *self_argv[] = { "iowhy", "__write", (char *)path, size, NULL };

	snprintf(of, sizeof(of), "of=%s", path);
	snprintf(bs, sizeof(bs), "bs=%" PRIu64, w->size);
	snprintf(size, sizeof(size), "%" PRIu64, w->size);
	*pid = fork();
	if (*pid < 0) {
		fprintf(stderr, "iowhy gen: fork: %s\n", strerror(errno));
		return -1;
	}
	if (*pid == 0) {
		int err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);

		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
		if (w->dd_path)
			execv(w->dd_path, dd_argv);
		else
			execv("/proc/self/exe", self_argv);
		if (err_fd >= 0)
			dprintf(err_fd, "iowhy gen: exec %s: %s\n",
				w->dd_path ? w->dd_path : "/proc/self/exe", strerror(errno));
		_exit(127);
	}
	return 0;
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "iowhy gen: waitpid: %s\n", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The writer failed: say how, and say "disk full" when the filesystem is. */
static int loop_failure(const struct gen_work *w, const char *path, int status)
{
	const char *writer = w->dd_path ? "dd" : "iowhy __write";
	struct statvfs vfs;

	if (statvfs(w->dir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < w->size)
		return io_failure("writing", path, ENOSPC);
	if (WIFSIGNALED(status))
		fprintf(stderr, "iowhy gen: %s writing %s was killed by signal %d\n", writer, path,
			WTERMSIG(status));
	else
		fprintf(stderr, "iowhy gen: %s writing %s exited with status %d\n", writer, path,
			WEXITSTATUS(status));
	return 1;
}

static int gen_loop(const struct gen_work *w, struct progress *pr)
{
	char path[PATH_MAX];
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (devnull < 0)
		return io_failure("opening", "/dev/null", errno);
	for (uint64_t i = 0; i < w->count && rc == 0; i++) {
		pid_t pid;
		int status;

		if (numbered_path(w->dir, i, path, sizeof(path)) != 0 ||
		    loop_spawn(w, path, devnull, &pid) != 0 || wait_child(pid, &status) != 0) {
			rc = 1;
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			rc = loop_failure(w, path, status);
			break;
		}
		pr->files++;
		progress_count(1);
		pr->bytes_written += w->size;
	}
	close(devnull);
	return rc;
}

static int split_write_big(const struct gen_work *w, const char *big, char *buf, size_t chunk,
			   struct progress *pr)
{
	uint64_t left = w->size * w->count;
	struct prng p;
	int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return io_failure("creating", big, errno);
	prng_seed(&p, writer_seed());
	while (left > 0) {
		size_t n = left < chunk ? (size_t)left : chunk;

		prng_fill(&p, buf, n);
		if (write_full(fd, buf, n) != 0) {
			int err = errno;

			close(fd);
			return io_failure("writing", big, err);
		}
		pr->bytes_written += n;
		left -= n;
	}
	if (close(fd) != 0)
		return io_failure("writing", big, errno);
	return 0;
}

/* The piece being written while split streams the big file through its buffer. */
struct piece {
	int fd;
	uint64_t index, filled;
	char path[PATH_MAX];
};

/* Write buf[0..n) across the pieces, opening, filling and closing each in turn. */
static int split_scatter(const struct gen_work *w, struct piece *pc, const char *buf, size_t n,
			 struct progress *pr)
{
	while (n > 0) {
		size_t part;

		if (pc->fd < 0) {
			if (numbered_path(w->dir, pc->index, pc->path, sizeof(pc->path)) != 0)
				return 1;
			pc->fd = open(pc->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (pc->fd < 0)
				return io_failure("creating", pc->path, errno);
			pc->filled = 0;
		}
		part = w->size - pc->filled < n ? (size_t)(w->size - pc->filled) : n;
		if (write_full(pc->fd, buf, part) != 0)
			return io_failure("writing", pc->path, errno);
		pr->bytes_written += part;
		pc->filled += part;
		buf += part;
		n -= part;
		if (pc->filled == w->size) {
			int rc = close(pc->fd);

			pc->fd = -1;
			if (rc != 0)
				return io_failure("writing", pc->path, errno);
			pc->index++;
			pr->files++;
			progress_count(1);
		}
	}
	return 0;
}

static int split_pieces(const struct gen_work *w, const char *big, char *buf, size_t chunk,
			struct progress *pr)
{
	uint64_t left = w->size * w->count;
	struct piece pc = { .fd = -1 };
	int rc = 0;
	int fd = open(big, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return io_failure("opening", big, errno);
	while (left > 0 && rc == 0) {
		ssize_t got = read_full(fd, buf, left < chunk ? (size_t)left : chunk);

		if (got < 0) {
			rc = io_failure("reading", big, errno);
		} else if (got == 0) {
			fprintf(stderr, "iowhy gen: %s ended early\n", big);
			rc = 1;
		} else {
			pr->bytes_read += (uint64_t)got;
			left -= (uint64_t)got;
			rc = split_scatter(w, &pc, buf, (size_t)got, pr);
		}
	}
	if (pc.fd >= 0)
		close(pc.fd);
	close(fd);
	return rc;
}

static int gen_split(const struct gen_work *w, struct progress *pr)
{
	size_t chunk = chunk_for(w->size);
	char big[PATH_MAX];
	char *buf;
	int rc;

	if (file_path(w->dir, GEN_BIG_FILE, big, sizeof(big)) != 0)
		return 1;
	buf = malloc(chunk);
	if (!buf)
		return io_failure("allocating a buffer for", big, ENOMEM);
	rc = split_write_big(w, big, buf, chunk, pr);
	if (rc == 0)
		rc = split_pieces(w, big, buf, chunk, pr);
	if (rc == 0 && unlink(big) != 0)
		rc = io_failure("removing", big, errno);
	free(buf);
	return rc;
}

static int gen_direct(const struct gen_work *w, struct progress *pr)
{
	size_t bufsize = w->size < WRITER_CHUNK ? (size_t)w->size : WRITER_CHUNK;
	char path[PATH_MAX];
	struct prng p;
	char *buf = malloc(bufsize);
	int rc = 0;

	if (!buf)
		return io_failure("allocating a buffer for", w->dir, ENOMEM);
	prng_seed(&p, writer_seed());
	for (uint64_t i = 0; i < w->count; i++) {
		if (numbered_path(w->dir, i, path, sizeof(path)) != 0) {
			rc = 1;
			break;
		}
		if (writer_file(path, w->size, &p, buf, bufsize) != 0) {
			rc = io_failure("writing", path, errno);
			break;
		}
		pr->files++;
		progress_count(1);
		pr->bytes_written += w->size;
	}
	free(buf);
	return rc;
}

int gen_run(struct gen_work *w, struct phase_facts *facts)
{
	struct progress pr = { 0 };
	double t0 = now_seconds();
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "gen %s", w->name);
	progress_start(&pr.line, what, w->count, "files");

	switch (w->strategy) {
	case GEN_LOOP:
		rc = gen_loop(w, &pr);
		break;
	case GEN_SPLIT:
		rc = gen_split(w, &pr);
		break;
	case GEN_DIRECT:
		rc = gen_direct(w, &pr);
		break;
	default:
		progress_end(&pr.line);
		fprintf(stderr, "iowhy gen: unknown strategy %d\n", (int)w->strategy);
		return 1;
	}
	progress_end(&pr.line);
	facts_set(facts, "app_seconds", "time by its own clock", "s", now_seconds() - t0);
	facts_set(facts, "files_written", "files written", "", (double)pr.files);
	if (w->strategy == GEN_SPLIT) {
		facts_set(facts, "bytes_written", "bytes written (big file and pieces)", "B",
			  (double)pr.bytes_written);
		facts_set(facts, "bytes_read", "bytes read back", "B", (double)pr.bytes_read);
	} else {
		facts_set(facts, "bytes_written", "bytes written", "B", (double)pr.bytes_written);
	}
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Checking what is on disk, and the flush (both on w->dir)
 */

struct dir_census {
	uint64_t files, wrong_size, bytes, allocated;
	int big_file;
};

static int take_census(const struct gen_work *w, struct dir_census *c)
{
	DIR *d = opendir(w->dir);
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		struct stat st;

		if (e->d_type != DT_REG && e->d_type != DT_UNKNOWN)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (!S_ISREG(st.st_mode))
			continue;
		c->files++;
		progress_count(1);
		c->bytes += (uint64_t)st.st_size;
		c->allocated += (uint64_t)st.st_blocks * 512;
		if ((uint64_t)st.st_size != w->size)
			c->wrong_size++;
		if (strcmp(e->d_name, GEN_BIG_FILE) == 0)
			c->big_file = 1;
	}
	closedir(d);
	return 0;
}

static const char *run_label(const struct gen_work *w)
{
	return w->name[0] ? w->name : gen_strategy_name(w->strategy);
}

static void verify_failed(struct gen_work *w, const struct dir_census *c, int census_errno)
{
	const char *who = run_label(w);
	char *m = w->verify_msg;
	size_t n = sizeof(w->verify_msg);

	w->verify_failed = 1;
	if (m[0]) /* keep the first failure */
		return;
	if (census_errno)
		snprintf(m, n, "%s: cannot read %s: %s", who, w->dir, strerror(census_errno));
	else if (c->files != w->count)
		snprintf(m, n, "%s left %" PRIu64 " file%s, expected %" PRIu64, who, c->files,
			 c->files == 1 ? "" : "s", w->count);
	else if (c->wrong_size)
		snprintf(m, n, "%s left %" PRIu64 " file%s of the wrong size (expected %" PRIu64
			 " bytes each)", who, c->wrong_size, c->wrong_size == 1 ? "" : "s",
			 w->size);
	else
		snprintf(m, n, "%s left its big file %s behind", who, GEN_BIG_FILE);
}

int gen_verify(struct gen_work *w, struct phase_facts *facts)
{
	struct dir_census c = { 0 };

	if (take_census(w, &c) != 0) {
		verify_failed(w, &c, errno);
		return 1;
	}
	facts_set(facts, "files", "files on disk", "", (double)c.files);
	facts_set(facts, "bytes_on_disk", "bytes in those files", "B", (double)c.bytes);
	facts_set(facts, "bytes_allocated", "space they take", "B", (double)c.allocated);
	facts_set(facts, "files_wrong_size", "files of the wrong size", "", (double)c.wrong_size);
	if (c.files != w->count || c.wrong_size || c.big_file) {
		verify_failed(w, &c, 0);
		return 1;
	}
	return 0;
}

int gen_flush(struct gen_work *w, struct phase_facts *facts)
{
	int fd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	double t0;
	int rc;

	if (fd < 0)
		return io_failure("opening", w->dir, errno);
	t0 = now_seconds();
	rc = syncfs(fd);
	facts_set(facts, "app_seconds", "syncfs() by its own clock", "s", now_seconds() - t0);
	if (rc != 0) {
		int err = errno;

		close(fd);
		return io_failure("syncing", w->dir, err);
	}
	close(fd);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Phases and the command
 */

static int work_before(void *arg)
{
	struct gen_work *w = arg;

	/* the phases run in the scratch area (phase_spec.cwd): the run's directory is a plain name */
	if (scratch_mkdir(w->scratch, w->name) != 0)
		return 1;
	snprintf(w->dir, sizeof(w->dir), "%s", w->name);
	if (w->drop_caches && drop_caches() != 0)
		return 1;
	return 0;
}

static int work_fn(void *arg, struct phase_facts *facts)
{
	return gen_run(arg, facts);
}

static int work_after(void *arg, struct phase_facts *facts)
{
	struct gen_work *w = arg;
	struct progress_line pl;
	char what[64];

	snprintf(what, sizeof(what), "gen %s: verifying", w->name);
	progress_start(&pl, what, w->count, "files");
	gen_verify(w, facts); /* a failure is reported once the session is over */
	progress_end(&pl);
	return 0;
}

static int flush_fn(void *arg, struct phase_facts *facts)
{
	return gen_flush(arg, facts);
}

static void init_work(struct gen_work *w, const struct gen_opts *o, enum gen_strategy st, int rep,
		      const struct scratch *s, const char *dd_path)
{
	memset(w, 0, sizeof(*w));
	w->strategy = st;
	if (o->common.repeat > 1)
		snprintf(w->name, sizeof(w->name), "%s#%d", strategy_desc[st].name, rep);
	else
		snprintf(w->name, sizeof(w->name), "%s", strategy_desc[st].name);
	w->size = o->size;
	w->count = o->count;
	w->dd_path = st == GEN_LOOP ? dd_path : NULL;
	w->scratch = s;
	w->drop_caches = o->common.drop_caches;
}

static void add_phase(struct phase_spec *p, struct gen_work *w, enum phase_kind kind)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s%s", w->name, kind == PHASE_FLUSH ? "/flush" : "");
	snprintf(p->column, sizeof(p->column), "%s", strategy_desc[w->strategy].name);
	p->kind = kind;
	p->arg = w;
	p->cwd = &w->scratch->dir;
	if (kind == PHASE_FLUSH) {
		p->comm = "iowhy-sync";
		p->fn = flush_fn;
		return;
	}
	p->comm = strategy_desc[w->strategy].comm;
	p->fn = work_fn;
	p->before = work_before;
	p->after = work_after;
}

/*
 * One WORK phase per strategy and run (plus its FLUSH phase with --sync), rounds interleaved
 * (loop#1, split#1, loop#2, split#2, ...) so that whatever drifts during a session (writeback of
 * earlier runs, a warming cache) does not all land on one strategy. Returns the phase count and
 * sets *nwork.
 */
static int build_phases(const struct gen_opts *o, const struct scratch *s, const char *dd_path,
			struct gen_work *work, int *nwork, struct phase_spec *phases)
{
	int n = 0;

	*nwork = 0;
	for (int rep = 1; rep <= o->common.repeat; rep++) {
		for (int i = 0; i < o->nstrategies; i++) {
			struct gen_work *w = &work[(*nwork)++];

			init_work(w, o, o->strategies[i], rep, s, dd_path);
			add_phase(&phases[n++], w, PHASE_WORK);
			if (o->sync)
				add_phase(&phases[n++], w, PHASE_FLUSH);
		}
	}
	return n;
}

static int needs_quotes(const char *a)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_=,./:+@%";

	return *a == '\0' || a[strspn(a, plain)] != '\0';
}

/* "iowhy gen --strategy loop ...", shell-quoted where needed, truncated to fit. */
static void join_command(int argc, char **argv, char *out, size_t n)
{
	size_t len = (size_t)snprintf(out, n, "iowhy");

	for (int i = 0; i < argc && len < n; i++) {
		const char *a = argv[i];

		if (!needs_quotes(a)) {
			len += (size_t)snprintf(out + len, n - len, " %s", a);
			continue;
		}
		len += (size_t)snprintf(out + len, n - len, " '");
		for (; *a && len < n; a++) {
			if (*a == '\'')
				len += (size_t)snprintf(out + len, n - len, "'\\''");
			else
				len += (size_t)snprintf(out + len, n - len, "%c", *a);
		}
		if (len < n)
			len += (size_t)snprintf(out + len, n - len, "'");
	}
}

/* After the session: a clean exit turns into 1 if what is on disk is not what was asked for. */
static int report_verification(const struct gen_work *work, int nwork, int status)
{
	int failed = 0;

	if (status != 0)
		return status;
	for (int i = 0; i < nwork; i++) {
		if (!work[i].verify_failed)
			continue;
		fprintf(stderr, "iowhy gen: %s\n", work[i].verify_msg);
		failed = 1;
	}
	return failed ? 1 : 0;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_work work[GEN_MAX_RUNS];
	struct phase_spec phases[SESSION_MAX_PHASES];
	struct scratch scratch;
	char err[512], dd[PATH_MAX], command[1024];
	const char *dd_path = NULL, *dir;
	struct gen_opts o;
	int rc, nphases, nwork;

	rc = gen_parse(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (has_strategy(&o, GEN_LOOP)) {
		if (gen_find_program("dd", dd, sizeof(dd)) == 0)
			dd_path = dd;
		else
			fprintf(stderr, "iowhy gen: no dd in PATH: loop runs iowhy __write\n");
	}
	dir = o.common.dir && *o.common.dir ? o.common.dir : ".";
	if (scratch_create(&scratch, dir) != 0)
		return 2;
	if (gen_check_space(&o, dir, err, sizeof(err)) != 0) {
		fprintf(stderr, "iowhy gen: %s\n", err);
		scratch_remove(&scratch);
		return 2;
	}
	nphases = build_phases(&o, &scratch, dd_path, work, &nwork, phases);
	join_command(argc, argv, command, sizeof(command));
	wl_teardown_expect((uint64_t)nwork * (o.count + 1)); /* each run's files and directory */
	session_on_teardown(wl_teardown_scratch, &scratch);
	rc = session_main("gen", command, phases, nphases, &o.common);
	rc = report_verification(work, nwork, rc);
	scratch_remove(&scratch);
	return rc;
}

/*
 * `iowhy __gen STRATEGY SIZE COUNT DIR`: one strategy run directly, untraced, in an existing empty
 * DIR (files are left there). The A side of bench/overhead.sh: the same code as the traced phase.
 */
int gen_untraced_main(int argc, char **argv)
{
	struct gen_work w = { 0 };
	struct phase_facts facts = { 0 };
	char err[160], dd[PATH_MAX];
	int s;

	if (argc != 5) {
		fprintf(stderr, "usage: iowhy __gen loop|split|direct SIZE COUNT DIR\n");
		return 2;
	}
	for (s = 0; s < GEN_NSTRATEGIES && strcmp(argv[1], gen_strategy_name(s)); s++)
		;
	if (s == GEN_NSTRATEGIES || parse_size(argv[2], GEN_SIZE_MAX, &w.size, err, sizeof(err)) ||
	    parse_count(argv[3], GEN_COUNT_MAX, &w.count, err, sizeof(err))) {
		fprintf(stderr, "iowhy __gen: bad arguments\n");
		return 2;
	}
	w.strategy = s;
	snprintf(w.name, sizeof(w.name), "%s", argv[1]);
	snprintf(w.dir, sizeof(w.dir), "%s", argv[4]);
	if (!gen_find_program("dd", dd, sizeof(dd)))
		w.dd_path = dd;
	return gen_run(&w, &facts);
}
