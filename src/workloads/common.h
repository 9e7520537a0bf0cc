/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the storage workloads (bigfile, read, rand, fsbench, tar, copy, delete):
 * option parsing, phase lists for sweeps and repeats, aligned buffers, input files, progress
 * lines and latency histograms.
 */
#ifndef IOWHY_WLCOMMON_H
#define IOWHY_WLCOMMON_H

#include "progress.h"
#include <stddef.h>
#include <stdint.h>
#include "phase.h"
#include "prng.h"
#include "scratch.h"
#include "session.h"
#include "options.h"

#define WL_MAX_VALUES 16   /* values in one sweep list */
#define WL_ALIGN 4096      /* buffer alignment (O_DIRECT) */
#define WL_PLAN_MAX 64     /* phases a plan holds before the session limit is checked */

/* ---- messages and options ---- */

/* Print "iowhy TOOL: MSG" on stderr and return 2 (the bad-input exit status). */
int wl_usage_error(const char *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "iowhy TOOL: MSG" on stderr and return -1. */
int wl_fail(const char *tool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The exit status for an xxx_parse result (options.h): 0 after --help/--version, else rc. */
int wl_exit_status(int parse_rc);

/* Size list ("4k,1M") into out[]; returns the count, or -1 after printing "iowhy TOOL: OPT: why". */
int wl_sizes(const char *tool, const char *opt, const char *val, uint64_t max, uint64_t *out);
/* Single size. Returns 0 or -1 (message printed). */
int wl_size(const char *tool, const char *opt, const char *val, uint64_t max, uint64_t *out);
/* Count list ("1,4,16"): whole numbers 1..max; -1 (message printed) on zero or garbage. */
int wl_counts(const char *tool, const char *opt, const char *val, uint64_t max, uint64_t *out);
/* Index of `val` in the NULL-terminated `names`, or -1 after printing the choices. */
int wl_choice(const char *tool, const char *opt, const char *val, const char *const *names);
/* Comma-separated choices ("process,inproc"), each at most once, into out[] (at most max): the
 * count, or -1 after one line (unknown, empty or repeated name). */
int wl_choice_list(const char *tool, const char *opt, const char *val, const char *const *names,
		   int *out, int max);

/* Short label of a size for column names: 512, 1k, 10k, 1M, 2G. */
char *wl_size_label(char *buf, size_t n, uint64_t v);
/* "iowhy ARGV..." (argv[0] is the subcommand name), truncated to fit. */
void wl_cmdline(int argc, char **argv, char *buf, size_t n);

/* ---- phase lists ---- */

struct wl_plan {
	struct phase_spec ph[WL_PLAN_MAX];
	int n;
	const char *comm;    /* name the gated children take ("iowhy-read"), set before adding */
};

/*
 * Append a phase of `column`, run number `rep` (1-based) of `repeat`: named "COLUMN" or "COLUMN#REP"
 * (plus "/flush" for flush phases). Returns the phase, or NULL when the plan is full.
 */
struct phase_spec *wl_plan_add(struct wl_plan *p, const char *column, int rep, int repeat,
			       enum phase_kind kind, int (*fn)(void *, struct phase_facts *), void *arg);
/* Refuse plans longer than a session takes: 0, or 2 after printing why. */
int wl_plan_check(const char *tool, int nphases);

/* ---- the session around a workload ---- */

/* Create the scratch area under o->dir. 0, or -1 (message printed). */
int wl_scratch(struct scratch *s, const struct common_opts *o);
/* session_main over the plan, then remove the scratch area; returns the session's status. */
int wl_session(const char *tool, int argc, char **argv, struct wl_plan *p,
	       const struct common_opts *o, struct scratch *s);
/* Drop the page cache when --drop-caches was given; says once on stderr when it cannot (not root). */
void wl_maybe_drop(const char *tool, const struct common_opts *o);

/* ---- time, buffers, files ---- */

uint64_t wl_now_ns(void);
double wl_secs(uint64_t ns);
/* Buffer of n bytes aligned to WL_ALIGN, pre-faulted; NULL (message printed) on failure. */
void *wl_buf(const char *tool, size_t n);
/*
 * Create `path` with `size` bytes of PRNG data (seeded by `seed`), in 1 MiB writes, then fsync, so
 * that nothing of it is dirty when a traced phase starts. 0, or -1 (message printed).
 */
int wl_make_file(const char *tool, const char *path, uint64_t size, uint64_t seed);
/* Size of a regular file; -1 (message printed) when missing, not regular or empty. */
int64_t wl_file_size(const char *tool, const char *path);
/* Bytes available to an unprivileged writer on the filesystem holding `dir`. */
uint64_t wl_free_bytes(const char *dir);
/*
 * A path the user named, made absolute against the current directory (the phases run in the
 * scratch area, where a relative name would mean something else). 0, or -1 after a message.
 */
int wl_abs_path(const char *tool, const char *opt, const char *in, char *out, size_t n);
/*
 * Before iowhy (root) creates `path` and writes in it by name: every directory above it must be
 * writable only by root or by the user who ran sudo (SUDO_UID), or be sticky, so nobody else can
 * swap a name on the way. 0, or 2 after a one-line message saying which directory and what to do.
 */
int wl_trusted_parent(const char *tool, const char *opt, const char *path);
int wl_pread_all(int fd, void *buf, size_t n, uint64_t off);

/* Standard facts: bytes, app_seconds and the rate they give. */
void wl_facts_rate(struct phase_facts *f, uint64_t bytes, uint64_t ns);

/* ---- progress line (stderr, only when it is a terminal, only after one second) ---- */

struct wl_progress {
	struct progress_line line;   /* engine/progress.h: done/total, rate, ETA */
};

/* total in bytes (0 = unknown); wl_progress_init_unit: in another unit ("ops", "files"). */
void wl_progress_init(struct wl_progress *p, const char *what, uint64_t total);
void wl_progress_init_unit(struct wl_progress *p, const char *what, uint64_t total,
			   const char *unit);
/* Cheap: reads the clock every 64 calls, prints at most twice a second. */
void wl_progress(struct wl_progress *p, uint64_t done);
void wl_progress_end(struct wl_progress *p);
/* The session's teardown: the scratch area removed (before the report, its time counted), with a
 * progress line over the entries wl_teardown_expect said there would be (0: unknown). */
void wl_teardown_scratch(void *scratch);
void wl_teardown_expect(uint64_t entries);

/* ---- latency histogram: log2 buckets split into 8 linear sub-buckets (±6%) ---- */

#define WL_LAT_SUB 8
#define WL_LAT_SLOTS (64 * WL_LAT_SUB)

struct wl_lat {
	uint64_t slot[WL_LAT_SLOTS];
	uint64_t n, sum_ns, max_ns, min_ns;
};

void wl_lat_init(struct wl_lat *l);
void wl_lat_add(struct wl_lat *l, uint64_t ns);
void wl_lat_merge(struct wl_lat *into, const struct wl_lat *from);
/* Percentile p in (0, 100]: the middle of the bucket holding it, clamped to [min, max]. */
uint64_t wl_lat_pct(const struct wl_lat *l, double p);
int wl_lat_slot(uint64_t ns);
/* Facts lat_avg_ns, lat_p50_ns, lat_p99_ns, lat_p999_ns, lat_max_ns. */
void wl_facts_lat(struct phase_facts *f, const struct wl_lat *l);

/* `before` hook of a workload on an input file: make it (PRNG data, once) when the user named none,
 * then drop the caches if asked. Returns 0, or 1 after a one-line error. */
int wl_input_before(const char *tool, const char *user_file, char *path, int *made, uint64_t size,
		    uint64_t seed, const struct common_opts *co);

/* The input file of a workload: the user's FILE, else `name` in a fresh scratch area (then *sp is
 * that area, for the caller to remove). Returns 0, or -1 after a one-line message. */
int wl_input_path(const char *user_file, const char *name, const struct common_opts *co,
		  struct scratch *s, struct scratch **sp, char *path, size_t n);

#endif
