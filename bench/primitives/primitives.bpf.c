// SPDX-License-Identifier: GPL-2.0
/*
 * bench/bpf_primitives.sh: what one BPF building block costs on this host. One program on
 * sys_enter, for the benchmark's own threads only; each mode repeats one operation 50 times per
 * syscall, and user space takes the difference against mode 0 (the program returning at once).
 * Shared state (the ring, the hash, the lock, the atomic) is the same for every thread, so that a
 * run with a thread per CPU shows what contention adds.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 tgid = 0;
__u32 mode = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} prim_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, __u64[8]);
} prim_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, __u64[4]);
} prim_lru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} prim_task SEC(".maps");

struct prim_locked {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 v;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct prim_locked);
} prim_shared SEC(".maps");

__u64 prim_sink;

#define TEN(x) do { x; x; x; x; x; x; x; x; x; x; } while (0)
#define REPEAT(x) do { TEN(x); TEN(x); TEN(x); TEN(x); TEN(x); } while (0) /* PRIM_REPEAT */

SEC("tp_btf/sys_enter")
int BPF_PROG(prim_enter, struct pt_regs *regs, long id)
{
	struct task_struct *t;
	__u64 v = 0, k = (__u64)bpf_get_smp_processor_id() << 10;
	__u32 zero = 0, one = 1;

	if ((bpf_get_current_pid_tgid() >> 32) != tgid)
		return 0;
	t = bpf_get_current_task_btf();
	switch (mode) {
	case 1:
		REPEAT(v += bpf_ktime_get_ns());
		break;
	case 2:
		REPEAT(v += BPF_CORE_READ(t, pid));
		break;
	case 3:
		REPEAT(v += *(volatile int *)&t->pid);
		break;
	case 4:
		REPEAT({
			void *e = bpf_ringbuf_reserve(&prim_ring, 48, 0);
			if (e)
				bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
		});
		break;
	case 5:
		REPEAT({
			__u64 *p = bpf_map_lookup_elem(&prim_hash, &k);
			if (p)
				v += *p;
			k++;
		});
		break;
	case 6: {
		__u64 z[8] = {};

		REPEAT({
			bpf_map_update_elem(&prim_hash, &k, z, BPF_ANY);
			bpf_map_delete_elem(&prim_hash, &k);
			k++;
		});
		break;
	}
	case 7: {
		__u64 z[4] = {};

		REPEAT({
			bpf_map_update_elem(&prim_lru, &k, z, BPF_ANY);
			bpf_map_delete_elem(&prim_lru, &k);
			k++;
		});
		break;
	}
	case 8:
		REPEAT({
			__u64 *p = bpf_task_storage_get(&prim_task, t, 0,
							BPF_LOCAL_STORAGE_GET_F_CREATE);
			if (p)
				v += *p;
		});
		break;
	case 9: {
		struct prim_locked *l = bpf_map_lookup_elem(&prim_shared, &zero);

		if (l)
			REPEAT({
				bpf_spin_lock(&l->lock);
				l->v++;
				bpf_spin_unlock(&l->lock);
			});
		break;
	}
	case 10: {
		struct prim_locked *l = bpf_map_lookup_elem(&prim_shared, &one);

		if (l)
			REPEAT(__sync_fetch_and_add(&l->v, 1));
		break;
	}
	}
	prim_sink = v;
	return 0;
}
