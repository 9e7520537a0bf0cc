// SPDX-License-Identifier: GPL-2.0
/* Loader of the core probes; see core_probes.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "core_btf.h"
#include "core_probes.h"
#include "calibrate.h"
#include "clock.h"
#include "reorder.h"
#include "sysblock.h"
#include "syscalls.h"
#include "units.h"
#include "bpf_features.h"
#include "iowhy.skel.h"
#include "tree_maps.skel.h"

/*
 * The event rings (event_rings.h, one per possible CPU) are sized, not preallocated at the maximum:
 * their pages are allocated when they are made and mapped twice into this process (so they count
 * twice in the RSS). Each must hold what its CPU can write while the consumer is away. The densest
 * stream is a task making null syscalls: ~0.4 us per traced call, 2 transitions of ~19 bytes each
 * in batches (48 unbatched), i.e. ~100 MB/s per CPU batched. The consumer drains every 20 ms, every
 * 1 ms while a ring is more than RINGBUF_HURRY full (core_probes_poll_ms): 8 MiB holds ~80 ms of
 * that (event_ring_bytes; IOWHY_RINGBUF_MB, a power of two 1-1024, sets each ring's size).
 */
#define RINGBUF_HURRY 8 /* poll fast above 1/8 full */
#define POLL_MS 20
#define POLL_HURRY_MS 1
/*
 * Events wait this long in the reorder buffer. A release goes up to a window before the time taken
 * before the read (core_probes_drain), and a read takes every ring to its end: what can still come
 * older than that is only what a program dated before it wrote it. Batched transitions are at most
 * a tick old when sent (<= 10 ms), a hidden switch-in at most HIDDEN_MAX_NS (20 ms, iowhy.bpf.c);
 * neither adds to the other. 30 ms, not the 60 of before (a poll's 20 ms added, which the time
 * taken before the read does not need): half the events held, ~7% less of the consumer's CPU under
 * fio 16 jobs (4 runs each).
 */
#define REORDER_WINDOW_NS (30ull * 1000 * 1000)
/* Events held before a backlog being read starts to be released (release_early). */
#define REORDER_EARLY 16384
#define CAP_PERFMON_ 38
#define CAP_BPF_ 39
#define TICK_PROBE "timer:hrtimer_expire_entry"
/* Phase tag of the calibration child: its events are dropped and its syscall statistics zeroed
 * before any phase opens. */
#define CALIB_TAG 0
#define MAX_BLOCK_DEVS 256

static __thread char libbpf_last[512]; /* per thread: the I/O probes load in one of their own */
static int want_per_proc; /* core_probes_configure: per-process byte counts (iowhy attach) */
static int want_lite;     /* core_probes_configure: no raw_syscalls probes (--lite) */
static int want_io_maps = 1; /* core_probes_configure_io: the I/O probes' shared maps made whole */
static int test_fail_tp_btf; /* IOWHY_TEST_FAIL_TP_BTF: the core's tp_btf load fails (tests) */

/* The CPUs sys_hist has rows for: every possible CPU (bpf_get_smp_processor_id is below). */
static int hist_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

void core_probes_configure(int per_proc, int lite)
{
	want_per_proc = per_proc;
	want_lite = lite;
}

void core_probes_configure_io(int io)
{
	want_io_maps = io;
}

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

const struct probe_spec core_probe_specs[] = {
	{ "raw_syscalls:sys_enter", { "btf_sys_enter", "raw_sys_enter" }, PROBE_REQUIRED },
	{ "raw_syscalls:sys_exit", { "btf_sys_exit", "raw_sys_exit" }, PROBE_REQUIRED },
	{ "sched:sched_switch", { "btf_sched_switch", "raw_sched_switch" }, PROBE_REQUIRED },
	{ "sched:sched_wakeup", { "btf_sched_wakeup", "raw_sched_wakeup" }, 0 },
	{ "sched:sched_wakeup_new", { "btf_sched_wakeup_new", "raw_sched_wakeup_new" }, 0 },
	{ "sched:sched_process_fork", { "btf_sched_process_fork", "raw_sched_process_fork" },
	  PROBE_REQUIRED },
	{ "sched:sched_process_exec", { "btf_sched_process_exec", "raw_sched_process_exec" }, 0 },
	/* the timer probe: when attached, syscall transitions travel in batches */
	{ TICK_PROBE, { "btf_tick", "raw_tick" }, 0 },
	/* a CPU going idle: a tree task the kernel switched away from without the tracepoint */
	{ "power:cpu_idle", { "btf_cpu_idle", "raw_cpu_idle" }, 0 },
};
const int core_probe_nspecs = sizeof(core_probe_specs) / sizeof(core_probe_specs[0]);

/* Reorder buffer -> the consumer, in time order. */
static void deliver(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct core_probes *c = ctx;

	c->received++;
	c->on_event(c->ctx, e, comm);
}

/*
 * While a long backlog is being read (the consumer was kept off the CPU), release what is safe
 * already, so the reorder buffer holds a window of events, not the backlog. A CPU reserves its
 * records in time order up to the lateness the window allows, and a record's timestamp is taken
 * before it is reserved: every record still ahead in a ring is at most a window older than the
 * newest one read from it. A ring whose records of this read are all read holds only records
 * reserved since the read began (read_t0); one not reached yet in this read, only records
 * reserved since the last read began. What is a window older than the least of these can go.
 */
static void release_early(struct core_probes *c)
{
	__u64 low = UINT64_MAX;

	for (int i = 0; i < c->rings.n; i++) {
		__u64 l = c->rings.v[i].done ? c->read_t0 : c->ring_seen[i];

		if (!c->rings.v[i].done && c->read_prev_t0 > l)
			l = c->read_prev_t0;
		if (l < low)
			low = l;
	}
	if (low != UINT64_MAX && low > REORDER_WINDOW_NS)
		reorder_release(c->order, low - REORDER_WINDOW_NS, deliver, c);
}

/* An event ring's record -> reorder buffer (a batch becomes its STATE events). */
static int handle_event(void *ctx, int ring, void *data, size_t size)
{
	struct core_probes *c = ctx;
	uint64_t ts = 0;

	reorder_use_lane(c->order, (unsigned)ring);
	c->dropped += reorder_push_record(c->order, data, size, &ts);
	if (ring >= 0 && ring < c->rings.n && ts > c->ring_seen[ring])
		c->ring_seen[ring] = ts;
	if (c->order->n >= REORDER_EARLY)
		release_early(c);
	return 0;
}

/*
 * Read the events in the rings now, not those written meanwhile: ring_buffer__consume reads until
 * a ring is empty, and producers as fast as this consumer (iowhy attach -a beside a syscall storm)
 * would keep it from returning, so intervals, --duration and Ctrl-C would wait. What stays is read
 * by the next call; a ring that fills meanwhile counts its lost events. 0 or -errno.
 */
static int consume_present(struct core_probes *c)
{
	int n;

	c->read_prev_t0 = c->read_t0;
	c->read_t0 = now_ns();
	n = event_rings_read(&c->rings);
	return n > 0 ? 0 : n;
}

/* The probe set's loader: a fresh skeleton of the core object, configured for c's flavour. */
static void *open_core(void *ctx)
{
	struct core_probes *c = ctx;
	struct iowhy_bpf *s = iowhy_bpf__open_opts(core_btf_open_opts());

	if (!s)
		return NULL;
	if (core_probes_share_tree_maps(c, s->obj)) {
		iowhy_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = c->use_hash;
	s->rodata->inflight_shared = c->inflight_shared;
	s->rodata->nr_cpus = (__u32)libbpf_num_possible_cpus();
	s->rodata->per_proc = want_per_proc;
	/* tests only: every Nth switch from a task outside the tree to a tree task ignored, as some
	 * kernels switch without the tracepoint (iowhy.bpf.c hidden_switch_in is tested so) */
	s->rodata->test_hide_every = (__u32)env_number("IOWHY_TEST_HIDE_SWITCHES", 0, 1000000);
	/* the rings' array, made and being filled since prepare */
	if (bpf_map__reuse_fd(s->maps.events, c->rings.outer_fd)) {
		iowhy_bpf__destroy(s);
		return NULL;
	}
	s->rodata->nr_rings = (__u32)c->rings.n;
	/* per-CPU syscall rows for the phase tags the session will use, not all IOWHY_MAX_PHASES */
	bpf_map__set_max_entries(s->maps.sys_stats, c->phase_slots * IOWHY_NR_SLOTS);
	bpf_map__set_max_entries(s->maps.sys_hist, hist_cpus() * IOWHY_NR_SLOTS);
	/* per-process bytes are iowhy attach's: one (unused) entry otherwise, not 16,384 per CPU */
	if (!want_per_proc)
		bpf_map__set_max_entries(s->maps.proc_io, 1);
	return s;
}

static struct bpf_object *core_object(void *skel)
{
	return ((struct iowhy_bpf *)skel)->obj;
}

static int load_core(void *skel)
{
	struct iowhy_bpf *s = skel;

	if (test_fail_tp_btf && !s->rodata->use_hash) { /* as a kernel whose tp_btf load fails */
		errno = EINVAL;
		return -EINVAL;
	}
	return iowhy_bpf__load(skel);
}

static void destroy_core(void *skel)
{
	iowhy_bpf__destroy(skel);
}

/* The tree's maps, made before any object that uses them loads (tree_maps.bpf.c), for c's
 * flavour. Returns 0, or -1 with errno set. */
static int make_tree_maps(struct core_probes *c)
{
	struct tree_maps_bpf *m = tree_maps_bpf__open();
	int err;

	if (!m)
		return -1;
	/* the tid hash is the raw_tp flavour's task state: one (unused) entry with task storage */
	if (!c->use_hash)
		bpf_map__set_max_entries(m->maps.task_hash, 1);
	/* without the I/O probes nothing fills the dirtied inodes' set (16 MiB made whole) */
	if (!want_io_maps)
		bpf_map__set_max_entries(m->maps.tree_inodes, 1);
	if (tree_maps_bpf__load(m)) {
		err = errno;
		tree_maps_bpf__destroy(m);
		errno = err;
		return -1;
	}
	c->tree = m;
	return 0;
}

static void free_tree_maps(struct core_probes *c)
{
	tree_maps_bpf__destroy(c->tree);
	c->tree = NULL;
}

/* The flavour, before anything loads: tp_btf programs and task storage where this kernel loads
 * both (a two-instruction program and a map tried: bpf_features.c), else raw_tp programs with the
 * tasks' state in a tid hash; IOWHY_PROBE_MODE=raw_tp asks for the latter. */
static int want_hash(void)
{
	const char *mode = getenv("IOWHY_PROBE_MODE");
	struct iowhy_features f;

	if (mode && !strcmp(mode, "raw_tp"))
		return 1;
	features_detect(&f);
	return !(f.tp_btf > 0 && f.task_storage > 0);
}

static void say_cannot_load(void)
{
	fprintf(stderr, "iowhy: cannot load the BPF programs: %s\n",
		libbpf_last[0] ? libbpf_last : strerror(errno));
}

int core_probes_load_objects(struct core_probes *c)
{
	const struct probe_loader loader = { open_core, core_object, load_core, destroy_core, c };

	c->skel = probe_set_load(&c->probes, c->use_hash ? PROBE_RAW_TP : PROBE_TP_BTF, &loader);
	if (c->skel)
		return 0;
	if (!c->use_hash)
		return 1; /* a required probe did not load as tp_btf: core_probes_fall_back */
	say_cannot_load();
	return -1;
}

int core_probes_fall_back(struct core_probes *c)
{
	const struct probe_loader loader = { open_core, core_object, load_core, destroy_core, c };

	free_tree_maps(c);
	c->use_hash = 1;
	if (make_tree_maps(c)) {
		say_cannot_load();
		return -1;
	}
	c->skel = probe_set_load(&c->probes, PROBE_RAW_TP, &loader);
	if (!c->skel) {
		say_cannot_load();
		return -1;
	}
	return 0;
}

/* Mark the syscalls whose first argument is an fd, for the I/O wait by device, and those that
 * return bytes read or written (per-process bytes: read*, pread*, write*, pwrite* by name). */
static void mark_fd_syscalls(struct core_probes *c)
{
	int fd = bpf_map__fd(c->skel->maps.fd_syscalls);

	for (__u32 nr = 0; nr < IOWHY_NR_SLOTS; nr++) {
		const char *name = syscall_name(nr);
		__u8 f = syscall_first_arg_fd(nr) ? IOWHY_SYSF_FD : 0;

		if (syscall_returns_bytes(nr) && name) {
			if (!strncmp(name, "write", 5) || !strncmp(name, "pwrite", 6))
				f |= IOWHY_SYSF_WRITE;
			else if (!strncmp(name, "read", 4) || !strncmp(name, "pread", 5))
				f |= IOWHY_SYSF_READ;
		}
		if (f)
			bpf_map_update_elem(fd, &nr, &f, BPF_ANY);
	}
}

/* --lite: the raw_syscalls probes are not loaded (their slow path costs every syscall of the
 * machine); listed as skipped. */
static void skip_syscall_probes(struct core_probes *c)
{
	for (int i = 0; i < c->probes.n; i++)
		if (!strncmp(c->probes.p[i].spec->name, "raw_syscalls:", 13))
			c->probes.p[i].state = PROBE_SKIPPED;
}

/* A disk with no capacity (a loop device with nothing attached, an empty drive) can do no I/O. */
static int disk_empty(const char *name)
{
	char buf[32];

	return sysblock_read_attr(name, "size", buf, sizeof(buf)) > 0 &&
	       strtoull(buf, NULL, 10) == 0;
}

/* Give each disk a slot for the I/O wait by device (IOWHY_DISK_SLOTS of them): disks that can do
 * I/O first, in directory order, then empty ones while slots remain (a loop device attached later
 * keeps its number), so a machine's unattached loop devices take no slot a disk needs. Partitions
 * take their disk's slot (a file's superblock names the partition). Map keys are kernel dev_t
 * values. */
static void assign_disk_slots(struct core_probes *c)
{
	int fd = bpf_map__fd(c->skel->maps.disk_slots), n;
	struct sysblock_entry *e = calloc(MAX_BLOCK_DEVS, sizeof(*e));
	__u32 slot = 0;

	if (!e)
		return;
	n = sysblock_list(e, MAX_BLOCK_DEVS);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n && slot < IOWHY_DISK_SLOTS; i++) {
			__u32 key = kdev_of(e[i].dev);

			if (e[i].is_partition || disk_empty(e[i].name) != !!pass ||
			    bpf_map_update_elem(fd, &key, &slot, BPF_ANY))
				continue;
			snprintf(c->disk_names[slot++], sizeof(c->disk_names[0]), "%.31s",
				 e[i].name);
		}
	for (int i = 0; i < n; i++) {
		__u32 key = kdev_of(e[i].dev);

		for (slot = 0; e[i].is_partition && slot < IOWHY_DISK_SLOTS; slot++)
			if (!strcmp(c->disk_names[slot], e[i].disk))
				bpf_map_update_elem(fd, &key, &slot, BPF_ANY);
	}
	free(e);
}

/* Events nobody wants (the calibration child's). */
static void discard(void *ctx, const struct iowhy_event *e, const char *comm)
{
	(void)ctx;
	(void)e;
	(void)comm;
}

/* calib_traced_ps's way to make its child a tree task: a root of the calibration phase tag. */
static int calib_add(void *ctx, pid_t pid)
{
	return core_probes_add_root(ctx, pid, CALIB_TAG, SYS_read);
}

/* The tracing cost per event on this host (calibrate.h): the traced half, now that the probes are
 * attached. */
static void calibrate_traced(struct core_probes *c)
{
	if (calib_traced_ps(calib_add, c, &c->calib_traced_ps) == 0)
		c->event_cost_ps = calib_event_cost_ps(c->calib_untraced_ps, c->calib_traced_ps);
	core_probes_reset_sys_stats(c, CALIB_TAG);
	/* the child is gone and was the only tree task: its events are all in the rings; drop them
	 * unread (mapping a ring, reading ~4,000 events and unmapping it took ~9 ms on a VM) */
	if (!event_rings_skip(&c->rings))
		return;
	if (!event_rings_map(&c->rings, handle_event, c)) {
		if (consume_present(c) >= 0)
			reorder_release(c->order, UINT64_MAX, discard, c);
		event_rings_unmap(&c->rings); /* the rings stay, with what the programs write */
	}
}

int core_probes_check(void)
{
	if (!has_caps()) {
		fprintf(stderr, "iowhy: tracing needs root or CAP_BPF and CAP_PERFMON (try: sudo iowhy ...)\n");
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "iowhy: no kernel BTF at /sys/kernel/btf/vmlinux: iowhy needs a kernel built "
				"with CONFIG_DEBUG_INFO_BTF\n");
		return -1;
	}
	return 0;
}

/*
 * The event rings: one per possible CPU (a program writes to its CPU's), or one that all CPUs
 * share (IOWHY_TEST_ONE_RING=1, tests and benchmarks: the transport before the rings were per
 * CPU). 0, or -1 after one line on stderr.
 */
static int make_rings(struct core_probes *c)
{
	int one = (int)env_number("IOWHY_TEST_ONE_RING", 0, 1), nonline, listed;
	char online[4096] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");

	if (f) {
		if (!fgets(online, sizeof(online), f))
			online[0] = 0;
		fclose(f);
	}
	listed = cpu_list_count(online);
	nonline = listed > 0 ? listed : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (event_rings_make(&c->rings, one ? 1 : hist_cpus(),
			     event_ring_bytes(nonline, one, getenv("IOWHY_RINGBUF_MB")),
			     one || !listed ? NULL : online))
		return -1;
	c->ring_seen = calloc((size_t)c->rings.n, sizeof(*c->ring_seen));
	if (!c->ring_seen) {
		fprintf(stderr, "iowhy: out of memory\n");
		return -1;
	}
	return 0;
}

static int install_rings(void *arg)
{
	struct core_probes *c = arg;

	return event_rings_install(&c->rings);
}

int core_probes_prepare(struct core_probes *c, core_event_fn fn, void *ctx, int phases)
{
	memset(c, 0, sizeof(*c));
	c->phase_slots = phases < 1 ? 1 : phases > IOWHY_MAX_PHASES ? IOWHY_MAX_PHASES : phases;
	c->on_event = fn;
	c->ctx = ctx;
	libbpf_set_print(libbpf_print);
	if (core_probes_check())
		return -1;
	c->lite = want_lite;
	test_fail_tp_btf = (int)env_number("IOWHY_TEST_FAIL_TP_BTF", 0, 1);
	if (probe_set_init(&c->probes, "core", core_probe_specs, core_probe_nspecs) ||
	    probe_set_prepare_kernel(&c->probes))
		return -1;
	if (c->lite)
		skip_syscall_probes(c);
	/* the untraced half of the calibration, here: nothing is attached yet, and nothing else of
	 * iowhy runs (the probe sets load after; a thread attaching probes beside it sends every
	 * CPU text-patching interrupts, and a soak run measured a cost of 0 that way) */
	c->calib_untraced_ps = calib_null_syscall_ps();
	c->use_hash = want_hash();
	/* tests only: the shared in-flight counts of kernels before 5.19 (tree.bpf.h) */
	c->inflight_shared = env_number("IOWHY_TEST_SHARED_INFLIGHT", 0, 1) != 0;
	if (make_tree_maps(c)) {
		say_cannot_load();
		return -1;
	}
	if (make_rings(c) || event_rings_outer(&c->rings))
		return -1;
	/* each update of an array of maps waits for an RCU grace period: in a thread of its own,
	 * while the objects load (2 rings: 26-42 ms before the release on a 2-CPU VM) */
	bg_call_start(&c->install, install_rings, c);
	return 0;
}

int core_probes_start(struct core_probes *c)
{
	if (bg_call_wait(&c->install)) { /* the rings are in place before any program runs */
		core_probes_close(c);
		return -1;
	}
	if (probe_set_attach(&c->probes)) {
		core_probes_close(c);
		return -1;
	}
	c->batched = probe_set_attached(&c->probes, TICK_PROBE);
	assign_disk_slots(c);
	mark_fd_syscalls(c);
	c->skel->bss->batch_log = c->batched;
	c->order = calloc(1, sizeof(*c->order));
	if (!c->order) {
		fprintf(stderr, "iowhy: out of memory\n");
		core_probes_close(c);
		return -1;
	}
	reorder_init(c->order);
	return 0;
}

int core_probes_calibrate(struct core_probes *c)
{
	/* the ring is mapped for the consumer later (core_probes_dontfork_mappings) */
	calibrate_traced(c);
	return 0;
}

int core_probes_missing(const struct core_probes *c, struct missing_probes *out)
{
	struct missing_probes all = { 0 };
	int rc = probe_set_missing(&c->probes, &all);

	/* --lite leaves the syscall probes out on purpose: the report says so in its own words */
	for (unsigned i = 0; i < all.n; i++) {
		if (c->lite && !strncmp(all.v[i].name, "raw_syscalls:", 13))
			continue;
		if (missing_probes_add(out, all.v[i].name, all.v[i].why, all.v[i].err))
			rc = -1;
	}
	return rc;
}

int core_probes_share_tree_maps(const struct core_probes *c, struct bpf_object *obj)
{
	static const char *const names[] = { "task_store", "task_hash", "cpu_task", "tree_inflight",
					     "disk_slots", "last_complete", "tree_inodes", "wb_tasks",
					     "offcpu", "off_counters", "offstacks_h",
					     "tree_inflight_pc" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, names[i]);
		struct bpf_map *mine = c->tree ? bpf_object__find_map_by_name(c->tree->obj, names[i])
					       : NULL;

		if (m && (!mine || bpf_map__reuse_fd(m, bpf_map__fd(mine))))
			return -1;
	}
	return 0;
}

int core_probes_dontfork_mappings(struct core_probes *c)
{
	char line[512];
	FILE *maps;
	int at_line_start = 1;

	if (!event_rings_mapped(&c->rings) && event_rings_map(&c->rings, handle_event, c))
		return -1;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return 0;
	while (fgets(line, sizeof(line), maps)) {
		int whole_line_start = at_line_start;
		unsigned long start, end;

		at_line_start = strchr(line, '\n') != NULL;
		if (whole_line_start && strstr(line, "anon_inode:bpf-map") &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2)
			madvise((void *)start, end - start, MADV_DONTFORK);
	}
	fclose(maps);
	return 0;
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

int core_probes_add_root(struct core_probes *c, pid_t pid, int phase, int read_nr)
{
	struct iowhy_task v = {
		.nr = (__u16)read_nr,
		.phase = (__u8)phase,
		.state = IOWHY_TS_SWAIT,
		.count_sys = 0, /* the gate's read started before tracing: not a whole call */
		.flt_base = task_faults_now(pid), /* faults from here on are the workload's */
	};
	int err;

	c->skel->bss->hist_tag = (__u32)phase % IOWHY_MAX_PHASES; /* its syscalls' histograms */
	if (c->use_hash) {
		__u32 key = pid;
		err = bpf_map_update_elem(bpf_map__fd(c->skel->maps.task_hash), &key, &v, BPF_ANY);
	} else {
		int pidfd = syscall(SYS_pidfd_open, pid, 0);

		if (pidfd < 0) {
			fprintf(stderr, "iowhy: pidfd_open(%d): %s\n", pid, strerror(errno));
			return -1;
		}
		err = bpf_map_update_elem(bpf_map__fd(c->skel->maps.task_store), &pidfd, &v, BPF_ANY);
		close(pidfd);
	}
	if (err) {
		fprintf(stderr, "iowhy: cannot add process %d to the traced tree: %s\n", pid, strerror(errno));
		return -1;
	}
	return 0;
}

int core_probes_drain(struct core_probes *c)
{
	uint64_t now = now_ns();
	unsigned long long before = c->received;
	int n = consume_present(c);

	if (n < 0)
		return n;
	reorder_release(c->order, now > REORDER_WINDOW_NS ? now - REORDER_WINDOW_NS : 0, deliver, c);
	return (int)(c->received - before);
}

int core_probes_behind(struct core_probes *c)
{
	return event_rings_used(&c->rings) > c->rings.bytes / RINGBUF_HURRY;
}

int core_probes_poll_ms(struct core_probes *c)
{
	return core_probes_behind(c) ? POLL_HURRY_MS : POLL_MS;
}

int core_probes_flush(struct core_probes *c)
{
	unsigned long long before = c->received;
	int n = consume_present(c);
	if (n < 0)
		return n;
	reorder_release(c->order, UINT64_MAX, deliver, c);
	return (int)(c->received - before);
}

int core_probes_flush_until(struct core_probes *c, uint64_t end)
{
	unsigned long long before = c->received;
	int n = consume_present(c);

	if (n < 0)
		return n;
	reorder_release(c->order, end, deliver, c);
	reorder_release(c->order, UINT64_MAX, discard, c);
	return (int)(c->received - before);
}

/* Add the per-CPU latency histogram of syscall nr (map sys_hist: the phase being traced) to h. */
static void sum_sys_hist(struct core_probes *c, __u32 nr, int ncpu, struct iowhy_sys_hist *row,
			 __u32 *h)
{
	for (int cpu = 0; cpu < ncpu; cpu++) {
		__u32 key = (__u32)cpu * IOWHY_NR_SLOTS + nr;

		if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.sys_hist), &key, row))
			continue;
		for (int k = 0; k < IOWHY_HIST_SLOTS; k++)
			h[k] += row->b[k];
	}
}

int core_probes_sys_stats(struct core_probes *c, int phase, struct iowhy_sys_stat *out)
{
	int ncpu = libbpf_num_possible_cpus();
	struct iowhy_sys_counts *percpu;
	struct iowhy_sys_hist *hists;
	int fd = bpf_map__fd(c->skel->maps.sys_stats);

	if (ncpu <= 0)
		return -1;
	percpu = calloc(ncpu, sizeof(*percpu));
	hists = calloc(1, sizeof(*hists));
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
			sum_sys_hist(c, nr, ncpu, hists, out[nr].hist);
	}
	free(percpu);
	free(hists);
	return 0;
}

void core_probes_sys_until(struct core_probes *c, uint64_t end_ns)
{
	c->skel->data->sys_until = end_ns;
}

/* Whether any CPU counted a call in row `key` of sys_stats (read into percpu). */
static int sys_row_used(int fd, __u32 key, struct iowhy_sys_counts *percpu, int ncpu)
{
	if (bpf_map_lookup_elem(fd, &key, percpu))
		return 1; /* (unknown: cleared all the same) */
	for (int c = 0; c < ncpu; c++)
		if (percpu[c].count)
			return 1;
	return 0;
}

void core_probes_reset_sys_stats(struct core_probes *c, int phase)
{
	int ncpu = libbpf_num_possible_cpus(), hcpus = hist_cpus();
	/* the larger of a per-CPU sys_stats row and a sys_hist row */
	size_t zsize = (size_t)(ncpu > 0 ? ncpu : 1) * sizeof(struct iowhy_sys_counts);
	void *zero = calloc(1, zsize > sizeof(struct iowhy_sys_hist) ? zsize :
				 sizeof(struct iowhy_sys_hist));
	struct iowhy_sys_counts *percpu = calloc(ncpu > 0 ? ncpu : 1, sizeof(*percpu));
	int fd = bpf_map__fd(c->skel->maps.sys_stats), hfd = bpf_map__fd(c->skel->maps.sys_hist);

	if (!zero || !percpu) {
		free(zero);
		free(percpu);
		return;
	}
	for (__u32 nr = 0; nr < IOWHY_NR_SLOTS; nr++) {
		__u32 key = (phase % IOWHY_MAX_PHASES) * IOWHY_NR_SLOTS + nr;

		/* a syscall's histogram rows only ever count calls its phase row counts too */
		if (!sys_row_used(fd, key, percpu, ncpu))
			continue;
		bpf_map_update_elem(fd, &key, zero, BPF_ANY);
		for (int cpu = 0; cpu < hcpus; cpu++) {
			__u32 hkey = (__u32)cpu * IOWHY_NR_SLOTS + nr;

			bpf_map_update_elem(hfd, &hkey, zero, BPF_ANY);
		}
	}
	free(zero);
	free(percpu);
	core_probes_sys_until(c, UINT64_MAX); /* the slot counts again, from zero */
}

void core_probes_counters(struct core_probes *c, struct iowhy_counters *out)
{
	int ncpu = libbpf_num_possible_cpus();
	struct iowhy_counters *percpu = calloc(ncpu > 0 ? ncpu : 1, sizeof(*percpu));
	__u32 zero = 0;

	memset(out, 0, sizeof(*out));
	if (!percpu)
		return;
	if (!bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.counters), &zero, percpu)) {
		for (int c = 0; c < ncpu; c++) {
			out->events_lost += percpu[c].events_lost;
			out->storage_failed += percpu[c].storage_failed;
			out->nr_folded += percpu[c].nr_folded;
			out->hidden_switches += percpu[c].hidden_switches;
			out->hidden_at_event += percpu[c].hidden_at_event;
			out->hidden_outs += percpu[c].hidden_outs;
			out->test_hidden += percpu[c].test_hidden;
			out->dwait_no_file += percpu[c].dwait_no_file;
			out->dwait_inflight += percpu[c].dwait_inflight;
		}
	}
	free(percpu);
}

/* Events that arrived after a later one was handed on (beyond the reorder window). */
unsigned long long core_probes_late(const struct core_probes *c)
{
	return c->order ? c->order->late : 0;
}

const char *core_probes_mode(const struct core_probes *c)
{
	return c->use_hash ? "raw_tp" : "tp_btf";
}

void core_probes_close(struct core_probes *c)
{
	uint64_t t0 = now_ns(), detach0 = c->probes.detach_ns;

	probe_set_detach(&c->probes);
	bg_call_wait(&c->install); /* (a failed prepare or load: it may still be installing) */
	event_rings_free(&c->rings);
	free(c->ring_seen);
	c->ring_seen = NULL;
	if (c->order)
		reorder_free(c->order);
	free(c->order);
	c->order = NULL;
	if (c->skel)
		iowhy_bpf__destroy(c->skel);
	c->skel = NULL;
	free_tree_maps(c);
	c->probes.detach_ns = detach0 + (now_ns() - t0);
}
