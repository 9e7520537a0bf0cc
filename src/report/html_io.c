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

/* "p50 / p99 / max" of a latency histogram, sorted by its p99. */
static void td_lat(FILE *out, const uint32_t *h, uint64_t max)
{
	char a[32], b[32], c[32], cell[100];
	uint64_t p99 = io_lat_pct(h, 99, max);

	snprintf(cell, sizeof(cell), "%s / %s / %s", fmt_ns(a, sizeof(a), io_lat_pct(h, 50, max)),
		 fmt_ns(b, sizeof(b), p99), fmt_ns(c, sizeof(c), max));
	html_td_num(out, (double)p99, cell);
}

/* One row per (device, op, submitter class), like the text report's. */
static void request_table(FILE *out, const struct io_phase *p)
{
	static const char *const head[] = { "device", "op", "submitted by", "requests", "bytes",
					     "IOPS", "MiB/s", "seq %", "queue p50 / p99 / max",
					     "device p50 / p99 / max" };
	size_t *idx = io_phase_sorted_rows(p);
	double secs = io_phase_rate_secs(p);
	char a[32];

	if (!idx)
		return;
	fputs("<div class=\"scroll\"><table class=\"sortable\"><thead><tr>", out);
	for (int i = 0; i < 10; i++)
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
		td_lat(out, s->qhist, s->queue_max);
		td_lat(out, s->dhist, s->dev_max);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
	free(idx);
}

#define HW 430.0      /* histogram width */
#define HH 150.0      /* and height */
#define HX 40.0       /* plot left */
#define HB 118.0      /* plot bottom */
#define HT 22.0       /* plot top */

#define HIST_MIN_SLOTS 12  /* a histogram spans at least this many slots (narrow lone bars) */

/* Slots [lo, hi] that hold every non-empty slot of both histograms, at least HIST_MIN_SLOTS. */
static void hist_range(const uint32_t *a, const uint32_t *b, int *lo, int *hi)
{
	*lo = -1;
	*hi = -1;
	for (int k = 0; k < IO_LAT_SLOTS; k++) {
		if (!a[k] && !b[k])
			continue;
		if (*lo < 0)
			*lo = k;
		*hi = k;
	}
	if (*lo < 0)
		*lo = *hi = 0;
	while (*hi - *lo + 1 < HIST_MIN_SLOTS) {
		if (*hi < IO_LAT_SLOTS - 1)
			(*hi)++;
		if (*hi - *lo + 1 < HIST_MIN_SLOTS && *lo > 0)
			(*lo)--;
	}
}

/* A log2 latency histogram as bars over slots [lo, hi]; slot k holds [2^k, 2^(k+1)) ns. */
static void latency_hist(FILE *out, const uint32_t *h, int lo, int hi, const char *title,
			 const char *colour)
{
	uint32_t max = 0;
	double bw = (HW - 12 - HX) / (hi - lo + 1);
	int every = bw >= 40 ? 1 : bw >= 20 ? 2 : 4;
	char a[32], b[32];

	for (int k = lo; k <= hi; k++)
		if (h[k] > max)
			max = h[k];
	fprintf(out, "<div class=\"hist\"><svg class=\"lathist\" viewBox=\"0 0 %.0f %.0f\" "
		     "width=\"%.0f\" height=\"%.0f\" data-total=\"%llu\">\n"
		     "<text x=\"%.0f\" y=\"14\" font-size=\"12\" font-weight=\"600\">", HW, HH, HW, HH,
		(unsigned long long)hist_total(h, IO_LAT_SLOTS), HX);
	html_text(out, title);
	fputs("</text>\n", out);
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#999\"/>\n"
		     "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">%u</text>"
		     "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">0</text>\n",
		HX, HB, HW - 12, HB, HX - 4, HT + 4, max, HX - 4, HB);
	for (int k = lo; k <= hi; k++) {
		double bh = max ? (double)h[k] / max * (HB - HT) : 0, x = HX + (k - lo) * bw;

		fprintf(out, "<rect class=\"hb\" data-count=\"%u\" x=\"%.2f\" y=\"%.2f\" "
			     "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>%s to %s: %u "
			     "requests</title></rect>\n", h[k], x + 1, HB - bh, bw - 2 > 1 ? bw - 2 : 1,
			bh, colour, fmt_ns(a, sizeof(a), k ? 1ull << k : 0),
			fmt_ns(b, sizeof(b), 2ull << k), h[k]);
		if ((k - lo) % every == 0)
			fprintf(out, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"10\" "
				     "text-anchor=\"middle\">%s</text>\n", x, HB + 13,
				fmt_ns(a, sizeof(a), k ? 1ull << k : 0));
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" fill=\"#555\">requests per "
		     "latency range (log2 buckets)</text></svg></div>\n", HX, HH - 4);
}

/* Whether the workload (its tasks, or writeback of its files) had requests on disk. */
static int workload_disk(const struct io_phase *p, uint32_t disk)
{
	for (size_t i = 0; i < p->nrows; i++)
		if ((p->rows[i].cls == IO_CL_TREE || p->rows[i].cls == IO_CL_WB_TREE) &&
		    io_phase_disk_of(p, p->rows[i].dev) == disk && p->rows[i].st.requests)
			return 1;
	return 0;
}

/* Queue and device time of one disk and op (every submitter), on a shared axis. */
static void disk_op_hists(FILE *out, const struct io_devinfo *d, int op, const struct io_stat *st)
{
	char title[96];
	int lo, hi;

	hist_range(st->qhist, st->dhist, &lo, &hi);
	fputs("<div class=\"hists\">", out);
	snprintf(title, sizeof(title), "%s %s: queue time (%llu requests)", d->name, io_op_name(op),
		 (unsigned long long)st->requests);
	latency_hist(out, st->qhist, lo, hi, title, "#8e24aa");
	snprintf(title, sizeof(title), "%s %s: device time", d->name, io_op_name(op));
	latency_hist(out, st->dhist, lo, hi, title, "#1e88e5");
	fputs("</div>\n", out);
}

/* Histograms for each whole disk and op with requests: first the disks the workload used, then
 * (folded away) the others. */
static void histograms(FILE *out, const struct io_phase *p)
{
	for (int others = 0; others < 2; others++) {
		int any = 0;

		for (size_t i = 0; i < p->ndevs; i++) {
			const struct io_devinfo *d = &p->devs[i];

			if (d->is_partition || workload_disk(p, d->dev) != !others)
				continue;
			for (int op = 0; op < IO_OP_COUNT; op++) {
				struct io_stat st;

				memset(&st, 0, sizeof(st));
				if (!io_phase_sum(p, d->dev, op, -1, &st) || !st.requests)
					continue;
				if (!any)
					fputs(others ? "<details><summary>latency on the disks without "
						       "the workload's requests</summary>\n" :
						"<h4>Request latency per device and op (every "
						"submitter)</h4>\n", out);
				any = 1;
				disk_op_hists(out, d, op, &st);
			}
		}
		if (any && others)
			fputs("</details>\n", out);
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
