/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The set of inodes the workload tree dirtied, so that writeback of them by flusher threads can be
 * charged back to the workload. Shared by BPF (io.bpf.c) and the unit tests.
 *
 * A hash map insert per newly dirtied inode cost ~850 ns on this kernel (allocation, bucket lock,
 * cache misses): as much as all the syscall probes of a small-file workload together. This set is a
 * plain array of buckets, each one cache line of 8 tags; a tag is a 64-bit mix of (dev, ino), never
 * 0 (0 = empty); the bucket comes from the inode number (see inode_bucket). Insert and lookup read one cache line; an insert claims an empty slot with one
 * compare-and-swap, so two CPUs dirtying the same new inode at once still store it once.
 *
 * Exactness: within one device the tag is a bijection of ino (no two inodes share a tag); across
 * devices a clash needs ino1 ^ dev1 * K == ino2 ^ dev2 * K, which does not happen by accident. A
 * bucket that is full (9 inodes in the same line) refuses the insert: the caller counts it,
 * and that inode's writeback is then not charged to the workload. Nothing is ever evicted, so an
 * inode in the set was really dirtied by the tree.
 */
#ifndef IOWHY_INODE_SET_H
#define IOWHY_INODE_SET_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define IOWHY_INODE_WAYS 8
#define IOWHY_INODE_BUCKETS (1u << 18) /* 2M tags in 16 MiB */

struct iowhy_inode_bucket {
	__u64 tag[IOWHY_INODE_WAYS];
};

enum { INODE_SET_FOUND, INODE_SET_ADDED, INODE_SET_FULL };

/* splitmix64's finaliser: a bijection of 64-bit values with every output bit mixed. */
static inline __attribute__((always_inline)) __u64 inode_mix64(__u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static inline __attribute__((always_inline)) __u64 inode_tag(__u32 dev, __u64 ino)
{
	__u64 t = inode_mix64(ino ^ ((__u64)dev * 0x9e3779b97f4a7c15ULL));

	return t ? t : 1;
}

/*
 * The bucket: 8 consecutive inode numbers share one (file systems hand out inode numbers mostly in
 * order, so the files a workload creates one after another fill one cache line, then the next,
 * instead of touching a cold line and page each), offset per device.
 */
static inline __attribute__((always_inline)) __u32 inode_bucket(__u32 dev, __u64 ino)
{
	return ((__u32)(inode_mix64(dev) >> 32) + (__u32)(ino / IOWHY_INODE_WAYS)) &
	       (IOWHY_INODE_BUCKETS - 1);
}

/* Is tag in bucket b? */
static inline __attribute__((always_inline)) int inode_set_has(const struct iowhy_inode_bucket *b,
							      __u64 tag)
{
	for (int i = 0; i < IOWHY_INODE_WAYS; i++) {
		__u64 v = b->tag[i];

		if (v == tag)
			return 1;
		if (!v) /* slots fill in order and are never freed: nothing after an empty one */
			return 0;
	}
	return 0;
}

/* Add tag to bucket b: INODE_SET_FOUND (it was there), _ADDED, or _FULL. */
static inline __attribute__((always_inline)) int inode_set_add(struct iowhy_inode_bucket *b,
							      __u64 tag)
{
	for (int i = 0; i < IOWHY_INODE_WAYS; i++) {
		__u64 v = b->tag[i];

		if (v == tag)
			return INODE_SET_FOUND;
		if (v)
			continue;
		v = __sync_val_compare_and_swap(&b->tag[i], 0, tag);
		if (!v)
			return INODE_SET_ADDED;
		if (v == tag) /* another CPU added the same inode just now */
			return INODE_SET_FOUND;
		/* another CPU took this slot for another inode: try the next */
	}
	return INODE_SET_FULL;
}

#endif
