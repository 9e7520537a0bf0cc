// SPDX-License-Identifier: GPL-2.0
/*
 * Tree removal that cannot be turned against the host (see safe_tree.h, docs/SECURITY.md).
 *
 * Everything is relative to an open directory fd. An entry is looked at with
 * fstatat(AT_SYMLINK_NOFOLLOW); a directory is opened with openat(O_NOFOLLOW|O_DIRECTORY) and must
 * then be the same device and inode as before the open (a directory swapped for a symlink or for
 * another directory in between is refused); a mount point (statx STATX_ATTR_MOUNT_ROOT, or a mount
 * id that differs from its parent's) is never entered, whichever filesystem it mounts. Files,
 * symlinks, fifos and sockets are unlinked by name: unlinkat never follows anything.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progress.h"
#include "safe_tree.h"

#define MAX_DEPTH 128   /* deeper than any tree iowhy makes; deeper trees are left (and said) */
#define MAX_PASSES 8    /* rereads of a directory whose listing changed while it was emptied */

static void note(struct tree_errors *err, const char *label, const char *name, int e)
{
	if (err->failed++ == 0)
		snprintf(err->first, sizeof(err->first), "%s/%s: %s", label, name, strerror(e));
}

/* statx of fd itself: the mount id, and whether it is the root of a mount (-1 if unknown). */
static int mount_info(int fd, unsigned long long *mnt_id)
{
	struct statx stx;

	*mnt_id = 0;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) != 0)
		return -1;
	if (stx.stx_mask & STATX_MNT_ID)
		*mnt_id = stx.stx_mnt_id;
	if (!(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return -1;
	return (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
}

int dir_id_of(int fd, struct dir_id *id)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	mount_info(fd, &id->mnt_id);
	return 0;
}

int open_dir_at(int dirfd, const char *name, struct dir_id *id)
{
	struct stat before;
	unsigned long long parent_mnt = 0, mnt;
	int fd, root;

	if (fstatat(dirfd, name, &before, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (!S_ISDIR(before.st_mode)) {
		errno = S_ISLNK(before.st_mode) ? ELOOP : ENOTDIR;
		return -1;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (dir_id_of(fd, id) != 0 || id->dev != before.st_dev || id->ino != before.st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	root = mount_info(fd, &mnt);
	if (root < 0 && dirfd != AT_FDCWD)
		mount_info(dirfd, &parent_mnt);
	if (root > 0 || (root < 0 && parent_mnt && mnt && parent_mnt != mnt)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

static unsigned long empty_dir(int fd, const struct dir_id *self, const char *label, int depth,
			       struct tree_errors *err);

/* One entry of a directory being emptied: 1 if it is gone, 0 if it stays (failure noted). */
static int remove_entry(int dirfd, const struct dir_id *parent, const char *label,
			const char *name, int depth, struct tree_errors *err)
{
	struct stat st;
	struct dir_id id;
	char sub[1024];
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 1 : (note(err, label, name, errno), 0);
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
			return 1;
		note(err, label, name, errno);
		return 0;
	}
	if (st.st_dev != parent->dev || depth >= MAX_DEPTH) {
		note(err, label, name, st.st_dev != parent->dev ? EXDEV : ELOOP);
		return 0;
	}
	fd = open_dir_at(dirfd, name, &id);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		note(err, label, name, errno);
		return 0;
	}
	snprintf(sub, sizeof(sub), "%s/%s", label, name);
	empty_dir(fd, &id, sub, depth + 1, err);
	close(fd);
	/* rmdir only removes an empty directory: even a name swapped now cannot lose anything */
	if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
		return 1;
	note(err, label, name, errno);
	return 0;
}

static unsigned long empty_dir(int fd, const struct dir_id *self, const char *label, int depth,
			       struct tree_errors *err)
{
	unsigned long before = err->failed;
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		note(err, label, ".", errno);
		return err->failed - before;
	}
	for (int pass = 0; pass < MAX_PASSES; pass++) {
		unsigned long removed = 0, stays = 0;
		struct dirent *e;

		rewinddir(d);
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (remove_entry(fd, self, label, e->d_name, depth, err)) {
				removed++;
				progress_count(1); /* the teardown's progress line, if any */
			}
			else
				stays++;
		}
		if (!removed || pass == MAX_PASSES - 1)
			break;
		if (stays) /* what failed once fails again: do not count it twice */
			break;
	}
	closedir(d);
	return err->failed - before;
}

unsigned long tree_empty(int fd, const char *label, struct tree_errors *err)
{
	struct dir_id self;

	if (dir_id_of(fd, &self) != 0) {
		note(err, label, ".", errno);
		return 1;
	}
	return empty_dir(fd, &self, label, 0, err);
}

unsigned long tree_remove_at(int dirfd, const char *name, struct tree_errors *err)
{
	unsigned long before = err->failed;
	struct dir_id id;
	struct stat now;
	int fd;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		note(err, ".", name, EINVAL);
		return 1;
	}
	fd = open_dir_at(dirfd, name, &id);
	if (fd < 0) {
		if (errno != ENOENT)
			note(err, ".", name, errno);
		return err->failed - before;
	}
	empty_dir(fd, &id, name, 1, err);
	close(fd);
	if (fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) != 0)
		return err->failed - before;
	if (now.st_dev != id.dev || now.st_ino != id.ino)
		note(err, ".", name, ESTALE);
	else if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		note(err, ".", name, errno);
	return err->failed - before;
}
