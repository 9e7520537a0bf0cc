// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch area: parent/iowhy-XXXXXX, made by mkdirat in the opened --dir and held open from
 * then on; removed by iowhy when it is done. The removal is the only place iowhy deletes a tree it
 * did not make in the same phase, so it is guarded: only a name of exactly the shape it made, only
 * through the fd opened at creation (safe_tree.c: nothing followed, no mount point entered), and
 * the final rmdir only of the directory with the device and inode it created.
 */
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_tree.h"
#include "scratch.h"

#define SCRATCH_PREFIX "iowhy-"
#define SCRATCH_SUFFIX_LEN 6 /* the XXXXXX of mkdtemp */
#define NAME_TRIES 200       /* x 0.5 ms: how long a name someone is swapping is looked at again */

/* parent without trailing slashes ("/" stays "/"); -1 if it does not fit. */
static int normalize_parent(const char *parent, char *out, size_t n)
{
	size_t len = strlen(parent);

	while (len > 1 && parent[len - 1] == '/')
		len--;
	if (len == 0 || len >= n)
		return -1;
	memcpy(out, parent, len);
	out[len] = '\0';
	return 0;
}

/* "parent/iowhy-", or "/iowhy-" when parent is the root. */
static int scratch_prefix(const char *parent, char *out, size_t n)
{
	int len = snprintf(out, n, "%s/%s", strcmp(parent, "/") == 0 ? "" : parent, SCRATCH_PREFIX);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* Open --dir (following the path the user typed: it is theirs) and check it is a directory. */
static int open_parent(const char *parent)
{
	struct stat st;
	int fd;

	if (stat(parent, &st) != 0) {
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(ENOTDIR));
		return -1;
	}
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(errno));
	return fd;
}

/* Keep an fd away from 0-2 (a closed stdin must not become the scratch fd). */
static int high_fd(int fd)
{
	int hi;

	if (fd < 0 || fd > 2)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
}

/* "iowhy-" and six random letters or digits. */
static void random_name(char *out, size_t n)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[SCRATCH_SUFFIX_LEN];
	char suffix[SCRATCH_SUFFIX_LEN + 1];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		for (size_t k = 0; k < sizeof(r); k++)
			r[k] = (unsigned char)(rand() ^ getpid() ^ (int)k);
	for (size_t k = 0; k < sizeof(r); k++)
		suffix[k] = set[r[k] % (sizeof(set) - 1)];
	suffix[SCRATCH_SUFFIX_LEN] = '\0';
	snprintf(out, n, "%s%s", SCRATCH_PREFIX, suffix);
}

/* An empty directory: nothing but "." and "..". */
static int is_empty(int fd)
{
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	int empty = 1;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/*
 * mkdirat a fresh name in the parent, then open it (O_NOFOLLOW, same device and inode as fstatat
 * saw) and check it is what mkdirat made: ours, empty, 0700. Someone who can write in --dir could
 * swap the name between the calls; then the directory is not used. Returns the fd, -1 (message).
 */
static int make_area(struct scratch *s, const char *parent)
{
	struct dir_id id;
	struct stat st;
	int fd = -1;

	for (int tries = 0; tries < 100; tries++) {
		random_name(s->name, sizeof(s->name));
		if (mkdirat(s->parent_fd, s->name, 0700) == 0)
			break;
		if (errno != EEXIST) {
			fprintf(stderr, "iowhy: --dir %s: cannot create a scratch directory there: %s\n",
				parent, strerror(errno));
			return -1;
		}
		s->name[0] = '\0';
	}
	if (!s->name[0]) {
		fprintf(stderr, "iowhy: --dir %s: no free scratch directory name\n", parent);
		return -1;
	}
	/* someone swapping the name may hold it a moment: look again, briefly, then give up */
	for (int tries = 0; tries < NAME_TRIES; tries++) {
		fd = high_fd(open_dir_at(s->parent_fd, s->name, &id));
		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid() && is_empty(fd) &&
		    fchmod(fd, 0700) == 0)
			break;
		if (fd >= 0)
			close(fd);
		fd = -1;
		usleep(500);
	}
	if (fd < 0) {
		fprintf(stderr, "iowhy: --dir %s: %s/%s changed while it was created (someone else "
			"writes in %s); use a --dir only you can write\n", parent, parent, s->name,
			parent);
		return -1;
	}
	s->dir.dev = id.dev;
	s->dir.ino = id.ino;
	return fd;
}

int scratch_create(struct scratch *s, const char *parent)
{
	char tmpl[sizeof(s->path)];

	memset(s, 0, sizeof(*s));
	s->parent_fd = -1;
	s->dir.fd = -1;
	if (!parent || !*parent)
		parent = ".";
	if (normalize_parent(parent, s->parent, sizeof(s->parent)) != 0 ||
	    scratch_prefix(s->parent, tmpl, sizeof(tmpl) - SCRATCH_SUFFIX_LEN) != 0) {
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(ENAMETOOLONG));
		return -1;
	}
	s->parent_fd = high_fd(open_parent(parent));
	if (s->parent_fd < 0)
		return -1;
	s->dir.fd = make_area(s, parent);
	if (s->dir.fd < 0) {
		close(s->parent_fd);
		s->parent_fd = -1;
		return -1;
	}
	snprintf(s->path, sizeof(s->path), "%s%s", tmpl,
		 s->name + strlen(SCRATCH_PREFIX));
	s->created = 1;
	return 0;
}

/* A single, plain path component. */
static int plain_name(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int scratch_mkdir(const struct scratch *s, const char *name)
{
	if (!s->created || s->dir.fd < 0 || !plain_name(name)) {
		fprintf(stderr, "iowhy: bad scratch subdirectory '%s'\n", name ? name : "");
		return -1;
	}
	if (mkdirat(s->dir.fd, name, 0755) != 0) {
		fprintf(stderr, "iowhy: mkdir %s/%s: %s\n", s->path, name, strerror(errno));
		return -1;
	}
	return 0;
}

int scratch_subdir(const struct scratch *s, const char *name, char *out, size_t n)
{
	int len;

	if (!s->created || !plain_name(name)) {
		fprintf(stderr, "iowhy: bad scratch subdirectory '%s'\n", name ? name : "");
		return -1;
	}
	len = snprintf(out, n, "%s/%s", s->path, name);
	if (len < 0 || (size_t)len >= n) {
		fprintf(stderr, "iowhy: %s/%s: %s\n", s->path, name, strerror(ENAMETOOLONG));
		return -1;
	}
	return scratch_mkdir(s, name);
}

/*
 * The only names scratch_remove will touch: parent/iowhy-XXXXXX with a suffix of exactly six
 * letters or digits (so no "..", no "/", nothing empty).
 */
static int removable_shape(const struct scratch *s, const char **name)
{
	char prefix[sizeof(s->path)];
	const char *suffix;

	if (!s->created || !s->path[0] || strcmp(s->path, "/") == 0 || !s->parent[0])
		return 0;
	if (scratch_prefix(s->parent, prefix, sizeof(prefix)) != 0 ||
	    strncmp(s->path, prefix, strlen(prefix)) != 0)
		return 0;
	suffix = s->path + strlen(prefix);
	if (strlen(suffix) != SCRATCH_SUFFIX_LEN)
		return 0;
	for (const char *c = suffix; *c; c++)
		if (!isalnum((unsigned char)*c))
			return 0;
	*name = strrchr(s->path, '/') + 1;
	return 1;
}

/* Without the fds of scratch_create (a struct filled some other way): open them now, safely. */
static int open_by_name(struct scratch *s, const char *name)
{
	struct dir_id id;
	struct stat st;

	if (s->parent_fd < 0)
		s->parent_fd = open(s->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->parent_fd < 0)
		return -1;
	s->dir.fd = open_dir_at(s->parent_fd, name, &id);
	if (s->dir.fd < 0)
		return -1;
	if (fstat(s->dir.fd, &st) != 0 || st.st_uid != geteuid()) {
		close(s->dir.fd);
		s->dir.fd = -1;
		errno = EPERM;
		return -1;
	}
	s->dir.dev = id.dev;
	s->dir.ino = id.ino;
	snprintf(s->name, sizeof(s->name), "%s", name);
	return 0;
}

/* One try of rmdir_area. */
static int rmdir_area_once(struct scratch *s)
{
	struct stat st;
	struct dirent *e;
	int dfd, rc = -1;
	DIR *d;

	if (fstatat(s->parent_fd, s->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == s->dir.dev && st.st_ino == s->dir.ino)
		return unlinkat(s->parent_fd, s->name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
	if (fstat(s->dir.fd, &st) == 0 && st.st_nlink == 0)
		return 0; /* removed by someone else */
	dfd = openat(s->parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_ino != s->dir.ino ||
		    fstatat(s->parent_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    st.st_dev != s->dir.dev || st.st_ino != s->dir.ino)
			continue;
		rc = unlinkat(s->parent_fd, e->d_name, AT_REMOVEDIR);
		break;
	}
	closedir(d);
	if (rc != 0)
		errno = ESTALE;
	return rc;
}

/*
 * The emptied area's name in the parent: its own name, or (if someone renamed it meanwhile) the
 * entry of the parent that has its device and inode. rmdir by that name, checked just before
 * (rmdir removes only an empty directory: a name swapped in between loses nothing). Someone
 * swapping names may win a round: try again, briefly.
 */
static int rmdir_area(struct scratch *s)
{
	int rc = -1;

	for (int tries = 0; tries < NAME_TRIES && (rc = rmdir_area_once(s)) != 0; tries++)
		usleep(500);
	return rc;
}

static void close_fds(struct scratch *s)
{
	if (s->dir.fd >= 0)
		close(s->dir.fd);
	if (s->parent_fd >= 0)
		close(s->parent_fd);
	s->dir.fd = s->parent_fd = -1;
	s->created = 0;
}

void scratch_remove(struct scratch *s)
{
	struct tree_errors err = { 0 };
	const char *name;

	if (!s || !s->created)
		return;
	if (s->dir.fd <= 2) { /* not made by scratch_create: no fds of its own */
		s->dir.fd = -1;
		s->parent_fd = -1;
	}
	if (!removable_shape(s, &name) || (s->dir.fd < 0 && open_by_name(s, name) != 0)) {
		if (s->path[0] && faccessat(AT_FDCWD, s->path, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			fprintf(stderr, "iowhy: not removing %s: not a scratch area iowhy made\n",
				s->path);
		close_fds(s);
		return;
	}
	tree_empty(s->dir.fd, s->path, &err);
	if (!err.failed && rmdir_area(s) != 0) {
		snprintf(err.first, sizeof(err.first), "%.400s: %s", s->path, strerror(errno));
		err.failed++;
	}
	if (err.failed)
		fprintf(stderr, "iowhy: could not remove %lu entr%s of the scratch area (%s)\n",
			err.failed, err.failed == 1 ? "y" : "ies", err.first);
	close_fds(s);
}
