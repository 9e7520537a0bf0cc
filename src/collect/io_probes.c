// SPDX-License-Identifier: GPL-2.0
/* Loader of bpf/io.bpf.c and the per-phase collection; see io_probes.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "io_probes.h"
#include "core_probes.h"
#include "result.h"
#include "iowhy.skel.h"
#include "io.skel.h"

#define MAX_PROGS 40
#define MAX_BLK 256

struct blk_snap {
	uint32_t dev;
	struct io_sysstat st;
};

struct busy_snap {
	uint32_t disk;
	uint64_t busy_ns, issued;
};

struct io_tracer {
	struct io_bpf *skel;
	struct bpf_link *links[MAX_PROGS];
	int nlinks;
	int ncpus;
	char missing[256];
	uint64_t begin_ns;
	struct io_lost lost0;
	struct blk_snap blk[MAX_BLK];
	int nblk;
	struct busy_snap busy[MAX_BLK];
	int nbusy;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void add_missing(struct io_tracer *t, const char *name)
{
	size_t n = strlen(t->missing);

	snprintf(t->missing + n, sizeof(t->missing) - n, "%s%s", n ? "," : "", name);
}

/* "tp_btf/block_rq_issue" -> "block:block_rq_issue" */
static void probe_name(const struct bpf_program *p, char *buf, size_t n)
{
	static const struct { const char *prefix, *cat; } cats[] = {
		{ "block_", "block" }, { "writeback_", "writeback" }, { "balance_dirty", "writeback" },
		{ "mm_filemap", "filemap" }, { "page_cache_", "readahead" }, { "ext4_", "ext4" },
		{ "jbd2_", "jbd2" },
	};
	const char *sec = bpf_program__section_name(p), *tp = strchr(sec, '/');

	tp = tp ? tp + 1 : sec;
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++) {
		if (!strncmp(tp, cats[i].prefix, strlen(cats[i].prefix))) {
			snprintf(buf, n, "%s:%s", cats[i].cat, tp);
			return;
		}
	}
	snprintf(buf, n, "%s", tp);
}

static const char *tp_of(const struct bpf_program *p)
{
	const char *sec = bpf_program__section_name(p), *tp = strchr(sec, '/');

	return tp ? tp + 1 : sec;
}

/* Open a skeleton sharing the core's tree maps, with only the programs in `on` autoloaded. */
static struct io_bpf *open_with(struct tracer *core, const unsigned char *on)
{
	struct io_bpf *s = io_bpf__open();
	struct bpf_program *p;
	int i = 0;

	if (!s)
		return NULL;
	if (bpf_map__reuse_fd(s->maps.task_store, bpf_map__fd(core->skel->maps.task_store)) ||
	    bpf_map__reuse_fd(s->maps.task_hash, bpf_map__fd(core->skel->maps.task_hash)) ||
	    bpf_map__reuse_fd(s->maps.cpu_task, bpf_map__fd(core->skel->maps.cpu_task)) ||
	    bpf_map__reuse_fd(s->maps.tree_inflight, bpf_map__fd(core->skel->maps.tree_inflight)) ||
	    bpf_map__reuse_fd(s->maps.disk_slots, bpf_map__fd(core->skel->maps.disk_slots)) ||
	    bpf_map__reuse_fd(s->maps.last_complete, bpf_map__fd(core->skel->maps.last_complete))) {
		io_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = core->use_hash != 0;
	s->bss->current_phase = IO_NO_PHASE;
	bpf_object__for_each_program(p, s->obj) {
		if (i < MAX_PROGS)
			bpf_program__set_autoload(p, on[i]);
		i++;
	}
	return s;
}

static struct io_bpf *load_with(struct tracer *core, const unsigned char *on)
{
	struct io_bpf *s = open_with(core, on);

	if (s && io_bpf__load(s)) {
		io_bpf__destroy(s);
		return NULL;
	}
	return s;
}

/* Which programs to load: those whose tracepoint exists in the kernel's BTF and that load on their
 * own (tried one by one only when loading them all together fails). */
static struct io_bpf *load_probed(struct io_tracer *t, struct tracer *core)
{
	unsigned char on[MAX_PROGS] = { 0 }, one[MAX_PROGS];
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct io_bpf *s = io_bpf__open();
	struct bpf_program *p;
	char name[96], tname[128];
	int n = 0, i;

	if (!s)
		return NULL;
	bpf_object__for_each_program(p, s->obj) {
		if (n >= MAX_PROGS)
			break;
		snprintf(tname, sizeof(tname), "btf_trace_%s", tp_of(p));
		on[n] = vmlinux && btf__find_by_name_kind(vmlinux, tname, BTF_KIND_TYPEDEF) > 0;
		if (!on[n]) {
			probe_name(p, name, sizeof(name));
			add_missing(t, name);
		}
		n++;
	}
	btf__free(vmlinux);
	io_bpf__destroy(s);
	s = load_with(core, on);
	if (s)
		return s;
	for (i = 0; i < n; i++) {
		struct io_bpf *trial;

		if (!on[i])
			continue;
		memset(one, 0, sizeof(one));
		one[i] = 1;
		trial = load_with(core, one);
		if (trial) {
			io_bpf__destroy(trial);
			continue;
		}
		on[i] = 0;
		trial = io_bpf__open();
		if (trial) {
			int j = 0;

			bpf_object__for_each_program(p, trial->obj) {
				if (j++ == i) {
					probe_name(p, name, sizeof(name));
					add_missing(t, name);
				}
			}
			io_bpf__destroy(trial);
		}
	}
	return load_with(core, on);
}

int io_tracer_open(struct io_tracer **out, struct tracer *core)
{
	struct io_tracer *t = calloc(1, sizeof(*t));
	struct bpf_program *p;
	char name[96];

	*out = NULL;
	if (!t) {
		fprintf(stderr, "iowhy: out of memory\n");
		return -1;
	}
	t->ncpus = libbpf_num_possible_cpus();
	t->skel = t->ncpus > 0 ? load_probed(t, core) : NULL;
	if (!t->skel) {
		fprintf(stderr, "iowhy: cannot load the block-layer / page-cache probes "
			"(run with --no-io to trace without them)\n");
		free(t);
		return -1;
	}
	bpf_object__for_each_program(p, t->skel->obj) {
		struct bpf_link *l;

		if (!bpf_program__autoload(p) || t->nlinks >= MAX_PROGS)
			continue;
		l = bpf_program__attach(p);
		if (!l) {
			probe_name(p, name, sizeof(name));
			add_missing(t, name);
			continue;
		}
		t->links[t->nlinks++] = l;
	}
	*out = t;
	return 0;
}

const char *io_tracer_missing(const struct io_tracer *t)
{
	return t ? t->missing : "";
}

void io_tracer_close(struct io_tracer *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nlinks; i++)
		bpf_link__destroy(t->links[i]);
	io_bpf__destroy(t->skel);
	free(t);
}

/* ---- /sys/block ---- */

static int read_small(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f)
		return -1;
	got = fread(buf, 1, n - 1, f);
	fclose(f);
	buf[got] = 0;
	return 0;
}

static int parse_devt(const char *s, uint32_t *dev)
{
	unsigned maj, min;

	if (sscanf(s, "%u:%u", &maj, &min) != 2)
		return -1;
	*dev = (maj << 20) | min;
	return 0;
}

/* Stat counters of every block device and partition. */
static int snap_blk(struct blk_snap *out, int max)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	char path[512], buf[512];
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/block/%s/dev", e->d_name);
		if (read_small(path, buf, sizeof(buf)) || parse_devt(buf, &out[n].dev))
			continue;
		snprintf(path, sizeof(path), "/sys/class/block/%s/stat", e->d_name);
		if (read_small(path, buf, sizeof(buf)) || io_sysstat_parse(buf, &out[n].st) < 0)
			continue;
		n++;
	}
	closedir(d);
	return n;
}

/* Name, partition and disk of dev, from /sys/dev/block/MAJ:MIN. */
static void name_dev(struct io_devinfo *d)
{
	char path[128], link[PATH_MAX], buf[64], *slash;
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", IO_DEV_MAJOR(d->dev), IO_DEV_MINOR(d->dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	slash = strrchr(link, '/');
	snprintf(d->name, sizeof(d->name), "%.31s", slash ? slash + 1 : link);
	memcpy(d->disk_name, d->name, sizeof(d->disk_name));
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", IO_DEV_MAJOR(d->dev),
		 IO_DEV_MINOR(d->dev));
	if (stat(path, &st) || !slash)
		return;
	d->is_partition = 1;
	*slash = 0;
	slash = strrchr(link, '/');
	snprintf(d->disk_name, sizeof(d->disk_name), "%.31s", slash ? slash + 1 : link);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", IO_DEV_MAJOR(d->dev),
		 IO_DEV_MINOR(d->dev));
	if (!read_small(path, buf, sizeof(buf)))
		parse_devt(buf, &d->disk);
}

/* ---- map readers ---- */

static void sum_lost(struct io_tracer *t, struct io_lost *out)
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

static void snap_busy(struct io_tracer *t, int tag)
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
		t->nbusy++;
	}
}

void io_tracer_phase_begin(struct io_tracer *t, int tag)
{
	struct io_phase_ctr zero[t ? t->ncpus : 1];
	__u32 k = tag;

	if (!t || tag < 0 || tag >= IO_MAX_PHASES)
		return;
	t->skel->bss->current_phase = IO_NO_PHASE;
	clear_phase(t->skel->maps.io_stats, sizeof(struct io_key), 4, 1, tag);
	clear_phase(t->skel->maps.fs_stats, sizeof(struct io_fs_key), 4, 4, tag);
	clear_phase(t->skel->maps.jbd_stats, sizeof(struct io_fs_key), 4, 4, tag);
	memset(zero, 0, sizeof(zero));
	bpf_map__update_elem(t->skel->maps.phase_ctr, &k, sizeof(k), zero, sizeof(zero), 0);
	sum_lost(t, &t->lost0);
	snap_busy(t, tag);
	t->nblk = snap_blk(t->blk, MAX_BLK);
	t->begin_ns = mono_ns();
	t->skel->bss->phase_begin_ns = t->begin_ns; /* CLOCK_MONOTONIC, bpf_ktime_get_ns()'s clock */
	t->skel->bss->current_phase = tag;
}

static void read_rows(struct io_tracer *t, int tag, struct io_phase *p)
{
	struct bpf_map *m = t->skel->maps.io_stats; /* one row for all CPUs (8 KiB) */
	struct io_key key, next;
	struct io_stat *v = calloc(1, sizeof(*v));
	int have = 0;

	if (!v)
		return;
	while (!bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		key = next;
		have = 1;
		if (key.phase != tag ||
		    bpf_map__lookup_elem(m, &key, sizeof(key), v, sizeof(*v), 0))
			continue;
		io_phase_add(p, key.dev, key.op, key.cls, v);
	}
	free(v);
}

static void sum_u64(void *dst, const void *src, size_t bytes)
{
	__u64 *o = dst;
	const __u64 *a = src;

	for (size_t k = 0; k < bytes / sizeof(__u64); k++)
		o[k] += a[k];
}

static void read_fs(struct io_tracer *t, int tag, struct io_phase *p)
{
	struct io_fs_key key, next;
	struct io_fs_stat *v = calloc(t->ncpus, sizeof(*v));
	int have = 0;

	while (v && !bpf_map__get_next_key(t->skel->maps.fs_stats, have ? &key : NULL, &next,
					   sizeof(next))) {
		struct io_fsrow *r;

		key = next;
		have = 1;
		if ((int)key.phase != tag || bpf_map__lookup_elem(t->skel->maps.fs_stats, &key,
				sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		r = realloc(p->fs, (p->nfs + 1) * sizeof(*r));
		if (!r)
			break;
		p->fs = r;
		r = &p->fs[p->nfs++];
		memset(r, 0, sizeof(*r));
		r->dev = key.dev;
		for (int c = 0; c < t->ncpus; c++) {
			sum_u64(&r->st, &v[c], offsetof(struct io_fs_stat, hist));
			for (int k = 0; k < IO_LAT_SLOTS; k++)
				r->st.hist[k] += v[c].hist[k];
		}
		r->st.max_ns = 0;
		for (int c = 0; c < t->ncpus; c++)
			if (v[c].max_ns > r->st.max_ns)
				r->st.max_ns = v[c].max_ns;
	}
	free(v);
}

static void read_jbd(struct io_tracer *t, int tag, struct io_phase *p)
{
	struct io_fs_key key, next;
	struct io_jbd_stat *v = calloc(t->ncpus, sizeof(*v));
	int have = 0;

	while (v && !bpf_map__get_next_key(t->skel->maps.jbd_stats, have ? &key : NULL, &next,
					   sizeof(next))) {
		struct io_jbdrow *r;

		key = next;
		have = 1;
		if ((int)key.phase != tag || bpf_map__lookup_elem(t->skel->maps.jbd_stats, &key,
				sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		r = realloc(p->jbd, (p->njbd + 1) * sizeof(*r));
		if (!r)
			break;
		p->jbd = r;
		r = &p->jbd[p->njbd++];
		memset(r, 0, sizeof(*r));
		r->dev = key.dev;
		for (int c = 0; c < t->ncpus; c++) {
			sum_u64(&r->st, &v[c], offsetof(struct io_jbd_stat, hist));
			for (int k = 0; k < IO_LAT_SLOTS; k++)
				r->st.hist[k] += v[c].hist[k];
		}
		r->st.commit_max = 0;
		for (int c = 0; c < t->ncpus; c++)
			if (v[c].commit_max > r->st.commit_max)
				r->st.commit_max = v[c].commit_max;
	}
	free(v);
}

static void read_ctr(struct io_tracer *t, int tag, struct io_phase *p)
{
	struct io_phase_ctr v[t->ncpus];
	__u32 k = tag;

	if (bpf_map__lookup_elem(t->skel->maps.phase_ctr, &k, sizeof(k), v, sizeof(v), 0))
		return;
	for (int c = 0; c < t->ncpus; c++)
		sum_u64(&p->ctr, &v[c], sizeof(v[c]));
}

static void read_busy(struct io_tracer *t, int tag, struct io_phase *p)
{
	__u32 key, next;
	struct io_dev v;
	int have = 0;

	while (!bpf_map__get_next_key(t->skel->maps.devs, have ? &key : NULL, &next, sizeof(next))) {
		uint64_t busy0 = 0, issued0 = 0;
		struct io_devinfo *d;

		key = next;
		have = 1;
		if (bpf_map__lookup_elem(t->skel->maps.devs, &key, sizeof(key), &v, sizeof(v), 0))
			continue;
		for (int i = 0; i < t->nbusy; i++) {
			if (t->busy[i].disk == key) {
				busy0 = t->busy[i].busy_ns;
				issued0 = t->busy[i].issued;
			}
		}
		if (v.s.issued[tag] == issued0 && v.s.busy_ns[tag] == busy0)
			continue;
		d = io_phase_dev(p, key);
		if (!d)
			return;
		d->busy_ns = v.s.busy_ns[tag] - busy0;
		d->issued = v.s.issued[tag] - issued0;
	}
}

static void read_blk(struct io_tracer *t, struct io_phase *p)
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
static void read_inodes(struct io_tracer *t, struct io_phase *p)
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

int io_tracer_phase_end(struct io_tracer *t, int tag, struct phase_result *r)
{
	struct io_phase *p;
	struct io_lost now;
	size_t i, n;

	if (!t || tag < 0 || tag >= IO_MAX_PHASES)
		return 0;
	t->skel->bss->current_phase = IO_NO_PHASE;
	p = io_phase_new();
	if (!p)
		return -1;
	p->window_ns = mono_ns() - t->begin_ns;
	read_rows(t, tag, p);
	read_fs(t, tag, p);
	read_jbd(t, tag, p);
	read_ctr(t, tag, p);
	read_busy(t, tag, p);
	read_blk(t, p);
	read_inodes(t, p);
	sum_lost(t, &now);
	lost_delta(&t->lost0, &now, &p->lost);
	sys_bytes(r, p);
	/* Every device a row names, and the disks of partitions, get a name. */
	for (i = 0; i < p->nrows; i++)
		io_phase_dev(p, p->rows[i].dev);
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
	snprintf(p->missing, sizeof(p->missing), "%s", t->missing);
	r->io = p;
	return 0;
}
