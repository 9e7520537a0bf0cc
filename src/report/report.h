/* SPDX-License-Identifier: GPL-2.0 */
/* The reporters: they format a session's results; they compute nothing of their own. */
#ifndef IOWHY_REPORT_H
#define IOWHY_REPORT_H

#include <stdio.h>
#include "result.h"

/* What the text report shows: detail -1 brief (-q), 0 the default that fits a screen, 1 all (-v). */
struct report_options {
	int detail;
};

/* Text report to `out`. */
void report_text(FILE *out, const struct session_result *s, const struct report_options *ro);
/* JSON report to stdout (--json -). Returns 0, or -1 with a message on stderr. */
int report_json_stdout(const struct session_result *s);
/* JSON report to an open stream (closed after, unless stdout); `name` for messages. 0 or -1. */
int report_json_file(FILE *f, const char *name, const struct session_result *s);
#endif
