/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test FUSE daemons (tests/fuse_slow.c, tests/fuse_delay.c) share: libfuse's connection
 * options on their command line (-o splice_read, -o no_splice_read, -o max_readahead=N, ...:
 * fuse_parse_conn_info_opts; the high-level fuse_main does not take them), the root directory's
 * attributes and entries, and a sleep that resumes after signals.
 */
#ifndef IOWHY_FUSE_TEST_H
#define IOWHY_FUSE_TEST_H

#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static struct fuse_conn_info_opts *fuse_test_opts;

/* fuse_main with the connection options taken off argv (applied by fuse_test_init). */
static inline int fuse_test_main(int argc, char **argv, const struct fuse_operations *ops)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	int rc;

	fuse_test_opts = fuse_parse_conn_info_opts(&args);
	if (!fuse_test_opts) {
		fprintf(stderr, "%s: bad connection options\n", argv[0]);
		return 2;
	}
	rc = fuse_main(args.argc, args.argv, ops, NULL);
	fuse_opt_free_args(&args);
	return rc;
}

/* At the daemon's init: the connection options given on the command line. */
static inline void fuse_test_init(struct fuse_conn_info *conn)
{
	if (fuse_test_opts)
		fuse_apply_conn_info_opts(fuse_test_opts, conn);
}

/* The root directory's attributes into st (zeroed first): 1 if path is the root, else 0. */
static inline int fuse_test_root(const char *path, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/"))
		return 0;
	st->st_mode = S_IFDIR | 0755;
	st->st_nlink = 2;
	return 1;
}

/* The entries every directory listing starts with. */
static inline void fuse_test_dots(void *buf, fuse_fill_dir_t fill)
{
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
}

/* Sleep us microseconds in full, also when a signal interrupts the sleep. */
static inline void fuse_test_sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

#endif
