/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved JSON report (docs/json.md) read back into a session, for `iowhy report`: the header,
 * every phase's wall view, facts with their labels, work view and syscall table with the latency
 * histograms, and the summary the run computed (its columns, headline figures, disks and
 * explanation, taken from the JSON, not recomputed), each phase's devices and kernel I/O with
 * their latency histograms, its CPU samples (rebuilt from cpu_samples.raw: rows, stacks, names,
 * off-CPU sleeps) and FUSE's requests, mounts, daemons and counters. What the JSON does not keep
 * stays empty: the wall view's split by syscall outside I/O wait, the FUSE daemons the report did
 * not show.
 */
#ifndef IOWHY_REPORT_LOAD_H
#define IOWHY_REPORT_LOAD_H

#include <stddef.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"

/* Read path into s (zeroed first). Returns 0; -1 with a one-line reason in err (not JSON, not an
 * iowhy report, another schema version); -2 when out of memory. */
int report_load(const char *path, struct session_result *s, char *err, size_t errlen);
/* The same for a report at `detail` (-1 brief, 0 default, 1 -v): -1 with a reason when the JSON
 * lacks what that level shows (-v: FUSE requests without their histograms, from an older iowhy). */
int report_load_detail(const char *path, struct session_result *s, int detail, char *err,
		       size_t errlen);
/* Free what report_load allocated. */
void report_load_free(struct session_result *s);

/* report_load_io.c: a phase's "io" member as phase_result.io (NULL when absent or out of
 * memory), and its layer table and notes into the phase's summary. */
struct json_object;
struct phase_summary;
struct io_phase *report_load_io(struct json_object *io, const struct missing_probes *session);
void report_load_layers(struct json_object *io, struct phase_summary *ps);
/* report_load_fuse.c: a phase's "fuse" member as phase_result.fuse (NULL out of memory). */
struct fuse_phase *report_load_fuse(struct json_object *fuse);
/* Reading members (report_load.c): o's member key (NULL when o or it is absent), as an integer
 * (0 when absent), as a string ("" when absent or not one); an array's length (0: not one). */
struct json_object *rl_member(struct json_object *o, const char *key);
uint64_t rl_u64(struct json_object *o, const char *key);
const char *rl_str(struct json_object *o, const char *key);
size_t rl_alen(struct json_object *a);
/* A histogram written by jhist (trailing zeros cut) into h[0..n). */
void report_load_hist(struct json_object *a, uint32_t *h, int n);

#endif
