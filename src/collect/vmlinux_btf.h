/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's BTF, read once while a session loads its probes.
 *
 * libbpf 1.1 reads and parses /sys/kernel/btf/vmlinux (5.5 MB) for every object it loads, and a
 * session loads four: ~60 ms of CPU each on a VM. vmlinux_btf.c defines btf__load_vmlinux_btf
 * and btf__free, which libbpf calls through its PLT: every caller (libbpf's and ours) gets the
 * same struct btf, parsed once (~22 ms), and btf__free of it only counts a holder less. libbpf
 * only reads the kernel's BTF, so threads loading at the same time may share it. Where libbpf
 * does not call both through its PLT (looked up in its relocations at the first call), each
 * caller gets a parse of its own from bytes read once.
 *
 *   b = btf__load_vmlinux_btf();   the shared parse (btf__free it), or NULL with errno set
 *   vmlinux_btf_release();         the loads are done: the parse is freed with its last holder
 *                                  (a later call reads and parses the file again)
 */
#ifndef IOWHY_VMLINUX_BTF_H
#define IOWHY_VMLINUX_BTF_H

void vmlinux_btf_release(void);
/* How many times the file was read (or mapped), structs parsed from the bytes kept, and calls
 * answered with the shared parse. */
unsigned vmlinux_btf_reads(void);
unsigned vmlinux_btf_copies(void);
unsigned vmlinux_btf_shares(void);
/* 1 if this libbpf's calls go through its PLT, so that one parse is shared. */
int vmlinux_btf_sharing(void);

#endif
