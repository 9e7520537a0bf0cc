// SPDX-License-Identifier: GPL-2.0
/* The device / page-cache part of a phase in the HTML report: the request table, latency
 * histograms per device and op (queue and device time), the layer table and its notes, and the
 * text report's device section for everything else. */
#include <stdlib.h>
#include <string.h>
#include "report_html.h"
#include "io_report.h"
#include "io_model.h"
#include "summary.h"
#include "hist.h"
#include "units.h"

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

static void td_ns(FILE *out, uint64_t ns)
{
	char a[32];

	html_td_num(out, (double)ns, fmt_ns(a, sizeof(a), ns));
}

/* One row per (device, op, submitter class), like the text report's. */
static void request_table(FILE *out, const struct io_phase *p)
{
	static const char *const head[] = { "device", "op", "submitted by", "requests", "bytes",
					     "IOPS", "MiB/s", "seq %", "queue p50", "queue p99",
					     "queue max", "device p50", "device p99", "device max" };
	size_t *idx = io_phase_sorted_rows(p);
	double secs = p->window_ns / 1e9;
	char a[32];

	if (!idx)
		return;
	fputs("<div class=\"scroll\"><table class=\"sortable\"><thead><tr>", out);
	for (int i = 0; i < 14; i++)
		fprintf(out, "<th%s>%s</th>", i > 2 ? " class=\"num\"" : "", head[i]);
	fputs("</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[idx[i]];
		const struct io_stat *s = &r->st;

		fputs("<tr><td>", out);
		html_text(out, io_phase_dev_name(p, r->dev));
		fprintf(out, "</td><td style=\"text-align:left\">%s</td><td style=\"text-align:left\">"
			     "%s</td>", io_op_name(r->op), io_class_name(r->cls));
		snprintf(a, sizeof(a), "%llu", (unsigned long long)s->requests);
		html_td_num(out, (double)s->requests, a);
		html_td_num(out, (double)s->bytes, fmt_bytes(a, sizeof(a), s->bytes));
		snprintf(a, sizeof(a), "%.0f", ratio(s->requests, secs));
		html_td_num(out, ratio(s->requests, secs), a);
		snprintf(a, sizeof(a), "%.1f", ratio(s->bytes / 1048576.0, secs));
		html_td_num(out, ratio(s->bytes / 1048576.0, secs), a);
		snprintf(a, sizeof(a), "%.0f", 100.0 * ratio(s->seq, s->requests));
		html_td_num(out, 100.0 * ratio(s->seq, s->requests), a);
		td_ns(out, io_lat_pct(s->qhist, 50, s->queue_max));
		td_ns(out, io_lat_pct(s->qhist, 99, s->queue_max));
		td_ns(out, s->queue_max);
		td_ns(out, io_lat_pct(s->dhist, 50, s->dev_max));
		td_ns(out, io_lat_pct(s->dhist, 99, s->dev_max));
		td_ns(out, s->dev_max);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
	free(idx);
}

#define HW 420.0      /* histogram width */
#define HH 150.0      /* and height */
#define HX 40.0       /* plot left */
#define HB 118.0      /* plot bottom */
#define HT 22.0       /* plot top */

/* A log2 latency histogram as bars: one per slot from the first to the last non-empty one; slot
 * k holds [2^k, 2^(k+1)) ns. */
static void latency_hist(FILE *out, const uint32_t *h, const char *title, const char *colour)
{
	int lo = -1, hi = -1;
	uint32_t max = 0;
	double bw;
	char a[32], b[32];

	for (int k = 0; k < IO_LAT_SLOTS; k++) {
		if (!h[k])
			continue;
		if (lo < 0)
			lo = k;
		hi = k;
		if (h[k] > max)
			max = h[k];
	}
	fprintf(out, "<div class=\"hist\"><svg class=\"lathist\" "
		     "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" data-total=\"%llu\">\n"
		     "<text x=\"%.0f\" y=\"14\" font-size=\"12\" font-weight=\"600\">", HW, HH, HW, HH,
		(unsigned long long)hist_total(h, IO_LAT_SLOTS), HX);
	html_text(out, title);
	fputs("</text>\n", out);
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>\n", HX,
		HB, HW - 6, HB);
	if (lo < 0) {
		fprintf(out, "<text x=\"%.0f\" y=\"70\" font-size=\"12\">no requests</text></svg>"
			     "</div>\n", HX);
		return;
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">%u</text>"
		     "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">0</text>\n",
		HX - 4, HT + 4, max, HX - 4, HB);
	bw = (HW - 6 - HX) / (hi - lo + 1);
	for (int k = lo; k <= hi; k++) {
		double bh = (double)h[k] / max * (HB - HT), x = HX + (k - lo) * bw;

		fprintf(out, "<rect class=\"hb\" data-count=\"%u\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			     "height=\"%.2f\" fill=\"%s\"><title>%s to %s: %u requests</title></rect>\n",
			h[k], x + 1, HB - bh, bw - 2 > 1 ? bw - 2 : 1, bh, colour,
			fmt_ns(a, sizeof(a), k ? 1ull << k : 0), fmt_ns(b, sizeof(b), 2ull << k), h[k]);
		if ((k - lo) % (bw >= 40 ? 1 : bw >= 20 ? 2 : 4) == 0)
			fprintf(out, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"10\">%s</text>\n", x + 1,
				HB + 13, fmt_ns(a, sizeof(a), k ? 1ull << k : 0));
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" fill=\"#555\">requests per "
		     "latency range (log2 ns buckets)</text></svg></div>\n", HX, HH - 4);
}

/* Queue and device time histograms for each whole disk and op with requests. */
static void histograms(FILE *out, const struct io_phase *p)
{
	int any = 0;

	for (size_t i = 0; i < p->ndevs; i++) {
		const struct io_devinfo *d = &p->devs[i];

		if (d->is_partition)
			continue;
		for (int op = 0; op < IO_OP_COUNT; op++) {
			struct io_stat st;
			char title[96];

			memset(&st, 0, sizeof(st));
			if (!io_phase_sum(p, d->dev, op, -1, &st) || !st.requests)
				continue;
			if (!any)
				fputs("<h4>Request latency per device and op</h4>\n", out);
			any = 1;
			fputs("<div class=\"hists\">", out);
			snprintf(title, sizeof(title), "%s %s: queue time (%llu requests)", d->name,
				 io_op_name(op), (unsigned long long)st.requests);
			latency_hist(out, st.qhist, title, "#8e24aa");
			snprintf(title, sizeof(title), "%s %s: device time", d->name, io_op_name(op));
			latency_hist(out, st.dhist, title, "#1e88e5");
			fputs("</div>\n", out);
		}
	}
}

static void layer_row(FILE *out, const char *label, uint64_t w, uint64_t r, int has_r)
{
	char a[32];

	fputs("<tr><td>", out);
	html_text(out, label);
	fputs("</td>", out);
	html_td_num(out, (double)w, fmt_bytes(a, sizeof(a), w));
	if (has_r)
		html_td_num(out, (double)r, fmt_bytes(a, sizeof(a), r));
	else
		fputs("<td>-</td>", out);
	fputs("</tr>\n", out);
}

static void layer_table(FILE *out, const struct io_layers *l, const struct phase_summary *ps)
{
	fprintf(out, "<h4>Layers%s</h4><table><thead><tr><th></th><th class=\"num\">written</th>"
		     "<th class=\"num\">read</th></tr></thead><tbody>\n",
		l->ndisks ? "" : " (no block I/O)");
	layer_row(out, "syscalls (read/write family)", l->sys_write, l->sys_read, 1);
	layer_row(out, "page cache (dirtied / added)", l->dirtied, l->pc_added, 1);
	layer_row(out, "written back (workload files)", l->wb_tree, 0, 0);
	layer_row(out, "block layer: workload", l->blk_write_tree, l->blk_read_tree, 1);
	layer_row(out, "block layer: writeback for it", l->blk_write_wb_tree, 0, 0);
	layer_row(out, "block layer: journal", l->blk_write_journal, 0, 0);
	layer_row(out, "block layer: others",
		  l->blk_write_wb + l->blk_write_other + l->blk_write_unknown, l->blk_read_others, 1);
	layer_row(out, "device counters (/sys/block)", l->dev_write, l->dev_read, 1);
	fputs("</tbody></table>\n", out);
	if (!ps->nnotes)
		return;
	fputs("<ul class=\"notes\">\n", out);
	for (int i = 0; i < ps->nnotes; i++) {
		fputs("<li>", out);
		html_text(out, ps->notes[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* Everything else of the device section (page cache, writeback, fsync, journal, losses), as the
 * text report prints it. */
static void text_details(FILE *out, const struct phase_result *pr, const struct phase_summary *ps)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	io_report_text(m, pr, ps);
	fclose(m);
	fputs("<details><summary>the text report's device section</summary><pre>", out);
	for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		html_text(out, line);
		fputc('\n', out);
	}
	fputs("</pre></details>\n", out);
	free(buf);
}

void html_io_phase(FILE *out, const struct phase_result *pr, const struct phase_summary *ps,
		   int idx)
{
	const struct io_phase *p = pr->io;

	if (!p || !ps->has_io)
		return;
	fprintf(out, "<h3 id=\"io-%d\">Devices and kernel I/O</h3>\n", idx);
	if (p->nrows)
		request_table(out, p);
	else
		fputs("<p>No block requests completed in this phase.</p>\n", out);
	histograms(out, p);
	layer_table(out, &ps->layers, ps);
	text_details(out, pr, ps);
}
