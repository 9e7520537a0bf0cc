// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names and groups for this architecture.
 *
 * The number -> name table is generated from <asm/unistd.h> at build time (gen_syscall_names.sh).
 * Groups and the loader set are defined here by NAME and turned into number-indexed tables once,
 * on first use; names the architecture does not have (open, stat, arch_prctl on arm64) are skipped.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "syscalls.h"

static const char *const proc_names[] = {
	"clone", "clone3", "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4",
	"waitid", "kill", "tgkill", "set_tid_address", "set_robust_list", "rseq", "prlimit64",
	"arch_prctl", NULL,
};

static const char *const data_names[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
	"pwritev2", "sendfile", "copy_file_range", "splice", "tee", "fallocate", "ftruncate",
	"truncate", "lseek", "io_uring_enter", "io_submit", "io_getevents", NULL,
};

static const char *const meta_names[] = {
	"open", "openat", "openat2", "creat", "close", "close_range", "stat", "fstat", "lstat",
	"newfstatat", "statx", "access", "faccessat", "faccessat2", "unlink", "unlinkat", "mkdir",
	"mkdirat", "rmdir", "rename", "renameat", "renameat2", "getdents", "getdents64", "link",
	"linkat", "symlink", "symlinkat", "readlink", "readlinkat", "chmod", "fchmod", "fchmodat",
	"chown", "fchown", "fchownat", "lchown", "utimensat", "futimesat", "statfs", "fstatfs",
	"getcwd", "chdir", "fchdir", "fcntl", "dup", "dup2", "dup3", "ioctl", NULL,
};

static const char *const mem_names[] = {
	"mmap", "munmap", "mprotect", "brk", "mremap", "madvise", "mlock", "munlock", NULL,
};

/* msync writes pages back: it is sync, not memory. */
static const char *const sync_names[] = {
	"fsync", "fdatasync", "sync", "syncfs", "sync_file_range", "msync", NULL,
};

static const char *const *const group_members[SG_COUNT] = {
	[SG_PROC] = proc_names, [SG_DATA] = data_names, [SG_META] = meta_names,
	[SG_MEM] = mem_names, [SG_SYNC] = sync_names, [SG_OTHER] = NULL,
};

/* What the dynamic loader calls before main (see model.c: start-up). */
static const char *const loader_names[] = {
	"brk", "arch_prctl", "mmap", "mprotect", "munmap", "openat", "open", "access", "faccessat",
	"newfstatat", "fstat", "read", "pread64", "close", "set_tid_address", "set_robust_list",
	"rseq", "prlimit64", "getrandom", NULL,
};

/* Calls whose positive return value is a byte count (the BPF side sums it for every call). */
static const char *const byte_names[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
	"pwritev2", "sendfile", "copy_file_range", "splice", "tee", "vmsplice", NULL,
};

/* Calls whose first argument is a file descriptor the call may sleep on (I/O wait by device). */
static const char *const fd_first_names[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
	"pwritev2", "fsync", "fdatasync", "syncfs", "sync_file_range", "fallocate", "ftruncate",
	"copy_file_range", "splice", "sendfile", "getdents64", "getdents", "fstat", "fadvise64",
	"readahead", "lseek", "close", "ioctl", "fcntl", "flock", NULL,
};

static const char *const group_names[SG_COUNT] = {
	"process", "file data", "file metadata", "memory", "sync", "other",
};

static const char *const group_keys[SG_COUNT] = {
	"process", "file_data", "file_metadata", "memory", "sync", "other",
};

/* Built once by build_tables(); sized iowhy_syscall_names_len. */
static unsigned char *group_of;     /* nr -> enum sys_group */
static unsigned char *is_loader;    /* nr -> 0/1 */
static unsigned char *returns_bytes; /* nr -> 0/1 */
static unsigned char *fd_first;      /* nr -> 0/1 */
static unsigned *by_name;           /* numbers that have a name, sorted by name */
static unsigned nnamed;

/* "sys_<nr>" for unnamed numbers below this bound, formatted once. */
#define UNNAMED_STATIC IOWHY_NR_SLOTS
static char unnamed[UNNAMED_STATIC][16];

/* Larger unnamed numbers: interned on demand, kept for the program's lifetime. */
struct unnamed_big {
	unsigned nr;
	char name[16];
	struct unnamed_big *next;
};
static struct unnamed_big *unnamed_big;
static pthread_mutex_t unnamed_big_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static const char *table_name(unsigned nr)
{
	return nr < iowhy_syscall_names_len ? iowhy_syscall_names[nr] : NULL;
}

static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(table_name(*(const unsigned *)a), table_name(*(const unsigned *)b));
}

static int lookup_nr(const char *name)
{
	unsigned lo = 0, hi = nnamed;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = strcmp(name, table_name(by_name[mid]));

		if (c == 0)
			return (int)by_name[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static void build_name_index(void)
{
	unsigned nr;

	by_name = calloc(iowhy_syscall_names_len ? iowhy_syscall_names_len : 1, sizeof(*by_name));
	if (!by_name)
		abort();
	for (nr = 0; nr < iowhy_syscall_names_len; nr++)
		if (iowhy_syscall_names[nr])
			by_name[nnamed++] = nr;
	qsort(by_name, nnamed, sizeof(*by_name), cmp_by_name);
}

/* Set table[nr] = value for every name of `names` this architecture has. */
static void mark_names(unsigned char *table, const char *const *names, unsigned char value)
{
	for (; *names; names++) {
		int nr = lookup_nr(*names);

		if (nr >= 0)
			table[nr] = value;
	}
}

static void build_tables(void)
{
	unsigned size = iowhy_syscall_names_len ? iowhy_syscall_names_len : 1;
	unsigned nr;
	int g;

	build_name_index();
	group_of = malloc(size);
	is_loader = calloc(size, 1);
	returns_bytes = calloc(size, 1);
	fd_first = calloc(size, 1);
	if (!group_of || !is_loader || !returns_bytes || !fd_first)
		abort();
	memset(group_of, SG_OTHER, size);
	for (g = 0; g < SG_COUNT; g++)
		if (group_members[g])
			mark_names(group_of, group_members[g], (unsigned char)g);
	mark_names(is_loader, loader_names, 1);
	mark_names(returns_bytes, byte_names, 1);
	mark_names(fd_first, fd_first_names, 1);

	for (nr = 0; nr < UNNAMED_STATIC; nr++)
		if (!table_name(nr))
			snprintf(unnamed[nr], sizeof(unnamed[nr]), "sys_%u", nr);
}

static void init_tables(void)
{
	pthread_once(&tables_once, build_tables);
}

static const char *unnamed_big_name(unsigned nr)
{
	struct unnamed_big *u;

	pthread_mutex_lock(&unnamed_big_lock);
	for (u = unnamed_big; u; u = u->next)
		if (u->nr == nr)
			break;
	if (!u) {
		u = calloc(1, sizeof(*u));
		if (!u)
			abort();
		u->nr = nr;
		snprintf(u->name, sizeof(u->name), "sys_%u", nr);
		u->next = unnamed_big;
		unnamed_big = u;
	}
	pthread_mutex_unlock(&unnamed_big_lock);
	return u->name;
}

const char *syscall_name(unsigned nr)
{
	const char *name;

	if (nr == MODEL_NR_NONE || nr == IOWHY_NR_NONE)
		return "(none)";
	/* The BPF side folds numbers it cannot index into the last slot. */
	if (nr == IOWHY_NR_SLOTS - 1)
		return "(other)";
	name = table_name(nr);
	if (name)
		return name;
	init_tables();
	if (nr < UNNAMED_STATIC)
		return unnamed[nr];
	return unnamed_big_name(nr);
}

int syscall_nr(const char *name)
{
	if (!name)
		return -1;
	init_tables();
	return lookup_nr(name);
}

enum sys_group syscall_group(unsigned nr)
{
	init_tables();
	return nr < iowhy_syscall_names_len ? (enum sys_group)group_of[nr] : SG_OTHER;
}

const char *sys_group_name(enum sys_group g)
{
	return (unsigned)g < SG_COUNT ? group_names[g] : "?";
}

const char *sys_group_key(enum sys_group g)
{
	return (unsigned)g < SG_COUNT ? group_keys[g] : "unknown";
}

bool syscall_is_loader(unsigned nr)
{
	init_tables();
	return nr < iowhy_syscall_names_len && is_loader[nr];
}

bool syscall_returns_bytes(unsigned nr)
{
	init_tables();
	return nr < iowhy_syscall_names_len && returns_bytes[nr];
}

bool syscall_first_arg_fd(unsigned nr)
{
	init_tables();
	return nr < iowhy_syscall_names_len && fd_first[nr];
}

/* The network group: socket syscalls (a daemon asleep in one waits on the network). */
static const char *const network_names[] = {
	"socket", "socketpair", "connect", "accept", "accept4", "bind", "listen", "shutdown",
	"sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "getsockopt",
	"setsockopt", "getsockname", "getpeername", NULL,
};

bool syscall_is_network(unsigned nr)
{
	for (int i = 0; network_names[i]; i++)
		if (syscall_nr(network_names[i]) == (int)nr)
			return true;
	return false;
}
