/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The FUSE part of a phase's report (phase_result.fuse): requests per mount and opcode, the
 * workload's waits on them, and the daemons' time. The reporters call these only when p->fuse.
 */
#ifndef IOWHY_FUSE_REPORT_H
#define IOWHY_FUSE_REPORT_H

#include <stdio.h>
#include <linux/types.h>
#include "report.h"

struct json_object;

/* Text section for phase p. */
void fuse_report_text(FILE *out, const struct phase_result *p);
/* Adds the phase's "fuse" member to phase_obj (a JSON object). */
void fuse_report_json(struct json_object *phase_obj, const struct phase_result *p);

#endif
