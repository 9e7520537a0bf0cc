// SPDX-License-Identifier: GPL-2.0
/* Loader of bpf/slow.bpf.c (see slow_probes.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "slow_probes.h"
#include "core_probes.h"
#include "iowhy.skel.h"
#include "slow.skel.h"

const struct probe_spec slow_probe_specs[] = {
	{ "writeback:balance_dirty_pages", { "slow_bdp" }, 0 },
	{ "jbd2:jbd2_start_commit", { "slow_commit_start" }, 0 },
	{ "jbd2:jbd2_end_commit", { "slow_commit_end" }, 0 },
};
const int slow_probe_nspecs = sizeof(slow_probe_specs) / sizeof(slow_probe_specs[0]);

struct slow_probes {
	struct slow_bpf *skel;
	struct core_probes *core;
	struct probe_set probes;
	struct ring_buffer *rb;
	void (*fn)(void *ctx, const struct slow_ev *e);
	void *ctx;
};

static void *open_slow(void *ctx)
{
	struct slow_probes *p = ctx;
	struct slow_bpf *s = slow_bpf__open();

	if (!s)
		return NULL;
	if (core_probes_share_tree_maps(p->core, s->obj)) {
		slow_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = p->core->use_hash != 0;
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

int slow_probes_open(struct slow_probes **out, struct core_probes *core)
{
	struct slow_probes *p = calloc(1, sizeof(*p));
	const struct probe_loader loader = { open_slow, slow_object, load_slow, destroy_slow, p };

	*out = NULL;
	if (!p)
		return -1;
	p->core = core;
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
	free(p);
}
