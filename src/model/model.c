// SPDX-License-Identifier: GPL-2.0
/*
 * The attribution model (see model.h for the rules of the two views).
 *
 * Bookkeeping: tasks live in a hash table keyed by tid (chained, grown by doubling) and, at the same
 * time, in one intrusive list per state, with a count per state. Each event first accounts the
 * interval since the previous event with the states as they were, then applies its change. Both
 * steps are O(1), except that the wall interval is split over the tasks of the winning state when
 * that state is KERNEL, RUNQ, DWAIT or SWAIT (USER time is not split), and that EXEC looks its new
 * comm up among the comm rows (few: one per program name). A task keeps the index of its comm row,
 * so FORK and state events never search.
 *
 * Splits are integer and exact: every task gets dt / n, the first task of the state's list also
 * gets the remainder. Lists are kept newest-first, so the remainder goes to the task that entered
 * the state last. Hence the buckets plus the unattributed time add up to the wall to the ns.
 *
 * Start-up: a freshly exec'd program first runs the dynamic loader (mapping ld.so.cache and the
 * libraries, setting up TLS, ...). That is the cost of creating the process, so while a task is in
 * start-up its kernel time is shown as SG_PROC ("process") rather than as file metadata or memory.
 * The kernel does not tell where the loader ends; the heuristic is: start-up begins at EXEC and ends
 * at the first syscall the loader never makes (!syscall_is_loader(nr)), or when a munmap returns:
 * unmapping ld.so.cache is the loader's last step, and glibc's own start-up after it is the
 * program's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "syscalls.h"

struct model_task {
	uint32_t tid, tgid;
	uint32_t comm;              /* row in m->comms (an index: the array moves when it grows) */
	uint16_t nr;                /* syscall in effect as the events carry it (IOWHY_NR_NONE: none) */
	uint8_t state;              /* enum iowhy_state, never DEAD while in the model */
	uint8_t startup;            /* between EXEC and the end of the dynamic loader */
	uint8_t took_pid;           /* took the leader's pid before the EXEC event (de_thread) */
	uint32_t diskmask;          /* DWAIT: disk slots with workload I/O in flight at sleep */
	uint64_t pending_iowait;    /* DWAIT: wall I/O wait held until we know what woke it */
	uint64_t wall_share;        /* off CPU: the wall run-queue, I/O or other wait charged to it
				     * since it entered the state or since the last model_advance */
	uint64_t since;             /* work view: time accounted up to here */
	uint64_t oncpu_at;          /* on CPU: when it was switched in (its event's timestamp) */
	struct model_task *hnext;   /* hash chain */
	struct model_task *prev, *next; /* list of the tasks in the same state */
};

#define HTAB_MIN 1024

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "iowhy: out of memory in the model\n");
		abort();
	}
	return p;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static int live_state(unsigned st)
{
	return st < IOWHY_TS_DEAD;
}

static int on_cpu(unsigned st)
{
	return st == IOWHY_TS_USER || st == IOWHY_TS_KERNEL;
}

/* Index of a syscall number in the by_nr arrays. */
static unsigned nr_index(uint16_t nr)
{
	if (nr == IOWHY_NR_NONE)
		return MODEL_NR_NONE;
	return nr < IOWHY_NR_SLOTS ? nr : IOWHY_NR_SLOTS - 1;
}

/* The numbers of execve and execveat (-1: none on this architecture), set by model_init: asked
 * at every event, they are not looked up there. */
static int nr_execve = -1, nr_execveat = -1;

/* execve or execveat. */
static int is_exec_nr(uint16_t nr)
{
	return nr != IOWHY_NR_NONE && ((int)nr == nr_execve || (int)nr == nr_execveat);
}

/* A thread other than its process's leader, inside execve: it may take the leader's pid. */
static int exec_thread(const struct model_task *t)
{
	return t->tid != t->tgid && is_exec_nr(t->nr);
}

static enum sys_group task_group(const struct model_task *t)
{
	return t->startup ? SG_PROC : syscall_group(nr_index(t->nr));
}

/* ---- comms ---- */

static uint32_t comm_index(struct model *m, const char *comm)
{
	char name[IOWHY_COMM_LEN] = { 0 };
	size_t i;

	strncpy(name, comm ? comm : "?", IOWHY_COMM_LEN - 1);
	for (i = 0; i < m->ncomms; i++)
		if (!strcmp(m->comms[i].comm, name))
			return (uint32_t)i;
	if (m->ncomms == m->capcomms) {
		size_t cap = m->capcomms ? 2 * m->capcomms : 16;
		struct comm_stats *c = realloc(m->comms, cap * sizeof(*c));

		if (!c) {
			fprintf(stderr, "iowhy: out of memory in the model\n");
			abort();
		}
		m->comms = c;
		m->capcomms = cap;
	}
	memset(&m->comms[m->ncomms], 0, sizeof(m->comms[0]));
	memcpy(m->comms[m->ncomms].comm, name, sizeof(name));
	return (uint32_t)m->ncomms++;
}

static struct comm_stats *row(struct model *m, const struct model_task *t)
{
	return &m->comms[t->comm];
}

/* ---- hash table by tid ---- */

static size_t tid_slot(uint32_t tid, size_t cap)
{
	uint32_t h = tid; /* murmur3 finaliser: sequential tids spread over the table */

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h & (cap - 1);
}

static struct model_task *task_find(const struct model *m, uint32_t tid)
{
	struct model_task *t;

	if (!m->htab)
		return NULL;
	for (t = m->htab[tid_slot(tid, m->hcap)]; t; t = t->hnext)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void htab_grow(struct model *m)
{
	size_t cap = m->hcap ? 2 * m->hcap : HTAB_MIN, i;
	struct model_task **tab = xcalloc(cap, sizeof(*tab));

	for (i = 0; i < m->hcap; i++) {
		struct model_task *t = m->htab[i], *next;

		for (; t; t = next) {
			size_t s = tid_slot(t->tid, cap);

			next = t->hnext;
			t->hnext = tab[s];
			tab[s] = t;
		}
	}
	free(m->htab);
	m->htab = tab;
	m->hcap = cap;
}

static void htab_insert(struct model *m, struct model_task *t)
{
	size_t s;

	if (4 * (m->hcount + 1) > 3 * m->hcap)
		htab_grow(m);
	s = tid_slot(t->tid, m->hcap);
	t->hnext = m->htab[s];
	m->htab[s] = t;
	m->hcount++;
}

static void htab_remove(struct model *m, struct model_task *t)
{
	struct model_task **p = &m->htab[tid_slot(t->tid, m->hcap)];

	while (*p != t)
		p = &(*p)->hnext;
	*p = t->hnext;
	m->hcount--;
}

/* ---- per-state lists ---- */

static void list_add(struct model *m, struct model_task *t)
{
	struct model_task **head = &m->lists[t->state];

	t->prev = NULL;
	t->next = *head;
	if (*head)
		(*head)->prev = t;
	*head = t;
	m->count[t->state]++;
}

static void list_del(struct model *m, struct model_task *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		m->lists[t->state] = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->prev = t->next = NULL;
	m->count[t->state]--;
}

static void set_state(struct model *m, struct model_task *t, unsigned st, uint16_t nr)
{
	if (t->state != st || t->nr != nr) /* its share was charged under (state, nr) */
		t->wall_share = 0;
	if (t->state != st) {
		list_del(m, t);
		t->state = (uint8_t)st;
		list_add(m, t);
	}
	m->exec_threads -= exec_thread(t);
	t->nr = nr;
	m->exec_threads += exec_thread(t);
}

/* ---- task lifetime ---- */

static struct model_task *task_new(struct model *m, uint32_t tid, uint32_t tgid, uint32_t comm,
				   unsigned st, uint16_t nr, uint64_t now)
{
	struct model_task *t = xcalloc(1, sizeof(*t));

	t->tid = tid;
	t->tgid = tgid;
	t->comm = comm;
	t->state = (uint8_t)st;
	t->nr = nr;
	t->since = now;
	t->oncpu_at = now;
	htab_insert(m, t);
	list_add(m, t);
	m->exec_threads += exec_thread(t);
	m->comms[comm].tasks++;
	m->live++;
	return t;
}

/* Take `t` out of the model (its work must be flushed already). */
static void task_remove(struct model *m, struct model_task *t)
{
	m->exec_threads -= exec_thread(t);
	list_del(m, t);
	htab_remove(m, t);
	free(t);
	m->live--;
}

/* ---- work view ---- */

/* Add the time `t` spent in its state since the last change, up to `now`, to its comm. */
static void task_flush(struct model *m, struct model_task *t, uint64_t now)
{
	uint64_t from = max_u64(t->since, m->wall.start_ns);

	if (now > from) {
		struct comm_stats *c = row(m, t);

		if (m->slice_fn) {
			struct model_slice sl = { .tid = t->tid, .tgid = t->tgid, .comm = c->comm,
						  .state = t->state, .nr = t->nr, .begin = from,
						  .end = now };

			m->slice_fn(m->slice_ctx, &sl);
		}
		c->state_ns[t->state] += now - from;
		if (t->state == IOWHY_TS_KERNEL)
			c->kernel_group_ns[task_group(t)] += now - from;
	}
	t->since = max_u64(t->since, now);
}

static void flush_all(struct model *m, uint64_t now)
{
	unsigned st;

	for (st = 0; st < IOWHY_TS_DEAD; st++) {
		struct model_task *t;

		for (t = m->lists[st]; t; t = t->next)
			task_flush(m, t, now);
	}
}

/* ---- wall view ---- */

/* Split one task's share of I/O wait evenly over the disks in its mask (remainder to the first). */
static void split_by_disk(struct wall_view *w, uint32_t mask, uint64_t part)
{
	uint64_t n, each;

	if (!mask) {
		w->iowait_by_disk[IOWHY_DISK_SLOTS] += part;
		return;
	}
	if (!(mask & (mask - 1))) { /* one disk: the usual case */
		w->iowait_by_disk[__builtin_ctz(mask)] += part;
		return;
	}
	n = (uint64_t)__builtin_popcount(mask);
	each = part / n;
	w->iowait_by_disk[__builtin_ctz(mask)] += part % n; /* the remainder to the first */
	for (; mask; mask &= mask - 1)
		w->iowait_by_disk[__builtin_ctz(mask)] += each;
}

/*
 * A task leaves uninterruptible sleep: its held I/O wait goes to the disk whose request completion
 * woke it (`waker`, a mask from the RUNQ event), else to the disk of the last workload completion
 * during the sleep (`last`), else to the disks that had workload I/O in flight when it went to
 * sleep, else to "none in flight" (iowhy_wait_disks).
 */
static void settle_iowait(struct wall_view *w, struct model_task *t, uint32_t waker, uint32_t last)
{
	split_by_disk(w, iowhy_wait_disks(waker, last, t->diskmask), t->pending_iowait);
	t->pending_iowait = 0;
}

/* Split dt over the tasks of list `st` into wall bucket `b`, by syscall (and group for KERNEL). */
static void wall_split(struct model *m, enum wall_bucket b, unsigned st, uint64_t dt)
{
	struct wall_view *w = &m->wall;
	uint64_t share = dt / m->count[st], extra = dt % m->count[st];
	struct model_task *t;

	for (t = m->lists[st]; t; t = t->next) {
		uint64_t part = share + extra;

		w->by_nr[b][nr_index(t->nr)] += part;
		if (b == WB_KERNEL)
			w->kernel_group_ns[task_group(t)] += part;
		if (b == WB_IOWAIT)
			t->pending_iowait += part;
		if (b != WB_KERNEL)
			t->wall_share += part;
		extra = 0;
		if (!share) /* dt < n: the first task got all of it */
			break;
	}
	w->bucket_ns[b] += dt;
}

/* Attribute dt of wall time to the highest-priority state any task is in. */
static void wall_attribute(struct model *m, uint64_t dt)
{
	struct wall_view *w = &m->wall;

	if (m->count[IOWHY_TS_USER]) {
		w->bucket_ns[WB_USER] += dt;
		w->by_nr[WB_USER][MODEL_NR_NONE] += dt;
	} else if (m->count[IOWHY_TS_KERNEL]) {
		wall_split(m, WB_KERNEL, IOWHY_TS_KERNEL, dt);
	} else if (m->count[IOWHY_TS_RUNQ]) {
		wall_split(m, WB_RUNQ, IOWHY_TS_RUNQ, dt);
	} else if (m->count[IOWHY_TS_DWAIT]) {
		wall_split(m, WB_IOWAIT, IOWHY_TS_DWAIT, dt);
	} else if (m->count[IOWHY_TS_SWAIT]) {
		wall_split(m, WB_OTHER, IOWHY_TS_SWAIT, dt);
	} else {
		w->unattributed_ns += dt;
	}
}

/* Account the wall interval [last_ns, now), ignoring what lies before the start. */
static void wall_advance(struct model *m, uint64_t now)
{
	uint64_t from = max_u64(m->last_ns, m->wall.start_ns);

	if (now > from)
		wall_attribute(m, now - from);
	m->last_ns = max_u64(m->last_ns, now);
}

/* ---- events ---- */

/*
 * Start-up ends at a syscall the loader never makes, or when munmap returns (see the top). A task
 * enters a syscall on USER -> KERNEL; KERNEL after RUNQ is a switch back into the same syscall (the
 * execve that started it all, for one).
 */
static void update_startup(struct model_task *t, unsigned st, uint16_t nr)
{
	if (!t->startup)
		return;
	if (st == IOWHY_TS_KERNEL && t->state == IOWHY_TS_USER && !syscall_is_loader(nr_index(nr)))
		t->startup = 0;
	else if (st == IOWHY_TS_USER && t->state == IOWHY_TS_KERNEL &&
		 (int)t->nr == syscall_nr("munmap"))
		t->startup = 0;
}

static void count_switch(struct model *m, const struct model_task *t, unsigned st, uint8_t flags)
{
	struct comm_stats *c = row(m, t);

	if (!on_cpu(t->state))
		return;
	if (st == IOWHY_TS_DWAIT || st == IOWHY_TS_SWAIT)
		c->vol_switches++;
	else if (st == IOWHY_TS_RUNQ && (flags & IOWHY_EVF_PREEMPT))
		c->invol_switches++;
}

/* Drop a stale task: its work up to now is its comm's, its held I/O wait goes to a disk (found by
 * fuzzing: dropped with the task, the I/O wait by disk no longer added up to the bucket). */
static void task_drop(struct model *m, struct model_task *t, uint64_t now)
{
	task_flush(m, t, now);
	if (t->state == IOWHY_TS_DWAIT)
		settle_iowait(&m->wall, t, 0, 0);
	task_remove(m, t);
}

static void task_die(struct model *m, struct model_task *t, uint64_t now)
{
	row(m, t)->exits++;
	task_remove(m, t);
	if (m->live == 0)
		m->last_dead_ns = now;
}

/*
 * A switch-in the kernel did not trace, dated when the task switched out (IOWHY_EVF_HIDDEN): the
 * event could be dated only so far back, and its arg holds the rest of the stint, which the trace
 * had as run-queue wait (or, when the wakeup was not traced either, I/O or other wait) before
 * `now`. Work view: the task's slices are cut there, exactly. Wall view: the wait time charged to
 * this task since it entered that state (and since the last model_advance, so that no
 * interval already reported loses time) moves to the CPU bucket, up to that length; time other
 * tasks shared stays as it was. A held I/O wait is settled first, less what moved.
 */
static void hidden_stint(struct model *m, struct model_task *t, const struct iowhy_event *e,
			 uint64_t now)
{
	uint64_t from = max_u64(t->since, m->wall.start_ns), split, moved;
	struct wall_view *w = &m->wall;
	enum wall_bucket b = t->state == IOWHY_TS_RUNQ ? WB_RUNQ :
			     t->state == IOWHY_TS_DWAIT ? WB_IOWAIT : WB_OTHER;

	if (!(e->flags & IOWHY_EVF_HIDDEN) || !e->arg || on_cpu(t->state) ||
	    (e->state != IOWHY_TS_USER && e->state != IOWHY_TS_KERNEL) || now <= from)
		return;
	split = e->arg < now - from ? now - e->arg : from;
	moved = t->wall_share < now - split ? t->wall_share : now - split;
	w->bucket_ns[b] -= moved;
	w->by_nr[b][nr_index(t->nr)] -= moved;
	task_flush(m, t, split);
	if (b == WB_IOWAIT) {
		t->pending_iowait -= moved;
		settle_iowait(w, t, 0, e->arg2);
	}
	set_state(m, t, e->state, e->nr);
	task_flush(m, t, now);
	if (e->state == IOWHY_TS_USER) {
		w->bucket_ns[WB_USER] += moved;
		w->by_nr[WB_USER][MODEL_NR_NONE] += moved;
	} else {
		w->bucket_ns[WB_KERNEL] += moved;
		w->by_nr[WB_KERNEL][nr_index(t->nr)] += moved;
		w->kernel_group_ns[task_group(t)] += moved;
	}
	m->hidden_ns += now - split;
}

/*
 * A switch-out the kernel did not trace, found later and dated at most so far back (STATE SWAIT
 * with IOWHY_EVF_HIDDEN): its arg holds how much longer ago the task left the CPU. Work view: the
 * task's slices are cut there, its CPU ends then. The wall view keeps what it charged (its CPU
 * buckets are not per task).
 */
static void hidden_stop(struct model *m, struct model_task *t, const struct iowhy_event *e,
			uint64_t now)
{
	uint64_t from = max_u64(t->since, m->wall.start_ns), split;

	if (!(e->flags & IOWHY_EVF_HIDDEN) || !e->arg || !on_cpu(t->state) || on_cpu(e->state) ||
	    e->state == IOWHY_TS_DEAD || now <= from)
		return;
	split = e->arg < now - from ? now - e->arg : from;
	task_flush(m, t, split);
	set_state(m, t, e->state, e->nr);
}

/*
 * A wakeup is sent only for a sleeping task, so in real time it comes before the task's next
 * switch-in. One dated after that switch-in (its task on CPU here since an earlier timestamp) means
 * the two CPUs' clocks disagreed by at least the difference: times that span CPUs (waits, device
 * latencies) are off by as much. Counted above CLOCK_SKEW_MIN_NS; a task inside execve is left out
 * (de_thread exchanges the pids of two tasks, whose events then interleave under one).
 */
static void clock_check(struct model *m, const struct model_task *t, const struct iowhy_event *e)
{
	uint64_t d;

	if (e->state != IOWHY_TS_RUNQ || (e->flags & IOWHY_EVF_PREEMPT) || !on_cpu(t->state) ||
	    t->took_pid || exec_thread(t) || e->ts <= t->oncpu_at)
		return;
	d = e->ts - t->oncpu_at;
	if (d <= CLOCK_SKEW_MIN_NS)
		return;
	m->clock_skew_events++;
	if (d > m->clock_skew_max_ns)
		m->clock_skew_max_ns = d;
}

static void on_state(struct model *m, const struct iowhy_event *e, uint64_t now)
{
	struct model_task *t = task_find(m, e->tid);

	if (e->state >= IOWHY_TS_COUNT)
		return;
	if (!t) {
		/* Its earlier time is lost; from now on its state is known. */
		m->unknown_task++;
		if (e->state != IOWHY_TS_DEAD)
			task_new(m, e->tid, e->tgid, comm_index(m, "?"), e->state, e->nr, now);
		return;
	}
	clock_check(m, t, e);
	hidden_stint(m, t, e, now);
	hidden_stop(m, t, e, now);
	task_flush(m, t, now);
	if (on_cpu(e->state) && !on_cpu(t->state))
		t->oncpu_at = e->ts;
	if (t->state == IOWHY_TS_DWAIT)
		settle_iowait(&m->wall, t, e->state == IOWHY_TS_RUNQ ? e->arg : 0,
			      e->state == IOWHY_TS_RUNQ || (e->flags & IOWHY_EVF_HIDDEN) ? e->arg2 : 0);
	count_switch(m, t, e->state, e->flags);
	update_startup(t, e->state, e->nr);
	if (e->state == IOWHY_TS_DEAD) {
		row(m, t)->faults += e->arg2;
		task_die(m, t, now);
		return;
	}
	set_state(m, t, e->state, e->nr);
	t->diskmask = e->state == IOWHY_TS_DWAIT ? e->arg : 0;
}

/*
 * FORK comes from the parent (e->tid); the child (e->arg, tgid e->arg2) starts runnable, inside the
 * parent's syscall, with the comm the event carries (the parent's, which it inherits). If the
 * parent is unknown the child is still created: its tid is known and its later events then count.
 */
static void on_fork(struct model *m, const struct iowhy_event *e, const char *comm, uint64_t now)
{
	struct model_task *parent = task_find(m, e->tid), *old;
	uint32_t parent_comm, child_comm;

	if (!parent)
		m->unknown_task++;
	parent_comm = parent ? parent->comm : comm_index(m, comm);
	m->comms[parent_comm].forks++;
	child_comm = comm && *comm ? comm_index(m, comm) : parent_comm;

	/* A stale task under the child's tid (its DEAD event was lost): drop it silently. */
	old = task_find(m, e->arg);
	if (old)
		task_drop(m, old, now);
	task_new(m, e->arg, e->arg2, child_comm, IOWHY_TS_RUNQ, e->nr, now);
}

/* EXEC: the task now runs under the new comm (counted as one of its tasks unless it already was)
 * and is in start-up. */
/* Give task t the tid `tid` (rehashed). */
static void task_retid(struct model *m, struct model_task *t, uint32_t tid)
{
	m->exec_threads -= exec_thread(t);
	htab_remove(m, t);
	t->tid = tid;
	htab_insert(m, t);
	m->exec_threads += exec_thread(t);
}

/* The thread (not the leader) of process `tgid` that is inside execve, or NULL. */
static struct model_task *find_exec_thread(const struct model *m, uint32_t tgid)
{
	for (size_t i = 0; i < m->hcap; i++)
		for (struct model_task *t = m->htab[i]; t; t = t->hnext)
			if (t->tgid == tgid && exec_thread(t))
				return t;
	return NULL;
}

/* de_thread's exchange, seen before the EXEC event: `thread` takes the leader's pid (its tgid), the
 * leader (if the model still has it) the thread's. */
static void take_leader_pid(struct model *m, struct model_task *thread, struct model_task *leader)
{
	uint32_t old = thread->tid;

	if (leader)
		task_retid(m, leader, 0); /* out of the way while the thread moves */
	task_retid(m, thread, thread->tgid);
	if (leader)
		task_retid(m, leader, old);
	thread->took_pid = 1;
}

/*
 * de_thread exchanges the pids of the exec'ing thread and the leader some time before the EXEC
 * event (which tells the model); in between, events name the thread by the leader's pid and the
 * dying leader by the thread's. Recognise the first such event and do the exchange then:
 * - the leader's pid, inside execve, while the model's task under that pid is gone (the leader died
 *   before the exchange) or is not inside execve, and is not entering a syscall from user mode
 *   (that would be the leader's own execve): it is the thread;
 * - the thread's pid going off CPU outside execve while the model's thread is inside execve: it is
 *   the old leader (a thread whose execve fails returns to user mode, which is not off CPU).
 */
static void exchange_early(struct model *m, const struct iowhy_event *e)
{
	struct model_task *t, *thread, *leader;

	if (!m->exec_threads)
		return;
	t = task_find(m, e->tid);
	if (e->tid == e->tgid && is_exec_nr(e->nr)) {
		if (t && (is_exec_nr(t->nr) ||
			  (e->state == IOWHY_TS_KERNEL && t->state == IOWHY_TS_USER)))
			return;
		thread = find_exec_thread(m, e->tgid);
		if (thread)
			take_leader_pid(m, thread, t);
	} else if (t && exec_thread(t) && !is_exec_nr(e->nr) && !on_cpu(e->state)) {
		leader = task_find(m, t->tgid);
		if (leader && !is_exec_nr(leader->nr))
			take_leader_pid(m, t, leader);
	}
}

/*
 * EXEC carries the pid the task had before (arg): a thread other than the leader that execs takes
 * the leader's pid and the leader gets the thread's (exchange_tids in de_thread). The model does the
 * same: the thread's task becomes e->tid; the old leader, if its death is still to come, goes on
 * under the thread's old pid, where its DEAD event will name it. Nothing to do when an earlier event
 * showed the exchange (exchange_early): the task under e->tid is then the thread already.
 */
static void exec_takes_pid(struct model *m, const struct iowhy_event *e)
{
	struct model_task *thread = e->arg && e->arg != e->tid ? task_find(m, e->arg) : NULL;
	struct model_task *leader = task_find(m, e->tid);

	if (leader && leader->took_pid) { /* exchanged already (exchange_early) */
		leader->took_pid = 0;
		return;
	}
	if (!thread)
		return;
	if (leader)
		task_retid(m, leader, 0); /* out of the way while the thread moves */
	task_retid(m, thread, e->tid);
	if (leader)
		task_retid(m, leader, e->arg);
}

static void on_exec(struct model *m, const struct iowhy_event *e, const char *comm, uint64_t now)
{
	struct model_task *t;

	exec_takes_pid(m, e);
	t = task_find(m, e->tid);

	if (!t) {
		m->unknown_task++;
		return;
	}
	task_flush(m, t, now);
	row(m, t)->faults += e->arg2; /* the old program's faults */
	if (comm) {
		uint32_t c = comm_index(m, comm);

		if (c != t->comm) {
			t->comm = c;
			m->comms[c].tasks++;
		}
	}
	row(m, t)->execs++;
	t->startup = 1;
}

static int finished(const struct model *m)
{
	return m->wall.end_ns != 0;
}

/* ---- API ---- */

void model_init(struct model *m, uint64_t start_ns)
{
	nr_execve = syscall_nr("execve");
	nr_execveat = syscall_nr("execveat");
	memset(m, 0, sizeof(*m));
	m->wall.start_ns = start_ns;
}

void model_gate(struct model *m, uint32_t tid)
{
	m->gate_tid = tid;
}

/* The first event after model_gate: the root's wakeup at its gate dates the start. */
static void gate_release(struct model *m, const struct iowhy_event *e)
{
	if (e->type == IOWHY_EV_STATE && e->tid == m->gate_tid && e->state == IOWHY_TS_RUNQ &&
	    e->ts > m->wall.start_ns && m->last_ns <= m->wall.start_ns)
		m->wall.start_ns = e->ts;
	m->gate_tid = 0;
}

void model_set_slice_sink(struct model *m, model_slice_fn fn, void *ctx)
{
	m->slice_fn = fn;
	m->slice_ctx = ctx;
}

void model_add_task(struct model *m, uint32_t tid, uint32_t tgid, const char *comm,
		    enum iowhy_state st, uint16_t nr)
{
	uint64_t now = max_u64(m->last_ns, m->wall.start_ns);
	struct model_task *old = task_find(m, tid);

	if (old)
		task_drop(m, old, now);
	if (live_state(st))
		task_new(m, tid, tgid, comm_index(m, comm), st, nr, now);
}

/*
 * After model_finish, events later than the end are ignored; earlier ones still change states
 * (their time was accounted already, so they count as out of order).
 */
void model_event(struct model *m, const struct iowhy_event *e, const char *comm)
{
	uint64_t now = e->ts;

	if (finished(m) && now > m->wall.end_ns)
		return;
	m->events++;
	if (m->gate_tid)
		gate_release(m, e);
	if (now < m->last_ns) {
		m->out_of_order++;
		now = m->last_ns;
	}
	wall_advance(m, now);
	switch (e->type) {
	case IOWHY_EV_STATE:
		exchange_early(m, e);
		on_state(m, e, now);
		break;
	case IOWHY_EV_FORK:
		on_fork(m, e, comm, now);
		break;
	case IOWHY_EV_EXEC:
		on_exec(m, e, comm, now);
		break;
	default:
		break;
	}
}

void model_advance(struct model *m, uint64_t now)
{
	if (finished(m))
		return;
	wall_advance(m, now);
	/* what is reported up to here stays: a hidden stint moves only later wall time */
	for (unsigned st = IOWHY_TS_RUNQ; st <= IOWHY_TS_SWAIT; st++)
		for (struct model_task *t = m->lists[st]; t; t = t->next)
			t->wall_share = 0;
}

/*
 * Account up to end_ns. If events later than end_ns were fed already, their time is in the buckets:
 * the end moves to the last event so that the buckets still add up to the wall.
 */
void model_finish(struct model *m, uint64_t end_ns)
{
	uint64_t end = max_u64(end_ns, max_u64(m->last_ns, m->wall.start_ns));

	wall_advance(m, end);
	flush_all(m, end);
	for (struct model_task *t = m->lists[IOWHY_TS_DWAIT]; t; t = t->next)
		settle_iowait(&m->wall, t, 0, 0);
	m->wall.end_ns = end;
}

void model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->hcap; i++) {
		struct model_task *t = m->htab[i], *next;

		for (; t; t = next) {
			next = t->hnext;
			free(t);
		}
	}
	free(m->htab);
	free(m->comms);
	m->htab = NULL;
	m->hcap = m->hcount = 0;
	m->comms = NULL;
	m->ncomms = m->capcomms = 0;
	memset(m->lists, 0, sizeof(m->lists));
	memset(m->count, 0, sizeof(m->count));
	m->live = 0;
	m->exec_threads = 0;
}

uint64_t wall_ns(const struct wall_view *w)
{
	return w->end_ns > w->start_ns ? w->end_ns - w->start_ns : 0;
}

uint64_t wall_sum_ns(const struct wall_view *w)
{
	uint64_t sum = w->unattributed_ns;
	int b;

	for (b = 0; b < WB_COUNT; b++)
		sum += w->bucket_ns[b];
	return sum;
}
