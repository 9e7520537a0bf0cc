// SPDX-License-Identifier: GPL-2.0
/*
 * A slow backing store for the hunt tests: a FUSE file system with one file, "img", whose data
 * lives in a real file; every read waits DELAY_US first. Files are opened with direct_io, so the
 * page cache never hides the delay.
 *
 *   fuse_delay BACKING_FILE DELAY_US MOUNTPOINT [fuse options...] (tests/fuse_test.h)
 */
#include "fuse_test.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static int backing_fd = -1;
static long delay_us;

static int fd_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	if (fuse_test_root(path, st))
		return 0;
	if (strcmp(path, "/img"))
		return -ENOENT;
	if (fstat(backing_fd, st))
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
	fill(buf, "img", NULL, 0, 0);
	return 0;
}

static int fd_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/img"))
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

static int fd_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	(void)fi;
	fuse_test_sleep_us(delay_us);
	n = pread(backing_fd, buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int fd_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	(void)fi;
	n = pwrite(backing_fd, buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int fd_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return (datasync ? fdatasync(backing_fd) : fsync(backing_fd)) ? -errno : 0;
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
			"usage: fuse_delay BACKING_FILE DELAY_US MOUNTPOINT [fuse options]\n");
		return 2;
	}
	backing_fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (backing_fd < 0) {
		perror(argv[1]);
		return 2;
	}
	delay_us = strtol(argv[2], NULL, 10);
	/* fuse_main sees: prog MOUNTPOINT [options] */
	argv[2] = argv[0];
	return fuse_test_main(argc - 2, argv + 2, &ops);
}
