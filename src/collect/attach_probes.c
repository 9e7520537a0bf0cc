// SPDX-License-Identifier: GPL-2.0
/* Seeding running tasks into the tree, per-process bytes (see attach_probes.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "attach_probes.h"
#include "core_probes.h"
#include "iowhy.skel.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
#define PF_KTHREAD_ 0x00200000u

/* Read a small /proc file into buf (NUL-terminated). Length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -1;
	buf[r] = 0;
	return r;
}

/* Parse /proc/TGID/task/TID/stat: comm, state letter, flags. 0, or -1. */
static int read_stat(pid_t tgid, pid_t tid, char *comm, char *state, unsigned *flags)
{
	char path[64], buf[1024], *open_p, *close_p;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", tgid, tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p)
		return -1;
	len = (size_t)(close_p - open_p - 1);
	if (len > IOWHY_COMM_LEN - 1)
		len = IOWHY_COMM_LEN - 1;
	memcpy(comm, open_p + 1, len);
	comm[len] = 0;
	/* after the comm: state ppid pgrp session tty_nr tpgid flags */
	if (sscanf(close_p + 1, " %c %*d %*d %*d %*d %*d %u", state, flags) != 2)
		return -1;
	return 0;
}

int seed_is_kthread(pid_t pid)
{
	char comm[IOWHY_COMM_LEN], st;
	unsigned flags;

	if (read_stat(pid, pid, comm, &st, &flags))
		return -1;
	return (flags & PF_KTHREAD_) != 0;
}

/* The syscall task tid sleeps in (/proc/.../syscall: "NR args...", "-1 ..." outside one,
 * "running" while on CPU): its number, IOWHY_NR_NONE, or -2 for running. */
static int read_syscall(pid_t tgid, pid_t tid)
{
	char path[64], buf[256];
	long nr;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", tgid, tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return IOWHY_NR_NONE;
	if (!strncmp(buf, "running", 7))
		return -2;
	if (sscanf(buf, "%ld", &nr) != 1 || nr < 0)
		return IOWHY_NR_NONE;
	return nr < IOWHY_NR_SLOTS ? (int)nr : IOWHY_NR_SLOTS - 1;
}

int seed_read_task(pid_t tgid, pid_t tid, struct seed_task *out)
{
	unsigned flags;
	char st;
	int nr;

	memset(out, 0, sizeof(*out));
	out->tid = tid;
	out->tgid = tgid;
	if (read_stat(tgid, tid, out->comm, &st, &flags))
		return -1;
	out->kthread = (flags & PF_KTHREAD_) != 0;
	nr = out->kthread ? IOWHY_NR_NONE : read_syscall(tgid, tid);
	out->nr = nr >= 0 ? (uint16_t)nr : IOWHY_NR_NONE;
	switch (st) {
	case 'R':
		/* on CPU ("running"), else waiting for one */
		out->state = nr == -2 ? IOWHY_TS_USER : IOWHY_TS_RUNQ;
		break;
	case 'D':
		out->state = IOWHY_TS_DWAIT;
		break;
	case 'X':
	case 'Z':
		return -1;
	default: /* S, I (idle kernel threads), T, t, P */
		out->state = IOWHY_TS_SWAIT;
		break;
	}
	return 0;
}

/* A task's page faults so far (minflt + majflt), 0 if unreadable. */
static __u64 faults_of(pid_t tgid, pid_t tid)
{
	char path[64], buf[1024], *p;
	unsigned long long minflt = 0, majflt = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", tgid, tid);
	if (read_small(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return 0;
	if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %llu %*u %llu", &minflt, &majflt) != 2)
		return 0;
	return minflt + majflt;
}

int core_probes_seed(struct core_probes *c, const struct seed_task *t, int phase, int lite)
{
	struct iowhy_task v = {
		.nr = lite ? IOWHY_NR_NONE : t->nr,
		.phase = (__u8)phase,
		.state = (__u8)t->state,
		.count_sys = 0, /* a call in progress at attach is not a whole call */
		.flt_base = faults_of(t->tgid, t->tid),
	};
	int err, saved, pidfd;

	if (c->use_hash) {
		__u32 key = (__u32)t->tid;

		if (kill(t->tid, 0) && errno == ESRCH)
			return -1;
		return bpf_map_update_elem(bpf_map__fd(c->skel->maps.task_hash), &key, &v, BPF_ANY);
	}
	pidfd = syscall(SYS_pidfd_open, t->tid, t->tid == t->tgid ? 0 : PIDFD_THREAD);
	if (pidfd < 0)
		return -1;
	err = bpf_map_update_elem(bpf_map__fd(c->skel->maps.task_store), &pidfd, &v, BPF_ANY);
	saved = errno;
	close(pidfd);
	errno = saved;
	return err ? -1 : 0;
}

int core_probes_is_member(struct core_probes *c, pid_t tid)
{
	struct iowhy_task v;
	int pidfd, err;

	if (c->use_hash) {
		__u32 key = (__u32)tid;

		return !bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.task_hash), &key, &v);
	}
	pidfd = syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (pidfd < 0)
		return 0;
	err = bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.task_store), &pidfd, &v);
	close(pidfd);
	return !err;
}

void core_probes_forget_running(struct core_probes *c)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t size = (bpf_map__value_size(c->skel->maps.cpu_task) + 7) & ~(size_t)7;
	void *zero = calloc(ncpu > 0 ? ncpu : 1, size); /* per-CPU values: 8-byte aligned each */
	__u32 key = 0;

	if (!zero)
		return;
	bpf_map_update_elem(bpf_map__fd(c->skel->maps.cpu_task), &key, zero, BPF_ANY);
	free(zero);
}

int core_probes_proc_io(struct core_probes *c, struct proc_io_row **rows)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(c->skel->maps.proc_io), n = 0, cap = 0;
	struct iowhy_proc_io *pc = calloc(ncpu > 0 ? ncpu : 1, sizeof(*pc));
	struct proc_io_row *out = NULL;
	__u32 key, next, *prev = NULL;

	*rows = NULL;
	if (!pc)
		return -1;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, pc))
			continue;
		if (n == cap) {
			struct proc_io_row *r = realloc(out, (cap ? 2 * cap : 64) * sizeof(*r));

			if (!r)
				break;
			out = r;
			cap = cap ? 2 * cap : 64;
		}
		memset(&out[n], 0, sizeof(out[n]));
		out[n].tgid = key;
		for (int i = 0; i < ncpu; i++) {
			out[n].read_bytes += pc[i].read_bytes;
			out[n].write_bytes += pc[i].write_bytes;
			out[n].reads += pc[i].reads;
			out[n].writes += pc[i].writes;
		}
		n++;
	}
	free(pc);
	*rows = out;
	return n;
}
