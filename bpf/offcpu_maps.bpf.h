/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The off-CPU aggregation, shared like the tree's maps (made by the tree object, taken by the
 * core and sampler objects with bpf_map__reuse_fd): the tp_btf path adds to it from the core's
 * sched_switch program (offcpu.bpf.h), the raw_tp fallback from the sampler's own switch program;
 * user space (sampler.c) reads and clears it per phase through the sampler's skeleton.
 */
#ifndef IOWHY_OFFCPU_MAPS_BPF_H
#define IOWHY_OFFCPU_MAPS_BPF_H

#include "iowhy.h"
#include "sample.h"

/* D time by (phase, kernel stack, comm). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, IOWHY_OFF_KEYS);
	__type(key, struct iowhy_off_key);
	__type(value, struct iowhy_off_val);
} offcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IOWHY_MAX_PHASES);
	__type(key, __u32);
	__type(value, struct iowhy_off_counters);
} off_counters SEC(".maps");

/* tp_btf path: stacks by a hash of their frames (bpf_get_task_stack gives frames, not an id). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* made at first use: a fast start */
	__uint(max_entries, IOWHY_STACKS);
	__type(key, __u32);
	__type(value, struct iowhy_kstack);
} offstacks_h SEC(".maps");

#endif
