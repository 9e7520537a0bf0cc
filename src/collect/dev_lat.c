// SPDX-License-Identifier: GPL-2.0
/* Peek at the I/O probes' per-device latency histograms (see dev_lat.h). */
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "dev_lat.h"
#include "io_probes.h"
#include "io.h"

/* The row of kdev in out[0..*n), added when absent and there is room; NULL if full. */
static struct dev_lat *row_of(struct dev_lat *out, int *n, int max, uint32_t kdev)
{
	for (int i = 0; i < *n; i++)
		if (out[i].kdev == kdev)
			return &out[i];
	if (*n >= max)
		return NULL;
	memset(&out[*n], 0, sizeof(out[*n]));
	out[*n].kdev = kdev;
	return &out[(*n)++];
}

struct spill_ctx {
	struct dev_lat *out;
	int *n, max;
	uint32_t (*kdisk)(uint32_t kdev);
};

/* A row the CPUs kept aside (io_probes_spill_foreach): its device's histogram too. */
static void add_spilled(void *ctx, const struct io_key *key, const struct io_stat *st)
{
	struct spill_ctx *c = ctx;
	struct dev_lat *r = row_of(c->out, c->n, c->max, c->kdisk ? c->kdisk(key->dev) : key->dev);

	for (int k = 0; r && k < IOWHY_HIST_SLOTS && k < IO_LAT_SLOTS; k++)
		r->hist[k] += st->dhist[k];
}

int dev_lat_read(const struct io_probes *io, int tag, uint32_t (*kdisk)(uint32_t kdev),
		 struct dev_lat *out, int max)
{
	struct spill_ctx sc = { out, NULL, max, kdisk };
	int fd = io_probes_stats_fd(io), n = 0;
	struct io_key key, next, *prev = NULL;
	struct io_stat *v;

	if (fd < 0)
		return -1;
	v = calloc(1, sizeof(*v)); /* summed over the CPUs by io_probes_stats_lookup */
	if (!v)
		return -1;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct dev_lat *r;

		key = next;
		prev = &key;
		if (key.phase != tag || io_probes_stats_lookup(io, &key, v))
			continue;
		r = row_of(out, &n, max, kdisk ? kdisk(key.dev) : key.dev);
		if (!r)
			continue;
		for (int k = 0; k < IOWHY_HIST_SLOTS && k < IO_LAT_SLOTS; k++)
			r->hist[k] += v->dhist[k];
	}
	free(v);
	sc.n = &n;
	io_probes_spill_foreach(io, tag, add_spilled, &sc);
	return n;
}
