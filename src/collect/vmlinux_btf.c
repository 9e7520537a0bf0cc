// SPDX-License-Identifier: GPL-2.0
/* The running kernel's BTF, read and parsed once while a session loads; see vmlinux_btf.h. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "vmlinux_btf.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#define SYSFS_VMLINUX "/sys/kernel/btf/vmlinux"

/* The parse handed out to every caller while the loads go on, and how many hold it. */
static struct btf *shared;
static unsigned shared_refs;
/* Parses handed out before a release and still held: freed with their last holder. */
struct retired {
	struct btf *btf;
	unsigned refs;
	struct retired *next;
};
static struct retired *retired;

static void *kept;          /* the bytes of the last read when not shared, or NULL */
static __u32 kept_size;
static int kept_mapped;     /* kept is the file mapped (else malloc'd) */
static unsigned reads, copies, shares;
static int plt = -1;        /* libbpf calls both functions through its PLT (-1: not looked) */

static void (*real_free)(struct btf *);

/* ---- does libbpf call btf__load_vmlinux_btf and btf__free through its PLT? ---- */

struct plt_query {
	int found;  /* libbpf.so seen */
	int slots;  /* bit 0: btf__load_vmlinux_btf, bit 1: btf__free have PLT slots */
};

static int plt_slots(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct plt_query *q = arg;
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Sym) *symtab = NULL;
	const char *strtab = NULL;
	const ElfW(Rela) *rel = NULL;
	size_t relsz = 0;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libbpf.so"))
		return 0;
	q->found = 1;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	if (!dyn)
		return 1;
	/* (glibc has relocated these to addresses; a loader that has not leaves offsets) */
#define ADDR(p) ((p) < info->dlpi_addr ? (p) + info->dlpi_addr : (p))
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			symtab = (const ElfW(Sym) *)ADDR(dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			strtab = (const char *)ADDR(dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_JMPREL)
			rel = (const ElfW(Rela) *)ADDR(dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_PLTRELSZ)
			relsz = dyn->d_un.d_val;
	}
	if (!symtab || !strtab || !rel)
		return 1;
	for (size_t i = 0; i < relsz / sizeof(*rel); i++) {
		const char *name = strtab + symtab[ELF64_R_SYM(rel[i].r_info)].st_name;

		if (!strcmp(name, "btf__load_vmlinux_btf"))
			q->slots |= 1;
		else if (!strcmp(name, "btf__free"))
			q->slots |= 2;
	}
#undef ADDR
	return 1;
}

/*
 * One parse may be shared only if libbpf frees what it got through our btf__free: it calls both
 * functions through its PLT (not built with -Bsymbolic). A libbpf linked statically into iowhy
 * calls its own (the link would have failed on the two definitions): nothing is shared then.
 */
static int libbpf_uses_plt(void)
{
	struct plt_query q = { 0 };

	dl_iterate_phdr(plt_slots, &q);
	real_free = (void (*)(struct btf *))dlsym(RTLD_NEXT, "btf__free");
	return q.found && q.slots == 3 && real_free;
}

/* ---- reading ---- */

/* The kernel's BTF mapped (kernels since 6.16 let sysfs's file be mapped): no read of 5.5 MB,
 * no copy of it. 0, or -1 when it cannot be. */
static int map_sysfs(void)
{
	int fd = open(SYSFS_VMLINUX, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size <= 0 || st.st_size > (off_t)UINT32_MAX) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	kept = p;
	kept_size = (__u32)st.st_size;
	kept_mapped = 1;
	return 0;
}

static void drop_kept(void)
{
	if (kept_mapped)
		munmap(kept, kept_size);
	else
		free(kept);
	kept = NULL;
	kept_mapped = 0;
	kept_size = 0;
}

/* A new parse (the caller's), from the bytes kept or read now; NULL and errno on error. Locked. */
static struct btf *parse(void)
{
	struct btf *b;
	const void *raw;

	if (!kept && !map_sysfs())
		reads++;
	if (kept) {
		b = btf__new(kept, kept_size); /* (libbpf copies the bytes) */
		copies += b != NULL;
		return b;
	}
	/* libbpf's own body of btf__load_vmlinux_btf (an alias it does not call through the
	 * PLT), which also looks in /boot and the like */
	b = libbpf_find_kernel_btf();
	if (!b)
		return NULL;
	reads++;
	raw = btf__raw_data(b, &kept_size);
	kept = raw ? malloc(kept_size) : NULL;
	kept_mapped = 0;
	if (kept)
		memcpy(kept, raw, kept_size); /* without room, only this caller gets it read */
	return b;
}

/*
 * Replaces libbpf's (the same contract: a struct btf the caller frees with btf__free, NULL and
 * errno on error). Every caller gets the one shared parse until vmlinux_btf_release(); libbpf
 * only reads it (type and name lookups, CO-RE candidates), from any thread.
 */
struct btf *btf__load_vmlinux_btf(void)
{
	struct btf *b;
	int err;

	pthread_mutex_lock(&lock);
	if (plt < 0)
		plt = libbpf_uses_plt();
	if (plt && shared) {
		shared_refs++;
		shares++;
		b = shared;
		pthread_mutex_unlock(&lock);
		return b;
	}
	b = parse();
	err = b ? 0 : errno;
	if (b && plt) {
		/* libbpf's one lazily written field (its pointer size, guessed at first use): set
		 * here, under the lock, so that the threads sharing the parse only ever read it */
		btf__pointer_size(b);
		shared = b;
		shared_refs = 1;
		drop_kept(); /* the parse holds a copy of its own */
	}
	pthread_mutex_unlock(&lock);
	errno = err;
	return b;
}

/* Replaces libbpf's: the shared parse loses a holder; everything else is libbpf's to free. */
void btf__free(struct btf *btf)
{
	struct retired **r;

	if (!btf)
		return;
	pthread_mutex_lock(&lock);
	if (plt < 0)
		plt = libbpf_uses_plt();
	if (btf == shared) {
		if (shared_refs)
			shared_refs--;
		pthread_mutex_unlock(&lock);
		return;
	}
	for (r = &retired; *r; r = &(*r)->next) {
		struct retired *x = *r;

		if (x->btf != btf)
			continue;
		if (--x->refs) {
			pthread_mutex_unlock(&lock);
			return;
		}
		*r = x->next;
		free(x);
		break;
	}
	pthread_mutex_unlock(&lock);
	if (real_free)
		real_free(btf);
	else {
		/* (not sharing and dlsym failed: libbpf's own, looked up once more) */
		void (*f)(struct btf *) = (void (*)(struct btf *))dlsym(RTLD_NEXT, "btf__free");

		if (f)
			f(btf);
	}
}

void vmlinux_btf_release(void)
{
	struct btf *free_now = NULL;

	pthread_mutex_lock(&lock);
	drop_kept();
	if (shared && !shared_refs) {
		free_now = shared;
	} else if (shared) {
		struct retired *x = malloc(sizeof(*x));

		if (x) { /* (without room it is never freed: a leak, not a use after free) */
			x->btf = shared;
			x->refs = shared_refs;
			x->next = retired;
			retired = x;
		}
	}
	shared = NULL;
	shared_refs = 0;
	pthread_mutex_unlock(&lock);
	if (free_now && real_free)
		real_free(free_now);
}

unsigned vmlinux_btf_reads(void)
{
	return __atomic_load_n(&reads, __ATOMIC_RELAXED);
}

unsigned vmlinux_btf_copies(void)
{
	return __atomic_load_n(&copies, __ATOMIC_RELAXED);
}

unsigned vmlinux_btf_shares(void)
{
	return __atomic_load_n(&shares, __ATOMIC_RELAXED);
}

int vmlinux_btf_sharing(void)
{
	int p;

	pthread_mutex_lock(&lock);
	if (plt < 0)
		plt = libbpf_uses_plt();
	p = plt;
	pthread_mutex_unlock(&lock);
	return p;
}
