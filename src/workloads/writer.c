// SPDX-License-Identifier: GPL-2.0
/* File writing shared by the built-in workloads, and `iowhy __write FILE SIZE`. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "units.h"
#include "writer.h"

int write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) { /* a regular file never does this; don't spin if one did */
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int writer_file(const char *path, uint64_t size, struct prng *p, void *buf, size_t bufsize)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int saved;

	if (fd < 0)
		return -1;
	while (size > 0) {
		size_t n = size < bufsize ? (size_t)size : bufsize;

		prng_fill(p, buf, n);
		if (write_full(fd, buf, n) != 0)
			goto fail;
		size -= n;
	}
	if (close(fd) != 0)
		return -1;
	return 0;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

uint64_t writer_seed(void)
{
	static uint64_t calls;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^
	       ((uint64_t)getpid() << 32) ^ (++calls * 0x9e3779b97f4a7c15ULL);
}

int writer_main(int argc, char **argv)
{
	char err[256] = "";
	uint64_t size;
	struct prng p;
	void *buf;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: iowhy __write FILE SIZE\n");
		return 1;
	}
	prctl(PR_SET_NAME, "iowhy-writer", 0, 0, 0);
	if (parse_size(argv[2], SIZE_MAX_ACCEPTED, &size, err, sizeof(err)) != 0) {
		fprintf(stderr, "iowhy __write: bad SIZE '%s': %s\n", argv[2], err);
		return 1;
	}
	buf = malloc(size < WRITER_CHUNK ? (size_t)size : WRITER_CHUNK);
	if (!buf) {
		fprintf(stderr, "iowhy __write: %s\n", strerror(ENOMEM));
		return 1;
	}
	prng_seed(&p, writer_seed());
	rc = writer_file(argv[1], size, &p, buf, size < WRITER_CHUNK ? (size_t)size : WRITER_CHUNK);
	if (rc != 0)
		fprintf(stderr, "iowhy __write: %s: %s\n", argv[1], strerror(errno));
	free(buf);
	return rc == 0 ? 0 : 1;
}
