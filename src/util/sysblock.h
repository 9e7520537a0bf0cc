/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of the kernel's block device list (/sys/class/block, /sys/dev/block): names,
 * device numbers, which disk a partition belongs to, and raw attribute files (stat, size, ...).
 *
 * Device numbers are dev_t, built and taken apart with makedev()/major()/minor() of
 * <sys/sysmacros.h>. BPF programs see the kernel's internal encoding instead (MKDEV(ma, mi) =
 * ma << 20 | mi, as in struct block_device.bd_dev and bpf/io.h): convert with kdev_of() and
 * dev_of_kdev(), never by hand.
 */
#ifndef IOWHY_SYSBLOCK_H
#define IOWHY_SYSBLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SYSBLOCK_NAME_LEN 32

struct sysblock_entry {
	char name[SYSBLOCK_NAME_LEN];  /* "vda1" */
	dev_t dev;
	int is_partition;
	char disk[SYSBLOCK_NAME_LEN];  /* the disk it is on ("vda"); its own name for a disk */
	dev_t disk_dev;                /* that disk's number (dev itself for a disk) */
};

/* The kernel's internal dev_t (MKDEV: major << 20 | minor) of dev, as BPF programs see it. */
uint32_t kdev_of(dev_t dev);
/* The dev_t of a kernel-internal device number. */
dev_t dev_of_kdev(uint32_t kdev);
/* "MAJ:MIN" (a sysfs dev file, trailing newline allowed) -> *dev. Returns 0, or -1 if malformed. */
int sysblock_parse_dev(const char *s, dev_t *dev);
/* Read /sys/class/block/NAME/ATTR ("stat", "size", "dev", ...) into buf, NUL-terminated.
 * Returns the length, or -1 (no such device or attribute, or a name with '/'). */
int sysblock_read_attr(const char *name, const char *attr, char *buf, size_t n);
/* Fill e for the block device NAME. Returns 0, or -1 if it is not one. */
int sysblock_entry(const char *name, struct sysblock_entry *e);
/* Fill e for device dev (found through /sys/dev/block/MAJ:MIN). Returns 0, or -1 if unknown. */
int sysblock_lookup(dev_t dev, struct sysblock_entry *e);
/* Every block device, disks and partitions, in directory order: at most max entries in out.
 * Returns how many were filled (0 when /sys/class/block cannot be read). */
int sysblock_list(struct sysblock_entry *out, int max);
/* How many requests the block devices can hold at once: over /sys/block, each disk's nr_requests
 * times its hardware queues (a request holds a tag of one queue from allocation to completion).
 * 0 when nothing can be read. */
unsigned long sysblock_request_slots(void);

#endif
