/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The built-in workloads' one-line progress: "gen split: 12,345/100,000 files (12.3%), 4,560/s,
 * ETA 19 s", redrawn in place on stderr, for the traced work and for the untraced setup and
 * teardown around it (making an input file, verifying, removing the scratch area). Only when stderr
 * is a terminal and -q was not given; never on a pipe or into a file, so never into a report. It
 * shows after IOWHY_PROGRESS_DELAY ms (default 500) and at most twice a second; its line is erased
 * when the step ends.
 */
#ifndef IOWHY_PROGRESS_H
#define IOWHY_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct progress_line {
	char what[64];
	const char *unit;     /* "B" (shown as sizes), or a noun: "files", "ops", "entries" */
	uint64_t total;       /* 0: unknown (no percentage, no ETA) */
	uint64_t done;
	uint64_t start_ns, next_ns;
	unsigned tick;
	int on, shown;
};

/* -q, or live interval blocks on the terminal: no progress line. */
void progress_set_quiet(int quiet);
/* Start a step (it becomes the current one, for progress_count). */
void progress_start(struct progress_line *p, const char *what, uint64_t total, const char *unit);
/* Where the step is: cheap (reads the clock every 64 calls). */
void progress_update(struct progress_line *p, uint64_t done);
/* Add n to the current step, if any (loops that cannot carry the object). */
void progress_count(uint64_t n);
/* The step is over: its line is erased. */
void progress_end(struct progress_line *p);

/* The line's text (no \r): "what: done/total unit (pct), rate/s, ETA t" (pure). */
size_t progress_format(char *buf, size_t n, const char *what, const char *unit, uint64_t done,
		       uint64_t total, uint64_t elapsed_ns);

#endif
