// SPDX-License-Identifier: GPL-2.0
/* Loader of the core probes; see core_probes.h. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "core_probes.h"
#include "reorder.h"
#include "syscalls.h"
#include "iowhy.skel.h"

#define RINGBUF_BYTES (64u << 20)
/* Events wait this long in the reorder buffer: batched transitions are at most a tick (<= 10 ms)
 * plus a consumer poll (20 ms) late. */
#define REORDER_WINDOW_NS (60ull * 1000 * 1000)
#define CAP_PERFMON_ 38
#define CAP_BPF_ 39

static char libbpf_last[512];

/* Keep libbpf quiet (a failed tp_btf probe must not flood the terminal); remember its last warning
 * for the one-line error, print everything with IOWHY_DEBUG=1. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	size_t n;

	if (getenv("IOWHY_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = 0;
	if (n)
		snprintf(libbpf_last, sizeof(libbpf_last), "%s", line);
	return 0;
}

static int has_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};
	unsigned need[] = { CAP_BPF_, CAP_PERFMON_ };

	if (geteuid() == 0)
		return 1;
	if (syscall(SYS_capget, &h, d))
		return 0;
	for (unsigned i = 0; i < 2; i++)
		if (!(d[need[i] / 32].effective & (1u << (need[i] % 32))))
			return 0;
	return 1;
}

/* The programs of one flavour. */
struct prog_ref {
	const char *name;     /* for messages */
	int required;
	struct bpf_program *btf, *raw;
	int tick;             /* the timer probe: attached, syscall transitions can be batched */
};

static int prog_refs(struct iowhy_bpf *s, struct prog_ref *r)
{
	struct prog_ref refs[] = {
		{ "raw_syscalls:sys_enter", 1, s->progs.btf_sys_enter, s->progs.raw_sys_enter, 0 },
		{ "raw_syscalls:sys_exit", 1, s->progs.btf_sys_exit, s->progs.raw_sys_exit, 0 },
		{ "sched:sched_switch", 1, s->progs.btf_sched_switch, s->progs.raw_sched_switch, 0 },
		{ "sched:sched_wakeup", 0, s->progs.btf_sched_wakeup, s->progs.raw_sched_wakeup, 0 },
		{ "sched:sched_wakeup_new", 0, s->progs.btf_sched_wakeup_new,
		  s->progs.raw_sched_wakeup_new, 0 },
		{ "sched:sched_process_fork", 1, s->progs.btf_sched_process_fork,
		  s->progs.raw_sched_process_fork, 0 },
		{ "sched:sched_process_exec", 0, s->progs.btf_sched_process_exec,
		  s->progs.raw_sched_process_exec, 0 },
		{ "timer:hrtimer_expire_entry", 0, s->progs.btf_tick, s->progs.raw_tick, 1 },
	};
	memcpy(r, refs, sizeof(refs));
	return sizeof(refs) / sizeof(refs[0]);
}

/* Ring buffer -> reorder buffer (a batch becomes its STATE events). */
static int handle_event(void *ctx, void *data, size_t size)
{
	struct tracer *t = ctx;
	const struct iowhy_event *e = data;
	const char *comm = NULL;

	if (size < sizeof(*e))
		return 0;
	if (e->type == IOWHY_EV_BATCH) {
		t->dropped += reorder_push_batch(t->order, data, size);
		return 0;
	}
	if (size >= sizeof(struct iowhy_event_comm))
		comm = ((const struct iowhy_event_comm *)data)->comm;
	t->dropped += reorder_push(t->order, e, comm) != 0;
	return 0;
}

/* Reorder buffer -> the consumer, in time order. */
static void deliver(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct tracer *t = ctx;

	t->received++;
	t->on_event(t->ctx, e, comm);
}

/* Open and load one flavour. Returns the skeleton or NULL. */
static struct iowhy_bpf *load_flavour(int use_hash)
{
	struct prog_ref refs[16];
	struct iowhy_bpf *s = iowhy_bpf__open();
	int n;

	if (!s)
		return NULL;
	n = prog_refs(s, refs);
	for (int i = 0; i < n; i++) {
		bpf_program__set_autoload(refs[i].btf, !use_hash);
		bpf_program__set_autoload(refs[i].raw, use_hash);
	}
	s->rodata->use_hash = use_hash;
	bpf_map__set_max_entries(s->maps.events, RINGBUF_BYTES);
	if (iowhy_bpf__load(s)) {
		iowhy_bpf__destroy(s);
		return NULL;
	}
	return s;
}

/* IOWHY_SKIP_PROBES=sched:sched_wakeup,...: treat those as absent (troubleshooting, tests). */
static int skipped_by_user(const char *name)
{
	const char *list = getenv("IOWHY_SKIP_PROBES");
	size_t n = strlen(name);

	for (const char *p = list; p && (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

static int attach_all(struct tracer *t)
{
	struct prog_ref refs[16];
	int n = prog_refs(t->skel, refs);

	for (int i = 0; i < n; i++) {
		struct bpf_program *p = t->use_hash ? refs[i].raw : refs[i].btf;
		struct bpf_link *l = skipped_by_user(refs[i].name) ? NULL : bpf_program__attach(p);

		if (l) {
			t->links[t->nlinks++] = l;
			t->batched |= refs[i].tick;
			continue;
		}
		if (refs[i].required) {
			fprintf(stderr, "iowhy: cannot attach the required tracepoint %s: %s\n",
				refs[i].name, l || !skipped_by_user(refs[i].name) ? strerror(errno)
										    : "skipped by IOWHY_SKIP_PROBES");
			return -1;
		}
		if (t->missing[0])
			strncat(t->missing, ",", sizeof(t->missing) - strlen(t->missing) - 1);
		strncat(t->missing, refs[i].name, sizeof(t->missing) - strlen(t->missing) - 1);
	}
	return 0;
}

/* dev file "MAJ:MIN" of a /sys block entry as the kernel's dev_t (MAJ << 20 | MIN), or 0. */
static __u32 sys_dev(const char *dir)
{
	char path[600], buf[32];
	unsigned maj, min;
	__u32 dev = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dev", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2)
		dev = (maj << 20) | min;
	fclose(f);
	return dev;
}

/* Partitions take their disk's slot (a file's superblock names the partition). */
static void assign_partition_slots(struct tracer *t, int fd)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char dir[300], part[320], link[600], *parent;
		ssize_t n;
		__u32 dev;

		snprintf(dir, sizeof(dir), "/sys/class/block/%.250s", de->d_name);
		snprintf(part, sizeof(part), "%s/partition", dir);
		if (de->d_name[0] == '.' || access(part, F_OK))
			continue;
		n = readlink(dir, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		*strrchr(link, '/') = 0; /* .../block/vda/vda1 -> .../block/vda */
		parent = strrchr(link, '/');
		dev = sys_dev(dir);
		for (__u32 slot = 0; parent && dev && slot < IOWHY_DISK_SLOTS; slot++)
			if (!strcmp(t->disk_names[slot], parent + 1))
				bpf_map_update_elem(fd, &dev, &slot, BPF_ANY);
	}
	closedir(d);
}

/* Mark the syscalls whose first argument is an fd, for the I/O wait by device. */
static void mark_fd_syscalls(struct tracer *t)
{
	int fd = bpf_map__fd(t->skel->maps.fd_syscalls);
	__u8 one = 1;

	for (__u32 nr = 0; nr < IOWHY_NR_SLOTS; nr++)
		if (syscall_first_arg_fd(nr))
			bpf_map_update_elem(fd, &nr, &one, BPF_ANY);
}

/* Give each disk in /sys/block a slot for the I/O wait by device (the first IOWHY_DISK_SLOTS). */
static void assign_disk_slots(struct tracer *t)
{
	int fd = bpf_map__fd(t->skel->maps.disk_slots);
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	__u32 slot = 0;

	if (!d)
		return;
	while ((de = readdir(d)) && slot < IOWHY_DISK_SLOTS) {
		char dir[300];
		__u32 key;

		snprintf(dir, sizeof(dir), "/sys/block/%.250s", de->d_name);
		if (de->d_name[0] == '.' || !(key = sys_dev(dir)))
			continue;
		if (!bpf_map_update_elem(fd, &key, &slot, BPF_ANY))
			snprintf(t->disk_names[slot++], sizeof(t->disk_names[0]), "%.31s", de->d_name);
	}
	closedir(d);
	assign_partition_slots(t, fd);
}

int tracer_open(struct tracer *t, tracer_event_fn fn, void *ctx)
{
	const char *mode = getenv("IOWHY_PROBE_MODE");

	memset(t, 0, sizeof(*t));
	t->on_event = fn;
	t->ctx = ctx;
	libbpf_set_print(libbpf_print);
	if (!has_caps()) {
		fprintf(stderr, "iowhy: tracing needs root or CAP_BPF and CAP_PERFMON (try: sudo iowhy ...)\n");
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "iowhy: no kernel BTF at /sys/kernel/btf/vmlinux: iowhy needs a kernel built "
				"with CONFIG_DEBUG_INFO_BTF\n");
		return -1;
	}
	if (!mode || strcmp(mode, "raw_tp"))
		t->skel = load_flavour(0);
	if (!t->skel) {
		t->use_hash = 1;
		t->skel = load_flavour(1);
	}
	if (!t->skel) {
		fprintf(stderr, "iowhy: cannot load the BPF programs: %s\n",
			libbpf_last[0] ? libbpf_last : strerror(errno));
		return -1;
	}
	if (attach_all(t)) {
		tracer_close(t);
		return -1;
	}
	assign_disk_slots(t);
	mark_fd_syscalls(t);
	t->skel->bss->batch_log = t->batched;
	t->order = calloc(1, sizeof(*t->order));
	if (!t->order) {
		fprintf(stderr, "iowhy: out of memory\n");
		tracer_close(t);
		return -1;
	}
	reorder_init(t->order);
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.events), handle_event, t, NULL);
	if (!t->rb) {
		fprintf(stderr, "iowhy: cannot open the event ring buffer: %s\n", strerror(errno));
		tracer_close(t);
		return -1;
	}
	return 0;
}

void tracer_dontfork_mappings(void)
{
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "re");
	int at_line_start = 1;

	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps)) {
		int whole_line_start = at_line_start;
		unsigned long start, end;

		at_line_start = strchr(line, '\n') != NULL;
		if (whole_line_start && strstr(line, "anon_inode:bpf-map") &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2)
			madvise((void *)start, end - start, MADV_DONTFORK);
	}
	fclose(maps);
}

/* A task's page faults so far (minflt + majflt of /proc/PID/task/TID/stat), 0 if unreadable. */
static __u64 task_faults_now(pid_t pid)
{
	char path[64], line[1024], *p;
	unsigned long long minflt = 0, majflt = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	/* after the comm: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %llu %*u %llu", &minflt, &majflt) != 2)
		return 0;
	return minflt + majflt;
}

int tracer_add_root(struct tracer *t, pid_t pid, int phase, int read_nr)
{
	struct iowhy_task v = {
		.nr = (__u16)read_nr,
		.phase = (__u8)phase,
		.state = IOWHY_TS_SWAIT,
		.count_sys = 0, /* the gate's read started before tracing: not a whole call */
		.flt_base = task_faults_now(pid), /* faults from here on are the workload's */
	};
	int err;

	t->skel->bss->hist_tag = (__u32)phase % IOWHY_MAX_PHASES; /* its syscalls' histograms */
	if (t->use_hash) {
		__u32 key = pid;
		err = bpf_map_update_elem(bpf_map__fd(t->skel->maps.task_hash), &key, &v, BPF_ANY);
	} else {
		int pidfd = syscall(SYS_pidfd_open, pid, 0);

		if (pidfd < 0) {
			fprintf(stderr, "iowhy: pidfd_open(%d): %s\n", pid, strerror(errno));
			return -1;
		}
		err = bpf_map_update_elem(bpf_map__fd(t->skel->maps.task_store), &pidfd, &v, BPF_ANY);
		close(pidfd);
	}
	if (err) {
		fprintf(stderr, "iowhy: cannot add process %d to the traced tree: %s\n", pid, strerror(errno));
		return -1;
	}
	return 0;
}

static uint64_t mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* bpf_ktime_get_ns()'s clock */
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int tracer_drain(struct tracer *t)
{
	uint64_t now = mono_now();
	int n = ring_buffer__consume(t->rb);

	if (n < 0)
		return n;
	return (int)reorder_release(t->order, now > REORDER_WINDOW_NS ? now - REORDER_WINDOW_NS : 0,
				    deliver, t);
}

int tracer_flush(struct tracer *t)
{
	int n = ring_buffer__consume(t->rb);

	if (n < 0)
		return n;
	return (int)reorder_release(t->order, UINT64_MAX, deliver, t);
}

/* Add the per-CPU latency histogram of syscall nr (map sys_hist: the phase being traced) to h. */
static void sum_sys_hist(struct tracer *t, __u32 nr, int ncpu, struct iowhy_sys_hist *percpu,
			 __u32 *h)
{
	if (bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.sys_hist), &nr, percpu))
		return;
	for (int c = 0; c < ncpu; c++)
		for (int k = 0; k < IOWHY_HIST_SLOTS; k++)
			h[k] += percpu[c].b[k];
}

int tracer_sys_stats(struct tracer *t, int phase, struct iowhy_sys_stat *out)
{
	int ncpu = libbpf_num_possible_cpus();
	struct iowhy_sys_counts *percpu;
	struct iowhy_sys_hist *hists;
	int fd = bpf_map__fd(t->skel->maps.sys_stats);

	if (ncpu <= 0)
		return -1;
	percpu = calloc(ncpu, sizeof(*percpu));
	hists = calloc(ncpu, sizeof(*hists));
	if (!percpu || !hists) {
		free(percpu);
		free(hists);
		return -1;
	}
	memset(out, 0, sizeof(*out) * IOWHY_NR_SLOTS);
	for (__u32 nr = 0; nr < IOWHY_NR_SLOTS; nr++) {
		__u32 key = (phase % IOWHY_MAX_PHASES) * IOWHY_NR_SLOTS + nr;

		if (bpf_map_lookup_elem(fd, &key, percpu))
			continue;
		for (int c = 0; c < ncpu; c++) {
			struct iowhy_sys_stat *o = &out[nr];
			struct iowhy_sys_counts *s = &percpu[c];


			o->count += s->count;
			o->total_ns += s->total_ns;
			o->oncpu_ns += s->oncpu_ns;
			o->ret_sum += s->ret_sum;
			if (s->max_ns > o->max_ns)
				o->max_ns = s->max_ns;
		}
		if (out[nr].count)
			sum_sys_hist(t, nr, ncpu, hists, out[nr].hist);
	}
	free(percpu);
	free(hists);
	return 0;
}

void tracer_reset_sys_stats(struct tracer *t, int phase)
{
	int ncpu = libbpf_num_possible_cpus();
	struct iowhy_sys_hist *zero = calloc(ncpu > 0 ? ncpu : 1, sizeof(*zero)); /* the larger */
	int fd = bpf_map__fd(t->skel->maps.sys_stats);

	if (!zero)
		return;
	for (__u32 nr = 0; nr < IOWHY_NR_SLOTS; nr++) {
		__u32 key = (phase % IOWHY_MAX_PHASES) * IOWHY_NR_SLOTS + nr;

		bpf_map_update_elem(fd, &key, zero, BPF_ANY);
		bpf_map_update_elem(bpf_map__fd(t->skel->maps.sys_hist), &nr, zero, BPF_ANY);
	}
	free(zero);
}

void tracer_counters(struct tracer *t, struct iowhy_counters *out)
{
	int ncpu = libbpf_num_possible_cpus();
	struct iowhy_counters *percpu = calloc(ncpu > 0 ? ncpu : 1, sizeof(*percpu));
	__u32 zero = 0;

	memset(out, 0, sizeof(*out));
	if (!percpu)
		return;
	if (!bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.counters), &zero, percpu)) {
		for (int c = 0; c < ncpu; c++) {
			out->events_lost += percpu[c].events_lost;
			out->storage_failed += percpu[c].storage_failed;
			out->nr_folded += percpu[c].nr_folded;
		}
	}
	free(percpu);
}

const char *tracer_mode(const struct tracer *t)
{
	return t->use_hash ? "raw_tp" : "tp_btf";
}

void tracer_close(struct tracer *t)
{
	while (t->nlinks > 0)
		bpf_link__destroy(t->links[--t->nlinks]);
	if (t->rb)
		ring_buffer__free(t->rb);
	t->rb = NULL;
	if (t->order)
		reorder_free(t->order);
	free(t->order);
	t->order = NULL;
	if (t->skel)
		iowhy_bpf__destroy(t->skel);
	t->skel = NULL;
}
