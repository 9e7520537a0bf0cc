/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols for sampled stacks.
 *   ksyms: the kernel's text symbols from /proc/kallsyms (sorted array, binary search).
 *   elf_syms: the function symbols of one ELF file (.symtab, else .dynsym), its GNU build id, its
 *     loadable segments (file offset -> address) and the libraries it needs (PT_INTERP, DT_NEEDED).
 *   usyms: a set of ELF files indexed by build id, for user stacks recorded as (build id, file
 *     offset) frames: they resolve after the processes are gone.
 */
#ifndef IOWHY_SYMBOLS_H
#define IOWHY_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#define SYMS_BUILD_ID_MAX 20   /* as the kernel's stack maps keep it (BPF_BUILD_ID_SIZE) */

/* One line of /proc/kallsyms ("ADDR TYPE NAME[\t[MODULE]]", len bytes, no newline needed): 1 and
 * *out filled (the name is not NUL-terminated: nlen bytes at name), or 0 for another shape. The
 * address is 0 where the kernel hides them. */
struct kallsyms_line {
	uint64_t addr;
	char type;
	const char *name;
	size_t nlen;
};
int kallsyms_line(const char *line, size_t len, struct kallsyms_line *out);

struct ksyms;
/* Load a kallsyms-format file. NULL if it cannot be read or holds no text symbol. */
struct ksyms *ksyms_load(const char *path);
/* The function containing `addr`, or NULL (below the first symbol, or zero addresses). */
const char *ksyms_name(const struct ksyms *k, uint64_t addr);
size_t ksyms_count(const struct ksyms *k);
void ksyms_free(struct ksyms *k);

struct elf_syms;
/* Read an ELF file's symbols. NULL if it is not a readable ELF file. */
struct elf_syms *elf_syms_load(const char *path);
const char *elf_syms_path(const struct elf_syms *e);
/* The GNU build id (length in *len, 0 if none). */
const unsigned char *elf_syms_build_id(const struct elf_syms *e, size_t *len);
/* The function containing address `vaddr` (link-time address), or NULL. A symbol with a size
 * covers only [value, value + size): addresses in stripped code do not borrow a neighbour's
 * name. */
const char *elf_syms_name_at(const struct elf_syms *e, uint64_t vaddr);
/* The same for a file offset (as build-id stack frames give it), through the PT_LOAD segments. */
const char *elf_syms_name_at_offset(const struct elf_syms *e, uint64_t off);
/* File offset of a function symbol's first byte, or -1 if there is no such symbol. */
int64_t elf_syms_offset_of(const struct elf_syms *e, const char *name);
/* Libraries the file needs: its interpreter (a path) and DT_NEEDED names, in order. */
size_t elf_syms_nneeded(const struct elf_syms *e);
const char *elf_syms_needed(const struct elf_syms *e, size_t i);
void elf_syms_free(struct elf_syms *e);

struct usyms;
struct usyms *usyms_new(void);
/* Add an ELF file and, recursively, the libraries it needs (searched in the usual library
 * directories). Returns the number of files newly added (0: already known or not an ELF file). */
int usyms_add_path(struct usyms *u, const char *path);
/* Add a program by name: a path if it has a '/', else searched in $PATH and the sbin/bin dirs. */
int usyms_add_program(struct usyms *u, const char *name);
size_t usyms_count(const struct usyms *u);
/* Resolve a (build id, file offset) frame: the function name, or NULL. *file (if not NULL) is
 * set to the file's base name when the build id is known, else NULL. */
const char *usyms_resolve(const struct usyms *u, const unsigned char *build_id, uint64_t off,
			  const char **file);
void usyms_free(struct usyms *u);

#endif
