// SPDX-License-Identifier: GPL-2.0
/* Loader of the CPU sampler. See sampler.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "core_btf.h"
#include "sample.skel.h"
#include "iowhy.skel.h"
#include "sample.h"
#include "sampler.h"
#include "core_probes.h"
#include "ksym_addrs.h"
#include "symbols.h"
#include "probe_set.h"
#include "clock.h"

/* The longest D time a task gathers before its off-CPU stack is taken (see off_period_ns). */
#define OFF_PERIOD_MAX_NS 1000000ull
/* Off-CPU stack walks a CPU may make, on average, per sampling period (off_walk_ns), and how many
 * it may save up (off_walk_burst): at the default 99 Hz ~400 a second, a fraction of a percent of
 * a CPU where a walk costs 3-10 us. */
#define OFF_WALKS_PER_PERIOD 4
#define OFF_WALK_BURST 64

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct sampler {
	struct sample_bpf *skel;
	struct probe_set probes;   /* what is attached, or why not */
	int ncpus;
	int *fds;
	struct bpf_link **links;
	struct bpf_link *off_link;  /* off-CPU sched_switch probe, raw_tp (NULL: not attached) */
	struct core_probes *core;  /* tree maps, mode; in tp_btf its sched_switch program does the
				    * off-CPU work while off_in_core (its off_on set) */
	int off_in_core;
	struct bpf_link *exec_link; /* exec'd files probe (NULL: not attached) */
	char cwd[4096];             /* relative exec paths are tried from here */
	unsigned hz;
	struct kframes *kframes;    /* kernel frames' names, found at the first kernel stack: after
				     * the phase, not on the way to the workload's start */
	struct usyms *usyms;
	uint64_t unknown0;         /* unknown_task at phase begin */
};

int sampler_perf_open(unsigned hz, int cpu)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000000ull / hz,  /* cpu-clock periods are nanoseconds */
	};

	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The sampler's probes. None is a tracepoint of its own: the cpu-clock events are perf events,
 * the off-CPU and exec programs stand on sched tracepoints the core also uses, under names of their
 * own so that IOWHY_SKIP_PROBES can name them apart. Off-CPU has no program here in the tp_btf
 * flavour: the core's sched_switch program does that work once turned on (offcpu.bpf.h,
 * sampler_attach). */
enum { SP_SAMPLE, SP_OFFCPU, SP_EXEC };
static const struct probe_spec sampler_specs[] = {
	[SP_SAMPLE] = { "perf:cpu-clock", { "on_sample", "on_sample" }, PROBE_NOT_TRACEPOINT },
	[SP_OFFCPU] = { "offcpu:sched_switch", { NULL, "off_raw_switch" },
			PROBE_NOT_TRACEPOINT },
	[SP_EXEC] = { "execfile:sched_process_exec", { "exec_btf", "exec_raw" },
		      PROBE_NOT_TRACEPOINT },
};

/* The probe set's loader: a fresh skeleton sharing the core's (ctx) tree maps and mode. */
static void *open_sample(void *ctx)
{
	struct core_probes *core = ctx;
	struct sample_bpf *s = sample_bpf__open_opts(core_btf_open_opts());

	if (!s)
		return NULL;
	if (core_probes_share_tree_maps(core, s->obj)) {
		sample_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = core->use_hash != 0;
	/* the raw_tp path's maps (tp_btf's are the core's and the tree's): made as small as can be
	 * in tp_btf (a stack map is made whole at load: 8 MiB, ~15 ms of a start on a VM; the sleeps
	 * in progress by tid, a preallocated hash of 65,536, ~11 ms) */
	if (!core->use_hash && (bpf_map__set_max_entries(s->maps.offstacks, 1) ||
				bpf_map__set_max_entries(s->maps.off_pending, 1))) {
		sample_bpf__destroy(s);
		return NULL;
	}
	s->rodata->regs_nr = core->lite != 0; /* no syscall probes: nr from the registers */
	return s;
}

static struct bpf_object *sample_object(void *skel)
{
	return ((struct sample_bpf *)skel)->obj;
}

static int load_sample(void *skel)
{
	return sample_bpf__load(skel);
}

static void destroy_sample(void *skel)
{
	sample_bpf__destroy(skel);
}

/* Attach probe i (not the per-CPU sampler) and record the outcome in the set. */
static struct bpf_link *attach_one(struct sampler *s, int i)
{
	struct probe *p = &s->probes.p[i];
	struct bpf_link *l;

	if (p->state != PROBE_WANTED || !p->prog)
		return NULL;
	l = bpf_program__attach(p->prog);
	probe_set_mark(&s->probes, i, l ? PROBE_ATTACHED : PROBE_ATTACH_FAILED, l ? 0 : errno);
	return l;
}

/* One event per online CPU (offline ones fail with ENODEV and are skipped). */
static int attach_all(struct sampler *s)
{
	int attached = 0;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		s->fds[cpu] = sampler_perf_open(s->hz, cpu);
		if (s->fds[cpu] < 0) {
			if (errno == ENODEV || errno == ENXIO)
				continue;
			fprintf(stderr, "iowhy: warning: no CPU samples: cannot open the cpu-clock "
				"event on CPU %d: %s\n", cpu, strerror(errno));
			return -1;
		}
		s->links[cpu] = bpf_program__attach_perf_event(s->skel->progs.on_sample,
							       s->fds[cpu]);
		if (!s->links[cpu]) {
			fprintf(stderr, "iowhy: warning: no CPU samples: cannot attach the "
				"sampler on CPU %d: %s\n", cpu, strerror(errno));
			return -1;
		}
		attached++;
	}
	if (!attached)
		fprintf(stderr, "iowhy: warning: no CPU samples: no CPU could be sampled\n");
	return attached ? 0 : -1;
}

int sampler_load(struct sampler **out, struct core_probes *core, unsigned hz)
{
	const struct probe_loader loader = { open_sample, sample_object, load_sample, destroy_sample,
					     core };
	struct sampler *s;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "iowhy: out of memory\n");
		return -1;
	}
	s->hz = hz;
	s->core = core;
	s->ncpus = libbpf_num_possible_cpus();
	s->fds = calloc(s->ncpus > 0 ? s->ncpus : 1, sizeof(*s->fds));
	s->links = calloc(s->ncpus > 0 ? s->ncpus : 1, sizeof(*s->links));
	s->usyms = usyms_new();
	s->kframes = kframes_new();
	if (s->ncpus <= 0 || !s->fds || !s->links || !s->usyms || !s->kframes ||
	    probe_set_init(&s->probes, "sampler", sampler_specs, ARRAY_SIZE(sampler_specs))) {
		fprintf(stderr, "iowhy: out of memory\n");
		sampler_close(s);
		return -1;
	}
	for (int i = 0; i < s->ncpus; i++)
		s->fds[i] = -1;
	/* every probe here is optional and none is a tracepoint: this only applies the skip list */
	probe_set_prepare(&s->probes, getenv("IOWHY_SKIP_PROBES"), NULL);
	if (s->probes.p[SP_SAMPLE].state == PROBE_SKIPPED) {
		*out = s; /* listed as skipped; no samples */
		return 0;
	}
	s->skel = probe_set_load(&s->probes, core->use_hash ? PROBE_RAW_TP : PROBE_TP_BTF, &loader);
	if (!s->skel)
		fprintf(stderr, "iowhy: warning: no CPU samples: cannot load the sampler: %s\n",
			strerror(errno));
	*out = s;
	return 0;
}

/* tp_btf: turn on the core's off-CPU work (offcpu.bpf.h) when the probe is wanted: one stack walk
 * per sampling period of a task's D time, at most OFF_PERIOD_MAX_NS (the walk costs no interrupt,
 * and at the default 99 Hz a short run's few milliseconds of D time, 4 direct 1 MiB writes, never
 * reached the 10 ms period), within a walk budget per CPU; the switch on last. */
static void off_core_on(struct sampler *s, unsigned hz)
{
	struct iowhy_bpf *c = s->core ? s->core->skel : NULL;
	uint64_t period = 1000000000ull / (hz ? hz : 1);

	if (s->probes.p[SP_OFFCPU].state != PROBE_WANTED)
		return;
	if (!c || !c->bss || !probe_set_attached(&s->core->probes, "sched:sched_switch")) {
		probe_set_mark(&s->probes, SP_OFFCPU, PROBE_ATTACH_FAILED, ENOENT);
		return;
	}
	c->bss->off_period_ns = period < OFF_PERIOD_MAX_NS ? period : OFF_PERIOD_MAX_NS;
	c->bss->off_walk_ns = 1000000000ull / OFF_WALKS_PER_PERIOD / (hz ? hz : 1);
	c->bss->off_walk_burst = OFF_WALK_BURST;
	__atomic_store_n(&c->bss->off_on, 1, __ATOMIC_RELEASE);
	s->off_in_core = 1;
	probe_set_mark(&s->probes, SP_OFFCPU, PROBE_ATTACHED, 0);
}

static void off_core_off(struct sampler *s)
{
	if (s->off_in_core)
		__atomic_store_n(&s->core->skel->bss->off_on, 0, __ATOMIC_RELEASE);
	s->off_in_core = 0;
}

void sampler_attach(struct sampler *s)
{
	uint64_t t0 = now_ns();

	if (!s || s->probes.p[SP_SAMPLE].state == PROBE_SKIPPED)
		return;
	if (s->skel && s->probes.p[SP_SAMPLE].state == PROBE_WANTED) {
		int rc = attach_all(s);

		probe_set_mark(&s->probes, SP_SAMPLE, rc ? PROBE_ATTACH_FAILED : PROBE_ATTACHED,
			       rc ? errno : 0);
	}
	if (!s->skel || s->probes.p[SP_SAMPLE].state != PROBE_ATTACHED) {
		/* optional, as other probes: listed, and the tracepoints' split stays */
		s->probes.attach_ns += now_ns() - t0;
		return;
	}
	if (s->probes.flavour == PROBE_TP_BTF)
		off_core_on(s, s->hz);
	else
		s->off_link = attach_one(s, SP_OFFCPU);
	/* without it user frames of programs outside $PATH stay unresolved (counted) */
	s->exec_link = attach_one(s, SP_EXEC);
	s->probes.attach_ns += now_ns() - t0;
	if (!getcwd(s->cwd, sizeof(s->cwd)))
		s->cwd[0] = 0;
}

int sampler_open(struct sampler **out, struct core_probes *core, unsigned hz)
{
	if (sampler_load(out, core, hz))
		return -1;
	sampler_attach(*out);
	return 0;
}

int sampler_active(const struct sampler *s)
{
	return s && s->skel && s->probes.p[SP_SAMPLE].state == PROBE_ATTACHED;
}

int sampler_missing(const struct sampler *s, struct missing_probes *out)
{
	return s ? probe_set_missing(&s->probes, out) : 0;
}

const struct probe_set *sampler_probe_set(const struct sampler *s)
{
	return s ? &s->probes : NULL;
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	off_core_off(s);
	bpf_link__destroy(s->off_link);
	bpf_link__destroy(s->exec_link);
	for (int i = 0; s->links && i < s->ncpus; i++)
		bpf_link__destroy(s->links[i]);
	for (int i = 0; s->fds && i < s->ncpus; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	sample_bpf__destroy(s->skel);
	kframes_free(s->kframes);
	usyms_free(s->usyms);
	free(s->links);
	free(s->fds);
	free(s);
}

static size_t take_keys(struct sampler *s, int tag, struct iowhy_sample_key **keys, __u64 **counts);

/* The map the off-CPU stack ids name: the stack map of the raw_tp path (bpf_get_stackid at the
 * switch-out), or the tp_btf path's hash of stacks taken at the switch-in. */
static int off_stacks_fd(const struct sampler *s)
{
	return bpf_map__fd(s->skel->rodata->use_hash ? s->skel->maps.offstacks
						     : s->skel->maps.offstacks_h);
}
static void drop_stacks(struct sampler *s, const struct iowhy_sample_key *k, size_t n);

/* Forget sleeps in progress and off-CPU rows (of tasks of earlier phases, still alive when those
 * ended) with their stacks, and zero the off-CPU counters of `tag`. */
static void clear_off(struct sampler *s, int tag)
{
	int pfd = bpf_map__fd(s->skel->maps.off_pending), ofd = bpf_map__fd(s->skel->maps.offcpu);
	struct iowhy_off_counters *zero = calloc(s->ncpus, sizeof(*zero));
	struct iowhy_off_key k, next;
	__u32 tid, ntid, key = (__u32)tag;

	while (!bpf_map_get_next_key(pfd, NULL, &ntid)) {
		tid = ntid;
		if (bpf_map_delete_elem(pfd, &tid))
			break;
		__sync_fetch_and_add(&s->skel->bss->off_pending_n, -1);
	}
	while (!bpf_map_get_next_key(ofd, NULL, &next)) {
		k = next;
		if (bpf_map_delete_elem(ofd, &k))
			break;
		if (k.kstack >= 0) {
			__u32 id = (__u32)k.kstack;

			bpf_map_delete_elem(off_stacks_fd(s), &id);
		}
	}
	if (zero) {
		bpf_map_update_elem(bpf_map__fd(s->skel->maps.off_counters), &key, zero, BPF_ANY);
		free(zero);
	}
}

void sampler_phase_begin(struct sampler *s, int tag)
{
	struct iowhy_sample_counters *zero = calloc(s->ncpus, sizeof(*zero));
	struct iowhy_sample_key *keys = NULL;
	__u64 *counts = NULL;
	__u32 key = (__u32)tag;
	size_t n;

	/* samples of stragglers of the phase that had this tag IOWHY_MAX_PHASES phases ago */
	n = take_keys(s, tag, &keys, &counts);
	drop_stacks(s, keys, n);
	free(keys);
	free(counts);
	clear_off(s, tag);

	if (zero) {
		bpf_map_update_elem(bpf_map__fd(s->skel->maps.sample_counters), &key, zero,
				    BPF_ANY);
		free(zero);
	}
	s->unknown0 = s->skel->bss->unknown_task;
}

/* Counters of `tag` summed over CPUs. */
static void read_counters(struct sampler *s, int tag, struct cpu_samples *cs)
{
	struct iowhy_sample_counters *v = calloc(s->ncpus, sizeof(*v));
	__u32 key = (__u32)tag;

	if (!v)
		return;
	if (!bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.sample_counters), &key, v)) {
		for (int i = 0; i < s->ncpus; i++) {
			cs->samples += v[i].samples;
			cs->kstack_lost += v[i].kstack_lost;
			cs->ustack_lost += v[i].ustack_lost;
			cs->key_lost += v[i].key_lost;
		}
	}
	free(v);
}

int sampler_split_counts(const struct sampler *s, int tag, uint64_t *outside, uint64_t *user)
{
	struct iowhy_sample_counters *v;
	__u32 key = (__u32)tag;
	int rc = -1;

	*outside = *user = 0;
	if (!s || !sampler_active(s) || !(v = calloc(s->ncpus, sizeof(*v))))
		return -1;
	if (!bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.sample_counters), &key, v)) {
		for (int i = 0; i < s->ncpus; i++) {
			*outside += v[i].outside;
			*user += v[i].user_outside;
		}
		rc = 0;
	}
	free(v);
	return rc;
}

/* Stack ids already symbolised in this phase: id -> stack index (CS_NONE: not yet). */
struct id_cache {
	uint32_t k[IOWHY_STACKS], u[IOWHY_STACKS];
};

/* Symbolise kernel stack `id` (innermost first). */
static uint32_t kernel_stack(struct sampler *s, struct cpu_samples *cs, struct id_cache *c,
			     int32_t id)
{
	__u64 ips[IOWHY_KSTACK_DEPTH] = { 0 };
	const char *names[IOWHY_KSTACK_DEPTH];
	uint32_t fn[IOWHY_KSTACK_DEPTH], n = 0, bad = 0;
	__u32 key = (__u32)id;
	int depth = 0;

	if (id < 0 || id >= IOWHY_STACKS)
		return CS_NONE;
	if (c->k[id] != CS_NONE)
		return c->k[id];
	if (bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.kstacks), &key, ips))
		return CS_NONE;
	while (depth < IOWHY_KSTACK_DEPTH && ips[depth])
		depth++;
	kframes_name(s->kframes, (const uint64_t *)ips, depth, names);
	for (int i = 0; i < depth; i++) {
		bad += !names[i];
		fn[n++] = cpu_samples_name(cs, names[i] ? names[i] : "[unknown]");
	}
	c->k[id] = cpu_samples_add_stack(cs, fn, n, bad);
	return c->k[id];
}

/* Symbolise user stack `id` (build-id frames; innermost first). */
static uint32_t user_stack(struct sampler *s, struct cpu_samples *cs, struct id_cache *c,
			   int32_t id)
{
	struct bpf_stack_build_id fr[IOWHY_USTACK_DEPTH];
	uint32_t fn[IOWHY_USTACK_DEPTH], n = 0, bad = 0;
	__u32 key = (__u32)id;

	if (id < 0 || id >= IOWHY_STACKS)
		return CS_NONE;
	if (c->u[id] != CS_NONE)
		return c->u[id];
	memset(fr, 0, sizeof(fr));
	if (bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.ustacks), &key, fr))
		return CS_NONE;
	for (int i = 0; i < IOWHY_USTACK_DEPTH && fr[i].status != BPF_STACK_BUILD_ID_EMPTY; i++) {
		const char *name = NULL, *file = NULL;
		char buf[300];

		if (fr[i].status == BPF_STACK_BUILD_ID_VALID)
			name = usyms_resolve(s->usyms, fr[i].build_id, fr[i].offset, &file);
		if (!name) {
			bad++;
			snprintf(buf, sizeof(buf), "[%s]", file ? file : "unknown");
			name = buf;
		}
		fn[n++] = cpu_samples_name(cs, name);
	}
	c->u[id] = cpu_samples_add_stack(cs, fn, n, bad);
	return c->u[id];
}

/*
 * The files the tree exec'd (and clear the map): a path is used when it names the very file that
 * was exec'd (same device and inode); a relative one is tried from iowhy's directory, which is the
 * workload's unless it changed directory before the exec.
 */
static void add_exec_files(struct sampler *s, struct cpu_samples *cs)
{
	int fd = bpf_map__fd(s->skel->maps.exec_files);
	struct iowhy_exec_key k, next;
	char path[IOWHY_PATH_LEN + 4096 + 2];
	struct stat st;

	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		k = next;
		k.path[IOWHY_PATH_LEN - 1] = 0;
		if (k.path[0] == '/' || !s->cwd[0])
			snprintf(path, sizeof(path), "%s", k.path);
		else
			snprintf(path, sizeof(path), "%s/%s", s->cwd, k.path);
		cs->exec_files++;
		if (!stat(path, &st) && st.st_ino == k.ino && major(st.st_dev) == k.dev >> 20 &&
		    minor(st.st_dev) == (k.dev & 0xfffff)) {
			cs->exec_files_found++;
			usyms_add_path(s->usyms, path);
		}
		if (bpf_map_delete_elem(fd, &k))
			break;
	}
}

/* The ELF files user frames may come from: the phase's program, iowhy itself (built-in workloads
 * run in a fork of it), and every comm seen, looked up as a program name. */
static void add_programs(struct sampler *s, const char *program, const struct iowhy_sample_key *k,
			 size_t n)
{
	usyms_add_path(s->usyms, "/proc/self/exe");
	usyms_add_program(s->usyms, program);
	for (size_t i = 0; i < n; i++) {
		char comm[IOWHY_COMM_LEN + 1];

		memcpy(comm, k[i].comm, IOWHY_COMM_LEN);
		comm[IOWHY_COMM_LEN] = 0;
		if (i && !memcmp(k[i].comm, k[i - 1].comm, IOWHY_COMM_LEN))
			continue;
		usyms_add_program(s->usyms, comm);
	}
}

/* Take the keys of `tag` out of the aggregation map. Returns how many (keys/counts malloc'd). */
static size_t take_keys(struct sampler *s, int tag, struct iowhy_sample_key **keys, __u64 **counts)
{
	int fd = bpf_map__fd(s->skel->maps.samples);
	struct iowhy_sample_key k, next, *ks = NULL;
	__u64 *cn = NULL;
	size_t n = 0, cap = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (k.phase % IOWHY_MAX_PHASES != tag)
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			void *a = realloc(ks, nc * sizeof(*ks)), *b;

			if (!a)
				break;
			ks = a;
			b = realloc(cn, nc * sizeof(*cn));
			if (!b)
				break;
			cn = b;
			cap = nc;
		}
		if (bpf_map_lookup_elem(fd, &k, &cn[n]))
			continue;
		ks[n++] = k;
	}
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(fd, &ks[i]);
	*keys = ks;
	*counts = cn;
	return n;
}

/* Kernel stack `id` of the off-CPU map, the scheduler's own frames trimmed. */
static uint32_t off_stack(struct sampler *s, struct cpu_samples *cs, int32_t id)
{
	__u64 ips[IOWHY_KSTACK_DEPTH] = { 0 };
	const char *names[IOWHY_KSTACK_DEPTH];
	uint32_t fn[IOWHY_KSTACK_DEPTH], n = 0, bad = 0, trim;
	__u32 key = (__u32)id;

	if (id < 0 || bpf_map_lookup_elem(off_stacks_fd(s), &key, ips))
		return CS_NONE;
	while (n < IOWHY_KSTACK_DEPTH && ips[n])
		n++;
	kframes_name(s->kframes, (const uint64_t *)ips, (int)n, names);
	for (uint32_t i = 0; i < n; i++) {
		bad += !names[i];
		if (!names[i])
			names[i] = "[unknown]";
	}
	trim = cpu_samples_sched_frames(names, n);
	for (uint32_t i = trim; i < n; i++)
		fn[i - trim] = cpu_samples_name(cs, names[i]);
	return cpu_samples_add_stack(cs, fn, n - trim, bad);
}

/* Take the off-CPU rows of `tag` (and free their stacks). */
static void read_off(struct sampler *s, int tag, struct cpu_samples *cs)
{
	int ofd = bpf_map__fd(s->skel->maps.offcpu), sfd = off_stacks_fd(s);
	struct iowhy_off_counters *v = calloc(s->ncpus, sizeof(*v));
	struct iowhy_off_key k, next, *done = NULL;
	size_t ndone = 0, cap = 0;
	int64_t held_ns = 0, held_n = 0;
	__u32 key = (__u32)tag;
	void *prev = NULL;

	if (v && !bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.off_counters), &key, v)) {
		for (int i = 0; i < s->ncpus; i++) {
			cs->off_sleeps += v[i].sleeps;
			cs->off_stack_lost += v[i].stack_lost;
			cs->off_pending_lost += v[i].pending_lost;
			cs->off_key_lost += v[i].key_lost;
			held_ns += v[i].held_ns;
			held_n += v[i].held_n;
			cs->off_walks += v[i].walks;
		}
		cs->off_held_ns = held_ns > 0 ? (uint64_t)held_ns : 0;
		cs->off_held_n = held_n > 0 ? (uint64_t)held_n : 0;
	}
	free(v);
	while (!bpf_map_get_next_key(ofd, prev, &next)) {
		struct iowhy_off_val val;
		struct cs_wait w = { 0 };

		k = next;
		prev = &k;
		if (k.phase % IOWHY_MAX_PHASES != tag || bpf_map_lookup_elem(ofd, &k, &val))
			continue;
		w.count = val.count;
		w.ns = val.ns;
		memcpy(w.comm, k.comm, sizeof(w.comm));
		w.comm[sizeof(w.comm) - 1] = 0;
		w.kstack = off_stack(s, cs, k.kstack);
		cpu_samples_add_wait(cs, &w);
		if (ndone == cap) {
			size_t nc = cap ? cap * 2 : 64;
			void *d = realloc(done, nc * sizeof(*done));

			if (!d)
				continue;
			done = d;
			cap = nc;
		}
		done[ndone++] = k;
	}
	for (size_t i = 0; i < ndone; i++) {
		bpf_map_delete_elem(ofd, &done[i]);
		if (done[i].kstack >= 0) {
			__u32 id = (__u32)done[i].kstack;

			bpf_map_delete_elem(sfd, &id);
		}
	}
	free(done);
}

/* Free the stack map entries this phase used. */
static void drop_stacks(struct sampler *s, const struct iowhy_sample_key *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		__u32 id;

		if (k[i].kstack >= 0) {
			id = (__u32)k[i].kstack;
			bpf_map_delete_elem(bpf_map__fd(s->skel->maps.kstacks), &id);
		}
		if (k[i].ustack >= 0) {
			id = (__u32)k[i].ustack;
			bpf_map_delete_elem(bpf_map__fd(s->skel->maps.ustacks), &id);
		}
	}
}

static int cmp_key_comm(const void *a, const void *b)
{
	return memcmp(((const struct iowhy_sample_key *)a)->comm,
		      ((const struct iowhy_sample_key *)b)->comm, IOWHY_COMM_LEN);
}

struct cpu_samples *sampler_phase_end(struct sampler *s, int tag, const char *program)
{
	struct cpu_samples *cs = cpu_samples_new(s->hz);
	struct id_cache *c = malloc(sizeof(*c));
	struct iowhy_sample_key *keys = NULL, *sorted;
	__u64 *counts = NULL;
	size_t n;

	if (!cs || !c) {
		cpu_samples_free(cs);
		free(c);
		return NULL;
	}
	memset(c, 0xff, sizeof(*c));
	read_counters(s, tag, cs);
	cs->unknown_task = s->skel->bss->unknown_task - s->unknown0;
	n = take_keys(s, tag, &keys, &counts);
	sorted = n ? malloc(n * sizeof(*sorted)) : NULL;
	if (sorted) {
		memcpy(sorted, keys, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), cmp_key_comm);
		add_programs(s, program, sorted, n);
		free(sorted);
	}
	add_exec_files(s, cs);
	for (size_t i = 0; i < n; i++) {
		struct cs_row r = {
			.count = counts[i],
			.nr = keys[i].nr,
			.kernel_mode = !!(keys[i].flags & IOWHY_SF_KERNEL),
			.in_syscall = !!(keys[i].flags & IOWHY_SF_SYSCALL),
		};

		memcpy(r.comm, keys[i].comm, sizeof(r.comm));
		r.comm[sizeof(r.comm) - 1] = 0;
		r.kstack = kernel_stack(s, cs, c, keys[i].kstack);
		r.ustack = user_stack(s, cs, c, keys[i].ustack);
		cpu_samples_add_row(cs, &r);
	}
	drop_stacks(s, keys, n);
	cs->off_traced = s->off_link != NULL || s->off_in_core;
	if (cs->off_traced)
		read_off(s, tag, cs);
	cpu_samples_classify(cs);
	free(keys);
	free(counts);
	free(c);
	return cs;
}
