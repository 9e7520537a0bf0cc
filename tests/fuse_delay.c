// SPDX-License-Identifier: GPL-2.0
/*
 * A slow backing store for the hunt tests: a FUSE file system with one file, "img", whose data
 * lives in a real file; every read waits DELAY_US first, or with DELAY_US given as "N/MiB", N µs
 * for each MiB it reads (a store of fixed bandwidth: the wait of a read does not depend on how the
 * layers above split it into requests). Files are opened with direct_io, so the page cache never
 * hides the delay. BACKING_FILE may be a comma-separated list: the files are
 * then "img", "img1", "img2", ... (with -s, one thread serves them all: a shared backing store).
 *
 *   fuse_delay BACKING_FILE[,FILE...] DELAY_US[/MiB] MOUNTPOINT [fuse options...] (tests/fuse_test.h)
 */
#include "fuse_test.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_FILES 8

static int backing_fd[MAX_FILES];
static int nfiles;
static long delay_us;
static int per_mib; /* delay_us is per MiB read, not per read */

/* Which file a path names: "/img" is 0, "/imgK" is K; -1 for anything else. */
static int file_of(const char *path)
{
	char *end;
	long k;

	if (strncmp(path, "/img", 4))
		return -1;
	if (!path[4])
		return 0;
	k = strtol(path + 4, &end, 10);
	return *end || k < 1 || k >= nfiles ? -1 : (int)k;
}

static int fd_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	if (fuse_test_root(path, st))
		return 0;
	if (file_of(path) < 0)
		return -ENOENT;
	if (fstat(backing_fd[file_of(path)], st))
		return -errno;
	st->st_mode = S_IFREG | 0644;
	return 0;
}

static int fd_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fuse_test_dots(buf, fill);
	for (int k = 0; k < nfiles; k++) {
		char name[16];

		snprintf(name, sizeof(name), k ? "img%d" : "img", k);
		fill(buf, name, NULL, 0, 0);
	}
	return 0;
}

static int fd_open(const char *path, struct fuse_file_info *fi)
{
	if (file_of(path) < 0)
		return -ENOENT;
	fi->fh = (uint64_t)file_of(path);
	fi->direct_io = 1;
	return 0;
}

static int fd_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	fuse_test_sleep_us(per_mib ? (long)((double)delay_us * (double)size / (1 << 20)) : delay_us);
	n = pread(backing_fd[fi->fh], buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int fd_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	n = pwrite(backing_fd[fi->fh], buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int fd_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	int fd = backing_fd[fi->fh];

	(void)path;
	return (datasync ? fdatasync(fd) : fsync(fd)) ? -errno : 0;
}

static void *fd_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)cfg;
	fuse_test_init(conn);
	return NULL;
}

static const struct fuse_operations ops = {
	.init = fd_init,
	.getattr = fd_getattr,
	.readdir = fd_readdir,
	.open = fd_open,
	.read = fd_read,
	.write = fd_write,
	.fsync = fd_fsync,
};

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr,
			"usage: fuse_delay BACKING_FILE[,FILE...] DELAY_US[/MiB] MOUNTPOINT "
			"[fuse options]\n");
		return 2;
	}
	for (char *save = NULL, *f = strtok_r(argv[1], ",", &save); f && nfiles < MAX_FILES;
	     f = strtok_r(NULL, ",", &save)) {
		backing_fd[nfiles] = open(f, O_RDWR | O_CLOEXEC);
		if (backing_fd[nfiles] < 0) {
			perror(f);
			return 2;
		}
		nfiles++;
	}
	if (!nfiles)
		return 2;
	{
		char *end;

		delay_us = strtol(argv[2], &end, 10);
		per_mib = !strcmp(end, "/MiB");
		if (delay_us < 0 || (*end && !per_mib)) {
			fprintf(stderr, "fuse_delay: DELAY_US: a number of µs, or N/MiB: '%s'\n", argv[2]);
			return 2;
		}
	}
	/* fuse_main sees: prog MOUNTPOINT [options] */
	argv[2] = argv[0];
	return fuse_test_main(argc - 2, argv + 2, &ops);
}
