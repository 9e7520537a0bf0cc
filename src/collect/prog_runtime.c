// SPDX-License-Identifier: GPL-2.0
/* iowhy's BPF programs' own run time per phase, sampled from the kernel's statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "probe_set.h"
#include "prog_runtime.h"

#define PR_ON_NS 50000000ull      /* statistics on this long... */
#define PR_PERIOD_NS 500000000ull /* ...in every period this long at first, */
#define PR_PERIOD_MAX_NS 4000000000ull /* doubling up to this: each switch patches kernel text */
#define PR_MAX_PROGS 256 /* programs read (a session has about 60) */

struct prog_runtime {
	prog_runtime_progs_fn progs;
	void *ctx;
	int fd;                   /* the BPF_ENABLE_STATS fd while on, else -1 */
	int open;                 /* a phase is open */
	int unavailable;          /* BPF_ENABLE_STATS failed: no figures */
	uint64_t on_since, next_on, phase_start, period;
	uint64_t base_ns, base_runs;
	uint64_t clock_ps;        /* one clock read, measured at start (ps) */
	struct prog_runtime_phase cur;
	int nmiss;                /* programs in miss0 */
	struct {
		__u32 id;
		__u64 misses;
	} miss0[PR_MAX_PROGS];    /* each program's skipped runs at the phase's start */
};

/* One CLOCK_MONOTONIC read here, in ps (the fastest of 5 batches of 200): the statistics add about
 * one clock read to every run they time (the reads bracket the program). */
static uint64_t clock_read_ps(void)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < 5; b++) {
		struct timespec t0, t, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (int i = 0; i < 200; i++)
			clock_gettime(CLOCK_MONOTONIC, &t);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		uint64_t d = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
			     (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;

		if (d * 5 < best)
			best = d * 5; /* ps per read: d ns / 200 reads */
	}
	return best == UINT64_MAX ? 0 : best;
}

int prog_runtime_sets_progs(const struct probe_set *const *sets, int nsets, struct prog_ref *progs,
			    int max)
{
	int n = 0;

	for (int i = 0; i < nsets; i++)
		for (int j = 0; sets[i] && j < sets[i]->n && n < max; j++) {
			int fd = sets[i]->p[j].prog ? bpf_program__fd(sets[i]->p[j].prog) : -1;

			if (fd < 0)
				continue;
			progs[n].fd = fd;
			progs[n++].name = bpf_program__name(sets[i]->p[j].prog);
		}
	return n;
}

/* Sum of run time and runs over every program. */
static void snapshot(const struct prog_runtime *r, uint64_t *ns, uint64_t *runs)
{
	struct prog_ref progs[PR_MAX_PROGS];
	int n = r->progs(r->ctx, progs, PR_MAX_PROGS);

	*ns = *runs = 0;
	for (int i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(progs[i].fd, &info, &len))
			continue;
		*ns += info.run_time_ns;
		*runs += info.run_cnt;
	}
}

/* Each program's skipped runs (recursion_misses, counted whether statistics are on or not): at the
 * phase's start (end 0) into miss0; at its end (end 1) the phase's total and the program with the
 * most. A program loaded during the phase counts from 0. */
static void misses(struct prog_runtime *r, int end)
{
	struct prog_ref progs[PR_MAX_PROGS];
	int n = r->progs(r->ctx, progs, PR_MAX_PROGS);

	if (!end)
		r->nmiss = 0;
	for (int i = 0; i < n; i++) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		__u64 base = 0, d;

		if (bpf_obj_get_info_by_fd(progs[i].fd, &info, &len))
			continue;
		if (!end) {
			if (r->nmiss < PR_MAX_PROGS) {
				r->miss0[r->nmiss].id = info.id;
				r->miss0[r->nmiss++].misses = info.recursion_misses;
			}
			continue;
		}
		for (int k = 0; k < r->nmiss; k++)
			if (r->miss0[k].id == info.id)
				base = r->miss0[k].misses;
		if (info.recursion_misses <= base)
			continue;
		d = info.recursion_misses - base;
		r->cur.missed += d;
		if (d > r->cur.missed_top) {
			r->cur.missed_top = d;
			snprintf(r->cur.missed_top_name, sizeof(r->cur.missed_top_name), "%s",
				 progs[i].name ? progs[i].name : "?");
		}
	}
}

static void stats_on(struct prog_runtime *r, uint64_t now)
{
	if (r->unavailable)
		return;
	r->fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (r->fd < 0) {
		r->unavailable = 1; /* (no CAP_SYS_ADMIN, an old kernel): not tried again */
		return;
	}
	r->on_since = now;
	r->cur.windows++;
	snapshot(r, &r->base_ns, &r->base_runs);
}

static void stats_off(struct prog_runtime *r, uint64_t now)
{
	uint64_t ns, runs;

	if (r->fd < 0)
		return;
	snapshot(r, &ns, &runs);
	close(r->fd);
	r->fd = -1;
	ns = ns > r->base_ns ? ns - r->base_ns : 0;
	runs = runs > r->base_runs ? runs - r->base_runs : 0;
	/* less what the statistics' own clock read added to each run */
	r->cur.run_ns += ns > runs * r->clock_ps / 1000 ? ns - runs * r->clock_ps / 1000 : 0;
	r->cur.runs += runs;
	r->cur.on_ns += now - r->on_since;
	/* each switch on or off is a static key: kernel text patched on every CPU, with IPIs into
	 * the workload (~5 ms of CPU each on a PVM guest): a long phase is sampled less often */
	r->next_on = r->on_since + r->period;
	r->period = r->period * 2 < PR_PERIOD_MAX_NS ? r->period * 2 : PR_PERIOD_MAX_NS;
}

struct prog_runtime *prog_runtime_new(prog_runtime_progs_fn progs, void *ctx, int stats)
{
	struct prog_runtime *r;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->progs = progs;
	r->ctx = ctx;
	r->fd = -1;
	r->unavailable = !stats;
	if (stats)
		r->clock_ps = clock_read_ps();
	return r;
}

void prog_runtime_free(struct prog_runtime *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	free(r);
}

void prog_runtime_begin(struct prog_runtime *r, uint64_t now)
{
	if (!r)
		return;
	if (r->fd >= 0) {
		close(r->fd);
		r->fd = -1;
	}
	r->cur = (struct prog_runtime_phase){ 0 };
	r->phase_start = now;
	r->period = PR_PERIOD_NS;
	r->open = 1;
	misses(r, 0);
	stats_on(r, now);
}

void prog_runtime_poll(struct prog_runtime *r, uint64_t now)
{
	if (!r || !r->open)
		return;
	if (r->fd >= 0 && now - r->on_since >= PR_ON_NS)
		stats_off(r, now);
	else if (r->fd < 0 && now >= r->next_on)
		stats_on(r, now);
}

struct prog_runtime_phase prog_runtime_end(struct prog_runtime *r, uint64_t now)
{
	struct prog_runtime_phase z = { 0 };

	if (!r || !r->open)
		return z;
	stats_off(r, now);
	misses(r, 1);
	r->open = 0;
	r->cur.wall_ns = now - r->phase_start;
	return r->cur;
}

uint64_t prog_runtime_estimate_ns(const struct prog_runtime_phase *p)
{
	if (!p->on_ns)
		return 0;
	return (uint64_t)((double)p->run_ns * (double)p->wall_ns / (double)p->on_ns);
}
