/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Removing a directory tree as root without ever leaving it: every step is relative to a directory
 * fd, nothing is followed, nothing mounted is entered. Used by the scratch area and by copy/delete.
 */
#ifndef IOWHY_SAFE_TREE_H
#define IOWHY_SAFE_TREE_H

#include <sys/types.h>

/* What a removal could not do: a count and the first failure, for one line on stderr. */
struct tree_errors {
	unsigned long failed;
	char first[512];
};

/* Identity of an open directory: the device, inode and mount it was when it was opened. */
struct dir_id {
	dev_t dev;
	ino_t ino;
	unsigned long long mnt_id;
};

/* The identity of the directory open at fd; 0, or -1 with errno. */
int dir_id_of(int fd, struct dir_id *id);
/*
 * Open directory `name` (one path component) under dirfd with O_NOFOLLOW|O_DIRECTORY, checking
 * that it is the directory fstatat saw before the open (same device and inode) and is not a mount
 * point. Returns the fd (O_CLOEXEC), or -1 with errno (ELOOP: a symlink, ESTALE: it changed,
 * EXDEV: a mount point).
 */
int open_dir_at(int dirfd, const char *name, struct dir_id *id);
/*
 * Remove everything inside the directory open at fd (fd itself stays): files and links are
 * unlinked (never followed), subdirectories opened with open_dir_at and emptied first, mount points
 * left alone (counted as failures). `label` names the directory in messages. Returns the failures.
 */
unsigned long tree_empty(int fd, const char *label, struct tree_errors *err);
/*
 * Remove directory `name` under dirfd and everything in it (tree_empty, then rmdir if the name is
 * still the directory that was emptied). ENOENT is not a failure. Returns the failures.
 */
unsigned long tree_remove_at(int dirfd, const char *name, struct tree_errors *err);

#endif
