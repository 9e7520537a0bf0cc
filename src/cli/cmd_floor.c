// SPDX-License-Identifier: GPL-2.0
/*
 * `iowhy __floor [--core|--syscalls|--timer] [--] CMD [ARGS...]`: CMD under empty programs on
 * iowhy's tracepoints (floor_probes.h), for the benchmarks' floor controls: F0 every tracepoint,
 * F1 (--syscalls) the raw_syscalls pair only; --core the core probes' tracepoints (as --no-io);
 * F2 (--timer) a minimal exact syscall timer on that pair (bench/syscall_floor.sh).
 * Exits with CMD's status (128 + signal if killed).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "commands.h"
#include "floor_probes.h"

int floor_main(int argc, char **argv)
{
	enum floor_kind kind = FLOOR_ALL;
	struct floor_probes f;
	int i = 1, st = 0;
	pid_t pid;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--syscalls")) {
			kind = FLOOR_SYSCALLS;
		} else if (!strcmp(argv[i], "--core")) {
			kind = FLOOR_CORE;
		} else if (!strcmp(argv[i], "--timer")) {
			kind = FLOOR_TIMER;
		} else {
			fprintf(stderr, "iowhy __floor: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "iowhy __floor: usage: iowhy __floor [--core|--syscalls|--timer] [--] CMD...\n");
		return 2;
	}
	if (floor_probes_attach(&f, kind))
		return 1;
	fprintf(stderr, "iowhy __floor: %d %sprograms attached\n", f.attached,
		kind == FLOOR_TIMER ? "timer " : "empty ");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "iowhy __floor: fork: %s\n", strerror(errno));
		floor_probes_detach(&f);
		return 1;
	}
	if (pid == 0) {
		execvp(argv[i], argv + i);
		fprintf(stderr, "iowhy __floor: %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	floor_probes_detach(&f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
