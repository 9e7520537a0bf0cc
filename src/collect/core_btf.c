// SPDX-License-Identifier: GPL-2.0
/* The cut-down target BTF of libbpf's CO-RE relocations; see core_btf.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include "core_btf.h"
#include "clock.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct bpf_object_open_opts opts = { .sz = sizeof(opts) };
static char path[64];
static uint32_t *struct_ids;   /* per root: the kernel id of its first struct */
static struct core_btf_stats stats = { .why = "" };

/* The root named by the first `len` bytes of `name`, or -1. */
static int root_index(const char *name, size_t len)
{
	unsigned lo = 0, hi = core_btf_nroots;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		const char *r = core_btf_roots[mid];
		int c = strncmp(name, r, len);

		if (!c && r[len])
			c = -1; /* a prefix of r sorts before it */
		if (!c)
			return (int)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* The length of a name without its "___flavour": libbpf's bpf_core_essential_name_len (the last
 * "X___Y" with X and Y not underscores ends the name at X). */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = n >= 5 ? n - 4 : 0; i-- > 0;)
		if (name[i] != '_' && name[i + 1] == '_' && name[i + 2] == '_' && name[i + 3] == '_' &&
		    name[i + 4] != '_')
			return i + 1;
	return n;
}

struct cut {
	const struct btf *kernel;
	struct btf *dst;
	uint32_t *map; /* kernel id -> id in dst (0: not copied) */
};

static struct btf_type *dst_type(struct cut *c, int id)
{
	return (struct btf_type *)btf__type_by_id(c->dst, (uint32_t)id);
}

/*
 * Copy kernel type `id` into dst with what it embeds: every type a struct, union, array, typedef
 * or modifier refers to, but not what a pointer points to (void here). Returns its id in dst,
 * -errno on failure. Types are copied whole (btf__add_type: members, offsets, bitfields, names);
 * only the type ids they hold are rewritten. dst's types move as it grows: looked up again after
 * every copy.
 */
static int copy_type(struct cut *c, uint32_t id, int depth)
{
	const struct btf_type *t;
	int nid, ref;

	if (!id)
		return 0;
	if (c->map[id])
		return (int)c->map[id];
	if (depth > 64)
		return -ELOOP;
	t = btf__type_by_id(c->kernel, id);
	if (!t)
		return -EINVAL;
	nid = btf__add_type(c->dst, c->kernel, t);
	if (nid < 0)
		return nid;
	c->map[id] = (uint32_t)nid;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		dst_type(c, nid)->type = 0;
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		ref = copy_type(c, t->type, depth + 1);
		if (ref < 0)
			return ref;
		dst_type(c, nid)->type = (uint32_t)ref;
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		int elem = copy_type(c, a->type, depth + 1);
		int index = elem < 0 ? elem : copy_type(c, a->index_type, depth + 1);

		if (index < 0)
			return index;
		btf_array(dst_type(c, nid))->type = (uint32_t)elem;
		btf_array(dst_type(c, nid))->index_type = (uint32_t)index;
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (unsigned i = 0; i < btf_vlen(t); i++) {
			ref = copy_type(c, btf_members(t)[i].type, depth + 1);
			if (ref < 0)
				return ref;
			btf_members(dst_type(c, nid))[i].type = (uint32_t)ref;
		}
		break;
	case BTF_KIND_FUNC_PROTO:
		ref = copy_type(c, t->type, depth + 1);
		if (ref < 0)
			return ref;
		dst_type(c, nid)->type = (uint32_t)ref;
		for (unsigned i = 0; i < btf_vlen(t); i++) {
			ref = copy_type(c, btf_params(t)[i].type, depth + 1);
			if (ref < 0)
				return ref;
			btf_params(dst_type(c, nid))[i].type = (uint32_t)ref;
		}
		break;
	default: /* int, float, enum, enum64, fwd: no type ids */
		break;
	}
	return nid;
}

/* Module BTFs beside vmlinux's (libbpf looks there for a root vmlinux lacks). */
static int module_btfs(void)
{
	DIR *d = opendir("/sys/kernel/btf");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "vmlinux"))
			n++;
	closedir(d);
	return n;
}

/* The cut-down BTF in a sealed memfd; 0, or -1 with stats.why set. */
static int publish(struct btf *dst)
{
	uint32_t size;
	const void *raw = btf__raw_data(dst, &size);
	int fd;

	if (!raw) {
		stats.why = "cannot encode the cut-down BTF";
		return -1;
	}
	fd = memfd_create("iowhy-core-btf", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		stats.why = "no memfd";
		return -1;
	}
	for (uint32_t off = 0; off < size;) {
		ssize_t w = write(fd, (const char *)raw + off, size - off);

		if (w <= 0) {
			close(fd);
			stats.why = "cannot write the cut-down BTF";
			return -1;
		}
		off += (uint32_t)w;
	}
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	/* libbpf opens it by path at each load; the fd stays open for the objects loaded later */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	opts.btf_custom_path = path;
	return 0;
}

static void make(void)
{
	const char *env = getenv("IOWHY_TEST_WHOLE_CORE_BTF");
	int whole = env && strcmp(env, "0");
	struct btf *kernel = btf__load_vmlinux_btf(); /* the loads' shared parse (vmlinux_btf.h) */
	uint64_t t0 = now_ns();
	struct cut c = { .kernel = kernel };
	unsigned found = 0, n;
	char *seen = NULL;
	int err = 0;

	struct_ids = calloc(core_btf_nroots ? core_btf_nroots : 1, sizeof(*struct_ids));
	if (!kernel || !struct_ids) {
		stats.why = "no kernel BTF";
		goto out;
	}
	n = btf__type_cnt(kernel);
	seen = calloc(core_btf_nroots ? core_btf_nroots : 1, 1);
	if (!whole && !core_btf_deep) {
		c.dst = btf__new_empty();
		c.map = calloc(n, sizeof(*c.map));
	}
	/* one pass: every type named as a root (candidates of any kind: libbpf picks by kind) */
	for (unsigned id = 1; id < n && seen; id++) {
		const struct btf_type *t = btf__type_by_id(kernel, id);
		const char *name;
		int r;

		if (!t->name_off || btf_is_func(t) || btf_is_var(t) || btf_is_datasec(t) ||
		    btf_is_decl_tag(t))
			continue;
		name = btf__name_by_offset(kernel, t->name_off);
		if (!name || !*name)
			continue;
		r = root_index(name, essential_len(name));
		if (r < 0)
			continue;
		if (!seen[r])
			found++;
		seen[r] = 1;
		if (btf_is_struct(t) && !struct_ids[r])
			struct_ids[r] = id;
		if (c.dst && c.map && !err) {
			int nid = copy_type(&c, id, 0);

			if (nid < 0)
				err = nid;
		}
	}
	if (!seen)
		stats.why = "out of memory";
	else if (whole)
		stats.why = "IOWHY_TEST_WHOLE_CORE_BTF";
	else if (core_btf_deep)
		stats.why = "a relocation compares types through pointers";
	else if (!c.dst || !c.map)
		stats.why = "out of memory";
	else if (err)
		stats.why = "cannot copy a type";
	else if (found < core_btf_nroots && module_btfs())
		stats.why = "a root type is in a module";
	else if (!publish(c.dst))
		stats.types = btf__type_cnt(c.dst) - 1;
out:
	free(seen);
	free(c.map);
	btf__free(c.dst);
	btf__free(kernel);
	stats.make_ns = now_ns() - t0;
}

const struct bpf_object_open_opts *core_btf_open_opts(void)
{
	pthread_once(&once, make);
	return &opts;
}

uint32_t core_btf_struct_id(const char *name)
{
	int r;

	pthread_once(&once, make);
	r = root_index(name, strlen(name));
	return r >= 0 && struct_ids ? struct_ids[r] : 0;
}

void core_btf_stats(struct core_btf_stats *out)
{
	pthread_once(&once, make);
	*out = stats;
}
