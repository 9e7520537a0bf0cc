// SPDX-License-Identifier: GPL-2.0
/* The text report: header, side-by-side wall view, then each phase, then the explanation. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "io_report.h"
#include "cpu_report.h"
#include "fuse_report.h"
#include "report.h"
#include "report_attach.h"
#include "columns.h"
#include "summary.h"
#include "wall_parts.h"
#include "cpu_split.h"
#include "cpu_samples.h"
#include "syscalls.h"
#include "hist.h"
#include "units.h"

#define TBL_COLS 16
#define TBL_ROWS 80
#define TBL_CELL 104   /* a FUSE sub-row names its mount */
#define SIDE_COLS_PER_TABLE 5   /* side-by-side columns per table before wrapping */
#define TOP_SYSCALLS 15
#define TOP_COMMS 20
#define CPU_CHECK_MIN_NS 10e6  /* below 10 ms of CPU the cross-check gives ns, not % */
#define RESIDUAL_WARN 0.02      /* unattributed share of wall that earns a "!" */
#define SHOWN_SHARE 0.01       /* compact table: a kernel group row needs 1% of some wall */
#define PART_SHOWN_SHARE 0.05  /* compact table: a sampled kernel part needs 5% of some wall */
#define EXPLAIN_WIDTH 100      /* wrap explanation lines here */

/* ---- Aligned tables: column 0 left-aligned, the others right-aligned, 2 spaces apart. ---- */

struct table {
	int ncols, nrows;
	char cell[TBL_ROWS][TBL_COLS][TBL_CELL];
	int section[TBL_ROWS];  /* row printed as its first cell alone (a block title) */
};

static struct table *tbl_new(int ncols)
{
	struct table *t = calloc(1, sizeof(*t));

	if (t)
		t->ncols = ncols < TBL_COLS ? ncols : TBL_COLS;
	return t;
}

/* Start a row; rows past the capacity are dropped (callers stay below it). */
static void tbl_row(struct table *t)
{
	if (t->nrows < TBL_ROWS)
		t->nrows++;
}

static void tbl_section(struct table *t, const char *title)
{
	tbl_row(t);
	t->section[t->nrows - 1] = 1;
	snprintf(t->cell[t->nrows - 1][0], TBL_CELL, "%s", title);
}

__attribute__((format(printf, 3, 4)))
static void tbl_set(struct table *t, int col, const char *fmt, ...)
{
	va_list ap;

	if (t->nrows == 0 || col >= t->ncols)
		return;
	va_start(ap, fmt);
	vsnprintf(t->cell[t->nrows - 1][col], TBL_CELL, fmt, ap);
	va_end(ap);
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/* Index of the last non-empty cell of row r (no trailing blanks are printed). */
static int last_cell(const struct table *t, int r)
{
	int c = t->ncols - 1;

	while (c > 0 && t->cell[r][c][0] == '\0')
		c--;
	return c;
}

static void tbl_print(FILE *out, const struct table *t, const char *indent)
{
	size_t width[TBL_COLS] = { 0 };

	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols && !t->section[r]; c++) {
			size_t w = text_width(t->cell[r][c]);

			if (w > width[c])
				width[c] = w;
		}
	for (int r = 0; r < t->nrows; r++) {
		if (t->section[r]) {
			fprintf(out, "%s%s%s\n", r > 0 ? "\n" : "", indent, t->cell[r][0]);
			continue;
		}
		fputs(indent, out);
		for (int c = 0; c <= last_cell(t, r); c++) {
			size_t w = text_width(t->cell[r][c]);

			if (c == 0) {
				fputs(t->cell[r][c], out);
				if (last_cell(t, r) > 0)
					pad(out, width[c] - w);
			} else {
				pad(out, 2 + width[c] - w);
				fputs(t->cell[r][c], out);
			}
		}
		fputc('\n', out);
	}
}

/* ---- Number cells ---- */

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

/* ---- Wall view rows, shared by the side-by-side view and each phase ---- */

struct wall_row {
	char label[40];
	phase_value_fn get;
	int arg;
};

static void add_row(struct wall_row *rows, int *n, const char *label, phase_value_fn get, int arg)
{
	snprintf(rows[*n].label, sizeof(rows[*n].label), "%s", label);
	rows[*n].get = get;
	rows[*n].arg = arg;
	(*n)++;
}

#define WALL_ROWS (WB_COUNT + SG_COUNT + 2)

/* Marks the headline CPU rows in a row list (side_cpu_rows prints them). */
static double pv_cpu_split(const struct phase_result *p, int unused)
{
	(void)p;
	(void)unused;
	return 0;
}

/* wall, the CPU rows, run-queue, I/O wait, other wait, unattributed. The CPU rows:
 * - split (the side-by-side view): one marker row for side_cpu_rows, user and kernel CPU by the
 *   true split (cpu_split.h);
 * - else (one phase's wall view, -v): the tracepoint view, named for what it is: CPU outside the
 *   syscall tracepoints (its parts by samples under it), CPU inside them, each group (indented);
 * - lite (attach --lite: no syscall probes): one "on CPU" row, measured, with its parts estimated
 *   by CPU samples under it (zero without samples: then the row is not split). */
static int wall_rows(struct wall_row *rows, int lite, int split)
{
	char label[40];
	int n = 0;

	add_row(rows, &n, "wall", pv_wall, 0);
	if (lite) {
		add_row(rows, &n, "on CPU", pv_bucket, WB_USER);
		add_row(rows, &n, "  ~ user code", pv_lite, PVL_USER);
		add_row(rows, &n, "  ~ kernel", pv_lite, PVL_KERNEL);
		add_row(rows, &n, "    ~ in syscalls", pv_lite, PVL_SYSCALLS);
		add_row(rows, &n, "    ~ page faults", pv_lite, PVL_FAULTS);
		add_row(rows, &n, "    ~ interrupts", pv_lite, PVL_IRQ);
		add_row(rows, &n, "    ~ other kernel", pv_lite, PVL_KOTHER);
	} else if (split) {
		add_row(rows, &n, "CPU", pv_cpu_split, 0);
	} else {
		add_row(rows, &n, "CPU outside syscalls", pv_bucket, WB_USER);
		add_row(rows, &n, "CPU in syscalls", pv_bucket, WB_KERNEL);
		for (int g = 0; g < SG_COUNT; g++) {
			snprintf(label, sizeof(label), "  %s", sys_group_name((enum sys_group)g));
			add_row(rows, &n, label, pv_group, g);
		}
	}
	add_row(rows, &n, "run-queue wait", pv_bucket, WB_RUNQ);
	add_row(rows, &n, "I/O wait", pv_bucket, WB_IOWAIT);
	add_row(rows, &n, "other wait", pv_bucket, WB_OTHER);
	add_row(rows, &n, "unattributed", pv_unattributed, 0);
	return n;
}

/* ---- Sub-rows of the wall view: the user bucket's parts, the FUSE waits ---- */

#define NOTE_SPLIT 1   /* the headline split shown, some of it sampled */
#define NOTE_FEW 2     /* a part with few samples shown with its error */
#define NOTE_LITE 4    /* --lite: on-CPU parts estimated from samples shown */
#define NOTE_SOME 8    /* compact: only the larger parts shown */
#define NOTE_NOSPLIT 16 /* a column's CPU not split into user and kernel: too few samples */
#define NOTE_OUTSIDE 32 /* one phase's wall view: CPU outside syscalls' parts shown */
#define NOTE_UNMEASURED 64 /* lost events: a block's breakdown not measured */

/* The time and %-wall cells (col, col + 1) of one part of the user bucket: "-" when there is no
 * split; "6.98 ms ±2.43 ms*" when its samples are few. Returns NOTE_* flags. */
static int user_part_cells(struct table *t, int col, const struct user_part *u, double wall)
{
	char a[32], b[32];

	if (!u->known) {
		tbl_set(t, col, "-");
		return 0;
	}
	if (user_part_few(u)) {
		tbl_set(t, col, "%s \u00b1%s*", ns_str(a, sizeof(a), u->ns),
			ns_str(b, sizeof(b), u->err_ns));
	} else {
		tbl_set(t, col, "%s", ns_str(a, sizeof(a), u->ns));
	}
	tbl_set(t, col + 1, "%s", pct_str(b, sizeof(b), u->ns, wall));
	return NOTE_OUTSIDE | (user_part_few(u) ? NOTE_FEW : 0);
}

/* "582 ms ±67.0 ms" (an estimate) or "141 ms" (exact). */
static char *est_str(char *buf, size_t n, double ns, double err, int estimate)
{
	char a[32], b[32];

	if (estimate && err > 0)
		snprintf(buf, n, "%s ±%s", ns_str(a, sizeof(a), ns), ns_str(b, sizeof(b), err));
	else
		snprintf(buf, n, "%s", ns_str(a, sizeof(a), ns));
	return buf;
}

/* One row of the CPU block: a label and, per column, a time cell and its share of the wall. */
static void cpu_row(struct table *t, const char *label, const struct cpu_split *cs, const int *m,
		    int n, const double *ns, const double *err, int estimate)
{
	char a[64], b[32];

	tbl_row(t);
	tbl_set(t, 0, "%s", label);
	for (int c = 0; c < n; c++) {
		tbl_set(t, 1 + 2 * c, "%s", m[c] ? est_str(a, sizeof(a), ns[c], err[c],
							      estimate && cs[c].state == CPU_SPLIT_SAMPLED) : "-");
		tbl_set(t, 2 + 2 * c, "%s", m[c] ? pct_str(b, sizeof(b), ns[c], cs[c].wall_ns) : "");
	}
}

/*
 * The headline CPU rows of the side-by-side view. When every column has a reliable split
 * (cpu_split.h): user CPU (user code) and kernel CPU (all kernel work), each with its standard
 * error where it is an estimate; under kernel CPU the part inside syscalls (traced) with its groups,
 * and the parts outside syscalls by samples ("~"). When a column has none, the tracepoint view,
 * named for what it is (CPU outside syscalls, not split, with the samples each column had; kernel
 * CPU in syscalls), never the tracepoint boundary as the user/kernel line. Compact: groups of 1% and
 * sampled parts of 5% of some column's wall. Returns NOTE_* flags.
 */
static int side_cpu_rows(struct table *t, const struct session_result *s, const struct column *cols,
			 int n, int flush, int compact)
{
	struct cpu_split cs[SIDE_COLS_PER_TABLE];
	double v[SIDE_COLS_PER_TABLE], e[SIDE_COLS_PER_TABLE];
	const int *idx[SIDE_COLS_PER_TABLE];
	int m[SIDE_COLS_PER_TABLE], all = 1, notes = 0;
	char label[48], a[32], b[32];

	for (int c = 0; c < n; c++) {
		idx[c] = flush ? cols[c].flush : cols[c].work;
		m[c] = flush ? cols[c].nflush : cols[c].nwork;
		cpu_split_cols(s, idx[c], m[c], &cs[c]);
		if (m[c] && !cpu_split_shown(&cs[c]))
			all = 0;
	}
	if (!all) {
		for (int c = 0; c < n; c++)
			v[c] = cs[c].outside_ns, e[c] = 0;
		cpu_row(t, "CPU outside syscalls", cs, m, n, v, e, 0);
		tbl_row(t);
		tbl_set(t, 0, "  (user/kernel not split)");
		for (int c = 0; c < n; c++) {
			if (!m[c] || cpu_split_shown(&cs[c]))
				tbl_set(t, 1 + 2 * c, "%s", !m[c] ? "-" : "split");
			else
				tbl_set(t, 1 + 2 * c, "%s samples, ~%s needed",
					fmt_count(a, sizeof(a), cs[c].samples),
					fmt_count(b, sizeof(b), (uint64_t)(cs[c].needed_samples + 0.5)));
			tbl_set(t, 2 + 2 * c, "-");
		}
		for (int c = 0; c < n; c++)
			v[c] = cs[c].traced_kernel_ns;
		cpu_row(t, "kernel CPU in syscalls", cs, m, n, v, e, 0);
		notes |= NOTE_NOSPLIT;
	} else {
		for (int c = 0; c < n; c++)
			v[c] = cs[c].user_ns, e[c] = cs[c].err_ns;
		cpu_row(t, "user CPU", cs, m, n, v, e, 1);
		for (int c = 0; c < n; c++)
			v[c] = cs[c].kernel_ns;
		cpu_row(t, "kernel CPU", cs, m, n, v, e, 1);
		for (int c = 0; c < n; c++) {
			v[c] = cs[c].traced_kernel_ns, e[c] = 0;
			if (cs[c].state == CPU_SPLIT_SAMPLED)
				notes |= NOTE_SPLIT;
		}
		cpu_row(t, "  in syscalls", cs, m, n, v, e, 0);
	}
	for (int g = 0; g < SG_COUNT; g++) {
		int shown = !compact;

		for (int c = 0; c < n; c++) {
			v[c] = phases_mean(s, idx[c], m[c], pv_group, g), e[c] = 0;
			shown |= m[c] && v[c] >= SHOWN_SHARE * cs[c].wall_ns;
		}
		if (!shown)
			continue;
		snprintf(label, sizeof(label), all ? "    %s" : "  %s", sys_group_name((enum sys_group)g));
		cpu_row(t, label, cs, m, n, v, e, 0);
	}
	if (!all)
		return notes;
	/* the kernel's parts outside syscalls, by samples */
	for (int k = 0; k < CC_OUTSIDE; k++) {
		struct user_part u[SIDE_COLS_PER_TABLE];
		int any = 0, large = !compact;

		if (k == CC_USER)
			continue;
		for (int c = 0; c < n; c++) {
			wall_user_part(s, idx[c], m[c], k, &u[c]);
			any |= u[c].known && u[c].samples;
			large |= u[c].known && u[c].ns >= PART_SHOWN_SHARE * cs[c].wall_ns;
			v[c] = u[c].known ? u[c].ns : 0, e[c] = u[c].known ? u[c].err_ns : 0;
		}
		if (!any)
			continue;
		if (!large) { /* compact: a small part is left to -v */
			notes |= NOTE_SOME;
			continue;
		}
		snprintf(label, sizeof(label), "  ~ %s", cpu_class_label(k));
		cpu_row(t, label, cs, m, n, v, e, 1);
	}
	return notes;
}

/* The workload's FUSE waits placed in wait bucket `bucket`, under its row: one cell pair per
 * column; compact: only those of 1% of some column's wall. */
static void side_fuse_parts(struct table *t, const struct session_result *s,
			    const struct column *cols, int n, int flush, int bucket, int compact)
{
	const int *idx[SIDE_COLS_PER_TABLE];
	int m[SIDE_COLS_PER_TABLE], nk;
	struct fuse_part keys[FUSE_PARTS_MAX];
	char a[32], b[32];

	for (int c = 0; c < n; c++) {
		idx[c] = flush ? cols[c].flush : cols[c].work;
		m[c] = flush ? cols[c].nflush : cols[c].nwork;
	}
	nk = wall_fuse_keys(s, idx, m, n, keys, FUSE_PARTS_MAX);
	for (int k = 0; k < nk; k++) {
		double v[SIDE_COLS_PER_TABLE], wall[SIDE_COLS_PER_TABLE];
		int shown = !compact;

		if (keys[k].bucket != bucket)
			continue;
		for (int c = 0; c < n; c++) {
			v[c] = wall_fuse_part_mean(s, idx[c], m[c], &keys[k]);
			wall[c] = phases_mean(s, idx[c], m[c], pv_wall, 0);
			shown |= v[c] >= SHOWN_SHARE * wall[c] && v[c] > 0;
		}
		if (!shown)
			continue;
		tbl_row(t);
		tbl_set(t, 0, "  %s", keys[k].label);
		for (int c = 0; c < n; c++) {
			tbl_set(t, 1 + 2 * c, "%s", m[c] ? ns_str(a, sizeof(a), v[c]) : "-");
			tbl_set(t, 2 + 2 * c, "%s", m[c] ? pct_str(b, sizeof(b), v[c], wall[c]) : "");
		}
	}
}

/* What the sub-rows' marks mean, under the table. */
static void print_part_notes(FILE *out, int notes)
{
	if (notes & NOTE_SPLIT)
		fprintf(out, "  (user CPU is user code, kernel CPU all kernel work: estimates from CPU "
			     "samples, \u00b1 one standard error;\n   in syscalls: traced; ~ kernel parts "
			     "outside syscalls by samples%s)\n",
			notes & NOTE_SOME ? ", those under 5% of the wall: -v" : "");
	if (notes & NOTE_NOSPLIT)
		fprintf(out, "  (user/kernel not split: too few CPU samples for \u00b1%.0f points of the "
			     "wall; use --freq, or -v for the estimate;\n   CPU outside syscalls holds "
			     "user code and kernel work: entry/exit, page faults, interrupts)\n",
			100 * CPU_SPLIT_MAX_ERR);
	if (notes & NOTE_OUTSIDE)
		fprintf(out, "  (CPU outside syscalls' parts: estimates from CPU samples%s)\n",
			notes & NOTE_FEW ? "; * few samples (under 20), \u00b1 one standard error" : "");
	if (notes & NOTE_UNMEASURED)
		fprintf(out, "  (not measured: events were lost while it ran, so a task whose switch-out "
			     "was lost would count as on CPU\n   until its next event: the breakdown would be "
			     "fiction; the wall itself, syscall counts and bytes, and block I/O are exact)\n");
	if (notes & NOTE_LITE)
		fprintf(out, "  (~ parts of on CPU: estimates from CPU samples; their \u00b1 in \"on CPU, "
			     "split by CPU samples\")\n");
}

/* ---- Header ---- */

static void print_warnings(FILE *out, const struct session_result *s)
{
	char a[32], b[32];

	if (s->events_lost && s->storage_failed)
		fprintf(out, "WARNING: %s events lost (ring buffer full) and %s tasks without per-task "
			     "state: the numbers below are off, either way (a task keeps its last "
			     "known state until its next event; tasks without state are missing)\n",
			fmt_count(a, sizeof(a), s->events_lost),
			fmt_count(b, sizeof(b), s->storage_failed));
	else if (s->events_lost)
		fprintf(out, "WARNING: %s events lost (ring buffer full): the wall and work views of "
			     "the phases that lost them are not measured (a task keeps its last known "
			     "state until its next event: one whose switch-out was lost would count as on "
			     "CPU); exact still: the syscall counts and times and bytes (counted in the "
			     "kernel), block I/O, the walls (IOWHY_RINGBUF_MB: larger rings)\n",
			fmt_count(a, sizeof(a), s->events_lost));
	else if (s->storage_failed)
		fprintf(out, "WARNING: %s tasks without per-task state (not traced): the numbers "
			     "below undercount\n", fmt_count(a, sizeof(a), s->storage_failed));
	if (s->nr_folded)
		fprintf(out,
			"WARNING: %s syscalls with numbers >= %d were counted together in the row %s\n",
			fmt_count(a, sizeof(a), s->nr_folded), IOWHY_NR_SLOTS,
			syscall_name(IOWHY_NR_SLOTS - 1));
	for (int i = 0; i < s->nphases; i++) {
		const struct phase_result *p = &s->phases[i];
		uint64_t wall = p->wall.end_ns - p->wall.start_ns, cost = tracing_cost_ns(s, p);
		char c[32], w[32], e[32], g[32];

		if (p->clock_skew_events)
			fprintf(out, "WARNING: %s: the CPUs' clocks disagreed: %s wakeups were dated after "
				     "their task was already running again, by up to %s; times that span "
				     "two CPUs (waits, device latencies) may be off by as much\n", p->name,
				fmt_count(a, sizeof(a), p->clock_skew_events),
				fmt_ns(b, sizeof(b), p->clock_skew_max_ns));
		if (p->prog_missed)
			fprintf(out, "WARNING: %s: the kernel skipped %s runs of iowhy's programs (a "
				     "tracepoint hit while the same program already ran on that CPU, "
				     "e.g. in an interrupt), %s of them %s: their events are missing\n",
				p->name, fmt_count(a, sizeof(a), p->prog_missed),
				fmt_count(b, sizeof(b), p->prog_missed_top), p->prog_missed_top_name);
		if (!wall || cost * 100 < wall * TRACING_COST_WARN_PCT ||
		    cost < TRACING_COST_WARN_MIN_NS)
			continue;
		fprintf(out, "WARNING: tracing slowed %s down by ~%s, %.0f%% of its %s wall, at least: "
			     "%s events", p->name, fmt_ns(c, sizeof(c), cost), 100.0 * cost / wall,
			fmt_ns(w, sizeof(w), wall), fmt_count(a, sizeof(a), p->events));
		if (s->event_cost_ps)
			fprintf(out, " at ~%.0f ns each (calibrated at start) ~%s",
				s->event_cost_ps / 1000.0,
				fmt_ns(e, sizeof(e), tracing_events_cost_ns(s, p)));
		else
			fprintf(out, " (their cost could not be measured at start: traced null "
				     "syscalls were no slower than untraced ones, a busy machine)");
		if (p->prog_on_ns)
			fprintf(out, "; iowhy's BPF programs ran ~%s (kernel BPF statistics over %.0f%% "
				     "of the phase, scaled; the tracepoints' own dispatch not in it)",
				fmt_ns(g, sizeof(g), tracing_programs_ns(p)),
				p->prog_on_ns < wall ? 100.0 * p->prog_on_ns / wall : 100.0);
		if (p->tracer_cpu_ns)
			fprintf(out, "; iowhy itself used %s of CPU beside it",
				fmt_ns(g, sizeof(g), p->tracer_cpu_ns));
		fprintf(out, "\n");
	}
}

static void print_header(FILE *out, const struct session_result *s)
{
	char cmd[sizeof(s->command)], events[32], lost[32];

	clean_text(cmd, sizeof(cmd), s->command);
	fprintf(out, "iowhy %s: %s\n", s->tool ? s->tool : "", cmd);
	fprintf(out, "kernel %s, probe mode %s, %s events, %s lost\n", s->kernel, s->probe_mode,
		fmt_count(events, sizeof(events), s->events_total),
		fmt_count(lost, sizeof(lost), s->events_lost));
	print_warnings(out, s);
	if (s->missing.n) {
		char list[2048];

		fprintf(out, "missing optional probes (not traced): %s\n",
			missing_probes_text(&s->missing, list, sizeof(list)));
	}
	if (s->partial)
		fprintf(out, "*** PARTIAL (interrupted): the session was cut short; the numbers cover "
			     "only what ran ***\n");
	/* the untraced time, when there is some worth a line (run has none of its own) */
	if (s->setup_ns + s->teardown_ns >= 1000000) {
		char a[32], b[32];

		fprintf(out, "untraced: setup %s before the phases, teardown %s after them "
			     "(checks, removal)\n", fmt_ns(a, sizeof(a), s->setup_ns),
			fmt_ns(b, sizeof(b), s->teardown_ns));
	}
}

/* ---- Side by side ---- */

static int count_work_phases(const struct session_result *s)
{
	int n = 0;

	for (int i = 0; i < s->nphases; i++)
		n += s->phases[i].kind == PHASE_WORK;
	return n;
}

static int any_flush(const struct column *cols, int ncols)
{
	for (int c = 0; c < ncols; c++)
		if (cols[c].nflush)
			return 1;
	return 0;
}

/* The compact table leaves out a kernel group row under 1% of every column's wall and an
 * unattributed row that is zero everywhere. */
static int row_shown(const struct session_result *s, const struct column *cols, int n, int flush,
		     const struct wall_row *row)
{
	if (row->get == pv_lite) {
		/* a part of on CPU by samples: user code and kernel both whenever there are samples
		 * (an estimate of zero says something), the kernel's parts only when not zero */
		int top = row->arg == PVL_USER || row->arg == PVL_KERNEL;

		for (int c = 0; c < n; c++) {
			const int *idx = flush ? cols[c].flush : cols[c].work;
			int m = flush ? cols[c].nflush : cols[c].nwork;
			double v = top ? phases_mean(s, idx, m, pv_lite, PVL_USER) +
					 phases_mean(s, idx, m, pv_lite, PVL_KERNEL)
				       : phases_mean(s, idx, m, pv_lite, row->arg);

			if (v > 0)
				return 1;
		}
		return 0;
	}
	if (row->get != pv_group && row->get != pv_unattributed)
		return 1;
	for (int c = 0; c < n; c++) {
		const int *idx = flush ? cols[c].flush : cols[c].work;
		int m = flush ? cols[c].nflush : cols[c].nwork;
		double v = phases_mean(s, idx, m, row->get, row->arg);

		if (row->get == pv_unattributed ? v > 0 :
		    v >= SHOWN_SHARE * phases_mean(s, idx, m, pv_wall, 0))
			return 1;
	}
	return 0;
}

/* Lost events in a phase of the block's columns: their wall, and "not measured" for the
 * breakdown (summary.h: the buckets would be fiction). Returns 1 when so (the block is done). */
static int side_unmeasured(struct table *t, const struct session_result *s,
			   const struct column *cols, int n, int flush)
{
	uint64_t lost[SIDE_COLS_PER_TABLE] = { 0 }, any = 0;
	char a[32];

	if (!s->summary)
		return 0;
	for (int c = 0; c < n; c++) {
		const int *idx = flush ? cols[c].flush : cols[c].work;
		int m = flush ? cols[c].nflush : cols[c].nwork;

		for (int i = 0; i < m; i++)
			if (s->summary->phases[idx[i]].wall_unmeasured)
				lost[c] += s->summary->phases[idx[i]].lost;
		any += lost[c];
	}
	if (!any)
		return 0;
	tbl_row(t);
	tbl_set(t, 0, "wall");
	for (int c = 0; c < n; c++) {
		const int *idx = flush ? cols[c].flush : cols[c].work;
		int m = flush ? cols[c].nflush : cols[c].nwork;

		tbl_set(t, 1 + 2 * c, "%s", m ? ns_str(a, sizeof(a), phases_mean(s, idx, m, pv_wall, 0)) : "-");
	}
	tbl_row(t);
	tbl_set(t, 0, "where it went");
	for (int c = 0; c < n; c++)
		tbl_set(t, 1 + 2 * c, "%s", lost[c] ? "not measured" : "(-v)");
	tbl_row(t);
	tbl_set(t, 0, "  events lost");
	for (int c = 0; c < n; c++)
		tbl_set(t, 1 + 2 * c, "%s", fmt_count(a, sizeof(a), lost[c]));
	return 1;
}

/* One block of rows (work or flush) for columns cols[0..n); `flush` picks the phase list. The
 * user row gets its parts by samples, the wait rows the FUSE waits. Returns NOTE_* flags. */
static int side_block(struct table *t, const struct session_result *s, const struct column *cols,
		      int n, int flush, int compact)
{
	struct wall_row rows[WALL_ROWS];
	int nrows = wall_rows(rows, s->lite, 1), notes = 0;
	char a[32], b[32];

	if (side_unmeasured(t, s, cols, n, flush))
		return NOTE_UNMEASURED;
	for (int r = 0; r < nrows; r++) {
		if ((compact || rows[r].get == pv_lite) && !row_shown(s, cols, n, flush, &rows[r]))
			continue;
		if (rows[r].get == pv_cpu_split) {
			notes |= side_cpu_rows(t, s, cols, n, flush, compact);
			continue;
		}
		if (rows[r].get == pv_lite)
			notes |= NOTE_LITE;
		tbl_row(t);
		tbl_set(t, 0, "%s", rows[r].label);
		for (int c = 0; c < n; c++) {
			const int *idx = flush ? cols[c].flush : cols[c].work;
			int m = flush ? cols[c].nflush : cols[c].nwork;
			double wall = phases_mean(s, idx, m, pv_wall, 0);
			double v = phases_mean(s, idx, m, rows[r].get, rows[r].arg);

			tbl_set(t, 1 + 2 * c, "%s", m ? ns_str(a, sizeof(a), v) : "-");
			tbl_set(t, 2 + 2 * c, "%s", m ? pct_str(b, sizeof(b), v, wall) : "");
		}
		if (rows[r].get != pv_bucket)
			continue;
		if (rows[r].arg == WB_IOWAIT || rows[r].arg == WB_OTHER)
			side_fuse_parts(t, s, cols, n, flush, rows[r].arg, compact);
	}
	return notes;
}

static void side_total_row(struct table *t, const struct session_result *s,
			   const struct column *cols, int n)
{
	char a[32];

	tbl_row(t);
	tbl_set(t, 0, "total (work+flush) wall");
	for (int c = 0; c < n; c++) {
		double w = phases_mean(s, cols[c].work, cols[c].nwork, pv_wall, 0) +
			   phases_mean(s, cols[c].flush, cols[c].nflush, pv_wall, 0);

		tbl_set(t, 1 + 2 * c, "%s", ns_str(a, sizeof(a), w));
	}
}

/* "12.3" MiB/s, "1,234" IOPS, "1.20 ms" p99, "5,678" files/s */
static char *headline_str(char *buf, size_t n, enum headline_kind k, double v)
{
	if (k == HL_MIBS)
		snprintf(buf, n, "%.1f", v);
	else if (k == HL_P99)
		ns_str(buf, n, v);
	else
		fmt_count(buf, n, (uint64_t)(v + 0.5));
	return buf;
}

/* The workload's own headline figures (from its facts), one row each; first = index of cols[0]. */
static void side_headlines(struct table *t, const struct session_summary *sum, int first, int n)
{
	char a[32];

	for (int k = 0; sum && k < sum->nhead; k++) {
		const struct headline *h = &sum->head[k];

		tbl_row(t);
		tbl_set(t, 0, "%s", h->label);
		for (int c = 0; c < n; c++)
			tbl_set(t, 1 + 2 * c, "%s", h->value[first + c] >= 0 ?
				headline_str(a, sizeof(a), h->kind, h->value[first + c]) : "-");
	}
}

/* The compact flush block: the flush's wall and its I/O wait (share of the flush). */
static void side_flush_compact(struct table *t, const struct session_result *s,
			       const struct column *cols, int n)
{
	char a[32], b[32];

	tbl_row(t);
	tbl_set(t, 0, "flush (sync) wall");
	for (int c = 0; c < n; c++) {
		double fl = phases_mean(s, cols[c].flush, cols[c].nflush, pv_wall, 0);

		tbl_set(t, 1 + 2 * c, "%s", cols[c].nflush ? ns_str(a, sizeof(a), fl) : "-");
	}
	tbl_row(t);
	tbl_set(t, 0, "  of it I/O wait");
	for (int c = 0; c < n; c++) {
		double fl = phases_mean(s, cols[c].flush, cols[c].nflush, pv_wall, 0);
		double io = phases_mean(s, cols[c].flush, cols[c].nflush, pv_bucket, WB_IOWAIT);

		tbl_set(t, 1 + 2 * c, "%s", cols[c].nflush ? ns_str(a, sizeof(a), io) : "-");
		tbl_set(t, 2 + 2 * c, "%s", cols[c].nflush ? pct_str(b, sizeof(b), io, fl) : "");
	}
}

static void side_table(FILE *out, const struct session_result *s, const struct column *cols, int n,
		       int with_flush, int compact)
{
	struct table *t = tbl_new(1 + 2 * n);
	const struct session_summary *sum = s->summary;
	int notes;

	if (!t) {
		fprintf(out, "  (side-by-side view skipped: out of memory)\n");
		return;
	}
	tbl_row(t);
	for (int c = 0; c < n; c++) {
		tbl_set(t, 1 + 2 * c, "%s", cols[c].name);
		tbl_set(t, 2 + 2 * c, "%% wall");
	}
	side_headlines(t, sum, sum ? (int)(cols - sum->cols) : 0, n);
	notes = side_block(t, s, cols, n, 0, compact);
	if (with_flush && compact) {
		side_flush_compact(t, s, cols, n);
		side_total_row(t, s, cols, n);
	} else if (with_flush) {
		tbl_section(t, "flush (sync)");
		notes |= side_block(t, s, cols, n, 1, 0);
		side_total_row(t, s, cols, n);
	}
	tbl_print(out, t, "  ");
	print_part_notes(out, notes);
	free(t);
}

static void print_runs(FILE *out, const struct session_result *s, const struct column *cols,
		       int ncols)
{
	char a[32], b[32], c[32];
	int repeated = 0;

	for (int i = 0; i < ncols; i++) {
		struct summary w;

		if (cols[i].nwork < 2 ||
		    phases_summary(s, cols[i].work, cols[i].nwork, pv_wall, 0, &w) < 0)
			continue;
		repeated = 1;
		fprintf(out, "  %s: runs: %d, min/median/max wall %s / %s / %s\n", cols[i].name, w.n,
			ns_str(a, sizeof(a), w.min), ns_str(b, sizeof(b), w.median),
			ns_str(c, sizeof(c), w.max));
	}
	if (repeated)
		fprintf(out, "  (repeated columns show trimmed means: with 3 or more runs the best and "
			     "the worst are dropped; their rows need not add up exactly)\n");
}

static void print_side_by_side(FILE *out, const struct session_result *s, const struct column *cols,
			       int ncols, int compact)
{
	int with_flush = any_flush(cols, ncols);

	if (ncols > 1)
		fprintf(out, "\n== side by side: where the wall time went ==\n");
	else
		fprintf(out, "\n== where the wall time went ==\n");
	for (int c = 0; c < ncols; c += SIDE_COLS_PER_TABLE) {
		int n = ncols - c < SIDE_COLS_PER_TABLE ? ncols - c : SIDE_COLS_PER_TABLE;

		if (c > 0)
			fputc('\n', out);
		side_table(out, s, cols + c, n, with_flush, compact);
	}
	print_runs(out, s, cols, ncols);
}

/* ---- One phase ---- */

static void print_phase_title(FILE *out, const struct phase_result *p)
{
	fprintf(out, "\n== %s (%s phase", p->name, p->kind == PHASE_FLUSH ? "flush" : "work");
	if (p->column[0] && strcmp(p->column, p->name) != 0)
		fprintf(out, ", column %s", p->column);
	fprintf(out, "): exit status %d", p->status);
	if (p->status > 128 && p->status < 128 + 65)
		fprintf(out, " (killed by signal %d)", p->status - 128);
	fprintf(out, "%s ==\n", p->partial ? ", PARTIAL (interrupted)" : "");
}

static void print_wall_notes(FILE *out, const struct phase_result *p)
{
	double wall = (double)wall_ns(&p->wall), sum = (double)wall_sum_ns(&p->wall);
	double un = (double)p->wall.unattributed_ns, diff = sum - wall;
	char a[32], b[32], c[32];

	if (wall > 0 && un / wall >= RESIDUAL_WARN)
		fprintf(out, "  ! unattributed is %s of wall (2%% or more): no task state was known "
			     "for that time\n", pct_str(a, sizeof(a), un, wall));
	if (wall > 0 && (diff > wall * 0.001 || -diff > wall * 0.001))
		fprintf(out, "  ! the buckets add up to %s, not the wall %s (%s)\n",
			ns_str(a, sizeof(a), sum), ns_str(b, sizeof(b), wall),
			pct_str(c, sizeof(c), diff, wall));
}

/* Sub-rows of one phase's bucket row: the user bucket's parts by samples (those with samples, and
 * user code), the FUSE waits in a wait bucket. Returns NOTE_* flags. */
static int phase_sub_rows(struct table *t, const struct phase_result *p, int bucket, double wall)
{
	struct fuse_part parts[FUSE_PARTS_MAX];
	struct user_part u;
	int notes = 0, np;
	char a[32], b[32];

	for (int k = 0; bucket == WB_USER && k < CC_OUTSIDE; k++) {
		wall_user_part_of(p, k, &u);
		if (!u.known || (!u.samples && k != CC_USER))
			continue;
		tbl_row(t);
		tbl_set(t, 0, "  %s", cpu_class_label(k));
		notes |= user_part_cells(t, 1, &u, wall);
	}
	if (bucket != WB_IOWAIT && bucket != WB_OTHER)
		return notes;
	np = wall_fuse_parts(p, parts, FUSE_PARTS_MAX);
	for (int k = 0; k < np; k++) {
		if (parts[k].bucket != bucket)
			continue;
		tbl_row(t);
		tbl_set(t, 0, "  %s", parts[k].label);
		tbl_set(t, 1, "%s", ns_str(a, sizeof(a), parts[k].ns));
		tbl_set(t, 2, "%s", pct_str(b, sizeof(b), parts[k].ns, wall));
	}
	return notes;
}

/* The phase's headline user/kernel split (cpu_split.h), one line above its tracepoint view. */
static void print_cpu_split_line(FILE *out, const struct phase_result *p)
{
	struct cpu_split cs;
	char a[64], b[32], c[64], d[32];

	cpu_split_of(p, &cs);
	if (cpu_split_shown(&cs))
		fprintf(out, "  user CPU %s (%s), kernel CPU %s (%s)%s\n",
			est_str(a, sizeof(a), cs.user_ns, cs.err_ns, cs.state == CPU_SPLIT_SAMPLED),
			pct_str(b, sizeof(b), cs.user_ns, cs.wall_ns),
			est_str(c, sizeof(c), cs.kernel_ns, cs.err_ns, cs.state == CPU_SPLIT_SAMPLED),
			pct_str(d, sizeof(d), cs.kernel_ns, cs.wall_ns),
			cs.state == CPU_SPLIT_SAMPLED ? ": user code and all kernel work, by CPU samples"
						     : "");
	else
		fprintf(out, "  user/kernel not split: %s CPU samples, ~%s needed for \u00b1%.0f points "
			     "of the wall (--freq)\n", fmt_count(a, sizeof(a), cs.samples),
			fmt_count(b, sizeof(b), (uint64_t)(cs.needed_samples + 0.5)),
			100 * CPU_SPLIT_MAX_ERR);
}

static void print_wall_view(FILE *out, const struct phase_result *p)
{
	struct wall_row rows[WALL_ROWS];
	int nrows = wall_rows(rows, p->lite, 0);
	double wall = (double)wall_ns(&p->wall);
	struct table *t = tbl_new(3);
	int notes = 0;
	char a[32], b[32];

	fprintf(out, "wall view\n");
	if (!p->lite) /* --lite: the on-CPU row's "~" parts below are the split */
		print_cpu_split_line(out, p);
	if (!t)
		return;
	tbl_row(t);
	tbl_set(t, 1, "time");
	tbl_set(t, 2, "%% wall");
	for (int r = 0; r < nrows; r++) {
		double v = rows[r].get(p, rows[r].arg);

		if (rows[r].get == pv_lite) {
			if (v <= 0)
				continue;
			notes |= NOTE_LITE;
		}
		tbl_row(t);
		tbl_set(t, 0, "%s", rows[r].label);
		tbl_set(t, 1, "%s", ns_str(a, sizeof(a), v));
		tbl_set(t, 2, "%s", pct_str(b, sizeof(b), v, wall));
		if (rows[r].get == pv_bucket)
			notes |= phase_sub_rows(t, p, rows[r].arg, wall);
	}
	tbl_print(out, t, "  ");
	print_part_notes(out, notes);
	free(t);
	print_wall_notes(out, p);
}

static char *fact_value(char *buf, size_t n, const struct fact *f)
{
	double v = f->value;

	if (strcmp(f->unit, "B") == 0 && v >= 0)
		return fmt_bytes(buf, n, (uint64_t)(v + 0.5));
	if (strcmp(f->unit, "B/s") == 0)
		return fmt_rate(buf, n, v);
	if (strcmp(f->unit, "s") == 0 && v >= 0)
		return ns_str(buf, n, v * 1e9);
	if (strcmp(f->unit, "ns") == 0 && v >= 0)
		return ns_str(buf, n, v);
	if (v == (double)(int64_t)v && v >= 0 && v < 9.2e18)
		fmt_count(buf, n, (uint64_t)v);
	else
		snprintf(buf, n, "%.4g", v);
	if (f->unit[0]) {
		size_t len = strlen(buf);

		snprintf(buf + len, n - len, " %s", f->unit);
	}
	return buf;
}

static void print_facts(FILE *out, const struct phase_result *p)
{
	char v[64];

	if (p->facts.n <= 0)
		return;
	fprintf(out, "facts\n");
	for (int i = 0; i < p->facts.n && i < FACTS_MAX; i++) {
		const struct fact *f = &p->facts.f[i];

		fprintf(out, "  %s: %s\n", f->label[0] ? f->label : f->key, fact_value(v, sizeof(v), f));
	}
}

static void print_trace_counts(FILE *out, const struct phase_result *p)
{
	char a[32], b[32], c[32];

	fprintf(out, "events: %s (out of order: %s, for unknown tasks: %s)\n",
		fmt_count(a, sizeof(a), p->events), fmt_count(b, sizeof(b), p->out_of_order),
		fmt_count(c, sizeof(c), p->unknown_task));
	if (p->tasks_left)
		fprintf(out, "  ! %s tree tasks were still alive when the phase was closed\n",
			fmt_count(a, sizeof(a), p->tasks_left));
}

/* "+5.7%" (or, below CPU_CHECK_MIN_NS of reference, "+1.2 ms"): traced against a witness */
static void cpu_diff(char *c, size_t n, double tree, double ref)
{
	snprintf(c, n, "n/a");
	if (ref >= CPU_CHECK_MIN_NS) {
		snprintf(c, n, "%s", tree >= ref ? "+" : "");
		fmt_pct(c + strlen(c), n - strlen(c), (tree - ref) / ref);
	} else if (ref > 0) { /* a percentage of a millisecond says nothing: give the difference */
		snprintf(c, n, "%s", tree >= ref ? "+" : "-");
		ns_str(c + 1, n - 1, tree >= ref ? tree - ref : ref - tree);
	}
}

/* The cross-check's alarm: the traced CPU this far from the kernel's accounting (and at least
 * CPU_CHECK_ALARM_NS apart) says the trace missed something (hidden switch-outs, lost events). */
#define CPU_CHECK_ALARM 0.25
#define CPU_CHECK_ALARM_NS 20e6

static void print_cpu_check(FILE *out, const struct phase_result *p)
{
	double tree = (double)phase_cpu_ns(p);
	double ru = (double)p->rusage_user_ns + (double)p->rusage_sys_ns;
	char a[32], b[32], c[32], d[32], e[32];
	/* run: getrusage of the launched tree; attach -p: the processes' /proc/PID/stat ticks over the
	 * window; attach -a / --cgroup: none */
	const char *src = !p->target[0] ? "getrusage(RUSAGE_CHILDREN) user+sys" :
			  !strncmp(p->target, "pid ", 4) ? "/proc/PID/stat utime+stime (whole ticks)" :
			  NULL;

	if (!src) {
		fprintf(out, "CPU cross-check: traced user+kernel %s; no independent figure for %s "
			     "(attach -p reads the processes' /proc/PID/stat)\n",
			ns_str(a, sizeof(a), tree), p->target);
		return;
	}
	cpu_diff(c, sizeof(c), tree, ru);
	fprintf(out, "CPU cross-check: traced user+kernel %s, %s %s, difference %s",
		ns_str(a, sizeof(a), tree), src, ns_str(b, sizeof(b), ru), c);
	if (p->task_clock_ok) {
		cpu_diff(e, sizeof(e), tree, (double)p->task_clock_ns);
		fprintf(out, "; perf task-clock %s, difference %s",
			ns_str(d, sizeof(d), (double)p->task_clock_ns), e);
	}
	fprintf(out, "\n  (getrusage less the gated child's CPU before the release. Traced times%s are "
		     "timestamps and include hypervisor steal time, which the kernel's accounting "
		     "excludes; on a busy CPU that accounting also charges a woken task from its wakeup, "
		     "part of its run-queue wait%s: docs/ACCURACY.md)\n",
		p->task_clock_ok ? " and task-clock" : "",
		p->task_clock_ok ? "; task-clock ends a task's count before its exit frees its memory" : "");
	if (fabs(tree - ru) > CPU_CHECK_ALARM * ru && fabs(tree - ru) >= CPU_CHECK_ALARM_NS)
		fprintf(out, "  ! the traced CPU is %s %s the kernel's own accounting: the trace missed "
			     "switches (lost events, switch-outs the kernel does not trace) or %s; the wall "
			     "and work views are off by as much\n", c, tree > ru ? "above" : "below",
			src[0] == '/' ? "the ticks are too coarse for so little CPU" :
					"processes outside the tree were reaped in it");
}

/* ---- Work view ---- */

static uint64_t comm_cpu(const struct comm_stats *c)
{
	return c->state_ns[IOWHY_TS_USER] + c->state_ns[IOWHY_TS_KERNEL];
}

static int cmp_comm_cpu(const void *a, const void *b)
{
	const struct comm_stats *x = *(const struct comm_stats *const *)a;
	const struct comm_stats *y = *(const struct comm_stats *const *)b;
	uint64_t cx = comm_cpu(x), cy = comm_cpu(y);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strncmp(x->comm, y->comm, sizeof(x->comm));
}

static void comm_row(struct table *t, const struct comm_stats *c)
{
	char name[IOWHY_COMM_LEN + 1], a[32];

	/* comm may lack a terminator when all 16 bytes are used */
	memcpy(name, c->comm, IOWHY_COMM_LEN);
	name[IOWHY_COMM_LEN] = '\0';
	clean_text(name, sizeof(name), name);
	tbl_row(t);
	tbl_set(t, 0, "%s", name);
	tbl_set(t, 1, "%s", fmt_count(a, sizeof(a), c->tasks));
	tbl_set(t, 2, "%s", fmt_count(a, sizeof(a), c->execs));
	tbl_set(t, 3, "%s", fmt_count(a, sizeof(a), c->exits));
	tbl_set(t, 4, "%s", fmt_ns(a, sizeof(a), c->state_ns[IOWHY_TS_USER]));
	tbl_set(t, 5, "%s", fmt_ns(a, sizeof(a), c->state_ns[IOWHY_TS_KERNEL]));
	tbl_set(t, 6, "%s", fmt_ns(a, sizeof(a), c->state_ns[IOWHY_TS_RUNQ]));
	tbl_set(t, 7, "%s", fmt_ns(a, sizeof(a), c->state_ns[IOWHY_TS_DWAIT]));
	tbl_set(t, 8, "%s", fmt_ns(a, sizeof(a), c->state_ns[IOWHY_TS_SWAIT]));
	tbl_set(t, 9, "%s", fmt_count(a, sizeof(a), c->vol_switches));
	tbl_set(t, 10, "%s", fmt_count(a, sizeof(a), c->invol_switches));
	tbl_set(t, 11, "%s", fmt_count(a, sizeof(a), c->faults));
}

static void comm_header(struct table *t)
{
	static const char *const head[] = { "comm",	  "tasks",	"execs",     "exits",
					    "user",	  "kernel",	"run-queue", "I/O wait",
					    "other wait", "vol sw",	"invol sw",  "faults" };

	tbl_row(t);
	for (int c = 0; c < 12; c++)
		tbl_set(t, c, "%s", head[c]);
}

static void print_work_view(FILE *out, const struct phase_result *p)
{
	const struct comm_stats **order;
	struct table *t;
	size_t shown;
	char a[32];

	fprintf(out, "work view (task time per comm, by CPU; user = on a CPU outside syscalls, which "
		     "includes the page faults counted here)\n");
	if (p->ncomms == 0) {
		fprintf(out, "  (no tasks)\n");
		return;
	}
	order = calloc(p->ncomms, sizeof(*order));
	t = tbl_new(12);
	if (order && t) {
		for (size_t i = 0; i < p->ncomms; i++)
			order[i] = &p->comms[i];
		qsort(order, p->ncomms, sizeof(*order), cmp_comm_cpu);
		comm_header(t);
		shown = p->ncomms < TOP_COMMS ? p->ncomms : TOP_COMMS;
		for (size_t i = 0; i < shown; i++)
			comm_row(t, order[i]);
		tbl_print(out, t, "  ");
		if (shown < p->ncomms)
			fprintf(out, "  ... %s more comms\n",
				fmt_count(a, sizeof(a), p->ncomms - shown));
	}
	free(order);
	free(t);
}

/* ---- Syscall table ---- */

static void sys_header(struct table *t)
{
	static const char *const head[] = { "syscall", "count", "total", "avg",
					    "on-CPU",  "p50",	"p99",	 "max", "bytes" };

	tbl_row(t);
	for (int c = 0; c < 9; c++)
		tbl_set(t, c, "%s", head[c]);
}

static void sys_row(struct table *t, unsigned nr, const struct iowhy_sys_stat *st)
{
	char a[32];
	uint64_t avg = st->count ? st->total_ns / st->count : 0;

	tbl_row(t);
	tbl_set(t, 0, "%s", syscall_name(nr));
	tbl_set(t, 1, "%s", fmt_count(a, sizeof(a), st->count));
	tbl_set(t, 2, "%s", fmt_ns(a, sizeof(a), st->total_ns));
	tbl_set(t, 3, "%s", fmt_ns(a, sizeof(a), avg));
	tbl_set(t, 4, "%s", pct_str(a, sizeof(a), (double)sys_oncpu_ns(st), (double)st->total_ns));
	tbl_set(t, 5, "%s", fmt_ns(a, sizeof(a),
				   hist_percentile(st->hist, IOWHY_HIST_SLOTS, 50, st->max_ns)));
	tbl_set(t, 6, "%s", fmt_ns(a, sizeof(a),
				   hist_percentile(st->hist, IOWHY_HIST_SLOTS, 99, st->max_ns)));
	tbl_set(t, 7, "%s", fmt_ns(a, sizeof(a), st->max_ns));
	tbl_set(t, 8, "%s", syscall_returns_bytes(nr) ? fmt_bytes(a, sizeof(a), st->ret_sum) : "-");
}

static void print_rest(FILE *out, const struct phase_result *p, const unsigned *nrs, int from,
		       int n)
{
	uint64_t count = 0, total = 0;
	char a[32], b[32], c[32];

	for (int i = from; i < n; i++) {
		count += p->sys[nrs[i]].count;
		total += p->sys[nrs[i]].total_ns;
	}
	fprintf(out, "  ... %s more syscalls: %s calls, %s\n",
		fmt_count(a, sizeof(a), (uint64_t)(n - from)), fmt_count(b, sizeof(b), count),
		fmt_ns(c, sizeof(c), total));
}

static void print_syscalls(FILE *out, const struct phase_result *p)
{
	unsigned nrs[IOWHY_NR_SLOTS];
	int n = phase_syscalls_by_total(p, nrs);
	int shown = n < TOP_SYSCALLS ? n : TOP_SYSCALLS;
	struct table *t;

	if (p->lite) {
		fprintf(out, "syscalls: not available (--lite: no syscall probes)\n");
		return;
	}
	fprintf(out, "syscalls (top %d by total time; on-CPU = share of the total spent on a CPU)\n",
		TOP_SYSCALLS);
	if (n == 0) {
		fprintf(out, "  (none)\n");
		return;
	}
	t = tbl_new(9);
	if (!t)
		return;
	sys_header(t);
	for (int i = 0; i < shown; i++)
		sys_row(t, nrs[i], &p->sys[nrs[i]]);
	tbl_print(out, t, "  ");
	free(t);
	if (shown < n)
		print_rest(out, p, nrs, shown, n);
}

/* "I/O wait by device: loop0 3.21 s (99.6%), none in flight 12.0 ms (0.4%)" when there was any. */
static void print_iowait_by_disk(FILE *out, const struct phase_result *p,
				 const char (*names)[32])
{
	const uint64_t *by = p->wall.iowait_by_disk;
	double total = (double)p->wall.bucket_ns[WB_IOWAIT];
	const char *sep = "";
	char a[32], b[32];

	if (total <= 0)
		return;
	fprintf(out, "  I/O wait by device (the disk whose completion woke it, else its file's, else in flight): ");
	for (int i = 0; i <= IOWHY_DISK_SLOTS; i++) {
		if (!by[i])
			continue;
		fprintf(out, "%s%s %s (%s)", sep,
			i < IOWHY_DISK_SLOTS ? (names[i][0] ? names[i] : "?") : "none in flight",
			ns_str(a, sizeof(a), (double)by[i]), pct_str(b, sizeof(b), (double)by[i], total));
		sep = ", ";
	}
	fprintf(out, "\n");
}

static void print_phase(FILE *out, const struct phase_result *p, const char (*disk_names)[32],
			const struct phase_summary *ps)
{
	print_phase_title(out, p);
	if (ps && ps->wall_unmeasured) {
		char a[32], b[32];

		fprintf(out, "wall view and work view: not measured (%s events lost while the phase ran; "
			     "its wall %s; the syscall counts and bytes below are exact)\n",
			fmt_count(a, sizeof(a), ps->lost), ns_str(b, sizeof(b), (double)wall_ns(&p->wall)));
	} else {
		print_wall_view(out, p);
		print_iowait_by_disk(out, p, disk_names);
	}
	print_facts(out, p);
	print_trace_counts(out, p);
	if (!ps || !ps->wall_unmeasured) {
		print_cpu_check(out, p);
		print_work_view(out, p);
	}
	print_syscalls(out, p);
	if (p->io && ps)
		io_report_text(out, p, ps);
	cpu_report_text(out, p);
	fuse_report_text(out, p);
}

/* One explanation line, word-wrapped at EXPLAIN_WIDTH with an indented continuation. */
static void print_wrapped(FILE *out, char *line)
{
	size_t col = 2;
	int line_start = 1;
	char *word, *save = NULL;

	fputs("  ", out);
	for (word = strtok_r(line, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		size_t w = text_width(word);

		if (!line_start && col + 1 + w > EXPLAIN_WIDTH) {
			fputs("\n    ", out);
			col = 4;
			line_start = 1;
		}
		if (!line_start) {
			fputc(' ', out);
			col++;
		}
		fputs(word, out);
		col += w;
		line_start = 0;
	}
	fputc('\n', out);
}

static void print_explanation(FILE *out, const struct session_summary *sum)
{
	char line[SENTENCE_LEN];

	if (!sum)
		return;
	fprintf(out, "\n== explanation ==\n");
	for (int i = 0; i < sum->expl.n; i++) {
		snprintf(line, sizeof(line), "%s", sum->expl.s[i].text);
		print_wrapped(out, line);
	}
}

/* The columns of the summary (in the session's order). */
static const struct column *summary_cols(const struct session_result *s, int *n)
{
	*n = s->summary ? s->summary->ncols : 0;
	return s->summary ? s->summary->cols : NULL;
}

/* -v: the header, the side-by-side view, every phase in full, the explanation. */
static void report_detail(FILE *out, const struct session_result *s)
{
	int ncols;
	const struct column *cols = summary_cols(s, &ncols);

	print_header(out, s);
	if (count_work_phases(s) >= 2 && cols)
		print_side_by_side(out, s, cols, ncols, 0);
	for (int i = 0; i < s->nphases; i++) {
		print_phase(out, &s->phases[i], s->disk_names,
			    s->summary ? &s->summary->phases[i] : NULL);
		report_attach_text(out, &s->phases[i], s->disk_names, 1);
	}
	print_explanation(out, s->summary);
}

/* The default: the header, the compact wall table with the headline figures, one line per disk,
 * the explanation. -q (brief): the table and the explanation, and warnings if any. */
static void report_short(FILE *out, const struct session_result *s, int brief)
{
	int ncols;
	const struct column *cols = summary_cols(s, &ncols);

	if (brief) {
		print_warnings(out, s);
		if (s->partial)
			fprintf(out, "*** PARTIAL (interrupted) ***\n");
	} else {
		print_header(out, s);
	}
	if (cols && ncols)
		print_side_by_side(out, s, cols, ncols, 1);
	if (!brief)
		io_report_disks_text(out, s->summary);
	for (int i = 0; i < s->nphases; i++)
		report_attach_text(out, &s->phases[i], s->disk_names, brief ? -1 : 0);
	print_explanation(out, s->summary);
	if (!brief)
		fprintf(out, "\n(-v: every phase in full: wall view, work view, syscalls, devices and "
			     "kernel I/O)\n");
}

void report_text(FILE *out, const struct session_result *s, const struct report_options *ro)
{
	int detail = ro ? ro->detail : 0;

	if (detail > 0)
		report_detail(out, s);
	else
		report_short(out, s, detail < 0);
	fflush(out);
}
