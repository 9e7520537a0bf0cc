/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device / page-cache part of a phase's report (phase_result.io). The reporters call these
 * only when p->io != NULL.
 */
#ifndef IOWHY_IO_REPORT_H
#define IOWHY_IO_REPORT_H

#include <stdio.h>
#include <linux/types.h> /* report.h -> iowhy.h uses __u64 before model.h includes it */
#include "report.h"

struct json_object;

/* Text section for phase p, printed after its syscall table. */
void io_report_text(FILE *out, const struct phase_result *p);
/* Adds the phase's "io" member to phase_obj (a JSON object). */
void io_report_json(struct json_object *phase_obj, const struct phase_result *p);

#endif
