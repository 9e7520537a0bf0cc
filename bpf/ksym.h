/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One question to bpf/ksym.bpf.c (a BPF syscall program run with BPF_PROG_TEST_RUN): the address
 * of a kernel symbol, answered by the kernel's own lookup (bpf_kallsyms_lookup_name) instead of a
 * parse of /proc/kallsyms. The program reads `name` and writes `addr` and `err` back.
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

#endif
