// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "flush.h"

int flush_fn(void *arg, struct phase_facts *facts)
{
	const char *dir = arg;
	struct timespec a, b;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0) {
		fprintf(stderr, "iowhy: flush: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (syncfs(fd)) {
		fprintf(stderr, "iowhy: flush: syncfs(%s): %s\n", dir, strerror(errno));
		close(fd);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(fd);
	facts_set(facts, "sync_seconds", "syncfs took", "s",
		  (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}

void flush_phase(struct phase_spec *ps, const char *column, char *dir)
{
	memset(ps, 0, sizeof(*ps));
	snprintf(ps->name, sizeof(ps->name), "%s/flush", column);
	snprintf(ps->column, sizeof(ps->column), "%s", column);
	ps->kind = PHASE_FLUSH;
	ps->comm = "iowhy-sync";
	ps->fn = flush_fn;
	ps->arg = dir;
}
