/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the FUSE probes (bpf/fuse.bpf.c). Usage, from the session:
 *
 *   struct fuse_tracer *fu;
 *   fuse_tracer_open(&fu, &core, io);       after tracer_open (and io_tracer_open; io may be NULL)
 *   per phase:
 *     fuse_tracer_phase_begin(fu, tag);     just before the gated child is released
 *     fuse_tracer_phase_end(fu, tag, r);    after the phase: r->fuse = a struct fuse_phase
 *   fuse_tracer_missing(fu)                 probes that could not attach ("" when none)
 *   fuse_tracer_close(fu);                  detach, free (NULL is fine)
 *   fuse_phase_free(r->fuse);               (fuse_model.h) once the report is printed
 *
 * The daemon programs (sched_switch, sys_enter/exit: they run on every context switch and syscall
 * of the machine) are attached at the first phase that starts with a FUSE mount present.
 * Every probe is optional: without fuse_request_send/end there is no FUSE data (r->fuse stays
 * NULL), without sched_switch/sys_enter/sys_exit no daemon time. The nfs:/sunrpc: tracepoints are
 * looked for and listed as missing when absent (docs/IO.md: what NFS tracing would attach to).
 */
#ifndef IOWHY_FUSE_PROBES_H
#define IOWHY_FUSE_PROBES_H

#include <stdint.h>
#include <stdio.h>
#include "fuse_model.h"

struct fuse_tracer;
struct tracer;
struct io_tracer;
struct phase_result;

/* Load and attach what this kernel has. Returns 0 (*t may be NULL: nothing loaded, all missing). */
int fuse_tracer_open(struct fuse_tracer **t, struct tracer *core, struct io_tracer *io);
/* Open the window of phase `tag`: clear its rows, find the daemons (holders of /dev/fuse). */
void fuse_tracer_phase_begin(struct fuse_tracer *t, int tag);
/* Close it and hang the phase's data on r->fuse (NULL when no request was seen and no probe
 * is attached). Returns 0, or -1 when out of memory. */
int fuse_tracer_phase_end(struct fuse_tracer *t, int tag, struct phase_result *r);
const char *fuse_tracer_missing(const struct fuse_tracer *t);
/* The workload's FUSE requests in flight for longer than min_age_ns, one line each on `out` with
 * the way out (a task waiting on a request its daemon has read cannot be killed until the daemon
 * answers or the connection is aborted). Returns how many. */
int fuse_tracer_stuck(struct fuse_tracer *t, uint64_t min_age_ns, FILE *out);
void fuse_tracer_close(struct fuse_tracer *t);

#endif
