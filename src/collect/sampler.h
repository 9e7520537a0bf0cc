/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of the CPU sampler (bpf/sample.bpf.c): a perf_event program on the software cpu-clock
 * event of every online CPU, sharing the core's tree maps. Usage, from the session:
 *
 *   struct sampler *smp;
 *   sampler_open(&smp, &core, hz);         after core_probes_prepare (or sampler_load, sampler_attach)
 *   per phase:
 *     sampler_phase_begin(smp, tag);       before the gated child is released
 *     ... the phase runs ...
 *     cs = sampler_phase_end(smp, tag, program);  the phase's samples, symbolised (or NULL)
 *   sampler_close(smp);
 *
 * `program` is the phase's command (argv[0]) or NULL: with the comms of the samples it names the
 * ELF files whose build ids user frames are matched against.
 */
#ifndef IOWHY_SAMPLER_H
#define IOWHY_SAMPLER_H

#include "cpu_samples.h"
#include "probe_status.h"

#define SAMPLER_DEFAULT_HZ 99    /* not a multiple of the scheduler tick; see docs/PERFORMANCE.md */
#define SAMPLER_MAX_HZ 20000

struct sampler;
struct core_probes;
struct probe_set;

/*
 * Load, open one cpu-clock event per online CPU at `hz` and attach, with the off-CPU and exec-file
 * probes: a probe set of their own (probe_set.h). All are optional: what cannot run (or is named in
 * IOWHY_SKIP_PROBES: perf:cpu-clock, offcpu:sched_switch, execfile:sched_process_exec) is listed by
 * sampler_missing, with a warning on stderr when it failed. Returns 0 (*out set, sampling or not:
 * sampler_active says), or -1 (out of memory).
 */
int sampler_open(struct sampler **out, struct core_probes *core, unsigned hz);
/* The software cpu-clock event on `cpu` sampling at `hz` (the sampler's, and the benchmark's
 * sampler floor in floor_probes.c): an fd, or -1 with errno set. */
int sampler_perf_open(unsigned hz, int cpu);
/* sampler_open in two steps: sampler_load (after core_probes_load_objects: the programs, nothing
 * attached; 0 or -1 as sampler_open), then sampler_attach (after core_probes_start: its
 * sched_switch program runs after the core's, as before). */
int sampler_load(struct sampler **out, struct core_probes *core, unsigned hz);
void sampler_attach(struct sampler *s);
/* Whether samples are being taken (the cpu-clock events are attached). */
int sampler_active(const struct sampler *s);
/* Append the sampler's probes that are not attached, with why. 0, or -1 if out is full. */
int sampler_missing(const struct sampler *s, struct missing_probes *out);
const struct probe_set *sampler_probe_set(const struct sampler *s);
/* Zero the counters of phase `tag`. */
void sampler_phase_begin(struct sampler *s, int tag);
/* Take (and remove from the kernel) the samples of phase `tag`, symbolised and classified.
 * NULL when out of memory. Free with cpu_samples_free. */
struct cpu_samples *sampler_phase_end(struct sampler *s, int tag, const char *program);
/* The running counts of phase `tag` (live intervals): samples outside the syscall tracepoints
 * (under --lite: all) and, of those, in user mode. 0, or -1 (not sampling, or unreadable: both 0).
 * Cheap: one per-CPU array lookup. */
int sampler_split_counts(const struct sampler *s, int tag, uint64_t *outside, uint64_t *user);
/* Detach and free (NULL is fine). */
void sampler_close(struct sampler *s);

#endif
