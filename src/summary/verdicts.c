// SPDX-License-Identifier: GPL-2.0
/* Verdict rules over per-member numbers (verdicts.h). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "verdicts.h"

#define MIB (1024.0 * 1024.0)

static const char *const kind_names[] = {
	[VD_THROTTLED] = "throttled",     [VD_SLOW_MEMBER] = "slow-member",
	[VD_SHARED] = "shared",           [VD_CPU_BOUND] = "cpu-bound",
	[VD_QUEUE_DEPTH] = "queue-depth", [VD_WRITEBACK] = "writeback",
	[VD_JOURNAL] = "journal",         [VD_FUSE_CPU] = "fuse-daemon-cpu",
};

const char *vd_kind_name(enum vd_kind k)
{
	return (unsigned int)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "?";
}

/* Verdicts being collected. */
struct vd_out {
	struct verdict *v;
	int n, max;
};

/* A new verdict of KIND about SUBJECT with a printf-style sentence; NULL when out is full. */
static struct verdict *add(struct vd_out *o, enum vd_kind kind, const char *subject,
			   const char *f, ...)
{
	struct verdict *v;
	va_list ap;

	if (o->n >= o->max)
		return NULL;
	v = &o->v[o->n++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	snprintf(v->subject, sizeof(v->subject), "%s", subject);
	va_start(ap, f);
	vsnprintf(v->text, sizeof(v->text), f, ap);
	va_end(ap);
	return v;
}

/* Record one input of a verdict. */
static void input(struct verdict *v, const char *key, double val)
{
	if (!v || v->ninputs >= VD_MAX_INPUTS)
		return;
	snprintf(v->inputs[v->ninputs].key, sizeof(v->inputs[0].key), "%s", key);
	v->inputs[v->ninputs++].val = val;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of the field at byte OFFSET over all members but SKIP (-1: none), zeros ignored; 0 if
 * there is none. */
static double median_others(const struct vd_input *in, size_t offset, int skip)
{
	double v[VD_MAX_MEMBERS];
	int n = 0;

	for (int i = 0; i < in->nmembers; i++) {
		double x = *(const double *)((const char *)&in->m[i] + offset);

		if (i != skip && x > 0)
			v[n++] = x;
	}
	if (n == 0)
		return 0;
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MEDIAN_OTHERS(in, field, skip) median_others(in, offsetof(struct vd_member, field), skip)

/* Is member I slow next to its peers: latency (or busy) VD_SLOW_RATIO times their median while
 * they are not saturated? Sets *by_busy to whether busy % is the measure that shows it (latency
 * when both do) and *ratio to that measure's ratio. */
static int is_slow(const struct vd_input *in, int i, double *ratio, int *by_busy)
{
	const struct vd_member *m = &in->m[i];
	double lat_o = MEDIAN_OTHERS(in, lat_us, i), busy_o = MEDIAN_OTHERS(in, busy_pct, i);
	double rl = lat_o > 0 ? m->lat_us / lat_o : 0, rb = busy_o > 0 ? m->busy_pct / busy_o : 0;
	int by_lat = rl >= VD_SLOW_RATIO, by_b = rb >= VD_SLOW_RATIO && m->busy_pct >= 20;

	*by_busy = !by_lat && by_b;
	*ratio = *by_busy ? rb : rl;
	if (in->nmembers < 2 || in->independent || busy_o >= VD_IDLE_BUSY_PCT)
		return 0;
	if (in->passive && m->iowait_s <= 0)
		return 0;
	/* measured alone (hunt): several times slower in throughput too, not one slow sample */
	if (m->alone_mib_s > 0 &&
	    MEDIAN_OTHERS(in, alone_mib_s, i) < VD_SLOW_RATIO * m->alone_mib_s)
		return 0;
	return by_lat || by_b;
}

/* The workload's I/O wait on member I (a run's report), as a sentence end and as inputs: "; the
 * workload waited 3.5 s on it (95% of its I/O wait on these devices)". Empty when unknown. */
static void iowait_note(const struct vd_input *in, int i, struct verdict *v, char *buf, size_t n)
{
	double all = 0;

	buf[0] = '\0';
	for (int k = 0; k < in->nmembers; k++)
		all += in->m[k].iowait_s;
	if (!v || in->m[i].iowait_s <= 0 || all <= 0)
		return;
	snprintf(buf, n, "; the workload waited %.2f s on it (%.0f%% of its I/O wait on these "
		 "devices)", in->m[i].iowait_s, 100.0 * in->m[i].iowait_s / all);
	input(v, "iowait_s", in->m[i].iowait_s);
	input(v, "iowait_share", in->m[i].iowait_s / all);
}

/* Append s to the verdict's sentence. */
static void append(struct verdict *v, const char *s)
{
	size_t l;

	if (!v || !s[0])
		return;
	l = strlen(v->text);
	snprintf(v->text + l, sizeof(v->text) - l, "%s", s);
}

/* The configured limits that matter for the direction of the work. */
static void dir_limits(const struct vd_input *in, const struct vd_member *m, uint64_t *bps,
		       uint64_t *iops)
{
	*bps = in->writes ? m->thr_write_bps : m->thr_read_bps;
	*iops = in->writes ? m->thr_write_iops : m->thr_read_iops;
}

/* Rule: blk-throttle configured on member I for the workload, and it runs at the limit or is
 * slow. 1 if it fired. */
static int rule_throttle_config(const struct vd_input *in, int i, struct vd_out *o)
{
	const struct vd_member *m = &in->m[i];
	const char *dir = in->writes ? "write" : "read";
	uint64_t bps, iops;
	struct verdict *v;
	char note[160];
	double ratio;
	int by_busy, slow = is_slow(in, i, &ratio, &by_busy);

	dir_limits(in, m, &bps, &iops);
	if (bps && (m->mib_s * MIB >= VD_AT_LIMIT * (double)bps || slow)) {
		v = add(o, VD_THROTTLED, m->name,
			"%s is throttled: blkio.throttle.%s_bps_device = %.1f MiB/s for %u:%u in "
			"cgroup %s; it ran at %.1f MiB/s (%.0f%% of the limit)",
			m->name, dir, (double)bps / MIB, m->major, m->minor,
			m->thr_cgroup[0] ? m->thr_cgroup : "/", m->mib_s,
			100.0 * m->mib_s * MIB / (double)bps);
		input(v, "limit_bps", (double)bps);
		input(v, "mib_s", m->mib_s);
		input(v, "lat_us", m->lat_us);
		input(v, "others_lat_us", MEDIAN_OTHERS(in, lat_us, i));
		iowait_note(in, i, v, note, sizeof(note));
		append(v, note);
		return 1;
	}
	if (iops && (m->iops >= VD_AT_LIMIT * (double)iops || slow)) {
		v = add(o, VD_THROTTLED, m->name,
			"%s is throttled: blkio.throttle.%s_iops_device = %llu IOPS for %u:%u in "
			"cgroup %s; it ran at %.0f IOPS (%.0f%% of the limit)",
			m->name, dir, (unsigned long long)iops, m->major, m->minor,
			m->thr_cgroup[0] ? m->thr_cgroup : "/", m->iops,
			100.0 * m->iops / (double)iops);
		input(v, "limit_iops", (double)iops);
		input(v, "iops", m->iops);
		input(v, "lat_us", m->lat_us);
		input(v, "others_lat_us", MEDIAN_OTHERS(in, lat_us, i));
		iowait_note(in, i, v, note, sizeof(note));
		append(v, note);
		return 1;
	}
	return 0;
}

/* Is member M's throughput flat over its depths while latency grows with depth? */
static int flat_ceiling(const struct vd_member *m, double *lo, double *hi, double *lat_growth)
{
	int n = m->ndepth;

	if (n < 3)
		return 0;
	*lo = *hi = m->depth_mib_s[0];
	for (int k = 1; k < n; k++) {
		*lo = m->depth_mib_s[k] < *lo ? m->depth_mib_s[k] : *lo;
		*hi = m->depth_mib_s[k] > *hi ? m->depth_mib_s[k] : *hi;
	}
	if (*lo <= 0 || m->depth_lat_us[0] <= 0)
		return 0;
	*lat_growth = m->depth_lat_us[n - 1] / m->depth_lat_us[0];
	/* a rate limit: latency grows about in proportion to the depth (at least half of it) */
	return *hi <= VD_FLAT_RATIO * *lo &&
	       *lat_growth >= 0.5 * m->depth[n - 1] / m->depth[0];
}

/* Rule: one slow member (by device latency or busy %), when not explained by a throttle. */
static void rule_slow(const struct vd_input *in, int i, struct vd_out *o)
{
	const struct vd_member *m = &in->m[i];
	double ratio, lo, hi, growth, lat_o = MEDIAN_OTHERS(in, lat_us, i);
	double busy_o = MEDIAN_OTHERS(in, busy_pct, i);
	char flat[160] = "", other[80] = "", note[160];
	struct verdict *v;
	int by_busy;

	if (!is_slow(in, i, &ratio, &by_busy))
		return;
	if (flat_ceiling(m, &lo, &hi, &growth))
		snprintf(flat, sizeof(flat), "; it stays at %.1f MiB/s from depth %.0f to %.0f "
			 "while latency grows %.0fx (no throttle configured)",
			 hi, m->depth[0], m->depth[m->ndepth - 1], growth);
	/* the measure that shows it first, with its ratio; the other measure as it is */
	if (by_busy) {
		snprintf(other, sizeof(other), ", device latency %.0f us vs %.0f us", m->lat_us,
			 lat_o);
		v = add(o, VD_SLOW_MEMBER, m->name,
			"%s is the slow member: busy %.0f%% vs %.0f%% for the others (%.1fx)%s, "
			"%.1f MiB/s vs %.1f MiB/s%s", m->name, m->busy_pct, busy_o, ratio, other,
			m->mib_s, MEDIAN_OTHERS(in, mib_s, i), flat);
	} else {
		if (m->busy_pct > 0 || busy_o > 0)
			snprintf(other, sizeof(other), ", busy %.0f%% vs %.0f%%", m->busy_pct,
				 busy_o);
		v = add(o, VD_SLOW_MEMBER, m->name,
			"%s is the slow member: device latency %.0f us vs %.0f us for the others "
			"(%.1fx)%s, %.1f MiB/s vs %.1f MiB/s%s", m->name, m->lat_us, lat_o, ratio,
			other, m->mib_s, MEDIAN_OTHERS(in, mib_s, i), flat);
	}
	input(v, "by_busy", by_busy);
	input(v, "lat_us", m->lat_us);
	input(v, "others_lat_us", MEDIAN_OTHERS(in, lat_us, i));
	input(v, "busy_pct", m->busy_pct);
	input(v, "others_busy_pct", MEDIAN_OTHERS(in, busy_pct, i));
	input(v, "mib_s", m->mib_s);
	input(v, "others_mib_s", MEDIAN_OTHERS(in, mib_s, i));
	input(v, "ratio", ratio);
	iowait_note(in, i, v, note, sizeof(note));
	append(v, note);
}

/* Rule: a lone device (or members all alike) with a flat ceiling and no throttle configured. */
static void rule_ceiling(const struct vd_input *in, int i, struct vd_out *o)
{
	const struct vd_member *m = &in->m[i];
	double lo, hi, growth;
	struct verdict *v;

	if (!flat_ceiling(m, &lo, &hi, &growth))
		return;
	v = add(o, VD_THROTTLED, m->name,
		"%s has a flat ceiling: %.1f-%.1f MiB/s from depth %.0f to %.0f while latency "
		"grows %.0fx; a rate limit below it (no blk-throttle configured for this cgroup)",
		m->name, lo, hi, m->depth[0], m->depth[m->ndepth - 1], growth);
	input(v, "min_mib_s", lo);
	input(v, "max_mib_s", hi);
	input(v, "lat_growth", growth);
	input(v, "depth_lo", m->depth[0]);
	input(v, "depth_hi", m->depth[m->ndepth - 1]);
}

/* Rule: together the members (those not flagged) reach few members' worth. */
static void rule_shared(const struct vd_input *in, const char *flagged, struct vd_out *o)
{
	double worth = 0, sum_alone = 0, sum_together = 0, alone[VD_MAX_MEMBERS];
	char names[256] = "", who[400];
	const char *lower = NULL;
	struct verdict *v;
	int n = 0;

	if (in->independent)
		return;
	for (int i = 0; i < in->nmembers; i++) {
		const struct vd_member *m = &in->m[i];

		if (flagged[i])
			continue;
		if (m->alone_mib_s <= 0 || m->together_mib_s <= 0)
			return;
		worth += m->together_mib_s / m->alone_mib_s;
		sum_alone += m->alone_mib_s;
		sum_together += m->together_mib_s;
		alone[n++] = m->alone_mib_s;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? ", " : "", m->name);
	}
	if (n < 2 || worth > VD_SHARED_SHARE * n)
		return;
	qsort(alone, (size_t)n, sizeof(alone[0]), cmp_double);
	/* the device they share: the one all of them (not just the ones counted) sit on, or the
	 * bottom device common to the ones counted */
	for (int i = 0; i < in->nmembers && !lower; i++)
		if (!flagged[i] && in->m[i].bottom[0])
			lower = in->m[i].bottom;
	for (int i = 0; i < in->nmembers && lower; i++)
		if (!flagged[i] && strcmp(in->m[i].bottom, lower))
			lower = NULL;
	if (in->shared_lower[0])
		lower = in->shared_lower;
	if (lower)
		snprintf(who, sizeof(who), "%s share %s", names, lower);
	else
		snprintf(who, sizeof(who), "%s share something below them (controller, bus or "
			 "backing store)", names);
	v = add(o, VD_SHARED, lower ? lower : "below the members",
		"together %.1f members' worth: %s; alone each reaches %.0f-%.0f MiB/s, together "
		"they sum to %.0f MiB/s", worth, who, alone[0], alone[n - 1], sum_together);
	input(v, "members", n);
	input(v, "members_worth", worth);
	input(v, "sum_alone_mib_s", sum_alone);
	input(v, "together_mib_s", sum_together);
}

/* Rule: one thread at ~100% of a CPU (on it, or runnable and waiting for it) while no device is
 * busy. */
static void rule_cpu(const struct vd_input *in, struct vd_out *o)
{
	double busiest = 0, demand = in->top_thread_cpu_pct + in->top_thread_runq_pct;
	char runq[64] = "";
	struct verdict *v;

	for (int i = 0; i < in->nmembers; i++)
		busiest = in->m[i].busy_pct > busiest ? in->m[i].busy_pct : busiest;
	if (demand < VD_CPU_PCT || busiest > VD_CPU_DEV_BUSY)
		return;
	if (in->top_thread_runq_pct >= 1)
		snprintf(runq, sizeof(runq), " and waited %.0f%% of the time for one",
			 in->top_thread_runq_pct);
	v = add(o, VD_CPU_BOUND, in->top_thread,
		"CPU-bound: %s ran %.0f%% of a CPU%s while the busiest device was %.0f%% busy",
		in->top_thread, in->top_thread_cpu_pct, runq, busiest);
	input(v, "thread_cpu_pct", in->top_thread_cpu_pct);
	input(v, "thread_runq_pct", in->top_thread_runq_pct);
	input(v, "busiest_device_pct", busiest);
}

/* Rule: about one request in flight and the device idle between requests. */
static void rule_queue_depth(const struct vd_input *in, int i, struct vd_out *o)
{
	const struct vd_member *m = &in->m[i];
	char gain[96] = "";
	struct verdict *v;

	if (m->inflight <= 0 || m->inflight > VD_QD_INFLIGHT || m->busy_pct < 5 ||
	    m->busy_pct > 80 || (in->passive && m->iowait_s <= 0))
		return;
	if (m->ndepth >= 2 && m->depth_mib_s[0] > 0)
		snprintf(gain, sizeof(gain), "; depth %.0f gave %.1fx the throughput of depth %.0f",
			 m->depth[m->ndepth - 1], m->depth_mib_s[m->ndepth - 1] / m->depth_mib_s[0],
			 m->depth[0]);
	v = add(o, VD_QUEUE_DEPTH, m->name,
		"queue-depth bound: %s had %.1f requests in flight and was busy only %.0f%%: each "
		"request waits for the one before%s", m->name, m->inflight, m->busy_pct, gain);
	input(v, "inflight", m->inflight);
	input(v, "busy_pct", m->busy_pct);
}

/* Rules: writeback (balance_dirty_pages) and journal waits taking a share of the wall, less the
 * time the work waited for a CPU (on a loaded host that share shrinks with the load, not with
 * the work's waits). */
static void rule_waits(const struct vd_input *in, struct vd_out *o)
{
	double base = in->runq_s > 0 && in->runq_s < in->wall_s ? in->wall_s - in->runq_s : in->wall_s;
	char runq[96] = "";
	struct verdict *v;

	if (base <= 0)
		return;
	if (base < in->wall_s)
		snprintf(runq, sizeof(runq), "; the wall less %.2f s waiting for a CPU", in->runq_s);
	if (in->dirty_pause_s > 0 && in->dirty_pause_s >= VD_WAIT_SHARE * base) {
		v = add(o, VD_WRITEBACK, "writeback",
			"writeback bound: balance_dirty_pages paused the work %.2f s "
			"(%.0f%% of the wall%s)", in->dirty_pause_s,
			100 * in->dirty_pause_s / base, runq);
		input(v, "dirty_pause_s", in->dirty_pause_s);
		input(v, "wall_s", in->wall_s);
		input(v, "runq_s", in->runq_s);
	}
	if (in->journal_wait_s > 0 && in->journal_wait_s >= VD_WAIT_SHARE * base) {
		v = add(o, VD_JOURNAL, "journal",
			"journal bound: the work waited %.2f s on journal commits "
			"(%.0f%% of the wall%s)",
			in->journal_wait_s, 100 * in->journal_wait_s / base, runq);
		input(v, "journal_wait_s", in->journal_wait_s);
		input(v, "wall_s", in->wall_s);
		input(v, "runq_s", in->runq_s);
	}
}

int verdicts_compute(const struct vd_input *in, struct verdict *out, int max)
{
	int nw;

	return verdicts_compute_checked(in, out, max, NULL, 0, &nw);
}

int verdicts_compute_checked(const struct vd_input *in, struct verdict *out, int max,
			     struct vd_withdrawn *w, int wmax, int *nw)
{
	struct vd_out o = { .v = out, .n = 0, .max = max };
	char flagged[VD_MAX_MEMBERS] = { 0 };
	double ratio;
	int before, by_busy;

	for (int i = 0; i < in->nmembers; i++)
		flagged[i] = (char)rule_throttle_config(in, i, &o);
	for (int i = 0; i < in->nmembers; i++)
		if (!flagged[i] && is_slow(in, i, &ratio, &by_busy)) {
			rule_slow(in, i, &o);
			flagged[i] = 1;
		}
	before = o.n;
	rule_shared(in, flagged, &o);
	/* A flat ceiling is a verdict of its own only where no member stands out and no shared
	 * bottleneck explains it; among several members only when every one of them shows it (a
	 * ceiling on one of identical members is noise, or the CPU copying pages). */
	if (o.n == before) {
		int any = 0, all = 1;
		double lo, hi, growth;

		for (int j = 0; j < in->nmembers; j++) {
			any |= flagged[j];
			all &= flat_ceiling(&in->m[j], &lo, &hi, &growth);
		}
		for (int i = 0; i < in->nmembers && !any && (all || in->nmembers == 1); i++)
			rule_ceiling(in, i, &o);
	}
	rule_cpu(in, &o);
	for (int i = 0; i < in->nmembers; i++)
		rule_queue_depth(in, i, &o);
	rule_waits(in, &o);
	return verdicts_check(in, out, o.n, w, wmax, nw);
}

/* The member named NAME, or NULL. */
static const struct vd_member *member(const struct vd_input *in, const char *name)
{
	for (int i = 0; i < in->nmembers; i++)
		if (!strcmp(in->m[i].name, name))
			return &in->m[i];
	return NULL;
}

static double input_val(const struct verdict *v, const char *key, double dflt)
{
	for (int k = 0; k < v->ninputs; k++)
		if (!strcmp(v->inputs[k].key, key))
			return v->inputs[k].val;
	return dflt;
}

/* The measure a slow-member verdict quotes first, of member m. */
static double slow_measure(const struct verdict *v, const struct vd_member *m)
{
	return input_val(v, "by_busy", 0) ? m->busy_pct : m->lat_us;
}

/* Why verdict k of v[0..n) (keep[] marks those still standing) contradicts its inputs or a
 * standing verdict, in why; 0 if it does not. */
static int contradicts(const struct vd_input *in, const struct verdict *v, int n,
		       const char *keep, int k, char *why, size_t wn)
{
	const struct verdict *x = &v[k];
	const struct vd_member *m = member(in, x->subject);

	if (x->kind == VD_QUEUE_DEPTH && in->passive && m && m->iowait_s <= 0) {
		snprintf(why, wn, "the workload did not wait on %s", x->subject);
		return 1;
	}
	if (x->kind != VD_SLOW_MEMBER)
		return 0;
	if (in->nmembers < 2 || in->independent || !m) {
		snprintf(why, wn, "%s has no peers to be slower than", x->subject);
		return 1;
	}
	if (in->passive && m->iowait_s <= 0) {
		snprintf(why, wn, "the workload did not wait on %s", x->subject);
		return 1;
	}
	{
		int by_busy = input_val(x, "by_busy", 0) != 0;
		double val = by_busy ? input_val(x, "busy_pct", -1) : input_val(x, "lat_us", -1);
		double oth = by_busy ? input_val(x, "others_busy_pct", -1) :
				       input_val(x, "others_lat_us", -1);
		double r = input_val(x, "ratio", -1);

		if (!(val > 0 && oth > 0 && r >= VD_SLOW_RATIO &&
		      fabs(val / oth - r) <= 0.01 * r)) {
			snprintf(why, wn, "its ratio %.2fx is not %.0f / %.0f", r, val, oth);
			return 1;
		}
	}
	for (int j = 0; j < n; j++) {
		if (j == k || !keep[j])
			continue;
		if ((v[j].kind == VD_THROTTLED) && !strcmp(v[j].subject, x->subject)) {
			snprintf(why, wn, "%s is throttled, not slow", x->subject);
			return 1;
		}
		if (v[j].kind != VD_SLOW_MEMBER)
			continue;
		if (input_val(&v[j], "by_busy", 0) != input_val(x, "by_busy", 0) &&
		    input_val(&v[j], "ratio", 0) >= input_val(x, "ratio", 0)) {
			snprintf(why, wn, "%s is named slow by another measure", v[j].subject);
			return 1;
		}
	}
	/* every member not named slow is faster on the quoted measure */
	for (int i = 0; i < in->nmembers; i++) {
		const struct vd_member *o = &in->m[i];
		int named = 0;

		for (int j = 0; j < n; j++)
			named |= keep[j] && v[j].kind == VD_SLOW_MEMBER &&
				 !strcmp(v[j].subject, o->name);
		if (!named && slow_measure(x, o) >= slow_measure(x, m)) {
			snprintf(why, wn, "%s is not slower than %s (%.0f vs %.0f)", x->subject,
				 o->name, slow_measure(x, m), slow_measure(x, o));
			return 1;
		}
	}
	return 0;
}

int verdicts_check(const struct vd_input *in, struct verdict *v, int n, struct vd_withdrawn *w,
		   int wmax, int *nw)
{
	char keep[VD_MAX];
	int out = 0;

	*nw = 0;
	if (n > VD_MAX)
		n = VD_MAX;
	memset(keep, 1, sizeof(keep));
	for (int k = 0; k < n; k++) {
		char why[160];

		if (!contradicts(in, v, n, keep, k, why, sizeof(why)))
			continue;
		keep[k] = 0;
		if (w && *nw < wmax) {
			w[*nw].kind = v[k].kind;
			snprintf(w[*nw].subject, sizeof(w[0].subject), "%s", v[k].subject);
			snprintf(w[*nw].why, sizeof(w[0].why), "%s", why);
		}
		(*nw)++;
	}
	for (int k = 0; k < n; k++)
		if (keep[k])
			v[out++] = v[k];
	return out;
}
