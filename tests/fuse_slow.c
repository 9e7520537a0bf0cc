// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny FUSE file system for the integration tests: one flat directory of files kept in memory
 * (sizes only; data is dropped), answering every WRITE after sleeping FUSE_SLOW_MS (default 20)
 * milliseconds; with FUSE_SLOW_SPIN=1 it spins on a CPU for that much of its own thread CPU time
 * instead (a daemon whose work is the wait: encryption, compression). FUSE_SLOW_WBCACHE=1 asks for
 * the kernel's writeback cache (writes then reach the
 * daemon from writeback). Usage: fuse_slow MOUNTPOINT [fuse options, e.g. -f; connection options,
 * e.g. -o splice_read: libfuse reads the requests from /dev/fuse with splice]
 */
#include "fuse_test.h"
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_FILES 1024

struct file {
	char name[256];
	off_t size;
};

static struct file files[MAX_FILES];
static int nfiles;
static long sleep_ms = 20;
static int wbcache;
static int spin;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The file called path ("/name"), NULL if none; call with the lock held. */
static struct file *find(const char *path)
{
	for (int i = 0; i < nfiles; i++)
		if (!strcmp(files[i].name, path + 1))
			return &files[i];
	return NULL;
}

static void *slow_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	fuse_test_init(conn);
	conn->max_write = 128 * 1024;
	if (wbcache)
		conn->want |= FUSE_CAP_WRITEBACK_CACHE;
	cfg->direct_io = 0;
	return NULL;
}

static int slow_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct file *f;
	int rc = 0;

	(void)fi;
	if (fuse_test_root(path, st))
		return 0;
	pthread_mutex_lock(&lock);
	f = find(path);
	if (f) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		st->st_size = f->size;
	} else {
		rc = -ENOENT;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int slow_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
			struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fuse_test_dots(buf, fill);
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nfiles; i++)
		fill(buf, files[i].name, NULL, 0, 0);
	pthread_mutex_unlock(&lock);
	return 0;
}

static int slow_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int rc = 0;

	(void)mode;
	(void)fi;
	if (strchr(path + 1, '/') || strlen(path + 1) >= sizeof(files[0].name))
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (!find(path)) {
		if (nfiles < MAX_FILES)
			strcpy(files[nfiles++].name, path + 1);
		else
			rc = -ENOSPC;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int slow_open(const char *path, struct fuse_file_info *fi)
{
	struct file *f;

	pthread_mutex_lock(&lock);
	f = find(path);
	if (f && (fi->flags & O_TRUNC))
		f->size = 0;
	pthread_mutex_unlock(&lock);
	return f ? 0 : -ENOENT;
}

static int slow_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct file *f;

	(void)fi;
	pthread_mutex_lock(&lock);
	f = find(path);
	if (f)
		f->size = size;
	pthread_mutex_unlock(&lock);
	return f ? 0 : -ENOENT;
}

/* Sleep, then accept the data (only the size is kept). */
static int slow_write(const char *path, const char *buf, size_t n, off_t off,
		      struct fuse_file_info *fi)
{
	struct file *f;

	(void)buf;
	(void)fi;
	if (spin) {
		struct timespec t0, t;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) <
		       sleep_ms * 1000000L);
	} else {
		fuse_test_sleep_us(sleep_ms * 1000);
	}
	pthread_mutex_lock(&lock);
	f = find(path);
	if (f && off + (off_t)n > f->size)
		f->size = off + n;
	pthread_mutex_unlock(&lock);
	return f ? (int)n : -ENOENT;
}

static int slow_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	struct file *f;
	int got = 0;

	(void)fi;
	pthread_mutex_lock(&lock);
	f = find(path);
	if (f && off < f->size) {
		got = (off_t)n < f->size - off ? (int)n : (int)(f->size - off);
		memset(buf, 0, got);
	}
	pthread_mutex_unlock(&lock);
	return f ? got : -ENOENT;
}

static int slow_unlink(const char *path)
{
	struct file *f;

	pthread_mutex_lock(&lock);
	f = find(path);
	if (f)
		*f = files[--nfiles];
	pthread_mutex_unlock(&lock);
	return f ? 0 : -ENOENT;
}

/* Nothing is buffered here: flush and fsync have nothing to do. */
static int slow_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	(void)fi;
	return 0;
}

static int slow_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	(void)datasync;
	(void)fi;
	return 0;
}

/* Times are not kept (the writeback cache sends them at close). */
static int slow_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	(void)path;
	(void)tv;
	(void)fi;
	return 0;
}

static const struct fuse_operations ops = {
	.utimens = slow_utimens,
	.flush = slow_flush,
	.fsync = slow_fsync,
	.init = slow_init,
	.getattr = slow_getattr,
	.readdir = slow_readdir,
	.create = slow_create,
	.open = slow_open,
	.truncate = slow_truncate,
	.write = slow_write,
	.read = slow_read,
	.unlink = slow_unlink,
};

int main(int argc, char **argv)
{
	const char *ms = getenv("FUSE_SLOW_MS");

	if (ms)
		sleep_ms = atol(ms);
	wbcache = getenv("FUSE_SLOW_WBCACHE") && atoi(getenv("FUSE_SLOW_WBCACHE"));
	spin = getenv("FUSE_SLOW_SPIN") && atoi(getenv("FUSE_SLOW_SPIN"));
	return fuse_test_main(argc, argv, &ops);
}
