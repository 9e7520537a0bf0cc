/* SPDX-License-Identifier: GPL-2.0 */
/* The reporters: they format a session's results; they compute nothing of their own. */
#ifndef IOWHY_REPORT_H
#define IOWHY_REPORT_H

#include <stdio.h>
#include "result.h"

/* Text report to `out`. */
void report_text(FILE *out, const struct session_result *s);
/* JSON report to `path` ("-" for stdout). Returns 0, or -1 with a message on stderr. */
int report_json(const char *path, const struct session_result *s);
#endif
