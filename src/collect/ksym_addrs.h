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

/*
 * The other way: the names of kernel addresses (sampled stack frames), asked of the kernel a batch
 * at a time (a BPF syscall program formatting them with bpf_snprintf "%ps", the printk symbol
 * lookup), instead of reading all of /proc/kallsyms (~120,000 lines the kernel writes out, ~60 ms
 * here) to name a few hundred frames. Answers are kept: each address is asked once.
 *
 *   struct ksym_names *k = ksym_names_open();     NULL: not here (an old kernel, no privilege,
 *                                                 IOWHY_FALLBACKS=1): read /proc/kallsyms instead
 *   ksym_names_prefetch(k, ips, n);               optional: ask for a stack's frames in one run
 *   name = ksym_names_get(k, ip);                 the function's name (no module), NULL: none
 *   ksym_names_close(k);
 */
struct ksym_names;
struct ksym_names *ksym_names_open(void);
/* Ask for the addresses not asked yet (0s skipped). 0, or -1 when the kernel could not be asked. */
int ksym_names_prefetch(struct ksym_names *k, const uint64_t *addrs, int n);
const char *ksym_names_get(struct ksym_names *k, uint64_t addr);
/* Program runs so far (each names up to a batch of addresses). */
uint64_t ksym_names_queries(const struct ksym_names *k);
void ksym_names_close(struct ksym_names *k);

/* Names for kernel stack frames: asked of the kernel (ksym_names) at the first stack, else read
 * from /proc/kallsyms (then once). names[i] is NULL for a frame in no symbol. */
struct kframes;
struct kframes *kframes_new(void);   /* NULL: out of memory (every name is then NULL) */
void kframes_name(struct kframes *f, const uint64_t *ips, int n, const char **names);
void kframes_free(struct kframes *f);

#endif
