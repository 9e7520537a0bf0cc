/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session: load and attach the probes once, run each phase as a gated child, feed its events to
 * the model, print the report, detach. Every command (run, gen, bigfile, ...) ends in session_main.
 */
#ifndef IOWHY_SESSION_H
#define IOWHY_SESSION_H

#include <stdint.h>
#include "phase.h"

struct common_opts {
	const char *json_path;   /* --json FILE */
	const char *html_path;   /* --html FILE */
	const char *timeline_path; /* --timeline FILE */
	uint64_t timeline_max;   /* --timeline-max EVENTS */
	const char *dir;         /* --dir DIR (scratch parent; default ".") */
	int repeat;              /* --repeat R (default 1) */
	int drop_caches;         /* --drop-caches */
	int no_io;               /* --no-io: core probes only (no block/page-cache probes) */
	unsigned sample_hz;      /* --freq HZ: CPU sampling frequency (default SAMPLER_DEFAULT_HZ) */
	int no_sample;           /* --no-sample: no CPU sampling */
	const char *folded_path; /* --folded FILE: the CPU samples in FlameGraph's folded format */
	const char *text_path;   /* -o FILE: the text report goes there (NULL: the default stream) */
	int detail;              /* report detail: -1 with -q/--brief, 0 default (fits a screen), 1 with -v */
	uint64_t interval_ns;    /* --interval S: a live block every S (0: none) */
	const char *json_lines;  /* --json-lines FILE: one JSON object per interval */
	const char *prometheus;  /* attach --prometheus FILE: textfile rewritten every interval */
	uint64_t slow_ns;        /* attach --slow MS: keep the syscalls at least this long (0: no) */
};

/* Defaults: dir ".", repeat 1, the rest 0. The parser is options.h's opts_parse. */
void common_opts_init(struct common_opts *o);

/* main() calls it first: the start the JSON's probes.start_ns counts from. */
void session_note_process_start(void);

/*
 * Run the phases under tracing, in order, and report. Returns iowhy's exit status: for `run`, the
 * command's status; 1 if a built-in phase failed; 128 + the signal after SIGINT (130), SIGTERM (143)
 * or SIGHUP (129): report printed, marked partial.
 * Never exits the process: the caller cleans its scratch area afterwards.
 */
int session_main(const char *tool, const char *command, struct phase_spec *phases, int nphases,
		 const struct common_opts *o);

/*
 * Run fn(arg) once the phases are over, before the report (untraced; its time is reported as
 * teardown): e.g. removing the scratch area. For the next session_main only.
 */
void session_on_teardown(void (*fn)(void *), void *arg);

/* True once SIGINT/SIGTERM arrived: long workload loops in the parent may check it. */
int session_interrupted(void);

/* Drop the page cache (sync + drop_caches=3). Returns 0, or -1 with a message. */
int drop_caches(void);

#endif
