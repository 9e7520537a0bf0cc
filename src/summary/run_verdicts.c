// SPDX-License-Identifier: GPL-2.0
/* Passive verdicts of an ordinary run (run_verdicts.h). */
#include <stdio.h>
#include <string.h>
#include "run_verdicts.h"
#include "summary.h"
#include "fuse_model.h"

/* Is NAME a device below the top level of one of the session's stacks? */
static int below_a_stack(const struct session_summary *sum, const char *name)
{
	for (int k = 0; k < sum->nstacks; k++)
		for (int i = 0; i < sum->stacks[k].ndevs; i++)
			if (sum->stacks[k].level[i] > 0 && !strcmp(sum->stacks[k].dev[i], name))
				return 1;
	return 0;
}

/* The index in st->dev of the last device down the chain of what device i sits on. */
static int bottom_of(const struct stack_line *st, int i)
{
	for (int hops = 0; st->on[i] && hops < st->ndevs; hops++)
		i = st->on[i] - 1;
	return i;
}

/* The members: a stack's own devices when it has several (peers), each with the device at the
 * bottom of what it sits on (the next level's only one when that is not known), else the
 * top-level disks with the workload's bytes (independent: not compared with each other). Sets
 * in->shared_lower when a stack's next level is one device. */
static void pick_members(const struct session_summary *sum, struct vd_input *in)
{
	for (int k = 0; k < sum->nstacks && in->nmembers < 2; k++) {
		const struct stack_line *st = &sum->stacks[k];
		int n = 0, nlow = 0, low = -1;

		for (int i = 0; i < st->ndevs; i++) {
			n += st->level[i] == 0;
			if (st->level[i] == 1) {
				nlow++;
				low = i;
			}
		}
		if (n < 2)
			continue;
		in->nmembers = 0;
		for (int i = 0; i < st->ndevs && in->nmembers < VD_MAX_MEMBERS; i++) {
			struct vd_member *m = &in->m[in->nmembers];

			if (st->level[i] != 0)
				continue;
			snprintf(m->name, sizeof(m->name), "%s", st->dev[i]);
			if (st->on[i] || nlow == 1)
				snprintf(m->bottom, sizeof(m->bottom), "%s",
					 st->dev[st->on[i] ? bottom_of(st, i) : low]);
			in->nmembers++;
		}
		if (nlow == 1)
			snprintf(in->shared_lower, sizeof(in->shared_lower), "%s", st->dev[low]);
	}
	if (in->nmembers >= 2)
		return;
	in->nmembers = 0;
	in->independent = 1;
	for (int d = 0; d < sum->ndisks && in->nmembers < VD_MAX_MEMBERS; d++)
		if (sum->disks[d].workload_bytes && !below_a_stack(sum, sum->disks[d].name))
			snprintf(in->m[in->nmembers++].name, sizeof(in->m[0].name), "%s",
				 sum->disks[d].name);
}

/* Sums of one member's numbers over the phases. */
struct member_sums {
	uint64_t window, busy, requests, queue, dev, workload_bytes, wl_requests;
};

/* Add phase p's numbers of member m (a disk of p by name) to its sums and throttle limits. */
static void add_phase(const struct io_phase *p, struct vd_member *m, struct member_sums *ms)
{
	struct io_level_stat v;

	for (size_t i = 0; i < p->ndevs; i++) {
		const struct io_devinfo *d = &p->devs[i];

		if (d->is_partition || strcmp(d->name, m->name))
			continue;
		m->major = IO_DEV_MAJOR(d->dev);
		m->minor = IO_DEV_MINOR(d->dev);
		if (d->thr_read_bps || d->thr_write_bps || d->thr_read_iops || d->thr_write_iops) {
			m->thr_read_bps = d->thr_read_bps;
			m->thr_write_bps = d->thr_write_bps;
			m->thr_read_iops = d->thr_read_iops;
			m->thr_write_iops = d->thr_write_iops;
			snprintf(m->thr_cgroup, sizeof(m->thr_cgroup), "%s", d->thr_cgroup);
		}
		io_level_stat(p, d->dev, &v);
		if (!v.requests)
			return;
		ms->window += p->window_ns;
		ms->busy += v.busy_ns;
		ms->requests += v.requests;
		ms->queue += v.queue_ns;
		ms->dev += v.dev_ns;
		ms->workload_bytes += v.workload_bytes;
		ms->wl_requests += v.requests; /* IOPS of the device, every submitter */
		return;
	}
}

/* The busiest thread: the comm with the most CPU demand per task (on a CPU, or in the run queue
 * waiting for one), over its phase's wall. */
static void top_thread(const struct session_result *s, struct vd_input *in)
{
	double best = 0;

	for (int i = 0; i < s->nphases; i++) {
		const struct phase_result *p = &s->phases[i];
		uint64_t wall = p->wall.end_ns > p->wall.start_ns ? p->wall.end_ns - p->wall.start_ns : 0;

		for (size_t c = 0; wall && c < p->ncomms; c++) {
			const struct comm_stats *cs = &p->comms[c];
			double per = (double)(cs->tasks ? cs->tasks : 1) * (double)wall / 100.0;
			double cpu = (double)(cs->state_ns[IOWHY_TS_USER] +
					      cs->state_ns[IOWHY_TS_KERNEL]) / per;
			double runq = (double)cs->state_ns[IOWHY_TS_RUNQ] / per;

			if (cpu + runq > best) {
				best = cpu + runq;
				snprintf(in->top_thread, sizeof(in->top_thread), "%s", cs->comm);
				in->top_thread_cpu_pct = cpu;
				in->top_thread_runq_pct = runq;
			}
		}
	}
}

/* Wall, its run-queue wait, dirty-page pauses and fsync waits (the journal commits they wait
 * for) over the phases. */
static void waits(const struct session_result *s, struct vd_input *in)
{
	uint64_t wall = 0, pause = 0, fsync = 0, wr = 0, rd = 0, runq = 0;

	for (int i = 0; i < s->nphases; i++) {
		const struct phase_result *p = &s->phases[i];

		wall += p->wall.end_ns > p->wall.start_ns ? p->wall.end_ns - p->wall.start_ns : 0;
		runq += p->wall.bucket_ns[WB_RUNQ];
		if (!p->io)
			continue;
		pause += p->io->ctr.bdp_pause_ns;
		for (size_t k = 0; k < p->io->nfs; k++)
			fsync += p->io->fs[k].st.total_ns;
		wr += io_phase_workload_bytes(p->io, 0, IO_OP_WRITE);
		rd += io_phase_workload_bytes(p->io, 0, IO_OP_READ);
	}
	in->wall_s = wall / 1e9;
	in->runq_s = runq / 1e9;
	in->dirty_pause_s = pause / 1e9;
	in->journal_wait_s = fsync / 1e9;
	in->writes = wr >= rd;
}

int run_verdict_input(const struct session_result *s, const struct session_summary *sum,
		      struct vd_input *in)
{
	memset(in, 0, sizeof(*in));
	in->passive = 1;
	pick_members(sum, in);
	if (in->nmembers < 2)
		return in->nmembers;
	for (int k = 0; k < in->nmembers; k++) {
		struct vd_member *m = &in->m[k];
		struct member_sums ms = { 0 };

		for (int i = 0; i < s->nphases; i++)
			if (s->phases[i].io)
				add_phase(s->phases[i].io, m, &ms);
		if (ms.requests) {
			m->lat_us = ms.dev / 1e3 / (double)ms.requests;
			m->qwait_us = ms.queue / 1e3 / (double)ms.requests;
		}
		if (ms.window) {
			m->busy_pct = 100.0 * (double)ms.busy / (double)ms.window;
			m->mib_s = (double)ms.workload_bytes / 1048576.0 / (ms.window / 1e9);
			m->iops = (double)ms.wl_requests / (ms.window / 1e9);
		}
		m->inflight = ms.busy ? (double)ms.dev / (double)ms.busy : 0;
		for (int d = 0; d < sum->ndisks; d++)
			if (!strcmp(sum->disks[d].name, m->name))
				m->iowait_s = sum->disks[d].iowait_ns / 1e9;
	}
	top_thread(s, in);
	waits(s, in);
	return in->nmembers;
}

/* One daemon's sums over the phases. */
struct fuse_sums {
	uint32_t tgid;
	char comm[16];
	uint64_t cpu_overlap_ns, runq_overlap_ns, wreplies;
};

int run_fuse_verdicts(const struct session_result *s, struct verdict *out, int n, int max)
{
	struct fuse_sums d[16];
	uint64_t wait = 0, waits = 0;
	int nd = 0;

	memset(d, 0, sizeof(d));
	for (int i = 0; i < s->nphases; i++) {
		const struct fuse_phase *f = s->phases[i].fuse;

		for (size_t k = 0; f && k < f->nrows; k++)
			if (f->rows[k].who == FUSE_WHO_TREE) {
				wait += f->rows[k].st.wait_ns;
				waits += f->rows[k].st.waits;
			}
		for (size_t k = 0; f && k < f->ndaemons; k++) {
			const struct fuse_daemon_row *r = &f->daemons[k];
			int j = 0;

			while (j < nd && d[j].tgid != r->tgid)
				j++;
			if (j == nd) {
				if (nd == (int)(sizeof(d) / sizeof(d[0])))
					continue;
				d[nd].tgid = r->tgid;
				snprintf(d[nd].comm, sizeof(d[0].comm), "%s", r->comm);
				nd++;
			}
			d[j].cpu_overlap_ns += r->st.wall_overlap_ns[FUSE_D_CPU];
			d[j].runq_overlap_ns += r->st.wall_overlap_ns[FUSE_D_RUNQ];
			d[j].wreplies += r->st.wreplies;
		}
	}
	for (int j = 0; j < nd && wait && n < max; j++) {
		double share = (double)d[j].cpu_overlap_ns / (double)wait;
		double runq = (double)d[j].runq_overlap_ns / (double)wait;
		char rq[96] = "";
		struct verdict *v;

		/* on a CPU, or waiting for one (a loaded host): the daemon's work either way; but on
		 * it for a good part of that */
		if (share + runq < VD_FUSE_CPU_SHARE || share < VD_FUSE_CPU_SHARE / 2 ||
		    !d[j].wreplies)
			continue;
		if (runq >= 0.01)
			snprintf(rq, sizeof(rq), ", and %.0f%% more waiting for a CPU (%.2f s)",
				 100 * runq, d[j].runq_overlap_ns / 1e9);
		v = &out[n++];
		memset(v, 0, sizeof(*v));
		v->kind = VD_FUSE_CPU;
		snprintf(v->subject, sizeof(v->subject), "%s", d[j].comm);
		snprintf(v->text, sizeof(v->text),
			 "%s's CPU: %.0f%% of the workload's FUSE wait%s: pid %u was on a CPU %.2f s "
			 "of the %.2f s the workload waited on %llu requests (%llu answered by it): "
			 "the daemon's own work is the wait", d[j].comm, 100 * share, rq,
			 (unsigned)d[j].tgid, d[j].cpu_overlap_ns / 1e9, wait / 1e9,
			 (unsigned long long)waits, (unsigned long long)d[j].wreplies);
		v->inputs[0] = (struct vd_kv){ "pid", d[j].tgid };
		v->inputs[1] = (struct vd_kv){ "cpu_overlap_ns", (double)d[j].cpu_overlap_ns };
		v->inputs[2] = (struct vd_kv){ "fuse_wait_ns", (double)wait };
		v->inputs[3] = (struct vd_kv){ "share", share };
		v->inputs[4] = (struct vd_kv){ "replies", (double)d[j].wreplies };
		v->inputs[5] = (struct vd_kv){ "runq_overlap_ns", (double)d[j].runq_overlap_ns };
		v->inputs[6] = (struct vd_kv){ "runq_share", runq };
		v->ninputs = 7;
	}
	return n;
}
