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
