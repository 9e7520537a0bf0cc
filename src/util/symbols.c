// SPDX-License-Identifier: GPL-2.0
/* Kernel and ELF symbols for sampled stacks. See symbols.h. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "symbols.h"

struct sym {
	uint64_t addr, size;   /* size 0: unknown (up to the next symbol) */
	char *name;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Index of the last symbol at or below addr, or -1. */
static long sym_floor(const struct sym *s, size_t n, uint64_t addr)
{
	long lo = 0, hi = (long)n - 1, best = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= addr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}

/* Append a symbol to a growing array. Returns 0, or -1 out of memory. */
static int sym_push(struct sym **s, size_t *n, size_t *cap, uint64_t addr, uint64_t size,
		    const char *name)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct sym *ns = realloc(*s, nc * sizeof(*ns));

		if (!ns)
			return -1;
		*s = ns;
		*cap = nc;
	}
	(*s)[*n].name = strdup(name);
	if (!(*s)[*n].name)
		return -1;
	(*s)[*n].addr = addr;
	(*s)[*n].size = size;
	(*n)++;
	return 0;
}

static void syms_free(struct sym *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

/* ---- kernel ---- */

/*
 * /proc/kallsyms is read whole into one buffer and parsed in place: a name is a pointer into it,
 * not a copy each (~120,000 text symbols, ~5.5 MB). The buffer and the table are mapped memory
 * made present in one call (MADV_POPULATE_WRITE), not page by page: where a page fault is dear
 * (a PVM guest, ~16 us each) the strdup-per-symbol reading took ~2,200 faults.
 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; without it the pages fault in as used */
#endif

struct ksym {
	uint64_t addr;
	const char *name;
};

struct ksyms {
	char *text;            /* the file, names NUL-terminated in place */
	size_t text_cap;
	struct ksym *s;
	size_t n, s_cap;
};

static void *present_map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, len, MADV_POPULATE_WRITE);
	return p;
}

/* The whole file into k->text (NUL-terminated). The mapping is reserved large and made present
 * a window at a time, ahead of each read: only what the file fills is resident. 0, or -1. */
#define KSYMS_WINDOW (1u << 20)
static int read_all(struct ksyms *k, int fd)
{
	size_t len = 0, present = 0;

	k->text_cap = 16u << 20;
	k->text = mmap(NULL, k->text_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	if (k->text == MAP_FAILED) {
		k->text = NULL;
		return -1;
	}
	for (;;) {
		ssize_t r;

		if (k->text_cap - len < 65536) {
			void *p = mremap(k->text, k->text_cap, k->text_cap * 2, MREMAP_MAYMOVE);

			if (p == MAP_FAILED)
				return -1;
			k->text = p;
			k->text_cap *= 2;
		}
		if (len + 65536 > present && present < k->text_cap) {
			size_t w = k->text_cap - present < KSYMS_WINDOW ? k->text_cap - present :
									 KSYMS_WINDOW;

			madvise(k->text + present, w, MADV_POPULATE_WRITE);
			present += w;
		}
		r = read(fd, k->text + len, (present > len + 1 ? present : k->text_cap) - len - 1);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		len += (size_t)r;
	}
	k->text[len] = '\0';
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int kallsyms_line(const char *line, size_t len, struct kallsyms_line *out)
{
	const char *end = line + len, *p = line, *name;
	uint64_t addr = 0;
	int h;

	while (p < end && (h = hexval(*p)) >= 0) {
		addr = addr << 4 | (uint64_t)h;
		p++;
	}
	if (p == line || end - p < 4 || p[0] != ' ' || p[2] != ' ') /* "ADDR T NAME" */
		return 0;
	out->addr = addr;
	out->type = p[1];
	name = p + 3;
	for (p = name; p < end && *p != '\t' && *p != ' ' && *p != '\n'; p++)
		;
	out->name = name;
	out->nlen = (size_t)(p - name);
	return 1;
}

/* One line at *p. Text symbols (t T w W) with a nonzero address are added, their name cut in
 * place (the tab, space or newline after it becomes its end). *p moves to the next line. */
static void parse_line(struct ksyms *k, char **p)
{
	char *line = *p, *nl = strchr(line, '\n');
	size_t len = nl ? (size_t)(nl - line) : strlen(line);
	struct kallsyms_line e;

	*p = nl ? nl + 1 : line + len;
	if (!kallsyms_line(line, len, &e) || !e.addr || !e.nlen || k->n >= k->s_cap ||
	    (e.type != 't' && e.type != 'T' && e.type != 'w' && e.type != 'W'))
		return;
	k->s[k->n].addr = e.addr;
	k->s[k->n++].name = e.name;
	line[e.name - line + e.nlen] = '\0';
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct ksyms *ksyms_load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct ksyms *k = calloc(1, sizeof(*k));
	size_t lines = 1;
	int sorted = 1;
	char *p;

	if (fd < 0 || !k || read_all(k, fd)) {
		if (fd >= 0)
			close(fd);
		ksyms_free(k);
		return NULL;
	}
	close(fd);
	for (p = k->text; (p = strchr(p, '\n')); p++)
		lines++;
	k->s_cap = lines;
	k->s = present_map(k->s_cap * sizeof(*k->s));
	if (!k->s) {
		ksyms_free(k);
		return NULL;
	}
	for (p = k->text; *p;)
		parse_line(k, &p);
	if (!k->n) {
		ksyms_free(k);
		return NULL;
	}
	for (size_t i = 1; i < k->n && sorted; i++)
		sorted = k->s[i - 1].addr <= k->s[i].addr;
	if (!sorted) /* the modules follow the kernel's own symbols, in their own order */
		qsort(k->s, k->n, sizeof(*k->s), cmp_ksym);
	return k;
}

const char *ksyms_name(const struct ksyms *k, uint64_t addr)
{
	long lo = 0, hi, best = -1;

	if (!k)
		return NULL;
	hi = (long)k->n - 1;
	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= addr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best < 0 ? NULL : k->s[best].name;
}

size_t ksyms_count(const struct ksyms *k)
{
	return k ? k->n : 0;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	if (k->s)
		munmap(k->s, k->s_cap * sizeof(*k->s));
	if (k->text)
		munmap(k->text, k->text_cap);
	free(k);
}

/* ---- one ELF file ---- */

struct seg {
	uint64_t off, vaddr, filesz;
};

struct elf_syms {
	char *path;
	struct sym *s;
	size_t n;
	unsigned char build_id[SYMS_BUILD_ID_MAX];
	size_t build_id_len;
	struct seg segs[16];
	size_t nsegs;
	char *needed[32];
	size_t nneeded;
	int has_symtab;         /* symbols from .symtab (else .dynsym: exported functions only) */
};

/* Function symbols of one symbol table section. */
static void read_symtab(struct elf_syms *e, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, size_t *cap)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; d && i < count; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !sym.st_value ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (name && *name)
			sym_push(&e->s, &e->n, cap, sym.st_value, sym.st_size, name);
	}
}

/* The GNU build id from a note section. */
static void read_build_id(struct elf_syms *e, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)d->d_buf + name_off, "GNU", 4)) {
			e->build_id_len = nh.n_descsz < SYMS_BUILD_ID_MAX ? nh.n_descsz
									  : SYMS_BUILD_ID_MAX;
			memcpy(e->build_id, (char *)d->d_buf + desc_off, e->build_id_len);
			return;
		}
	}
}

/* DT_NEEDED names of the dynamic section. */
static void read_needed(struct elf_syms *e, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; d && i < count && e->nneeded < 32; i++) {
		GElf_Dyn dyn;
		const char *name;

		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
			continue;
		name = elf_strptr(elf, sh->sh_link, dyn.d_un.d_val);
		if (name)
			e->needed[e->nneeded++] = strdup(name);
	}
}

/* Loadable segments and the interpreter, from the program headers. */
static void read_phdrs(struct elf_syms *e, Elf *elf, int fd)
{
	size_t n = 0;

	if (elf_getphdrnum(elf, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD && e->nsegs < 16) {
			e->segs[e->nsegs++] = (struct seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
		} else if (ph.p_type == PT_INTERP && ph.p_filesz < 4096 && e->nneeded < 32) {
			char buf[4096];

			if (pread(fd, buf, ph.p_filesz, ph.p_offset) == (ssize_t)ph.p_filesz) {
				buf[ph.p_filesz ? ph.p_filesz - 1 : 0] = 0;
				e->needed[e->nneeded++] = strdup(buf);
			}
		}
	}
}

/* Walk the sections: symbols, build id, needed libraries. */
static void read_sections(struct elf_syms *e, Elf *elf)
{
	Elf_Scn *scn = NULL, *dynsym = NULL;
	GElf_Shdr sh, dsh;
	size_t cap = 0;
	int have_symtab = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			read_symtab(e, elf, scn, &sh, &cap);
			have_symtab = 1;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dsh = sh;
		} else if (sh.sh_type == SHT_NOTE && !e->build_id_len) {
			read_build_id(e, scn);
		} else if (sh.sh_type == SHT_DYNAMIC) {
			read_needed(e, elf, scn, &sh);
		}
	}
	if (!have_symtab && dynsym)
		read_symtab(e, elf, dynsym, &dsh, &cap);
	e->has_symtab = have_symtab;
}

struct elf_syms *elf_syms_load(const char *path)
{
	struct elf_syms *e;
	int fd;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	e = calloc(1, sizeof(*e));
	if (!elf || elf_kind(elf) != ELF_K_ELF || !e) {
		if (elf)
			elf_end(elf);
		close(fd);
		free(e);
		return NULL;
	}
	e->path = strdup(path);
	read_phdrs(e, elf, fd);
	read_sections(e, elf);
	elf_end(elf);
	close(fd);
	if (e->n)
		qsort(e->s, e->n, sizeof(*e->s), cmp_sym);
	return e;
}

const char *elf_syms_path(const struct elf_syms *e)
{
	return e->path;
}

const unsigned char *elf_syms_build_id(const struct elf_syms *e, size_t *len)
{
	*len = e->build_id_len;
	return e->build_id;
}

const char *elf_syms_name_at(const struct elf_syms *e, uint64_t vaddr)
{
	long i = sym_floor(e->s, e->n, vaddr);

	/* several symbols may share an address; any one that covers vaddr will do */
	for (; i >= 0 && e->s[i].addr <= vaddr; i--) {
		if (!e->s[i].size || vaddr < e->s[i].addr + e->s[i].size)
			return e->s[i].name;
		if (i > 0 && e->s[i - 1].addr != e->s[i].addr)
			break;
	}
	return NULL;
}

const char *elf_syms_name_at_offset(const struct elf_syms *e, uint64_t off)
{
	for (size_t i = 0; i < e->nsegs; i++) {
		const struct seg *s = &e->segs[i];

		if (off >= s->off && off < s->off + s->filesz)
			return elf_syms_name_at(e, off - s->off + s->vaddr);
	}
	return NULL;
}

int64_t elf_syms_offset_of(const struct elf_syms *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++) {
		if (strcmp(e->s[i].name, name))
			continue;
		for (size_t j = 0; j < e->nsegs; j++) {
			const struct seg *s = &e->segs[j];

			if (e->s[i].addr >= s->vaddr && e->s[i].addr < s->vaddr + s->filesz)
				return (int64_t)(e->s[i].addr - s->vaddr + s->off);
		}
	}
	return -1;
}

size_t elf_syms_nneeded(const struct elf_syms *e)
{
	return e->nneeded;
}

const char *elf_syms_needed(const struct elf_syms *e, size_t i)
{
	return i < e->nneeded ? e->needed[i] : NULL;
}

void elf_syms_free(struct elf_syms *e)
{
	if (!e)
		return;
	syms_free(e->s, e->n);
	for (size_t i = 0; i < e->nneeded; i++)
		free(e->needed[i]);
	free(e->path);
	free(e);
}

/* ---- a set of ELF files by build id ---- */

#define USYMS_MAX 256

struct usyms {
	struct elf_syms *f[USYMS_MAX];
	size_t n;
	char *seen[USYMS_MAX * 2];  /* real paths tried, loaded or not */
	size_t nseen;
};

struct usyms *usyms_new(void)
{
	return calloc(1, sizeof(struct usyms));
}

static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib",
};

/* Remember a real path; returns 1 if it was new. */
static int mark_seen(struct usyms *u, const char *real)
{
	for (size_t i = 0; i < u->nseen; i++)
		if (!strcmp(u->seen[i], real))
			return 0;
	if (u->nseen < USYMS_MAX * 2)
		u->seen[u->nseen++] = strdup(real);
	return 1;
}

/*
 * A stripped file's full symbol table from its separate debug file, found by build id
 * (/usr/lib/debug/.build-id/xx/yyyy.debug, as Debian's -dbg/-dbgsym packages install them; the
 * addresses are the same).
 */
static void add_debug_symbols(struct elf_syms *e)
{
	char path[128];
	struct elf_syms *d;
	int n;

	if (e->has_symtab || e->build_id_len < 2)
		return;
	n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", e->build_id[0]);
	for (size_t i = 1; i < e->build_id_len; i++)
		n += snprintf(path + n, sizeof(path) - n, "%02x", e->build_id[i]);
	snprintf(path + n, sizeof(path) - n, ".debug");
	d = elf_syms_load(path);
	if (d && d->has_symtab && d->n) {
		struct sym *t = e->s;
		size_t tn = e->n;

		e->s = d->s;
		e->n = d->n;
		e->has_symtab = 1;
		d->s = t;
		d->n = tn;
	}
	elf_syms_free(d);
}

int usyms_add_path(struct usyms *u, const char *path)
{
	char real[4096], lib[4096];
	struct elf_syms *e;
	int added = 0;

	if (!realpath(path, real) || !mark_seen(u, real) || u->n >= USYMS_MAX)
		return 0;
	e = elf_syms_load(real);
	if (!e)
		return 0;
	if (!e->build_id_len) {
		elf_syms_free(e);
		return 0;
	}
	add_debug_symbols(e);
	u->f[u->n++] = e;
	added = 1;
	for (size_t i = 0; i < e->nneeded; i++) {
		const char *need = e->needed[i];

		if (strchr(need, '/')) {
			added += usyms_add_path(u, need);
			continue;
		}
		for (size_t d = 0; d < sizeof(lib_dirs) / sizeof(lib_dirs[0]); d++) {
			snprintf(lib, sizeof(lib), "%s/%s", lib_dirs[d], need);
			if (!access(lib, R_OK)) {
				added += usyms_add_path(u, lib);
				break;
			}
		}
	}
	return added;
}

int usyms_add_program(struct usyms *u, const char *name)
{
	const char *env = getenv("PATH");
	char path[4096], dirs[8192];

	if (!name || !*name)
		return 0;
	if (strchr(name, '/'))
		return usyms_add_path(u, name);
	snprintf(dirs, sizeof(dirs), "%s:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
		 "/bin", env ? env : "");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", d, name);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111))
			return usyms_add_path(u, path);
	}
	return 0;
}

size_t usyms_count(const struct usyms *u)
{
	return u ? u->n : 0;
}

const char *usyms_resolve(const struct usyms *u, const unsigned char *build_id, uint64_t off,
			  const char **file)
{
	if (file)
		*file = NULL;
	for (size_t i = 0; u && i < u->n; i++) {
		const struct elf_syms *e = u->f[i];
		const char *slash;

		if (memcmp(e->build_id, build_id, e->build_id_len))
			continue;
		if (file) {
			slash = strrchr(e->path, '/');
			*file = slash ? slash + 1 : e->path;
		}
		return elf_syms_name_at_offset(e, off);
	}
	return NULL;
}

void usyms_free(struct usyms *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++)
		elf_syms_free(u->f[i]);
	for (size_t i = 0; i < u->nseen; i++)
		free(u->seen[i]);
	free(u);
}
