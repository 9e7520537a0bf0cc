// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the storage workloads: see common.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "iowhy.h"
#include "clock.h"
#include "units.h"
#include "common.h"
#include "writer.h"

/* ---- messages and options ---- */

static void vsay(const char *tool, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "iowhy %s: %s\n", tool, msg);
}

int wl_usage_error(const char *tool, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(tool, fmt, ap);
	va_end(ap);
	return 2;
}

int wl_fail(const char *tool, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(tool, fmt, ap);
	va_end(ap);
	return -1;
}

int wl_exit_status(int parse_rc)
{
	return parse_rc == 1 ? 0 : parse_rc;
}

int wl_sizes(const char *tool, const char *opt, const char *val, uint64_t max, uint64_t *out)
{
	char err[160];
	int n = parse_size_list(val, max, out, WL_MAX_VALUES, err, sizeof(err));

	if (n < 0)
		return wl_fail(tool, "%s: %s", opt, err);
	if (n == 0)
		return wl_fail(tool, "%s: no value", opt);
	return n;
}

int wl_size(const char *tool, const char *opt, const char *val, uint64_t max, uint64_t *out)
{
	char err[160];

	if (parse_size(val, max, out, err, sizeof(err)) < 0)
		return wl_fail(tool, "%s: %s", opt, err);
	return 0;
}

int wl_counts(const char *tool, const char *opt, const char *val, uint64_t max, uint64_t *out)
{
	char item[64], err[160];
	const char *p = val;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= sizeof(item) || n == WL_MAX_VALUES)
			return wl_fail(tool, "%s: bad list '%s'", opt, val);
		memcpy(item, p, len);
		item[len] = '\0';
		if (parse_count(item, max, &out[n], err, sizeof(err)) < 0)
			return wl_fail(tool, "%s: %s", opt, err);
		if (out[n] == 0)
			return wl_fail(tool, "%s: must be at least 1", opt);
		n++;
		p += len;
		if (*p == ',' && *++p == '\0')
			return wl_fail(tool, "%s: bad list '%s'", opt, val);
	}
	if (n == 0)
		return wl_fail(tool, "%s: no value", opt);
	return n;
}

int wl_choice(const char *tool, const char *opt, const char *val, const char *const *names)
{
	char all[160] = "";

	for (int k = 0; names[k]; k++) {
		if (strcmp(val, names[k]) == 0)
			return k;
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", k ? ", " : "", names[k]);
	}
	return wl_fail(tool, "%s: '%s' is not one of %s", opt, val, all);
}

int wl_choice_list(const char *tool, const char *opt, const char *val, const char *const *names,
		   int *out, int max)
{
	char item[32];
	int n = 0, k;

	for (const char *p = val;; p++) {
		size_t len = strcspn(p, ",");

		if (len == 0)
			return wl_fail(tool, "%s '%s': an empty name in the list", opt, val);
		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if ((k = wl_choice(tool, opt, item, names)) < 0)
			return -1;
		for (int j = 0; j < n; j++)
			if (out[j] == k)
				return wl_fail(tool, "%s: '%s' given more than once", opt, names[k]);
		if (n == max)
			return wl_fail(tool, "%s: at most %d values", opt, max);
		out[n++] = k;
		p += len;
		if (!*p)
			return n;
	}
}

char *wl_size_label(char *buf, size_t n, uint64_t v)
{
	static const char suf[] = "kMGT";
	int k = -1;

	while (k < 3 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		k++;
	}
	if (k < 0)
		snprintf(buf, n, "%llu", (unsigned long long)v);
	else
		snprintf(buf, n, "%llu%c", (unsigned long long)v, suf[k]);
	return buf;
}

void wl_cmdline(int argc, char **argv, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "iowhy");

	for (int k = 0; k < argc && used < n; k++)
		used += (size_t)snprintf(buf + used, n - used, " %s", argv[k]);
}

/* ---- phase lists ---- */

struct phase_spec *wl_plan_add(struct wl_plan *p, const char *column, int rep, int repeat,
			       enum phase_kind kind, int (*fn)(void *, struct phase_facts *), void *arg)
{
	struct phase_spec *ph;
	const char *suffix = kind == PHASE_FLUSH ? "/flush" : "";

	if (p->n >= WL_PLAN_MAX)
		return NULL;
	ph = &p->ph[p->n++];
	memset(ph, 0, sizeof(*ph));
	if (repeat > 1)
		snprintf(ph->name, sizeof(ph->name), "%.36s#%d%s", column, rep, suffix);
	else
		snprintf(ph->name, sizeof(ph->name), "%.40s%s", column, suffix);
	snprintf(ph->column, sizeof(ph->column), "%s", column);
	ph->kind = kind;
	ph->comm = p->comm;
	ph->fn = fn;
	ph->arg = arg;
	return ph;
}

int wl_plan_check(const char *tool, int nphases)
{
	if (nphases > SESSION_MAX_PHASES)
		return wl_usage_error(tool, "%d phases (values x repeats, flush phases included); a session "
				      "runs at most %d", nphases, SESSION_MAX_PHASES);
	return 0;
}

/* ---- the session around a workload ---- */

int wl_scratch(struct scratch *s, const struct common_opts *o)
{
	memset(s, 0, sizeof(*s));
	return scratch_create(s, o->dir ? o->dir : ".");
}

static uint64_t teardown_entries;

void wl_teardown_expect(uint64_t entries)
{
	teardown_entries = entries;
}

void wl_teardown_scratch(void *s)
{
	struct progress_line pl;

	progress_start(&pl, "removing the scratch area", teardown_entries, "entries");
	scratch_remove(s);
	progress_end(&pl);
}

int wl_session(const char *tool, int argc, char **argv, struct wl_plan *p,
	       const struct common_opts *o, struct scratch *s)
{
	char cmd[512];
	int status;

	wl_cmdline(argc, argv, cmd, sizeof(cmd));
	if (s) {
		/* the phases run in the scratch area, naming their files relative to it */
		for (int k = 0; k < p->n; k++)
			p->ph[k].cwd = &s->dir;
		session_on_teardown(wl_teardown_scratch, s);
	}
	status = session_main(tool, cmd, p->ph, p->n, o);
	if (s)
		scratch_remove(s);
	return status;
}

void wl_maybe_drop(const char *tool, const struct common_opts *o)
{
	static int warned;

	if (!o->drop_caches)
		return;
	if (geteuid() != 0) {
		if (!warned)
			fprintf(stderr, "iowhy %s: --drop-caches needs root; running with the cache as it is\n",
				tool);
		warned = 1;
		return;
	}
	if (drop_caches() < 0 && !warned) {
		fprintf(stderr, "iowhy %s: could not drop the page cache; running with it as it is\n", tool);
		warned = 1;
	}
}

/* ---- time, buffers, files ---- */

uint64_t wl_now_ns(void)
{
	return now_ns();
}

double wl_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

void *wl_buf(const char *tool, size_t n)
{
	void *p = NULL;
	int err = posix_memalign(&p, WL_ALIGN, n ? n : 1);

	if (err) {
		wl_fail(tool, "cannot allocate a %zu-byte buffer: %s", n, strerror(err));
		return NULL;
	}
	memset(p, 0, n);
	return p;
}

int wl_pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	char *p = buf;

	while (n > 0) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			errno = EIO;
			return -1;
		}
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int wl_make_file(const char *tool, const char *path, uint64_t size, uint64_t seed)
{
	const size_t chunk = 1 << 20;
	struct progress_line pl;
	char what[64];
	struct prng g;
	char *buf = wl_buf(tool, chunk);
	int fd, rc = 0;

	if (!buf)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		free(buf);
		return wl_fail(tool, "create %s: %s", path, strerror(errno));
	}
	prng_seed(&g, seed);
	snprintf(what, sizeof(what), "%s: making the input file", tool);
	progress_start(&pl, what, size, "B");
	/* untraced setup: a Ctrl-C stops it (session_interrupted), and no phase starts after it */
	for (uint64_t done = 0; done < size && rc == 0 && !session_interrupted();) {
		size_t n = size - done < chunk ? (size_t)(size - done) : chunk;

		prng_fill(&g, buf, n);
		if (write_full(fd, buf, n) < 0)
			rc = wl_fail(tool, "write %s: %s", path, strerror(errno));
		done += n;
		progress_update(&pl, done);
	}
	progress_end(&pl);
	if (session_interrupted())
		rc = -1;
	if (rc == 0 && fsync(fd) < 0)
		rc = wl_fail(tool, "fsync %s: %s", path, strerror(errno));
	close(fd);
	free(buf);
	return rc;
}

int64_t wl_file_size(const char *tool, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return wl_fail(tool, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return wl_fail(tool, "%s: not a regular file", path);
	if (st.st_size == 0)
		return wl_fail(tool, "%s: empty file", path);
	return st.st_size;
}

int wl_abs_path(const char *tool, const char *opt, const char *in, char *out, size_t n)
{
	char cwd[4096];
	int len;

	if (in[0] == '/')
		len = snprintf(out, n, "%s", in);
	else if (getcwd(cwd, sizeof(cwd)))
		len = snprintf(out, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", in);
	else
		return wl_fail(tool, "%s %s: cannot tell the current directory: %s", opt, in,
			       strerror(errno));
	if (len < 0 || (size_t)len >= n)
		return wl_fail(tool, "%s %s: %s", opt, in, strerror(ENAMETOOLONG));
	return 0;
}

/* The user root acts for: SUDO_UID when root runs under sudo, else root itself. */
static uid_t acting_user(void)
{
	const char *s = getenv("SUDO_UID");
	char *end;
	unsigned long v;

	if (geteuid() != 0 || !s || !*s)
		return geteuid();
	v = strtoul(s, &end, 10);
	return *end ? geteuid() : (uid_t)v;
}

int wl_trusted_parent(const char *tool, const char *opt, const char *path)
{
	char dir[4096], real[4096], *slash;
	uid_t me = acting_user();
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (!realpath(dir, real))
		return wl_usage_error(tool, "%s %s: %s: %s", opt, path, dir, strerror(errno));
	for (;;) {
		if (stat(real, &st) != 0)
			return wl_usage_error(tool, "%s %s: %s: %s", opt, path, real, strerror(errno));
		if ((st.st_uid != 0 && st.st_uid != me) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
			return wl_usage_error(tool, "%s %s: %s can be changed by %s, who could redirect "
					      "root's writes; use a %s only root or you can write above",
					      opt, path, real, st.st_uid != 0 && st.st_uid != me ?
					      "its owner" : "other users", opt);
		if (!strcmp(real, "/"))
			return 0;
		slash = strrchr(real, '/');
		if (slash == real)
			real[1] = '\0';
		else
			*slash = '\0';
	}
}

uint64_t wl_free_bytes(const char *dir)
{
	struct statvfs v;

	if (statvfs(dir, &v) < 0)
		return UINT64_MAX;
	return (uint64_t)v.f_bavail * v.f_frsize;
}

void wl_facts_rate(struct phase_facts *f, uint64_t bytes, uint64_t ns)
{
	double s = wl_secs(ns);

	facts_set(f, "bytes", "bytes", "B", (double)bytes);
	facts_set(f, "app_seconds", "time measured by the workload", "s", s);
	facts_set(f, "rate", "throughput", "B/s", s > 0 ? (double)bytes / s : 0);
}

/* ---- progress line ---- */

void wl_progress_init(struct wl_progress *p, const char *what, uint64_t total)
{
	progress_start(&p->line, what, total, "B");
}

void wl_progress_init_unit(struct wl_progress *p, const char *what, uint64_t total,
			   const char *unit)
{
	progress_start(&p->line, what, total, unit);
}

void wl_progress(struct wl_progress *p, uint64_t done)
{
	progress_update(&p->line, done);
}

void wl_progress_end(struct wl_progress *p)
{
	progress_end(&p->line);
}

/* ---- latency histogram ---- */

int wl_lat_slot(uint64_t ns)
{
	int lg, sub;

	if (ns < WL_LAT_SUB)
		return (int)ns;
	lg = 63 - __builtin_clzll(ns);          /* ns in [2^lg, 2^(lg+1)), lg >= 3 */
	sub = (int)((ns >> (lg - 3)) & (WL_LAT_SUB - 1));
	return (lg - 2) * WL_LAT_SUB + sub;
}

/* Lower bound and width of a slot (inverse of wl_lat_slot). */
static void slot_range(int s, uint64_t *lo, uint64_t *width)
{
	int lg = s / WL_LAT_SUB + 2, sub = s % WL_LAT_SUB;

	if (s < WL_LAT_SUB) {
		*lo = (uint64_t)s;
		*width = 1;
		return;
	}
	*width = 1ull << (lg - 3);
	*lo = (1ull << lg) + (uint64_t)sub * *width;
}

void wl_lat_init(struct wl_lat *l)
{
	memset(l, 0, sizeof(*l));
	l->min_ns = UINT64_MAX;
}

void wl_lat_add(struct wl_lat *l, uint64_t ns)
{
	l->slot[wl_lat_slot(ns)]++;
	l->n++;
	l->sum_ns += ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	if (ns < l->min_ns)
		l->min_ns = ns;
}

void wl_lat_merge(struct wl_lat *into, const struct wl_lat *from)
{
	for (int s = 0; s < WL_LAT_SLOTS; s++)
		into->slot[s] += from->slot[s];
	into->n += from->n;
	into->sum_ns += from->sum_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	if (from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
}

uint64_t wl_lat_pct(const struct wl_lat *l, double p)
{
	uint64_t rank, seen = 0, lo, width, v;

	if (l->n == 0)
		return 0;
	rank = (uint64_t)(p / 100.0 * (double)l->n + 0.999999);
	if (rank < 1)
		rank = 1;
	for (int s = 0; s < WL_LAT_SLOTS; s++) {
		seen += l->slot[s];
		if (seen < rank)
			continue;
		slot_range(s, &lo, &width);
		v = lo + width / 2;
		if (v > l->max_ns)
			v = l->max_ns;
		if (v < l->min_ns)
			v = l->min_ns;
		return v;
	}
	return l->max_ns;
}

void wl_facts_lat(struct phase_facts *f, const struct wl_lat *l)
{
	facts_set(f, "lat_avg_ns", "latency average", "ns", l->n ? (double)l->sum_ns / (double)l->n : 0);
	facts_set(f, "lat_p50_ns", "latency p50", "ns", (double)wl_lat_pct(l, 50));
	facts_set(f, "lat_p99_ns", "latency p99", "ns", (double)wl_lat_pct(l, 99));
	facts_set(f, "lat_p999_ns", "latency p99.9", "ns", (double)wl_lat_pct(l, 99.9));
	facts_set(f, "lat_max_ns", "latency max", "ns", (double)l->max_ns);
}

int wl_input_before(const char *tool, const char *user_file, char *path, int *made, uint64_t size,
		    uint64_t seed, const struct common_opts *co)
{
	if (!user_file && !*made) {
		if (wl_make_file(tool, path, size, seed) < 0)
			return 1;
		*made = 1;
	}
	wl_maybe_drop(tool, co);
	return 0;
}

int wl_input_path(const char *user_file, const char *name, const struct common_opts *co,
		  struct scratch *s, struct scratch **sp, char *path, size_t n)
{
	*sp = NULL;
	if (user_file) {
		snprintf(path, n, "%s", user_file);
		return 0;
	}
	if (wl_scratch(s, co))
		return -1;
	*sp = s;
	snprintf(path, n, "%s", name); /* relative: the phases run in the scratch area */
	return 0;
}
