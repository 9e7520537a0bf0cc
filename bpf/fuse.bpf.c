// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy FUSE probes: requests per (connection, opcode) between fuse_request_send and
 * fuse_request_end, and the time of the daemons that answer them.
 *
 * Requests: at send, the request is classified in its sender's context (a workload tree task, a
 * flusher writing back an inode the tree dirtied, or other while a window is open) and remembered
 * by (connection, unique); at end its latency, bytes and error go to its row. A request sent
 * without FR_BACKGROUND keeps its sender asleep until the end: that time is the sender's wait.
 *
 * Daemons: a daemon is a process in which a request's end ran (the end runs in the thread that
 * writes the reply to /dev/fuse), or one user space found holding /dev/fuse. Their threads are
 * followed at sched_switch and at syscall entry (the syscall, and whether its fd is a socket or
 * /dev/fuse): each interval of a thread's time gets a class (CPU, run queue, disk I/O wait,
 * network wait, waiting for requests, other) and is added in full and in the part that overlapped
 * the workload's requests in flight (a "busy clock" that runs while any is outstanding).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "tree.bpf.h"
#include "fuse.h"
#include "tree_inodes.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Window phase (FUSE_NO_PHASE between phases) and when it began; written by user space. */
__u32 current_phase = FUSE_NO_PHASE;
__u64 phase_begin_ns;

/* The busy clock: time during which the workload had FUSE requests in flight. */
__s64 outstanding;
__u64 busy_since, busy_base;

/* Per syscall number: bit 0 its first argument is an fd, bit 1 it is a network syscall, bit 2 it
 * sends (write, sendmsg, ...: its return value counts bytes sent), bit 3 it receives. */
const volatile __u8 nr_flags[FUSE_NET_NR_SLOTS];
#define NRF_FD 1
#define NRF_NET 2
#define NRF_TX 4
#define NRF_RX 8
#define NRF_POLL 16   /* poll, ppoll: (struct pollfd *, nfds, ...) */
#define NRF_RDBUF 32  /* read: (fd, buf, n) */
#define NRF_RDIOV 64  /* readv: (fd, iov, n) */
#define NRF_SPLICE 128 /* splice: (fd_in, off_in, fd_out, ...) */
#define POLL_FDS 8    /* pollfds looked at */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 512);
	__type(key, struct fuse_key);
	__type(value, struct fuse_stat);
} fuse_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 16384);
	__type(key, struct fuse_inflight_key);
	__type(value, struct fuse_inflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct fuse_daemon);
} daemons SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct fuse_dthread);
} dthreads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 1024);
	__type(key, struct fuse_dkey);
	__type(value, struct fuse_dstat);
} dstats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct fuse_dproc);
} dprocs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 1024);
	__type(key, struct fuse_ddkey);
	__type(value, struct fuse_ddstat);
} ddisk SEC(".maps");

/* Per CPU: whether the task switched in last is a daemon thread. */
struct fuse_cpu {
	__u32 tid;
	__u32 daemon;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fuse_cpu);
} fuse_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fuse_lost);
} fuse_lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fuse_stat);
} zero_stat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fuse_dstat);
} zero_dstat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 1024);
	__type(key, struct fuse_tkey);
	__type(value, struct fuse_tstat);
} tstats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fuse_tstat);
} zero_tstat SEC(".maps");

#define LOST(field)                                                         \
	do {                                                                \
		__u32 z_ = 0;                                               \
		struct fuse_lost *l_ = bpf_map_lookup_elem(&fuse_lost, &z_); \
		if (l_)                                                     \
			l_->field++;                                        \
	} while (0)

#define ECONNABORTED_ 103
#define ENOTCONN_ 107
#define S_IFMT_ 0170000
#define S_IFSOCK_ 0140000
#define S_IFCHR_ 0020000
#define S_IFIFO_ 0010000
#define TASK_UNINTERRUPTIBLE_ 0x2
#define TASK_DEAD_ 0x80
#define FUSE_D_GONE FUSE_D_COUNT /* a thread's last class: it exited */
#define TASK_NOLOAD_ 0x400

/* Row `key` of a per-CPU hash, created from a zeroed template; NULL when the map is full. */
static __always_inline void *row(void *map, const void *key, void *zero_map)
{
	void *v = bpf_map_lookup_elem(map, key);
	__u32 z = 0;
	void *zero;

	if (v)
		return v;
	zero = bpf_map_lookup_elem(zero_map, &z);
	if (!zero)
		return NULL;
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

/* The busy clock now: its base plus the running stretch when requests are outstanding. */
static __always_inline __u64 busy_now(__u64 now)
{
	__u64 b = busy_base, s = busy_since;

	if (outstanding > 0 && now > s)
		b += now - s;
	return b;
}

static __always_inline void busy_add(__u64 now, int delta)
{
	__s64 before = __sync_fetch_and_add(&outstanding, delta);

	if (delta > 0 && before == 0)
		busy_since = now;
	else if (delta < 0 && before == 1 && now > busy_since)
		busy_base += now - busy_since;
}

/* ---- requests ---- */

static __always_inline __u32 req_conn(const struct fuse_req *req)
{
	return BPF_CORE_READ(req, fm, fc, dev);
}

/* A background WRITE is a page-cache writeback request (struct fuse_writepage_args around its
 * args): did the tree dirty its inode? Such requests are also sent from whatever context ends the
 * previous background request (the daemon's reply), so the flusher's context alone misses most. */
static __always_inline int wb_of_tree(const struct fuse_req *req)
{
	struct fuse_writepage_args *wpa;
	struct inode *inode;
	__u32 dev;
	__u64 ino;
	char *a;

	a = (char *)BPF_CORE_READ(req, args);
	if (!a)
		return 0;
	wpa = (void *)(a - bpf_core_field_offset(struct fuse_writepage_args, ia.ap.args));
	inode = BPF_CORE_READ(wpa, inode);
	if (!inode)
		return 0;
	dev = BPF_CORE_READ(inode, i_sb, s_dev);
	ino = BPF_CORE_READ(inode, i_ino);
	return tree_has_inode(dev, ino);
}

/* The row of workload process tgid in tstats, made at its requests' send (its comm set then). */
static __always_inline void sender_row(__u32 tgid, __u8 phase)
{
	struct fuse_tkey key = { .tgid = tgid, .phase = phase };
	struct fuse_tstat *t;

	if (phase >= FUSE_MAX_PHASES)
		return;
	t = row(&tstats, &key, &zero_tstat);
	if (!t)
		LOST(daemon_full);
	else if (!t->comm[0])
		bpf_get_current_comm(t->comm, sizeof(t->comm));
}

SEC("tp_btf/fuse_request_send")
int BPF_PROG(fuse_send, const struct fuse_req *req)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct iowhy_task *c = current_task(tid);
	struct fuse_inflight f = {};
	struct fuse_inflight_key k = {};
	__u32 op;

	op = BPF_CORE_READ(req, in.h.opcode);
	f.op = op < FUSE_OP_FOLD ? op : FUSE_OP_FOLD;
	f.len = BPF_CORE_READ(req, in.h.len);
	f.sync = !(BPF_CORE_READ(req, flags) & (1UL << FR_BACKGROUND));
	if (c) {
		f.who = FUSE_WHO_TREE;
		f.phase = c->phase;
		f.tgid = bpf_get_current_pid_tgid() >> 32;
		sender_row(f.tgid, f.phase);
	} else {
		struct io_wb *w = bpf_map_lookup_elem(&wb_tasks, &tid);

		if (current_phase >= FUSE_MAX_PHASES)
			return 0;
		f.who = (w && w->tree) || (op == FUSE_OP_WRITE && !f.sync && wb_of_tree(req)) ?
			FUSE_WHO_WB : FUSE_WHO_OTHER;
		f.phase = current_phase;
	}
	f.t_send = bpf_ktime_get_ns();
	k.unique = BPF_CORE_READ(req, in.h.unique);
	k.conn = req_conn(req);
	if (bpf_map_update_elem(&inflight, &k, &f, BPF_ANY)) {
		LOST(inflight_full);
		return 0;
	}
	if (f.who != FUSE_WHO_OTHER)
		busy_add(f.t_send, 1);
	return 0;
}

/* Count a reply of daemon tgid in the open window. */
static __always_inline void count_reply(__u32 tgid)
{
	struct fuse_dkey key = { .tgid = tgid, .phase = current_phase };
	struct fuse_dstat *s;

	if (key.phase >= FUSE_MAX_PHASES)
		return;
	s = row(&dstats, &key, &zero_dstat);
	if (s)
		s->replies++;
}

/* The current task ended a request normally: it is writing the reply, so it serves `conn`. */
static __always_inline void learn_daemon(__u32 conn)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	struct fuse_daemon *d = bpf_map_lookup_elem(&daemons, &tgid);

	if (d) {
		d->conn = conn;
		d->replies++;
		count_reply(tgid);
		return;
	}
	if (current_task((__u32)id))
		return; /* a tree task never serves the workload's requests */
	{
		struct fuse_daemon n = { .conn = conn, .replies = 1 };

		bpf_get_current_comm(n.comm, sizeof(n.comm));
		if (bpf_map_update_elem(&daemons, &tgid, &n, BPF_NOEXIST))
			LOST(daemon_full);
		else
			count_reply(tgid);
	}
}

__noinline int dthread_mark(struct fuse_dthread *d, __u64 now, __u8 cls);

/* The current task writes the reply to request k (row s; f: its send record, with who it is
 * charged to and, for a workload request, the sending process): if it is the daemon thread that
 * read it, its time since that read is the request's (per request), added to the row, the
 * daemon and the sender; else the request was handed to another thread and its daemon time is
 * charged by overlap only. A global function, verified once on its own. */
__noinline int charge_request(struct fuse_stat *s, const struct fuse_inflight *f,
			      const struct fuse_inflight_key *k, __u64 now)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct fuse_dkey key = { .tgid = id >> 32, .phase = current_phase };
	struct fuse_tkey tk = {};
	struct fuse_dthread *d = bpf_map_lookup_elem(&dthreads, &tid);
	struct fuse_dstat *ds = NULL;
	struct fuse_tstat *ts = NULL;
	int paired;

	if (!s || !f || !k)
		return 0;
	tk.tgid = f->tgid;
	tk.phase = f->phase;
	paired = d && d->r_on && !d->sp_on && d->r_unique == k->unique && d->r_conn == k->conn;
	s->replied++;
	if (f->who != FUSE_WHO_OTHER && key.phase < FUSE_MAX_PHASES)
		ds = row(&dstats, &key, &zero_dstat);
	if (ds)
		ds->wreplies++;
	if (f->who == FUSE_WHO_TREE)
		ts = bpf_map_lookup_elem(&tstats, &tk);
	if (ts)
		ts->replied++;
	if (!paired) {
		if (ds)
			ds->handoff++;
		return 0;
	}
	dthread_mark(d, now, d->cls); /* its time up to the reply */
	d->r_on = 0;
	s->paired++;
	if (ds)
		ds->paired++;
	if (ts)
		ts->paired++;
	for (int c = 0; c < FUSE_D_COUNT; c++) {
		s->dreq_ns[c] += d->r_ns[c];
		if (ds)
			ds->req_ns[c] += d->r_ns[c];
		if (ts)
			ts->dreq_ns[c] += d->r_ns[c];
	}
	return 0;
}

SEC("tp_btf/fuse_request_end")
int BPF_PROG(fuse_end, const struct fuse_req *req)
{
	struct fuse_inflight_key k = {};
	struct fuse_inflight *f;
	struct fuse_stat *s;
	struct fuse_key key = {};
	__u64 now = bpf_ktime_get_ns(), lat;
	__s32 err = BPF_CORE_READ(req, out.h.error);
	__u32 olen = BPF_CORE_READ(req, out.h.len);

	k.unique = BPF_CORE_READ(req, in.h.unique);
	k.conn = req_conn(req);
	if (err != -ECONNABORTED_ && err != -ENOTCONN_)
		learn_daemon(k.conn);
	f = bpf_map_lookup_elem(&inflight, &k);
	if (!f) {
		if (current_phase < FUSE_MAX_PHASES)
			LOST(unmatched_end);
		return 0;
	}
	key.conn = k.conn;
	key.op = f->op;
	key.phase = f->phase;
	key.who = f->who;
	lat = now > f->t_send ? now - f->t_send : 0;
	if (f->who != FUSE_WHO_OTHER)
		busy_add(now, -1);
	s = row(&fuse_stats, &key, &zero_stat);
	if (!s) {
		LOST(stats_full);
		bpf_map_delete_elem(&inflight, &k);
		return 0;
	}
	s->count++;
	if (err)
		s->errors++;
	if (f->len > FUSE_IN_HDR)
		s->in_bytes += f->len - FUSE_IN_HDR - (f->op == FUSE_OP_WRITE &&
				f->len >= FUSE_IN_HDR + FUSE_WRITE_IN ? FUSE_WRITE_IN : 0);
	if (olen > FUSE_OUT_HDR)
		s->out_bytes += olen - FUSE_OUT_HDR;
	s->lat_ns += lat;
	if (lat > s->max_ns)
		s->max_ns = lat;
	if (f->sync) {
		s->wait_ns += lat;
		s->waits++;
	}
	s->hist[fuse_lat_slot(lat)]++;
	if (err != -ECONNABORTED_ && err != -ENOTCONN_)
		charge_request(s, f, &k, now);
	bpf_map_delete_elem(&inflight, &k);
	return 0;
}

/* ---- daemons ---- */

/* Add dt (ov of it while the workload waited) to class c of the row (tgid, open window). */
static __always_inline void dstat_add(__u32 tgid, __u64 c, __u64 dt, __u64 ov, int wall)
{
	struct fuse_dkey key = { .tgid = tgid, .phase = current_phase };
	struct fuse_dstat *s;

	if (key.phase >= FUSE_MAX_PHASES)
		return;
	s = row(&dstats, &key, &zero_dstat);
	if (!s) {
		LOST(daemon_full);
		return;
	}
	asm volatile("" : "+r"(c)); /* keep the bound check on the register used */
	if (c >= FUSE_D_COUNT)
		return;
	if (wall) {
		s->wall_ns[c] += dt;
		s->wall_overlap_ns[c] += ov;
	} else {
		s->total_ns[c] += dt;
		s->overlap_ns[c] += ov;
	}
}

/* Length of [from, now] inside the window, and the busy clock's advance over it (<= that). */
static __always_inline void span(__u64 from, __u64 b_from, __u64 now, __u64 b, __u64 *dt, __u64 *ov)
{
	if (from < phase_begin_ns)
		from = phase_begin_ns;
	*dt = now > from ? now - from : 0;
	*ov = b > b_from ? b - b_from : 0;
	if (*ov > *dt)
		*ov = *dt;
}

/* The process-level class: the first of CPU, run queue, disk, network, other, idle that has a
 * thread in it. */
static __always_inline __u32 proc_class(const struct fuse_dproc *p)
{
	if (p->n[FUSE_D_CPU] > 0)
		return FUSE_D_CPU;
	if (p->n[FUSE_D_RUNQ] > 0)
		return FUSE_D_RUNQ;
	if (p->n[FUSE_D_DISK] > 0)
		return FUSE_D_DISK;
	if (p->n[FUSE_D_NET] > 0)
		return FUSE_D_NET;
	if (p->n[FUSE_D_OTHER] > 0)
		return FUSE_D_OTHER;
	return FUSE_D_IDLE;
}

/* A thread of tgid moves from class `from` to `to` (FUSE_D_GONE: not counted): close the
 * process-level interval and update the counts. Atomics: threads of one process run on several
 * CPUs (no spin locks in tracing programs); a transition racing another may be charged to the
 * class either saw. */
__noinline int dproc_move(__u32 tgid, __u64 now, __u64 b, __u8 from, __u8 to)
{
	struct fuse_dproc *p = bpf_map_lookup_elem(&dprocs, &tgid);
	__u64 since, b_since, dt, ov;
	__u32 pc;

	if (!p) {
		struct fuse_dproc n = { .since = now, .busy_at_since = b };

		bpf_map_update_elem(&dprocs, &tgid, &n, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&dprocs, &tgid);
		if (!p) {
			LOST(daemon_full);
			return 0;
		}
	}
	since = __sync_lock_test_and_set(&p->since, now);
	b_since = __sync_lock_test_and_set(&p->busy_at_since, b);
	span(since, b_since, now, b, &dt, &ov);
	pc = proc_class(p);
	dstat_add(tgid, pc, dt, ov, 1);
	if (pc < FUSE_D_COUNT && now > since)
		__sync_fetch_and_add(&p->cum[pc], now - since);
	if (from < FUSE_D_COUNT)
		__sync_fetch_and_add(&p->n[from], -1);
	if (to < FUSE_D_COUNT)
		__sync_fetch_and_add(&p->n[to], 1);
	return 0;
}

/* The process-level time of tgid per class so far, its open stretch included, into out; 0 if
 * the process has no state. */
static __always_inline int dproc_cum(__u32 tgid, __u64 now, __u64 *out)
{
	struct fuse_dproc *p = bpf_map_lookup_elem(&dprocs, &tgid);
	__u32 pc;

	if (!p)
		return 0;
	pc = proc_class(p);
	for (int c = 0; c < FUSE_D_COUNT; c++)
		out[c] = p->cum[c];
	if (pc < FUSE_D_COUNT && now > p->since)
		out[pc] += now - p->since;
	return 1;
}

/* Add dt of the daemon thread's interval to the request it is serving. An other wait (a futex
 * or condition variable: waiting for the process's other threads, e.g. s3fs's upload threads)
 * is charged as what its process did meanwhile, in the shares of its process-level classes. */
__noinline int charge_interval(struct fuse_dthread *d, __u64 now, __u64 dt)
{
	__u64 cur[FUSE_D_COUNT], delta[FUSE_D_COUNT], total = 0, given = 0;

	if (!d)
		return 0;
	if (d->cls != FUSE_D_OTHER || !dproc_cum(d->tgid, now, cur)) {
		d->r_ns[d->cls & 7] += dt;
		return 0;
	}
	for (int c = 0; c < FUSE_D_COUNT; c++) {
		delta[c] = cur[c] > d->r_cum[c] ? cur[c] - d->r_cum[c] : 0;
		total += delta[c];
	}
	for (int c = 0; total && c < FUSE_D_COUNT; c++) {
		__u64 part;

		if (c == FUSE_D_OTHER || c == FUSE_D_IDLE)
			continue; /* its own wait, or a race: stays other wait */
		part = (dt >> 10) * ((delta[c] << 10) / total);
		if (part > dt - given)
			part = dt - given;
		d->r_ns[c] += part;
		given += part;
	}
	d->r_ns[FUSE_D_OTHER] += dt - given;
	return 0;
}

/* Close the current interval of daemon thread `d` at `now` and start one of class `cls`
 * (FUSE_D_GONE: the thread exited). A global function: the verifier checks it once per program,
 * not at each call site (inlined: fuse_end 30,826 verified instructions, fuse_switch 57,546). */
__noinline int dthread_mark(struct fuse_dthread *d, __u64 now, __u8 cls)
{
	__u64 b, dt, ov;

	if (!d)
		return 0;
	b = busy_now(now);
	span(d->since, d->busy_at_since, now, b, &dt, &ov);
	dstat_add(d->tgid, d->cls, dt, ov, 0);
	if (d->r_on && d->cls < FUSE_D_COUNT)
		charge_interval(d, now, dt);
	if (d->cls == FUSE_D_DISK && current_phase < FUSE_MAX_PHASES) {
		struct fuse_ddkey k = { .tgid = d->tgid, .dev = d->dev, .phase = current_phase };
		struct fuse_ddstat zero = {}, *s = bpf_map_lookup_elem(&ddisk, &k);

		if (!s) {
			bpf_map_update_elem(&ddisk, &k, &zero, BPF_NOEXIST);
			s = bpf_map_lookup_elem(&ddisk, &k);
		}
		if (s) {
			s->total_ns += dt;
			s->overlap_ns += ov;
		} else {
			LOST(daemon_full);
		}
	}
	if (d->cls != cls)
		dproc_move(d->tgid, now, b, d->cls, cls);
	d->since = now;
	d->busy_at_since = b;
	d->cls = cls;
	if (d->r_on && cls == FUSE_D_OTHER)
		dproc_cum(d->tgid, now, d->r_cum);
	return 0;
}

/* The thread state of daemon thread `tid` of `tgid`, created on first sight; NULL if tgid is no
 * daemon. */
static __always_inline struct fuse_dthread *dthread(__u32 tid, __u32 tgid, __u64 now)
{
	struct fuse_dthread *d = bpf_map_lookup_elem(&dthreads, &tid);

	if (d) {
		if (d->tgid == tgid)
			return d;
		dproc_move(d->tgid, now, busy_now(now), d->cls, FUSE_D_GONE);
		bpf_map_delete_elem(&dthreads, &tid); /* tid reused */
	}
	if (!bpf_map_lookup_elem(&daemons, &tgid))
		return NULL;
	{
		struct fuse_dthread n = { .since = now, .busy_at_since = busy_now(now),
					  .tgid = tgid, .nr = 0xffff, .cls = FUSE_D_CPU };

		if (bpf_map_update_elem(&dthreads, &tid, &n, BPF_ANY)) {
			LOST(daemon_full);
			return NULL;
		}
		dproc_move(tgid, now, n.busy_at_since, FUSE_D_GONE, FUSE_D_CPU);
	}
	return bpf_map_lookup_elem(&dthreads, &tid);
}

/* Class of a daemon thread leaving the CPU in state `st`. */
static __always_inline __u8 off_class(bool preempt, struct task_struct *prev, unsigned int st,
				      struct fuse_dthread *d)
{
	if (preempt || st == 0)
		return FUSE_D_RUNQ;
	if (d->nr != 0xffff) {
		if (d->fdkind == FUSE_FD_DEVFUSE && (d->nr >= FUSE_NET_NR_SLOTS ||
						     !(nr_flags[d->nr] & NRF_TX)))
			return FUSE_D_IDLE; /* reading it (a reply written is not waiting) */
		if (d->fdkind == FUSE_FD_SOCK || (d->nr < FUSE_NET_NR_SLOTS &&
						  (nr_flags[d->nr] & NRF_NET)))
			return FUSE_D_NET;
	}
	if ((st & TASK_UNINTERRUPTIBLE_) && !(st & TASK_NOLOAD_) &&
	    BPF_CORE_READ_BITFIELD_PROBED(prev, in_iowait))
		return FUSE_D_DISK;
	return FUSE_D_OTHER;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(fuse_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	struct fuse_dthread *d;
	struct fuse_cpu *c;
	__u32 zero = 0, prev_tid = prev->pid;

	d = dthread(prev_tid, prev->tgid, now);
	if (d && (prev_state & TASK_DEAD_)) {
		dthread_mark(d, now, FUSE_D_GONE);
		bpf_map_delete_elem(&dthreads, &prev_tid);
	} else if (d) {
		dthread_mark(d, now, off_class(preempt, prev, prev_state, d));
	}
	d = next->pid ? dthread(next->pid, next->tgid, now) : NULL;
	if (d)
		dthread_mark(d, now, FUSE_D_CPU);
	c = bpf_map_lookup_elem(&fuse_cpu, &zero);
	if (c) {
		c->tid = next->pid;
		c->daemon = d != NULL;
	}
	return 0;
}

/* The file of descriptor `fd` of the current task, NULL if none. */
static __always_inline struct file *fd_file(long fd)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct file **fds;
	struct file *f = NULL;
	unsigned int max;

	if (fd < 0)
		return NULL;
	max = BPF_CORE_READ(t, files, fdt, max_fds);
	if (fd >= max)
		return NULL;
	fds = BPF_CORE_READ(t, files, fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]))
		return NULL;
	return f;
}

/* What file descriptor `fd` of the current task is: a socket, /dev/fuse or other; *dev: the
 * st_dev of its file (0 if none). */
static __always_inline __u8 fd_kind_dev(long fd, __u32 *dev)
{
	struct file *f = fd_file(fd);
	umode_t mode;

	*dev = 0;
	if (!f)
		return FUSE_FD_NONE;
	*dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
	mode = BPF_CORE_READ(f, f_inode, i_mode);
	if ((mode & S_IFMT_) == S_IFSOCK_)
		return FUSE_FD_SOCK;
	if ((mode & S_IFMT_) == S_IFCHR_ && BPF_CORE_READ(f, f_inode, i_rdev) == FUSE_DEVFUSE_RDEV)
		return FUSE_FD_DEVFUSE;
	return FUSE_FD_NONE;
}

/* The daemon thread state of the current task, NULL if it is none (per-CPU answer first). */
static __always_inline struct fuse_dthread *current_dthread(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 zero = 0, tid = (__u32)id;
	struct fuse_cpu *c = bpf_map_lookup_elem(&fuse_cpu, &zero);

	if (c && c->tid == tid && !c->daemon)
		return NULL;
	return dthread(tid, id >> 32, bpf_ktime_get_ns());
}

static __always_inline __u8 fd_kind(long fd)
{
	__u32 dev;

	return fd_kind_dev(fd, &dev);
}

/* A poll on any socket (of its first POLL_FDS fds) waits on the network. */
static __always_inline __u8 poll_kind(struct pt_regs *regs)
{
	struct pollfd *fds = (void *)PT_REGS_PARM1_CORE(regs);
	unsigned long n = PT_REGS_PARM2_CORE(regs);

	for (int i = 0; i < POLL_FDS; i++) {
		struct pollfd p;

		if (i >= n || bpf_probe_read_user(&p, sizeof(p), &fds[i]))
			break;
		if (fd_kind(p.fd) == FUSE_FD_SOCK)
			return FUSE_FD_SOCK;
	}
	return FUSE_FD_NONE;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(fuse_sys_enter, struct pt_regs *regs, long id)
{
	struct fuse_dthread *d = current_dthread();
	__u8 f;

	if (!d)
		return 0;
	d->nr = id >= 0 && id < 0xffff ? id : 0xfffe;
	d->fdkind = FUSE_FD_NONE;
	d->dev = 0;
	if (id < 0 || id >= FUSE_NET_NR_SLOTS)
		return 0;
	f = nr_flags[id];
	if (f & NRF_FD)
		d->fdkind = fd_kind_dev(PT_REGS_PARM1_CORE(regs), &d->dev);
	else if (f & NRF_POLL)
		d->fdkind = poll_kind(regs);
	return 0;
}

/* Bytes a daemon thread's syscall moved through a socket, to its row of the open window. */
static __always_inline void count_net(struct fuse_dthread *d, long ret)
{
	struct fuse_dkey key = { .tgid = d->tgid, .phase = current_phase };
	struct fuse_dstat *s;
	__u8 f;

	if (ret <= 0 || d->nr >= FUSE_NET_NR_SLOTS || key.phase >= FUSE_MAX_PHASES)
		return;
	f = nr_flags[d->nr];
	if (!(f & (NRF_TX | NRF_RX)) || (d->fdkind != FUSE_FD_SOCK && !(f & NRF_NET)))
		return;
	s = row(&dstats, &key, &zero_dstat);
	if (!s)
		return;
	if (f & NRF_TX)
		s->net_tx += ret;
	else
		s->net_rx += ret;
}

/* The connection of the /dev/fuse descriptor fd (its fuse_dev's fuse_conn), 0 if it is none. */
static __always_inline __u32 devfuse_conn(long fd)
{
	struct file *f = fd_file(fd);
	struct fuse_dev *fud;

	if (!f || BPF_CORE_READ(f, f_inode, i_rdev) != FUSE_DEVFUSE_RDEV)
		return 0;
	fud = BPF_CORE_READ(f, private_data);
	return fud ? BPF_CORE_READ(fud, fc, dev) : 0;
}

/* The request the current daemon thread read starts now (unique 0 and sp_on: spliced, its
 * unique not known yet): its time so far is closed, so the request's starts at the read's
 * return. A request read before still unanswered (FORGET has no reply; one handed to another
 * thread) is dropped: its time is charged by overlap only. */
static __always_inline void start_request(struct fuse_dthread *d, __u64 unique, __u32 conn)
{
	dthread_mark(d, bpf_ktime_get_ns(), d->cls);
	__builtin_memset(d->r_ns, 0, sizeof(d->r_ns));
	d->r_unique = unique;
	d->r_conn = conn;
	d->r_on = 1;
	d->sp_on = 0;
}

/* The pipe of descriptor fd (its struct pipe_inode_info), 0 if fd is no pipe. */
static __always_inline __u64 fd_pipe(long fd)
{
	struct file *f = fd_file(fd);

	if (!f || (BPF_CORE_READ(f, f_inode, i_mode) & S_IFMT_) != S_IFIFO_)
		return 0;
	return (__u64)BPF_CORE_READ(f, private_data);
}

/* The address of the data a read (buf) or readv (its first iovec) returned. */
static __always_inline __u64 read_buf(struct pt_regs *regs, __u8 f)
{
	__u64 buf = PT_REGS_PARM2_CORE(regs);

	if ((f & NRF_RDIOV) && bpf_probe_read_user(&buf, sizeof(buf), (void *)buf))
		return 0;
	return buf;
}

/* A daemon thread's read/readv of /dev/fuse returned a request (its struct fuse_in_header at
 * the start of the buffer): from now to its reply, the thread's time is that request's. A
 * splice(/dev/fuse -> pipe) returned one (all of it, in.h.len bytes, into the pipe): its
 * request starts now and its unique is taken from the thread's next read of that pipe, which
 * returns the header (libfuse reads it so, with splice_read) — see pipe_header. */
static __always_inline void read_request(struct fuse_dthread *d, struct pt_regs *regs, long ret)
{
	__u8 f = d->nr < FUSE_NET_NR_SLOTS ? nr_flags[d->nr] : 0;
	__u64 unique = 0, buf, pipe;
	__u32 conn;

	if (ret < FUSE_IN_HDR || !(f & (NRF_RDBUF | NRF_RDIOV | NRF_SPLICE)))
		return;
	conn = devfuse_conn(PT_REGS_PARM1_CORE(regs));
	if (!conn)
		return;
	if (f & NRF_SPLICE) {
		pipe = fd_pipe(PT_REGS_PARM3_CORE(regs));
		if (!pipe)
			return;
		start_request(d, 0, conn);
		d->sp_on = 1;
		d->sp_pipe = pipe;
		d->sp_len = ret;
		return;
	}
	buf = read_buf(regs, f);
	if (!buf || bpf_probe_read_user(&unique, sizeof(unique), (void *)(buf + FUSE_IN_UNIQUE)))
		return;
	start_request(d, unique, conn);
}

/* The first read/readv of the pipe a request was spliced into, by the thread that spliced it:
 * it returns the request's header if its length is the splice's (else the request stays
 * unpaired). Reads of other files leave the request waiting for its header. */
static __always_inline void pipe_header(struct fuse_dthread *d, struct pt_regs *regs, long ret)
{
	__u8 f = d->nr < FUSE_NET_NR_SLOTS ? nr_flags[d->nr] : 0;
	struct { __u32 len, opcode; __u64 unique; } h;
	__u64 buf;

	if (!(f & (NRF_RDBUF | NRF_RDIOV)) || fd_pipe(PT_REGS_PARM1_CORE(regs)) != d->sp_pipe)
		return;
	d->sp_on = 0;
	buf = ret >= FUSE_IN_HDR ? read_buf(regs, f) : 0;
	if (!buf || bpf_probe_read_user(&h, sizeof(h), (void *)buf) || h.len != d->sp_len) {
		d->r_on = 0;
		return;
	}
	d->r_unique = h.unique;
}

/* A syscall whose entry was not seen (the thread became a daemon thread, or its process one,
 * while it was inside: a read of /dev/fuse blocked at the window's start): a read or readv gets
 * its number and fd kind from the registers at the exit, so its request is not missed. */
static __always_inline void exit_only(struct fuse_dthread *d, struct pt_regs *regs)
{
	long nr = BPF_CORE_READ(regs, orig_ax);

	if (nr < 0 || nr >= FUSE_NET_NR_SLOTS ||
	    !(nr_flags[nr] & (NRF_RDBUF | NRF_RDIOV | NRF_SPLICE)))
		return;
	d->nr = nr;
	d->fdkind = fd_kind(PT_REGS_PARM1_CORE(regs));
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fuse_sys_exit, struct pt_regs *regs, long ret)
{
	struct fuse_dthread *d = current_dthread();

	if (d) {
		count_net(d, ret);
		if (d->nr == 0xffff)
			exit_only(d, regs);
		if (d->fdkind == FUSE_FD_DEVFUSE)
			read_request(d, regs, ret);
		else if (d->sp_on)
			pipe_header(d, regs, ret);
		d->nr = 0xffff;
	}
	return 0;
}
