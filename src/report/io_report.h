/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device / page-cache part of the report (phase_result.io, with the layer table and its notes
 * from the phase's summary): text in io_report_text.c, JSON in io_report_json.c. They only format.
 */
#ifndef IOWHY_IO_REPORT_H
#define IOWHY_IO_REPORT_H

#include <stdio.h>
#include <linux/types.h> /* report.h -> iowhy.h uses __u64 before model.h includes it */
#include "report.h"
#include "summary.h"

struct json_object;

/* Text section for phase p (p->io != NULL), printed after its syscall table. */
void io_report_text(FILE *out, const struct phase_result *p, const struct phase_summary *ps);
/* The session's disks, one line each (the default report). */
void io_report_disks_text(FILE *out, const struct session_summary *sum);
/* Adds the phase's "io" member to phase_obj (p->io != NULL). */
void io_report_json(struct json_object *phase_obj, const struct phase_result *p,
		    const struct phase_summary *ps);
/* The session's device stacks (`stacks`): each line, the workload's I/O wait on every device of
 * it, and the device with the most of it. */
struct json_object *io_report_stacks_json(const struct session_summary *sum);
/* The passive verdicts (`verdicts`, each with its inputs) and the members' numbers they were
 * computed from (`verdict_inputs`); NULL inputs when the run touched fewer than two devices. */
struct json_object *io_report_verdicts_json(const struct session_summary *sum);
struct json_object *io_report_verdicts_withdrawn_json(const struct session_summary *sum);
struct json_object *io_report_verdict_inputs_json(const struct session_summary *sum);

#endif
