// SPDX-License-Identifier: GPL-2.0
/*
 * `iowhy __floor [--core|--syscalls|--timer|--io-timer] [--] CMD [ARGS...]`: CMD under empty programs on
 * iowhy's tracepoints (floor_probes.h), for the benchmarks' floor controls: F0 every tracepoint,
 * F1 (--syscalls) the raw_syscalls pair only; --core the core probes' tracepoints (as --no-io);
 * F2 (--timer) a minimal exact syscall timer on that pair (bench/syscall_floor.sh); F3
 * (--io-timer) that and a minimal exact off-CPU and request timer (bench/io_floor.sh); FS
 * (--sampler HZ) an empty program on the sampler's cpu-clock events (bench/sampler_cost.sh).
 * Exits with CMD's status (128 + signal if killed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "commands.h"
#include "floor_probes.h"
#include "sampler.h"

int floor_main(int argc, char **argv)
{
	enum floor_kind kind = FLOOR_ALL;
	unsigned long hz = 0;
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
		} else if (!strcmp(argv[i], "--io-timer")) {
			kind = FLOOR_IO_TIMER;
		} else if (!strcmp(argv[i], "--sampler") && i + 1 < argc) {
			char *end;

			kind = FLOOR_SAMPLER;
			hz = strtoul(argv[++i], &end, 10);
			if (*end || !hz || hz > SAMPLER_MAX_HZ) {
				fprintf(stderr, "iowhy __floor: --sampler HZ: 1 to %d\n", SAMPLER_MAX_HZ);
				return 2;
			}
		} else {
			fprintf(stderr, "iowhy __floor: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "iowhy __floor: usage: iowhy __floor [--core|--syscalls|--timer|--io-timer|--sampler HZ] [--] CMD...\n");
		return 2;
	}
	if (kind == FLOOR_SAMPLER ? floor_sampler_attach(&f, hz) : floor_probes_attach(&f, kind))
		return 1;
	if (kind == FLOOR_SAMPLER)
		fprintf(stderr, "iowhy __floor: an empty program samples %d CPUs at %lu Hz\n",
			f.attached, hz);
	else
		fprintf(stderr, "iowhy __floor: %d %sprograms attached\n", f.attached,
			kind == FLOOR_TIMER || kind == FLOOR_IO_TIMER ? "timer " : "empty ");
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
