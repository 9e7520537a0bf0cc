// SPDX-License-Identifier: GPL-2.0
/* iowhy hunt: member-by-member read sweeps of a storage stack and a verdict (hunt.h). */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <liburing.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include "blkthrottle.h"
#include "devstack.h"
#include "hunt.h"
#include "hunt_core.h"
#include "knee.h"
#include "verdicts.h"
#include "options.h"
#include "outfile.h"

volatile sig_atomic_t hunt_stop;

/* The two access patterns every member is read (or the scratch file written) with. */
const struct pattern hunt_patterns[NPATTERNS] = {
	{ "rand4k", "rand 4k", 4096, 0 },
	{ "seq1m", "seq 1M", 1 << 20, 1 },
};

static void on_signal(int sig)
{
	(void)sig;
	hunt_stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64 */
static uint64_t rnd(struct hunt *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return h->rng;
}

/* Field F (1-based) of /sys/block/NAME/stat, or of a partition's stat; 0 if unreadable. */
uint64_t hunt_dev_stat(const struct member *m, int f)
{
	char path[PATH_MAX];
	unsigned long long v[17] = { 0 };
	FILE *file;
	int n;

	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", m->name);
	file = fopen(path, "re");
	if (!file)
		return 0;
	n = fscanf(file, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]);
	fclose(file);
	return n >= f ? v[f] : 0;
}

static const char hunt_usage[] =
	"usage: iowhy hunt [OPTIONS] PATH|DEVICE\n"
	"Reads each device under PATH (or DEVICE) alone with O_DIRECT at each queue depth, random 4k\n"
	"and sequential 1M, then all together, read-only; prints the member table, the queue-depth\n"
	"knees and a verdict. With --write, writes a new scratch file on PATH's file system instead\n"
	"(created, sized, removed; never a device) and shows what each member device did.\n";

enum { H_STACK = 256, H_TIME, H_DEPTHS, H_WRITE, H_WRITE_SIZE };

static const struct opt_def hunt_opt_defs[] = {
	{ "time", H_TIME, "S", "seconds per step (0.05-60, default 0.5)" },
	{ "depths", H_DEPTHS, "LIST", "queue depths, increasing (default 1,4,16,32; each 1-256)" },
	{ "stack", H_STACK, NULL, "print the device stack and stop" },
	{ "write", H_WRITE, "FILE", "write a new scratch FILE on PATH's file system instead of reading" },
	{ "write-size", H_WRITE_SIZE, "MIB", "the scratch file's size (4-1048576, default 128)" },
	{ NULL, 0, NULL, NULL },
};

static int parse_depths(struct hunt_opts *h, const char *s);
static int write_json_file(const char *path, struct json_object *root);

/* hunt's own options: 0, or -1 after a one-line message. */
static int hunt_handle(void *ctx, int key, const char *v)
{
	struct hunt_opts *h = ctx;
	unsigned long long mib;
	char *end;

	switch (key) {
	case H_STACK:
		h->stack_only = 1;
		return 0;
	case H_TIME:
		h->step_s = strtod(v, &end);
		if (end == v || *end || h->step_s < 0.05 || h->step_s > 60)
			return hunt_bad("--time: '%s' is not 0.05..60 seconds", v) ? -1 : 0;
		return 0;
	case H_DEPTHS:
		return parse_depths(h, v) ? -1 : 0;
	case H_WRITE:
		h->write_path = v;
		return 0;
	case H_WRITE_SIZE:
		mib = strtoull(v, &end, 10);
		if (end == v || *end || mib < 4 || mib > (1 << 20))
			return hunt_bad("--write-size: '%s' is not 4..1048576", v) ? -1 : 0;
		h->write_mib = mib;
		return 0;
	}
	return 0;
}

const struct cmd_def hunt_cmd = {
	.name = "hunt",
	.usage = hunt_usage,
	.opts = hunt_opt_defs,
	.common = CO_JSON,
	.operand = OPERAND_FILE,
	.handle = hunt_handle,
};

int hunt_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "iowhy " TOOL ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

/* --depths "1,4,16": increasing whole numbers 1..256. */
static int parse_depths(struct hunt_opts *h, const char *s)
{
	char *end;
	const char *p = s;

	h->ndepth = 0;
	while (*p) {
		long v = strtol(p, &end, 10);

		if (end == p || v < 1 || v > 256 || h->ndepth >= HUNT_MAX_DEPTHS ||
		    (h->ndepth && v <= h->depth[h->ndepth - 1]) || (*end && *end != ','))
			return hunt_bad("--depths: '%s' is not increasing depths 1..256", s);
		h->depth[h->ndepth++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return h->ndepth ? 0 : hunt_bad("--depths: '%s' is empty", s);
}

/* Parse the command line: options.h's 0, 1 (help or version printed) or 2 (message printed). */
int hunt_parse(int argc, char **argv, struct hunt_opts *h)
{
	struct common_opts co;
	int rc, target;

	memset(h, 0, sizeof(*h));
	h->step_s = 0.5;
	h->write_mib = 128;
	h->ndepth = 4;
	h->depth[0] = 1, h->depth[1] = 4, h->depth[2] = 16, h->depth[3] = 32;
	rc = opts_parse(&hunt_cmd, argc, argv, &co, h, &target);
	if (rc)
		return rc;
	if (!target)
		return opts_usage_error("hunt", "which PATH or DEVICE?");
	if (co.json_path && !strcmp(co.json_path, "-"))
		return opts_usage_error("hunt", "--json - would mix the JSON into the table; give a file");
	h->target = argv[target];
	h->json_path = co.json_path;
	return 0;
}

/* Discover the stack under the target; 0, or 2 after a one-line refusal. */
static int discover(struct hunt *h)
{
	char err[PATH_MAX + 128], name[64];
	struct stat st;

	if (stat(h->target, &st))
		return hunt_bad("%s: no such file, directory or device", h->target);
	if (S_ISBLK(st.st_mode)) {
		if (devstack_name_of(NULL, major(st.st_rdev), minor(st.st_rdev), name,
				     sizeof(name)) ||
		    devstack_from_device(NULL, name, &h->ds, err, sizeof(err)))
			return hunt_bad("%s: not a block device sysfs knows", h->target);
	} else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
		if (devstack_from_path(NULL, h->target, &h->ds, err, sizeof(err)))
			return hunt_bad("cannot map it: %s", err);
	} else {
		return hunt_bad("%s is neither a block device nor a file system path", h->target);
	}
	return 0;
}

/* Open every member read-only for O_DIRECT and read its size and throttle limits; 0 or 2. */
static int open_members(struct hunt *h)
{
	char cg[PATH_MAX] = "";
	int have_cg = blkthrottle_cgroup_of("/proc/self/cgroup", cg, sizeof(cg)) == 0;

	for (int i = 0; i < h->ds.nmembers && h->nm < MAX_MEMBERS; i++) {
		const struct ds_node *n = &h->ds.nodes[h->ds.members[i]];
		struct member *m = &h->m[h->nm];
		char path[PATH_MAX];
		struct stat st;

		memset(m, 0, sizeof(*m));
		m->fd = -1;
		memcpy(m->name, n->name, sizeof(m->name));
		m->name[sizeof(m->name) - 1] = '\0';
		m->node = n;
		snprintf(path, sizeof(path), "/dev/%s", n->name);
		/* read-only, never through a link; and it must be the device sysfs named */
		m->fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW);
		if (m->fd < 0) {
			fprintf(stderr, "iowhy " TOOL ": cannot open %s read-only: %s\n", path,
				strerror(errno));
			return 2;
		}
		if (fstat(m->fd, &st) || !S_ISBLK(st.st_mode) ||
		    major(st.st_rdev) != n->major || minor(st.st_rdev) != n->minor) {
			close(m->fd);
			return hunt_bad("%s is not the block device sysfs names", path);
		}
		if (ioctl(m->fd, BLKGETSIZE64, &m->size) || m->size < (4u << 20)) {
			close(m->fd);
			return hunt_bad("%s: size unknown or under 4 MiB", path);
		}
		if (have_cg)
			blkthrottle_limits(BLKIO_ROOT, cg, n->major, n->minor, &m->thr);
		m->writes0 = hunt_dev_stat(m, 5);
		h->nm++;
	}
	return h->nm ? 0 : hunt_bad("%s: no member devices to read", h->target);
}

/* One read slot of a step: which member, its buffer, when it was submitted. */
struct slot {
	struct member *m;
	void *buf;
	double t0;
};

/* Queue one read for slot S at the member's next offset. */
static void prep_read(struct hunt *h, struct io_uring *ring, struct slot *s,
		      const struct pattern *p)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct member *m = s->m;
	uint64_t blocks = m->size / p->bs, off;

	if (p->seq) {
		off = m->cursor;
		m->cursor = m->cursor + p->bs + p->bs > m->size ? 0 : m->cursor + p->bs;
	} else {
		off = (rnd(h) % blocks) * p->bs;
	}
	if (h->writing)
		io_uring_prep_write(sqe, m->fd, s->buf, p->bs, off);
	else
		io_uring_prep_read(sqe, m->fd, s->buf, p->bs, off);
	io_uring_sqe_set_data(sqe, s);
	s->t0 = now_s();
}

/* CPU time of this thread, seconds. */
static double thread_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/*
 * Read members MS[0..n) with pattern P for h->step_s seconds: member i keeps DEPTH[i] reads in
 * flight. Only reads completed inside the window count. After it, reads still in
 * flight are waited for up to a grace period (a throttled device may hold them long); any left
 * then are abandoned with their buffers (never freed: the kernel may still fill them).
 * Each member's numbers go to OUT[i]. 0, or -1 after a message.
 */
int hunt_run_step(struct hunt *h, struct member **ms, int n, const int *depth,
		    const struct pattern *p, struct cell **out)
{
	unsigned int nslots = 0, at = 0;
	double t_start, deadline, hard, cpu0, t;
	struct slot *slots;
	int inflight = 0, err = 0, ret;
	struct io_uring ring;

	for (int i = 0; i < n; i++)
		nslots += (unsigned int)depth[i];
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -1;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < depth[i]; k++)
			slots[at++].m = ms[i];
	ret = io_uring_queue_init(nslots < 4 ? 4 : nslots, &ring, 0);
	if (ret < 0) {
		fprintf(stderr, "iowhy " TOOL ": io_uring: %s\n", strerror(-ret));
		free(slots);
		return -1;
	}
	for (unsigned int i = 0; i < nslots; i++) {
		if (posix_memalign(&slots[i].buf, 4096, p->bs)) {
			fprintf(stderr, "iowhy " TOOL ": out of memory\n");
			err = ENOMEM;
			nslots = i;
			break;
		}
		if (h->writing) /* not zeros, not uninitialised memory */
			memset(slots[i].buf, 0x5a, p->bs);
	}
	for (int i = 0; i < n; i++) {
		ms[i]->ops = ms[i]->bytes = 0;
		ms[i]->lat_sum_s = 0;
		ms[i]->ticks0 = hunt_dev_stat(ms[i], 10);
		ms[i]->cursor = (rnd(h) % (ms[i]->size / p->bs)) * p->bs;
	}
	cpu0 = thread_cpu_s();
	t_start = now_s();
	deadline = t_start + h->step_s;
	hard = deadline + (h->step_s * 4 > 2 ? h->step_s * 4 : 2);
	for (unsigned int i = 0; i < nslots && !err; i++, inflight++)
		prep_read(h, &ring, &slots[i], p);
	io_uring_submit(&ring);
	while (inflight > 0) {
		struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;

		ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
		t = now_s();
		if (ret == -ETIME || ret == -EINTR) {
			if (t > hard)
				break;
			continue;
		}
		if (ret < 0) {
			err = -ret;
			break;
		}
		io_uring_for_each_cqe(&ring, head, cqe) {
			struct slot *s = io_uring_cqe_get_data(cqe);

			seen++;
			inflight--;
			if (cqe->res < 0) {
				err = -cqe->res;
				continue;
			}
			if (t <= deadline) {
				s->m->ops++;
				s->m->bytes += (uint64_t)cqe->res;
				s->m->lat_sum_s += t - s->t0;
			}
			if (t < deadline && !hunt_stop && !err) {
				prep_read(h, &ring, s, p);
				inflight++;
			}
		}
		io_uring_cq_advance(&ring, seen);
		io_uring_submit(&ring);
	}
	t = now_s();
	{
		double cpu = 100 * (thread_cpu_s() - cpu0) / (t - t_start);

		if (cpu > h->top_cpu_pct)
			h->top_cpu_pct = cpu;
	}
	for (int i = 0; i < n; i++) {
		struct member *m = ms[i];
		double busy_ms = (double)(hunt_dev_stat(m, 10) - m->ticks0);

		out[i]->iops = (double)m->ops / h->step_s;
		out[i]->mib_s = (double)m->bytes / h->step_s / (1024.0 * 1024.0);
		out[i]->lat_us = m->ops ? 1e6 * m->lat_sum_s / (double)m->ops : 0;
		out[i]->busy_pct = 100 * busy_ms / (1000 * (t - t_start));
		out[i]->busy_pct = out[i]->busy_pct > 100 ? 100 : out[i]->busy_pct;
		out[i]->done = 1;
	}
	io_uring_queue_exit(&ring);
	if (inflight == 0)
		for (unsigned int i = 0; i < nslots; i++)
			free(slots[i].buf);
	free(slots);
	if (err) {
		fprintf(stderr, "iowhy " TOOL ": reading %s: %s\n", ms[0]->name, strerror(err));
		return -1;
	}
	return 0;
}

/* "\r step 5/40: loop1 rand 4k depth 16" on a terminal. */
void hunt_progress(struct hunt *h, const char *who, const struct pattern *p, int depth)
{
	h->step++;
	if (h->tty)
		fprintf(stderr, "\r  step %d/%d: %-10s %-8s depth %-4d", h->step, h->nsteps, who,
			p->label, depth);
}

/*
 * Would member M's read at depth index D outlast the step? Predicted from the depth before: its
 * latency grown with the depth (a device that does not scale), or no read done at all.
 */
int hunt_too_slow(const struct hunt *h, const struct member *m, int p, int d)
{
	const struct cell *prev = &m->alone[p][d - 1];

	if (prev->skipped || (prev->done && prev->iops == 0))
		return 1;
	return prev->lat_us * h->depth[d] / h->depth[d - 1] > 1e6 * h->step_s;
}

/* The together cell of pattern P, depth index D: sums, and the mean latency over all reads. */
static void sum_together(struct hunt *h, int p, int d)
{
	struct cell *c = &h->together[p][d];
	double ops = 0, lat = 0;

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < h->nm; i++) {
		struct cell *x = &h->m[i].together[p][d];

		c->iops += x->iops;
		c->mib_s += x->mib_s;
		ops += x->iops;
		lat += x->iops * x->lat_us;
		c->busy_pct = x->busy_pct > c->busy_pct ? x->busy_pct : c->busy_pct;
	}
	c->lat_us = ops > 0 ? lat / ops : 0;
	c->done = 1;
}

/*
 * All steps: each member alone, then all together, for every pattern and depth. A member whose
 * reads would outlast the step at the next depth is not read deeper (alone), and stays at its
 * deepest depth in the together steps, so every step stays bounded. 0 or -1.
 */
static int sweep(struct hunt *h)
{
	struct member *ms[MAX_MEMBERS];
	struct cell *out[MAX_MEMBERS];
	int depth[MAX_MEMBERS];

	h->nsteps = NPATTERNS * h->ndepth * (h->nm + (h->nm > 1));
	for (int p = 0; p < NPATTERNS; p++)
		for (int d = 0; d < h->ndepth && !hunt_stop; d++) {
			for (int i = 0; i < h->nm && !hunt_stop; i++) {
				struct member *m = &h->m[i];

				hunt_progress(h, m->name, &hunt_patterns[p], h->depth[d]);
				if (m->cap[p] || (d > 0 && hunt_too_slow(h, m, p, d))) {
					m->alone[p][d].skipped = 1;
					m->cap[p] = m->cap[p] ? m->cap[p] : h->depth[d - 1];
					continue;
				}
				ms[0] = m;
				out[0] = &m->alone[p][d];
				depth[0] = h->depth[d];
				if (hunt_run_step(h, ms, 1, depth, &hunt_patterns[p], out))
					return -1;
			}
			if (h->nm < 2 || hunt_stop)
				continue;
			for (int i = 0; i < h->nm; i++) {
				struct member *m = &h->m[i];

				ms[i] = m;
				out[i] = &m->together[p][d];
				depth[i] = m->cap[p] && m->cap[p] < h->depth[d] ? m->cap[p]
										: h->depth[d];
			}
			hunt_progress(h, "together", &hunt_patterns[p], h->depth[d]);
			if (hunt_run_step(h, ms, h->nm, depth, &hunt_patterns[p], out))
				return -1;
			sum_together(h, p, d);
		}
	if (h->tty)
		fprintf(stderr, "\r%60s\r", "");
	return hunt_stop ? -1 : 0;
}

/* The knee of cells C[0..ndepth) as a depth, or 0 if IOPS still grows at the deepest. */
int hunt_knee_depth(const struct hunt *h, const struct cell *c)
{
	double depth[MAX_DEPTHS], iops[MAX_DEPTHS], lat[MAX_DEPTHS];
	int n = 0, k;

	for (int d = 0; d < h->ndepth && c[d].done; d++, n++) {
		depth[d] = h->depth[d];
		iops[d] = c[d].iops;
		lat[d] = c[d].lat_us;
	}
	k = knee_find(depth, iops, lat, n);
	return k < 0 ? 0 : h->depth[k];
}

/* The best throughput over the depths, and its index. */
static double best(const struct hunt *h, const struct cell *c, int *at)
{
	double b = 0;

	*at = 0;
	for (int d = 0; d < h->ndepth; d++)
		if (c[d].done && c[d].mib_s > b) {
			b = c[d].mib_s;
			*at = d;
		}
	return b;
}

/* The verdict input from the sweep: sequential 1M gives latency, throughput and the depth
 * series; random 4k gives IOPS; the together step with the best sum gives each member's share. */
static void verdict_input(const struct hunt *h, struct vd_input *in)
{
	const char *lower = devstack_common_lower(&h->ds);
	int seq = 1, rnd4 = 0, tbest = 0;

	memset(in, 0, sizeof(*in));
	in->nmembers = h->nm;
	if (lower && h->nm > 1)
		snprintf(in->shared_lower, sizeof(in->shared_lower), "%s", lower);
	snprintf(in->top_thread, sizeof(in->top_thread), "iowhy hunt");
	in->top_thread_cpu_pct = h->top_cpu_pct;
	if (h->nm > 1)
		best(h, h->together[seq], &tbest);
	for (int i = 0; i < h->nm; i++) {
		const struct member *m = &h->m[i];
		struct vd_member *v = &in->m[i];
		int at;

		snprintf(v->name, sizeof(v->name), "%s", m->name);
		v->major = m->node->major;
		v->minor = m->node->minor;
		v->lat_us = m->alone[seq][0].lat_us;
		v->mib_s = best(h, m->alone[seq], &at);
		/* busy % stays 0: the alone steps ran one after another, so "while the others
		 * idle" holds by construction and the others' busy % says nothing about it */
		(void)at;
		v->iops = 0;
		for (int d = 0; d < h->ndepth; d++)
			if (m->alone[rnd4][d].iops > v->iops)
				v->iops = m->alone[rnd4][d].iops;
		v->thr_read_bps = m->thr.read_bps;
		v->thr_write_bps = m->thr.write_bps;
		v->thr_read_iops = m->thr.read_iops;
		v->thr_write_iops = m->thr.write_iops;
		snprintf(v->thr_cgroup, sizeof(v->thr_cgroup), "%s", m->thr.cgroup);
		snprintf(v->bottom, sizeof(v->bottom), "%s",
			 devstack_bottom(&h->ds, h->ds.members[i]));
		/* the depths it was read at (a skipped depth ends the series) */
		for (int d = 0; d < h->ndepth && m->alone[seq][d].done; d++) {
			v->ndepth = d + 1;
			v->depth[d] = h->depth[d];
			v->depth_mib_s[d] = m->alone[seq][d].mib_s;
			v->depth_lat_us[d] = m->alone[seq][d].lat_us;
		}
		v->alone_mib_s = v->mib_s;
		v->together_mib_s = h->nm > 1 ? m->together[seq][tbest].mib_s : 0;
	}
}

/* "85us", "1.2ms", "2.3s" */
static char *fmt_lat(char *buf, size_t n, double us)
{
	if (us < 1000)
		snprintf(buf, n, "%.0fus", us);
	else if (us < 1e6)
		snprintf(buf, n, "%.1fms", us / 1000);
	else
		snprintf(buf, n, "%.1fs", us / 1e6);
	return buf;
}

/* One table row: a name, a pattern, a cell per depth, the knee. */
void hunt_print_row(const struct hunt *h, const char *who, int p, const struct cell *c)
{
	char lat[16], cell[40];
	int knee = hunt_knee_depth(h, c);

	printf("  %-10s %-8s", who, hunt_patterns[p].label);
	for (int d = 0; d < h->ndepth; d++) {
		if (c[d].skipped)
			snprintf(cell, sizeof(cell), "skipped");
		else if (!c[d].done)
			snprintf(cell, sizeof(cell), "-");
		else if (c[d].iops == 0)
			snprintf(cell, sizeof(cell), "none in %.2gs", h->step_s);
		else if (hunt_patterns[p].seq)
			snprintf(cell, sizeof(cell), "%.0f MiB/s %s", c[d].mib_s,
				 fmt_lat(lat, sizeof(lat), c[d].lat_us));
		else
			snprintf(cell, sizeof(cell), "%.1fk %s", c[d].iops / 1000,
				 fmt_lat(lat, sizeof(lat), c[d].lat_us));
		printf(" %-18s", cell);
	}
	if (knee)
		printf(" %d\n", knee);
	else
		printf(" none\n");
}

/* The member table: every member alone, then together. */
static void print_table(const struct hunt *h)
{
	char hdr[32];

	printf("\n  %-10s %-8s", "member", "pattern");
	for (int d = 0; d < h->ndepth; d++) {
		snprintf(hdr, sizeof(hdr), "depth %d", h->depth[d]);
		printf(" %-18s", hdr);
	}
	printf(" knee\n");
	for (int p = 0; p < NPATTERNS; p++) {
		for (int i = 0; i < h->nm; i++)
			hunt_print_row(h, h->m[i].name, p, h->m[i].alone[p]);
		if (h->nm > 1)
			hunt_print_row(h, "together", p, h->together[p]);
	}
	printf("  (rand 4k: thousands of IOPS and mean latency; seq 1M: MiB/s and mean latency; "
	       "knee: the last depth before IOPS stops growing while latency doubles)\n");
	for (int p = 0; p < NPATTERNS; p++)
		for (int i = 0; i < h->nm; i++)
			if (h->m[i].cap[p])
				printf("  (%s %s: deeper depths skipped, its reads would "
				       "outlast the %.2g s step; together it stays at depth %d)\n",
				       h->m[i].name, hunt_patterns[p].label, h->step_s,
				       h->m[i].cap[p]);
}

/* Verdict lines, or the one line saying nothing stands out. */
static void print_verdicts(const struct hunt *h, const struct verdict *v, int n)
{
	printf("\n");
	if (n == 0)
		printf("verdict: nothing stands out: no member is several times slower than the "
		       "others and none runs at a configured throttle%s\n",
		       !h->write_path && h->nm > 1 ? "; together they scale" : "");
	for (int i = 0; i < n; i++)
		printf("verdict (%s): %s\n", vd_kind_name(v[i].kind), v[i].text);
}

/* A JSON array of the cells of one row. */
static struct json_object *json_cells(const struct hunt *h, const struct cell *c)
{
	struct json_object *a = json_object_new_array();

	for (int d = 0; d < h->ndepth; d++) {
		struct json_object *o;

		if (c[d].skipped) {
			o = json_object_new_object();
			json_object_object_add(o, "depth", json_object_new_int(h->depth[d]));
			json_object_object_add(o, "skipped", json_object_new_boolean(1));
			json_object_array_add(a, o);
		}
		if (!c[d].done)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "depth", json_object_new_int(h->depth[d]));
		json_object_object_add(o, "iops", json_object_new_double(c[d].iops));
		json_object_object_add(o, "mib_s", json_object_new_double(c[d].mib_s));
		json_object_object_add(o, "lat_us", json_object_new_double(c[d].lat_us));
		json_object_object_add(o, "busy_pct", json_object_new_double(c[d].busy_pct));
		json_object_array_add(a, o);
	}
	return a;
}

/* "rand4k": [...], "knee_rand4k": depth|null for each pattern, into O. */
static void json_rows(const struct hunt *h, struct json_object *o, struct cell (*c)[MAX_DEPTHS])
{
	char key[32];

	for (int p = 0; p < NPATTERNS; p++) {
		int knee = hunt_knee_depth(h, c[p]);

		json_object_object_add(o, hunt_patterns[p].name, json_cells(h, c[p]));
		snprintf(key, sizeof(key), "knee_%s", hunt_patterns[p].name);
		json_object_object_add(o, key, knee ? json_object_new_int(knee) : NULL);
	}
}

/* "scaling": how many members' worth all members reach together (sequential 1M, best depth):
 * the sum over members of together / alone. Null for one member. */
static struct json_object *json_scaling(const struct hunt *h, const struct vd_input *in)
{
	struct json_object *o;
	double worth = 0, alone = 0, together = 0;

	if (h->nm < 2)
		return NULL;
	for (int i = 0; i < in->nmembers; i++) {
		if (in->m[i].alone_mib_s <= 0)
			return NULL;
		worth += in->m[i].together_mib_s / in->m[i].alone_mib_s;
		alone += in->m[i].alone_mib_s;
		together += in->m[i].together_mib_s;
	}
	o = json_object_new_object();
	json_object_object_add(o, "members", json_object_new_int(in->nmembers));
	json_object_object_add(o, "members_worth", json_object_new_double(worth));
	json_object_object_add(o, "sum_alone_mib_s", json_object_new_double(alone));
	json_object_object_add(o, "together_mib_s", json_object_new_double(together));
	return o;
}

/* Write the JSON report; 0 or -1 after a message. */
static int write_json(const struct hunt *h, const char *stack, const struct vd_input *in,
		      const struct verdict *v, int nv)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	struct json_object *vs = json_object_new_array(), *tog, *d = json_object_new_array();
	int rc;

	json_object_object_add(root, "schema_version", json_object_new_int(HUNT_SCHEMA));
	json_object_object_add(root, "kind", json_object_new_string("hunt"));
	json_object_object_add(root, "target", json_object_new_string(h->target));
	json_object_object_add(root, "stack", json_object_new_string(stack));
	json_object_object_add(root, "mountpoint", json_object_new_string(h->ds.mountpoint));
	json_object_object_add(root, "fstype", json_object_new_string(h->ds.fstype));
	json_object_object_add(root, "profile", json_object_new_string(h->ds.profile));
	json_object_object_add(root, "step_s", json_object_new_double(h->step_s));
	for (int i = 0; i < h->ndepth; i++)
		json_object_array_add(d, json_object_new_int(h->depth[i]));
	json_object_object_add(root, "depths", d);
	for (int i = 0; i < h->nm; i++) {
		const struct member *m = &h->m[i];
		struct json_object *o = json_object_new_object(), *t = json_object_new_object();
		int64_t writes;

		json_object_object_add(o, "name", json_object_new_string(m->name));
		json_object_object_add(o, "kind", json_object_new_string(m->node->kind));
		json_object_object_add(o, "major", json_object_new_int((int)m->node->major));
		json_object_object_add(o, "minor", json_object_new_int((int)m->node->minor));
		json_object_object_add(o, "backing", json_object_new_string(m->node->backing));
		json_object_object_add(o, "size_bytes", json_object_new_int64((int64_t)m->size));
		json_object_object_add(t, "cgroup", json_object_new_string(m->thr.cgroup));
		json_object_object_add(t, "read_bps",
				       json_object_new_int64((int64_t)m->thr.read_bps));
		json_object_object_add(t, "write_bps",
				       json_object_new_int64((int64_t)m->thr.write_bps));
		json_object_object_add(t, "read_iops",
				       json_object_new_int64((int64_t)m->thr.read_iops));
		json_object_object_add(t, "write_iops",
				       json_object_new_int64((int64_t)m->thr.write_iops));
		json_object_object_add(o, "throttle", t);
		writes = (int64_t)(hunt_dev_stat(m, 5) - m->writes0);
		json_object_object_add(o, "writes_during_hunt", json_object_new_int64(writes));
		json_rows(h, o, (struct cell (*)[MAX_DEPTHS])m->alone);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "members", arr);
	tog = h->nm > 1 ? json_object_new_object() : NULL;
	if (tog)
		json_rows(h, tog, (struct cell (*)[MAX_DEPTHS])h->together);
	json_object_object_add(root, "together", tog);
	for (int i = 0; i < nv; i++) {
		struct json_object *o = json_object_new_object(), *in = json_object_new_object();

		json_object_object_add(o, "kind", json_object_new_string(vd_kind_name(v[i].kind)));
		json_object_object_add(o, "subject", json_object_new_string(v[i].subject));
		json_object_object_add(o, "text", json_object_new_string(v[i].text));
		for (int k = 0; k < v[i].ninputs; k++)
			json_object_object_add(in, v[i].inputs[k].key,
					       json_object_new_double(v[i].inputs[k].val));
		json_object_object_add(o, "inputs", in);
		json_object_array_add(vs, o);
	}
	json_object_object_add(root, "mode", json_object_new_string(h->write_path ? "write"
										 : "read"));
	json_object_object_add(root, "write", h->write_path ? hunt_write_json(h) : NULL);
	json_object_object_add(root, "scaling", h->write_path ? NULL : json_scaling(h, in));
	json_object_object_add(root, "verdicts", vs);
	rc = write_json_file(h->json_path, root);
	json_object_put(root);
	return rc;
}

/* --json FILE, opened as safely as every report (no links, regular files only). 0 or -1. */
static int write_json_file(const char *path, struct json_object *root)
{
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
	FILE *f = outfile_open(TOOL, "--json", path);
	int rc = 0;

	if (!f)
		return -1;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) == EOF)
		rc = -1;
	if (fclose(f) == EOF)
		rc = -1;
	if (rc)
		fprintf(stderr, "iowhy " TOOL ": cannot write %s: %s\n", path, strerror(errno));
	return rc;
}

static void close_members(struct hunt *h)
{
	for (int i = 0; i < h->nm; i++)
		if (h->m[i].fd >= 0)
			close(h->m[i].fd);
}

int cmd_hunt(int argc, char **argv)
{
	static struct hunt h; /* large: the device stack and the cells */
	struct hunt_opts o;
	struct verdict v[VD_MAX];
	struct vd_input in;
	char stack[1024];
	int rc, nv;

	memset(&h, 0, sizeof(h));
	h.wdir = h.file.fd = -1;
	rc = hunt_parse(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : rc;
	h.target = o.target;
	h.step_s = o.step_s;
	memcpy(h.depth, o.depth, sizeof(o.depth));
	h.ndepth = o.ndepth;
	h.json_path = o.json_path;
	h.stack_only = o.stack_only;
	h.write_path = o.write_path;
	h.write_mib = o.write_mib;
	rc = discover(&h);
	if (rc)
		return rc;
	devstack_format(&h.ds, stack, sizeof(stack));
	printf("iowhy hunt: %s\n", stack);
	if (h.stack_only)
		return 0;
	rc = open_members(&h);
	if (!rc && h.write_path)
		rc = hunt_write_open(&h);
	if (rc) {
		close_members(&h);
		return rc;
	}
	h.rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	h.tty = isatty(STDERR_FILENO);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (h.write_path)
		printf("writes: O_DIRECT writes through io_uring into the new file %s (%llu MiB), "
		       "%.2f s per step; members: their /sys/block counters\n", h.write_path,
		       (unsigned long long)h.write_mib, h.step_s);
	else
		printf("read-only: O_DIRECT reads through io_uring, %.2f s per step, %d member%s "
		       "alone%s\n", h.step_s, h.nm, h.nm > 1 ? "s" : "",
		       h.nm > 1 ? ", then together" : "");
	fflush(stdout);
	if (h.write_path ? hunt_write_sweep(&h) : sweep(&h)) {
		hunt_write_remove(&h);
		close_members(&h);
		if (hunt_stop)
			fprintf(stderr, "iowhy " TOOL ": interrupted\n");
		return hunt_stop ? 130 : 1;
	}
	if (h.write_path) {
		hunt_write_table(&h);
		hunt_write_verdict_input(&h, &in);
	} else {
		print_table(&h);
		verdict_input(&h, &in);
	}
	nv = verdicts_compute(&in, v, VD_MAX);
	print_verdicts(&h, v, nv);
	rc = h.json_path && write_json(&h, stack, &in, v, nv) ? 1 : 0;
	hunt_write_remove(&h);
	close_members(&h);
	return rc;
}
