// SPDX-License-Identifier: GPL-2.0
/* iowhy attach: the targets, seeding, the window and the per-process views (see attach.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "consumer_nice.h"
#include "attach.h"
#include "attach_probes.h"
#include "attach_cgroups.h"
#include "seed_iter.h"
#include "interval.h"
#include "clock.h"
#include "phase.h"
#include "result.h"
#include "session_priv.h"
#include "sampler.h"
#include "fuse_probes.h"
#include "timeline.h"

#define RESCAN_NS (250ull * 1000 * 1000)   /* --cgroup: look for tasks that joined this often */
#define EXIT_DRAIN_NS (200ull * 1000 * 1000) /* after a target exits: its last events */
#define PROC_HASH 4096                     /* per-process views: open addressing, grown never */
#define OVERFLOW_BITS 65536

/* The per-process view of one thread group: a model of its own. */
struct proc_view {
	uint32_t tgid;        /* 0: empty slot */
	char comm[IOWHY_COMM_LEN];
	struct model m;
	uint64_t prev[WB_COUNT];  /* --interval: its buckets at the previous interval */
	int cg;                   /* -a, --cgroup: its cgroup's view (-1: none) */
};

struct attach_run {
	const struct attach_target *t;
	struct session *s;
	int tag;
	pid_t self;
	struct proc_view **procs;  /* [PROC_HASH], by tgid */
	size_t nprocs;
	uint64_t overflow;         /* processes beyond PROC_HASH: in the total only (about) */
	uint8_t *overflow_seen;    /* [OVERFLOW_BITS]: counted once each (by tgid, hashed) */
	char cg_path[4096];        /* the cgroup directory, resolved */
	const char *cg_list;       /* "cgroup.procs" (v2) or "tasks" (v1) */
	int pidfds[ATTACH_MAX_PIDS];
	struct cg_views *cgs;      /* -a, --cgroup: per-cgroup views; NULL with -p */
	struct seed_iter *it;      /* the task iterator; NULL: seeding from /proc */
	struct phase_result *r;
	int sweep;                 /* seeding from /proc after the iterator: members skipped */
	uint64_t last_seed_ns;     /* when the last task was made a member */
	uint64_t utime0, stime0;   /* -p: utime and stime of the targets at the start (ticks) */
	struct proc_io_row *end_io; /* the processes' bytes read as the window closed (end_nio) */
	int end_nio, end_taken;
};

/*
 * The processes' syscall bytes (allocated in *io, free()): the live counts while the window is
 * open; once it closed, the ones read right then, before the kernel counts on for the next
 * window (sys_until reset): the final interval and the report are the window's. Count, or -1.
 */
static int window_proc_io(struct attach_run *a, struct proc_io_row **io)
{
	*io = NULL;
	if (a->t->lite)
		return 0;
	if (!a->end_taken)
		return core_probes_proc_io(&a->s->core, io);
	if (a->end_nio <= 0)
		return a->end_nio;
	*io = malloc((size_t)a->end_nio * sizeof(**io));
	if (!*io)
		return -1;
	memcpy(*io, a->end_io, (size_t)a->end_nio * sizeof(**io));
	return a->end_nio;
}

static size_t proc_slot(uint32_t tgid)
{
	uint32_t h = tgid * 2654435761u;

	return (h >> 20) & (PROC_HASH - 1);
}

/*
 * --interval with -a / --cgroup: the busiest processes since the previous interval (each view's
 * wall deltas; views of processes with no event since stay where they were and show nothing).
 */
static uint64_t iv_busy(const struct iv_proc *p)
{
	return p->ns - p->bucket_ns[WB_OTHER];
}

static int cmp_iv_busy(const void *x, const void *y)
{
	uint64_t a = iv_busy(x), b = iv_busy(y);

	return (a < b) - (a > b);
}

static int top_procs(void *ctx, struct iv_proc *out, int max)
{
	struct attach_run *a = ctx;
	struct iv_proc *all = calloc(a->nprocs ? a->nprocs : 1, sizeof(*all));
	size_t n = 0;

	if (!all)
		return 0;
	for (size_t i = 0; i < PROC_HASH && n < a->nprocs; i++) {
		struct proc_view *v = a->procs[i];
		struct iv_proc *p = &all[n];

		if (!v)
			continue;
		model_advance(&v->m, a->s->pc.model.last_ns);
		p->pid = v->tgid;
		memcpy(p->comm, v->comm, sizeof(p->comm));
		for (int b = 0; b < WB_COUNT; b++) {
			p->bucket_ns[b] = v->m.wall.bucket_ns[b] - v->prev[b];
			v->prev[b] = v->m.wall.bucket_ns[b];
			p->ns += p->bucket_ns[b];
		}
		n += iv_busy(p) > 0;
	}
	qsort(all, n, sizeof(*all), cmp_iv_busy);
	if ((int)n > max)
		n = (size_t)max;
	memcpy(out, all, n * sizeof(*all));
	free(all);
	return (int)n;
}

/* The view of tgid; created (starting at `start`) when absent and `create`. */
static struct proc_view *proc_get(struct attach_run *a, uint32_t tgid, int create, uint64_t start,
				  const char *comm)
{
	size_t i = proc_slot(tgid);

	for (size_t k = 0; k < PROC_HASH; k++, i = (i + 1) & (PROC_HASH - 1)) {
		struct proc_view *v = a->procs[i];

		if (v && v->tgid == tgid)
			return v;
		if (v)
			continue;
		if (!create || 4 * (a->nprocs + 1) > 3 * PROC_HASH) {
			a->overflow += create && !a->overflow_seen[tgid % OVERFLOW_BITS];
			if (create)
				a->overflow_seen[tgid % OVERFLOW_BITS] = 1;
			return NULL;
		}
		v = calloc(1, sizeof(*v));
		if (!v)
			return NULL;
		v->tgid = tgid;
		snprintf(v->comm, sizeof(v->comm), "%s", comm ? comm : "?");
		model_init(&v->m, start);
		v->cg = a->cgs ? cg_views_of(a->cgs, (pid_t)tgid, start) : -1;
		a->procs[i] = v;
		a->nprocs++;
		return v;
	}
	return NULL;
}

/*
 * --interval with -a / --cgroup: each cgroup's interval (its view's wall deltas, its processes'
 * syscall bytes since the previous interval).
 */
static void top_cgroups(void *ctx, struct interval_sample *smp)
{
	struct attach_run *a = ctx;
	struct proc_io_row *io = NULL;
	int nio = window_proc_io(a, &io);

	cg_views_clear_bytes(a->cgs);
	for (int k = 0; k < nio; k++) {
		struct proc_view *v = proc_get(a, io[k].tgid, 0, 0, NULL);

		if (v)
			cg_views_add_bytes(a->cgs, v->cg, io[k].read_bytes, io[k].write_bytes);
	}
	free(io);
	cg_views_interval(a->cgs, a->s->pc.model.last_ns, a->t->lite, smp);
}

/*
 * Every event the phase model took, routed to its process's view: a new process (a fork into
 * another thread group) starts its own view, runnable, at the fork; an exec renames the view.
 */
static void tap_event(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct attach_run *a = ctx;
	struct proc_view *v;
	struct model *cm;

	if (e->type == IOWHY_EV_FORK && !(e->flags & IOWHY_EVF_THREAD)) {
		int known = a->cgs && proc_get(a, e->arg2, 0, 0, NULL) != NULL;

		v = proc_get(a, e->arg2, 1, e->ts, comm);
		if (!v)
			return;
		model_add_task(&v->m, e->arg, e->arg2, comm, IOWHY_TS_RUNQ, e->nr);
		if (!a->cgs || known)
			return;
		if (v->cg < 0) { /* gone before it was looked at: the parent's cgroup */
			struct proc_view *pv = proc_get(a, e->tgid, 0, 0, NULL);

			v->cg = pv ? pv->cg : -1;
			cg_views_count(a->cgs, v->cg);
		}
		if ((cm = cg_views_model(a->cgs, v->cg)))
			model_add_task(cm, e->arg, e->arg2, comm, IOWHY_TS_RUNQ, e->nr);
		return;
	}
	v = proc_get(a, e->tgid, 1, e->ts, comm);
	if (!v)
		return;
	if (e->type == IOWHY_EV_EXEC && comm)
		snprintf(v->comm, sizeof(v->comm), "%s", comm);
	model_event(&v->m, e, comm);
	if (a->cgs && (cm = cg_views_model(a->cgs, v->cg)))
		model_event(cm, e, comm);
}

/* ---- targets ---- */

/* Whether dir (an open cgroup directory) lists tasks in `name`. */
static int has_file(int dir, const char *name)
{
	return faccessat(dir, name, R_OK, 0) == 0;
}

/* Resolve --cgroup PATH: an absolute directory, or one relative to the cgroup v2 mount or to a v1
 * hierarchy under /sys/fs/cgroup. 0, or 2 after one line. */
static int resolve_cgroup(const char *path, char *out, size_t n, const char **list)
{
	const char *bases[] = { "", "/sys/fs/cgroup/unified/", "/sys/fs/cgroup/" };

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		char cand[4096];
		struct stat st;
		int fd;

		if ((path[0] == '/') != (i == 0))
			continue;
		snprintf(cand, sizeof(cand), "%s%s", bases[i], path);
		fd = open(cand, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && (has_file(fd, "cgroup.procs") || has_file(fd, "tasks"))) {
			*list = has_file(fd, "cgroup.procs") ? "cgroup.procs" : "tasks";
			if (!realpath(cand, out))
				snprintf(out, n, "%s", cand);
			close(fd);
			return 0;
		}
		close(fd);
		fprintf(stderr, "iowhy attach: --cgroup %s: %s is not a cgroup directory\n", path, cand);
		return 2;
	}
	fprintf(stderr, "iowhy attach: --cgroup %s: no such cgroup directory\n", path);
	return 2;
}

/* Check each -p target: it exists, is not a kernel thread, is not iowhy. 0, or 2 after one line. */
static int check_pids(const struct attach_target *t)
{
	for (int i = 0; i < t->npids; i++) {
		pid_t p = t->pids[i];
		int k = seed_is_kthread(p);
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/task/%d", p, p);
		if (k < 0 || stat(path, &st)) {
			fprintf(stderr, "iowhy attach: -p %d: no such process\n", p);
			return 2;
		}
		if (k > 0) {
			fprintf(stderr, "iowhy attach: -p %d: a kernel thread (it makes no syscalls: "
				"attach to the processes it works for, or use -a)\n", p);
			return 2;
		}
		if (p == getpid()) {
			fprintf(stderr, "iowhy attach: -p %d: that is iowhy itself\n", p);
			return 2;
		}
	}
	return 0;
}

/* ---- seeding ---- */

/* Start task st, a tree member now, in its state in the phase's model, its process's view and its
 * cgroup's. */
static void seed_model(struct attach_run *a, struct seed_task *st)
{
	struct phase_ctx *pc = &a->s->pc;
	struct proc_view *v;

	if (a->t->lite)
		st->nr = IOWHY_NR_NONE;
	if (st->seeded_ns > a->last_seed_ns)
		a->last_seed_ns = st->seeded_ns;
	model_add_task(&pc->model, st->tid, st->tgid, st->comm, st->state, st->nr);
	v = proc_get(a, (uint32_t)st->tgid, 1, pc->model.wall.start_ns, st->comm);
	if (v) {
		struct model *cm = a->cgs ? cg_views_model(a->cgs, v->cg) : NULL;

		if (st->tid == st->tgid)
			snprintf(v->comm, sizeof(v->comm), "%s", st->comm);
		model_add_task(&v->m, st->tid, st->tgid, st->comm, st->state, st->nr);
		if (cm)
			model_add_task(cm, st->tid, st->tgid, st->comm, st->state, st->nr);
	}
}

/*
 * One pass of the task iterator: the target tasks not yet members become members in the kernel;
 * the model starts them in the same states. How many, or -1 when the iterator could not run (the
 * caller seeds from /proc then: seeded_by says so).
 */
static int seed_by_iter(struct attach_run *a)
{
	struct seed_task *t;
	int n = seed_iter_run(a->it, &t);

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		seed_model(a, &t[i]);
	free(t);
	return n;
}

/* The iterator failed at run time: note why, drop it, seed from /proc from now on. */
static void iter_failed(struct attach_run *a)
{
	struct phase_result *r = a->r;

	snprintf(r->seed_note, sizeof(r->seed_note), "iter/task run: %s", strerror(errno));
	snprintf(r->seeded_by, sizeof(r->seeded_by), "proc");
	seed_iter_close(a->it);
	a->it = NULL;
}

/* Seed every thread of process tgid not yet a member. Returns how many, -1 if the process is gone
 * (its /proc/PID/task cannot be read or its leader exited first). */
static int seed_process(struct attach_run *a, pid_t tgid, int rescan)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0, leader = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		pid_t tid = (pid_t)atoi(d->d_name);
		struct seed_task st;

		if (tid <= 0 || (rescan && core_probes_is_member(&a->s->core, tid)))
			continue;
		if (seed_read_task(tgid, tid, &st) ||
		    core_probes_seed(&a->s->core, &st, a->tag, a->t->lite))
			continue; /* it exited meanwhile */
		st.seeded_ns = now_ns();
		seed_model(a, &st);
		n++;
		leader |= tid == tgid;
	}
	closedir(dir);
	return leader || rescan ? n : -1;
}

/* The processes listed in the cgroup's cgroup.procs / tasks file; seeds those not members. */
static int seed_cgroup(struct attach_run *a)
{
	char path[4200], line[32];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", a->cg_path, a->cg_list);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		pid_t p = (pid_t)atoi(line), tgid = p;
		int k;

		if (p <= 0 || p == a->self)
			continue;
		if (!strcmp(a->cg_list, "tasks")) { /* v1 lists threads: their process */
			char sp[64], buf[512], *q;
			FILE *s;

			snprintf(sp, sizeof(sp), "/proc/%d/status", p);
			s = fopen(sp, "re");
			while (s && fgets(buf, sizeof(buf), s))
				if ((q = strstr(buf, "Tgid:")) == buf)
					tgid = (pid_t)atoi(q + 5);
			if (s)
				fclose(s);
			if (tgid == a->self)
				continue;
		}
		if (a->it && !seed_iter_add(a->it, tgid))
			continue; /* seeded by the pass below */
		k = seed_process(a, tgid, 1);
		n += k > 0 ? k : 0;
	}
	fclose(f);
	if (a->it) {
		int k = seed_by_iter(a);

		if (k < 0) {
			iter_failed(a);
			return seed_cgroup(a);
		}
		n += k;
	}
	return n;
}

/* Every process of the machine but iowhy. */
static int seed_all(struct attach_run *a)
{
	struct dirent *d;
	DIR *dir;
	int n = 0;

	if (a->it) {
		n = seed_by_iter(a);
		if (n >= 0)
			return n;
		iter_failed(a);
		n = 0;
	}
	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		pid_t p = (pid_t)atoi(d->d_name);
		int k;

		if (p <= 0 || p == a->self)
			continue;
		k = seed_process(a, p, a->sweep);
		n += k > 0 ? k : 0;
	}
	closedir(dir);
	return n;
}

/* utime and stime (clock ticks) of the -p targets, summed. */
static void targets_cpu_ticks(const struct attach_target *t, uint64_t *user, uint64_t *sys)
{
	*user = *sys = 0;

	for (int i = 0; i < t->npids; i++) {
		char path[64], buf[1024], *p;
		unsigned long long ut = 0, stt = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", t->pids[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		/* after the comm: state ppid pgrp session tty tpgid flags minflt cminflt majflt
		 * cmajflt utime stime */
		if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
				&stt) == 2) {
			*user += ut;
			*sys += stt;
		}
	}
}

/*
 * After the iterator's pass: the target tasks /proc lists that the pass did not make members (a
 * task the iterator does not show: seen here for the host's own pid 1) are seeded from /proc; the
 * note counts them.
 */
static void sweep_stragglers(struct attach_run *a)
{
	struct seed_iter *it = a->it;
	int n = 0, k;

	if (!it)
		return;
	a->it = NULL;
	a->sweep = 1;
	switch (a->t->kind) {
	case ATTACH_PIDS:
		for (int i = 0; i < a->t->npids; i++)
			n += (k = seed_process(a, a->t->pids[i], 1)) > 0 ? k : 0;
		break;
	case ATTACH_CGROUP:
		n = (k = seed_cgroup(a)) > 0 ? k : 0;
		break;
	default:
		n = (k = seed_all(a)) > 0 ? k : 0;
		break;
	}
	a->sweep = 0;
	a->it = it;
	if (n)
		snprintf(a->r->seed_note, sizeof(a->r->seed_note),
			 "%d task%s the iterator did not show, seeded from /proc", n, n == 1 ? "" : "s");
}

/* Seed the targets. 0, or 2 after one line when a -p target vanished or nothing could be seeded. */
static int seed_targets(struct attach_run *a)
{
	const struct attach_target *t = a->t;
	int n;

	switch (t->kind) {
	case ATTACH_PIDS:
		for (int i = 0; i < t->npids; i++) {
			a->pidfds[i] = (int)syscall(SYS_pidfd_open, t->pids[i], 0);
			if (a->it && a->pidfds[i] >= 0 && seed_iter_add(a->it, t->pids[i]))
				iter_failed(a);
		}
		if (a->it && seed_by_iter(a) < 0)
			iter_failed(a);
		sweep_stragglers(a);
		for (int i = 0; i < t->npids; i++) {
			int seeded = a->it ? core_probes_is_member(&a->s->core, t->pids[i])
					   : seed_process(a, t->pids[i], 0) > 0;

			if (a->pidfds[i] < 0 || !seeded) {
				fprintf(stderr, "iowhy attach: -p %d: the process exited during attach\n",
					t->pids[i]);
				return 2;
			}
		}
		targets_cpu_ticks(t, &a->utime0, &a->stime0);
		return 0;
	case ATTACH_CGROUP:
		n = seed_cgroup(a);
		if (n < 0) {
			fprintf(stderr, "iowhy attach: --cgroup %s: cannot read its task list\n",
				t->cgroup);
			return 2;
		}
		sweep_stragglers(a);
		return 0;
	case ATTACH_ALL:
		n = seed_all(a);
		sweep_stragglers(a);
		return n > 0 ? 0 : 2;
	default:
		return 2;
	}
}

/* -p: a target that has exited (its pidfd is readable), or 0. */
static pid_t exited_target(struct attach_run *a)
{
	for (int i = 0; i < a->t->npids; i++) {
		struct pollfd p = { .fd = a->pidfds[i], .events = POLLIN };

		if (a->pidfds[i] >= 0 && poll(&p, 1, 0) == 1)
			return a->t->pids[i];
	}
	return 0;
}

/* --cgroup: no process left in it. */
static int cgroup_empty(struct attach_run *a)
{
	char path[4200], line[32];
	FILE *f;
	int empty;

	snprintf(path, sizeof(path), "%s/%s", a->cg_path, a->cg_list);
	f = fopen(path, "re");
	if (!f)
		return 1;
	empty = !fgets(line, sizeof(line), f);
	fclose(f);
	return empty;
}

/* ---- results ---- */

static uint64_t row_busy(const struct proc_row *r)
{
	return r->bucket_ns[WB_USER] + r->bucket_ns[WB_KERNEL] + r->bucket_ns[WB_IOWAIT] +
	       r->bucket_ns[WB_RUNQ];
}

static int cmp_rows(const void *x, const void *y)
{
	const struct proc_row *a = x, *b = y;
	uint64_t ba = row_busy(a), bb = row_busy(b);

	return ba < bb ? 1 : ba > bb ? -1 : (a->tgid > b->tgid) - (a->tgid < b->tgid);
}

/* Close every process view at `end` and turn them into rows with their bytes (r->procs). */
static void finish_procs(struct attach_run *a, uint64_t end, struct phase_result *r)
{
	struct proc_io_row *io = NULL;
	int nio = window_proc_io(a, &io);
	size_t n = 0;

	r->procs = calloc(a->nprocs ? a->nprocs : 1, sizeof(*r->procs));
	for (size_t i = 0; i < PROC_HASH; i++) {
		struct proc_view *v = a->procs[i];
		struct proc_row *row;

		if (!v)
			continue;
		model_finish(&v->m, v->m.live ? end : v->m.last_dead_ns);
		if (r->procs) {
			row = &r->procs[n++];
			row->tgid = v->tgid;
			memcpy(row->comm, v->comm, sizeof(row->comm));
			row->start_ns = v->m.wall.start_ns;
			row->end_ns = v->m.wall.end_ns;
			memcpy(row->bucket_ns, v->m.wall.bucket_ns, sizeof(row->bucket_ns));
			memcpy(row->iowait_by_disk, v->m.wall.iowait_by_disk,
			       sizeof(row->iowait_by_disk));
			row->unattributed_ns = v->m.wall.unattributed_ns;
			row->exited = v->m.live == 0;
			row->cgroup = v->cg;
			if (a->t->lite)
				row->read_bytes = row->write_bytes = row->reads = row->writes = ~0ull;
			for (int k = 0; k < nio; k++) {
				if (io[k].tgid != v->tgid)
					continue;
				row->read_bytes = io[k].read_bytes;
				row->write_bytes = io[k].write_bytes;
				row->reads = io[k].reads;
				row->writes = io[k].writes;
			}
		}
		model_free(&v->m);
		free(v);
		a->procs[i] = NULL;
	}
	free(io);
	r->nprocs = r->procs ? n : 0;
	r->procs_untracked = a->overflow;
	if (r->procs)
		qsort(r->procs, r->nprocs, sizeof(*r->procs), cmp_rows);
}

static void describe_target(const struct attach_run *a, char *buf, size_t n)
{
	const struct attach_target *t = a->t;
	size_t len;

	switch (t->kind) {
	case ATTACH_PIDS:
		len = (size_t)snprintf(buf, n, "pid");
		for (int i = 0; i < t->npids && len < n; i++)
			len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? "," : " ", t->pids[i]);
		break;
	case ATTACH_CGROUP:
		snprintf(buf, n, "cgroup %.140s", a->cg_path);
		break;
	default:
		snprintf(buf, n, "all processes");
		break;
	}
}

/* Free what the run holds (pidfds, views). */
static void run_free(struct attach_run *a)
{
	free(a->end_io);
	for (int i = 0; i < a->t->npids; i++)
		if (a->pidfds[i] >= 0)
			close(a->pidfds[i]);
	if (a->procs) {
		for (size_t i = 0; i < PROC_HASH; i++) {
			if (a->procs[i]) {
				model_free(&a->procs[i]->m);
				free(a->procs[i]);
			}
		}
	}
	free(a->procs);
	free(a->overflow_seen);
	cg_views_free(a->cgs);
	seed_iter_close(a->it);
	a->it = NULL;
	a->procs = NULL;
	a->overflow_seen = NULL;
	a->cgs = NULL;
}

/* The window: drain until the duration, an interrupt, or a target's end. Notes why it ended. */
static void watch(struct attach_run *a, uint64_t start, struct phase_result *r)
{
	struct phase_ctx *pc = &a->s->pc;
	uint64_t next_scan = start + RESCAN_NS;

	for (;;) {
		uint64_t now;
		pid_t gone;

		consumer_nice_behind(core_probes_behind(&a->s->core), now_ns());
		usleep((useconds_t)core_probes_poll_ms(&a->s->core) * 1000);
		core_probes_drain(&a->s->core);
		io_probes_poll(a->s->io); /* --timeline: the requests' ring, the dirty bytes */
		now = now_ns();
		interval_poll(a->s->iv, now);
		session_cost_poll(a->s, now);
		if (session_interrupted())
			break;
		if (a->t->duration_ns && now - start >= a->t->duration_ns)
			break;
		if (a->t->kind == ATTACH_PIDS && (gone = exited_target(a))) {
			snprintf(r->end_note, sizeof(r->end_note), "pid %d exited", gone);
			break;
		}
		if (a->t->kind == ATTACH_CGROUP && now >= next_scan) {
			next_scan = now + RESCAN_NS;
			seed_cgroup(a);
			if (cgroup_empty(a) && !pc->model.live) {
				snprintf(r->end_note, sizeof(r->end_note), "cgroup %.130s emptied",
					 a->cg_path);
				break;
			}
		}
	}
}

int attach_run_phase(struct session *s, const struct phase_spec *ps, int idx,
		     struct phase_result *r)
{
	const struct attach_target *t = ps->attach;
	struct attach_run a = { .t = t, .s = s, .tag = idx % IOWHY_MAX_PHASES, .self = getpid(),
				.r = r };
	struct phase_ctx *pc = &s->pc;
	uint64_t start, end, lost0;
	int rc;

	for (int i = 0; i < ATTACH_MAX_PIDS; i++)
		a.pidfds[i] = -1;
	a.procs = calloc(PROC_HASH, sizeof(*a.procs));
	a.overflow_seen = calloc(OVERFLOW_BITS, 1);
	if (t->kind != ATTACH_PIDS)
		a.cgs = cg_views_new();
	if (!a.procs || !a.overflow_seen || (t->kind != ATTACH_PIDS && !a.cgs)) {
		run_free(&a);
		return -1;
	}
	if (t->kind == ATTACH_CGROUP &&
	    (rc = resolve_cgroup(t->cgroup, a.cg_path, sizeof(a.cg_path), &a.cg_list))) {
		run_free(&a);
		return rc;
	}
	core_probes_flush(&s->core);
	/* the iterator loads before the window starts; without it, /proc */
	a.it = seed_iter_open(&s->core, a.tag, t->lite, t->kind == ATTACH_ALL, a.self, r->seed_note,
			      sizeof(r->seed_note));
	snprintf(r->seeded_by, sizeof(r->seeded_by), "%s", a.it ? "task_iter" : "proc");
	pc->tag = a.tag;
	pc->open = 0;
	if (s->io)
		io_probes_phase_begin(s->io, pc->tag);
	if (sampler_active(s->smp))
		sampler_phase_begin(s->smp, pc->tag);
	fuse_probes_phase_begin(s->fuse, pc->tag);
	start = now_ns();
	lost0 = session_events_lost(s);
	session_cost_begin(s, start);
	model_init(&pc->model, start);
	/* --timeline: the seeded tasks' tracks begin at the window's start, in their seeded state */
	if (s->tl && !timeline_phase_begin(s->tl, ps->name, start))
		model_set_slice_sink(&pc->model, timeline_slice, s->tl);
	pc->tap = tap_event;
	pc->tap_ctx = &a;
	rc = seed_targets(&a);
	/* each task's syscalls count from its seeding: the last one's */
	r->seeded_ns = a.last_seed_ns ? a.last_seed_ns : now_ns();
	core_probes_forget_running(&s->core);
	if (t->kind != ATTACH_CGROUP) { /* only --cgroup seeds again (joiners) */
		seed_iter_close(a.it);
		a.it = NULL;
	}
	if (rc) {
		model_free(&pc->model);
		pc->tap = NULL;
		run_free(&a);
		return rc;
	}
	describe_target(&a, r->target, sizeof(r->target));
	interval_begin(s->iv, s, &pc->model, start, r->target, pc->tag, t->lite);
	if (t->kind != ATTACH_PIDS) {
		interval_set_procs(s->iv, top_procs, &a);
		interval_set_cgroups(s->iv, top_cgroups, &a);
	}
	pc->iv = s->iv;
	pc->open = 1;
	if (ps->attach_note)
		fprintf(stderr, "iowhy attach: tracing %s (%llu task%s)%s\n", r->target,
			(unsigned long long)pc->model.live, pc->model.live == 1 ? "" : "s",
			t->duration_ns ? "" : "; Ctrl-C to stop and report");
	watch(&a, start, r);
	if (session_interrupted())
		session_clear_interrupt(); /* Ctrl-C / SIGTERM: the normal end of the window */

	end = now_ns();
	if (ps->attach_note) /* a user knows the window is over; a test reads its witnesses here */
		fprintf(stderr, "iowhy attach: window closed after %.3f s; reporting\n",
			(double)(end - start) / 1e9);
	core_probes_sys_until(&s->core, end); /* the table is the window's, however late it is read */
	io_probes_until(s->io, end);           /* and so are the requests, in the rows and the timeline */
	if (r->end_note[0]) { /* the target's last events (its exit) */
		uint64_t until = end + EXIT_DRAIN_NS;

		while (now_ns() < until) {
			core_probes_drain(&s->core);
			usleep(10000);
		}
	}
	/* the syscall table at the window's end: the targets go on calling, but calls ending after
	 * `end` are not counted (sys_until), so a preempted iowhy reads the window's table */
	core_probes_sys_stats(&s->core, pc->tag, r->sys);
	a.end_nio = window_proc_io(&a, &a.end_io); /* the bytes too, before the reset */
	a.end_taken = 1;
	core_probes_reset_sys_stats(&s->core, pc->tag);
	/* the window's events; living targets' later ones are not the window's */
	if (r->end_note[0])
		core_probes_flush(&s->core);
	else
		core_probes_flush_until(&s->core, end);
	if (r->end_note[0] && !pc->model.live && pc->model.last_dead_ns)
		end = pc->model.last_dead_ns;
	r->tasks_left = 0; /* attached tasks go on living: that is the point */
	session_cost_end(s, now_ns(), r);
	model_finish(&pc->model, end);
	if (s->tl)
		timeline_phase_end(s->tl, pc->model.wall.end_ns);
	interval_end(s->iv, r);
	pc->iv = NULL;
	pc->open = 0;
	pc->tap = NULL;
	finish_procs(&a, end, r);
	if (a.cgs) {
		cg_views_finish(a.cgs, end, r->procs, r->nprocs, t->lite, &r->cgroups,
				&r->ncgroups);
		r->cgroups_untracked = cg_views_untracked(a.cgs);
	}
	r->status = 0;
	r->partial = 0;
	r->lite = t->lite;
	phase_take_model(r, &pc->model);
	r->events_lost = session_events_lost(s) - lost0;
	if (t->kind == ATTACH_PIDS) {
		uint64_t ut, st, hz = (uint64_t)sysconf(_SC_CLK_TCK);

		/* the processes' own utime and stime (whole ticks) over the window, where run has
		 * getrusage: the same accounting */
		targets_cpu_ticks(t, &ut, &st);
		if (hz && ut >= a.utime0 && st >= a.stime0) {
			r->rusage_user_ns = (ut - a.utime0) * (1000000000ull / hz);
			r->rusage_sys_ns = (st - a.stime0) * (1000000000ull / hz);
		}
	}
	if (s->io)
		io_probes_phase_end(s->io, pc->tag, r);
	if (s->tl && r->io && timeline_devices(s->tl, r->io))
		fprintf(stderr, "iowhy: --timeline: out of memory for the devices' names\n");
	if (sampler_active(s->smp) && (r->samples = sampler_phase_end(s->smp, pc->tag, NULL)))
		cpu_samples_split_phase(r->samples, r);
	fuse_probes_phase_end(s->fuse, pc->tag, r);
	run_free(&a);
	return 0;
}

int attach_main(const struct attach_target *t, const struct common_opts *co, const char *command)
{
	static struct phase_spec ph; /* large: not on the stack */
	char cg[4096];
	const char *list;
	int rc;

	if (t->kind == ATTACH_PIDS && (rc = check_pids(t)))
		return rc;
	if (t->kind == ATTACH_CGROUP && (rc = resolve_cgroup(t->cgroup, cg, sizeof(cg), &list)))
		return rc;
	memset(&ph, 0, sizeof(ph));
	snprintf(ph.name, sizeof(ph.name), "attach");
	snprintf(ph.column, sizeof(ph.column), "attach");
	ph.kind = PHASE_WORK;
	ph.attach = t;
	ph.attach_note = co->detail >= 0; /* -q: no line at the start */
	core_probes_configure(1, t->lite);
	return session_main("attach", command, &ph, 1, co);
}
