/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the device / page-cache probes (bpf/io.bpf.c). Usage, from the session:
 *
 *   struct io_tracer *io;
 *   io_tracer_open(&io, &core_tracer);      after tracer_open: shares its tree maps and mode
 *   per phase:
 *     io_tracer_phase_begin(io, tag);       just before the gated child is released
 *     ... the phase runs ...
 *     io_tracer_phase_end(io, tag, r);      after r->sys is filled: r->io = a struct io_phase
 *   io_tracer_missing(io)                   probes that could not attach ("" when none)
 *   io_tracer_close(io);                    detach, free (NULL is fine)
 *   io_result_free(r->io);                  (io_model.h) once the report is printed
 *
 * `tag` is the phase index mod IOWHY_MAX_PHASES, as the core tags tree tasks. Between end and the
 * next begin no window is open: background I/O (writeback, journal, other processes) is charged
 * to the open window only; the workload's own I/O is charged by its tasks' phase.
 * Every probe is optional: those that fail to load or attach are listed by io_tracer_missing.
 */
#ifndef IOWHY_IO_TRACER_H
#define IOWHY_IO_TRACER_H

#include "io_model.h"

struct io_tracer;
struct tracer;
struct phase_result;

/* Load and attach. Returns 0; -1 after one line on stderr if nothing at all could be loaded. */
int io_tracer_open(struct io_tracer **t, struct tracer *core);
/* Open the window of phase `tag`: clear its counters, snapshot /sys/block and busy times. */
void io_tracer_phase_begin(struct io_tracer *t, int tag);
/* Close it and hang the phase's data on p->io (allocated; free with io_result_free).
 * Returns 0, or -1 (out of memory: p->io stays NULL). */
int io_tracer_phase_end(struct io_tracer *t, int tag, struct phase_result *p);
const char *io_tracer_missing(const struct io_tracer *t);
/* fd of the I/O probes' map `name` (for other probe sets to share), -1 if none. */
int io_tracer_map_fd(const struct io_tracer *t, const char *name);
void io_tracer_close(struct io_tracer *t);

#endif
