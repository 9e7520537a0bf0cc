/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Questions to bpf/ksym.bpf.c (BPF syscall programs run with BPF_PROG_TEST_RUN), answered by the
 * kernel's own symbol lookups instead of a parse of /proc/kallsyms:
 *   ksym_lookup: the address of a name (bpf_kallsyms_lookup_name). It reads `name` and writes
 *     `addr` and `err` back.
 *   ksym_names: the names of up to KSYM_BATCH addresses (bpf_snprintf "%pS", the printk symbol
 *     lookup): user space fills the object's global `slots[0..nslots)` addresses, runs it, and
 *     reads each slot's name ("func+0x1b/0x60", the same with " [module]" after it, or "0x..."
 *     for an address in no symbol).
 */
#ifndef IOWHY_KSYM_H
#define IOWHY_KSYM_H

#ifndef __bpf__
#include <linux/types.h>
#endif

#define KSYM_NAME_LEN 128 /* KSYM_NAME_LEN of the kernel (512 since 6.1; our names are short) */

struct ksym_query {
	char name[KSYM_NAME_LEN] __attribute__((aligned(8))); /* NUL-terminated */
	__u64 addr;                /* out: the address, 0 when not found */
	__s64 err;                 /* out: the helper's return value (0, -ENOENT, -EPERM, ...) */
};

#define KSYM_BATCH 128

struct ksym_slot {
	__u64 addr;                /* in */
	char name[KSYM_NAME_LEN];  /* out */
};

#endif
