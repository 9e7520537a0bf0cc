// SPDX-License-Identifier: GPL-2.0
/* The session summary, computed once after the phases: see summary.h. */
#include <stdlib.h>
#include <string.h>
#include "summary.h"
#include "run_verdicts.h"
#include "facts.h"

/* ---- Headline figures from the phase facts ---- */

static const struct {
	const char *label, *key;
} headline_names[HL_COUNT] = {
	[HL_MIBS] = { "MiB/s", "mib_per_s" },
	[HL_IOPS] = { "IOPS", "iops" },
	[HL_P99] = { "p99 latency", "p99_ns" },
	[HL_FILES_PER_S] = { "files/s", "files_per_s" },
};

static double fact_or(const struct phase_facts *pf, const char *key, double dflt)
{
	const struct fact *f = facts_get(pf, key);

	return f ? f->value : dflt;
}

double headline_value(const struct phase_result *p, enum headline_kind k)
{
	const struct phase_facts *pf = &p->facts;
	double files, secs;

	switch (k) {
	case HL_MIBS:
		return facts_get(pf, "rate") ? fact_or(pf, "rate", 0) / 1048576.0 : -1;
	case HL_IOPS:
		return fact_or(pf, "iops", -1);
	case HL_P99:
		return fact_or(pf, "lat_p99_ns", -1);
	case HL_FILES_PER_S:
		if (facts_get(pf, "files_per_s"))
			return fact_or(pf, "files_per_s", 0);
		files = fact_or(pf, "files_written", -1);
		secs = fact_or(pf, "app_seconds", 0);
		return files >= 0 && secs > 0 ? files / secs : -1;
	default:
		return -1;
	}
}

static double pv_headline(const struct phase_result *p, int kind)
{
	return headline_value(p, (enum headline_kind)kind);
}

/* A headline row for each figure some column's first work phase reports. */
static void compute_headlines(const struct session_result *s, struct session_summary *sum)
{
	sum->nhead = 0;
	for (int k = 0; k < HL_COUNT && sum->nhead < HEADLINES_MAX; k++) {
		struct headline *h = &sum->head[sum->nhead];
		int any = 0;

		for (int c = 0; c < sum->ncols; c++) {
			const struct column *col = &sum->cols[c];

			h->value[c] = -1;
			if (!col->nwork || headline_value(&s->phases[col->work[0]], k) < 0)
				continue;
			h->value[c] = phases_mean(s, col->work, col->nwork, pv_headline, k);
			any = 1;
		}
		if (!any)
			continue;
		h->kind = k;
		h->label = headline_names[k].label;
		h->key = headline_names[k].key;
		sum->nhead++;
	}
}

/* ---- One line per disk ---- */

static struct disk_line *disk_line(struct session_summary *sum, const char *name)
{
	for (int i = 0; i < sum->ndisks; i++)
		if (!strcmp(sum->disks[i].name, name))
			return &sum->disks[i];
	if (sum->ndisks >= SUMMARY_DISKS)
		return NULL;
	snprintf(sum->disks[sum->ndisks].name, sizeof(sum->disks[0].name), "%s", name);
	return &sum->disks[sum->ndisks++];
}

static void add_phase_disks(const struct io_phase *io, struct session_summary *sum)
{
	for (size_t i = 0; i < io->ndevs; i++) {
		const struct io_devinfo *d = &io->devs[i];
		struct disk_line *dl;

		if (d->is_partition || !(dl = disk_line(sum, d->name)))
			continue;
		dl->window_ns += io->window_ns;
		dl->busy_ns += d->busy_ns;
		dl->missed += d->missed;
	}
	for (size_t i = 0; i < io->nrows; i++) {
		const struct io_row *r = &io->rows[i];
		const struct io_devinfo *d = io_phase_find_dev(io, io_phase_disk_of(io, r->dev));
		struct disk_line *dl = d ? disk_line(sum, d->name) : NULL;

		if (!dl)
			continue;
		dl->requests += r->st.requests;
		if (r->op == IO_OP_READ)
			dl->read_bytes += r->st.bytes;
		else if (r->op == IO_OP_WRITE)
			dl->write_bytes += r->st.bytes;
		if ((r->op == IO_OP_READ || r->op == IO_OP_WRITE) &&
		    (r->cls == IO_CL_TREE || r->cls == IO_CL_WB_TREE))
			dl->workload_bytes += r->st.bytes;
		else if (r->op == IO_OP_READ || r->op == IO_OP_WRITE)
			dl->workload_bytes += r->charged; /* below a stacked device, for it */
	}
}

/* The stack lines of a phase, each once over the session, with their devices. */
static void add_phase_stacks(const struct io_phase *io, struct session_summary *sum)
{
	char line[256];

	for (size_t k = 0; k < io->nstacks; k++) {
		const struct io_stackline *sl = &io->stacks[k];
		struct stack_line *st;
		int seen = 0;

		io_stackline_format(io, sl, line, sizeof(line));
		for (int j = 0; j < sum->nstacks; j++)
			seen |= !strcmp(sum->stacks[j].line, line);
		if (seen || sum->nstacks >= SUMMARY_STACKS)
			continue;
		st = &sum->stacks[sum->nstacks++];
		memset(st, 0, sizeof(*st));
		snprintf(st->line, sizeof(st->line), "%s", line);
		snprintf(st->head, sizeof(st->head), "%s", sl->head);
		int base[IO_STACK_LEVELS + 1] = { 0 };

		for (int l = 0; l < sl->nlevels; l++) {
			base[l] = st->ndevs;
			for (int i = 0; i < sl->ndev[l] && st->ndevs < STACK_LINE_DEVS; i++) {
				snprintf(st->dev[st->ndevs], sizeof(st->dev[0]), "%s",
					 io_phase_dev_name(io, sl->dev[l][i]));
				st->level[st->ndevs++] = l;
			}
		}
		base[sl->nlevels] = st->ndevs;
		/* what each sits on, as 1 + indexes into dev[] (a device cut off by the cap:
		 * unknown) */
		for (int l = 0; l + 1 < sl->nlevels; l++)
			for (int i = 0; i < sl->ndev[l] && base[l] + i < st->ndevs; i++) {
				int j = base[l + 1] + sl->on[l][i] - 1;

				if (sl->on[l][i] && j < base[l + 2])
					st->on[base[l] + i] = j + 1;
			}
	}
}

/* The workload's I/O wait on each stack's devices (from the disk lines), the most waited one
 * and the device under it. */
static void stack_waits(struct session_summary *sum)
{
	for (int k = 0; k < sum->nstacks; k++) {
		struct stack_line *st = &sum->stacks[k];

		st->most = -1;
		st->iowait_ns_total = 0;
		for (int i = 0; i < st->ndevs; i++) {
			st->iowait_ns[i] = 0;
			for (int d = 0; d < sum->ndisks; d++)
				if (!strcmp(sum->disks[d].name, st->dev[i]))
					st->iowait_ns[i] = sum->disks[d].iowait_ns;
			st->iowait_ns_total += st->iowait_ns[i];
			if (st->iowait_ns[i] && (st->most < 0 ||
						 st->iowait_ns[i] > st->iowait_ns[st->most]))
				st->most = i;
		}
		st->below[0] = '\0';
		if (st->most >= 0) {
			/* the device it sits on; without that known (a report saved before it was
			 * written), the next level's only device, else none: never a neighbour's */
			int below = st->on[st->most] - 1, n = 0, first = -1;

			for (int i = 0; i < st->ndevs; i++)
				if (st->level[i] == st->level[st->most] + 1 && !n++)
					first = i;
			if (below < 0 && n == 1)
				below = first;
			if (below >= 0) {
				/* (same size, both in *sum: a copy, not snprintf) */
				memcpy(st->below, st->dev[below], sizeof(st->below));
				st->below[sizeof(st->below) - 1] = '\0';
			}
		}
	}
}

/* The workload's I/O wait in phase ph on the device named NAME, and that device in ph's I/O. */
static uint64_t phase_wait_on(const struct session_result *s, int ph, const char *name,
			      uint32_t *dev)
{
	const struct io_phase *io = s->phases[ph].io;
	uint64_t ns = 0;

	*dev = 0;
	for (size_t i = 0; io && i < io->ndevs; i++)
		if (!io->devs[i].is_partition && !strcmp(io->devs[i].name, name))
			*dev = io->devs[i].dev;
	for (int d = 0; d < IOWHY_DISK_SLOTS; d++)
		if (!strcmp(s->disk_names[d], name))
			ns += s->phases[ph].wall.iowait_by_disk[d];
	return ns;
}

/* Each stack device's I/O wait charged further down: the part that overlapped the requests
 * below it done for it (a loop device's worker on its backing file), phase by phase. */
static void stack_below_waits(const struct session_result *s, struct session_summary *sum)
{
	for (int k = 0; k < sum->nstacks; k++) {
		struct stack_line *st = &sum->stacks[k];

		for (int i = 0; i < st->ndevs; i++) {
			st->below_ns[i] = 0;
			for (int ph = 0; st->iowait_ns[i] && ph < s->nphases; ph++) {
				uint32_t dev;
				uint64_t w = phase_wait_on(s, ph, st->dev[i], &dev);

				if (w && dev)
					st->below_ns[i] += io_wait_below(s->phases[ph].io, dev, w);
			}
			if (st->below_ns[i] > st->iowait_ns[i])
				st->below_ns[i] = st->iowait_ns[i];
		}
	}
}

static void compute_disks(const struct session_result *s, struct session_summary *sum)
{
	sum->ndisks = 0;
	sum->nstacks = 0;
	for (int i = 0; i < s->nphases; i++)
		if (s->phases[i].io)
			add_phase_stacks(s->phases[i].io, sum);
	for (int i = 0; i < s->nphases; i++)
		if (s->phases[i].io)
			add_phase_disks(s->phases[i].io, sum);
	/* the workload's I/O wait charged to each disk (the model's slots, named by the session) */
	for (int i = 0; i < s->nphases; i++)
		for (int d = 0; d < IOWHY_DISK_SLOTS; d++) {
			struct disk_line *dl;

			if (!s->phases[i].wall.iowait_by_disk[d] || !s->disk_names[d][0])
				continue;
			dl = disk_line(sum, s->disk_names[d]);
			if (dl)
				dl->iowait_ns += s->phases[i].wall.iowait_by_disk[d];
		}
	stack_waits(sum);
	stack_below_waits(s, sum);
}

/* ---- The whole ---- */

/* Which phases' wall and work views the lost events made fiction: those that lost some; when the
 * session lost events none of its phases counted (a report written before phases counted theirs),
 * every phase. */
static void place_losses(const struct session_result *s, struct session_summary *sum)
{
	uint64_t placed = 0;

	for (int i = 0; i < s->nphases; i++)
		placed += s->phases[i].events_lost;
	for (int i = 0; i < s->nphases; i++) {
		struct phase_summary *ps = &sum->phases[i];

		ps->lost = placed ? s->phases[i].events_lost : s->events_lost;
		ps->wall_unmeasured = ps->lost > 0;
		ps->tracing_cost_ns = tracing_cost_ns(s, &s->phases[i]);
	}
}

static void compute_phases(const struct session_result *s, struct session_summary *sum)
{
	const struct io_phase *before = NULL, *prev[SESSION_MAX_PHASES];
	int nprev = 0;

	place_losses(s, sum);
	/* I/O below stacked devices, charged by the upper devices' owners (latest phase first) */
	for (int i = 0; i < s->nphases; i++) {
		if (!s->phases[i].io)
			continue;
		io_stack_charge(s->phases[i].io, prev, nprev);
		memmove(prev + 1, prev, sizeof(prev[0]) * (size_t)(nprev < SESSION_MAX_PHASES - 1 ?
								  nprev : SESSION_MAX_PHASES - 1));
		prev[0] = s->phases[i].io;
		nprev += nprev < SESSION_MAX_PHASES;
	}

	for (int i = 0; i < s->nphases; i++) {
		const struct io_phase *io = s->phases[i].io;
		struct phase_summary *ps = &sum->phases[i];

		if (!io)
			continue;
		ps->has_io = 1;
		io_layers_compute(io, before, &ps->layers);
		layer_notes(io, &ps->layers, ps);
		before = io;
	}
}

uint64_t tracing_events_cost_ns(const struct session_result *s, const struct phase_result *p)
{
	return (uint64_t)((double)p->events * (double)s->event_cost_ps / 1000.0);
}

uint64_t tracing_programs_ns(const struct phase_result *p)
{
	uint64_t wall = p->wall.end_ns - p->wall.start_ns;

	if (!p->prog_on_ns)
		return 0;
	/* the window may run a little past the phase's end (the tree's last events drained) */
	return (uint64_t)((double)p->prog_run_ns * (double)wall / (double)p->prog_on_ns);
}

uint64_t tracing_cost_ns(const struct session_result *s, const struct phase_result *p)
{
	uint64_t e = tracing_events_cost_ns(s, p), g = tracing_programs_ns(p);

	return e > g ? e : g;
}

int summary_compute(struct session_result *s)
{
	struct session_summary *sum;

	summary_free(s);
	sum = calloc(1, sizeof(*sum));
	if (!sum)
		return -1;
	sum->phases = calloc(s->nphases > 0 ? (size_t)s->nphases : 1, sizeof(*sum->phases));
	if (!sum->phases) {
		free(sum);
		return -1;
	}
	sum->nphases = s->nphases;
	compute_phases(s, sum);
	sum->ncols = session_columns(s, sum->cols, SESSION_MAX_PHASES);
	compute_headlines(s, sum);
	compute_disks(s, sum);
	/* passive verdicts when the run touched several devices */
	sum->nverdicts = run_verdict_input(s, sum, &sum->vin) >= 2 ?
			 verdicts_compute_checked(&sum->vin, sum->verdicts, VD_MAX, sum->withdrawn,
						  VD_MAX, &sum->nwithdrawn) : 0;
	sum->nverdicts = run_fuse_verdicts(s, sum->verdicts, sum->nverdicts, VD_MAX);
	explain(s, sum->phases, &sum->expl);
	s->summary = sum;
	return 0;
}

void summary_free(struct session_result *s)
{
	if (!s->summary)
		return;
	free(s->summary->phases);
	free(s->summary);
	s->summary = NULL;
}
