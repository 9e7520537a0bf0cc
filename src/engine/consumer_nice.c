// SPDX-License-Identifier: GPL-2.0
/* The event consumer's scheduling priority; see consumer_nice.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "consumer_nice.h"

#define UNKNOWN 0x7fff

static pid_t main_tid;
static int started = UNKNOWN;  /* the nice iowhy was started with */
static int raised_to = UNKNOWN; /* the nice while behind (UNKNOWN: cannot be raised) */
static int raised;              /* the main thread is at raised_to now */
static uint64_t raised_at, raised_total;
static int test_behind;         /* IOWHY_TEST_CONSUMER_BEHIND=1: always behind (tests) */

void consumer_nice_init(void)
{
	const char *t = getenv("IOWHY_TEST_CONSUMER_BEHIND");

	test_behind = t && !strcmp(t, "1");
	main_tid = (pid_t)syscall(SYS_gettid);
	errno = 0;
	started = getpriority(PRIO_PROCESS, (id_t)main_tid);
	if (errno) {
		started = UNKNOWN;
		return;
	}
	raised_to = started - CONSUMER_NICE_RAISE < -20 ? -20 : started - CONSUMER_NICE_RAISE;
	if (raised_to == started)
		raised_to = UNKNOWN;
}

void consumer_nice_behind(int behind, uint64_t now_ns)
{
	behind = behind || test_behind;
	if (raised_to == UNKNOWN || !behind == !raised)
		return;
	/* (PRIO_PROCESS with a thread id sets that thread only, on Linux) */
	if (setpriority(PRIO_PROCESS, (id_t)main_tid, behind ? raised_to : started)) {
		if (behind)
			raised_to = UNKNOWN; /* not allowed (no CAP_SYS_NICE): never again */
		return;
	}
	raised = behind;
	if (behind)
		raised_at = now_ns;
	else
		raised_total += now_ns - raised_at;
}

void consumer_nice_child(void)
{
	/* its own nice, not `raised`: the main thread may have changed since the clone */
	errno = 0;
	if (started != UNKNOWN && getpriority(PRIO_PROCESS, 0) != started && !errno)
		setpriority(PRIO_PROCESS, 0, started);
}

void consumer_nice_stats(int *raised_nice, uint64_t *raised_ns, uint64_t now_ns)
{
	*raised_nice = raised_to != UNKNOWN ? raised_to : started != UNKNOWN ? started : 0;
	*raised_ns = raised_total + (raised ? now_ns - raised_at : 0);
}
