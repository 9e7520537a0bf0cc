// SPDX-License-Identifier: GPL-2.0
/* Side-by-side columns and per-column summaries: see columns.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lite_split.h"
#include "columns.h"
#include "syscalls.h"

/* ---- Columns ---- */

static int find_column(const struct column *cols, int ncols, const char *name)
{
	for (int i = 0; i < ncols; i++)
		if (strcmp(cols[i].name, name) == 0)
			return i;
	return -1;
}

int session_columns(const struct session_result *s, struct column *cols, int maxcols)
{
	int ncols = 0;

	for (int i = 0; i < s->nphases; i++) {
		const struct phase_result *p = &s->phases[i];
		const char *name = p->column[0] ? p->column : p->name;
		int c = find_column(cols, ncols, name);
		struct column *col;

		if (c < 0) {
			if (ncols == maxcols)
				continue;
			c = ncols++;
			memset(&cols[c], 0, sizeof(cols[c]));
			snprintf(cols[c].name, sizeof(cols[c].name), "%s", name);
		}
		col = &cols[c];
		if (p->kind == PHASE_FLUSH && col->nflush < SESSION_MAX_PHASES)
			col->flush[col->nflush++] = i;
		else if (p->kind == PHASE_WORK && col->nwork < SESSION_MAX_PHASES)
			col->work[col->nwork++] = i;
	}
	return ncols;
}

/* ---- Numbers read from a phase ---- */

double pv_wall(const struct phase_result *p, int unused)
{
	(void)unused;
	return (double)wall_ns(&p->wall);
}

double pv_bucket(const struct phase_result *p, int bucket)
{
	return (double)p->wall.bucket_ns[bucket];
}

double pv_group(const struct phase_result *p, int group)
{
	return (double)p->wall.kernel_group_ns[group];
}

double pv_unattributed(const struct phase_result *p, int unused)
{
	(void)unused;
	return (double)p->wall.unattributed_ns;
}

double pv_lite(const struct phase_result *p, int part)
{
	struct lite_split ls;

	if (!p->lite || !p->samples ||
	    lite_split(p->samples, p->wall.bucket_ns[WB_USER] + p->wall.bucket_ns[WB_KERNEL], &ls))
		return 0;
	switch (part) {
	case PVL_USER: return ls.user.ns;
	case PVL_KERNEL: return ls.kernel.ns;
	case PVL_SYSCALLS: return ls.syscalls.ns;
	case PVL_FAULTS: return ls.outside[LS_FAULT].ns;
	case PVL_IRQ: return ls.outside[LS_IRQ].ns;
	default: return ls.outside[LS_KOTHER].ns;
	}
}

double pv_sys_count(const struct phase_result *p, int nr)
{
	return (double)p->sys[nr].count;
}

double pv_sys_total(const struct phase_result *p, int nr)
{
	return (double)p->sys[nr].total_ns;
}

double pv_sys_oncpu(const struct phase_result *p, int nr)
{
	return (double)sys_oncpu_ns(&p->sys[nr]); /* never more than its total */
}

double pv_by_nr(const struct phase_result *p, int arg)
{
	return (double)p->wall.by_nr[arg / (IOWHY_NR_SLOTS + 1)][arg % (IOWHY_NR_SLOTS + 1)];
}

/* get(phase, arg) for each listed phase into v; returns how many (n, capped at the array). */
static int gather(const struct session_result *s, const int *idx, int n, phase_value_fn get, int arg,
		  double *v)
{
	if (n > SESSION_MAX_PHASES)
		n = SESSION_MAX_PHASES;
	for (int i = 0; i < n; i++)
		v[i] = get(&s->phases[idx[i]], arg);
	return n;
}

double phases_mean(const struct session_result *s, const int *idx, int n, phase_value_fn get,
		   int arg)
{
	double v[SESSION_MAX_PHASES] = { 0 };

	n = gather(s, idx, n, get, arg, v);
	return trimmed_mean(v, n);
}

int phases_summary(const struct session_result *s, const int *idx, int n, phase_value_fn get,
		   int arg, struct summary *out)
{
	double v[SESSION_MAX_PHASES] = { 0 };

	n = gather(s, idx, n, get, arg, v);
	return summarize(v, n, out);
}

int phases_median_run(const struct session_result *s, const int *idx, int n)
{
	double v[SESSION_MAX_PHASES] = { 0 }, med, best_d = 0;
	int best = -1;

	n = gather(s, idx, n, pv_wall, 0, v);
	med = median(v, n);
	for (int i = 0; i < n; i++) {
		double d = v[i] > med ? v[i] - med : med - v[i];

		if (best < 0 || d < best_d) {
			best = idx[i];
			best_d = d;
		}
	}
	return best;
}

/* ---- Syscalls ---- */

static int cmp_by_total(const void *a, const void *b, void *phase)
{
	const struct phase_result *p = phase;
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	uint64_t tx = p->sys[x].total_ns, ty = p->sys[y].total_ns;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return (x > y) - (x < y);
}

int phase_syscalls_by_total(const struct phase_result *p, unsigned *nrs)
{
	int n = 0;

	for (unsigned nr = 0; nr < IOWHY_NR_SLOTS; nr++)
		if (p->sys[nr].count || p->sys[nr].total_ns)
			nrs[n++] = nr;
	qsort_r(nrs, (size_t)n, sizeof(*nrs), cmp_by_total, (void *)p);
	return n;
}
