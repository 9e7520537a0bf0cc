// SPDX-License-Identifier: GPL-2.0
/* The device stack under a file system or block device, from sysfs and mountinfo (devstack.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "devstack.h"

#define DS_MAX_DEPTH 8

static const char *const btrfs_profiles[] = {
	"single", "dup", "raid0", "raid1", "raid10", "raid5", "raid6", "raid1c3", "raid1c4",
};

/* One mountinfo entry, the fields we use. */
struct mnt_entry {
	unsigned int major, minor;
	char mountpoint[PATH_MAX];
	char fstype[32];
	char source[PATH_MAX];
};

/* snprintf into buf; 0 if it fit. */
static int fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The first line of a file without its newline; 0, or -1 if it cannot be read. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static const char *root_of(const struct ds_env *env)
{
	return env && env->root && strcmp(env->root, "/") ? env->root : "";
}

/* "MAJ:MIN" in a sysfs dev file equals maj:min. */
static int dev_file_is(const char *path, unsigned int maj, unsigned int min)
{
	char line[32];
	unsigned int a, b;

	return read_line(path, line, sizeof(line)) == 0 && sscanf(line, "%u:%u", &a, &b) == 2 &&
	       a == maj && b == min;
}

/* A sysfs directory entry worth looking at (not . or ..). */
static int real_entry(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

int devstack_name_of(const struct ds_env *env, unsigned int maj, unsigned int min, char *name,
		     size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX * 2];
	struct dirent **disks = NULL;
	int n, found = -1;

	if (fmt(dir, sizeof(dir), "%s/sys/block", root_of(env)))
		return -1;
	n = scandir(dir, &disks, real_entry, alphasort);
	for (int i = 0; i < n; i++) {
		const char *d = disks[i]->d_name;
		struct dirent *e;
		DIR *sub;

		if (found < 0 && !fmt(path, sizeof(path), "%s/%s/dev", dir, d) &&
		    dev_file_is(path, maj, min))
			found = fmt(name, len, "%s", d);
		/* partitions are subdirectories with a "partition" file */
		if (found < 0 && !fmt(path, sizeof(path), "%s/%s", dir, d) &&
		    (sub = opendir(path))) {
			while (found < 0 && (e = readdir(sub))) {
				char p[PATH_MAX * 3];

				if (!real_entry(e) ||
				    fmt(p, sizeof(p), "%s/%s/%s/partition", dir, d, e->d_name) ||
				    !exists(p) ||
				    fmt(p, sizeof(p), "%s/%s/%s/dev", dir, d, e->d_name))
					continue;
				if (dev_file_is(p, maj, min))
					found = fmt(name, len, "%s", e->d_name);
			}
			closedir(sub);
		}
	}
	for (int i = 0; i < n; i++)
		free(disks[i]);
	free(disks);
	return found;
}

/* The first entry E, in name order, of the directory BASE (under the env's root) that holds the
 * sub-path E/SUB: E's name into out, or its full path with `full`; 0, or -1 if none. */
static int first_entry_with(const struct ds_env *env, const char *base, const char *sub, int full,
			    char *out, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX * 3];
	struct dirent **ents = NULL;
	int n, found = -1;

	if (fmt(dir, sizeof(dir), "%s%s", root_of(env), base))
		return -1;
	n = scandir(dir, &ents, real_entry, alphasort);
	for (int i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (found < 0 && !fmt(path, sizeof(path), "%s/%s/%s", dir, e, sub) && exists(path))
			found = full ? fmt(out, len, "%s/%s", dir, e) : fmt(out, len, "%s", e);
		free(ents[i]);
	}
	free(ents);
	return found;
}

/* The disk a partition belongs to (the /sys/block/DISK/PART directory); 0 or -1. */
static int disk_of_partition(const struct ds_env *env, const char *part, char *disk, size_t len)
{
	char sub[PATH_MAX];

	return fmt(sub, sizeof(sub), "%s/partition", part) ? -1 :
	       first_entry_with(env, "/sys/block", sub, 0, disk, len);
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && isdigit((unsigned char)r[1]) && isdigit((unsigned char)r[2]) &&
		    isdigit((unsigned char)r[3])) {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Parse one mountinfo line; 0 on success. */
static int parse_mountinfo_line(char *line, struct mnt_entry *m)
{
	char mp[PATH_MAX], fstype[64], source[PATH_MAX];
	char *sep = strstr(line, " - ");

	if (!sep || sscanf(line, "%*d %*d %u:%u %*s %4095s", &m->major, &m->minor, mp) != 3)
		return -1;
	if (sscanf(sep + 3, "%63s %4095s", fstype, source) != 2)
		return -1;
	unescape(mp);
	unescape(source);
	snprintf(m->mountpoint, sizeof(m->mountpoint), "%s", mp);
	snprintf(m->fstype, sizeof(m->fstype), "%.31s", fstype);
	snprintf(m->source, sizeof(m->source), "%s", source);
	return 0;
}

/* PATH is MP or below it. */
static int under(const char *path, const char *mp)
{
	size_t l = strlen(mp);

	return !strncmp(path, mp, l) && (path[l] == '/' || path[l] == '\0' || !strcmp(mp, "/"));
}

/*
 * The mount of device maj:min; with several (bind mounts), the one whose mount point is the
 * longest prefix of PATH (when given). When no entry has that device (btrfs gives each subvolume
 * an anonymous device of its own, not the one in mountinfo), the mount whose mount point is the
 * longest prefix of PATH. 0, or -1 if there is none.
 */
static int find_mount(const struct ds_env *env, unsigned int maj, unsigned int min,
		      const char *path, struct mnt_entry *out)
{
	FILE *f = fopen(env->mountinfo ? env->mountinfo : "/proc/self/mountinfo", "re");
	char line[PATH_MAX * 3];
	size_t best = 0, best_any = 0;
	struct mnt_entry any;
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct mnt_entry m;
		size_t score;

		if (parse_mountinfo_line(line, &m))
			continue;
		/* score: 1 + length of the mount point when it is a prefix of PATH, else 0 */
		score = path && under(path, m.mountpoint) ? strlen(m.mountpoint) + 1 : 0;
		if (score > best_any) {
			any = m;
			best_any = score;
		}
		if (m.major != maj || m.minor != min)
			continue;
		if (found < 0 || score > best) {
			*out = m;
			best = score;
			found = 0;
		}
	}
	fclose(f);
	if (found < 0 && best_any > 0) {
		*out = any;
		found = 0;
	}
	return found;
}

/* The btrfs sysfs directory (/sys/fs/btrfs/<uuid>) that lists device DEVNAME; 0 or -1. */
static int btrfs_dir_of(const struct ds_env *env, const char *devname, char *dir, size_t len)
{
	char sub[PATH_MAX];

	return fmt(sub, sizeof(sub), "devices/%s", devname) ? -1 :
	       first_entry_with(env, "/sys/fs/btrfs", sub, 1, dir, len);
}

int devstack_mount_of(const struct ds_env *envp, const char *name, char *mountpoint, size_t len)
{
	struct ds_env env = { 0 };
	char line[PATH_MAX * 3], path[PATH_MAX], mine[PATH_MAX], theirs[PATH_MAX];
	unsigned int maj = 0, min = 0;
	int found = -1, btrfs;
	FILE *f;

	if (envp)
		env = *envp;
	if (fmt(path, sizeof(path), "%s/sys/block/%s/dev", root_of(&env), name) ||
	    read_line(path, line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return -1;
	btrfs = btrfs_dir_of(&env, name, mine, sizeof(mine)) == 0;
	f = fopen(env.mountinfo ? env.mountinfo : "/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		struct mnt_entry m;

		if (parse_mountinfo_line(line, &m))
			continue;
		if ((m.major == maj && m.minor == min) ||
		    (!strncmp(m.source, "/dev/", 5) && !strcmp(m.source + 5, name)) ||
		    (btrfs && !strcmp(m.fstype, "btrfs") && !strncmp(m.source, "/dev/", 5) &&
		     btrfs_dir_of(&env, m.source + 5, theirs, sizeof(theirs)) == 0 &&
		     !strcmp(mine, theirs)))
			found = fmt(mountpoint, len, "%s", m.mountpoint);
	}
	fclose(f);
	return found;
}

/* The btrfs data profile named by a directory in allocation/data ("raid0"), or "". */
static void btrfs_profile(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX * 2];

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(btrfs_profiles) / sizeof(btrfs_profiles[0]); i++)
		if (!fmt(path, sizeof(path), "%s/allocation/data/%s", dir, btrfs_profiles[i]) &&
		    is_dir(path)) {
			snprintf(out, len, "%s", btrfs_profiles[i]);
			return;
		}
}

/* The node called NAME, added if new; its index, or -1 when the stack is full. */
static int node_get(struct devstack *ds, const char *name, const char *kind, int *is_new)
{
	struct ds_node *n;

	*is_new = 0;
	for (int i = 0; i < ds->nnodes; i++)
		if (!strcmp(ds->nodes[i].name, name))
			return i;
	if (ds->nnodes >= DS_MAX_NODES)
		return -1;
	n = &ds->nodes[ds->nnodes];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	snprintf(n->kind, sizeof(n->kind), "%s", kind);
	*is_new = 1;
	return ds->nnodes++;
}

/* Record that node P sits on node K (once). */
static void add_kid(struct devstack *ds, int p, int k)
{
	struct ds_node *n = &ds->nodes[p];

	if (k < 0 || k == p || n->nkids >= DS_MAX_KIDS)
		return;
	for (int i = 0; i < n->nkids; i++)
		if (n->kids[i] == k)
			return;
	n->kids[n->nkids++] = k;
}

static int block_node(const struct ds_env *env, struct devstack *ds, const char *name, int depth);
static int btrfs_node(const struct ds_env *env, struct devstack *ds, const char *dir,
		      const char *name, int depth);

/* The node for whatever holds PATH on device maj:min: a block device, btrfs, or another file
 * system. */
static int node_for_dev(const struct ds_env *env, struct devstack *ds, unsigned int maj,
			unsigned int min, const char *path, int depth)
{
	char name[64], dir[PATH_MAX];
	struct mnt_entry m;
	int idx, is_new;

	if (devstack_name_of(env, maj, min, name, sizeof(name)) == 0)
		return block_node(env, ds, name, depth);
	if (find_mount(env, maj, min, path, &m))
		return -1;
	snprintf(name, sizeof(name), "%.20s:%.42s", m.fstype, m.mountpoint);
	if (!strcmp(m.fstype, "btrfs") && !strncmp(m.source, "/dev/", 5) &&
	    btrfs_dir_of(env, m.source + 5, dir, sizeof(dir)) == 0)
		return btrfs_node(env, ds, dir, name, depth);
	idx = node_get(ds, name, m.fstype, &is_new);
	if (idx >= 0) {
		ds->nodes[idx].major = maj;
		ds->nodes[idx].minor = min;
	}
	return idx;
}

/* A btrfs file system as a node whose kids are its devices (listed in DIR/devices). */
static int btrfs_node(const struct ds_env *env, struct devstack *ds, const char *dir,
		      const char *name, int depth)
{
	char path[PATH_MAX * 2];
	struct dirent **devs = NULL;
	int idx, is_new, n;

	idx = node_get(ds, name, "btrfs", &is_new);
	if (idx < 0 || !is_new || fmt(path, sizeof(path), "%s/devices", dir))
		return idx;
	n = scandir(path, &devs, real_entry, alphasort);
	for (int i = 0; i < n; i++) {
		add_kid(ds, idx, block_node(env, ds, devs[i]->d_name, depth + 1));
		free(devs[i]);
	}
	free(devs);
	return idx;
}

/* The node for block device NAME with everything under it; its index or -1. */
static int block_node(const struct ds_env *env, struct devstack *ds, const char *name, int depth)
{
	char dir[PATH_MAX], path[PATH_MAX * 2], disk[64];
	const char *r = root_of(env);
	struct dirent **slaves = NULL;
	unsigned int maj, min;
	struct ds_node *node;
	int idx, is_new, n;

	if (depth > DS_MAX_DEPTH || fmt(dir, sizeof(dir), "%s/sys/block/%s", r, name))
		return -1;
	if (is_dir(dir)) {
		const char *kind = "disk";

		if (!fmt(path, sizeof(path), "%s/loop/backing_file", dir) && exists(path))
			kind = "loop";
		else if (!fmt(path, sizeof(path), "%s/dm", dir) && is_dir(path))
			kind = "dm";
		else if (!fmt(path, sizeof(path), "%s/md", dir) && is_dir(path))
			kind = "md";
		idx = node_get(ds, name, kind, &is_new);
	} else if (disk_of_partition(env, name, disk, sizeof(disk)) == 0) {
		idx = node_get(ds, name, "part", &is_new);
		if (idx >= 0 && is_new)
			add_kid(ds, idx, block_node(env, ds, disk, depth + 1));
		if (idx >= 0 && !fmt(path, sizeof(path), "%s/sys/block/%s/%s/dev", r, disk, name) &&
		    !read_line(path, disk, sizeof(disk)))
			sscanf(disk, "%u:%u", &ds->nodes[idx].major, &ds->nodes[idx].minor);
		return idx;
	} else {
		return -1;
	}
	if (idx < 0 || !is_new)
		return idx;
	node = &ds->nodes[idx];
	if (!fmt(path, sizeof(path), "%s/dev", dir) && !read_line(path, disk, sizeof(disk)))
		sscanf(disk, "%u:%u", &node->major, &node->minor);
	if (!strcmp(node->kind, "loop")) {
		char *del;

		if (!fmt(path, sizeof(path), "%s/loop/backing_file", dir) &&
		    !read_line(path, node->backing, sizeof(node->backing))) {
			del = strstr(node->backing, " (deleted)");
			if (del && del[10] == '\0')
				*del = '\0';
			if (env->stat_dev(node->backing, &maj, &min) == 0)
				add_kid(ds, idx, node_for_dev(env, ds, maj, min, node->backing,
								depth + 1));
		}
	}
	/* dm, md and other stacking drivers list what they sit on in slaves/ */
	if (!fmt(path, sizeof(path), "%s/slaves", dir)) {
		n = scandir(path, &slaves, real_entry, alphasort);
		for (int i = 0; i < n; i++) {
			add_kid(ds, idx, block_node(env, ds, slaves[i]->d_name, depth + 1));
			free(slaves[i]);
		}
		free(slaves);
	}
	return idx;
}

/* stat(2)'s st_dev for PATH. */
static int real_stat_dev(const char *path, unsigned int *maj, unsigned int *min)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	*maj = major(st.st_dev);
	*min = minor(st.st_dev);
	return 0;
}

/* env with the defaults filled in. */
static struct ds_env env_or_default(const struct ds_env *env)
{
	struct ds_env e = { 0 };

	if (env)
		e = *env;
	if (!e.root)
		e.root = "";
	if (!e.stat_dev)
		e.stat_dev = real_stat_dev;
	return e;
}

int devstack_from_device(const struct ds_env *envp, const char *name, struct devstack *ds,
			 char *err, size_t errlen)
{
	struct ds_env env = env_or_default(envp);
	int idx;

	memset(ds, 0, sizeof(*ds));
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	idx = strchr(name, '/') ? -1 : block_node(&env, ds, name, 0);
	if (idx < 0) {
		snprintf(err, errlen, "%s is not a block device known to sysfs", name);
		return -1;
	}
	ds->members[ds->nmembers++] = idx;
	return 0;
}

int devstack_from_path(const struct ds_env *envp, const char *path, struct devstack *ds,
		       char *err, size_t errlen)
{
	struct ds_env env = env_or_default(envp);
	char rpath[PATH_MAX], name[64], dir[PATH_MAX];
	unsigned int maj, min;
	struct mnt_entry m;
	int idx;

	memset(ds, 0, sizeof(*ds));
	if (!realpath(path, rpath))
		snprintf(rpath, sizeof(rpath), "%s", path);
	if (env.stat_dev(path, &maj, &min)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (find_mount(&env, maj, min, rpath, &m)) {
		snprintf(err, errlen, "%s: device %u:%u is not in mountinfo", path, maj, min);
		return -1;
	}
	snprintf(ds->mountpoint, sizeof(ds->mountpoint), "%s", m.mountpoint);
	snprintf(ds->fstype, sizeof(ds->fstype), "%s", m.fstype);
	if (!strcmp(m.fstype, "btrfs") && !strncmp(m.source, "/dev/", 5) &&
	    btrfs_dir_of(&env, m.source + 5, dir, sizeof(dir)) == 0) {
		int fs;

		btrfs_profile(dir, ds->profile, sizeof(ds->profile));
		snprintf(name, sizeof(name), "btrfs:%.50s", m.mountpoint);
		fs = btrfs_node(&env, ds, dir, name, 0);
		if (fs < 0)
			goto unmapped;
		for (int i = 0; i < ds->nodes[fs].nkids; i++)
			ds->members[ds->nmembers++] = ds->nodes[fs].kids[i];
	} else if (devstack_name_of(&env, maj, min, name, sizeof(name)) == 0) {
		idx = block_node(&env, ds, name, 0);
		if (idx < 0)
			goto unmapped;
		ds->members[ds->nmembers++] = idx;
	}
	if (ds->nmembers > 0)
		return 0;
unmapped:
	snprintf(err, errlen, "%s is on %s (%s) with no block device under it", path,
		 m.mountpoint, m.fstype);
	return -1;
}

/* Append s to buf at *at (truncating silently). */
static void put(char *buf, size_t len, size_t *at, const char *s)
{
	int n = snprintf(buf + *at, len - *at, "%s", s);

	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

char *devstack_format(const struct devstack *ds, char *buf, size_t len)
{
	int cur[DS_MAX_NODES], next[DS_MAX_NODES], ncur = 0, nnext, seen[DS_MAX_NODES] = { 0 };
	size_t at = 0;
	char head[PATH_MAX + 64];

	buf[0] = '\0';
	if (ds->mountpoint[0])
		snprintf(head, sizeof(head), "%s (%s%s%s)", ds->mountpoint, ds->fstype,
			 ds->profile[0] ? " " : "", ds->profile);
	else
		snprintf(head, sizeof(head), "/dev/%s", ds->nodes[ds->members[0]].name);
	put(buf, len, &at, head);
	for (int i = 0; i < ds->nmembers; i++)
		if (!seen[ds->members[i]]) {
			seen[ds->members[i]] = 1;
			cur[ncur++] = ds->members[i];
		}
	/* a bare device: its own name is the head, start one level down */
	if (!ds->mountpoint[0] && ncur == 1) {
		const struct ds_node *n = &ds->nodes[cur[0]];

		ncur = 0;
		for (int k = 0; k < n->nkids; k++)
			if (!seen[n->kids[k]]) {
				seen[n->kids[k]] = 1;
				cur[ncur++] = n->kids[k];
			}
	}
	while (ncur > 0) {
		put(buf, len, &at, " \u2192 ");
		nnext = 0;
		for (int i = 0; i < ncur; i++) {
			const struct ds_node *n = &ds->nodes[cur[i]];

			put(buf, len, &at, i ? ", " : "");
			put(buf, len, &at, n->name);
			for (int k = 0; k < n->nkids; k++)
				if (!seen[n->kids[k]]) {
					seen[n->kids[k]] = 1;
					next[nnext++] = n->kids[k];
				}
		}
		memcpy(cur, next, sizeof(int) * (size_t)nnext);
		ncur = nnext;
	}
	return buf;
}

/* Node idx, or the disk under it when it is a partition. */
static int fold_partition(const struct devstack *ds, int idx)
{
	const struct ds_node *n = &ds->nodes[idx];

	return !strcmp(n->kind, "part") && n->nkids > 0 ? n->kids[0] : idx;
}

/* Add node idx (partition folded) to a level unless seen. */
static void level_add(const struct devstack *ds, int idx, int *lv, int *n, char *seen)
{
	idx = fold_partition(ds, idx);
	if (seen[idx] || *n >= DS_MAX_KIDS)
		return;
	seen[idx] = 1;
	lv[(*n)++] = idx;
}

int devstack_levels(const struct devstack *ds, int out[][DS_MAX_KIDS], int *counts, int maxlevels)
{
	char seen[DS_MAX_NODES] = { 0 };
	int nl = 0;

	if (maxlevels < 1)
		return 0;
	counts[0] = 0;
	for (int i = 0; i < ds->nmembers; i++)
		level_add(ds, ds->members[i], out[0], &counts[0], seen);
	while (counts[nl] > 0 && ++nl < maxlevels) {
		counts[nl] = 0;
		for (int i = 0; i < counts[nl - 1]; i++) {
			const struct ds_node *n = &ds->nodes[out[nl - 1][i]];

			for (int k = 0; k < n->nkids; k++)
				level_add(ds, n->kids[k], out[nl], &counts[nl], seen);
		}
	}
	return nl;
}

int devstack_sits_on(const struct devstack *ds, int upper, int lower)
{
	if (upper < 0 || upper >= ds->nnodes)
		return 0;
	for (int k = 0; k < ds->nodes[upper].nkids; k++)
		if (fold_partition(ds, ds->nodes[upper].kids[k]) == lower)
			return 1;
	return 0;
}

/* Mark every node below IDX (not IDX itself) in below[]. */
static void mark_below(const struct devstack *ds, int idx, char *below, int depth)
{
	if (depth > DS_MAX_DEPTH)
		return;
	for (int k = 0; k < ds->nodes[idx].nkids; k++) {
		below[ds->nodes[idx].kids[k]] = 1;
		mark_below(ds, ds->nodes[idx].kids[k], below, depth + 1);
	}
}

const char *devstack_bottom(const struct devstack *ds, int idx)
{
	for (int depth = 0; depth <= DS_MAX_DEPTH && ds->nodes[idx].nkids > 0; depth++)
		idx = ds->nodes[idx].kids[0];
	return ds->nodes[idx].name;
}

const char *devstack_common_lower(const struct devstack *ds)
{
	int count[DS_MAX_NODES] = { 0 }, best = -1;

	if (ds->nmembers < 1)
		return NULL;
	for (int i = 0; i < ds->nmembers; i++) {
		char below[DS_MAX_NODES] = { 0 };

		mark_below(ds, ds->members[i], below, 0);
		for (int j = 0; j < ds->nnodes; j++)
			count[j] += below[j];
	}
	/* the deepest shared node: one with no shared node under it */
	for (int j = 0; j < ds->nnodes; j++) {
		char below[DS_MAX_NODES] = { 0 };
		int deeper = 0;

		if (count[j] != ds->nmembers)
			continue;
		mark_below(ds, j, below, 0);
		for (int k = 0; k < ds->nnodes; k++)
			deeper |= below[k] && count[k] == ds->nmembers;
		if (!deeper)
			best = j;
	}
	return best >= 0 ? ds->nodes[best].name : NULL;
}
