// SPDX-License-Identifier: GPL-2.0
/*
 * The closing explanation. Every sentence is built from the numbers of the session: the biggest
 * buckets of a single column, or, with several columns, the bucket (or kernel group) that differs
 * most between the slowest and the fastest, and the syscalls that carry that difference. Repeated
 * runs of a column are summarised by their trimmed mean.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include "result.h"
#include "explain.h"
#include "fuse_explain.h"
#include "cpu_explain.h"
#include "columns.h"
#include "syscalls.h"
#include "units.h"
#include "io_model.h"
#include "summary.h"
#include "cpu_split.h"
#include "wall_parts.h"
#include "cpu_samples.h"

#define NOTABLE 0.10          /* share of the wall (or of a difference) worth a sentence */
#define RUNQ_TASK_NOTABLE 0.20 /* run-queue share of the tree's task time worth a sentence */
#define RESIDUAL_NOTABLE 0.02 /* unattributed share worth a sentence */
#define SAME_WALL 0.01        /* walls closer than this share are "about the same" */
#define MAX_SYSCALLS 3        /* syscalls named for one difference */
#define NOISE_SINGLE 0.10     /* single runs closer than this share are within noise */

/* ---- Output: structured sentences; a newline in the text closes the current one ---- */

struct text {
	struct explanation *e;
	const struct phase_summary *ps; /* per phase, for the flush phases' I/O; may be NULL */
	int open;                       /* e->s[e->n - 1] is being written */
};

/* The sentence being written, opened when there is none; NULL when the explanation is full. */
static struct sentence *cur(struct text *t)
{
	if (!t->open) {
		if (t->e->n >= EXPLAIN_MAX)
			return NULL;
		memset(&t->e->s[t->e->n], 0, sizeof(t->e->s[0]));
		snprintf(t->e->s[t->e->n++].kind, sizeof(t->e->s[0].kind), "note");
		t->open = 1;
	}
	return &t->e->s[t->e->n - 1];
}

static void append(struct text *t, const char *str)
{
	for (; *str; str++) {
		struct sentence *se;
		size_t len;

		if (*str == '\n') {
			t->open = 0;
			continue;
		}
		se = cur(t);
		if (!se)
			return;
		len = strlen(se->text);
		if (len + 1 < sizeof(se->text)) {
			se->text[len] = *str;
			se->text[len + 1] = '\0';
		}
	}
}

__attribute__((format(printf, 2, 3)))
static void say(struct text *t, const char *fmt, ...)
{
	char buf[SENTENCE_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	append(t, buf);
}

static void end_line(struct text *t)
{
	say(t, "\n");
}

/* The kind of the current sentence. */
static void kind(struct text *t, const char *k)
{
	struct sentence *se = cur(t);

	if (se)
		snprintf(se->kind, sizeof(se->kind), "%s", k);
}

/* A number the current sentence states. */
static void num(struct text *t, const char *key, double v)
{
	struct sentence *se = cur(t);

	if (!se || se->nnums >= SENTENCE_NUMS)
		return;
	snprintf(se->num[se->nnums].key, sizeof(se->num[0].key), "%s", key);
	se->num[se->nnums++].value = v;
}

int sentence_get(const struct sentence *se, const char *key, double *v)
{
	for (int i = 0; i < se->nnums; i++)
		if (!strcmp(se->num[i].key, key)) {
			*v = se->num[i].value;
			return 1;
		}
	return 0;
}

void explanation_join(const struct explanation *e, char *buf, size_t n)
{
	size_t len = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < e->n && len + 1 < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i ? "\n" : "", e->s[i].text);

		if (w < 0)
			break;
		len += (size_t)w < n - len ? (size_t)w : n - len - 1;
	}
}

/* ---- Numbers of a column: trimmed means over its work (or flush) phases ---- */

static double work_mean(const struct session_result *s, const struct column *c, phase_value_fn get,
			int arg)
{
	return phases_mean(s, c->work, c->nwork, get, arg);
}

static double flush_mean(const struct session_result *s, const struct column *c,
			 phase_value_fn get, int arg)
{
	return phases_mean(s, c->flush, c->nflush, get, arg);
}

static const char *ns(char *buf, double v)
{
	return fmt_ns(buf, 32, v > 0 ? (uint64_t)(v + 0.5) : 0);
}

static const char *pct(char *buf, double part, double whole)
{
	return fmt_pct(buf, 32, whole > 0 ? part / whole : 0);
}

static const char *count(char *buf, double v)
{
	return fmt_count(buf, 32, v > 0 ? (uint64_t)(v + 0.5) : 0);
}

/* ---- What a wall difference can be made of: buckets, with kernel CPU split by group ---- */

enum { IT_USER, IT_GROUP, IT_RUNQ = IT_GROUP + SG_COUNT, IT_IOWAIT, IT_OTHER, IT_UNATTR, IT_COUNT };

static int item_bucket(int it)
{
	if (it == IT_USER)
		return WB_USER;
	if (it < IT_RUNQ)
		return WB_KERNEL;
	if (it == IT_RUNQ)
		return WB_RUNQ;
	if (it == IT_IOWAIT)
		return WB_IOWAIT;
	if (it == IT_OTHER)
		return WB_OTHER;
	return -1;
}

/* Kernel group of an item, -1 for the others. */
static int item_group(int it)
{
	return it >= IT_GROUP && it < IT_RUNQ ? it - IT_GROUP : -1;
}

static double item_value(const struct session_result *s, const struct column *c, int it)
{
	if (item_group(it) >= 0)
		return work_mean(s, c, pv_group, item_group(it));
	if (it == IT_UNATTR)
		return work_mean(s, c, pv_unattributed, 0);
	return work_mean(s, c, pv_bucket, item_bucket(it));
}

/* A wall bucket's words; under --lite the user bucket holds all on-CPU time (no syscall probes).
 * The user and kernel buckets are the tracepoint view's (CPU outside and inside syscalls), except
 * in the first sentence of a column with a reliable split (col_split), which says user and kernel
 * CPU by the true split. */
static const char *bucket_label(const struct session_result *s, int b)
{
	if (s->lite && b == WB_USER)
		return "on-CPU time";
	static const char *const traced[WB_COUNT] = {
		[WB_USER] = "CPU outside syscalls", [WB_KERNEL] = "kernel CPU in syscalls",
	};

	if (b == WB_USER || b == WB_KERNEL)
		return traced[b];
	static const char *const labels[WB_COUNT] = {
		[WB_USER] = "user CPU", [WB_KERNEL] = "kernel CPU", [WB_RUNQ] = "run-queue wait",
		[WB_IOWAIT] = "I/O wait", [WB_OTHER] = "other wait",
	};

	return b >= 0 && b < WB_COUNT ? labels[b] : "unattributed time";
}

static const char *item_label(const struct session_result *s, char *buf, size_t n, int it)
{
	if (item_group(it) >= 0)
		snprintf(buf, n, "kernel CPU in %s", sys_group_name((enum sys_group)item_group(it)));
	else
		snprintf(buf, n, "%s", bucket_label(s, item_bucket(it)));
	return buf;
}

/* Task state of the work view that matches a wall bucket. */
static int bucket_state(int b)
{
	static const int states[WB_COUNT] = {
		[WB_USER] = IOWHY_TS_USER, [WB_KERNEL] = IOWHY_TS_KERNEL, [WB_RUNQ] = IOWHY_TS_RUNQ,
		[WB_IOWAIT] = IOWHY_TS_DWAIT, [WB_OTHER] = IOWHY_TS_SWAIT,
	};

	return states[b];
}

/* ---- Syscalls behind a bucket ---- */

/* Syscall in effect for the largest share of `bucket` (limited to `group` when >= 0), over the
 * phases idx[0..n); MODEL_NR_NONE when it is time outside syscalls. *ns_out gets its time. */
static unsigned top_nr(const struct session_result *s, const int *idx, int n, int bucket, int group,
		       double *ns_out)
{
	unsigned best = MODEL_NR_NONE;
	double best_v = -1;

	for (unsigned nr = 0; nr <= MODEL_NR_NONE; nr++) {
		double v;

		if (group >= 0 && (nr == MODEL_NR_NONE || (int)syscall_group(nr) != group))
			continue;
		v = phases_mean(s, idx, n, pv_by_nr, BY_NR_ARG(bucket, nr));
		if (v > best_v) {
			best = nr;
			best_v = v;
		}
	}
	*ns_out = best_v > 0 ? best_v : 0;
	return best;
}

static void say_inside(struct text *t, unsigned nr)
{
	if (nr == MODEL_NR_NONE)
		say(t, "outside any syscall");
	else
		say(t, "inside %s", syscall_name(nr));
}

/* "100,000 openat at 12.1 µs" (or "100,000 calls at ..." when the name was just said): mean
 * count and mean latency of nr over a column's work phases. */
static void say_calls(struct text *t, const struct session_result *s, const struct column *c,
		      unsigned nr, int named)
{
	double calls = work_mean(s, c, pv_sys_count, (int)nr);
	double total = work_mean(s, c, pv_sys_total, (int)nr);
	const char *noun = calls >= 0.5 && calls < 1.5 ? "call" : "calls";
	char a[32], b[32];

	say(t, "%s %s at %s", count(a, calls), named ? noun : syscall_name(nr),
	    ns(b, calls > 0 ? total / calls : 0));
}

static void say_list_sep(struct text *t, int i, int n)
{
	if (i > 0)
		say(t, i == n - 1 ? " and " : ", ");
}

/* The work-view comm with the most task time in `state` in phase p, or NULL. */
static const struct comm_stats *top_comm(const struct phase_result *p, int state)
{
	const struct comm_stats *best = NULL;

	for (size_t i = 0; i < p->ncomms; i++)
		if (p->comms[i].state_ns[state] &&
		    (!best || p->comms[i].state_ns[state] > best->state_ns[state]))
			best = &p->comms[i];
	return best;
}

/* "most of it in dd (4.10 s of task time)", from the column's representative run. */
static void say_top_comm(struct text *t, const struct session_result *s, const struct column *c,
			 int bucket)
{
	int run = phases_median_run(s, c->work, c->nwork);
	const struct comm_stats *cs;
	char name[IOWHY_COMM_LEN + 1], a[32], b[32];

	if (run < 0 || bucket < 0)
		return;
	cs = top_comm(&s->phases[run], bucket_state(bucket));
	if (!cs)
		return;
	memcpy(name, cs->comm, IOWHY_COMM_LEN);
	name[IOWHY_COMM_LEN] = '\0';
	clean_text(name, sizeof(name), name);
	say(t, ", most of it in %s (%s of task time%s", name,
	    ns(a, (double)cs->state_ns[bucket_state(bucket)]),
	    bucket == WB_USER && !s->lite ? " outside syscalls" : "");
	/* user CPU includes page faults: say how many when the comm ran as many processes */
	if (bucket == WB_USER && cs->faults && cs->exits > 1)
		say(t, "; %s processes with %s page faults each",
		    fmt_count(a, sizeof(a), cs->exits), fmt_count(b, sizeof(b), cs->faults / cs->exits));
	say(t, ")");
}

/* ---- One column ---- */

static void say_kernel_detail(struct text *t, const struct session_result *s, const struct column *c)
{
	int g = 0;
	double gv, sv;
	unsigned nr;
	char a[32], b[32];

	for (int i = 1; i < SG_COUNT; i++)
		if (work_mean(s, c, pv_group, i) > work_mean(s, c, pv_group, g))
			g = i;
	gv = work_mean(s, c, pv_group, g);
	say(t, ", mostly %s (%s", sys_group_name((enum sys_group)g), ns(a, gv));
	nr = top_nr(s, c->work, c->nwork, WB_KERNEL, g, &sv);
	if (nr != MODEL_NR_NONE && sv > 0) {
		say(t, "; %s of it in %s: ", ns(b, sv), syscall_name(nr));
		say_calls(t, s, c, nr, 1);
	}
	say(t, ")");
}

/* With a split, kernel CPU whose largest part lies outside the syscalls (sampled): that part, and
 * the traced part inside them. Returns 0 when the traced part is the largest (say_kernel_detail
 * then says which group). */
static int say_kernel_outside(struct text *t, const struct session_result *s, const struct column *c,
			      const struct cpu_split *sp)
{
	struct user_part u;
	int best = -1;
	double best_v = sp->traced_kernel_ns;
	char a[32], b[32], d[32];

	for (int k = 0; k < CC_OUTSIDE; k++) {
		if (k == CC_USER)
			continue;
		wall_user_part(s, c->work, c->nwork, k, &u);
		if (u.known && u.ns > best_v) {
			best = k;
			best_v = u.ns;
		}
	}
	if (best < 0)
		return 0;
	wall_user_part(s, c->work, c->nwork, best, &u);
	say(t, ", most of it outside the syscalls' own code: %s (%s \u00b1 %s, sampled); %s inside "
	       "the syscalls (traced)", cpu_class_label(best), ns(a, u.ns), ns(b, u.err_ns),
	    ns(d, sp->traced_kernel_ns));
	return 1;
}

/* What the biggest bucket was made of: the kernel group and syscall, the syscall most of a wait
 * was spent in, or the comm with most of the user CPU. */
static void say_bucket_detail(struct text *t, const struct session_result *s,
			      const struct column *c, int bucket, const struct cpu_split *sp)
{
	double bv = work_mean(s, c, pv_bucket, bucket), sv;
	unsigned nr;

	if (bucket == WB_KERNEL && sp && say_kernel_outside(t, s, c, sp))
		return;
	if (bucket == WB_KERNEL) {
		say_kernel_detail(t, s, c);
		return;
	}
	nr = top_nr(s, c->work, c->nwork, bucket, -1, &sv);
	if (nr != MODEL_NR_NONE && sv >= 0.5 * bv) {
		say(t, ", mostly inside %s", syscall_name(nr));
		return;
	}
	if (bucket == WB_USER)
		say_top_comm(t, s, c, bucket);
}

/* A bucket's words in the first sentence: user and kernel CPU by the true split when the column
 * has one. */
static const char *split_label(const struct session_result *s, int split, int b)
{
	if (split && b == WB_USER)
		return "user CPU";
	if (split && b == WB_KERNEL)
		return "kernel CPU";
	return bucket_label(s, b);
}

/* " (an estimate from CPU samples, +- 4 points)" after a sampled user or kernel share. */
static void say_split_error(struct text *t, const struct cpu_split *sp)
{
	if (sp->state == CPU_SPLIT_SAMPLED && sp->wall_ns > 0)
		say(t, " (an estimate from %llu CPU samples, \u00b1 %.0f points)",
		    (unsigned long long)sp->samples, fmax(1, 100 * sp->err_ns / sp->wall_ns));
}

/* The column's headline user/kernel split, when it is reliable (cpu_split.h); not under --lite
 * (its on-CPU time is one bucket, split by lite_explain). */
static int col_split(const struct session_result *s, const struct column *c, struct cpu_split *sp)
{
	cpu_split_cols(s, c->work, c->nwork, sp);
	return !s->lite && cpu_split_shown(sp);
}

/* Buckets (unattributed included) in decreasing order of their mean over the column; with a split,
 * the user and kernel buckets hold user and kernel CPU by it. */
static void rank_buckets(const struct session_result *s, const struct column *c, int *order,
			 double *v)
{
	struct cpu_split sp;
	int split = col_split(s, c, &sp);

	for (int b = 0; b <= WB_COUNT; b++) {
		order[b] = b;
		v[b] = b < WB_COUNT ? work_mean(s, c, pv_bucket, b) : work_mean(s, c, pv_unattributed, 0);
	}
	if (split) {
		v[WB_USER] = sp.user_ns;
		v[WB_KERNEL] = sp.kernel_ns;
	}
	for (int i = 1; i <= WB_COUNT; i++)
		for (int j = i; j > 0 && v[order[j]] > v[order[j - 1]]; j--) {
			int tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
}

static void say_runs(struct text *t, const struct column *c)
{
	if (c->nwork > 1)
		say(t, " (trimmed mean of %d runs)", c->nwork);
}

static void say_biggest_buckets(struct text *t, const struct session_result *s,
				const struct column *c, double wall)
{
	int order[WB_COUNT + 1], others = 0;
	double v[WB_COUNT + 1];
	char a[32], b[32];

	struct cpu_split sp;
	int split = col_split(s, c, &sp);

	rank_buckets(s, c, order, v);
	kind(t, "column");
	num(t, "whole_ns", wall);
	num(t, "part_ns", v[order[0]]);
	say(t, "%s: %s of the %s wall", c->name, pct(a, v[order[0]], wall), ns(b, wall));
	say_runs(t, c);
	say(t, " was %s", split_label(s, split, order[0] < WB_COUNT ? order[0] : -1));
	if (split && (order[0] == WB_USER || order[0] == WB_KERNEL))
		say_split_error(t, &sp);
	if (order[0] < WB_COUNT)
		say_bucket_detail(t, s, c, order[0], split ? &sp : NULL);
	for (int i = 1; i <= WB_COUNT && v[order[i]] >= NOTABLE * wall; i++)
		say(t, "%s%s %s", others++ ? ", " : "; then ",
		    split_label(s, split, order[i] < WB_COUNT ? order[i] : -1), pct(a, v[order[i]], wall));
	say(t, ".");
	if (!split && !s->lite && v[WB_USER] >= NOTABLE * wall && sp.state != CPU_SPLIT_EXACT)
		say(t, " The CPU outside syscalls holds user code and kernel work (entry/exit, page "
		       "faults, interrupts); too few CPU samples (%s) to split it within %.0f points of "
		       "the wall: use --freq.", count(a, (double)sp.samples), 100 * CPU_SPLIT_MAX_ERR);
	end_line(t);
}

static void say_top_syscall(struct text *t, const struct session_result *s, const struct column *c)
{
	unsigned best = 0;
	double best_v = 0, oncpu;
	char a[32], b[32];

	for (unsigned nr = 0; nr < IOWHY_NR_SLOTS; nr++) {
		double v = work_mean(s, c, pv_sys_total, (int)nr);

		if (v > best_v) {
			best = nr;
			best_v = v;
		}
	}
	if (best_v <= 0)
		return;
	oncpu = work_mean(s, c, pv_sys_oncpu, (int)best);
	kind(t, "top_syscall");
	num(t, "whole_ns", best_v);
	num(t, "part_ns", oncpu);
	say(t, "The top syscall by total time was %s: ", syscall_name(best));
	say_calls(t, s, c, best, 1);
	say(t, " (%s in all, %s of it on a CPU).", ns(a, best_v),
	    pct(b, oncpu, best_v));
	end_line(t);
}

/* "; on vda for 95% of it" (or "with no workload I/O in flight"): the device most of the column's
 * I/O wait went to, when one slot holds at least half of it. */
static void say_iowait_device(struct text *t, const struct session_result *s, const int *idx,
			      int n, double io)
{
	double by[IOWHY_DISK_SLOTS + 1] = { 0 };
	int best = 0;
	char a[32];

	for (int i = 0; i < n; i++)
		for (int d = 0; d <= IOWHY_DISK_SLOTS; d++)
			by[d] += (double)s->phases[idx[i]].wall.iowait_by_disk[d] / n;
	for (int d = 1; d <= IOWHY_DISK_SLOTS; d++)
		if (by[d] > by[best])
			best = d;
	if (io <= 0 || by[best] < 0.5 * io)
		return;
	if (best == IOWHY_DISK_SLOTS)
		say(t, ", %s of it with no workload I/O in flight", pct(a, by[best], io));
	else
		say(t, ", %s of it on %s", pct(a, by[best], io), s->disk_names[best]);
}

/* "; it wrote 117 MiB of the workload's files back and the busiest disk, vda, was busy 78% of it". */
static void say_flush_io(struct text *t, const struct session_result *s, const struct column *c)
{
	const struct phase_result *p = &s->phases[c->flush[0]];
	const struct io_phase *io = p->io;
	const struct io_devinfo *busiest = NULL;
	const struct io_layers *l;
	char a[32], b[32];

	if (!io || !io->window_ns || !t->ps || !t->ps[c->flush[0]].has_io)
		return;
	l = &t->ps[c->flush[0]].layers;
	for (size_t i = 0; i < io->ndevs; i++)
		if (!io->devs[i].is_partition && (!busiest || io->devs[i].busy_ns > busiest->busy_ns))
			busiest = &io->devs[i];
	if (l->blk_write_wb_tree + l->blk_write_tree) {
		say(t, " It wrote %s of the workload's data to the devices",
		    fmt_bytes(a, sizeof(a), l->blk_write_wb_tree + l->blk_write_tree));
		num(t, "written_bytes", (double)(l->blk_write_wb_tree + l->blk_write_tree));
	} else {
		say(t, " It wrote none of the workload's data (nothing of it was dirty)");
	}
	if (busiest && busiest->busy_ns) {
		say(t, "; the busiest disk, %s, was busy %s of the flush", busiest->name,
		    pct(b, (double)busiest->busy_ns, (double)io->window_ns));
		num(t, "busy_share", (double)busiest->busy_ns / (double)io->window_ns);
	}
	say(t, ".");
}

static void say_iowait(struct text *t, const struct session_result *s, const struct column *c,
		       double wall)
{
	double io = work_mean(s, c, pv_bucket, WB_IOWAIT), sv;
	unsigned nr;
	char a[32], b[32], d[32];

	if (wall <= 0 || io < NOTABLE * wall)
		return;
	nr = top_nr(s, c->work, c->nwork, WB_IOWAIT, -1, &sv);
	kind(t, "iowait");
	num(t, "whole_ns", wall);
	num(t, "part_ns", io);
	say(t, "%s (%s of the wall) waiting on I/O, %s of it ", ns(a, io), pct(b, io, wall),
	    pct(d, sv, io));
	say_inside(t, nr);
	say_iowait_device(t, s, c->work, c->nwork, io);
	say(t, ".");
	end_line(t);
}

/* The tree's run-queue wait in task time: several tasks wait at once, or one waits while another
 * of the tree runs, and the wall view (one state an instant, CPU first) shows little of it. Said
 * when it is RUNQ_TASK_NOTABLE of the tree's on-CPU and run-queue time, from the column's
 * representative run. */
static void say_runq_tasks(struct text *t, const struct session_result *s, const struct column *c,
			   double rq_wall)
{
	int run = phases_median_run(s, c->work, c->nwork);
	double rq = 0, cpu = 0;
	char a[32], b[32], d[32], e[32];

	if (run < 0)
		return;
	for (size_t i = 0; i < s->phases[run].ncomms; i++) {
		const struct comm_stats *cs = &s->phases[run].comms[i];

		rq += (double)cs->state_ns[IOWHY_TS_RUNQ];
		cpu += (double)(cs->state_ns[IOWHY_TS_USER] + cs->state_ns[IOWHY_TS_KERNEL]);
	}
	if (rq + cpu <= 0 || rq < RUNQ_TASK_NOTABLE * (rq + cpu) || rq < 1.5 * rq_wall)
		return;
	kind(t, "runq_tasks");
	num(t, "whole_ns", rq + cpu);
	num(t, "part_ns", rq);
	say(t, "The tree's tasks waited %s for a CPU (run queue), %s of their %s on or waiting for "
	       "one; the wall view shows %s of it: at most of those times another of them was on a "
	       "CPU", ns(a, rq), pct(b, rq, rq + cpu), ns(d, rq + cpu), pct(e, rq_wall, rq));
	say_top_comm(t, s, c, WB_RUNQ);
	say(t, ".");
	end_line(t);
}

static void say_runq(struct text *t, const struct session_result *s, const struct column *c,
		     double wall)
{
	double rq = work_mean(s, c, pv_bucket, WB_RUNQ);
	char a[32], b[32];

	if (wall <= 0)
		return;
	if (rq < NOTABLE * wall) {
		say_runq_tasks(t, s, c, rq);
		return;
	}
	kind(t, "runq");
	num(t, "whole_ns", wall);
	num(t, "part_ns", rq);
	say(t, "%s (%s of the wall) runnable but waiting for a CPU (run queue)", ns(a, rq),
	    pct(b, rq, wall));
	say_top_comm(t, s, c, WB_RUNQ);
	say(t, ".");
	end_line(t);
	say_runq_tasks(t, s, c, rq);
}

static void say_residual(struct text *t, const struct session_result *s, const struct column *c,
			 double wall)
{
	double un = work_mean(s, c, pv_unattributed, 0);
	char a[32], b[32];

	if (wall <= 0 || un < RESIDUAL_NOTABLE * wall)
		return;
	kind(t, "unattributed");
	num(t, "whole_ns", wall);
	num(t, "part_ns", un);
	say(t, "%s (%s of %s's wall) could not be attributed: no task state was known.", ns(a, un),
	    pct(b, un, wall), c->name);
	end_line(t);
}

static void say_flush(struct text *t, const struct session_result *s, const struct column *c)
{
	double work = work_mean(s, c, pv_wall, 0), fl = flush_mean(s, c, pv_wall, 0), total, bv, sv;
	double v[WB_COUNT];
	int big = 0;
	unsigned nr;
	char a[32], b[32], d[32], e[32];

	total = work + fl;
	if (c->nflush == 0 || total <= 0 || fl < NOTABLE * total)
		return;
	for (int i = 0; t->ps && i < c->nflush; i++)
		if (t->ps[c->flush[i]].wall_unmeasured)
			return; /* lost events: its buckets are not a measurement */
	kind(t, "flush");
	num(t, "whole_ns", total);
	num(t, "part_ns", fl);
	say(t, "The flush (sync) took %s after %s's writes, %s of %s's total (%s)", ns(a, fl),
	    c->name, pct(b, fl, total), c->name, ns(d, total));
	for (int i = 0; i < WB_COUNT; i++) {
		v[i] = flush_mean(s, c, pv_bucket, i);
		if (v[i] > v[big])
			big = i;
	}
	bv = v[big];
	if (bv > 0) {
		say(t, "; %s of it was %s", pct(e, bv, fl), bucket_label(s, big));
		nr = top_nr(s, c->flush, c->nflush, big, -1, &sv);
		if (sv >= 0.5 * bv) {
			say(t, ", mostly ");
			say_inside(t, nr);
		}
	}
	say(t, ".");
	say_flush_io(t, s, c);
	end_line(t);
}

/* Events lost in the column's work phases (summary.h: their wall and work views are fiction). */
static uint64_t column_lost(const struct text *t, const struct column *c)
{
	uint64_t lost = 0;

	for (int i = 0; t->ps && i < c->nwork; i++)
		if (t->ps[c->work[i]].wall_unmeasured)
			lost += t->ps[c->work[i]].lost;
	return lost;
}

static void explain_column(struct text *t, const struct session_result *s, const struct column *c)
{
	double wall = work_mean(s, c, pv_wall, 0);
	uint64_t lost = column_lost(t, c);
	char a[32], b[32];

	if (lost) {
		kind(t, "column");
		say(t, "%s: %s events were lost while it ran: where its %s wall went is not measured "
		       "(a task whose switch-out was lost would count as on CPU until its next event); "
		       "its syscall counts, times and bytes are exact.\n", c->name, count(a, (double)lost),
		    ns(b, wall));
		say_top_syscall(t, s, c);
		return;
	}
	if (wall <= 0) {
		kind(t, "column");
		say(t, "%s took no measurable wall time.\n", c->name);
		return;
	}
	say_biggest_buckets(t, s, c, wall);
	say_top_syscall(t, s, c);
	say_iowait(t, s, c, wall);
	say_runq(t, s, c, wall);
	say_residual(t, s, c, wall);
	say_flush(t, s, c);
}

/* ---- Several columns: the slowest against the fastest ---- */

struct sys_diff {
	unsigned nr;
	double diff;
};

/* Syscalls of item `it` whose time in its bucket differs most (slow - fast), at least min_diff;
 * up to MAX_SYSCALLS, largest first. */
static int top_sys_diffs(const struct session_result *s, const struct column *slow,
			 const struct column *fast, int it, double min_diff, struct sys_diff *out)
{
	int bucket = item_bucket(it), group = item_group(it), n = 0;

	if (bucket < 0)
		return 0;
	for (unsigned nr = 0; nr < IOWHY_NR_SLOTS; nr++) {
		double d;
		int pos;

		if (group >= 0 && (int)syscall_group(nr) != group)
			continue;
		d = work_mean(s, slow, pv_by_nr, BY_NR_ARG(bucket, nr)) -
		    work_mean(s, fast, pv_by_nr, BY_NR_ARG(bucket, nr));
		if (d < min_diff || d <= 0)
			continue;
		for (pos = n; pos > 0 && out[pos - 1].diff < d; pos--)
			if (pos < MAX_SYSCALLS)
				out[pos] = out[pos - 1];
		if (pos < MAX_SYSCALLS) {
			out[pos] = (struct sys_diff){ nr, d };
			if (n < MAX_SYSCALLS)
				n++;
		}
	}
	return n;
}

static void say_fast_count(struct text *t, const struct session_result *s, const struct column *fast,
			   unsigned nr)
{
	double calls = work_mean(s, fast, pv_sys_count, (int)nr);
	char a[32];

	if (calls >= 0.5)
		say(t, " (%s: %s)", fast->name, count(a, calls));
}

/* What carries the difference of item `it`: its syscalls, else the comm with most of it. */
static void say_item_detail(struct text *t, const struct session_result *s,
			    const struct column *slow, const struct column *fast, int it,
			    double diff)
{
	struct sys_diff sd[MAX_SYSCALLS];
	int n = top_sys_diffs(s, slow, fast, it, NOTABLE * diff, sd);

	if (n == 0) {
		say_top_comm(t, s, slow, item_bucket(it));
		return;
	}
	say(t, ": ");
	for (int i = 0; i < n; i++) {
		say_list_sep(t, i, n);
		say_calls(t, s, slow, sd[i].nr, 0);
		say_fast_count(t, s, fast, sd[i].nr);
	}
}

static int largest_item(const double *d)
{
	int best = 0;

	for (int it = 1; it < IT_COUNT; it++)
		if (d[it] > d[best])
			best = it;
	return best;
}

/* The other notable differences: items the slower column spent more on, then less (unless the
 * main sentence already named them: `less_said`). When the items listed add up to more than the
 * difference (others went the other way), they are "also more", not "the rest" of it. */
static void say_other_items(struct text *t, const struct session_result *s,
			    const struct column *fast, const double *d, int main_it, double diff,
			    int less_said)
{
	char a[32], l[64];
	int more = 0, less = 0;
	double listed = d[main_it];

	/* "the rest of the difference" only when what is listed fits in the difference */
	for (int it = 0; it < IT_COUNT; it++)
		if (it != main_it && d[it] >= NOTABLE * diff)
			listed += d[it];
	less_said |= listed > diff * 1.0001 ? 2 : 0;
	for (int it = 0; it < IT_COUNT; it++)
		if (it != main_it && d[it] >= NOTABLE * diff) {
			if (!more)
				kind(t, "compare_rest");
			say(t, "%s%s %s", more++ ? ", " : less_said ? "Also more: " :
			    "The rest of the difference: ",
			    item_label(s, l, sizeof(l), it), ns(a, d[it]));
		}
	for (int it = 0; it < IT_COUNT && !(less_said & 1); it++) {
		if (-d[it] < NOTABLE * diff)
			continue;
		if (!more && !less)
			kind(t, "compare_rest");
		if (less++)
			say(t, ", ");
		else
			say(t, "%s%s spent more on ", more ? "; " : "", fast->name);
		say(t, "%s (%s)", item_label(s, l, sizeof(l), it), ns(a, -d[it]));
	}
	if (more || less)
		say(t, ".\n");
}

/* Whether the difference between two columns is within noise: with repeats, the slower column's
 * fastest run is no slower than the faster column's slowest; a single run each, under 10%. */
static int within_noise(struct text *t, const struct session_result *s, const struct column *slow,
			const struct column *fast, double ws, double wf)
{
	struct summary a, b;
	char x[32], y[32], z[32], w[32], p[32], u[32], v[32];

	if (slow->nwork < 2 && fast->nwork < 2) {
		if (ws - wf >= NOISE_SINGLE * wf)
			return 0;
		kind(t, "noise");
		say(t, "%s took %s more than %s (%s vs %s, %s): from a single run each, a difference "
		       "under 10%% is within noise (--repeat R compares runs).\n", slow->name, ns(x, ws - wf),
		    fast->name, ns(y, ws), ns(z, wf), pct(p, ws - wf, wf));
		return 1;
	}
	if (phases_summary(s, slow->work, slow->nwork, pv_wall, 0, &a) < 0 ||
	    phases_summary(s, fast->work, fast->nwork, pv_wall, 0, &b) < 0 || a.min > b.max)
		return 0;
	kind(t, "noise");
	say(t, "%s took %s more than %s (%s vs %s, trimmed means of %d and %d runs), within the "
	       "spread of the runs (%s: %s to %s; %s: %s to %s): within noise.\n", slow->name,
	    ns(x, ws - wf), fast->name, ns(y, ws), ns(z, wf), slow->nwork, fast->nwork, slow->name,
	    ns(w, a.min), ns(p, a.max), fast->name, ns(u, b.min), ns(v, b.max));
	return 1;
}

/* "; kernel CPU was 894 µs more, and other wait 530 µs less": the largest item is larger than the
 * whole difference (others went the other way), so it is not said to be part of it. */
static void say_offset(struct text *t, const struct session_result *s, const struct column *fast,
		       const double *d, int it, double diff)
{
	char a[32], l[64];
	int less = 0;

	say(t, "; %s was %s more", item_label(s, l, sizeof(l), it), ns(a, d[it]));
	num(t, "item_ns", d[it]);
	for (int i = 0; i < IT_COUNT; i++) {
		if (-d[i] < NOTABLE * diff)
			continue;
		say(t, "%s%s %s less", less++ ? ", " : ", while ", item_label(s, l, sizeof(l), i),
		    ns(a, -d[i]));
	}
	if (less)
		say(t, " (%s spent more on %s)", fast->name, less > 1 ? "those" : "it");
}

static void compare_columns(struct text *t, const struct session_result *s,
			    const struct column *slow, const struct column *fast)
{
	double ws = work_mean(s, slow, pv_wall, 0), wf = work_mean(s, fast, pv_wall, 0);
	double diff = ws - wf, d[IT_COUNT];
	char a[32], b[32], c[32], l[64];
	int it, offset;

	if (diff <= SAME_WALL * ws) {
		kind(t, "same");
		say(t, "%s and %s took about the same time (%s vs %s).\n", slow->name, fast->name,
		    ns(a, ws), ns(b, wf));
		return;
	}
	if (within_noise(t, s, slow, fast, ws, wf))
		return;
	for (it = 0; it < IT_COUNT; it++)
		d[it] = item_value(s, slow, it) - item_value(s, fast, it);
	it = largest_item(d);
	offset = d[it] > diff;
	kind(t, "compare");
	num(t, "whole_ns", diff);
	num(t, "slow_ns", ws);
	num(t, "fast_ns", wf);
	say(t, "%s took %s more than %s (%s vs %s", slow->name, ns(a, diff), fast->name, ns(b, ws),
	    ns(c, wf));
	if (slow->nwork > 1 || fast->nwork > 1)
		say(t, ", trimmed means of %d and %d runs", slow->nwork, fast->nwork);
	say(t, ")");
	if (offset) {
		say_offset(t, s, fast, d, it, diff);
	} else {
		say(t, "; %s of that is %s", ns(a, d[it]), item_label(s, l, sizeof(l), it));
		num(t, "part_ns", d[it]);
	}
	say_item_detail(t, s, slow, fast, it, d[it]);
	say(t, ".\n");
	say_other_items(t, s, fast, d, it, diff, offset);
}

static int cmp_wall_order(const struct session_result *s, const struct column *x,
			  const struct column *y)
{
	double wx = work_mean(s, x, pv_wall, 0), wy = work_mean(s, y, pv_wall, 0);

	return (wx > wy) - (wx < wy);
}

static void say_ranking(struct text *t, const struct session_result *s, const struct column **cols,
			int n)
{
	char a[32];

	if (n < 3)
		return;
	kind(t, "ranking");
	say(t, "Fastest to slowest:");
	for (int i = 0; i < n; i++)
		say(t, "%s %s %s", i ? "," : "", cols[i]->name, ns(a, work_mean(s, cols[i], pv_wall, 0)));
	say(t, ".\n");
}

static void say_totals(struct text *t, const struct session_result *s, const struct column *slow,
		       const struct column *fast)
{
	double ts, tf;
	char a[32], b[32];

	if (slow->nflush == 0 && fast->nflush == 0)
		return;
	ts = work_mean(s, slow, pv_wall, 0) + flush_mean(s, slow, pv_wall, 0);
	tf = work_mean(s, fast, pv_wall, 0) + flush_mean(s, fast, pv_wall, 0);
	kind(t, "totals");
	num(t, "slow_ns", ts);
	num(t, "fast_ns", tf);
	say(t, "With the flush, %s took %s and %s %s in total.\n", slow->name, ns(a, ts), fast->name,
	    ns(b, tf));
}

static void explain_columns(struct text *t, const struct session_result *s,
			    const struct column **cols, int n)
{
	/* Sort by wall, fastest first (insertion sort: a handful of columns). */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp_wall_order(s, cols[j], cols[j - 1]) < 0; j--) {
			const struct column *tmp = cols[j];

			cols[j] = cols[j - 1];
			cols[j - 1] = tmp;
		}
	compare_columns(t, s, cols[n - 1], cols[0]);
	say_ranking(t, s, cols, n);
	for (int i = 0; i < n; i++)
		say_flush(t, s, cols[i]);
	say_totals(t, s, cols[n - 1], cols[0]);
}

/* ---- What the samples and the FUSE data add, per column (its representative run) ---- */

static void explain_extras(struct text *t, const struct session_result *s,
			   const struct column *const *work, int nwork)
{
	char buf[SENTENCE_LEN];
	uint64_t wait;

	for (int i = 0; i < nwork; i++) {
		int run = phases_median_run(s, work[i]->work, work[i]->nwork);
		const struct phase_result *p = run >= 0 ? &s->phases[run] : NULL;

		if (!p)
			continue;
		if (fuse_explain(p, buf, sizeof(buf), &wait)) {
			say(t, "%s", buf);
			/* the sentence was ended by the newline: name the one just written */
			if (t->e->n) {
				struct sentence *se = &t->e->s[t->e->n - 1];

				snprintf(se->kind, sizeof(se->kind), "fuse");
				if (se->nnums + 2 <= SENTENCE_NUMS) {
					snprintf(se->num[se->nnums].key, sizeof(se->num[0].key), "part_ns");
					se->num[se->nnums++].value = (double)wait;
					snprintf(se->num[se->nnums].key, sizeof(se->num[0].key), "whole_ns");
					se->num[se->nnums++].value = (double)wall_ns(&p->wall);
				}
			}
		}
		if (cpu_explain(p, buf, sizeof(buf))) {
			int first = t->e->n;

			say(t, "%s", buf);
			for (int k = first; k < t->e->n; k++)
				snprintf(t->e->s[k].kind, sizeof(t->e->s[k].kind), "cpu_samples");
		}
	}
}

/* ---- Session ---- */

static void say_session_caveats(struct text *t, const struct session_result *s)
{
	char a[32], b[32];

	if (s->partial)
		say(t, "The session was interrupted: the numbers cover only what ran.\n");
	if (s->events_lost && s->storage_failed)
		say(t, "%s events were lost and %s tasks had no per-task state: the numbers are "
		       "off, either way.\n",
		    count(a, (double)s->events_lost), count(b, (double)s->storage_failed));
	else if (s->events_lost)
		say(t, "%s events were lost: the wall and work views of the phases that lost them are "
		       "not measured; the syscall counts, times and bytes, and block I/O, are exact.\n",
		    count(a, (double)s->events_lost));
	else if (s->storage_failed)
		say(t, "%s tasks had no per-task state: the numbers undercount.\n",
		    count(a, (double)s->storage_failed));
}

static int any_lost(const struct text *t, const struct column *const *work, int n)
{
	for (int i = 0; i < n; i++)
		if (column_lost(t, work[i]))
			return 1;
	return 0;
}

void explain(const struct session_result *s, const struct phase_summary *ps,
	     struct explanation *out)
{
	struct text t = { out, ps, 0 };
	struct column cols[SESSION_MAX_PHASES];
	const struct column *work[SESSION_MAX_PHASES];
	int ncols, nwork = 0;

	out->n = 0;
	ncols = session_columns(s, cols, SESSION_MAX_PHASES);
	for (int i = 0; i < ncols; i++)
		if (cols[i].nwork)
			work[nwork++] = &cols[i];
	if (nwork == 0)
		say(&t, "No work phase ran.\n");
	else if (nwork == 1)
		explain_column(&t, s, work[0]);
	else if (any_lost(&t, work, nwork))
		for (int i = 0; i < nwork; i++) /* no comparison of fiction */
			explain_column(&t, s, work[i]);
	else
		explain_columns(&t, s, work, nwork);
	explain_extras(&t, s, (const struct column *const *)work, nwork);
	say_session_caveats(&t, s);
}
