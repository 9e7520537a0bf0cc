/* SPDX-License-Identifier: GPL-2.0 */
/* The parts of a report only iowhy attach has: the target, why the window ended, --lite, the
 * per-process list, the slow calls. Called by report_text.c and report_json.c. */
#ifndef IOWHY_REPORT_ATTACH_H
#define IOWHY_REPORT_ATTACH_H

#include <stdio.h>
#include <json-c/json.h>
#include "result.h"

/* Text: nothing for a phase that is not an attach window. `detail` as report_options. */
void report_attach_text(FILE *out, const struct phase_result *p, const char (*disks)[32],
			int detail);
/* JSON members of the phase object: "attach" (and "syscalls_available"). */
void report_attach_json(struct json_object *phase, const struct phase_result *p,
			const char (*disks)[32]);

#endif
