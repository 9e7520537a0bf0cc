// SPDX-License-Identifier: GPL-2.0
/* The tracing cost per event on this host, measured at start; see calibrate.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "calibrate.h"
#include "clock.h"
#include "vm_child.h"

#define CALIB_BATCHES 5
#define CALIB_CALLS 400    /* per batch: 2,000 null syscalls in all, a few ms traced */
#define CALIB_GATE_NS (1000ull * 1000 * 1000)

uint64_t calib_null_syscall_ps(void)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < CALIB_BATCHES; b++) {
		uint64_t t0 = now_ns(), t;

		for (int i = 0; i < CALIB_CALLS; i++)
			syscall(SYS_getppid);
		t = (now_ns() - t0) * 1000 / CALIB_CALLS;
		if (t < best)
			best = t; /* the least disturbed batch: load only ever adds */
	}
	return best;
}

uint64_t calib_event_cost_ps(uint64_t untraced_ps, uint64_t traced_ps)
{
	/* a syscall is two events (entry and exit transitions) */
	return traced_ps > untraced_ps ? (traced_ps - untraced_ps) / 2 : 0;
}

/* Whether pid is blocked in read(2) (its gate): /proc/PID/syscall starts with the read number. */
static int blocked_in_read(pid_t pid)
{
	char path[64], buf[64];
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return atoi(buf) == SYS_read;
}

/* The traced half's child: released through its gate, it times the null syscalls and writes
 * the result (see vm_child.h for what it may do: it runs in iowhy's memory). */
struct calib_child {
	int gate_rd, gate_wr, res_rd, res_wr;
};

static int calib_child_main(void *arg)
{
	const struct calib_child *a = arg;
	uint64_t ps;
	char g;

	close(a->gate_wr); /* (its copies: iowhy's death must end the wait) */
	close(a->res_rd);
	if (read(a->gate_rd, &g, 1) != 1)
		return 1;
	ps = calib_null_syscall_ps();
	return write(a->res_wr, &ps, sizeof(ps)) == sizeof(ps) ? 0 : 1;
}

int calib_traced_ps(calib_add_fn add, void *ctx, unsigned long long *traced_ps)
{
	int gate[2], res[2], st, rc = -1;
	uint64_t ps = 0, until;
	struct vm_child vc = { 0 };
	struct calib_child a;
	pid_t pid;

	if (pipe2(gate, O_CLOEXEC))
		return -1;
	if (pipe2(res, O_CLOEXEC)) {
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	a = (struct calib_child){ gate[0], gate[1], res[0], res[1] };
	/* a CLONE_VM child: no copy of iowhy's page tables, no copy-on-write after (vm_child.h) */
	pid = vm_child_start(&vc, calib_child_main, &a);
	close(gate[0]);
	close(res[1]);
	if (pid < 0)
		goto out;
	until = now_ns() + CALIB_GATE_NS;
	while (!blocked_in_read(pid) && now_ns() < until)
		usleep(200);
	if (add(ctx, pid) == 0 && write(gate[1], "g", 1) == 1 &&
	    read(res[0], &ps, sizeof(ps)) == sizeof(ps)) {
		*traced_ps = ps;
		rc = 0;
	}
out:
	close(gate[1]);
	if (pid > 0) {
		if (rc)
			kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	vm_child_free(&vc);
	close(res[0]);
	return rc;
}
