// SPDX-License-Identifier: GPL-2.0
/*
 * The workload tree's maps (tree.bpf.h), the inodes the tree dirtied and the tasks in writeback
 * (tree_inodes.bpf.h), and the off-CPU aggregation (offcpu_maps.bpf.h), and nothing else: user space loads this object first, so that the maps exist
 * before any object that uses them loads. Every object then takes these maps (bpf_map__reuse_fd),
 * and the core, I/O, sampler and FUSE objects can load at the same time (core_probes_prepare).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "iowhy.h"
#include "tree.bpf.h"
#include "tree_inodes.bpf.h"
#include "offcpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";
