/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Addresses of kernel symbols the BPF programs compare with (the loop driver's work functions),
 * found without parsing all of /proc/kallsyms: the kernel answers itself where it can (a BPF
 * syscall program calling bpf_kallsyms_lookup_name, kernel >= 5.16: a binary search, no text);
 * else /proc/kallsyms is read, with a plain scanner, only until every name is found. libbpf 1.1
 * resolved `__ksym` externs by scanning all of it with sscanf, ~15% of a session's start.
 *
 *   static const char *const names[] = { "loop_workfn", "loop_rootcg_workfn" };
 *   uint64_t addrs[2];
 *   ksym_addrs(names, addrs, 2);        addrs[i] is 0 for a name the kernel does not have
 *
 * IOWHY_FALLBACKS=1 (probe_fallbacks_forced) skips the BPF way, as on a kernel without it.
 */
#ifndef IOWHY_KSYM_ADDRS_H
#define IOWHY_KSYM_ADDRS_H

#include <stdint.h>

/* How ksym_addrs found the addresses. */
enum ksym_way { KSYM_NONE, KSYM_BPF, KSYM_KALLSYMS };

/* Fill addrs[0..n) with the addresses of names[0..n) (0: not found). Returns the way it took
 * (KSYM_NONE: neither worked; every address is 0). */
enum ksym_way ksym_addrs(const char *const *names, uint64_t *addrs, int n);
/* The scanner alone, on a file in /proc/kallsyms's format ("ADDR TYPE NAME[\t[MODULE]]" lines):
 * the first symbol of each name, reading stops once all are found. Returns how many names were
 * found, or -1 if the file cannot be read. */
int ksym_addrs_scan(const char *path, const char *const *names, uint64_t *addrs, int n);

#endif
