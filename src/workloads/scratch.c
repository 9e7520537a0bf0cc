// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch area: parent/iowhy-XXXXXX, made by mkdtemp and removed by iowhy when it is done.
 * The removal is the only place iowhy deletes anything, so it is guarded: it walks only the tree
 * under a path that has exactly the shape mkdtemp gave it, never follows a symlink, never crosses
 * a mount point, and refuses anything else.
 */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

#define SCRATCH_PREFIX "iowhy-"
#define SCRATCH_SUFFIX_LEN 6 /* the XXXXXX of mkdtemp */

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

static int check_parent(const char *parent)
{
	struct stat st;

	if (stat(parent, &st) != 0) {
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(ENOTDIR));
		return -1;
	}
	return 0;
}

int scratch_create(struct scratch *s, const char *parent)
{
	char tmpl[sizeof(s->path)];

	memset(s, 0, sizeof(*s));
	if (!parent || !*parent)
		parent = ".";
	if (normalize_parent(parent, s->parent, sizeof(s->parent)) != 0 ||
	    scratch_prefix(s->parent, tmpl, sizeof(tmpl) - SCRATCH_SUFFIX_LEN) != 0) {
		fprintf(stderr, "iowhy: --dir %s: %s\n", parent, strerror(ENAMETOOLONG));
		return -1;
	}
	if (check_parent(parent) != 0)
		return -1;
	strcat(tmpl, "XXXXXX");
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "iowhy: --dir %s: cannot create a scratch directory there: %s\n",
			parent, strerror(errno));
		return -1;
	}
	memcpy(s->path, tmpl, sizeof(s->path));
	s->created = 1;
	return 0;
}

int scratch_subdir(const struct scratch *s, const char *name, char *out, size_t n)
{
	int len;

	if (!s->created || !name || !*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0) {
		fprintf(stderr, "iowhy: bad scratch subdirectory '%s'\n", name ? name : "");
		return -1;
	}
	len = snprintf(out, n, "%s/%s", s->path, name);
	if (len < 0 || (size_t)len >= n) {
		fprintf(stderr, "iowhy: %s/%s: %s\n", s->path, name, strerror(ENAMETOOLONG));
		return -1;
	}
	if (mkdir(out, 0755) != 0) {
		fprintf(stderr, "iowhy: mkdir %s: %s\n", out, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The only path scratch_remove will walk: parent/iowhy-XXXXXX as mkdtemp made it, with a suffix of
 * exactly six letters or digits (so no "..", no "/", nothing empty), and a real directory (not a
 * symlink to one) owned by us.
 */
static int removable(const struct scratch *s)
{
	char prefix[sizeof(s->path)];
	const char *suffix;
	struct stat st;

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
	if (lstat(s->path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return 0;
	return 1;
}

/* nftw has no user pointer: the walk's state lives here for the duration of one scratch_remove. */
static struct {
	const char *root;
	size_t root_len;
	unsigned long failed;
	char first_failure[512];
} walk;

static int inside_root(const char *fpath)
{
	return strncmp(fpath, walk.root, walk.root_len) == 0 &&
	       (fpath[walk.root_len] == '\0' || fpath[walk.root_len] == '/');
}

static void note_failure(const char *fpath, int err)
{
	if (walk.failed++ == 0)
		snprintf(walk.first_failure, sizeof(walk.first_failure), "%s: %s", fpath,
			 strerror(err));
}

static int remove_entry(const char *fpath, const struct stat *sb, int typeflag, struct FTW *ftw)
{
	int rc;

	(void)sb;
	(void)ftw;
	if (!inside_root(fpath))
		return 0;
	switch (typeflag) {
	case FTW_DP:
	case FTW_DNR: /* unreadable directory: rmdir works if it is empty, else report it */
		rc = rmdir(fpath);
		break;
	case FTW_NS: /* lstat failed: leave it alone */
		note_failure(fpath, errno ? errno : EIO);
		return 0;
	default: /* files, symlinks (never followed: FTW_PHYS), sockets, fifos */
		rc = unlink(fpath);
		break;
	}
	if (rc != 0 && errno != ENOENT)
		note_failure(fpath, errno);
	return 0;
}

void scratch_remove(struct scratch *s)
{
	if (!s || !s->created)
		return;
	if (!removable(s)) {
		if (s->path[0] && access(s->path, F_OK) == 0)
			fprintf(stderr, "iowhy: not removing %s: not a scratch area iowhy made\n",
				s->path);
		s->created = 0;
		return;
	}
	memset(&walk, 0, sizeof(walk));
	walk.root = s->path;
	walk.root_len = strlen(s->path);
	if (nftw(s->path, remove_entry, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0 &&
	    errno != ENOENT)
		note_failure(s->path, errno);
	if (walk.failed)
		fprintf(stderr, "iowhy: could not remove %lu entr%s of the scratch area (%s)\n",
			walk.failed, walk.failed == 1 ? "y" : "ies", walk.first_failure);
	walk.root = NULL;
	s->created = 0;
}
