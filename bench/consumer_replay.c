// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer's cost per event, without a kernel: a simulated fio-like workload (T threads doing
 * a syscall each that sleeps in D for an I/O, on C CPUs) makes the records the core's programs make
 * (syscall transitions batched per task and sent at its switch-out, a switch record with next's
 * switch-in when next is a tree task, a switch-in of its own after idle, a wakeup record on the
 * completing CPU), each CPU's in its own lane, and feeds them through the reorder buffer and the
 * model as the session does (read every 20 ms, released 60 ms behind). Prints the CPU time per
 * event and a checksum of the wall view (the same for the same arguments, whatever the build).
 *
 *   build/consumer_replay [EVENTS_MILLIONS [THREADS [CPUS]]]     (default 4 16 2)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "reorder.h"
#include "model.h"

#define NR_PREAD 17
#define POLL_NS (20ull * 1000 * 1000)
#define WINDOW_NS (60ull * 1000 * 1000)
#define MAXT 256
#define MAXC 64

struct sim_task {
	unsigned tid;
	uint64_t wake_at;        /* its I/O completes then (0: not asleep) */
	struct iowhy_logent log[IOWHY_LOG_LEN];
	unsigned nlog;
	int runnable;
};

struct sim {
	struct reorder r;
	struct model m;
	struct sim_task t[MAXT];
	unsigned nt, nc;
	int running[MAXC];       /* task index on each CPU, -1: idle */
	int rq[MAXT];            /* run queue (FIFO of task indexes) */
	unsigned rq_head, rq_len;
	uint64_t events, pushed_bytes;
	uint64_t rng;
};

static unsigned rnd(struct sim *s, unsigned n)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return (unsigned)(s->rng % n);
}

static void deliver(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct sim *s = ctx;

	s->events++;
	model_event(&s->m, e, comm);
}

static void push(struct sim *s, unsigned cpu, const void *rec, size_t size)
{
	uint64_t newest;

	reorder_use_lane(&s->r, cpu);
	reorder_push_record(&s->r, rec, size, &newest);
	s->pushed_bytes += size;
}

static void fill(struct iowhy_event *e, uint64_t ts, unsigned tid, unsigned type, unsigned st,
		 unsigned nr, unsigned arg)
{
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->tid = tid;
	e->tgid = 1000;
	e->type = (__u8)type;
	e->state = (__u8)st;
	e->nr = (__u16)nr;
	e->arg = arg;
}

/* Task k's batched transitions, as flush_log sends them (before any other event of the task). */
static void flush_log(struct sim *s, unsigned cpu, struct sim_task *k)
{
	struct iowhy_event_batch b;

	if (!k->nlog)
		return;
	fill(&b.h, k->log[0].ts, k->tid, IOWHY_EV_BATCH, IOWHY_TS_KERNEL, NR_PREAD, k->nlog);
	memcpy(b.e, k->log, k->nlog * sizeof(b.e[0]));
	push(s, cpu, &b, sizeof(b.h) + (k->nlog <= 2 ? 2 : k->nlog <= 4 ? 4 : IOWHY_LOG_LEN) *
				 sizeof(b.e[0]));
	k->nlog = 0;
}

static void log_add(struct sim *s, unsigned cpu, struct sim_task *k, uint64_t ts, unsigned st,
		    unsigned nr)
{
	if (k->nlog == IOWHY_LOG_LEN)
		flush_log(s, cpu, k);
	k->log[k->nlog].ts = ts;
	k->log[k->nlog].state = (__u8)st;
	k->log[k->nlog].nr = (__u16)nr;
	k->nlog++;
}

int main(int argc, char **argv)
{
	uint64_t want = (uint64_t)((argc > 1 ? atof(argv[1]) : 4) * 1e6);
	unsigned nt = argc > 2 ? (unsigned)atoi(argv[2]) : 16, nc = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
	struct sim *s = calloc(1, sizeof(*s));
	uint64_t now = 1000000000ull, next_poll, sum = 0;
	struct timespec c0, c1;

	if (!s || nt < 1 || nt > MAXT || nc < 1 || nc > MAXC) {
		fprintf(stderr, "usage: consumer_replay [EVENTS_MILLIONS [THREADS<=%d [CPUS<=%d]]]\n",
			MAXT, MAXC);
		return 2;
	}
	s->nt = nt;
	s->nc = nc;
	s->rng = 88172645463325252ull;
	reorder_init(&s->r);
	model_init(&s->m, now);
	for (unsigned i = 0; i < nt; i++) {
		s->t[i].tid = 1000 + i;
		s->t[i].runnable = 1;
		s->rq[(s->rq_head + s->rq_len++) % MAXT] = (int)i;
		model_add_task(&s->m, 1000 + i, 1000, "fio", IOWHY_TS_RUNQ, NR_PREAD);
	}
	for (unsigned c = 0; c < nc; c++)
		s->running[c] = -1;
	next_poll = now + POLL_NS;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	while (s->events < want) {
		/* each CPU: its task returns from pread, runs ~1 us of user code, calls pread again
		 * and sleeps in D for its I/O (10-40 us); the CPU takes the next runnable task.
		 * A step is 2.6 us. */
		for (unsigned c = 0; c < nc; c++) {
			int cur = s->running[c];
			struct iowhy_event sw[2];

			/* completions taken on this CPU: wakeups in the middle of its task's stint,
			 * after the task's first batched transition (which then arrives late: the
			 * reorder buffer's heap) */
			for (unsigned i = c; i < nt; i += nc) {
				struct sim_task *k = &s->t[i];
				struct iowhy_event w;

				if (!k->wake_at || k->wake_at > now + 800 || k->runnable)
					continue;
				fill(&w, now + 800, k->tid, IOWHY_EV_STATE, IOWHY_TS_RUNQ, NR_PREAD, 1);
				push(s, c, &w, sizeof(w));
				k->wake_at = 0;
				k->runnable = 1;
				s->rq[(s->rq_head + s->rq_len++) % MAXT] = (int)i;
			}
			if (cur >= 0) {
				struct sim_task *k = &s->t[cur];

				log_add(s, c, k, now + 300, IOWHY_TS_USER, IOWHY_NR_NONE);
				log_add(s, c, k, now + 1300 + rnd(s, 400), IOWHY_TS_KERNEL, NR_PREAD);
				k->wake_at = now + 10000 + rnd(s, 30000);
				flush_log(s, c, k);
				fill(&sw[0], now + 2500, k->tid, IOWHY_EV_SWITCH, IOWHY_TS_DWAIT, NR_PREAD, 1);
			}
			if (s->rq_len) {
				int nx = s->rq[s->rq_head];
				struct sim_task *n = &s->t[nx];

				s->rq_head = (s->rq_head + 1) % MAXT;
				s->rq_len--;
				n->runnable = 0;
				fill(&sw[1], now + 2500, n->tid, IOWHY_EV_STATE, IOWHY_TS_KERNEL, NR_PREAD, 0);
				if (cur >= 0)
					push(s, c, sw, sizeof(sw));
				else
					push(s, c, &sw[1], sizeof(sw[1]));
				s->running[c] = nx;
			} else if (cur >= 0) {
				sw[0].type = IOWHY_EV_STATE;
				push(s, c, sw, sizeof(sw[0]));
				s->running[c] = -1;
			}
		}
		now += 2600;
		if (now >= next_poll) {
			reorder_release(&s->r, now - WINDOW_NS, deliver, s);
			next_poll = now + POLL_NS;
		}
	}
	reorder_release(&s->r, UINT64_MAX, deliver, s);
	model_finish(&s->m, now);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	for (unsigned b = 0; b < WB_COUNT; b++)
		sum = sum * 31 + s->m.wall.bucket_ns[b];
	for (unsigned d = 0; d <= IOWHY_DISK_SLOTS; d++)
		sum = sum * 31 + s->m.wall.iowait_by_disk[d];
	printf("%llu events (%.1f MB of records, %u threads, %u CPUs) in %.1f ms of CPU: %.1f ns an event; "
	       "late %llu; checksum %016llx\n",
	       (unsigned long long)s->events, s->pushed_bytes / 1e6, nt, nc,
	       ((c1.tv_sec - c0.tv_sec) * 1e9 + (c1.tv_nsec - c0.tv_nsec)) / 1e6,
	       ((c1.tv_sec - c0.tv_sec) * 1e9 + (c1.tv_nsec - c0.tv_nsec)) / (double)s->events,
	       (unsigned long long)s->r.late, (unsigned long long)sum);
	reorder_free(&s->r);
	model_free(&s->m);
	free(s);
	return 0;
}
