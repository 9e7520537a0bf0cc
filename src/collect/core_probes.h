/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the core probes (bpf/iowhy.bpf.c): privilege and BTF checks, the probe set (required
 * and optional probes, IOWHY_SKIP_PROBES, tp_btf else raw_tp: probe_set.h), seeding a phase root
 * into the tree, draining the event rings, reading the per-phase syscall statistics and the loss
 * counters.
 */
#ifndef IOWHY_CORE_PROBES_H
#define IOWHY_CORE_PROBES_H

#include <sys/types.h>
#include "iowhy.h"
#include "probe_set.h"
#include "event_rings.h"
#include "bg_call.h"

struct iowhy_bpf;
struct tree_maps_bpf;
struct reorder;
struct bpf_link;

typedef void (*core_event_fn)(void *ctx, const struct iowhy_event *e, const char *comm);

/* The core probes, for tests that check every program of bpf/iowhy.bpf.c is declared. */
extern const struct probe_spec core_probe_specs[];
extern const int core_probe_nspecs;

struct core_probes {
	struct iowhy_bpf *skel;
	struct tree_maps_bpf *tree; /* the tree's maps, which every object takes (tree_maps.bpf.c) */
	struct probe_set probes;  /* what is attached, or why not */
	struct event_rings rings; /* the event rings, one per CPU (event_rings.h) */
	struct bg_call install;   /* their installation, in a thread from prepare to start */
	__u64 *ring_seen;         /* per ring: the newest timestamp read from it */
	__u64 read_t0, read_prev_t0; /* when this read of the rings began, and the last one */
	int phase_slots;          /* phase tags with syscall statistics (1..IOWHY_MAX_PHASES) */
	int use_hash;             /* raw_tp fallback: per-task state in a tid hash */
	int inflight_shared;      /* tests: the workload's in-flight counts shared (tree.bpf.h) */
	char disk_names[IOWHY_DISK_SLOTS][32]; /* slot -> /sys/block name ("" unused) */
	int lite;                 /* --lite: no syscall probes (no syscall counts, no user/kernel split) */
	int batched;              /* the timer probe is attached: syscall transitions come in batches */
	struct reorder *order;    /* events wait here to be put in time order */
	unsigned long long received; /* events delivered (a batch counts as its transitions) */
	unsigned long long dropped;  /* events the reorder buffer had no memory for */
	__u64 calib_untraced_ps;  /* a null syscall untraced, and in a traced tree task (ps) */
	__u64 calib_traced_ps;
	__u64 event_cost_ps;      /* what tracing costs per event on this host (0: unknown) */
	core_event_fn on_event;
	void *ctx;
};

/* Before core_probes_prepare (iowhy attach): keep per-process byte counts (per_proc), load no
 * syscall probes (lite). Both 0 by default. */
void core_probes_configure(int per_proc, int lite);
/* Before core_probes_prepare: 0 when no I/O probes will load (--no-io): the dirtied inodes' set
 * that the tree's maps include for them is then one entry. 1 by default. */
void core_probes_configure_io(int io);
/*
 * Check privileges and BTF, load (tp_btf, falling back to raw_tp when a required probe does not
 * load that way, or with IOWHY_PROBE_MODE=raw_tp), attach, calibrate the cost per event. The
 * syscall statistics have rows for `phases` phase tags (the session's phase count, at most
 * IOWHY_MAX_PHASES: tags are phase index mod IOWHY_MAX_PHASES). In steps, so that the other probe
 * sets, which need only the tree's maps, load while the core loads and attaches:
 *   core_probes_prepare    checks, the untraced half of the calibration, the flavour (tp_btf
 *                          where this kernel loads it: bpf_features.c), the tree's maps made;
 *                          from here core_probes_share_tree_maps serves other objects
 *   core_probes_load_objects  the core's object; 1 when a required probe did not load as tp_btf:
 *                          then, once nothing that took the tree's maps is loading or loaded,
 *   core_probes_fall_back  makes the maps again for raw_tp and loads that flavour
 *   core_probes_start      attach
 *   core_probes_calibrate  once nothing else loads or attaches (their text patching interrupts
 *                          every CPU): the traced half
 * Each returns 0, or -1 after one line on stderr (a required probe skipped by IOWHY_SKIP_PROBES,
 * absent, or failing: exit 1); after a failed start the core is closed. calibrate does not fail:
 * without its figure the cost per event is 0 (unknown).
 */
int core_probes_prepare(struct core_probes *c, core_event_fn fn, void *ctx, int phases);
/* prepare's first checks alone (privileges, the kernel's BTF): 0, or -1 after one line. */
int core_probes_check(void);
int core_probes_load_objects(struct core_probes *c);
int core_probes_fall_back(struct core_probes *c);
int core_probes_start(struct core_probes *c);
int core_probes_calibrate(struct core_probes *c);
/* Append the probes that are not attached, with why. Returns 0, or -1 if out is full. */
int core_probes_missing(const struct core_probes *c, struct missing_probes *out);
/*
 * Map the event rings for the consumer (core_probes_calibrate leaves them unmapped, so that the
 * other probe sets' loading does not add to their pages in the peak RSS) and mark every BPF map
 * mapping of this process (a ring: twice its size, inserted page by page; skeleton data)
 * MADV_DONTFORK, so that the workload's forks, execs and exits do not copy or tear down page tables
 * a shell would not have. Call after all probes are loaded, before any phase and any drain.
 * Returns 0, or -1 after one line on stderr (a ring cannot be mapped).
 */
int core_probes_dontfork_mappings(struct core_probes *c);
/* Make `pid` (blocked in read(2) on the gate) a tree root of `phase`. */
int core_probes_add_root(struct core_probes *c, pid_t pid, int phase, int read_nr);
/* Take what the event rings hold (non-blocking) and deliver, in time order, the events older than
 * the reorder window (60 ms). Returns the number delivered, or -1. */
int core_probes_drain(struct core_probes *c);
/* How long the consumer may sleep before the next drain: 20 ms, 1 ms while an event ring is
 * more than 1/8 full (a dense stream must not fill it while the consumer sleeps). */
int core_probes_poll_ms(struct core_probes *c);
/* Whether the consumer is behind: an event ring more than 1/8 full. */
int core_probes_behind(struct core_probes *c);
/* The same, delivering everything held (end of a phase: the tree is gone). */
int core_probes_flush(struct core_probes *c);
/* The same up to `end` (an attach window's end: the targets live on); later events are dropped. */
int core_probes_flush_until(struct core_probes *c, uint64_t end);
/* Syscall statistics of `phase`, summed over CPUs. */
int core_probes_sys_stats(struct core_probes *c, int phase,
			  struct iowhy_sys_stat *out /* [IOWHY_NR_SLOTS] */);
/* Count no syscall that ends after end_ns (CLOCK_MONOTONIC) in the statistics: an attach window's
 * end, so that what the targets do while iowhy reads the table is not the window's. */
void core_probes_sys_until(struct core_probes *c, uint64_t end_ns);
/* Zero the statistics of `phase` and count again without an end (its slot is reused
 * IOWHY_MAX_PHASES phases later). */
void core_probes_reset_sys_stats(struct core_probes *c, int phase);
/* Loss counters summed over CPUs. */
void core_probes_counters(struct core_probes *c, struct iowhy_counters *out);
unsigned long long core_probes_late(const struct core_probes *c);
const char *core_probes_mode(const struct core_probes *c);
/* Detach everything and free. Safe on a partly opened set. */
/* Make obj (an object, opened, not loaded) use the tree's maps (after core_probes_prepare): each of
 * task_store, task_hash, cpu_task, tree_inflight, disk_slots, last_complete, tree_inodes,
 * wb_tasks, offcpu, off_counters and offstacks_h that obj declares.
 * Returns 0, or -1 (errno set). */
struct bpf_object;
int core_probes_share_tree_maps(const struct core_probes *c, struct bpf_object *obj);
void core_probes_close(struct core_probes *c);

#endif
