/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU samples of a phase in the reports: "where the CPU went" in the text report, the
 * "cpu_samples" object in the JSON (docs/json.md), and FlameGraph's folded format (--folded).
 */
#ifndef IOWHY_CPU_REPORT_H
#define IOWHY_CPU_REPORT_H

#include <stdio.h>
#include "result.h"

struct json_object;

/* Add "cpu_samples" to a phase's JSON object (nothing when the phase has no samples). */
void cpu_report_json(struct json_object *phase, const struct phase_result *p);
/* The "where the CPU went" section of a phase (nothing when the phase has no samples). */
void cpu_report_text(FILE *out, const struct phase_result *p);

/*
 * The sessions' samples in FlameGraph's folded format to `path`: one line per group of samples,
 * "comm;user frames;kernel frames_[k] count", outermost frame first (kernel frames carry the _[k]
 * suffix flamegraph.pl colours as kernel); with several phases each line starts with the phase
 * name. Spaces in names become '_'. The counts add up to the recorded samples.
 * The uninterruptible sleeps go to `off` (the engine names it FILE.offcpu) in the same format,
 * "comm;kernel frames_[k] µs", when it is given. The caller opens the streams (safely); both are
 * closed here. `name`/`off_name` are for messages. Returns 0, or -1 with a message on stderr.
 */
int cpu_report_folded(FILE *on, const char *name, FILE *off, const char *off_name,
		      const struct session_result *s);
/* Whether any phase has off-CPU data (then the engine opens FILE.offcpu too). */
int cpu_report_has_offcpu(const struct session_result *s);

#endif
