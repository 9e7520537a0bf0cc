// SPDX-License-Identifier: GPL-2.0
/* The HTML report: the page, its header, the wall bars beside the explanation, each phase's
 * tables, flame graphs; see report_html.h. The device part of a phase is in html_io.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report_html.h"
#include "columns.h"
#include "summary.h"
#include "wall_parts.h"
#include "cpu_split.h"
#include "syscalls.h"
#include "hist.h"
#include "units.h"

/* ---- Small writers ---- */

void html_text(FILE *out, const char *s)
{
	xml_escape(out, s);
}

void html_td_num(FILE *out, double v, const char *text)
{
	fprintf(out, "<td data-v=\"%.17g\">", v);
	html_text(out, text);
	fputs("</td>", out);
}

static void td_ns(FILE *out, uint64_t ns)
{
	char a[32];

	html_td_num(out, (double)ns, fmt_ns(a, sizeof(a), ns));
}

static void td_count(FILE *out, uint64_t v)
{
	char a[32];

	html_td_num(out, (double)v, fmt_count(a, sizeof(a), v));
}

static void td_text(FILE *out, const char *s)
{
	fputs("<td>", out);
	html_text(out, s);
	fputs("</td>", out);
}

/* <thead> of a table from its column names; sortable tables sort on a click of a header. */
static void thead(FILE *out, const char *const *names, int n, int sortable)
{
	fprintf(out, "<table%s><thead><tr>", sortable ? " class=\"sortable\"" : "");
	for (int i = 0; i < n; i++) {
		fprintf(out, "<th%s>", i ? " class=\"num\"" : "");
		html_text(out, names[i]);
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
}

static char *ns_str(char *buf, size_t n, double ns)
{
	return fmt_ns(buf, n, ns > 0 ? (uint64_t)(ns + 0.5) : 0);
}

static char *pct_str(char *buf, size_t n, double part, double whole)
{
	if (whole <= 0) {
		snprintf(buf, n, "-");
		return buf;
	}
	return fmt_pct(buf, n, part / whole);
}

/* ---- The page ---- */

static const char page_css[] =
"*{box-sizing:border-box}\n"
"body{font:14px/1.45 -apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;color:#222;"
"margin:0;background:#fff}\n"
"main{max-width:1400px;margin:0 auto;padding:12px 24px 40px}\n"
"h1{font-size:22px;margin:8px 0 4px;word-break:break-all}h2{font-size:18px;margin:28px 0 8px;"
"border-bottom:2px solid #ddd;padding-bottom:3px}h3{font-size:15px;margin:18px 0 6px}\n"
".cmd code{font-size:13px;background:#f4f6f8;padding:2px 6px;word-break:break-all}\n"
".meta{color:#555;margin:2px 0}.warn{color:#b00020;font-weight:600}\n"
"nav{position:sticky;top:0;background:#f4f6f8;border-bottom:1px solid #ddd;padding:6px 24px;"
"z-index:2;font-size:13px}nav a{margin-right:14px;color:#1565c0;text-decoration:none}\n"
".wallgrid{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:24px;"
"align-items:start}\n"
".wallgrid svg{width:100%;height:auto}\n"
"ol.expl{margin:0;padding-left:20px}ol.expl li{margin:0 0 8px}\n"
".legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;margin:6px 0}\n"
".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px;"
"border:1px solid #999}\n"
"table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}\n"
"th,td{padding:3px 8px;border-bottom:1px solid #e4e4e4;text-align:right;white-space:nowrap}\n"
"th:first-child,td:first-child{text-align:left}th{background:#f4f6f8;font-weight:600}\n"
"table.sortable th{cursor:pointer}table.sortable th:after{content:' \\2195';color:#aaa}\n"
"table.sortable th.asc:after{content:' \\2191';color:#222}"
"table.sortable th.desc:after{content:' \\2193';color:#222}\n"
".scroll{overflow-x:auto;max-width:100%}\n"
".mini{display:inline-block;height:9px;background:#90a4ae;vertical-align:0}\n"
".hists{display:flex;flex-wrap:wrap;gap:10px 24px}.hist{width:420px}.hist svg{width:100%}\n"
".phase{margin-top:20px}.notes li{margin:2px 0}\n"
"details{margin:8px 0}pre{font-size:11.5px;overflow-x:auto;background:#fafafa;padding:8px}\n"
".flame svg,svg.flame{max-width:100%;height:auto}\n"
"footer{color:#777;font-size:12px;margin-top:30px}\n"
"@media (max-width:1000px){.wallgrid{grid-template-columns:1fr}}\n"
"@media print{nav,.btn,details{display:none}main{max-width:none;padding:0}"
"body{font-size:11px}.wallgrid{grid-template-columns:3fr 2fr}"
"section,figure,.hist,table{break-inside:avoid}h2{break-after:avoid}"
"table.sortable th:after{content:''}.scroll{overflow:visible}"
"table{font-size:9.5px}th,td{padding:2px 4px;white-space:normal}"
"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* Records script errors into the page (body[data-js-errors] and #js-errors), so that a headless
 * browser's DOM dump shows them. */
static const char error_script[] =
"window.iowhyErrors=[];window.addEventListener('error',function(e){"
"window.iowhyErrors.push(String(e.message)+' at '+e.lineno);});\n";

/* Sortable tables: a click on a header sorts the body by that column (data-v when present). */
static const char table_script[] =
"(function(){\n"
"function key(td){var v=td.getAttribute('data-v');return v===null?td.textContent:+v;}\n"
"function sortBy(t,i,th){\n"
"  var desc=!th.classList.contains('desc');\n"
"  Array.prototype.forEach.call(t.tHead.rows[0].cells,function(c){c.classList.remove('asc','desc');});\n"
"  th.classList.add(desc?'desc':'asc');\n"
"  var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);\n"
"  rows.sort(function(x,y){var a=key(x.cells[i]),c=key(y.cells[i]);\n"
"    var r=typeof a==='number'&&typeof c==='number'?a-c:String(a).localeCompare(String(c));\n"
"    return desc?-r:r;});\n"
"  rows.forEach(function(r){b.appendChild(r);});\n"
"}\n"
"Array.prototype.forEach.call(document.querySelectorAll('table.sortable'),function(t){\n"
"  Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){\n"
"    th.addEventListener('click',function(){sortBy(t,i,th);});});});\n"
"})();\n";

/* The wall bars at a common scale (as long as their walls) or each to the full width. */
static const char bars_script[] =
"(function(){\n"
"var svg=document.querySelector('svg.wallbars'),box=document.getElementById('wall-scale');\n"
"if(!svg||!box)return;\n"
"var X=+svg.getAttribute('data-bar-x'),W=+svg.getAttribute('data-bar-w');\n"
"var M=+svg.getAttribute('data-max-ns'),L=+svg.getAttribute('data-label-px');\n"
"function lay(){\n"
"  Array.prototype.forEach.call(svg.querySelectorAll('g.bar'),function(g){\n"
"    var f=g.querySelector('rect.barframe'),x=X,last=null;\n"
"    var len=box.checked?W:(M>0?+f.getAttribute('data-wall-ns')/M*W:0);\n"
"    f.setAttribute('width',len.toFixed(4));\n"
"    Array.prototype.forEach.call(g.children,function(c){\n"
"      if(c.classList.contains('seg')){var w=+c.getAttribute('data-share')*len;\n"
"        c.setAttribute('x',x.toFixed(4));c.setAttribute('width',w.toFixed(4));\n"
"        last=[x,w];x+=w;}\n"
"      else if(c.classList.contains('sl')&&last){\n"
"        c.setAttribute('x',(last[0]+last[1]/2).toFixed(2));\n"
"        c.style.display=last[1]>=L?'':'none';}});});}\n"
"box.addEventListener('change',lay);\n"
"})();\n";

static const char done_script[] =
"(function(){var e=window.iowhyErrors||[];var p=document.getElementById('js-errors');"
"p.textContent=e.join('\\n');p.hidden=!e.length;"
"document.body.setAttribute('data-js-errors',String(e.length));"
"document.body.setAttribute('data-ready','1');})();\n";

/* ---- Header ---- */

static uint64_t session_syscalls(const struct session_result *s)
{
	uint64_t n = 0;

	for (int i = 0; i < s->nphases; i++)
		for (int k = 0; k < IOWHY_NR_SLOTS; k++)
			n += s->phases[i].sys[k].count;
	return n;
}

static void header(FILE *out, const struct session_result *s)
{
	char a[32], b[32], c[32];

	fputs("<header><h1>iowhy ", out);
	html_text(out, s->tool ? s->tool : "");
	fputs("</h1>\n<p class=\"cmd\"><code>", out);
	html_text(out, s->command);
	fputs("</code></p>\n<p class=\"meta\">kernel ", out);
	html_text(out, s->kernel);
	fputs(", probe mode ", out);
	html_text(out, s->probe_mode);
	fprintf(out, ", %s events, <span%s>%s lost</span>", fmt_count(a, sizeof(a), s->events_total),
		s->events_lost ? " class=\"warn\"" : "", fmt_count(b, sizeof(b), s->events_lost));
	if (s->storage_failed)
		fprintf(out, ", <span class=\"warn\">%s tasks without per-task state</span>",
			fmt_count(c, sizeof(c), s->storage_failed));
	fputs("</p>\n", out);
	if (s->events_lost || s->storage_failed)
		fputs("<p class=\"warn\">Events were lost: the numbers below are off, either way.</p>\n", out);
	if (s->nr_folded)
		fprintf(out, "<p class=\"warn\">%s syscalls with numbers &gt;= %d were counted "
			     "together in the row %s.</p>\n", fmt_count(a, sizeof(a), s->nr_folded),
			IOWHY_NR_SLOTS, syscall_name(IOWHY_NR_SLOTS - 1));
	{
		char list[2048];

		fputs("<p class=\"meta\">missing optional probes (not traced): ", out);
		html_text(out, s->missing.n ? missing_probes_text(&s->missing, list, sizeof(list)) :
			  "none");
		fputs("</p>\n", out);
	}
	if (s->partial)
		fputs("<p class=\"warn\">PARTIAL (interrupted): the session was cut short; the numbers "
		      "cover only what ran.</p>\n", out);
	fprintf(out, "<p class=\"meta\">Measured under tracing: %s syscalls were traced; each costs "
		     "about 0.25&ndash;0.3 &micro;s more than untraced on the reference VM "
		     "(docs/PERFORMANCE.md).</p>\n</header>\n",
		fmt_count(a, sizeof(a), session_syscalls(s)));
}

/* ---- Wall bars ---- */

struct seg_def {
	const char *label, *key, *colour;
	phase_value_fn get;
	int arg;
};

#define NSEGS (5 + SG_COUNT)   /* user, the kernel groups, run-queue, I/O, other, unattributed */

/* lite (attach --lite): the user bucket holds all on-CPU time. Else the user and kernel buckets
 * are the tracepoint view's: CPU outside and inside the syscalls (the headline split is above the
 * phase's table: phase_cpu_split). */
static int seg_defs(struct seg_def *d, int lite)
{
	static const char *const group_colour[SG_COUNT] = {
		"#ff9800", "#f4511e", "#ffb74d", "#bf360c", "#e53935", "#ffcc80",
	};
	static char keys[SG_COUNT][48], labels[SG_COUNT][48];
	int n = 0;

	d[n++] = (struct seg_def){ lite ? "on CPU" : "CPU outside syscalls", "user_ns", "#43a047",
				   pv_bucket, WB_USER };
	for (int g = 0; g < SG_COUNT; g++) {
		snprintf(keys[g], sizeof(keys[g]), "kernel_groups.%s", sys_group_key(g));
		snprintf(labels[g], sizeof(labels[g]), "kernel: %s", sys_group_name(g));
		d[n++] = (struct seg_def){ labels[g], keys[g], group_colour[g], pv_group, g };
	}
	d[n++] = (struct seg_def){ "run-queue wait", "runq_ns", "#8e24aa", pv_bucket, WB_RUNQ };
	d[n++] = (struct seg_def){ "I/O wait", "iowait_ns", "#1e88e5", pv_bucket, WB_IOWAIT };
	d[n++] = (struct seg_def){ "other wait", "other_ns", "#b0bec5", pv_bucket, WB_OTHER };
	d[n++] = (struct seg_def){ "unattributed", "unattributed_ns", "#f5f5f5", pv_unattributed, 0 };
	return n;
}

/* A bar: one column's work or flush phases. */
struct bar {
	const struct column *col;
	const int *idx;
	int n, flush;
	double wall;
};

#define BAR_X 180.0
#define BAR_W 600.0
#define BAR_H 24.0
#define BAR_ROW 38.0
#define SEG_LABEL_PX 38.0  /* a part this wide shows its share */

static void phase_list(FILE *out, const int *idx, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%d", i ? "," : "", idx[i]);
}

/* The sub-rows of bucket `bucket` in a bar's tooltip, as in the text wall view: "; by CPU samples:
 * user code 148 ms, page faults 145 ms (estimates)", "; waiting on FUSE (/mnt, WRITE) 343 ms". */
static void seg_parts_title(FILE *out, const struct session_result *s, const struct bar *b,
			    int bucket)
{
	const int *idx[1] = { b->idx };
	int n[1] = { b->n }, nk;
	struct fuse_part keys[FUSE_PARTS_MAX];
	struct user_part u;
	char a[32];

	for (int k = 0, first = 1; bucket == WB_USER && k < CC_OUTSIDE; k++) {
		wall_user_part(s, b->idx, b->n, k, &u);
		if (!u.known || !u.samples)
			continue;
		fprintf(out, "%s%s %s", first ? "; by CPU samples (estimates): " : ", ",
			cpu_class_label(k), ns_str(a, sizeof(a), u.ns));
		if (user_part_few(&u))
			fprintf(out, " \u00b1%s (few samples)", ns_str(a, sizeof(a), u.err_ns));
		first = 0;
	}
	if (bucket != WB_IOWAIT && bucket != WB_OTHER)
		return;
	nk = wall_fuse_keys(s, idx, n, 1, keys, FUSE_PARTS_MAX);
	for (int k = 0; k < nk; k++) {
		if (keys[k].bucket != bucket)
			continue;
		fputs("; ", out);
		html_text(out, keys[k].label);
		fprintf(out, " %s", ns_str(a, sizeof(a), wall_fuse_part_mean(s, b->idx, b->n,
									    &keys[k])));
	}
}

/* One bar: a frame as long as its wall (the longest bar fills BAR_W), a segment per bucket as
 * wide as its share of the wall (data-share), a label with the column and its wall time. */
static void wall_bar(FILE *out, const struct session_result *s, const struct bar *b, double y,
		     double maxwall, const struct seg_def *d, int nd)
{
	double len = maxwall > 0 ? b->wall / maxwall * BAR_W : 0, x = BAR_X;
	char a[32];

	fprintf(out, "<text class=\"bl\" x=\"%.0f\" y=\"%.1f\">", BAR_X - 8, y + 11);
	html_text(out, b->col->name);
	fprintf(out, "%s</text><text class=\"bw\" x=\"%.0f\" y=\"%.1f\">%s</text>\n",
		b->flush ? " (flush)" : "", BAR_X - 8, y + 24, ns_str(a, sizeof(a), b->wall));
	fprintf(out, "<g class=\"bar\"><rect class=\"barframe\" data-col=\"");
	html_text(out, b->col->name);
	fprintf(out, "\" data-kind=\"%s\" data-phases=\"", b->flush ? "flush" : "work");
	phase_list(out, b->idx, b->n);
	fprintf(out, "\" data-wall-ns=\"%.0f\" x=\"%.0f\" y=\"%.1f\" width=\"%.4f\" height=\"%.0f\" "
		     "fill=\"none\" stroke=\"#666\" stroke-width=\"0.5\"/>\n", b->wall, BAR_X, y, len,
		BAR_H);
	for (int k = 0; k < nd; k++) {
		double v = phases_mean(s, b->idx, b->n, d[k].get, d[k].arg);
		double share = b->wall > 0 ? v / b->wall : 0, w = share * len;
		char p[32];

		if (v <= 0)
			continue;
		fprintf(out, "<rect class=\"seg\" data-key=\"%s\" data-share=\"%.6f\" x=\"%.4f\" "
			     "y=\"%.1f\" width=\"%.4f\" height=\"%.0f\" fill=\"%s\"><title>%s: %s "
			     "(%s of the wall)", d[k].key, share, x, y, w, BAR_H,
			d[k].colour, d[k].label, ns_str(a, sizeof(a), v),
			pct_str(p, sizeof(p), v, b->wall));
		if (d[k].get == pv_bucket)
			seg_parts_title(out, s, b, d[k].arg);
		fputs("</title></rect>\n", out);
		fprintf(out, "<text class=\"sl\" x=\"%.2f\" y=\"%.1f\"%s>%.0f%%</text>\n",
			x + w / 2, y + 16, w >= SEG_LABEL_PX ? "" : " style=\"display:none\"",
			share * 100);
		x += w;
	}
	fputs("</g>\n", out);
}

static int bar_unmeasured(const struct session_summary *sum, const struct bar *b)
{
	for (int i = 0; i < b->n; i++)
		if (sum->phases[b->idx[i]].wall_unmeasured)
			return 1;
	return 0;
}

static int collect_bars(const struct session_result *s, struct bar *bars, int max)
{
	const struct session_summary *sum = s->summary;
	int n = 0;

	for (int c = 0; sum && c < sum->ncols; c++) {
		const struct column *col = &sum->cols[c];

		for (int fl = 0; fl < 2 && n < max; fl++) {
			struct bar *b = &bars[n];

			b->col = col;
			b->flush = fl;
			b->idx = fl ? col->flush : col->work;
			b->n = fl ? col->nflush : col->nwork;
			if (!b->n || bar_unmeasured(sum, b))
				continue; /* lost events: no breakdown to draw (its phase says why) */
			b->wall = phases_mean(s, b->idx, b->n, pv_wall, 0);
			n++;
		}
	}
	return n;
}

static void legend(FILE *out, const struct session_result *s, const struct bar *bars, int nb,
		   const struct seg_def *d, int nd)
{
	fputs("<div class=\"legend\">", out);
	for (int k = 0; k < nd; k++) {
		int any = 0;

		for (int i = 0; i < nb && !any; i++)
			any = phases_mean(s, bars[i].idx, bars[i].n, d[k].get, d[k].arg) > 0;
		if (any)
			fprintf(out, "<span><i style=\"background:%s\"></i>%s</span>", d[k].colour,
				d[k].label);
	}
	fputs("</div>\n", out);
}

static void explanation(FILE *out, const struct session_summary *sum)
{
	fputs("<div class=\"explain\"><h3>Explanation</h3>\n<ol class=\"expl\">\n", out);
	for (int i = 0; sum && i < sum->expl.n; i++) {
		fprintf(out, "<li class=\"k-%s\">", sum->expl.s[i].kind);
		html_text(out, sum->expl.s[i].text);
		fputs("</li>\n", out);
	}
	if (!sum || !sum->expl.n)
		fputs("<li>(no explanation: the summary could not be computed)</li>\n", out);
	fputs("</ol></div>\n", out);
}

static void wall_section(FILE *out, const struct session_result *s)
{
	struct bar bars[2 * SESSION_MAX_PHASES];
	struct seg_def d[NSEGS];
	int nd = seg_defs(d, s->lite), nb = collect_bars(s, bars, 2 * SESSION_MAX_PHASES);
	double maxwall = 0, height;

	for (int i = 0; i < nb; i++)
		if (bars[i].wall > maxwall)
			maxwall = bars[i].wall;
	height = nb * BAR_ROW + 8;
	fputs("<section id=\"wall\"><h2>Where the wall time went</h2>\n<div class=\"wallgrid\">"
	      "<figure style=\"margin:0\">\n", out);
	fprintf(out, "<svg class=\"wallbars\" viewBox=\"0 0 790 %.0f\" width=\"790\" "
		     "height=\"%.0f\" data-bar-x=\"%.0f\" data-bar-w=\"%.0f\" data-max-ns=\"%.0f\" "
		     "data-label-px=\"%.0f\" role=\"img\" aria-label=\"wall time per column\">\n"
		     "<style>.bl,.bw{font-size:12px;text-anchor:end}.bl{font-weight:600}"
		     ".bw{fill:#555}.sl{font-size:11px;text-anchor:middle;fill:#fff;"
		     "pointer-events:none}</style>\n", height, height, BAR_X, BAR_W, maxwall,
		SEG_LABEL_PX);
	for (int i = 0; i < nb; i++)
		wall_bar(out, s, &bars[i], 4 + i * BAR_ROW, maxwall, d, nd);
	fputs("</svg>\n", out);
	if (nb > 1)
		fputs("<label class=\"btn\"><input type=\"checkbox\" id=\"wall-scale\"> each bar "
		      "to the full width (compare the parts, not the walls)</label>\n", out);
	legend(out, s, bars, nb, d, nd);
	fputs("<figcaption class=\"meta\">One bar per column (its work phases; a flush bar when "
	      "it synced), as long as its wall time; each part is its share of that wall. Repeated "
	      "columns show trimmed means.</figcaption></figure>\n", out);
	explanation(out, s->summary);
	fputs("</div></section>\n", out);
}

/* ---- Side-by-side figures and disks ---- */

static void headline_table(FILE *out, const struct session_summary *sum)
{
	char a[32];

	if (!sum || !sum->nhead || !sum->ncols)
		return;
	fputs("<h3>Headline figures</h3><div class=\"scroll\"><table><thead><tr><th></th>", out);
	for (int c = 0; c < sum->ncols; c++) {
		fputs("<th class=\"num\">", out);
		html_text(out, sum->cols[c].name);
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
	for (int k = 0; k < sum->nhead; k++) {
		const struct headline *h = &sum->head[k];

		fprintf(out, "<tr><td>%s</td>", h->label);
		for (int c = 0; c < sum->ncols; c++) {
			double v = h->value[c];

			if (v < 0)
				snprintf(a, sizeof(a), "-");
			else if (h->kind == HL_MIBS)
				snprintf(a, sizeof(a), "%.1f", v);
			else if (h->kind == HL_P99)
				ns_str(a, sizeof(a), v);
			else
				fmt_count(a, sizeof(a), (uint64_t)(v + 0.5));
			html_td_num(out, v, a);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

static void disks_table(FILE *out, const struct session_summary *sum)
{
	static const char *const head[] = { "disk", "busy", "of window", "busy %", "requests",
					     "read", "written", "the workload's", "I/O wait" };
	char a[32];

	if (!sum || !sum->ndisks)
		return;
	fputs("<section id=\"devices\"><h2>Devices (traced phases)</h2><div class=\"scroll\">", out);
	thead(out, head, 9, 1);
	for (int i = 0; i < sum->ndisks; i++) {
		const struct disk_line *d = &sum->disks[i];
		double busy = d->window_ns ? (double)d->busy_ns / d->window_ns : 0;

		fputs("<tr>", out);
		td_text(out, d->name);
		td_ns(out, d->busy_ns);
		td_ns(out, d->window_ns);
		html_td_num(out, busy, fmt_pct(a, sizeof(a), busy));
		td_count(out, d->requests);
		html_td_num(out, (double)d->read_bytes, fmt_bytes(a, sizeof(a), d->read_bytes));
		html_td_num(out, (double)d->write_bytes, fmt_bytes(a, sizeof(a), d->write_bytes));
		html_td_num(out, (double)d->workload_bytes,
			    fmt_bytes(a, sizeof(a), d->workload_bytes));
		td_ns(out, d->iowait_ns);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div></section>\n", out);
}

/* ---- One phase ---- */

/* One indented sub-row of the wall table: label, time (with "±err*" when err >= 0), % wall. */
static void sub_row(FILE *out, const char *label, double v, double err, double wall)
{
	char a[32];

	fputs("<tr><td>&nbsp;&nbsp;", out);
	html_text(out, label);
	fprintf(out, "</td><td>%s", ns_str(a, sizeof(a), v));
	if (err >= 0)
		fprintf(out, " &plusmn;%s*", ns_str(a, sizeof(a), err));
	fprintf(out, "</td><td>%s</td><td></td></tr>\n", pct_str(a, sizeof(a), v, wall));
}

/* The sub-rows of a bucket (as in the text report): the user bucket's parts by CPU samples, the
 * FUSE waits in a wait bucket. Returns 1 when a part was shown with its error (few samples). */
static int phase_wall_parts(FILE *out, const struct phase_result *p, int bucket, double wall)
{
	struct fuse_part parts[FUSE_PARTS_MAX];
	struct user_part u;
	int few = 0, np;

	for (int k = 0; bucket == WB_USER && k < CC_OUTSIDE; k++) {
		wall_user_part_of(p, k, &u);
		if (!u.known || (!u.samples && k != CC_USER))
			continue;
		sub_row(out, cpu_class_label(k), u.ns, user_part_few(&u) ? u.err_ns : -1, wall);
		few |= user_part_few(&u);
	}
	if (bucket != WB_IOWAIT && bucket != WB_OTHER)
		return few;
	np = wall_fuse_parts(p, parts, FUSE_PARTS_MAX);
	for (int k = 0; k < np; k++)
		if (parts[k].bucket == bucket)
			sub_row(out, parts[k].label, parts[k].ns, -1, wall);
	return few;
}

/* The headline user/kernel split (cpu_split.h) in a line above the phase's wall view. */
static void phase_cpu_split(FILE *out, const struct phase_result *p)
{
	struct cpu_split cs;
	char a[32], b[32], c[32], d[32], e[32];

	cpu_split_of(p, &cs);
	if (cpu_split_shown(&cs))
		fprintf(out, "<p><b>user CPU %s</b> (%s of the wall), <b>kernel CPU %s</b> (%s)%s%s: "
			     "user code and all kernel work%s.</p>\n",
			ns_str(a, sizeof(a), cs.user_ns), pct_str(b, sizeof(b), cs.user_ns, cs.wall_ns),
			ns_str(c, sizeof(c), cs.kernel_ns),
			pct_str(d, sizeof(d), cs.kernel_ns, cs.wall_ns),
			cs.state == CPU_SPLIT_SAMPLED ? ", each &plusmn;" : "",
			cs.state == CPU_SPLIT_SAMPLED ? ns_str(e, sizeof(e), cs.err_ns) : "",
			cs.state == CPU_SPLIT_SAMPLED ? ", estimated from CPU samples" : "");
	else
		fprintf(out, "<p>User/kernel not split: %llu CPU samples, about %.0f needed for "
			     "&plusmn;%.0f points of the wall (use --freq). The CPU outside syscalls "
			     "holds user code and kernel work.</p>\n",
			(unsigned long long)cs.samples, cs.needed_samples, 100 * CPU_SPLIT_MAX_ERR);
}

static void phase_wall(FILE *out, const struct phase_result *p)
{
	static const char *const head[] = { "", "time", "% wall", "" };
	struct seg_def d[NSEGS];
	int nd = seg_defs(d, p->lite), few = 0;
	double wall = (double)wall_ns(&p->wall);
	char a[32];

	fputs("<h3>Wall view</h3>", out);
	phase_cpu_split(out, p);
	thead(out, head, 4, 0);
	fprintf(out, "<tr><td>wall</td><td>%s</td><td>100%%</td><td></td></tr>\n",
		ns_str(a, sizeof(a), wall));
	for (int k = 0; k < nd; k++) {
		double v = d[k].get(p, d[k].arg), share = wall > 0 ? v / wall : 0;

		fputs("<tr><td>", out);
		html_text(out, d[k].label);
		fprintf(out, "</td><td>%s</td>", ns_str(a, sizeof(a), v));
		fprintf(out, "<td>%s</td><td style=\"text-align:left\"><span class=\"mini\" "
			     "style=\"width:%.1fpx;background:%s\"></span></td></tr>\n",
			pct_str(a, sizeof(a), v, wall), share * 200, d[k].colour);
		if (d[k].get == pv_bucket)
			few |= phase_wall_parts(out, p, d[k].arg, wall);
	}
	fputs("</tbody></table>\n", out);
	if (wall_user_split_known(p))
		fprintf(out, "<p>The parts of the CPU outside syscalls: estimates from CPU samples%s.</p>\n",
			few ? "; * few samples (under 20), &plusmn; one standard error" : "");
}

static void phase_iowait_disks(FILE *out, const struct phase_result *p, const char (*names)[32])
{
	double total = (double)p->wall.bucket_ns[WB_IOWAIT];
	const char *sep = "";
	char a[32], b[32];

	if (total <= 0)
		return;
	fputs("<p>I/O wait by device: ", out);
	for (int i = 0; i <= IOWHY_DISK_SLOTS; i++) {
		uint64_t v = p->wall.iowait_by_disk[i];

		if (!v)
			continue;
		fputs(sep, out);
		html_text(out, i < IOWHY_DISK_SLOTS ? (names[i][0] ? names[i] : "?") :
			  "none in flight");
		fprintf(out, " %s (%s)", ns_str(a, sizeof(a), (double)v),
			pct_str(b, sizeof(b), (double)v, total));
		sep = ", ";
	}
	fputs("</p>\n", out);
}

static void phase_facts(FILE *out, const struct phase_result *p)
{
	char v[64];

	if (p->facts.n <= 0)
		return;
	fputs("<h3>What the workload measured</h3><table><tbody>\n", out);
	for (int i = 0; i < p->facts.n && i < FACTS_MAX; i++) {
		const struct fact *f = &p->facts.f[i];

		if (!strcmp(f->unit, "B") && f->value >= 0)
			fmt_bytes(v, sizeof(v), (uint64_t)(f->value + 0.5));
		else if (!strcmp(f->unit, "B/s"))
			fmt_rate(v, sizeof(v), f->value);
		else if (!strcmp(f->unit, "s") && f->value >= 0)
			ns_str(v, sizeof(v), f->value * 1e9);
		else if (!strcmp(f->unit, "ns") && f->value >= 0)
			ns_str(v, sizeof(v), f->value);
		else
			snprintf(v, sizeof(v), "%.6g %s", f->value, f->unit);
		fputs("<tr><td>", out);
		html_text(out, f->label[0] ? f->label : f->key);
		fputs("</td>", out);
		td_text(out, v);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

static void phase_cpu_check(FILE *out, const struct phase_result *p)
{
	double tree = (double)phase_cpu_ns(p);
	double ru = (double)p->rusage_user_ns + (double)p->rusage_sys_ns;
	char a[32], b[32], c[32], e[32], u[32], t[64] = "";

	if (p->task_clock_ok) {
		snprintf(t, sizeof(t), ", perf task-clock ");
		ns_str(t + strlen(t), sizeof(t) - strlen(t), (double)p->task_clock_ns);
	}
	fprintf(out, "<p class=\"meta\">CPU cross-check: traced user+kernel %s, "
		     "getrusage(RUSAGE_CHILDREN) user+sys %s%s. Events %s (out of order %s, unknown "
		     "tasks %s)%s.</p>\n",
		ns_str(a, sizeof(a), tree), ns_str(b, sizeof(b), ru), t,
		fmt_count(c, sizeof(c), p->events), fmt_count(e, sizeof(e), p->out_of_order),
		fmt_count(u, sizeof(u), p->unknown_task),
		p->tasks_left ? "; tree tasks were still alive when the phase was closed" : "");
}

static void phase_comms(FILE *out, const struct phase_result *p)
{
	static const char *const head[] = { "comm", "tasks", "execs", "exits", "user", "kernel",
					    "run-queue", "I/O wait", "other wait", "vol sw",
					    "invol sw", "faults" };

	fputs("<h3>Work view (task time per comm)</h3>", out);
	if (!p->ncomms) {
		fputs("<p>(no tasks)</p>\n", out);
		return;
	}
	fputs("<div class=\"scroll\">", out);
	thead(out, head, 12, 1);
	for (size_t i = 0; i < p->ncomms; i++) {
		const struct comm_stats *c = &p->comms[i];
		char name[IOWHY_COMM_LEN + 1];

		memcpy(name, c->comm, IOWHY_COMM_LEN);
		name[IOWHY_COMM_LEN] = 0;
		fputs("<tr>", out);
		td_text(out, name);
		td_count(out, c->tasks);
		td_count(out, c->execs);
		td_count(out, c->exits);
		td_ns(out, c->state_ns[IOWHY_TS_USER]);
		td_ns(out, c->state_ns[IOWHY_TS_KERNEL]);
		td_ns(out, c->state_ns[IOWHY_TS_RUNQ]);
		td_ns(out, c->state_ns[IOWHY_TS_DWAIT]);
		td_ns(out, c->state_ns[IOWHY_TS_SWAIT]);
		td_count(out, c->vol_switches);
		td_count(out, c->invol_switches);
		td_count(out, c->faults);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

static void phase_syscalls(FILE *out, const struct phase_result *p)
{
	static const char *const head[] = { "syscall", "count", "total", "avg", "on-CPU", "p50",
					    "p99", "max", "bytes" };
	unsigned nrs[IOWHY_NR_SLOTS];
	int n = phase_syscalls_by_total(p, nrs);
	char a[32];

	fputs("<h3>Syscalls (by total time; on-CPU = share of the total spent on a CPU)</h3>", out);
	if (!n) {
		fputs("<p>(none)</p>\n", out);
		return;
	}
	fputs("<div class=\"scroll\">", out);
	thead(out, head, 9, 1);
	for (int i = 0; i < n; i++) {
		const struct iowhy_sys_stat *st = &p->sys[nrs[i]];
		double on = st->total_ns ? (double)sys_oncpu_ns(st) / st->total_ns : 0;

		fputs("<tr>", out);
		td_text(out, syscall_name(nrs[i]));
		td_count(out, st->count);
		td_ns(out, st->total_ns);
		td_ns(out, st->count ? st->total_ns / st->count : 0);
		html_td_num(out, on, st->total_ns ? fmt_pct(a, sizeof(a), on) : "-");
		if (hist_total(st->hist, IOWHY_HIST_SLOTS)) {
			td_ns(out, hist_percentile(st->hist, IOWHY_HIST_SLOTS, 50, st->max_ns));
			td_ns(out, hist_percentile(st->hist, IOWHY_HIST_SLOTS, 99, st->max_ns));
		} else { /* a JSON report of an older iowhy: no histogram, see its p50_ns/p99_ns */
			html_td_num(out, -1, "-");
			html_td_num(out, -1, "-");
		}
		td_ns(out, st->max_ns);
		if (syscall_returns_bytes(nrs[i]))
			html_td_num(out, (double)st->ret_sum, fmt_bytes(a, sizeof(a), st->ret_sum));
		else
			html_td_num(out, -1, "-");
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

static void phase_section(FILE *out, const struct session_result *s, int i)
{
	const struct phase_result *p = &s->phases[i];

	fprintf(out, "<section class=\"phase\" id=\"phase-%d\"><h2>", i);
	html_text(out, p->name);
	fprintf(out, " <small>(%s phase", p->kind == PHASE_FLUSH ? "flush" : "work");
	if (p->column[0] && strcmp(p->column, p->name)) {
		fputs(", column ", out);
		html_text(out, p->column);
	}
	fprintf(out, "; exit status %d%s)</small></h2>\n", p->status,
		p->partial ? ", PARTIAL (interrupted)" : "");
	if (s->summary && s->summary->phases[i].wall_unmeasured)
		fprintf(out, "<p><b>Wall view not measured:</b> %llu events were lost while the phase "
			     "ran (a task whose switch-out was lost would count as on CPU until its next "
			     "event). Its syscall counts, times and bytes are exact.</p>\n",
			(unsigned long long)s->summary->phases[i].lost);
	else
		phase_wall(out, p);
	phase_iowait_disks(out, p, s->disk_names);
	phase_facts(out, p);
	phase_cpu_check(out, p);
	phase_comms(out, p);
	phase_syscalls(out, p);
	if (p->io && s->summary)
		html_io_phase(out, p, &s->summary->phases[i], i);
	fputs("</section>\n", out);
}

/* ---- Flame graphs ---- */

static void flames_section(FILE *out, const struct html_flame *flames, int n)
{
	char id[32];

	fputs("<section id=\"flames\"><h2>Flame graphs</h2>\n<p class=\"meta\">Click a frame to "
	      "zoom, Reset Zoom to go back; Search highlights frames by a regular expression. Frame "
	      "widths are their shares of the samples.</p>\n", out);
	for (int i = 0; i < n; i++) {
		struct flame_style st = { .title = flames[i].title, .id = id };

		snprintf(id, sizeof(id), "flame-%d", i);
		fputs("<div class=\"flame\">", out);
		flame_svg(out, flames[i].flame, &st);
		fputs("</div>\n", out);
	}
	fputs("</section>\n", out);
}

/* ---- Page ---- */

static void nav(FILE *out, const struct session_result *s, int nflames)
{
	fputs("<nav><a href=\"#wall\">wall time</a>", out);
	if (s->summary && s->summary->ndisks)
		fputs("<a href=\"#devices\">devices</a>", out);
	for (int i = 0; i < s->nphases; i++) {
		fprintf(out, "<a href=\"#phase-%d\">", i);
		html_text(out, s->phases[i].name);
		fputs("</a>", out);
	}
	if (nflames)
		fputs("<a href=\"#flames\">flame graphs</a>", out);
	fputs("</nav>\n", out);
}

void report_html_write(FILE *out, const struct session_result *s, const struct html_flame *flames,
		       int nflames)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>iowhy ",
	      out);
	html_text(out, s->tool ? s->tool : "");
	fputs(": ", out);
	html_text(out, s->command);
	fprintf(out, "</title>\n<style>\n%s</style>\n<script>%s</script>\n</head><body>\n", page_css,
		error_script);
	nav(out, s, nflames);
	fputs("<main>\n", out);
	header(out, s);
	wall_section(out, s);
	headline_table(out, s->summary);
	disks_table(out, s->summary);
	for (int i = 0; i < s->nphases; i++)
		phase_section(out, s, i);
	if (nflames)
		flames_section(out, flames, nflames);
	fputs("<pre id=\"js-errors\" class=\"warn\" hidden></pre>\n<footer>Made by iowhy: one "
	      "self-contained file (no network). The same numbers are in the text and JSON "
	      "reports.</footer>\n</main>\n", out);
	fprintf(out, "<script>\n%s%s</script>\n", table_script, bars_script);
	if (nflames)
		fprintf(out, "<script>\n%s</script>\n", flame_script);
	fprintf(out, "<script>\n%s</script>\n</body></html>\n", done_script);
}

int report_html_stream(FILE *f, const char *name, const struct session_result *s)
{
	struct html_flame flames[2];
	int n = html_flames_of(s, flames), err = 0;

	errno = 0;
	report_html_write(f, s, flames, n);
	for (int i = 0; i < n; i++)
		flame_free((struct flame *)flames[i].flame);
	if (ferror(f) || fflush(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "iowhy: --html %s: %s\n", name, strerror(err));
		return -1;
	}
	return 0;
}
