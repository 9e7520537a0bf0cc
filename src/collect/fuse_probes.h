/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the FUSE probes (bpf/fuse.bpf.c). Usage, from the session:
 *
 *   struct fuse_probes *fu;
 *   fuse_probes_open(&fu, &core);           after core_probes_prepare
 *   per phase:
 *     fuse_probes_phase_begin(fu, tag);     just before the gated child is released
 *     fuse_probes_phase_end(fu, tag, r);    after the phase: r->fuse = a struct fuse_phase
 *   fuse_probes_missing(fu, &list)          probes that could not attach, with why
 *   fuse_probes_close(fu);                  detach, free (NULL is fine)
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
#include "probe_status.h"

struct fuse_probes;
struct core_probes;
struct probe_set;
struct phase_result;

/* Load and attach what this kernel has: a probe set of its own (probe_set.h). Returns 0 (*t set;
 * what is missing is listed by fuse_probes_missing), or -1 when out of memory. */
int fuse_probes_open(struct fuse_probes **t, struct core_probes *core);
/* Open the window of phase `tag`: clear its rows, find the daemons (holders of /dev/fuse). */
void fuse_probes_phase_begin(struct fuse_probes *t, int tag);
/* Close it and hang the phase's data on r->fuse (NULL when no request was seen and no probe
 * is attached). Returns 0, or -1 when out of memory. */
int fuse_probes_phase_end(struct fuse_probes *t, int tag, struct phase_result *r);
/* Append the probes that are not attached, with why, and the NFS tracepoints this kernel lacks.
 * A daemon probe not attached yet because no FUSE mount was seen is not missing. 0, or -1 if
 * out is full. */
int fuse_probes_missing(const struct fuse_probes *t, struct missing_probes *out);
const struct probe_set *fuse_probes_set(const struct fuse_probes *t);
/* The workload's FUSE requests in flight for longer than min_age_ns, one line each on `out` with
 * the way out (a task waiting on a request its daemon has read cannot be killed until the daemon
 * answers or the connection is aborted). Returns how many. */
int fuse_probes_stuck(struct fuse_probes *t, uint64_t min_age_ns, FILE *out);
void fuse_probes_close(struct fuse_probes *t);

#endif
