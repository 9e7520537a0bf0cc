/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O probes' maps that other objects share (bpf_map__reuse_fd before load): the inodes the
 * tree dirtied, and the tasks inside writeback_single_inode. They are made with the tree's maps
 * (tree_maps.bpf.c), so that the I/O and FUSE objects load at the same time. io.bpf.c fills them;
 * fuse.bpf.c reads them (tree_inodes has one entry when the I/O probes are not loaded).
 */
#ifndef IOWHY_TREE_INODES_BPF_H
#define IOWHY_TREE_INODES_BPF_H

#include "iowhy.h"
#include "inode_set.h"

/* Inodes the tree dirtied: a set of tags in cache-line buckets (inode_set.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOWHY_INODE_BUCKETS);
	__type(key, __u32);
	__type(value, struct iowhy_inode_bucket);
} tree_inodes SEC(".maps");

/* Tasks inside writeback_single_inode: tid -> whether the tree dirtied that inode, or the upper
 * device whose backing file it is (a loop device's; 0: none). */
struct io_wb {
	__u32 tree;
	__u32 upper;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct io_wb);
} wb_tasks SEC(".maps");

/* The bucket of inode (dev, ino) in tree_inodes and its tag; NULL if none (cannot happen: the
 * index is masked). */
static __always_inline struct iowhy_inode_bucket *tree_inode_slot(__u32 dev, __u64 ino, __u64 *tag)
{
	__u32 idx = inode_bucket(dev, ino);

	*tag = inode_tag(dev, ino);
	return bpf_map_lookup_elem(&tree_inodes, &idx);
}

/* Whether the tree dirtied inode (dev, ino). */
static __always_inline int tree_has_inode(__u32 dev, __u64 ino)
{
	__u64 tag;
	struct iowhy_inode_bucket *b = tree_inode_slot(dev, ino, &tag);

	return b && inode_set_has(b, tag);
}

#endif
