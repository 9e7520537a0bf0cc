// SPDX-License-Identifier: GPL-2.0
/* The running kernel's BTF, read once while a session loads; see vmlinux_btf.h. */
#include <errno.h>
#include <fcntl.h>
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

static void *kept;          /* the bytes of the last read, or NULL */
static __u32 kept_size;
static int kept_mapped;     /* kept is the file mapped (else malloc'd) */
static unsigned reads, copies;

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

/* Replaces libbpf's (the same contract: a struct btf the caller owns, NULL and errno on error).
 * sysfs's file mapped, or else read by libbpf_find_kernel_btf, libbpf's own body of this function
 * (an alias it does not call through the PLT), which also looks in /boot and the like. */
struct btf *btf__load_vmlinux_btf(void)
{
	struct btf *b;
	const void *raw;
	int err = 0;

	pthread_mutex_lock(&lock);
	if (!kept && !map_sysfs())
		reads++;
	if (kept) {
		b = btf__new(kept, kept_size);
		err = b ? 0 : errno;
		copies += b != NULL;
		pthread_mutex_unlock(&lock);
		errno = err;
		return b;
	}
	b = libbpf_find_kernel_btf();
	if (!b) {
		err = errno;
		pthread_mutex_unlock(&lock);
		errno = err;
		return NULL;
	}
	reads++;
	raw = btf__raw_data(b, &kept_size);
	kept = raw ? malloc(kept_size) : NULL;
	kept_mapped = 0;
	if (kept)
		memcpy(kept, raw, kept_size); /* without room, only this caller gets it read */
	pthread_mutex_unlock(&lock);
	return b;
}

void vmlinux_btf_release(void)
{
	pthread_mutex_lock(&lock);
	if (kept_mapped)
		munmap(kept, kept_size);
	else
		free(kept);
	kept = NULL;
	kept_mapped = 0;
	kept_size = 0;
	pthread_mutex_unlock(&lock);
}

unsigned vmlinux_btf_reads(void)
{
	return __atomic_load_n(&reads, __ATOMIC_RELAXED);
}

unsigned vmlinux_btf_copies(void)
{
	return __atomic_load_n(&copies, __ATOMIC_RELAXED);
}
