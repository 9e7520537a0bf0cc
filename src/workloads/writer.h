/* SPDX-License-Identifier: GPL-2.0 */
/* Writing pseudo-random file data: helpers the built-in workloads share; `iowhy __write`. */
#ifndef IOWHY_WRITER_H
#define IOWHY_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "prng.h"

/* Largest single write(2) the workloads issue. */
#define WRITER_CHUNK (1u << 20)

/* write(2) until all n bytes are out (short writes and EINTR retried). 0, or -1 with errno set. */
int write_full(int fd, const void *buf, size_t n);
/* read(2) until n bytes or end of file. Bytes read, or -1 with errno set. */
ssize_t read_full(int fd, void *buf, size_t n);

/*
 * Create (O_CREAT|O_TRUNC) `path` and write `size` fresh pseudo-random bytes to it, one write per
 * <= `bufsize` chunk, staged in `buf`. 0, or -1 with errno set (the file may be left partly
 * written).
 */
int writer_file(const char *path, uint64_t size, struct prng *p, void *buf, size_t bufsize);

/* A seed that differs between processes and calls (time, pid, a counter). */
uint64_t writer_seed(void);

/*
 * iowhy's own one-file writer: `iowhy __write FILE SIZE` (argv[0] is "__write") writes SIZE
 * pseudo-random bytes to FILE, O_CREAT|O_TRUNC, one write per <= 1 MiB chunk. Used by gen's loop
 * strategy when the system has no dd. Returns the exit status: 0, or 1 after a one-line message.
 */
int writer_main(int argc, char **argv);

#endif
