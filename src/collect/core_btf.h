/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target of libbpf's CO-RE relocations, cut down to the kernel types iowhy's objects relocate
 * against.
 *
 * For each type a relocation starts from, libbpf scans every type of the kernel's BTF (126,622 on
 * 6.18) for candidates of that name, in each object it loads: about a third of a session's start
 * CPU. Here one pass over the kernel's BTF copies the candidates of every root type the objects
 * name (core_roots.c, made at build time from their .BTF.ext by tools/gen_core_roots.c), with the
 * types they embed, into a BTF of a few hundred types, given to libbpf as btf_custom_path (a
 * sealed memfd). Relocations come out the same: a candidate keeps every member, its name, offset
 * and bitfield, and everything it embeds; a pointer member points to void (CO-RE never looks
 * through a pointer for a field: each dereference is a relocation of its own).
 *
 * A root vmlinux lacks is looked for in every module's BTF (/sys/kernel/btf/MODULE, split over
 * vmlinux's), as libbpf does: a distribution kernel has the loop driver, FUSE, ext4 and jbd2 as
 * modules. The whole BTF is used instead (core_btf_open_opts gives no path) when the objects have a
 * relocation that compares types through pointers (core_btf_deep), when a module's BTF cannot be
 * read, when anything here fails, or with IOWHY_TEST_WHOLE_CORE_BTF=1 (tests and benchmarks).
 * Tests: IOWHY_TEST_CORE_BTF_HIDE=name,... hides roots from vmlinux's BTF (as on such a kernel),
 * IOWHY_TEST_CORE_BTF_MODULES=DIR reads the module BTFs from DIR.
 *
 *   X_bpf__open_opts(core_btf_open_opts())   open an object so
 *   core_btf_struct_id("request")            the kernel's BTF id of a root struct (0: none), for
 *                                            bpf_rdonly_cast: type ids are not relocated here
 */
#ifndef IOWHY_CORE_BTF_H
#define IOWHY_CORE_BTF_H

#include <stdint.h>
#include <bpf/libbpf.h>

/* core_roots.c (generated): the root types' names without a "___flavour", sorted */
extern const char *const core_btf_roots[];
extern const unsigned core_btf_nroots;
extern const int core_btf_deep;

/* Open options with btf_custom_path set to the cut-down BTF (NULL: the kernel's whole BTF). The
 * first call makes it; thread-safe. */
const struct bpf_object_open_opts *core_btf_open_opts(void);
/* vmlinux's BTF id of the first struct named `name`, a root type; 0 if none (a module's type has
 * none that bpf_rdonly_cast takes). */
uint32_t core_btf_struct_id(const char *name);

struct core_btf_stats {
	uint32_t types;    /* types in the cut-down BTF; 0: the whole BTF is used */
	uint64_t make_ns;  /* the pass over the kernel's BTF and the copy */
	const char *why;   /* why the whole BTF is used ("" when it is not) */
};
void core_btf_stats(struct core_btf_stats *out);

#endif
