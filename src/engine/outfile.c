// SPDX-License-Identifier: GPL-2.0
/* Report files opened safely: see outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "outfile.h"
#include "text.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

/* The pseudo file system a statfs result belongs to, or NULL for a real one. */
static const char *pseudo_fs(const struct statfs *sf)
{
	switch ((unsigned long)sf->f_type) {
	case PROC_SUPER_MAGIC: return "/proc";
	case SYSFS_MAGIC: return "sysfs";
	case DEBUGFS_MAGIC: return "debugfs";
	case TRACEFS_MAGIC: return "tracefs";
	case CGROUP_SUPER_MAGIC: case CGROUP2_SUPER_MAGIC: return "a cgroup file system";
	case SECURITYFS_MAGIC: return "securityfs";
	case BPF_FS_MAGIC: return "bpffs";
	default: return NULL;
	}
}

static int refuse(const char *tool, const char *opt, const char *path, const char *why)
{
	fprintf(stderr, "iowhy %s: %s %s: %s\n", tool, opt, path, why);
	return -1;
}

/* Why an existing file's status makes it no place for a report, or NULL when it is fine. */
static const char *bad_kind(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return "is a symbolic link; iowhy does not write through links";
	if (S_ISFIFO(st->st_mode))
		return "is a FIFO; give a regular file";
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return "is a device; give a regular file";
	if (S_ISDIR(st->st_mode))
		return "is a directory";
	if (!S_ISREG(st->st_mode))
		return "is not a regular file";
	if (st->st_nlink > 1)
		return "has other hard links; iowhy does not write through links";
	return NULL;
}

/* The directory part of path ("." when there is none). */
int outfile_check(const char *tool, const char *opt, const char *path)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];
	struct statfs sf;
	struct stat st;
	const char *bad, *fs;

	if (!*path)
		return refuse(tool, opt, "''", "an empty file name");
	if (!lstat(path, &st)) {
		if ((bad = bad_kind(&st)))
			return refuse(tool, opt, path, bad);
		if (!statfs(path, &sf) && (fs = pseudo_fs(&sf)))
			return refuse(tool, opt, path, fs[0] == '/' ? "is in /proc" : "is on a pseudo file system");
		if (access(path, W_OK))
			return refuse(tool, opt, path, strerror(errno));
		return 0;
	}
	if (errno != ENOENT)
		return refuse(tool, opt, path, strerror(errno));
	path_dir(path, dir, sizeof(dir));
	if (statfs(dir, &sf) || access(dir, W_OK)) {
		snprintf(why, sizeof(why), "cannot create it: %s", strerror(errno));
		return refuse(tool, opt, path, why);
	}
	if ((fs = pseudo_fs(&sf)))
		return refuse(tool, opt, path, fs[0] == '/' ? "is in /proc" : "is on a pseudo file system");
	return 0;
}

FILE *outfile_open(const char *tool, const char *opt, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0644);
	const char *bad = NULL;
	struct statfs sf;
	struct stat st;
	FILE *f;

	if (fd < 0) {
		refuse(tool, opt, path, errno == ELOOP ? "is a symbolic link; iowhy does not write "
			"through links" : strerror(errno));
		return NULL;
	}
	/* Checked on the open file, before truncating: what was opened is what is written. */
	if (fstat(fd, &st) || fstatfs(fd, &sf))
		bad = strerror(errno);
	else if (!(bad = bad_kind(&st)) && pseudo_fs(&sf))
		bad = "is on a pseudo file system";
	if (!bad && (ftruncate(fd, 0) || fcntl(fd, F_SETFL, 0)))
		bad = strerror(errno);
	if (bad || !(f = fdopen(fd, "w"))) {
		refuse(tool, opt, path, bad ? bad : strerror(errno));
		close(fd);
		return NULL;
	}
	return f;
}
