// SPDX-License-Identifier: GPL-2.0
/* perf's task-clock on the workload's tree: task_clock.h. */
#include "task_clock.h"

#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int task_clock_open(pid_t pid)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

uint64_t task_clock_read(int fd)
{
	uint64_t v;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return UINT64_MAX;
	return v;
}
