/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's BTF, read once while a session loads its probes.
 *
 * libbpf 1.1 reads and parses /sys/kernel/btf/vmlinux (5.5 MB) for every object it loads, and a
 * session loads four: ~60 ms of CPU each on a VM. vmlinux_btf.c defines btf__load_vmlinux_btf,
 * which libbpf calls through its PLT, so each caller (libbpf's and ours) gets a struct btf of its
 * own, as before, parsed from bytes read once (~24 ms). Where libbpf does not call through the
 * PLT, nothing changes but the time.
 *
 *   b = btf__load_vmlinux_btf();   the caller's own copy (btf__free it), or NULL with errno set
 *   vmlinux_btf_release();         the loads are done: free the bytes kept (a later call reads
 *                                  the file again)
 */
#ifndef IOWHY_VMLINUX_BTF_H
#define IOWHY_VMLINUX_BTF_H

void vmlinux_btf_release(void);
/* How many times the file was read (or mapped), and structs parsed from the bytes kept. */
unsigned vmlinux_btf_reads(void);
unsigned vmlinux_btf_copies(void);

#endif
