/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the device / page-cache probes (bpf/io.bpf.c). Usage, from the session:
 *
 *   struct io_probes *io;
 *   io_probes_open(&io, &core);             after core_probes_prepare: shares its tree maps and mode
 *   per phase:
 *     io_probes_phase_begin(io, tag);       just before the gated child is released
 *     ... the phase runs ...
 *     io_probes_phase_end(io, tag, r);      after r->sys is filled: r->io = a struct io_phase
 *   io_probes_missing(io, &list)            probes that are not attached, with why
 *   io_probes_set(io)                       the probe set itself
 *   io_probes_times(io, &times)             what loading and attaching them cost
 *   io_probes_close(io);                    detach, free (NULL is fine)
 *   io_result_free(r->io);                  (io_model.h) once the report is printed
 *
 * `tag` is the phase index mod IOWHY_MAX_PHASES, as the core tags tree tasks. Between end and the
 * next begin no window is open: background I/O (writeback, journal, other processes) is charged
 * to the open window only; the workload's own I/O is charged by its tasks' phase.
 * Every probe is optional (a probe set, probe_set.h): those absent from the kernel, skipped by
 * IOWHY_SKIP_PROBES, or that fail to load or attach are listed by io_probes_missing.
 */
#ifndef IOWHY_IO_PROBES_H
#define IOWHY_IO_PROBES_H

#include "io_model.h"
#include "probe_set.h"

struct io_probes;
struct core_probes;
struct phase_result;

/* The probes of bpf/io.bpf.c, for tests that check every program is declared. */
extern const struct probe_spec io_probe_specs[];
extern const int io_probe_nspecs;

/* Load and attach. Returns 0; -1 after one line on stderr if nothing at all could be loaded. */
int io_probes_open(struct io_probes **t, struct core_probes *core);
/* Open the window of phase `tag`: clear its counters, snapshot /sys/block and busy times. */
void io_probes_phase_begin(struct io_probes *t, int tag);
/* Close it and hang the phase's data on p->io (allocated; free with io_result_free).
 * Returns 0, or -1 (out of memory: p->io stays NULL). */
int io_probes_phase_end(struct io_probes *t, int tag, struct phase_result *p);
/* iowhy attach: the window ended at end_ns (now_ns()'s clock); requests completing later are not
 * the phase's, in its rows or its timeline, however late the phase is closed. NULL: nothing. */
void io_probes_until(struct io_probes *t, uint64_t end_ns);
/* Append the probes that are not attached, with why (nothing for NULL). 0, or -1 if out is full. */
int io_probes_missing(const struct io_probes *t, struct missing_probes *out);
/* The fd of the per-(phase, device, op, class) request statistics map (struct io_key ->
 * struct io_stat, bpf/io.h), for readers that peek without clearing (live intervals) and walk its
 * keys; -1 for NULL. Its values are read with io_probes_stats_lookup (a row may be one per CPU). */
int io_probes_stats_fd(const struct io_probes *t);
/* Rows per statistics key: the possible CPUs when each has its own, 1 when the CPUs share one,
 * 0 for NULL (no I/O probes). */
int io_probes_stats_rows(const struct io_probes *t);
struct io_key;
struct io_stat;
/* The row of `key`, summed over the CPUs where each has its own. 0, or -1 (none, or an error). */
int io_probes_stats_lookup(const struct io_probes *t, const struct io_key *key,
			   struct io_stat *out);
/* The rows of phase `tag` that the CPUs kept aside when the map refused them (bpf/io.h io_spill),
 * each given to fn; a key may come more than once (add them, and add them to the map's row). */
void io_probes_spill_foreach(const struct io_probes *t, int tag,
			     void (*fn)(void *ctx, const struct io_key *key, const struct io_stat *st),
			     void *ctx);
/* Its probe set (NULL for NULL). */
const struct probe_set *io_probes_set(const struct io_probes *t);
/* fd of the I/O probes' map `name` (for other probe sets to share), -1 if none. */
int io_probes_map_fd(const struct io_probes *t, const char *name);
void io_probes_close(struct io_probes *t);

/* --timeline: what the probes send beyond the phases' statistics. */
struct io_timeline_sink {
	/* every finished request of a phase (rec->phase < IO_MAX_PHASES) */
	void (*request)(void *ctx, const struct io_rq_rec *rec);
	/* at `ts` (CLOCK_MONOTONIC): bytes of the tree's files dirty now (dirtied - written back -
	 * removed, session totals), and the system's Dirty and Writeback (/proc/meminfo) */
	void (*dirty)(void *ctx, uint64_t ts, uint64_t tree, uint64_t sys_dirty, uint64_t sys_wb);
	void *ctx;
};

/* io_probes_open, and with `timeline` set the programs also send every finished request with its
 * submitter (a ring buffer and a bio -> task map sized only then). */
int io_probes_open_timeline(struct io_probes **t, struct core_probes *core, int timeline);
/* Where the requests and dirty samples go (the timeline was asked for at open). */
void io_probes_set_sink(struct io_probes *t, const struct io_timeline_sink *sink);
/* Deliver the requests sent so far, and a dirty sample at most every 10 ms (NULL is fine). */
void io_probes_poll(struct io_probes *t);
/* The sweep's runs so far (bpf/io.bpf.c io_sweep) and their time in all, ns (0, 0 without it). */
void io_probes_sweeps(const struct io_probes *t, uint64_t *runs, uint64_t *ns);
/* Requests the ring buffer had no room for (--timeline). */
uint64_t io_probes_requests_lost(const struct io_probes *t);

#endif
