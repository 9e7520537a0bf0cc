/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A phase's CPU samples themselves in the JSON report ("cpu_samples.raw": the rows of samples,
 * their stacks and the function names, the off-CPU sleeps), and back: what `iowhy report -v`
 * renders the "where the CPU went" and off-CPU sections from, exactly as the run did.
 */
#ifndef IOWHY_CPU_RAW_JSON_H
#define IOWHY_CPU_RAW_JSON_H

#include "result.h"

struct json_object;

/* The "raw" member of cpu_samples. */
struct json_object *cpu_raw_json(const struct cpu_samples *cs);
/* The samples of phase p (its wall view and work view loaded) from its JSON "cpu_samples" and
 * "offcpu" objects, classified and split as the run did. Returns 0 with *out NULL when the JSON
 * has no samples (or no raw member), 0 with *out set, or -1 (out of memory). */
int cpu_raw_load(struct json_object *cpu, struct json_object *offcpu, const struct phase_result *p,
		 struct cpu_samples **out);

#endif
