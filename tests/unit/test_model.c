// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the attribution model (user/model.c) on synthetic timelines. Every expected number is
 * worked out by hand in the comment above its test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "model.h"
#include "syscalls.h"

#define NONE IOWHY_NR_NONE
#define US IOWHY_TS_USER
#define KE IOWHY_TS_KERNEL
#define RQ IOWHY_TS_RUNQ
#define USEC 1000ull
#define MSEC (1000 * USEC)
#define DW IOWHY_TS_DWAIT
#define SW IOWHY_TS_SWAIT
#define DEAD IOWHY_TS_DEAD

/* ---- helpers ---- */

static uint16_t nr_of(const char *name)
{
	int nr = syscall_nr(name);

	assert_true(nr >= 0);
	return (uint16_t)nr;
}

static void state_flags(struct model *m, uint64_t ts, uint32_t tid, enum iowhy_state st,
			uint16_t nr, uint8_t flags)
{
	struct iowhy_event e = {
		.ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_STATE, .state = st,
		.flags = flags, .nr = nr,
	};

	model_event(m, &e, NULL);
}

static void state(struct model *m, uint64_t ts, uint32_t tid, enum iowhy_state st, uint16_t nr)
{
	state_flags(m, ts, tid, st, nr, 0);
}

static void fork_ev(struct model *m, uint64_t ts, uint32_t parent, uint32_t child, uint16_t nr,
		    const char *comm)
{
	struct iowhy_event e = {
		.ts = ts, .tid = parent, .tgid = parent, .type = IOWHY_EV_FORK, .nr = nr,
		.arg = child, .arg2 = child,
	};

	model_event(m, &e, comm);
}

static void exec_ev(struct model *m, uint64_t ts, uint32_t tid, const char *comm)
{
	struct iowhy_event e = {
		.ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_EXEC, .nr = nr_of("execve"),
	};

	model_event(m, &e, comm);
}

/* EXEC by a thread that took the leader's pid: tid is the new pid (the leader's), old the thread's. */
static void exec_as(struct model *m, uint64_t ts, uint32_t tid, uint32_t old, const char *comm)
{
	struct iowhy_event e = {
		.ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_EXEC, .nr = nr_of("execve"), .arg = old,
	};

	model_event(m, &e, comm);
}

static void thread_ev(struct model *m, uint64_t ts, uint32_t parent, uint32_t child)
{
	struct iowhy_event e = {
		.ts = ts, .tid = parent, .tgid = parent, .type = IOWHY_EV_FORK, .nr = nr_of("clone"),
		.arg = child, .arg2 = parent, .flags = IOWHY_EVF_THREAD,
	};

	model_event(m, &e, "py");
}

static const struct comm_stats *comm_row(const struct model *m, const char *comm)
{
	size_t i;

	for (i = 0; i < m->ncomms; i++)
		if (!strcmp(m->comms[i].comm, comm))
			return &m->comms[i];
	fail_msg("no comm row \"%s\"", comm);
	return NULL;
}

/* The invariants every finished model keeps, whatever the timeline. */
static void assert_conserved(const struct model *m)
{
	const struct wall_view *w = &m->wall;
	uint64_t groups = 0;
	int b, g, nr;

	assert_int_equal(wall_sum_ns(w), wall_ns(w));
	for (g = 0; g < SG_COUNT; g++)
		groups += w->kernel_group_ns[g];
	assert_int_equal(groups, w->bucket_ns[WB_KERNEL]);
	for (b = 0; b < WB_COUNT; b++) {
		uint64_t sum = 0;

		for (nr = 0; nr <= IOWHY_NR_SLOTS; nr++)
			sum += w->by_nr[b][nr];
		assert_int_equal(sum, w->bucket_ns[b]);
	}
}

static void assert_buckets(const struct model *m, uint64_t user, uint64_t kernel, uint64_t runq,
			   uint64_t iowait, uint64_t other, uint64_t unattributed)
{
	const struct wall_view *w = &m->wall;

	assert_int_equal(w->bucket_ns[WB_USER], user);
	assert_int_equal(w->bucket_ns[WB_KERNEL], kernel);
	assert_int_equal(w->bucket_ns[WB_RUNQ], runq);
	assert_int_equal(w->bucket_ns[WB_IOWAIT], iowait);
	assert_int_equal(w->bucket_ns[WB_OTHER], other);
	assert_int_equal(w->unattributed_ns, unattributed);
	assert_conserved(m);
}

static void assert_work(const struct comm_stats *c, uint64_t user, uint64_t kernel, uint64_t runq,
			uint64_t dwait, uint64_t swait)
{
	assert_int_equal(c->state_ns[US], user);
	assert_int_equal(c->state_ns[KE], kernel);
	assert_int_equal(c->state_ns[RQ], runq);
	assert_int_equal(c->state_ns[DW], dwait);
	assert_int_equal(c->state_ns[SW], swait);
}

static void assert_counts(const struct comm_stats *c, uint32_t tasks, uint32_t forks,
			  uint32_t execs, uint32_t exits)
{
	assert_int_equal(c->tasks, tasks);
	assert_int_equal(c->forks, forks);
	assert_int_equal(c->execs, execs);
	assert_int_equal(c->exits, exits);
}

/* ---- tests ---- */

/*
 * The gated root: model_init at 1000, the tracer releases it later. Its wakeup at 1300 is the
 * first event: the wall starts there (the 300 before were the tracer's, not the workload's wait).
 * RUNQ [1300,1310), KERNEL read [1310,1320), USER [1320,1400), dies. Wall 100, no other wait.
 * A root whose first event is not its wakeup (not traced) keeps the start at 1000.
 */
/*
 * A wakeup dated after its task's switch-in (the waker's CPU clock ahead of the other's): counted
 * with the difference when over 1 ms. Not counted: a wakeup before the switch-in, one within 1 ms
 * after it, a preemption (RUNQ with IOWHY_EVF_PREEMPT), a wakeup of a sleeping task.
 */
static void test_clock_skew(void **st)
{
	uint16_t rd = nr_of("read");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "a", DW, rd);
	state(&m, 1 * MSEC, 1, RQ, rd);          /* woken */
	state(&m, 2 * MSEC, 1, KE, rd);          /* on CPU */
	state(&m, 3 * MSEC, 1, DW, rd);          /* asleep again */
	state(&m, 10 * MSEC, 1, KE, rd);         /* on CPU: its wakeup dated later, by 80 ms */
	state(&m, 90 * MSEC, 1, RQ, rd);
	assert_int_equal(m.clock_skew_events, 1);
	assert_int_equal(m.clock_skew_max_ns, 80 * MSEC);
	state(&m, 91 * MSEC, 1, KE, rd);
	state_flags(&m, 200 * MSEC, 1, RQ, rd, IOWHY_EVF_PREEMPT); /* preempted: no wakeup */
	state(&m, 201 * MSEC, 1, KE, rd);
	state(&m, 201 * MSEC + 900 * USEC, 1, RQ, rd); /* within 1 ms: not counted */
	assert_int_equal(m.clock_skew_events, 1);
	state(&m, 202 * MSEC, 1, KE, rd);
	state(&m, 203 * MSEC, 1, SW, rd);
	state(&m, 300 * MSEC, 1, RQ, rd);        /* a wakeup of a sleeping task */
	state(&m, 301 * MSEC, 1, DEAD, NONE);
	model_finish(&m, 301 * MSEC);
	assert_int_equal(m.clock_skew_events, 1);
	assert_int_equal(m.clock_skew_max_ns, 80 * MSEC);
	model_free(&m);
}

static void test_gate_release(void **st)
{
	uint16_t rd = nr_of("read");
	struct model m;

	(void)st;
	model_init(&m, 1000);
	model_add_task(&m, 7, 7, "root", SW, rd);
	model_gate(&m, 7);
	state(&m, 1300, 7, RQ, rd);
	state(&m, 1310, 7, KE, rd);
	state(&m, 1320, 7, US, NONE);
	state(&m, 1400, 7, DEAD, NONE);
	model_finish(&m, 1400);
	assert_int_equal(m.wall.start_ns, 1300);
	assert_int_equal(wall_ns(&m.wall), 100);
	assert_buckets(&m, 80, 10, 10, 0, 0, 0);
	assert_work(comm_row(&m, "root"), 80, 10, 10, 0, 0);
	model_free(&m);

	model_init(&m, 1000);
	model_add_task(&m, 7, 7, "root", SW, rd);
	model_gate(&m, 7);
	state(&m, 1300, 7, KE, rd); /* its wakeup unseen */
	state(&m, 1400, 7, DEAD, NONE);
	model_finish(&m, 1400);
	assert_int_equal(m.wall.start_ns, 1000);
	assert_buckets(&m, 0, 100, 0, 0, 300, 0);
	model_free(&m);

	/* another task's event first: the start stays */
	model_init(&m, 1000);
	model_add_task(&m, 7, 7, "root", SW, rd);
	model_gate(&m, 7);
	state(&m, 1200, 8, RQ, rd);
	state(&m, 1300, 7, RQ, rd);
	model_finish(&m, 1400);
	assert_int_equal(m.wall.start_ns, 1000);
	assert_conserved(&m);
	model_free(&m);
}

/*
 * One task, start 1000: USER [1000,1100), KERNEL in write [1100,1150), DWAIT in write
 * [1150,1180), SWAIT outside a syscall [1180,1200).
 */
static void test_one_task(void **st)
{
	uint16_t wr = nr_of("write");
	const struct comm_stats *c;
	struct model m;

	(void)st;
	model_init(&m, 1000);
	model_add_task(&m, 1, 1, "dd", US, NONE);
	state(&m, 1100, 1, KE, wr);
	state(&m, 1150, 1, DW, wr);
	state(&m, 1180, 1, SW, NONE);
	model_finish(&m, 1200);

	assert_int_equal(wall_ns(&m.wall), 200);
	assert_buckets(&m, 100, 50, 0, 30, 20, 0);
	assert_int_equal(m.wall.kernel_group_ns[SG_DATA], 50);
	assert_int_equal(m.wall.by_nr[WB_USER][MODEL_NR_NONE], 100);
	assert_int_equal(m.wall.by_nr[WB_KERNEL][wr], 50);
	assert_int_equal(m.wall.by_nr[WB_IOWAIT][wr], 30);
	assert_int_equal(m.wall.by_nr[WB_OTHER][MODEL_NR_NONE], 20);

	assert_int_equal(m.ncomms, 1);
	c = comm_row(&m, "dd");
	assert_work(c, 100, 50, 0, 30, 20);
	assert_int_equal(c->kernel_group_ns[SG_DATA], 50);
	assert_int_equal(c->vol_switches, 1); /* KERNEL -> DWAIT; DWAIT -> SWAIT is off CPU already */
	assert_int_equal(c->invol_switches, 0);
	assert_counts(c, 1, 0, 0, 0);
	assert_int_equal(m.events, 3);
	assert_int_equal(m.live, 1);
	model_free(&m);
}

/*
 * Two tasks, start 1000. A: USER [1000,1100), then SWAIT in wait4 to the end.
 * B: DWAIT in read [1000,1200), RUNQ [1200,1210), KERNEL read [1210,1250), USER [1250,1300), dies.
 * Wall: USER 100 (overlaps B's DWAIT) + 50, IOWAIT 100 (read), RUNQ 10, KERNEL 40 (file data),
 * OTHER 100 (A alone in wait4).
 */
static void test_two_parallel_tasks(void **st)
{
	uint16_t rd = nr_of("read"), w4 = nr_of("wait4");
	struct model m;

	(void)st;
	model_init(&m, 1000);
	model_add_task(&m, 1, 1, "a", US, NONE);
	model_add_task(&m, 2, 2, "b", DW, rd);
	state(&m, 1100, 1, SW, w4);
	state(&m, 1200, 2, RQ, rd);
	state(&m, 1210, 2, KE, rd);
	state(&m, 1250, 2, US, NONE);
	state(&m, 1300, 2, DEAD, NONE);
	model_finish(&m, 1400);

	assert_buckets(&m, 150, 40, 10, 100, 100, 0);
	assert_int_equal(m.wall.by_nr[WB_IOWAIT][rd], 100);
	assert_int_equal(m.wall.by_nr[WB_RUNQ][rd], 10);
	assert_int_equal(m.wall.by_nr[WB_KERNEL][rd], 40);
	assert_int_equal(m.wall.kernel_group_ns[SG_DATA], 40);
	assert_int_equal(m.wall.by_nr[WB_OTHER][w4], 100);

	assert_work(comm_row(&m, "a"), 100, 0, 0, 0, 300);
	assert_int_equal(comm_row(&m, "a")->vol_switches, 1);
	assert_work(comm_row(&m, "b"), 50, 40, 10, 200, 0);
	assert_counts(comm_row(&m, "b"), 1, 0, 0, 1);
	assert_int_equal(m.live, 1);
	assert_int_equal(m.last_dead_ns, 0);
	model_free(&m);
}

/*
 * CPU in one task hides another task's I/O wait. Start 0.
 * A: KERNEL in write [0,50), then SWAIT. B: DWAIT in fsync [0,80), RUNQ [80,85), KERNEL fsync
 * [85,90), USER [90,100).
 * Wall: KERNEL 50 (file data) + 5 (sync), IOWAIT 30 (only after A left the CPU), RUNQ 5, USER 10.
 */
static void test_cpu_over_iowait(void **st)
{
	uint16_t wr = nr_of("write"), fs = nr_of("fsync");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "writer", KE, wr);
	model_add_task(&m, 2, 2, "syncer", DW, fs);
	state(&m, 50, 1, SW, wr);
	state(&m, 80, 2, RQ, fs);
	state(&m, 85, 2, KE, fs);
	state(&m, 90, 2, US, NONE);
	model_finish(&m, 100);

	assert_buckets(&m, 10, 55, 5, 30, 0, 0);
	assert_int_equal(m.wall.kernel_group_ns[SG_DATA], 50);
	assert_int_equal(m.wall.kernel_group_ns[SG_SYNC], 5);
	assert_int_equal(m.wall.by_nr[WB_IOWAIT][fs], 30);
	assert_work(comm_row(&m, "syncer"), 10, 5, 5, 80, 0);
	model_free(&m);
}

/*
 * I/O wait split by the disks with workload I/O in flight when each task went to sleep.
 * [0,10): A (disks 0 and 2) alone in D                 -> 5 + 5
 * [10,40): A and B (disk 2) in D: A 15 (8 disk 0, 7 disk 2: the remainder goes to the first disk), B 15
 * [40,50): B back on CPU, A sleeps in D again with no workload I/O in flight -> none 10
 */
static void dw_mask(struct model *m, uint64_t ts, uint32_t tid, uint16_t nr, uint32_t mask)
{
	struct iowhy_event e = {
		.ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_STATE, .state = IOWHY_TS_DWAIT,
		.nr = nr, .arg = mask,
	};

	model_event(m, &e, NULL);
}

static void test_iowait_by_disk(void **st)
{
	uint16_t rd = nr_of("read");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "a", KE, rd);
	model_add_task(&m, 2, 2, "b", KE, rd);
	state(&m, 0, 2, US, NONE);
	dw_mask(&m, 0, 1, rd, 0x5);
	state(&m, 0, 2, SW, NONE);
	dw_mask(&m, 10, 2, rd, 0x4);
	state(&m, 40, 2, RQ, rd);
	state(&m, 40, 2, KE, rd);
	dw_mask(&m, 40, 1, rd, 0);
	state(&m, 40, 2, SW, rd);
	model_finish(&m, 50);

	/* [40,50) has both asleep: A in D (no disk), B in S: I/O wait wins, all to "none". */
	assert_int_equal(m.wall.bucket_ns[WB_IOWAIT], 50);
	assert_int_equal(m.wall.iowait_by_disk[0], 5 + 8);
	assert_int_equal(m.wall.iowait_by_disk[2], 5 + 7 + 15);
	assert_int_equal(m.wall.iowait_by_disk[IOWHY_DISK_SLOTS], 10);
	model_free(&m);
}

/*
 * The disk whose completion woke a task takes its whole sleep, whatever was in flight at sleep
 * (blk-throttle holds bios before they are requests: nothing in flight, yet the wait is on the disk).
 * [0,30): A in D with nothing in flight; woken at 30 by disk 3 -> disk 3 gets 30
 * [30,40): A runnable; [40,60): D again (mask disk 1), woken by something else -> disk 1 gets 20
 */
/* Page faults: those before an exec go to the old comm (EXEC carries them), the rest at DEAD. */
/*
 * A thread (2) of a process whose leader is 1 execs: it takes pid 1, the leader gets pid 2
 * (de_thread). The leader's death comes before the EXEC (named 1) or after it (then named 2); either
 * way every task ends, none is unknown, and the new program's time is its own.
 */
static void test_exec_by_thread(void **st)
{
	uint16_t execve = nr_of("execve"), ex = nr_of("exit_group");

	(void)st;
	for (int leader_dies_first = 0; leader_dies_first < 2; leader_dies_first++) {
		struct model m;

		model_init(&m, 0);
		model_add_task(&m, 1, 1, "py", SW, nr_of("futex"));
		thread_ev(&m, 5, 1, 2); /* from the leader's clone... */
		state(&m, 6, 1, SW, nr_of("futex"));
		state(&m, 10, 2, US, IOWHY_NR_NONE);
		state(&m, 20, 2, KE, execve);  /* the thread calls execve: other threads are killed */
		state(&m, 30, 1, RQ, nr_of("futex"));
		state(&m, 31, 1, KE, nr_of("futex"));
		if (leader_dies_first) {
			state(&m, 40, 1, DEAD, ex);
			exec_as(&m, 45, 1, 2, "calib");
		} else {
			exec_as(&m, 35, 1, 2, "calib");
			state(&m, 40, 2, DEAD, ex); /* the old leader, now under the thread's pid */
		}
		state(&m, 50, 1, US, IOWHY_NR_NONE);
		state(&m, 70, 1, DEAD, ex);
		assert_int_equal(m.live, 0);
		model_finish(&m, 70);
		assert_int_equal(m.unknown_task, 0);
		assert_int_equal(comm_row(&m, "calib")->execs, 1);
		assert_int_equal(comm_row(&m, "calib")->exits, 1);
		assert_int_equal(comm_row(&m, "py")->exits, 1);
		assert_int_equal(comm_row(&m, "calib")->state_ns[US], 20);
		assert_int_equal(wall_sum_ns(&m.wall), wall_ns(&m.wall));
		model_free(&m);
	}
}

/* A STATE event of thread `tid` in process `tgid`. */
static void tstate(struct model *m, uint64_t ts, uint32_t tid, uint32_t tgid, enum iowhy_state st,
		   uint16_t nr)
{
	struct iowhy_event e = {
		.ts = ts, .tid = tid, .tgid = tgid, .type = IOWHY_EV_STATE, .state = st, .nr = nr,
	};

	model_event(m, &e, NULL);
}

/*
 * de_thread exchanges the pids some time before the EXEC event, and either task may be seen in
 * between: the thread (2 of process 1, inside execve) under pid 1, the dying leader under pid 2.
 * Orders seen in traces (the first failed 1 run in 5: the thread's preemption under pid 1 after
 * the leader's death made an unknown task that then stayed on CPU to the end):
 *  0: leader dies as 1; thread preempted as 1; back; EXEC
 *  1: thread preempted as 1 while the leader is alive; leader dies as 2; EXEC
 *  2: leader preempted as 2, back (USER) as 2, dies as 2; thread preempted as 1; EXEC
 *  3: leader dies as 1; thread's batched... EXEC comes first, the thread runs on (the plain case)
 * Every order: every task ends, none is unknown, the new program's time is its own, and the
 * on-CPU time is exactly what the events say.
 */
static void test_exec_exchange_race(void **st)
{
	uint16_t ev = nr_of("execve"), fx = nr_of("futex"), none = IOWHY_NR_NONE;

	(void)st;
	for (int order = 0; order < 4; order++) {
		struct model m;
		uint64_t cpu = 0;

		model_init(&m, 0);
		model_add_task(&m, 1, 1, "py", SW, fx);
		thread_ev(&m, 5, 1, 2);
		tstate(&m, 6, 1, 1, SW, fx);
		tstate(&m, 10, 2, 1, US, none);
		tstate(&m, 20, 2, 1, KE, ev);      /* the thread calls execve */
		tstate(&m, 25, 2, 1, DW, ev);      /* de_thread waits for the leader */
		tstate(&m, 30, 1, 1, RQ, fx);      /* the leader is killed */
		tstate(&m, 31, 1, 1, US, none);
		switch (order) {
		case 0:
			tstate(&m, 32, 2, 1, RQ, ev);   /* woken by the leader's exit */
			tstate(&m, 33, 1, 1, DEAD, none);
			tstate(&m, 33, 2, 1, KE, ev);
			tstate(&m, 36, 1, 1, RQ, ev);   /* exchanged: the thread under pid 1 */
			tstate(&m, 38, 1, 1, KE, ev);
			exec_as(&m, 40, 1, 2, "calib");
			break;
		case 1:
			tstate(&m, 32, 2, 1, RQ, ev);
			tstate(&m, 33, 2, 1, KE, ev);
			tstate(&m, 34, 1, 1, RQ, ev);   /* the thread under pid 1, leader alive */
			tstate(&m, 35, 2, 1, DEAD, none); /* the leader under pid 2 */
			tstate(&m, 36, 1, 1, KE, ev);
			exec_as(&m, 40, 1, 2, "calib");
			break;
		case 2:
			tstate(&m, 32, 2, 1, RQ, ev);
			tstate(&m, 33, 2, 1, KE, ev);
			tstate(&m, 34, 2, 1, RQ, none); /* the leader under pid 2, preempted */
			tstate(&m, 35, 2, 1, US, none);
			tstate(&m, 36, 2, 1, DEAD, none);
			tstate(&m, 37, 1, 1, RQ, ev);
			tstate(&m, 38, 1, 1, KE, ev);
			exec_as(&m, 40, 1, 2, "calib");
			break;
		default:
			tstate(&m, 32, 2, 1, RQ, ev);
			tstate(&m, 33, 1, 1, DEAD, none);
			tstate(&m, 33, 2, 1, KE, ev);
			exec_as(&m, 40, 1, 2, "calib");
			tstate(&m, 42, 1, 1, RQ, ev);
			tstate(&m, 44, 1, 1, KE, ev);
			break;
		}
		tstate(&m, 50, 1, 1, US, none);
		tstate(&m, 70, 1, 1, DEAD, nr_of("exit_group"));
		assert_int_equal(m.live, 0);
		model_finish(&m, 80);
		assert_int_equal(m.unknown_task, 0);
		assert_int_equal(m.exec_threads, 0);
		assert_int_equal(comm_row(&m, "calib")->execs, 1);
		assert_int_equal(comm_row(&m, "calib")->exits, 1);
		assert_int_equal(comm_row(&m, "py")->exits, 1);
		assert_int_equal(comm_row(&m, "calib")->state_ns[US], 20);
		for (size_t i = 0; i < m.ncomms; i++)
			cpu += m.comms[i].state_ns[US] + m.comms[i].state_ns[KE];
		/* whatever the order: never more CPU than the phase, and the wall adds up */
		assert_true(cpu <= 80);
		assert_int_equal(m.wall.bucket_ns[WB_USER] + m.wall.bucket_ns[WB_KERNEL] +
				 m.wall.bucket_ns[WB_RUNQ] + m.wall.bucket_ns[WB_IOWAIT] +
				 m.wall.bucket_ns[WB_OTHER] + m.wall.unattributed_ns, 80);
		model_free(&m);
	}
}

/*
 * A FORK whose child tid is still held by a stale task in D (its DEAD was lost): the stale task is
 * dropped and its held I/O wait still goes to a disk, so the I/O wait by disk adds up to the bucket
 * (found by the model fuzzer: fuzz/fuzz_model.c).
 */
static void test_stale_task_in_dwait(void **st)
{
	struct model m;
	uint64_t disks = 0;

	(void)st;
	model_init(&m, 1000);
	model_add_task(&m, 1, 1, "root", SW, nr_of("wait4"));
	tstate(&m, 1000, 4, 3, DW, nr_of("read"));  /* unknown task 4, in D */
	fork_ev(&m, 1140, 1, 4, nr_of("clone"), "c"); /* tid 4 again: the stale one goes */
	model_finish(&m, 1150);
	for (int d = 0; d <= IOWHY_DISK_SLOTS; d++)
		disks += m.wall.iowait_by_disk[d];
	assert_int_equal(m.wall.bucket_ns[WB_IOWAIT], 140);
	assert_int_equal(disks, 140);
	assert_conserved(&m);
	model_free(&m);
}

static void test_faults(void **st)
{
	struct iowhy_event exec = {
		.ts = 20, .tid = 2, .tgid = 2, .type = IOWHY_EV_EXEC, .nr = nr_of("execve"), .arg2 = 34,
	};
	struct iowhy_event dead = {
		.ts = 50, .tid = 2, .tgid = 2, .type = IOWHY_EV_STATE, .state = IOWHY_TS_DEAD,
		.nr = nr_of("exit_group"), .arg2 = 77,
	};
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "sh", SW, nr_of("wait4"));
	fork_ev(&m, 10, 1, 2, nr_of("clone"), "sh");
	model_event(&m, &exec, "dd");
	model_event(&m, &dead, NULL);
	model_finish(&m, 60);
	assert_int_equal(comm_row(&m, "sh")->faults, 34);
	assert_int_equal(comm_row(&m, "dd")->faults, 77);
	model_free(&m);
}

static void test_iowait_waker(void **st)
{
	uint16_t wr = nr_of("write");
	struct model m;
	struct iowhy_event wake = {
		.ts = 30, .tid = 1, .tgid = 1, .type = IOWHY_EV_STATE, .state = IOWHY_TS_RUNQ,
		.nr = wr, .arg = 1u << 3,
	};

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "dd", KE, wr);
	dw_mask(&m, 0, 1, wr, 0);
	model_event(&m, &wake, NULL);
	state(&m, 40, 1, KE, wr);
	dw_mask(&m, 40, 1, wr, 1u << 1);
	state(&m, 60, 1, RQ, wr);
	model_finish(&m, 60);

	assert_int_equal(m.wall.bucket_ns[WB_IOWAIT], 50);
	assert_int_equal(m.wall.iowait_by_disk[3], 30);
	assert_int_equal(m.wall.iowait_by_disk[1], 20);
	assert_int_equal(m.wall.iowait_by_disk[IOWHY_DISK_SLOTS], 0);
	model_free(&m);
}

/*
 * No waker (the wakeup came from a completion worker later than the window): the disk that
 * completed last during the sleep (arg2) takes the wait, even one the task had nothing in flight
 * on when it went to sleep (a throttled member holds the bios back before they are requests: a
 * raid0 member throttled for the workload once had its waits split over the other members).
 * [0,30) slept on disks 0 and 1, the last completion disk 1 -> disk 1 30;
 * [40,60) slept on 0 and 1, the last completion disk 2 -> disk 2 20;
 * [70,80) slept on 0 and 1, no completion during the sleep -> 5 each.
 */
static void test_iowait_last_completion(void **st)
{
	uint16_t wr = nr_of("write");
	struct model m;
	struct iowhy_event wake = {
		.ts = 30, .tid = 1, .tgid = 1, .type = IOWHY_EV_STATE, .state = IOWHY_TS_RUNQ,
		.nr = wr, .arg = 0, .arg2 = 1u << 1,
	};

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "dd", KE, wr);
	dw_mask(&m, 0, 1, wr, 3);
	model_event(&m, &wake, NULL);
	state(&m, 40, 1, KE, wr);
	dw_mask(&m, 40, 1, wr, 3);
	wake.ts = 60;
	wake.arg2 = 1u << 2;
	model_event(&m, &wake, NULL);
	state(&m, 70, 1, KE, wr);
	dw_mask(&m, 70, 1, wr, 3);
	wake.ts = 80;
	wake.arg2 = 0;
	model_event(&m, &wake, NULL);
	model_finish(&m, 80);

	assert_int_equal(m.wall.bucket_ns[WB_IOWAIT], 60);
	assert_int_equal(m.wall.iowait_by_disk[0], 5);
	assert_int_equal(m.wall.iowait_by_disk[1], 35);
	assert_int_equal(m.wall.iowait_by_disk[2], 20);
	model_free(&m);
}

/*
 * Kernel time of two tasks at once is split evenly; the remainder goes to the list head, the task
 * that entered the state last. Start 0; C sits in SWAIT (no syscall) throughout.
 * [0,20): A alone in KERNEL write (B: SWAIT, then RUNQ at 10)    -> data 20
 * [20,121): A in write, B in fsync, 101 ns: B 51, A 50           -> data 50, sync 51
 * [121,122): all three in SWAIT, 1 ns: head B gets it            -> fsync 1
 * 122: C's no-op SWAIT event keeps the order
 * [122,132): 10 ns over B, A, C: 4, 3, 3                          -> fsync 4, write 3, none 3
 */
static void test_kernel_split(void **st)
{
	uint16_t wr = nr_of("write"), fs = nr_of("fsync");
	const struct wall_view *w;
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 3, 3, "c", SW, NONE);
	model_add_task(&m, 1, 1, "a", KE, wr);
	model_add_task(&m, 2, 2, "b", SW, fs);
	state(&m, 10, 2, RQ, fs);
	state(&m, 20, 2, KE, fs);
	state(&m, 121, 1, SW, wr);
	state(&m, 121, 2, SW, fs);
	state(&m, 122, 3, SW, NONE);
	model_finish(&m, 132);

	w = &m.wall;
	assert_buckets(&m, 0, 121, 0, 0, 11, 0);
	assert_int_equal(w->kernel_group_ns[SG_DATA], 70);
	assert_int_equal(w->kernel_group_ns[SG_SYNC], 51);
	assert_int_equal(w->by_nr[WB_KERNEL][wr], 70);
	assert_int_equal(w->by_nr[WB_KERNEL][fs], 51);
	assert_int_equal(w->by_nr[WB_OTHER][fs], 5);
	assert_int_equal(w->by_nr[WB_OTHER][wr], 3);
	assert_int_equal(w->by_nr[WB_OTHER][MODEL_NR_NONE], 3);
	/* The work view is not split: each task's own time. */
	assert_work(comm_row(&m, "a"), 0, 121, 0, 0, 11);
	assert_work(comm_row(&m, "b"), 0, 101, 10, 0, 21);
	model_free(&m);
}

/*
 * Preemption. Start 0. A: USER [0,100), preempted (RUNQ) [100,190), USER [190,200).
 * B: RUNQ [0,100), USER [100,150), KERNEL read [150,160), SWAIT read [160,200).
 * Wall: USER 100 + 50 + 10, KERNEL 10, RUNQ 30 (A alone, outside a syscall).
 */
static void test_runq_preemption(void **st)
{
	uint16_t rd = nr_of("read");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "a", US, NONE);
	model_add_task(&m, 2, 2, "b", RQ, NONE);
	state_flags(&m, 100, 1, RQ, NONE, IOWHY_EVF_PREEMPT);
	state(&m, 100, 2, US, NONE);
	state(&m, 150, 2, KE, rd);
	state(&m, 160, 2, SW, rd);
	state(&m, 190, 1, US, NONE);
	model_finish(&m, 200);

	assert_buckets(&m, 160, 10, 30, 0, 0, 0);
	assert_int_equal(m.wall.by_nr[WB_RUNQ][MODEL_NR_NONE], 30);
	assert_work(comm_row(&m, "a"), 110, 0, 90, 0, 0);
	assert_int_equal(comm_row(&m, "a")->invol_switches, 1);
	assert_int_equal(comm_row(&m, "a")->vol_switches, 0);
	assert_work(comm_row(&m, "b"), 50, 10, 100, 0, 40);
	assert_int_equal(comm_row(&m, "b")->invol_switches, 0);
	assert_int_equal(comm_row(&m, "b")->vol_switches, 1);
	model_free(&m);
}

/*
 * RUNQ time is split by the syscall each runnable task is in. Start 0, 31 ns with A runnable
 * outside a syscall and B (added last, so the list head) runnable inside read: B 16, A 15.
 */
static void test_runq_split_by_nr(void **st)
{
	uint16_t rd = nr_of("read");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "a", RQ, NONE);
	model_add_task(&m, 2, 2, "b", RQ, rd);
	model_finish(&m, 31);

	assert_buckets(&m, 0, 0, 31, 0, 0, 0);
	assert_int_equal(m.wall.by_nr[WB_RUNQ][rd], 16);
	assert_int_equal(m.wall.by_nr[WB_RUNQ][MODEL_NR_NONE], 15);
	model_free(&m);
}

static void hidden_ev(struct model *m, uint64_t ts, uint32_t tid, enum iowhy_state st, uint16_t nr,
		      uint32_t back)
{
	struct iowhy_event e = {
		.ts = ts, .tid = tid, .tgid = tid, .type = IOWHY_EV_STATE, .state = st,
		.flags = IOWHY_EVF_HIDDEN, .nr = nr, .arg = back,
	};

	model_event(m, &e, NULL);
}

/*
 * A switch-in the kernel did not trace, dated at most so far back: the event at 100 says "on CPU
 * in user mode since 40" (arg 60). Start 0: "spin" runnable from the start, "b" asleep throughout;
 * spin switches out at 120, end 200. Work: spin RUNQ 40, USER 60 + 20, SWAIT 80. Wall: RUNQ
 * [0,40), USER [40,120) (60 of it moved from RUNQ), OTHER [120,200).
 */
static void test_hidden_stint(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "spin", RQ, NONE);
	model_add_task(&m, 2, 2, "b", SW, NONE);
	hidden_ev(&m, 100, 1, US, NONE, 60);
	state(&m, 120, 1, SW, NONE);
	model_finish(&m, 200);

	assert_buckets(&m, 80, 0, 40, 0, 80, 0);
	assert_int_equal(m.wall.by_nr[WB_RUNQ][MODEL_NR_NONE], 40);
	assert_work(comm_row(&m, "spin"), 80, 0, 40, 0, 80);
	assert_int_equal(m.hidden_ns, 60);
	model_free(&m);
}

/*
 * A switch-out the kernel did not trace, found later: the event at 100 says "asleep since 40"
 * (SWAIT, arg 60). "spin" on CPU from the start, end 200. Work: USER 40, SWAIT 160 (the slices
 * cut at 40). The wall view keeps its CPU bucket (not per task): USER 100, OTHER 100.
 */
static void test_hidden_stop(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "spin", US, NONE);
	hidden_ev(&m, 100, 1, SW, NONE, 60);
	model_finish(&m, 200);

	assert_work(comm_row(&m, "spin"), 40, 0, 0, 0, 160);
	assert_buckets(&m, 100, 0, 0, 0, 100, 0);
	model_free(&m);
}

/*
 * The same inside read, with a model_advance at 70 (a live interval was cut there: what it
 * reported stays): only the run-queue wall time after 70 moves, 30 ns, to kernel CPU in read; the
 * work view is still exact. Wall: RUNQ 70, KERNEL 30 + 20, OTHER 80.
 */
static void test_hidden_stint_after_cut(void **st)
{
	uint16_t rd = nr_of("read");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "spin", RQ, rd);
	model_add_task(&m, 2, 2, "b", SW, NONE);
	model_advance(&m, 70);
	hidden_ev(&m, 100, 1, KE, rd, 60);
	state(&m, 120, 1, SW, rd);
	model_finish(&m, 200);

	assert_buckets(&m, 0, 50, 70, 0, 80, 0);
	assert_int_equal(m.wall.by_nr[WB_KERNEL][rd], 50);
	assert_int_equal(m.wall.kernel_group_ns[SG_DATA], 50);
	assert_work(comm_row(&m, "spin"), 0, 80, 40, 0, 80);
	assert_int_equal(comm_row(&m, "spin")->kernel_group_ns[SG_DATA], 80);
	model_free(&m);
}

/*
 * Neither the wakeup nor the switch-in was traced (one host's kernel switches from idle to a task
 * without the tracepoints): the task was in I/O wait on disks 0 and 1 from 0; the hidden event at
 * 100 says "user mode since 70" (arg 30) and names disk 1 as the last to complete during the sleep
 * (arg2). Switch-out at 120, end 150. Work: DWAIT 70, USER 50, SWAIT 30. Wall: I/O wait 70, all on
 * disk 1; USER 50 (30 moved from I/O wait); OTHER 30.
 */
static void test_hidden_stint_from_dwait(void **st)
{
	uint16_t wr = nr_of("write");
	struct model m;
	struct iowhy_event e = {
		.ts = 100, .tid = 1, .tgid = 1, .type = IOWHY_EV_STATE, .state = IOWHY_TS_USER,
		.flags = IOWHY_EVF_HIDDEN, .nr = NONE, .arg = 30, .arg2 = 1u << 1,
	};

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "dd", KE, wr);
	dw_mask(&m, 0, 1, wr, 3);
	model_event(&m, &e, NULL);
	state(&m, 120, 1, SW, NONE);
	model_finish(&m, 150);

	assert_buckets(&m, 50, 0, 0, 70, 30, 0);
	assert_int_equal(m.wall.iowait_by_disk[0], 0);
	assert_int_equal(m.wall.iowait_by_disk[1], 70);
	assert_int_equal(m.wall.by_nr[WB_IOWAIT][wr], 70);
	assert_work(comm_row(&m, "dd"), 50, 0, 0, 70, 30);
	assert_int_equal(m.hidden_ns, 30);
	model_free(&m);
}

/*
 * The same from an ordinary sleep (a timer's wakeup not traced, then the switch-in): asleep from 0,
 * the hidden event at 100 says "user mode since 70". Switch-out at 120, end 150. Work: SWAIT
 * 70 + 30, USER 50. Wall: OTHER 70 + 30, USER 50 (30 moved from other wait).
 */
static void test_hidden_stint_from_swait(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "sleep", SW, NONE);
	hidden_ev(&m, 100, 1, US, NONE, 30);
	state(&m, 120, 1, SW, NONE);
	model_finish(&m, 150);

	assert_buckets(&m, 50, 0, 0, 0, 100, 0);
	assert_int_equal(m.wall.by_nr[WB_OTHER][MODEL_NR_NONE], 100);
	assert_work(comm_row(&m, "sleep"), 50, 0, 0, 0, 100);
	assert_int_equal(m.hidden_ns, 30);
	model_free(&m);
}

/*
 * The stint reaches back before the task became runnable (it woke at 20; arg 500 is the kernel's
 * account, clipped by the last switch seen on its CPU only in BPF): the run-queue time from 20
 * is all CPU. Another task on CPU in user mode [0,50) kept the wall in USER there: its time is
 * not moved twice. Wall: USER [0,50) + spin's [50,100), OTHER from the switch-out at 100.
 */
static void test_hidden_stint_clipped(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "spin", SW, NONE);
	model_add_task(&m, 2, 2, "b", US, NONE);
	state(&m, 20, 1, RQ, NONE);
	state(&m, 50, 2, SW, NONE);
	hidden_ev(&m, 90, 1, US, NONE, 500);
	state(&m, 100, 1, SW, NONE);
	model_finish(&m, 150);

	assert_buckets(&m, 100, 0, 0, 0, 50, 0);
	assert_work(comm_row(&m, "spin"), 80, 0, 0, 0, 70);
	assert_int_equal(m.hidden_ns, 70);
	model_free(&m);
}

/*
 * fork + exec + start-up. Start 0, root "sh" (tid 1) in USER.
 *  10 sh KERNEL clone; 20 FORK -> tid 2 ("sh", RUNQ in clone); 30 sh USER; 35 sh KERNEL wait4;
 *  40 sh SWAIT wait4; 40 child KERNEL clone; 45 USER; 50 KERNEL execve; 60 EXEC "cat" (start-up);
 *  65 preempted in execve (RUNQ); 68 back in execve (not a new syscall: start-up goes on); 70 USER;
 *  80 KERNEL openat (loader: process); 90 USER; 100 KERNEL mmap (loader: process); 110 USER;
 *  120 KERNEL write (not a loader call: start-up ends, file data); 130 USER;
 *  140 KERNEL openat (now file metadata); 150 USER; 160 KERNEL exit_group; 170 DEAD;
 *  175 sh RUNQ wait4; 180 sh KERNEL wait4; 185 sh USER; end 200.
 * Wall USER: 10+5+5+10+10+10+10+10+15 = 85. KERNEL process: clone 20, wait4 5, child clone 5,
 * execve 10+5+2, openat 10, mmap 10, exit_group 10, wait4 5 = 82; file data 10; metadata 10.
 * RUNQ: execve 3, wait4 5. OTHER: wait4 5 ([170,175): sh alone in SWAIT). Total 200.
 */
static void test_fork_exec_startup(void **st)
{
	uint16_t clone = nr_of("clone"), w4 = nr_of("wait4"), ex = nr_of("execve");
	uint16_t op = nr_of("openat"), mm = nr_of("mmap"), wr = nr_of("write");
	uint16_t eg = nr_of("exit_group");
	const struct wall_view *w;
	const struct comm_stats *sh, *cat;
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "sh", US, NONE);
	state(&m, 10, 1, KE, clone);
	fork_ev(&m, 20, 1, 2, clone, "sh");
	state(&m, 30, 1, US, NONE);
	state(&m, 35, 1, KE, w4);
	state(&m, 40, 1, SW, w4);
	state(&m, 40, 2, KE, clone);
	state(&m, 45, 2, US, NONE);
	state(&m, 50, 2, KE, ex);
	exec_ev(&m, 60, 2, "cat");
	state_flags(&m, 65, 2, RQ, ex, IOWHY_EVF_PREEMPT);
	state(&m, 68, 2, KE, ex);
	state(&m, 70, 2, US, NONE);
	state(&m, 80, 2, KE, op);
	state(&m, 90, 2, US, NONE);
	state(&m, 100, 2, KE, mm);
	state(&m, 110, 2, US, NONE);
	state(&m, 120, 2, KE, wr);
	state(&m, 130, 2, US, NONE);
	state(&m, 140, 2, KE, op);
	state(&m, 150, 2, US, NONE);
	state(&m, 160, 2, KE, eg);
	state(&m, 170, 2, DEAD, eg);
	state(&m, 175, 1, RQ, w4);
	state(&m, 180, 1, KE, w4);
	state(&m, 185, 1, US, NONE);
	model_finish(&m, 200);

	w = &m.wall;
	assert_buckets(&m, 85, 102, 8, 0, 5, 0);
	assert_int_equal(w->kernel_group_ns[SG_PROC], 82);
	assert_int_equal(w->kernel_group_ns[SG_DATA], 10);
	assert_int_equal(w->kernel_group_ns[SG_META], 10);
	assert_int_equal(w->kernel_group_ns[SG_MEM], 0);
	assert_int_equal(w->by_nr[WB_KERNEL][op], 20);
	assert_int_equal(w->by_nr[WB_KERNEL][ex], 17);
	assert_int_equal(w->by_nr[WB_RUNQ][ex], 3);
	assert_int_equal(w->by_nr[WB_RUNQ][w4], 5);
	assert_int_equal(w->by_nr[WB_OTHER][w4], 5);

	sh = comm_row(&m, "sh");
	cat = comm_row(&m, "cat");
	assert_counts(sh, 2, 1, 0, 0);
	assert_counts(cat, 1, 0, 1, 1);
	/* sh: the root [0,200) and the child until its exec [20,60). */
	assert_work(sh, 35, 45, 25, 0, 135);
	assert_int_equal(sh->kernel_group_ns[SG_PROC], 45);
	assert_int_equal(sh->vol_switches, 1);
	/* cat: [60,170). */
	assert_work(cat, 50, 57, 3, 0, 0);
	assert_int_equal(cat->kernel_group_ns[SG_PROC], 37);
	assert_int_equal(cat->kernel_group_ns[SG_DATA], 10);
	assert_int_equal(cat->kernel_group_ns[SG_META], 10);
	assert_int_equal(cat->invol_switches, 1);
	assert_int_equal(m.live, 1);
	assert_int_equal(m.last_dead_ns, 0);
	assert_int_equal(m.unknown_task, 0);
	model_free(&m);
}

/*
 * Start-up also ends when munmap returns. Start 0, "sh" in USER; 10 KERNEL execve; 20 EXEC "ls";
 * 30 USER; 40 KERNEL mmap; 50 USER; 60 KERNEL munmap; 70 USER (start-up over); 80 KERNEL brk
 * (a loader call, but now memory); 90 USER; end 100.
 * KERNEL: process 20 (execve) + 10 (mmap) + 10 (munmap), memory 10; USER 50.
 */
static void test_startup_ends_at_munmap(void **st)
{
	uint16_t ex = nr_of("execve"), mm = nr_of("mmap"), mu = nr_of("munmap");
	uint16_t brk = nr_of("brk");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "sh", US, NONE);
	state(&m, 10, 1, KE, ex);
	exec_ev(&m, 20, 1, "ls");
	state(&m, 30, 1, US, NONE);
	state(&m, 40, 1, KE, mm);
	state(&m, 50, 1, US, NONE);
	state(&m, 60, 1, KE, mu);
	state(&m, 70, 1, US, NONE);
	state(&m, 80, 1, KE, brk);
	state(&m, 90, 1, US, NONE);
	model_finish(&m, 100);

	assert_buckets(&m, 50, 50, 0, 0, 0, 0);
	assert_int_equal(m.wall.kernel_group_ns[SG_PROC], 40);
	assert_int_equal(m.wall.kernel_group_ns[SG_MEM], 10);
	assert_int_equal(comm_row(&m, "ls")->kernel_group_ns[SG_PROC], 30);
	assert_int_equal(comm_row(&m, "ls")->kernel_group_ns[SG_MEM], 10);
	assert_int_equal(comm_row(&m, "sh")->kernel_group_ns[SG_PROC], 10);
	assert_counts(comm_row(&m, "sh"), 1, 0, 0, 0);
	assert_counts(comm_row(&m, "ls"), 1, 0, 1, 0);
	model_free(&m);
}

/*
 * Timestamps going backwards are clamped to the previous event. Start 0, "t" (tid 1) in USER.
 *   100 KERNEL write; 90 USER (-> 100: the write took 0)
 *   150 unknown tid 2 USER (created "?"); 140 tid 1 DEAD (-> 150)
 *   180 tid 2 SWAIT; 170 tid 2 DEAD (-> 180: live 0 at 180, not 170); end 200
 * USER 100 + 50 + 30, unattributed 20.
 */
static void test_out_of_order(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "t", US, NONE);
	state(&m, 100, 1, KE, nr_of("write"));
	state(&m, 90, 1, US, NONE);
	state(&m, 150, 2, US, NONE);
	state(&m, 140, 1, DEAD, NONE);
	state(&m, 180, 2, SW, NONE);
	state(&m, 170, 2, DEAD, NONE);
	model_finish(&m, 200);

	assert_int_equal(m.out_of_order, 3);
	assert_int_equal(m.events, 6);
	assert_int_equal(m.unknown_task, 1);
	assert_int_equal(m.live, 0);
	assert_int_equal(m.last_dead_ns, 180);
	assert_buckets(&m, 180, 0, 0, 0, 0, 20);
	assert_work(comm_row(&m, "t"), 150, 0, 0, 0, 0);
	assert_work(comm_row(&m, "?"), 30, 0, 0, 0, 0);
	model_free(&m);
}

/*
 * Phase bounds. Start 1000, "t" (tid 1) in SWAIT. An event at 900 (before the start) puts it in
 * KERNEL: nothing before 1000 counts, and it is not out of order. Unknown tid 2 is USER from 950 to
 * 1050: its work counts from 1000 only. 1100 "t" USER; end 1200. An event at 1300, after the end, is
 * ignored. Wall: USER [1000,1050) + [1100,1200), KERNEL [1050,1100).
 */
static void test_phase_bounds(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 1000);
	model_add_task(&m, 1, 1, "t", SW, NONE);
	state(&m, 900, 1, KE, nr_of("write"));
	state(&m, 950, 2, US, NONE);
	state(&m, 1050, 2, DEAD, NONE);
	state(&m, 1100, 1, US, NONE);
	model_finish(&m, 1200);
	state(&m, 1300, 1, DEAD, NONE);

	assert_int_equal(m.wall.start_ns, 1000);
	assert_int_equal(m.wall.end_ns, 1200);
	assert_int_equal(m.events, 4);
	assert_int_equal(m.out_of_order, 0);
	assert_int_equal(m.live, 1);
	assert_buckets(&m, 150, 50, 0, 0, 0, 0);
	assert_work(comm_row(&m, "t"), 100, 100, 0, 0, 0);
	assert_work(comm_row(&m, "?"), 50, 0, 0, 0, 0);
	model_free(&m);
}

/* Events fed beyond the end handed to model_finish: the end moves so that the sum still holds. */
static void test_finish_before_last_event(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "t", US, NONE);
	state(&m, 150, 1, SW, NONE);
	model_finish(&m, 100);

	assert_int_equal(m.wall.end_ns, 150);
	assert_buckets(&m, 150, 0, 0, 0, 0, 0);
	model_free(&m);
}

/*
 * Unknown tasks, no seeded root. Start 0.
 *   [0,30) nothing known: unattributed
 *   30 tid 5 USER: unknown, created as "?"
 *   60 tid 77 DEAD: unknown, nothing created; 65 EXEC of tid 88: unknown, nothing created
 *   70 tid 5 DEAD: live 0, last_dead_ns 70; [70,80) unattributed
 *   80 FORK from unknown tid 9: child 10 ("x") is created, RUNQ [80,100)
 * USER 40, RUNQ 20, unattributed 40.
 */
static void test_unknown_task(void **st)
{
	struct model m;

	(void)st;
	model_init(&m, 0);
	state(&m, 30, 5, US, NONE);
	state(&m, 60, 77, DEAD, NONE);
	exec_ev(&m, 65, 88, "cat");
	state(&m, 70, 5, DEAD, NONE);
	fork_ev(&m, 80, 9, 10, nr_of("clone"), "x");
	model_finish(&m, 100);

	assert_int_equal(m.unknown_task, 4);
	assert_buckets(&m, 40, 0, 20, 0, 0, 40);
	assert_int_equal(m.ncomms, 2);
	assert_counts(comm_row(&m, "?"), 1, 0, 0, 1);
	assert_work(comm_row(&m, "?"), 40, 0, 0, 0, 0);
	assert_counts(comm_row(&m, "x"), 1, 1, 0, 0);
	assert_int_equal(m.live, 1);
	assert_int_equal(m.last_dead_ns, 70);
	model_free(&m);
}

/*
 * DEAD. Start 0, "p" USER; 10 KERNEL clone; 20 FORK tid 2; 30 USER; child: 40 USER, 50 KERNEL
 * exit_group, 60 DEAD (live 1); 70 root KERNEL exit_group; 80 root DEAD (live 0 at 80).
 * USER 10 + 40, KERNEL process 20 + 10, unattributed [80,100) 20.
 */
static void test_dead(void **st)
{
	uint16_t clone = nr_of("clone"), eg = nr_of("exit_group");
	struct model m;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "p", US, NONE);
	state(&m, 10, 1, KE, clone);
	fork_ev(&m, 20, 1, 2, clone, "p");
	state(&m, 30, 1, US, NONE);
	state(&m, 40, 2, US, NONE);
	state(&m, 50, 2, KE, eg);
	state(&m, 60, 2, DEAD, eg);
	assert_int_equal(m.live, 1);
	assert_int_equal(m.last_dead_ns, 0);
	state(&m, 70, 1, KE, eg);
	state(&m, 80, 1, DEAD, eg);
	model_finish(&m, 100);

	assert_int_equal(m.live, 0);
	assert_int_equal(m.last_dead_ns, 80);
	assert_buckets(&m, 50, 30, 0, 0, 0, 20);
	assert_int_equal(m.wall.kernel_group_ns[SG_PROC], 30);
	assert_counts(comm_row(&m, "p"), 2, 1, 0, 2);
	/* root [0,80): USER 10+40, KERNEL 20+10; child [20,60): RUNQ 20, USER 10, KERNEL 10. */
	assert_work(comm_row(&m, "p"), 60, 40, 20, 0, 0);
	model_free(&m);
}

/* This process's CPU time: what the model costs, whatever else runs on the machine. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * 100k children, all alive at once, then each runs and dies. Start 0, root "make" (tid 1) USER.
 * Pass 1, child i at t = 1000 + 10i: root KERNEL clone, FORK at t+1, root USER at t+2.
 * Pass 2 from T = 1000 + 10N, child j at T + 10j: KERNEL clone, USER, KERNEL exit_group, DEAD.
 * The root is on CPU throughout: KERNEL process 2 per fork, the rest USER. Each child waits in
 * RUNQ from its fork (1000 + 10j + 1) to T + 10j: 10N - 1.
 */
static void test_many_tasks(void **st)
{
	enum { N = 100000 };
	uint16_t clone = nr_of("clone"), eg = nr_of("exit_group");
	uint64_t t, end = 1000 + 20ull * N;
	double t0 = now_s(), elapsed;
	struct model m;
	uint32_t i;

	(void)st;
	model_init(&m, 0);
	model_add_task(&m, 1, 1, "make", US, NONE);
	for (i = 0; i < N; i++) {
		t = 1000 + 10ull * i;
		state(&m, t, 1, KE, clone);
		fork_ev(&m, t + 1, 1, 2 + i, clone, "make");
		state(&m, t + 2, 1, US, NONE);
	}
	assert_int_equal(m.live, N + 1);
	/* The tid table grew with them: load factor at most 3/4, so lookups stay O(1). */
	assert_int_equal(m.hcount, N + 1);
	assert_true(4 * m.hcount <= 3 * m.hcap);
	for (i = 0; i < N; i++) {
		t = 1000 + 10ull * N + 10ull * i;
		state(&m, t, 2 + i, KE, clone);
		state(&m, t + 1, 2 + i, US, NONE);
		state(&m, t + 2, 2 + i, KE, eg);
		state(&m, t + 3, 2 + i, DEAD, eg);
	}
	model_finish(&m, end);
	elapsed = now_s() - t0;

	assert_int_equal(m.events, 7ull * N);
	assert_int_equal(m.unknown_task, 0);
	assert_int_equal(m.live, 1);
	assert_int_equal(m.last_dead_ns, 0);
	assert_buckets(&m, end - 2ull * N, 2ull * N, 0, 0, 0, 0);
	assert_int_equal(m.wall.kernel_group_ns[SG_PROC], 2ull * N);
	assert_counts(comm_row(&m, "make"), N + 1, N, 0, N);
	assert_int_equal(comm_row(&m, "make")->state_ns[RQ], (uint64_t)N * (10ull * N - 1));
	model_free(&m);
	/* linear: about 0.1 s of CPU (0.3 s under ASan); a quadratic table would take minutes */
	if (elapsed >= 3.0)
		fail_msg("100k tasks took %.3f s of CPU", elapsed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_task),
		cmocka_unit_test(test_two_parallel_tasks),
		cmocka_unit_test(test_cpu_over_iowait),
		cmocka_unit_test(test_iowait_by_disk),
		cmocka_unit_test(test_iowait_waker),
		cmocka_unit_test(test_iowait_last_completion),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_exec_by_thread),
		cmocka_unit_test(test_exec_exchange_race),
		cmocka_unit_test(test_stale_task_in_dwait),
		cmocka_unit_test(test_kernel_split),
		cmocka_unit_test(test_runq_preemption),
		cmocka_unit_test(test_runq_split_by_nr),
		cmocka_unit_test(test_hidden_stint),
		cmocka_unit_test(test_hidden_stop),
		cmocka_unit_test(test_hidden_stint_after_cut),
		cmocka_unit_test(test_hidden_stint_clipped),
		cmocka_unit_test(test_hidden_stint_from_dwait),
		cmocka_unit_test(test_hidden_stint_from_swait),
		cmocka_unit_test(test_fork_exec_startup),
		cmocka_unit_test(test_startup_ends_at_munmap),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_phase_bounds),
		cmocka_unit_test(test_gate_release),
		cmocka_unit_test(test_clock_skew),
		cmocka_unit_test(test_finish_before_last_event),
		cmocka_unit_test(test_unknown_task),
		cmocka_unit_test(test_dead),
		cmocka_unit_test(test_many_tasks),
	};

	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
