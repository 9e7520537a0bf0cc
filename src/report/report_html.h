/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML report (--html FILE): one self-contained page (inline CSS, SVG and a little script; no
 * external resources, nothing fetched) showing the session's summary: the header, the wall time of
 * each side-by-side column as stacked bars beside the explanation, per phase the wall view, work
 * view and syscall table (sortable), device latency histograms and the layer table, and flame
 * graphs when folded stacks are given. It formats the results and their summary; it computes
 * nothing of its own.
 */
#ifndef IOWHY_REPORT_HTML_H
#define IOWHY_REPORT_HTML_H

#include <stdio.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"
#include "flamegraph.h"

/* A flame graph to show: its title and its stacks. */
struct html_flame {
	const char *title;
	const struct flame *flame;
};

/* The page, to out. */
void report_html_write(FILE *out, const struct session_result *s, const struct html_flame *flames,
		       int nflames);
/* The page with the flame graphs of the session's samples, to f (opened safely by the caller),
 * which is closed here; `name` is for messages. Returns 0, or -1 with a message on stderr. */
int report_html_stream(FILE *f, const char *name, const struct session_result *s);
/* Flame graphs of the session's CPU samples and uninterruptible sleeps (html_flames.c): out[0..2)
 * filled, returns how many (0: no samples). The caller frees each out[i].flame. */
int html_flames_of(const struct session_result *s, struct html_flame *out);

/* ---- shared by the HTML writers (report_html.c, html_io.c) ---- */

/* HTML text (escaped, valid UTF-8). */
void html_text(FILE *out, const char *s);
/* A table cell with a sort key: <td data-v="v">text</td>. */
void html_td_num(FILE *out, double v, const char *text);
/* The device / page-cache part of one phase (p->io), after its syscall table. */
struct phase_summary;
void html_io_phase(FILE *out, const struct phase_result *p, const struct phase_summary *ps,
		   int idx);

#endif
