// SPDX-License-Identifier: GPL-2.0
/* The /sys block device reader; see sysblock.h. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "sysblock.h"

#define CLASS_BLOCK "/sys/class/block"
#define KDEV_MINOR_BITS 20 /* the kernel's MINORBITS (include/linux/kdev_t.h) */

uint32_t kdev_of(dev_t dev)
{
	return ((uint32_t)major(dev) << KDEV_MINOR_BITS) | (uint32_t)minor(dev);
}

dev_t dev_of_kdev(uint32_t kdev)
{
	return makedev(kdev >> KDEV_MINOR_BITS, kdev & ((1u << KDEV_MINOR_BITS) - 1));
}

int sysblock_parse_dev(const char *s, dev_t *dev)
{
	unsigned maj, min;
	char end = 0;

	if (sscanf(s, "%u:%u%c", &maj, &min, &end) < 2 || (end && end != '\n'))
		return -1;
	*dev = makedev(maj, min);
	return 0;
}

/* A device name sysfs could hold: not empty, no '/', not "." or "..". */
static int name_ok(const char *name)
{
	return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int sysblock_read_attr(const char *name, const char *attr, char *buf, size_t n)
{
	char path[PATH_MAX];
	ssize_t got;
	int fd;

	if (!n || !name_ok(name) || !name_ok(attr))
		return -1;
	snprintf(path, sizeof(path), CLASS_BLOCK "/%s/%s", name, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = read(fd, buf, n - 1);
	close(fd);
	if (got < 0)
		return -1;
	buf[got] = 0;
	return (int)got;
}

/* The dev file of NAME as a dev_t. Returns 0 or -1. */
static int read_dev(const char *name, dev_t *dev)
{
	char buf[32];

	if (sysblock_read_attr(name, "dev", buf, sizeof(buf)) < 0)
		return -1;
	return sysblock_parse_dev(buf, dev);
}

int sysblock_entry(const char *name, struct sysblock_entry *e)
{
	char path[PATH_MAX], link[PATH_MAX], buf[8], *slash;
	ssize_t n;

	memset(e, 0, sizeof(*e));
	if (strlen(name) >= sizeof(e->name) || read_dev(name, &e->dev))
		return -1;
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->disk, sizeof(e->disk), "%s", name);
	e->disk_dev = e->dev;
	if (sysblock_read_attr(name, "partition", buf, sizeof(buf)) < 0)
		return 0;
	/* /sys/class/block/vda1 -> ../../devices/.../block/vda/vda1: the parent is the disk */
	snprintf(path, sizeof(path), CLASS_BLOCK "/%s", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = 0;
	slash = strrchr(link, '/');
	if (!slash)
		return 0;
	*slash = 0;
	slash = strrchr(link, '/');
	if (!slash || strlen(slash + 1) >= sizeof(e->disk) || read_dev(slash + 1, &e->disk_dev)) {
		e->disk_dev = e->dev;
		return 0;
	}
	e->is_partition = 1;
	snprintf(e->disk, sizeof(e->disk), "%s", slash + 1);
	return 0;
}

int sysblock_lookup(dev_t dev, struct sysblock_entry *e)
{
	char path[64], link[PATH_MAX], *slash;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = 0;
	slash = strrchr(link, '/');
	return sysblock_entry(slash ? slash + 1 : link, e) || e->dev != dev ? -1 : 0;
}

int sysblock_list(struct sysblock_entry *out, int max)
{
	DIR *d = opendir(CLASS_BLOCK);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while (n < max && (de = readdir(d)))
		if (de->d_name[0] != '.' && !sysblock_entry(de->d_name, &out[n]))
			n++;
	closedir(d);
	return n;
}

/* A small decimal number in file `rel` under directory fd dir; 0 if none. */
static unsigned long read_num_at(int dir, const char *rel)
{
	char buf[32];
	int fd = openat(dir, rel, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t got;

	if (fd < 0)
		return 0;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = 0;
	return strtoul(buf, NULL, 10);
}

/* Entries of subdirectory `rel` of dir ("mq": one per hardware queue), at least 1. */
static unsigned long count_dir_at(int dir, const char *rel)
{
	int fd = openat(dir, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned long n = 0;
	struct dirent *d;
	DIR *dp;

	if (fd < 0)
		return 1;
	dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		return 1;
	}
	while ((d = readdir(dp)))
		n += d->d_name[0] != '.';
	closedir(dp);
	return n ? n : 1;
}

unsigned long sysblock_request_slots(void)
{
	DIR *dp = opendir("/sys/block");
	unsigned long slots = 0;
	struct dirent *d;

	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		int dev;

		if (d->d_name[0] == '.')
			continue;
		dev = openat(dirfd(dp), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dev < 0)
			continue;
		/* (a bio-based device, zram, has no request queue: nothing) */
		slots += read_num_at(dev, "queue/nr_requests") * count_dir_at(dev, "mq");
		close(dev);
	}
	closedir(dp);
	return slots;
}
