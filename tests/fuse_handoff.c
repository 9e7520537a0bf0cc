// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny FUSE file system for the integration tests (libfuse3 low-level API) whose WRITEs are
 * answered by another thread than the one that read them: the session thread hands each WRITE
 * to a worker, which sleeps FUSE_SLOW_MS (default 20) milliseconds and replies. Every other
 * request is answered by the thread that read it. One flat directory of files kept in memory
 * (sizes only). Usage: fuse_handoff MOUNTPOINT (runs in the foreground until unmounted).
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES 64
#define QLEN 64

static char names[MAX_FILES][64];
static off_t sizes[MAX_FILES];
static int nfiles;
static long sleep_ms = 20;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;

/* WRITEs waiting for the worker: the request and its size. */
static struct { fuse_req_t req; size_t n; } queue[QLEN];
static int qhead, qlen;

/* The attributes of inode ino (1: the root; 2 + i: file i). Call with the lock held. */
static int attr_of(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (ino < 2 || ino - 2 >= (fuse_ino_t)nfiles)
		return -1;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = sizes[ino - 2];
	return 0;
}

/* Reply with the entry of inode ino (lock held), or ENOENT. */
static void reply_entry(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct fuse_entry_param e = { .ino = ino, .attr_timeout = 1, .entry_timeout = 1 };

	if (attr_of(ino, &e.attr)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (fi)
		fuse_reply_create(req, &e, fi);
	else
		fuse_reply_entry(req, &e);
}

static void ho_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	conn->max_write = 128 * 1024;
}

static void ho_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; parent == FUSE_ROOT_ID && i < nfiles; i++)
		if (!strcmp(names[i], name)) {
			reply_entry(req, 2 + i, NULL);
			pthread_mutex_unlock(&lock);
			return;
		}
	pthread_mutex_unlock(&lock);
	fuse_reply_err(req, ENOENT);
}

static void ho_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;
	int rc;

	(void)fi;
	pthread_mutex_lock(&lock);
	rc = attr_of(ino, &st);
	pthread_mutex_unlock(&lock);
	if (rc)
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_attr(req, &st, 1);
}

/* Only the size is kept (truncate). */
static void ho_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	struct stat st;
	int rc;

	(void)fi;
	pthread_mutex_lock(&lock);
	if ((to_set & FUSE_SET_ATTR_SIZE) && ino >= 2 && ino - 2 < (fuse_ino_t)nfiles)
		sizes[ino - 2] = attr->st_size;
	rc = attr_of(ino, &st);
	pthread_mutex_unlock(&lock);
	if (rc)
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_attr(req, &st, 1);
}

static void ho_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	(void)mode;
	if (parent != FUSE_ROOT_ID || strlen(name) >= sizeof(names[0])) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nfiles; i++)
		if (!strcmp(names[i], name)) {
			reply_entry(req, 2 + i, fi);
			pthread_mutex_unlock(&lock);
			return;
		}
	if (nfiles == MAX_FILES) {
		pthread_mutex_unlock(&lock);
		fuse_reply_err(req, ENOSPC);
		return;
	}
	strcpy(names[nfiles], name);
	sizes[nfiles] = 0;
	reply_entry(req, 2 + nfiles++, fi);
	pthread_mutex_unlock(&lock);
}

static void ho_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	fuse_reply_open(req, fi);
}

/* Hand the WRITE to the worker (answered inline when the queue is full). */
static void ho_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t n, off_t off,
		     struct fuse_file_info *fi)
{
	(void)buf;
	(void)fi;
	pthread_mutex_lock(&lock);
	if (ino >= 2 && ino - 2 < (fuse_ino_t)nfiles && off + (off_t)n > sizes[ino - 2])
		sizes[ino - 2] = off + n;
	if (qlen == QLEN) {
		pthread_mutex_unlock(&lock);
		fuse_reply_write(req, n);
		return;
	}
	queue[(qhead + qlen++) % QLEN].req = req;
	queue[(qhead + qlen - 1) % QLEN].n = n;
	pthread_cond_signal(&more);
	pthread_mutex_unlock(&lock);
}

static void ho_ok(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void ho_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	(void)datasync;
	ho_ok(req, ino, fi);
}

/* The worker: sleep, then answer the next handed-off WRITE. */
static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
		fuse_req_t req;
		size_t n;

		pthread_mutex_lock(&lock);
		while (!qlen)
			pthread_cond_wait(&more, &lock);
		req = queue[qhead].req;
		n = queue[qhead].n;
		qhead = (qhead + 1) % QLEN;
		qlen--;
		pthread_mutex_unlock(&lock);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		fuse_reply_write(req, n);
	}
	return NULL;
}

static const struct fuse_lowlevel_ops ops = {
	.init = ho_init,
	.lookup = ho_lookup,
	.getattr = ho_getattr,
	.setattr = ho_setattr,
	.create = ho_create,
	.open = ho_open,
	.write = ho_write,
	.flush = ho_ok,
	.release = ho_ok,
	.fsync = ho_fsync,
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	const char *ms = getenv("FUSE_SLOW_MS");
	struct fuse_session *se;
	pthread_t t;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: fuse_handoff MOUNTPOINT\n");
		return 2;
	}
	if (ms)
		sleep_ms = atol(ms);
	fuse_opt_add_arg(&args, argv[0]);
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se)
		return 1;
	if (!fuse_set_signal_handlers(se) && !pthread_create(&t, NULL, worker, NULL) &&
	    !fuse_session_mount(se, argv[1])) {
		rc = fuse_session_loop(se) ? 1 : 0;
		fuse_session_unmount(se);
	}
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	return rc;
}
