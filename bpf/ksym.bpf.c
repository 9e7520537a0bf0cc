// SPDX-License-Identifier: GPL-2.0
/*
 * The address of a kernel symbol, from the kernel's own symbol table lookup (kallsyms_lookup_name,
 * a binary search): a BPF syscall program (kernel >= 5.16) run once per name with
 * BPF_PROG_TEST_RUN, its context the query (bpf/ksym.h). No kernel BTF is needed to load it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "ksym.h"

char LICENSE[] SEC("license") = "GPL";

SEC("syscall")
int ksym_lookup(struct ksym_query *q)
{
	__u64 name[KSYM_NAME_LEN / 8], addr = 0;

	/* the helper reads a name on the stack (or in a map), not in the context: copied in words */
	for (int i = 0; i < KSYM_NAME_LEN / 8; i++)
		name[i] = ((const __u64 *)q->name)[i];
	((char *)name)[KSYM_NAME_LEN - 1] = 0;
	q->err = bpf_kallsyms_lookup_name((const char *)name, KSYM_NAME_LEN, 0, &addr);
	q->addr = q->err ? 0 : addr;
	return 0;
}

/* The names of kernel addresses, a batch at a time (bpf/ksym.h): one run instead of reading all
 * of /proc/kallsyms (~120,000 lines the kernel writes out) to name a few hundred stack frames. */
struct ksym_slot slots[KSYM_BATCH];
__u32 nslots;

SEC("syscall")
int ksym_names(void *ctx)
{
	static const char fmt[] = "%pS"; /* "func+0x1b/0x60", " [module]" after it */

	for (__u32 i = 0; i < KSYM_BATCH; i++) {
		if (i >= nslots)
			break;
		bpf_snprintf(slots[i].name, KSYM_NAME_LEN, fmt, &slots[i].addr, sizeof(__u64));
	}
	return 0;
}
