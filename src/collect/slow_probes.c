// SPDX-License-Identifier: GPL-2.0
/* Loader of bpf/slow.bpf.c (see slow_probes.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "core_btf.h"
#include "slow_probes.h"
#include "clock.h"
#include "core_probes.h"
#include "cpu_samples.h"
#include "ksym_addrs.h"
#include "iowhy.skel.h"
#include "slow.skel.h"

const struct probe_spec slow_probe_specs[] = {
	{ "writeback:balance_dirty_pages", { "slow_bdp" }, 0 },
	{ "jbd2:jbd2_start_commit", { "slow_commit_start" }, 0 },
	{ "jbd2:jbd2_end_commit", { "slow_commit_end" }, 0 },
	{ "sched:sched_switch", { "slow_switch" }, 0 },
	{ "writeback:writeback_single_inode_start", { "slow_wb_start" }, 0 },
	{ "writeback:writeback_single_inode", { "slow_wb_end" }, 0 },
	{ "ext4:ext4_writepages", { "slow_ext4_wp_start" }, 0 },
	{ "ext4:ext4_writepages_result", { "slow_ext4_wp_end" }, 0 },
};
const int slow_probe_nspecs = sizeof(slow_probe_specs) / sizeof(slow_probe_specs[0]);

struct slow_probes {
	struct slow_bpf *skel;
	struct core_probes *core;
	struct probe_set probes;
	struct ring_buffer *rb;
	void (*fn)(void *ctx, const struct slow_ev *e);
	void *ctx;
	uint64_t min_wait_ns;
	struct kframes *kframes;   /* kernel frames' names, from the first stack named */
};

static void *open_slow(void *ctx)
{
	struct slow_probes *p = ctx;
	struct slow_bpf *s = slow_bpf__open_opts(core_btf_open_opts());

	if (!s)
		return NULL;
	if (core_probes_share_tree_maps(p->core, s->obj)) {
		slow_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = p->core->use_hash != 0;
	s->rodata->min_wait_ns = p->min_wait_ns;
	s->rodata->tick_ns = tick_ns();
	return s;
}

static struct bpf_object *slow_object(void *skel)
{
	return ((struct slow_bpf *)skel)->obj;
}

static int load_slow(void *skel)
{
	return slow_bpf__load(skel);
}

static void destroy_slow(void *skel)
{
	slow_bpf__destroy(skel);
}

static int on_ring(void *ctx, void *data, size_t size)
{
	struct slow_probes *p = ctx;

	if (size >= sizeof(struct slow_ev) && p->fn)
		p->fn(p->ctx, data);
	return 0;
}

int slow_probes_open(struct slow_probes **out, struct core_probes *core, uint64_t min_wait_ns)
{
	struct slow_probes *p = calloc(1, sizeof(*p));
	const struct probe_loader loader = { open_slow, slow_object, load_slow, destroy_slow, p };

	*out = NULL;
	if (!p)
		return -1;
	p->core = core;
	p->min_wait_ns = min_wait_ns;
	if (probe_set_init(&p->probes, "slow-call", slow_probe_specs, slow_probe_nspecs) ||
	    probe_set_prepare_kernel(&p->probes)) {
		free(p);
		return -1;
	}
	p->skel = probe_set_load(&p->probes, PROBE_TP_BTF, &loader);
	if (!p->skel) {
		fprintf(stderr, "iowhy: --slow: cannot load the dirty-throttling and journal probes: "
			"the slow calls are listed without them\n");
		free(p);
		return -1;
	}
	probe_set_attach(&p->probes);
	p->rb = ring_buffer__new(bpf_map__fd(p->skel->maps.slow_events), on_ring, p, NULL);
	if (!p->rb) {
		slow_probes_close(p);
		return -1;
	}
	*out = p;
	return 0;
}

void slow_probes_poll(struct slow_probes *p, void (*fn)(void *ctx, const struct slow_ev *e),
		      void *ctx)
{
	if (!p)
		return;
	p->fn = fn;
	p->ctx = ctx;
	ring_buffer__consume(p->rb);
}

void slow_probes_stack(struct slow_probes *p, int id, int frames, char *buf, size_t n)
{
	__u64 ips[SLOW_STACK_DEPTH] = { 0 };
	const char *names[SLOW_STACK_DEPTH];
	uint32_t depth = 0, skip;
	size_t len = 0;

	snprintf(buf, n, "?");
	if (!p || !p->skel || id < 0 ||
	    bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.wait_stacks), &id, ips))
		return;
	if (!p->kframes)
		p->kframes = kframes_new(); /* at the first stack named: not at the start */
	while (depth < SLOW_STACK_DEPTH && ips[depth])
		depth++;
	kframes_name(p->kframes, (const uint64_t *)ips, (int)depth, names);
	for (uint32_t i = 0; i < depth; i++)
		if (!names[i])
			names[i] = "[unknown]";
	skip = cpu_samples_sched_frames(names, depth);
	for (uint32_t i = skip; i < depth && (int)(i - skip) < frames && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i > skip ? " ← " : "",
					names[i]);
}

unsigned long long slow_probes_lost(const struct slow_probes *p)
{
	return p && p->skel ? p->skel->bss->slow_lost : 0;
}

int slow_probes_attached(const struct slow_probes *p, const char *name)
{
	return p ? probe_set_attached(&p->probes, name) : 0;
}

const struct probe_set *slow_probes_set(const struct slow_probes *p)
{
	return p ? &p->probes : NULL;
}

int slow_probes_missing(const struct slow_probes *p, struct missing_probes *out)
{
	return p ? probe_set_missing(&p->probes, out) : 0;
}

void slow_probes_close(struct slow_probes *p)
{
	if (!p)
		return;
	probe_set_detach(&p->probes);
	if (p->rb)
		ring_buffer__free(p->rb);
	if (p->skel)
		slow_bpf__destroy(p->skel);
	kframes_free(p->kframes);
	free(p);
}
