/* SPDX-License-Identifier: GPL-2.0 */
/* Formatters of live intervals: the text block, one JSON line, the Prometheus textfile. */
#ifndef IOWHY_INTERVAL_OUT_H
#define IOWHY_INTERVAL_OUT_H

#include <stdio.h>
#include "interval_data.h"

/* The compact block; returns the number of lines printed. With `tty` the block starts with a
 * cursor move over the previous one (`prev_lines`) so that it redraws in place; else it starts with
 * a timestamp line and is appended. */
int interval_text(FILE *out, const struct interval_sample *s, int tty, int prev_lines);
/* One JSON object on one line. 0, or -1 if it could not be written. */
int interval_json_line(FILE *out, const struct interval_sample *s);
/* The node_exporter textfile (written to a temporary name beside `path`, then renamed). 0, or -1
 * with errno. */
int prometheus_write(const char *path, const struct interval_sample *s);

#endif
