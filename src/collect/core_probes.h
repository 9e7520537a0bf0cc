/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the core probes (bpf/iowhy.bpf.c): privilege and BTF checks, the tp_btf/raw_tp load
 * probe, attach (required and optional probes), seeding a phase root into the tree, draining the ring
 * buffer, reading the per-phase syscall statistics and the loss counters.
 */
#ifndef IOWHY_TRACER_H
#define IOWHY_TRACER_H

#include <sys/types.h>
#include "iowhy.h"

struct iowhy_bpf;
struct reorder;
struct ring_buffer;
struct bpf_link;

typedef void (*tracer_event_fn)(void *ctx, const struct iowhy_event *e, const char *comm);

struct tracer {
	struct iowhy_bpf *skel;
	struct ring_buffer *rb;
	int use_hash;             /* raw_tp fallback: per-task state in a tid hash */
	char missing[512];        /* optional probes that did not attach */
	char disk_names[IOWHY_DISK_SLOTS][32]; /* slot -> /sys/block name ("" unused) */
	struct bpf_link *links[16];
	int nlinks;
	int batched;              /* the timer probe is attached: syscall transitions come in batches */
	struct reorder *order;    /* events wait here to be put in time order */
	unsigned long long received; /* events delivered (a batch counts as its transitions) */
	unsigned long long dropped;  /* events the reorder buffer had no memory for */
	tracer_event_fn on_event;
	void *ctx;
};

/*
 * Check privileges and BTF, load (tp_btf, falling back to raw_tp when that load fails or
 * IOWHY_PROBE_MODE=raw_tp), attach. Returns 0, or -1 after one line on stderr.
 */
int tracer_open(struct tracer *t, tracer_event_fn fn, void *ctx);
/*
 * Mark every BPF map mapping of this process (ring buffer: over 100 MiB, inserted page by page;
 * skeleton data) MADV_DONTFORK, so that the workload's forks, execs and exits do not copy or tear
 * down page tables a shell would not have. Call after all probes are loaded, before any phase.
 */
void tracer_dontfork_mappings(void);
/* Make `pid` (blocked in read(2) on the gate) a tree root of `phase`. */
int tracer_add_root(struct tracer *t, pid_t pid, int phase, int read_nr);
/* Take what the ring buffer holds (non-blocking) and deliver, in time order, the events older than
 * the reorder window (60 ms). Returns the number delivered, or -1. */
int tracer_drain(struct tracer *t);
/* The same, delivering everything held (end of a phase: the tree is gone). */
int tracer_flush(struct tracer *t);
/* Syscall statistics of `phase`, summed over CPUs. */
int tracer_sys_stats(struct tracer *t, int phase, struct iowhy_sys_stat *out /* [IOWHY_NR_SLOTS] */);
/* Zero the statistics of `phase` (its slot is reused IOWHY_MAX_PHASES phases later). */
void tracer_reset_sys_stats(struct tracer *t, int phase);
/* Loss counters summed over CPUs. */
void tracer_counters(struct tracer *t, struct iowhy_counters *out);
const char *tracer_mode(const struct tracer *t);
/* Detach everything and free. Safe on a partly opened tracer. */
void tracer_close(struct tracer *t);

#endif
