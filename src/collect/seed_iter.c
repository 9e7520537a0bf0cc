// SPDX-License-Identifier: GPL-2.0
/* Seeding by a BPF task iterator (see seed_iter.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "core_btf.h"
#include "seed_iter.h"
#include "core_probes.h"
#include "seed.h"
#include "seed.skel.h"

struct seed_iter {
	struct seed_bpf *skel;
	struct bpf_link *link;
};

/* The failure as one phrase: what failed and errno's text. */
static struct seed_iter *refuse(struct seed_iter *it, const char *what, int err, char *why,
				size_t n)
{
	snprintf(why, n, "iter/task %s: %s", what, strerror(err > 0 ? err : EINVAL));
	seed_iter_close(it);
	return NULL;
}

struct seed_iter *seed_iter_open(struct core_probes *c, int phase, int lite, int all, pid_t self,
				 char *why, size_t n)
{
	struct seed_iter *it = calloc(1, sizeof(*it));
	const char *mode = getenv("IOWHY_SEED_MODE");
	int err;

	if (!it)
		return refuse(NULL, "setup", ENOMEM, why, n);
	if (mode && !strcmp(mode, "proc")) {
		snprintf(why, n, "not tried (IOWHY_SEED_MODE=proc)");
		free(it);
		return NULL;
	}
	it->skel = seed_bpf__open_opts(core_btf_open_opts());
	if (!it->skel)
		return refuse(it, "open", errno, why, n);
	if (core_probes_share_tree_maps(c, it->skel->obj))
		return refuse(it, "sharing the tree maps", errno, why, n);
	it->skel->rodata->use_hash = c->use_hash != 0;
	it->skel->rodata->seed_self = (__u32)self;
	it->skel->rodata->seed_all = all != 0;
	it->skel->rodata->seed_lite = lite != 0;
	it->skel->rodata->seed_phase = (__u8)phase;
	err = seed_bpf__load(it->skel);
	if (err)
		return refuse(it, "load", -err, why, n);
	it->link = bpf_program__attach_iter(it->skel->progs.seed_tasks, NULL);
	if (!it->link)
		return refuse(it, "attach", errno, why, n);
	return it;
}

int seed_iter_add(struct seed_iter *it, pid_t tgid)
{
	__u32 key = (__u32)tgid;
	__u8 one = 1;

	return bpf_map_update_elem(bpf_map__fd(it->skel->maps.seed_tgids), &key, &one, BPF_ANY)
		       ? -1
		       : 0;
}

/* Read all of fd (the iterator's output) into a growing buffer. Length, or -1. */
static ssize_t read_all(int fd, char **buf)
{
	size_t len = 0, cap = 0;
	char *b = NULL;

	for (;;) {
		ssize_t r;

		if (cap - len < 4096) {
			char *nb = realloc(b, cap ? 2 * cap : 65536);

			if (!nb) {
				free(b);
				return -1;
			}
			b = nb;
			cap = cap ? 2 * cap : 65536;
		}
		r = read(fd, b + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return -1;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	*buf = b;
	return (ssize_t)len;
}

int seed_iter_run(struct seed_iter *it, struct seed_task **out)
{
	int fd = bpf_iter_create(bpf_link__fd(it->link)), saved;
	struct seed_task *t;
	char *buf = NULL;
	ssize_t len;
	size_t n;

	*out = NULL;
	if (fd < 0)
		return -1;
	len = read_all(fd, &buf);
	saved = errno;
	close(fd);
	if (len < 0) {
		errno = saved;
		return -1;
	}
	n = (size_t)len / sizeof(struct seed_rec);
	t = calloc(n ? n : 1, sizeof(*t));
	if (!t) {
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct seed_rec r;

		memcpy(&r, buf + i * sizeof(r), sizeof(r));
		t[i].tid = (pid_t)r.tid;
		t[i].tgid = (pid_t)r.tgid;
		t[i].state = (enum iowhy_state)r.state;
		t[i].nr = r.nr;
		t[i].kthread = r.kthread;
		t[i].seeded_ns = r.ts;
		memcpy(t[i].comm, r.comm, sizeof(t[i].comm));
		t[i].comm[sizeof(t[i].comm) - 1] = 0;
	}
	free(buf);
	*out = t;
	return (int)n;
}

void seed_iter_close(struct seed_iter *it)
{
	if (!it)
		return;
	bpf_link__destroy(it->link);
	seed_bpf__destroy(it->skel);
	free(it);
}
