// SPDX-License-Identifier: GPL-2.0
/* Loader of bpf/io.bpf.c and the per-phase collection; see io_probes.h. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "core_btf.h"
#include "io_probes.h"
#include "core_probes.h"
#include "devstack.h"
#include "blkthrottle.h"
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include "clock.h"
#include "meminfo.h"
#include "sysblock.h"
#include "units.h"
#include "result.h"
#include "ksym_addrs.h"
#include "iowhy.skel.h"
#include "io.skel.h"
#include "io_trusted.skel.h"

#define MAX_BLK 256
#define TL_RING_BYTES (4u << 20)   /* --timeline: ~60,000 requests between two polls */
#define TL_BIO_TIDS 32768          /* bios queued by tree tasks, not yet requests */
/* Requests followed from insert to completion (map reqs, made whole at load: ~0.3 ms per 1,000 on
 * a VM): four times what the block devices can hold at once, for devices set up during the run
 * and for requests whose completion is never seen; at least 8,192, at most 65,536. */
#define REQS_MIN 8192u
#define REQS_MAX 65536u

static __u32 reqs_entries(void)
{
	unsigned long n = 4 * sysblock_request_slots();

	return n < REQS_MIN ? REQS_MIN : n > REQS_MAX ? REQS_MAX : (__u32)n;
}

/* The requests' slots (map req_slots): the first power of two at or above reqs_entries(); and the
 * overflow hash (map reqs), for requests whose slot another holds: half as many. */
static __u32 req_slot_bits(__u32 reqs)
{
	__u32 b = 0;

	while ((1u << b) < reqs && b < 31)
		b++;
	return b;
}

static __u32 reqs_overflow_entries(__u32 reqs)
{
	return reqs / 2;
}

/* Bios queued and not yet part of a request (map bios, an LRU made whole at load): twice the
 * requests. A bio waits there only until a request takes it (a throttled one for as long as the
 * throttle holds it); a bio-based device's (zram) are never taken and are the first the LRU drops. */
static __u32 bios_entries(__u32 reqs)
{
	return 2 * reqs;
}
#define TL_DIRTY_EVERY_NS 10000000ULL
/* The sweep of dispatches whose completion no program saw (bpf/io.bpf.c io_sweep): how often, and
 * how old a dispatch must be to be looked at (the kernel marks a request in flight just after the
 * issue program ran). A dispatch missed is counted busy at most until the next sweep, and only in
 * the gaps between the disk's later requests. A sweep looks at every request slot (~13 ns each:
 * ~105 µs for 8192) only while a disk in flight in the records has had no event for the same age
 * (a gap in its work, or a request that takes long), else it stops there (~20 µs). */
#define IO_SWEEP_EVERY_NS 50000000ULL
#define IO_SWEEP_MIN_AGE_NS 10000000ULL
enum { IO_SWEEP_PROBE = 26 };

/* Every probe of bpf/io.bpf.c (tp_btf, and the sweep run from here; all optional). */
const struct probe_spec io_probe_specs[] = {
	{ "block:block_bio_queue", { "io_bio_queue" }, 0 },
	{ "block:block_split", { "io_split" }, 0 },
	{ "block:block_bio_backmerge", { "io_bio_backmerge" }, 0 },
	{ "block:block_bio_frontmerge", { "io_bio_frontmerge" }, 0 },
	{ "block:block_rq_merge", { "io_rq_merge" }, 0 },
	{ "block:block_rq_insert", { "io_rq_insert" }, 0 },
	{ "block:block_rq_issue", { "io_rq_issue" }, 0 },
	{ "block:block_rq_requeue", { "io_rq_requeue" }, 0 },
	{ "block:block_rq_complete", { "io_rq_complete" }, 0 },
	{ "block:block_io_done", { "io_done" }, 0 },
	{ "sched:sched_process_exec", { "io_exec" }, 0 },
	{ "writeback:writeback_dirty_folio", { "io_dirty_folio" }, 0 },
	{ "filemap:mm_filemap_add_to_page_cache", { "io_pc_add" }, 0 },
	{ "filemap:mm_filemap_delete_from_page_cache", { "io_pc_delete" }, 0 },
	{ "readahead:page_cache_sync_ra", { "io_ra_sync" }, 0 },
	{ "readahead:page_cache_async_ra", { "io_ra_async" }, 0 },
	{ "writeback:balance_dirty_pages", { "io_bdp" }, 0 },
	{ "writeback:writeback_single_inode_start", { "io_wb_start" }, 0 },
	{ "writeback:writeback_single_inode", { "io_wb_end" }, 0 },
	{ "ext4:ext4_sync_file_enter", { "io_fsync_enter" }, 0 },
	{ "ext4:ext4_sync_file_exit", { "io_fsync_exit" }, 0 },
	{ "jbd2:jbd2_run_stats", { "io_jbd_run_stats" }, 0 },
	{ "jbd2:jbd2_start_commit", { "io_jbd_start" }, 0 },
	{ "jbd2:jbd2_end_commit", { "io_jbd_end" }, 0 },
	{ "workqueue:workqueue_execute_start", { "io_wq_start" }, 0 },
	{ "workqueue:workqueue_execute_end", { "io_wq_end" }, 0 },
	/* a syscall program, run from here (sweep): without it (a kernel before 5.14, or skipped), a
	 * dispatch whose completion no program saw ends only when its request is used again */
	[IO_SWEEP_PROBE] = { "prog_run:io_sweep", { "io_sweep" }, PROBE_RUN },
};
const int io_probe_nspecs = sizeof(io_probe_specs) / sizeof(io_probe_specs[0]);
_Static_assert(sizeof(io_probe_specs) / sizeof(io_probe_specs[0]) == IO_SWEEP_PROBE + 1,
	       "the sweep is the last probe");

struct blk_snap {
	uint32_t dev;              /* kernel dev_t */
	struct io_sysstat st;
};

/* bpf/io.bpf.c creates rows and disks' entries from zero_row's zeroes */
_Static_assert(sizeof(struct io_stat) >= sizeof(struct io_dev), "zero_row too small for a disk");

struct busy_snap {
	uint32_t disk;
	uint64_t busy_ns, issued, missed;
};

/* Kernel symbols the I/O object needs: the loop driver's work functions (loop workers' I/O is
 * charged to the loop device), and the kfunc whose presence says which object to load. */
enum { KS_LOOP_WORKFN, KS_LOOP_ROOTCG_WORKFN, KS_RDONLY_CAST, KS_COUNT };

struct io_probes {
	struct io_bpf *skel;
	struct core_probes *core;  /* whose tree maps the programs share */
	struct probe_set probes;
	int ncpus;
	int stats_pc;              /* statistics rows per CPU (io_stats_pc), else shared (io_stats) */
	uint64_t begin_ns;
	struct io_lost lost0;
	struct blk_snap blk[MAX_BLK];
	int nblk;
	struct busy_snap busy[MAX_BLK];
	int nbusy;
	int timeline;              /* --timeline: requests sent on rq_events */
	__u32 reqs;                /* entries of map reqs (reqs_entries) */
	struct ring_buffer *rb;
	struct io_timeline_sink sink;
	uint64_t last_dirty_ns;
	int open_tag;              /* the phase whose requests go to the sink, -1 between phases */
	int trusted;               /* load the object built without bpf_rdonly_cast (io_open_skel) */
	uint64_t ksyms[KS_COUNT];  /* kernel addresses the programs need (ksym_names) */
	uint64_t last_sweep_ns;    /* the sweep's last run (sweep) */
	uint64_t sweeps, sweep_ns; /* its runs, and their time in all */
	int test_no_end_wait;      /* tests only (IOWHY_TEST_NO_END_WAIT=1): the control, no wait */
};

static const char *const ksym_names[KS_COUNT] = { "loop_workfn", "loop_rootcg_workfn",
						   "bpf_rdonly_cast" };

/* A fresh skeleton of the I/O object: the one whose programs read their arguments through
 * bpf_rdonly_cast (bpf/io.bpf.c), or, with `trusted`, the same source built without it
 * (IO_TRUSTED_ARGS) for kernels before 6.2. Both have the same maps, variables and program names
 * (tests/unit/test_load_fallbacks.c), so one skeleton type serves both. */
static struct io_bpf *io_open_skel(int trusted)
{
	struct io_bpf *s;

	if (!trusted)
		return io_bpf__open_opts(core_btf_open_opts());
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (io_bpf__create_skeleton(s)) {
		free(s);
		return NULL;
	}
	s->skeleton->data = (void *)io_trusted_bpf__elf_bytes(&s->skeleton->data_sz);
	if (bpf_object__open_skeleton(s->skeleton, core_btf_open_opts())) {
		io_bpf__destroy(s);
		return NULL;
	}
	return s;
}

/* Whether vmlinux's BTF has every struct the programs cast to (bpf_rdonly_cast takes vmlinux's ids
 * only): a kernel with the loop driver as a module has its types in the module's BTF, and the
 * object built without the kfunc reads them through CO-RE instead, loaded from the start rather
 * than after a failed load. The loop driver's are not needed without its work functions. */
static int cast_ids_known(const struct io_probes *t)
{
	static const char *const always[] = { "bio", "request", "address_space", "folio", "inode" };
	int loop = t->ksyms[KS_LOOP_WORKFN] || t->ksyms[KS_LOOP_ROOTCG_WORKFN];

	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		if (!core_btf_struct_id(always[i]))
			return 0;
	return !loop || (core_btf_struct_id("loop_device") && core_btf_struct_id("loop_worker"));
}

/* The probe set's loader: a fresh skeleton sharing the core's tree maps and mode. */
static void *open_io(void *ctx)
{
	struct io_probes *t = ctx;
	struct io_bpf *s = io_open_skel(t->trusted);
	__u32 slot_bits;

	if (!s)
		return NULL;
	if (core_probes_share_tree_maps(t->core, s->obj)) {
		io_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = t->core->use_hash != 0;
	s->rodata->inflight_shared = t->core->inflight_shared != 0;
	s->rodata->loop_workfn_addr = t->ksyms[KS_LOOP_WORKFN];
	s->rodata->loop_rootcg_workfn_addr = t->ksyms[KS_LOOP_ROOTCG_WORKFN];
	s->bss->current_phase = IO_NO_PHASE;
	s->rodata->tick_ns = tick_ns();
	/* bpf_rdonly_cast's type ids: not relocated against the cut-down BTF (core_btf.h) */
	s->rodata->kid_bio = core_btf_struct_id("bio");
	s->rodata->kid_request = core_btf_struct_id("request");
	s->rodata->kid_loop_device = core_btf_struct_id("loop_device");
	s->rodata->kid_loop_worker = core_btf_struct_id("loop_worker");
	s->rodata->kid_address_space = core_btf_struct_id("address_space");
	s->rodata->kid_folio = core_btf_struct_id("folio");
	s->rodata->kid_inode = core_btf_struct_id("inode");
	/* tests only: every Nth run of the completion program does nothing, as when the kernel skips
	 * it; block_io_done's program must then complete the request */
	s->rodata->test_skip_complete_every =
		(__u32)env_number("IOWHY_TEST_SKIP_COMPLETIONS", 0, 1000000);
	/* ...and block_io_done's too: completions the kernel ran no program for */
	if (!s->rodata->test_skip_complete_every) {
		s->rodata->test_skip_complete_every =
			(__u32)env_number("IOWHY_TEST_MISS_COMPLETIONS", 0, 1000000);
		s->rodata->test_miss_done_too = s->rodata->test_skip_complete_every != 0;
	}
	s->rodata->test_no_unstale = env_number("IOWHY_TEST_NO_UNSTALE", 0, 1) != 0;
	/* tests only: fewer spilled rows a CPU (0: a refused row is lost, as with a full map) */
	s->rodata->spill_rows = (__u32)env_number("IOWHY_TEST_SPILL_ROWS", IO_SPILL_ROWS, IO_SPILL_ROWS);
	t->test_no_end_wait = env_number("IOWHY_TEST_NO_END_WAIT", 0, 1) != 0;
	s->bss->timeline_on = t->timeline != 0;
	/* tests only: a bio kept in another CPU's row; a few request slots, so that most requests
	 * go to the overflow hash */
	s->rodata->test_bio_row_offset = (__u32)env_number("IOWHY_TEST_BIO_ROW_OFFSET", 0, 1024);
	s->rodata->test_bio_move_spin = (__u32)env_number("IOWHY_TEST_BIO_MOVE_SPIN", 0, 1000000);
	slot_bits = (__u32)env_number("IOWHY_TEST_REQ_SLOT_BITS", 0, 20);
	if (!slot_bits)
		slot_bits = req_slot_bits(t->reqs);
	s->rodata->req_slot_shift = 64 - slot_bits;
	s->rodata->nr_cpus = (__u32)t->ncpus;
	/* statistics rows per CPU up to IO_STATS_PER_CPU_MAX possible CPUs (8 KiB a row each); tests
	 * ask for the shared rows with IOWHY_TEST_SHARED_IO_STATS=1 */
	t->stats_pc = t->ncpus <= IO_STATS_PER_CPU_MAX &&
		      !env_number("IOWHY_TEST_SHARED_IO_STATS", 0, 1);
	s->rodata->stats_per_cpu = t->stats_pc != 0;
	if (bpf_map__set_max_entries(t->stats_pc ? s->maps.io_stats : s->maps.io_stats_pc, 1) ||
	    bpf_map__set_max_entries(s->maps.bio_last, (__u32)t->ncpus)) {
		io_bpf__destroy(s);
		return NULL;
	}
	if (bpf_map__set_max_entries(s->maps.req_slots, 1u << slot_bits) ||
	    bpf_map__set_max_entries(s->maps.reqs, reqs_overflow_entries(t->reqs)) ||
	    bpf_map__set_max_entries(s->maps.bios, bios_entries(t->reqs)) ||
	    (t->timeline && (bpf_map__set_max_entries(s->maps.rq_events, TL_RING_BYTES) ||
			     bpf_map__set_max_entries(s->maps.bio_tids, TL_BIO_TIDS)))) {
		io_bpf__destroy(s);
		return NULL;
	}
	return s;
}

static struct bpf_object *io_object(void *skel)
{
	return ((struct io_bpf *)skel)->obj;
}

static int load_io(void *skel)
{
	return io_bpf__load(skel);
}

static void destroy_io(void *skel)
{
	io_bpf__destroy(skel);
}

/* The kernel addresses the object needs, timed into the set's loading. */
static void find_ksyms(struct io_probes *t)
{
	uint64_t t0 = now_ns(), c0 = probe_thread_cpu_ns();

	ksym_addrs(ksym_names, t->ksyms, KS_COUNT);
	t->probes.load_ns += now_ns() - t0;
	t->probes.load_cpu_ns += probe_thread_cpu_ns() - c0;
}

int io_probes_open(struct io_probes **out, struct core_probes *core)
{
	return io_probes_open_timeline(out, core, 0);
}

int io_probes_open_timeline(struct io_probes **out, struct core_probes *core, int timeline)
{
	struct io_probes *t = calloc(1, sizeof(*t));
	const struct probe_loader loader = { open_io, io_object, load_io, destroy_io, t };

	*out = NULL;
	if (!t) {
		fprintf(stderr, "iowhy: out of memory\n");
		return -1;
	}
	t->core = core;
	t->timeline = timeline;
	t->open_tag = -1;
	t->ncpus = libbpf_num_possible_cpus();
	t->reqs = reqs_entries();
	if (probe_set_init(&t->probes, "I/O", io_probe_specs, io_probe_nspecs) ||
	    probe_set_prepare_kernel(&t->probes)) {
		free(t);
		return -1;
	}
	find_ksyms(t);
	t->trusted = !t->ksyms[KS_RDONLY_CAST] || probe_fallbacks_forced() || !cast_ids_known(t);
	t->skel = t->ncpus > 0 ? probe_set_load(&t->probes, PROBE_TP_BTF, &loader) : NULL;
	if (!t->skel && !t->trusted && t->ncpus > 0) { /* the kfunc is there but did not do */
		t->trusted = 1;
		t->skel = probe_set_load(&t->probes, PROBE_TP_BTF, &loader);
	}
	if (!t->skel) {
		fprintf(stderr, "iowhy: cannot load the block-layer / page-cache probes "
			"(run with --no-io to trace without them)\n");
		free(t);
		return -1;
	}
	probe_set_attach(&t->probes); /* all optional: those that fail are listed */
	/* loop workers are followed only when their items' ends are seen too */
	t->skel->bss->wq_end_attached =
		probe_set_attached(&t->probes, "workqueue:workqueue_execute_end") > 0;
	*out = t;
	return 0;
}

int io_probes_missing(const struct io_probes *t, struct missing_probes *out)
{
	return t ? probe_set_missing(&t->probes, out) : 0;
}

int io_probes_map_fd(const struct io_probes *t, const char *name)
{
	return t ? bpf_object__find_map_fd_by_name(t->skel->obj, name) : -1;
}

/* The statistics map in use. */
static struct bpf_map *stats_map(const struct io_probes *t)
{
	return t->stats_pc ? t->skel->maps.io_stats_pc : t->skel->maps.io_stats;
}

int io_probes_stats_fd(const struct io_probes *t)
{
	return t && t->skel ? bpf_map__fd(stats_map(t)) : -1;
}

int io_probes_stats_rows(const struct io_probes *t)
{
	return !t || !t->skel ? 0 : t->stats_pc ? t->ncpus : 1;
}

int io_probes_stats_lookup(const struct io_probes *t, const struct io_key *key,
			   struct io_stat *out)
{
	struct io_stat *v;
	int err;

	if (!t || !t->skel)
		return -1;
	if (!t->stats_pc)
		return bpf_map__lookup_elem(stats_map(t), key, sizeof(*key), out, sizeof(*out), 0);
	v = calloc(t->ncpus, sizeof(*v));
	if (!v)
		return -1;
	err = bpf_map__lookup_elem(stats_map(t), key, sizeof(*key), v, t->ncpus * sizeof(*v), 0);
	if (!err) {
		*out = v[0];
		for (int c = 1; c < t->ncpus; c++)
			io_stat_merge(out, &v[c]);
	}
	free(v);
	return err;
}

/* The spilled rows of slot i on every CPU into v (t->ncpus of them): 0, or -1. */
static int spill_slot(const struct io_probes *t, __u32 i, struct io_spill *v)
{
	return bpf_map__lookup_elem(t->skel->maps.io_spill, &i, sizeof(i), v,
				    (size_t)t->ncpus * sizeof(*v), 0) ? -1 : 0;
}

/* The phase of a spilled row (its key's, by kind). */
static int spill_phase(const struct io_spill *sp)
{
	return sp->used == IO_SPILL_IO ? sp->key.io.phase : (int)sp->key.fs.phase;
}

/* Each spilled row of KIND and phase tag, on every CPU, to fn. */
static void spill_foreach(const struct io_probes *t, __u64 kind, int tag,
			  void (*fn)(void *ctx, const struct io_spill *sp), void *ctx)
{
	struct io_spill *v;

	if (!t || !t->skel)
		return;
	v = calloc((size_t)t->ncpus, sizeof(*v));
	for (__u32 i = 0; v && i < IO_SPILL_ROWS; i++) {
		if (spill_slot(t, i, v))
			continue;
		for (int c = 0; c < t->ncpus; c++)
			if (v[c].used == kind && spill_phase(&v[c]) == tag)
				fn(ctx, &v[c]);
	}
	free(v);
}

struct io_spill_fn {
	void (*fn)(void *ctx, const struct io_key *key, const struct io_stat *st);
	void *ctx;
};

static void io_spilled(void *ctx, const struct io_spill *sp)
{
	const struct io_spill_fn *f = ctx;

	f->fn(f->ctx, &sp->key.io, &sp->v.io);
}

void io_probes_spill_foreach(const struct io_probes *t, int tag,
			     void (*fn)(void *ctx, const struct io_key *key, const struct io_stat *st),
			     void *ctx)
{
	struct io_spill_fn f = { fn, ctx };

	spill_foreach(t, IO_SPILL_IO, tag, io_spilled, &f);
}

/* Free the spilled rows of phase tag, as clear_phase does the maps' rows. */
static void clear_spill(struct io_probes *t, int tag)
{
	struct io_spill *v = calloc((size_t)t->ncpus, sizeof(*v));

	for (__u32 i = 0; v && i < IO_SPILL_ROWS; i++) {
		int changed = 0;

		if (spill_slot(t, i, v))
			continue;
		for (int c = 0; c < t->ncpus; c++)
			if (v[c].used && spill_phase(&v[c]) == tag) {
				memset(&v[c], 0, sizeof(v[c]));
				changed = 1;
			}
		if (changed)
			bpf_map__update_elem(t->skel->maps.io_spill, &i, sizeof(i), v,
					     (size_t)t->ncpus * sizeof(*v), 0);
	}
	free(v);
}

const struct probe_set *io_probes_set(const struct io_probes *t)
{
	return t ? &t->probes : NULL;
}

void io_probes_close(struct io_probes *t)
{
	if (!t)
		return;
	probe_set_detach(&t->probes);
	ring_buffer__free(t->rb);
	io_bpf__destroy(t->skel);
	free(t);
}

/* ---- --timeline: finished requests and dirty bytes ---- */

static int on_request(void *ctx, void *data, size_t len)
{
	struct io_probes *t = ctx;

	const struct io_rq_rec *r = data;

	/* a request of a closed phase is in no report: none in the timeline either */
	if (len >= sizeof(*r) && t->sink.request && r->phase == t->open_tag)
		t->sink.request(t->sink.ctx, r);
	return 0;
}

void io_probes_set_sink(struct io_probes *t, const struct io_timeline_sink *sink)
{
	if (!t || !t->timeline)
		return;
	t->sink = *sink;
	if (!t->rb)
		t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.rq_events), on_request, t, NULL);
	if (!t->rb)
		fprintf(stderr, "iowhy: --timeline: no device requests: cannot read their ring "
			"buffer (%s)\n", strerror(errno));
}

static void read_inodes(struct io_probes *t, struct io_phase *p);

/* One sample of the dirty bytes: the tree's files' and the system's. */
static void sample_dirty(struct io_probes *t, uint64_t now)
{
	struct io_phase p = { 0 };
	uint64_t tree, dirty, wb, gone;

	read_inodes(t, &p);
	gone = p.tree_wb_total + p.tree_removed_total;
	tree = p.tree_dirtied_total > gone ? p.tree_dirtied_total - gone : 0;
	meminfo_dirty(&dirty, &wb);
	t->sink.dirty(t->sink.ctx, now, tree, dirty, wb);
}

/* One run of the sweep (the kernel writes the context back in place). 0, or -1. */
static int sweep_run(struct io_probes *t, struct io_sweep_ctx *c)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = c, .ctx_size_in = sizeof(*c));

	if (bpf_prog_test_run_opts(bpf_program__fd(t->probes.p[IO_SWEEP_PROBE].prog), &o))
		return -1;
	t->sweeps++;
	return 0;
}

/*
 * Run the sweep (bpf/io.bpf.c io_sweep) when it loaded. While a phase runs (end 0) it looks only
 * when a disk is quiet. At a phase's end (end 1) it looks at every request slot: a disk written to
 * until the end was never quiet, and its dispatches with a missed completion would go uncounted,
 * neither requests nor missed. When it finds idle dispatches too young to end (issued less than
 * IO_SWEEP_MIN_AGE_NS ago: perhaps not yet marked in flight), it waits until they are that old (at
 * most that long, and only then) and sweeps again: the last writes of a workload whose completions
 * were missed are counted missed. The disks' missed counts go to phase tag `tag` (-1: none).
 */
static void sweep(struct io_probes *t, uint64_t now, int end, int tag)
{
	const struct probe *p = &t->probes.p[IO_SWEEP_PROBE];
	__u32 phase = tag >= 0 && tag < IO_MAX_PHASES ? (__u32)tag : IO_NO_PHASE;
	struct io_sweep_ctx c = { .min_age_ns = IO_SWEEP_MIN_AGE_NS, .all = (__u32)end,
				  .phase = phase };

	t->last_sweep_ns = now;
	if (p->state != PROBE_ATTACHED || !p->prog)
		return;
	if (sweep_run(t, &c))
		return;
	if (end && c.young && !t->test_no_end_wait) {
		uint64_t due = c.young_issue + IO_SWEEP_MIN_AGE_NS, n = now_ns();
		struct timespec ts;

		if (due > n) {
			if (due - n > IO_SWEEP_MIN_AGE_NS) /* a clock that went back: not longer */
				due = n + IO_SWEEP_MIN_AGE_NS;
			ts.tv_sec = 0;
			ts.tv_nsec = (long)(due - n);
			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
		c = (struct io_sweep_ctx){ .min_age_ns = IO_SWEEP_MIN_AGE_NS, .all = 1, .phase = phase };
		sweep_run(t, &c);
	}
	t->sweep_ns += now_ns() - now;
}

void io_probes_sweeps(const struct io_probes *t, uint64_t *runs, uint64_t *ns)
{
	*runs = t ? t->sweeps : 0;
	*ns = t ? t->sweep_ns : 0;
}

void io_probes_poll(struct io_probes *t)
{
	uint64_t now;

	if (!t)
		return;
	now = now_ns();
	if (now - t->last_sweep_ns >= IO_SWEEP_EVERY_NS)
		sweep(t, now, 0, t->open_tag);
	if (!t->rb)
		return;
	ring_buffer__consume(t->rb);
	if (t->sink.dirty && now - t->last_dirty_ns >= TL_DIRTY_EVERY_NS) {
		t->last_dirty_ns = now;
		sample_dirty(t, now);
	}
}

uint64_t io_probes_requests_lost(const struct io_probes *t)
{
	return t && t->timeline ? t->skel->bss->rq_events_lost : 0;
}

/* ---- /sys/block ---- */

/* Stat counters of every block device and partition. */
static int snap_blk(struct blk_snap *out, int max)
{
	struct sysblock_entry *e = calloc(max, sizeof(*e));
	char buf[512];
	int n = 0, ne;

	if (!e)
		return 0;
	ne = sysblock_list(e, max);
	for (int i = 0; i < ne; i++) {
		if (sysblock_read_attr(e[i].name, "stat", buf, sizeof(buf)) < 0 ||
		    io_sysstat_parse(buf, &out[n].st) < 0)
			continue;
		out[n++].dev = kdev_of(e[i].dev);
	}
	free(e);
	return n;
}

/* Name, partition and disk of d->dev (a kernel dev_t). */
static void name_dev(struct io_devinfo *d)
{
	struct sysblock_entry e;

	if (sysblock_lookup(dev_of_kdev(d->dev), &e))
		return;
	snprintf(d->name, sizeof(d->name), "%.31s", e.name);
	snprintf(d->disk_name, sizeof(d->disk_name), "%.31s", e.disk);
	d->is_partition = e.is_partition;
	if (e.is_partition)
		d->disk = kdev_of(e.disk_dev);
}

/* ---- map readers ---- */

static void sum_lost(struct io_probes *t, struct io_lost *out)
{
	struct io_lost v[t->ncpus];
	__u32 zero = 0;

	memset(out, 0, sizeof(*out));
	if (bpf_map__lookup_elem(t->skel->maps.lost, &zero, sizeof(zero), v, sizeof(v), 0))
		return;
	for (int c = 0; c < t->ncpus; c++) {
		const __u64 *a = (const __u64 *)&v[c];
		__u64 *o = (__u64 *)out;

		for (size_t k = 0; k < sizeof(*out) / sizeof(__u64); k++)
			o[k] += a[k];
	}
}

static void lost_delta(const struct io_lost *a, const struct io_lost *b, struct io_lost *out)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;
	__u64 *o = (__u64 *)out;

	for (size_t k = 0; k < sizeof(*out) / sizeof(__u64); k++)
		o[k] = y[k] > x[k] ? y[k] - x[k] : 0;
}

/* Keys of `map` (key_size bytes) whose phase byte/word equals tag: deleted. */
static void clear_phase(struct bpf_map *map, size_t key_size, size_t phase_off, size_t phase_size,
			int tag)
{
	unsigned char key[32], next[32], dead[512][32];
	int ndead = 0, have = 0;

	while (ndead < 512 && !bpf_map__get_next_key(map, have ? key : NULL, next, key_size)) {
		uint32_t ph = 0;

		memcpy(&ph, next + phase_off, phase_size);
		if ((int)ph == tag)
			memcpy(dead[ndead++], next, key_size);
		memcpy(key, next, key_size);
		have = 1;
	}
	for (int i = 0; i < ndead; i++)
		bpf_map__delete_elem(map, dead[i], key_size, 0);
}

static void snap_busy(struct io_probes *t, int tag)
{
	__u32 key, next;
	struct io_dev v;
	int have = 0;

	t->nbusy = 0;
	while (t->nbusy < MAX_BLK &&
	       !bpf_map__get_next_key(t->skel->maps.devs, have ? &key : NULL, &next, sizeof(next))) {
		key = next;
		have = 1;
		if (bpf_map__lookup_elem(t->skel->maps.devs, &key, sizeof(key), &v, sizeof(v), 0))
			continue;
		t->busy[t->nbusy].disk = key;
		t->busy[t->nbusy].busy_ns = v.s.busy_ns[tag];
		t->busy[t->nbusy].issued = v.s.issued[tag];
		t->busy[t->nbusy].missed = v.s.missed[tag];
		t->nbusy++;
	}
}

/* The loop devices' backing files into stack_inodes ((dev, ino) -> the loop device), so the
 * flusher's writeback of them is charged below their loop device. */
static void fill_stack_inodes(struct io_probes *t)
{
	struct sysblock_entry e[MAX_BLK];
	int n = sysblock_list(e, MAX_BLK), added = 0;

	for (int i = 0; i < n; i++) {
		char path[96], file[4096];
		struct io_stack_ino k = { 0 };
		struct stat st;
		FILE *f;
		__u32 up;

		if (strncmp(e[i].name, "loop", 4) || e[i].is_partition)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%.32s/loop/backing_file", e[i].name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(file, sizeof(file), f))
			file[0] = '\0';
		fclose(f);
		file[strcspn(file, "\n")] = '\0';
		if (!file[0] || stat(file, &st))
			continue;
		k.dev = kdev_of(st.st_dev);
		k.ino = st.st_ino;
		up = kdev_of(e[i].dev);
		added += !bpf_map__update_elem(t->skel->maps.stack_inodes, &k, sizeof(k), &up,
					       sizeof(up), 0);
	}
	if (added)
		t->skel->bss->stack_active = 1;
}

void io_probes_phase_begin(struct io_probes *t, int tag)
{
	struct io_phase_ctr zero[t ? t->ncpus : 1];
	__u32 k = tag;

	if (!t || tag < 0 || tag >= IO_MAX_PHASES)
		return;
	t->skel->bss->current_phase = IO_NO_PHASE;
	io_probes_poll(t); /* --timeline: requests of no open phase, dropped */
	clear_phase(stats_map(t), sizeof(struct io_key), 4, 1, tag);
	clear_spill(t, tag);
	clear_phase(t->skel->maps.fs_stats, sizeof(struct io_fs_key), 4, 4, tag);
	clear_phase(t->skel->maps.jbd_stats, sizeof(struct io_fs_key), 4, 4, tag);
	memset(zero, 0, sizeof(zero));
	bpf_map__update_elem(t->skel->maps.phase_ctr, &k, sizeof(k), zero, sizeof(zero), 0);
	sum_lost(t, &t->lost0);
	fill_stack_inodes(t);
	snap_busy(t, tag);
	t->nblk = snap_blk(t->blk, MAX_BLK);
	t->begin_ns = now_ns();
	t->skel->bss->phase_begin_ns = t->begin_ns; /* CLOCK_MONOTONIC, bpf_ktime_get_ns()'s clock */
	t->open_tag = tag;
	t->skel->bss->phase_until_ns = 0;
	t->skel->bss->current_phase = tag;
}

void io_probes_until(struct io_probes *t, uint64_t end_ns)
{
	if (t)
		t->skel->bss->phase_until_ns = end_ns;
}

static void add_spilled(void *ctx, const struct io_key *k, const struct io_stat *st)
{
	io_phase_add_upper(ctx, k->dev, k->upper, k->op, k->cls, st);
}

static void read_rows(struct io_probes *t, int tag, struct io_phase *p)
{
	struct bpf_map *m = stats_map(t);
	struct io_key key, next;
	struct io_stat *v = calloc(1, sizeof(*v));
	int have = 0;

	if (!v)
		return;
	while (!bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		key = next;
		have = 1;
		if (key.phase != tag || io_probes_stats_lookup(t, &key, v))
			continue;
		io_phase_add_upper(p, key.dev, key.upper, key.op, key.cls, v);
	}
	free(v);
	io_probes_spill_foreach(t, tag, add_spilled, p);
}

static void sum_u64(void *dst, const void *src, size_t bytes)
{
	__u64 *o = dst;
	const __u64 *a = src;

	for (size_t k = 0; k < bytes / sizeof(__u64); k++)
		o[k] += a[k];
}

/* The phase's fsync row of dev, made when absent; NULL when out of memory. */
static struct io_fsrow *fs_row(struct io_phase *p, uint32_t dev)
{
	struct io_fsrow *r;

	for (size_t i = 0; i < p->nfs; i++)
		if (p->fs[i].dev == dev)
			return &p->fs[i];
	r = realloc(p->fs, (p->nfs + 1) * sizeof(*r));
	if (!r)
		return NULL;
	p->fs = r;
	r = &p->fs[p->nfs++];
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	return r;
}

/* One CPU's (or one spilled) fsync row of dev into the phase's. */
static void add_fs(struct io_phase *p, uint32_t dev, const struct io_fs_stat *one)
{
	struct io_fsrow *r = fs_row(p, dev);

	if (!r)
		return;
	sum_u64(&r->st, one, offsetof(struct io_fs_stat, hist));
	for (int k = 0; k < IO_LAT_SLOTS; k++)
		r->st.hist[k] += one->hist[k];
	/* (the sums above added the maxima too) */
	r->st.max_ns -= one->max_ns;
	if (one->max_ns > r->st.max_ns)
		r->st.max_ns = one->max_ns;
}

static struct io_jbdrow *jbd_row(struct io_phase *p, uint32_t dev)
{
	struct io_jbdrow *r;

	for (size_t i = 0; i < p->njbd; i++)
		if (p->jbd[i].dev == dev)
			return &p->jbd[i];
	r = realloc(p->jbd, (p->njbd + 1) * sizeof(*r));
	if (!r)
		return NULL;
	p->jbd = r;
	r = &p->jbd[p->njbd++];
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	return r;
}

/* One CPU's (or one spilled) journal row of dev into the phase's. */
static void add_jbd(struct io_phase *p, uint32_t dev, const struct io_jbd_stat *one)
{
	struct io_jbdrow *r = jbd_row(p, dev);

	if (!r)
		return;
	sum_u64(&r->st, one, offsetof(struct io_jbd_stat, hist));
	for (int k = 0; k < IO_LAT_SLOTS; k++)
		r->st.hist[k] += one->hist[k];
	r->st.commit_max -= one->commit_max;
	if (one->commit_max > r->st.commit_max)
		r->st.commit_max = one->commit_max;
}

static void fs_spilled(void *ctx, const struct io_spill *sp)
{
	add_fs(ctx, sp->key.fs.dev, &sp->v.fs);
}

static void jbd_spilled(void *ctx, const struct io_spill *sp)
{
	add_jbd(ctx, sp->key.fs.dev, &sp->v.jbd);
}

static void read_fs(struct io_probes *t, int tag, struct io_phase *p)
{
	struct io_fs_key key, next;
	struct io_fs_stat *v = calloc(t->ncpus, sizeof(*v));
	int have = 0;

	while (v && !bpf_map__get_next_key(t->skel->maps.fs_stats, have ? &key : NULL, &next,
					   sizeof(next))) {
		key = next;
		have = 1;
		if ((int)key.phase != tag || bpf_map__lookup_elem(t->skel->maps.fs_stats, &key,
				sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		for (int c = 0; c < t->ncpus; c++)
			add_fs(p, key.dev, &v[c]);
	}
	free(v);
	spill_foreach(t, IO_SPILL_FS, tag, fs_spilled, p);
}

static void read_jbd(struct io_probes *t, int tag, struct io_phase *p)
{
	struct io_fs_key key, next;
	struct io_jbd_stat *v = calloc(t->ncpus, sizeof(*v));
	int have = 0;

	while (v && !bpf_map__get_next_key(t->skel->maps.jbd_stats, have ? &key : NULL, &next,
					   sizeof(next))) {
		key = next;
		have = 1;
		if ((int)key.phase != tag || bpf_map__lookup_elem(t->skel->maps.jbd_stats, &key,
				sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		for (int c = 0; c < t->ncpus; c++)
			add_jbd(p, key.dev, &v[c]);
	}
	free(v);
	spill_foreach(t, IO_SPILL_JBD, tag, jbd_spilled, p);
}

static void read_ctr(struct io_probes *t, int tag, struct io_phase *p)
{
	struct io_phase_ctr v[t->ncpus];
	__u32 k = tag;

	if (bpf_map__lookup_elem(t->skel->maps.phase_ctr, &k, sizeof(k), v, sizeof(v), 0))
		return;
	for (int c = 0; c < t->ncpus; c++)
		sum_u64(&p->ctr, &v[c], sizeof(v[c]));
}

static void read_busy(struct io_probes *t, int tag, struct io_phase *p)
{
	__u32 key, next;
	struct io_dev v;
	int have = 0;

	while (!bpf_map__get_next_key(t->skel->maps.devs, have ? &key : NULL, &next, sizeof(next))) {
		uint64_t busy0 = 0, issued0 = 0, missed0 = 0;
		struct io_devinfo *d;

		key = next;
		have = 1;
		if (bpf_map__lookup_elem(t->skel->maps.devs, &key, sizeof(key), &v, sizeof(v), 0))
			continue;
		for (int i = 0; i < t->nbusy; i++) {
			if (t->busy[i].disk == key) {
				busy0 = t->busy[i].busy_ns;
				issued0 = t->busy[i].issued;
				missed0 = t->busy[i].missed;
			}
		}
		if (v.s.issued[tag] == issued0 && v.s.busy_ns[tag] == busy0 && v.s.missed[tag] == missed0)
			continue;
		d = io_phase_dev(p, key);
		if (!d)
			return;
		d->busy_ns = v.s.busy_ns[tag] - busy0;
		d->issued = v.s.issued[tag] - issued0;
		d->missed = v.s.missed[tag] - missed0;
	}
}

static void read_blk(struct io_probes *t, struct io_phase *p)
{
	struct blk_snap now[MAX_BLK];
	int n = snap_blk(now, MAX_BLK);

	for (int i = 0; i < n; i++) {
		struct io_sysstat d;
		struct io_devinfo *di;

		for (int j = 0; j < t->nblk; j++) {
			if (t->blk[j].dev != now[i].dev)
				continue;
			io_sysstat_delta(&t->blk[j].st, &now[i].st, &d);
			if (!d.rd_ios && !d.wr_ios && !d.dc_ios && !d.fl_ios)
				break;
			di = io_phase_dev(p, now[i].dev);
			if (di) {
				di->has_stat = 1;
				di->stat = d;
			}
			break;
		}
	}
}

/* The totals of the inodes the tree dirtied so far (session), summed over the CPUs. */
static void read_inodes(struct io_probes *t, struct io_phase *p)
{
	struct io_inode_totals v[t->ncpus];
	__u32 zero = 0;

	if (bpf_map__lookup_elem(t->skel->maps.inode_totals, &zero, sizeof(zero), v, sizeof(v), 0))
		return;
	for (int i = 0; i < t->ncpus; i++) {
		p->tree_inodes += v[i].inodes;
		p->tree_dirtied_total += v[i].dirtied_bytes;
		p->tree_wb_total += v[i].wb_bytes;
		p->tree_removed_total += v[i].removed_bytes;
	}
}

static void sys_bytes(const struct phase_result *r, struct io_phase *p)
{
	static const int rd[] = { SYS_read, SYS_pread64, SYS_readv, SYS_preadv, SYS_preadv2 };
	static const int wr[] = { SYS_write, SYS_pwrite64, SYS_writev, SYS_pwritev, SYS_pwritev2 };

	for (size_t i = 0; i < sizeof(rd) / sizeof(rd[0]); i++) {
		if (rd[i] < IOWHY_NR_SLOTS) {
			p->sys_read_bytes += r->sys[rd[i]].ret_sum;
			p->sys_reads += r->sys[rd[i]].count;
		}
		if (wr[i] < IOWHY_NR_SLOTS) {
			p->sys_write_bytes += r->sys[wr[i]].ret_sum;
			p->sys_writes += r->sys[wr[i]].count;
		}
	}
}

#define BLKIO_ROOT "/sys/fs/cgroup/blkio"

/* The directory under BLKIO_ROOT whose inode is ino, as "/a/b" in out (depth-first, fd-relative,
 * links never followed, at most 6 levels). 0, or -1 when there is none. */
static int cgroup_path_of(int dfd, const char *rel, uint64_t ino, char *out, size_t len,
			  int depth)
{
	DIR *d;
	struct dirent *e;
	int found = -1;

	if (depth > 6 || !(d = fdopendir(dfd))) {
		close(dfd);
		return -1;
	}
	while (found < 0 && (e = readdir(d))) {
		char sub[512];
		struct stat st;
		int fd;

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name) >= (int)sizeof(sub))
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && st.st_ino == ino) {
			close(fd);
			found = snprintf(out, len, "%s", sub) < (int)len ? 0 : -1;
			break;
		}
		found = cgroup_path_of(fd, sub, ino, out, len, depth + 1);
	}
	closedir(d);
	return found;
}

/* The blkio cgroup a tree task of phase `tag` exec'd in (not the root), as "/x"; 0, or -1. */
static int tree_blkio_cgroup(struct io_probes *t, int tag, char *out, size_t len)
{
	struct bpf_map *m = t->skel->maps.tree_css;
	__u64 key, next;
	struct io_css v;
	int have = 0;

	while (!bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		int fd;

		key = next;
		have = 1;
		if (bpf_map__lookup_elem(m, &key, sizeof(key), &v, sizeof(v), 0) ||
		    (int)v.phase != tag || !v.cgid)
			continue;
		fd = open(BLKIO_ROOT, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && cgroup_path_of(fd, "", v.cgid, out, len, 0) == 0)
			return 0;
	}
	return -1;
}

/* The blk-throttle limits of the workload's blkio cgroup on each disk of the phase. */
static void read_throttles(struct io_probes *t, int tag, struct io_phase *p)
{
	char cg[512];

	if (tree_blkio_cgroup(t, tag, cg, sizeof(cg)))
		return;
	for (size_t i = 0; i < p->ndevs; i++) {
		struct io_devinfo *d = &p->devs[i];
		struct bt_limits *lim = malloc(sizeof(*lim));

		if (lim && !d->is_partition &&
		    blkthrottle_limits(BLKIO_ROOT, cg, IO_DEV_MAJOR(d->dev), IO_DEV_MINOR(d->dev),
				       lim) > 0) {
			d->thr_read_bps = lim->read_bps;
			d->thr_write_bps = lim->write_bps;
			d->thr_read_iops = lim->read_iops;
			d->thr_write_iops = lim->write_iops;
			snprintf(d->thr_cgroup, sizeof(d->thr_cgroup), "%.63s", lim->cgroup);
		}
		free(lim);
	}
}

/* The stack line of the file system mounted at mp, added to p unless already there or a single
 * level (a file system straight on a disk). */
static void add_stackline(struct io_phase *p, const char *mp)
{
	int lv[IO_STACK_LEVELS][DS_MAX_KIDS], counts[IO_STACK_LEVELS], nl;
	struct devstack *ds = malloc(sizeof(*ds));
	struct io_stackline sl;
	char err[256];

	if (!ds || devstack_from_path(NULL, mp, ds, err, sizeof(err))) {
		free(ds);
		return;
	}
	memset(&sl, 0, sizeof(sl));
	if (snprintf(sl.head, sizeof(sl.head), "%.60s (%.15s%s%.15s)", ds->mountpoint, ds->fstype,
		     ds->profile[0] ? " " : "", ds->profile) < 0)
		sl.head[0] = '\0';
	for (size_t i = 0; i < p->nstacks; i++) {
		if (!strcmp(p->stacks[i].head, sl.head)) {
			free(ds);
			return;
		}
	}
	nl = devstack_levels(ds, lv, counts, IO_STACK_LEVELS);
	for (int l = 0; l < nl; l++) {
		sl.ndev[l] = counts[l] < IO_STACK_WIDTH ? counts[l] : IO_STACK_WIDTH;
		for (int i = 0; i < sl.ndev[l]; i++) {
			const struct ds_node *n = &ds->nodes[lv[l][i]];

			sl.dev[l][i] = ((uint32_t)n->major << 20) | n->minor;
		}
	}
	for (int l = 0; l + 1 < nl; l++)
		for (int i = 0; i < sl.ndev[l]; i++)
			for (int j = 0; j < sl.ndev[l + 1] && !sl.on[l][i]; j++)
				if (devstack_sits_on(ds, lv[l][i], lv[l + 1][j]))
					sl.on[l][i] = (uint8_t)(j + 1);
	sl.nlevels = nl;
	if (nl >= 2)
		io_phase_add_stack(p, &sl);
	free(ds);
}

/* The stacks of the file systems on the devices the workload's own I/O (its requests, writeback
 * of its files) touched: a loop device's file system with its backing disk, btrfs with its
 * members. */
static void find_stacks(struct io_phase *p)
{
	for (size_t i = 0; i < p->nrows; i++) {
		const struct io_row *r = &p->rows[i];
		char mp[4096];

		if (r->cls != IO_CL_TREE && r->cls != IO_CL_WB_TREE)
			continue;
		if (devstack_mount_of(NULL, io_phase_dev_name(p, io_phase_disk_of(p, r->dev)), mp,
				      sizeof(mp)) == 0)
			add_stackline(p, mp);
	}
}

int io_probes_phase_end(struct io_probes *t, int tag, struct phase_result *r)
{
	struct io_phase *p;
	struct io_lost now;
	size_t i, n;

	if (!t || tag < 0 || tag >= IO_MAX_PHASES)
		return 0;
	t->skel->bss->current_phase = IO_NO_PHASE;
	p = io_phase_new();
	if (!p) {
		t->open_tag = -1;
		return -1;
	}
	p->window_ns = now_ns() - t->begin_ns;
	if (r && r->wall.end_ns > r->wall.start_ns)
		p->rate_ns = r->wall.end_ns - r->wall.start_ns;
	read_rows(t, tag, p);
	/* --timeline: the phase's last requests, once their rows are read: a request's record is
	 * sent right after its row is counted, so every counted one is in the ring by now */
	io_probes_poll(t);
	t->open_tag = -1;
	read_fs(t, tag, p);
	read_jbd(t, tag, p);
	clear_spill(t, tag); /* read: its rows go back to the CPUs for the next phases' */
	read_ctr(t, tag, p);
	/* a missed completion's request still in flight ends before the count (charged to this phase,
	 * closed already in the programs) */
	sweep(t, now_ns(), 1, tag);
	read_busy(t, tag, p);
	read_blk(t, p);
	read_inodes(t, p);
	sum_lost(t, &now);
	lost_delta(&t->lost0, &now, &p->lost);
	sys_bytes(r, p);
	/* Every device a row names, and the disks of partitions, get a name. */
	for (i = 0; i < p->nrows; i++) {
		io_phase_dev(p, p->rows[i].dev);
		if (p->rows[i].upper)
			io_phase_dev(p, p->rows[i].upper);
	}
	for (i = 0; i < p->nfs; i++)
		io_phase_dev(p, p->fs[i].dev);
	for (i = 0; i < p->njbd; i++)
		io_phase_dev(p, p->jbd[i].dev);
	for (i = 0; i < p->ndevs; i++)
		name_dev(&p->devs[i]);
	n = p->ndevs;
	for (i = 0; i < n; i++) {
		if (p->devs[i].is_partition && !io_phase_find_dev(p, p->devs[i].disk)) {
			struct io_devinfo *d = io_phase_dev(p, p->devs[i].disk);

			if (d)
				name_dev(d);
		}
	}
	find_stacks(p);
	for (i = 0; i < p->nstacks; i++) /* every level's devices get a name */
		for (int l = 0; l < p->stacks[i].nlevels; l++)
			for (int k = 0; k < p->stacks[i].ndev[l]; k++) {
				uint32_t dev = p->stacks[i].dev[l][k];
				struct io_devinfo *d;

				if (!io_phase_find_dev(p, dev) && (d = io_phase_dev(p, dev)))
					name_dev(d);
			}
	read_throttles(t, tag, p);
	probe_set_missing(&t->probes, &p->missing);
	r->io = p;
	return 0;
}
