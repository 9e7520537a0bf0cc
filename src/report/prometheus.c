// SPDX-License-Identifier: GPL-2.0
/*
 * The node_exporter textfile collector format (--prometheus FILE), rewritten atomically every
 * interval: a temporary file of ours beside FILE, then renameat(2). Labels are few and bounded:
 * target, bucket (5), group (6), device (at most IV_MAX_DEVS), pid/comm for at most IV_TOP_PROCS
 * processes, cgroup for at most IV_TOP_CGROUPS cgroups and "other".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "interval_out.h"
#include "syscalls.h"
#include "text.h"

static const char *const bucket_keys[WB_COUNT] = { "user", "kernel", "runq", "iowait", "other" };

/* A bucket's label value: under --lite the user bucket holds all on-CPU time (no syscall probes
 * draw the user/kernel line), so it is "on_cpu", never "user". Else "user" and "kernel" are the
 * tracepoint view's CPU outside and inside syscalls (the HELP text says so). */
static const char *bucket_key(const struct interval_sample *s, int k)
{
	return s->lite && k == WB_USER ? "on_cpu" : bucket_keys[k];
}

/* A label value with \, " and newline escaped (Prometheus text format). */
static void label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*v >= 0x20)
			fputc(*v, f);
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One byte counter per cgroup since the start: its read (0) or written (1) bytes. */
static void cgroup_counter(FILE *f, const char *name, const char *help,
			   const struct interval_sample *s, int written)
{
	head(f, name, "counter", help);
	for (int i = 0; i < s->ncg_total; i++) {
		const struct iv_cgroup *c = &s->cg_total[i];

		fprintf(f, "%s{cgroup=\"", name);
		label(f, c->path);
		fprintf(f, "\"} %llu\n",
			(unsigned long long)(written ? c->total_write_bytes : c->total_read_bytes));
	}
}

/* -a / --cgroup: per cgroup since the start, the busiest IV_TOP_CGROUPS by name and the rest as
 * cgroup="other" (a real cgroup's path starts with '/'). */
static void write_cgroups(FILE *f, const struct interval_sample *s)
{
	head(f, "iowhy_cgroup_wall_seconds_total", "counter",
	     "Wall time of each cgroup's tasks since iowhy started, by the state the busiest of them "
	     "was in (the cgroup's own wall view; the busiest 10 cgroups, the rest summed as other).");
	for (int i = 0; i < s->ncg_total; i++) {
		for (int k = 0; k < WB_COUNT; k++) {
			fprintf(f, "iowhy_cgroup_wall_seconds_total{cgroup=\"");
			label(f, s->cg_total[i].path);
			fprintf(f, "\",bucket=\"%s\"} %.9f\n", bucket_key(s, k),
				s->cg_total[i].total_bucket_ns[k] / 1e9);
		}
	}
	if (s->lite)
		return;
	cgroup_counter(f, "iowhy_cgroup_read_bytes_total",
		       "Bytes the cgroup's processes read with syscalls since iowhy started.", s, 0);
	cgroup_counter(f, "iowhy_cgroup_write_bytes_total",
		       "Bytes the cgroup's processes wrote with syscalls since iowhy started.", s, 1);
}

static void write_metrics(FILE *f, const struct interval_sample *s)
{
	head(f, "iowhy_wall_seconds_total", "counter",
	     "Wall time of the target since iowhy started, by the state it was in (buckets add up; "
	     "user and kernel: CPU outside and inside the syscall tracepoints, on_cpu under --lite).");
	for (int k = 0; k < WB_COUNT; k++) {
		fprintf(f, "iowhy_wall_seconds_total{target=\"");
		label(f, s->target);
		fprintf(f, "\",bucket=\"%s\"} %.9f\n", bucket_key(s, k), s->total_bucket_ns[k] / 1e9);
	}
	if (!s->lite) {
		head(f, "iowhy_kernel_seconds_total", "counter",
		     "Wall time the target spent in the kernel, by syscall group.");
		for (int k = 0; k < SG_COUNT; k++) {
			fprintf(f, "iowhy_kernel_seconds_total{target=\"");
			label(f, s->target);
			fprintf(f, "\",group=\"%s\"} %.9f\n", sys_group_key((enum sys_group)k),
				s->total_kernel_group_ns[k] / 1e9);
		}
	}
	if (s->split.sampled) {
		static const char *const mode[2] = { "user", "kernel" };
		double v[2] = { s->total_user_ns, s->total_kernel_ns };

		head(f, "iowhy_cpu_seconds_total", "counter",
		     "On-CPU time of the target since iowhy started: user code and kernel (in and "
		     "outside system calls), split by CPU samples: each interval's estimate, summed.");
		for (int k = 0; k < 2; k++) {
			fprintf(f, "iowhy_cpu_seconds_total{target=\"");
			label(f, s->target);
			fprintf(f, "\",mode=\"%s\"} %.9f\n", mode[k], v[k] / 1e9);
		}
		head(f, "iowhy_cpu_split_error_seconds", "gauge",
		     "Standard error of iowhy_cpu_seconds_total's user and kernel figures (the same for "
		     "both: they add up to the measured on-CPU time).");
		fprintf(f, "iowhy_cpu_split_error_seconds{target=\"");
		label(f, s->target);
		fprintf(f, "\"} %.9f\n", s->total_split_err_ns / 1e9);
	}
	head(f, "iowhy_interval_wall_ratio", "gauge",
	     "Share of the last interval's wall time in each state.");
	for (int k = 0; k < WB_COUNT; k++) {
		uint64_t len = s->end_ns - s->start_ns;

		fprintf(f, "iowhy_interval_wall_ratio{target=\"");
		label(f, s->target);
		fprintf(f, "\",bucket=\"%s\"} %.6f\n", bucket_key(s, k),
			len ? (double)s->bucket_ns[k] / (double)len : 0.0);
	}
	head(f, "iowhy_device_iops", "gauge", "Requests per second completed in the last interval.");
	for (int i = 0; i < s->ndevs; i++)
		fprintf(f, "iowhy_device_iops{device=\"%s\"} %.3f\n", s->devs[i].name, s->devs[i].iops);
	head(f, "iowhy_device_bytes_per_second", "gauge", "Bytes per second in the last interval.");
	for (int i = 0; i < s->ndevs; i++)
		fprintf(f, "iowhy_device_bytes_per_second{device=\"%s\"} %.0f\n", s->devs[i].name,
			s->devs[i].mib_s * 1048576.0);
	head(f, "iowhy_device_busy_ratio", "gauge", "Share of the last interval the device was busy.");
	for (int i = 0; i < s->ndevs; i++)
		fprintf(f, "iowhy_device_busy_ratio{device=\"%s\"} %.6f\n", s->devs[i].name,
			s->devs[i].busy_pct / 100.0);
	head(f, "iowhy_device_queue_depth", "gauge", "Mean requests queued in the last interval.");
	for (int i = 0; i < s->ndevs; i++)
		fprintf(f, "iowhy_device_queue_depth{device=\"%s\"} %.3f\n", s->devs[i].name,
			s->devs[i].queue_depth);
	head(f, "iowhy_device_p99_seconds", "gauge",
	     "99th percentile device time of traced requests in the last interval.");
	for (int i = 0; i < s->ndevs; i++)
		if (s->devs[i].p99_ns)
			fprintf(f, "iowhy_device_p99_seconds{device=\"%s\"} %.9f\n", s->devs[i].name,
				s->devs[i].p99_ns / 1e9);
	head(f, "iowhy_dirty_bytes", "gauge", "Dirty page-cache bytes (/proc/meminfo Dirty).");
	fprintf(f, "iowhy_dirty_bytes %llu\n", (unsigned long long)s->dirty_bytes);
	head(f, "iowhy_writeback_bytes", "gauge", "Page-cache bytes under writeback.");
	fprintf(f, "iowhy_writeback_bytes %llu\n", (unsigned long long)s->writeback_bytes);
	if (!s->lite) {
		head(f, "iowhy_slowest_call_seconds", "gauge",
		     "The slowest syscall that ended in the last interval.");
		fprintf(f, "iowhy_slowest_call_seconds{target=\"");
		label(f, s->target);
		fprintf(f, "\"} %.9f\n", s->slowest.ns / 1e9);
	}
	if (s->nprocs) {
		head(f, "iowhy_process_busy_ratio", "gauge",
		     "The busiest processes of the last interval: share of their time on CPU, "
		     "runnable or in I/O wait.");
		for (int i = 0; i < s->nprocs; i++) {
			const struct iv_proc *p = &s->procs[i];
			uint64_t busy = p->bucket_ns[WB_USER] + p->bucket_ns[WB_KERNEL] +
					p->bucket_ns[WB_RUNQ] + p->bucket_ns[WB_IOWAIT];

			fprintf(f, "iowhy_process_busy_ratio{pid=\"%u\",comm=\"", p->pid);
			label(f, p->comm);
			fprintf(f, "\"} %.6f\n", p->ns ? (double)busy / (double)p->ns : 0.0);
		}
	}
	if (s->ncg_total)
		write_cgroups(f, s);
	head(f, "iowhy_last_interval_timestamp_seconds", "gauge",
	     "When the last interval ended (Unix time).");
	fprintf(f, "iowhy_last_interval_timestamp_seconds %.3f\n", s->unix_time);
}

/* A new file beside FILE (in the directory dfd) that only we can have made: a random name,
 * O_EXCL|O_NOFOLLOW. Nothing already there is opened, written or removed. */
static int open_temp(int dfd, const char *base, char *tmp, size_t size)
{
	for (int tries = 0; tries < 64; tries++) {
		unsigned int r;
		int fd;

		if (getentropy(&r, sizeof(r)))
			r = (unsigned int)getpid() * 2654435761u + (unsigned int)tries;
		if (snprintf(tmp, size, ".%s.iowhy-%08x", base, r) >= (int)size) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Replace FILE atomically: write a temporary file of ours in FILE's directory, fsync it, then
 * renameat(2) over FILE's name. A symlink at FILE is replaced, never written through; on any
 * failure only our temporary file is removed. */
int prometheus_write(const char *path, const struct interval_sample *s)
{
	char dir[4096], tmp[4200];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	FILE *f;
	int dfd, fd, err;

	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		errno = EISDIR;
		return -1;
	}
	path_dir(path, dir, sizeof(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	fd = open_temp(dfd, base, tmp, sizeof(tmp));
	if (fd < 0) {
		err = errno;
		close(dfd);
		errno = err;
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		goto fail;
	}
	write_metrics(f, s);
	if (fflush(f) || ferror(f) || fsync(fd)) {
		err = errno;
		fclose(f);
		goto fail;
	}
	if (fclose(f) || renameat(dfd, tmp, dfd, base)) {
		err = errno;
		goto fail;
	}
	close(dfd);
	return 0;
fail: /* only our temporary file is removed */
	unlinkat(dfd, tmp, 0);
	close(dfd);
	errno = err;
	return -1;
}
