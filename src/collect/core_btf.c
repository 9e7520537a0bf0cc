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
	const struct btf *src; /* vmlinux's BTF, or a module's (split: vmlinux's ids below base_n) */
	struct btf *dst;
	uint32_t *map;         /* vmlinux's id -> id in dst (0: not copied) */
	uint32_t base_n;       /* vmlinux's type count */
	uint32_t *mod_map;     /* a module's own id - base_n -> id in dst */
};

static uint32_t *map_slot(struct cut *c, uint32_t id)
{
	return id < c->base_n ? &c->map[id] : &c->mod_map[id - c->base_n];
}

static struct btf_type *dst_type(struct cut *c, int id)
{
	return (struct btf_type *)btf__type_by_id(c->dst, (uint32_t)id);
}

/*
 * Copy type `id` of c->src into dst with what it embeds: every type a struct, union, array, typedef
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
	if (*map_slot(c, id))
		return (int)*map_slot(c, id);
	if (depth > 64)
		return -ELOOP;
	t = btf__type_by_id(c->src, id);
	if (!t)
		return -EINVAL;
	nid = btf__add_type(c->dst, c->src, t);
	if (nid < 0)
		return nid;
	*map_slot(c, id) = (uint32_t)nid;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		dst_type(c, nid)->type = 0;
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC_PROTO: /* its return type, then its parameters' */
		ref = copy_type(c, t->type, depth + 1);
		if (ref < 0)
			return ref;
		dst_type(c, nid)->type = (uint32_t)ref;
		for (unsigned i = 0; btf_is_func_proto(t) && i < btf_vlen(t); i++) {
			ref = copy_type(c, btf_params(t)[i].type, depth + 1);
			if (ref < 0)
				return ref;
			btf_params(dst_type(c, nid))[i].type = (uint32_t)ref;
		}
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
	default: /* int, float, enum, enum64, fwd: no type ids */
		break;
	}
	return nid;
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

/* Clear in `wanted` the roots IOWHY_TEST_CORE_BTF_HIDE (names, comma-separated) hides from
 * vmlinux's BTF: tests, as on a kernel that has them in a module. */
static void hide_roots(char *wanted)
{
	const char *env = getenv("IOWHY_TEST_CORE_BTF_HIDE");
	char list[512];

	if (!env)
		return;
	snprintf(list, sizeof(list), "%s", env);
	for (char *save = NULL, *n = strtok_r(list, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		int r = root_index(n, strlen(n));

		if (r >= 0)
			wanted[r] = 0;
	}
}

/*
 * Copy the types of `src` from id `from` on whose name (without its flavour) is a root still
 * `wanted`, with what they embed; `found` marks the roots they named. vmlinux's pass notes each
 * root's first struct (struct_ids). 0, or -errno.
 */
static int scan(struct cut *c, uint32_t from, const char *wanted, char *found, int vmlinux)
{
	uint32_t n = btf__type_cnt(c->src);

	for (uint32_t id = from; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(c->src, id);
		const char *name;
		int r, nid;

		if (!t->name_off || btf_is_func(t) || btf_is_var(t) || btf_is_datasec(t) ||
		    btf_is_decl_tag(t))
			continue;
		name = btf__name_by_offset(c->src, t->name_off);
		if (!name || !*name)
			continue;
		r = root_index(name, essential_len(name));
		if (r < 0 || !wanted[r])
			continue;
		found[r] = 1;
		if (vmlinux && btf_is_struct(t) && !struct_ids[r])
			struct_ids[r] = id;
		if (c->dst) {
			nid = copy_type(c, id, 0);
			if (nid < 0)
				return nid;
		}
	}
	return 0;
}

/*
 * The candidates of the roots vmlinux lacks, in the module BTFs (IOWHY_TEST_CORE_BTF_MODULES: a
 * directory of them instead of /sys/kernel/btf), as libbpf would look there: every module's. 0, or
 * -1 with stats.why set.
 */
static int scan_modules(struct cut *c, const char *missing, char *found)
{
	const char *dir = getenv("IOWHY_TEST_CORE_BTF_MODULES");
	DIR *d = opendir(dir ? dir : "/sys/kernel/btf");
	struct dirent *e;
	int rc = 0;

	if (!d)
		return 0; /* no module BTFs: libbpf finds none either */
	while (!rc && (e = readdir(d))) {
		char path[512];
		struct btf *mod;
		uint32_t own;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : "/sys/kernel/btf", e->d_name);
		mod = btf__parse_split(path, (struct btf *)c->src);
		if (!mod) {
			stats.why = "cannot read a module's BTF";
			rc = -1;
			break;
		}
		own = btf__type_cnt(mod) - c->base_n;
		c->mod_map = calloc(own ? own : 1, sizeof(*c->mod_map));
		if (!c->mod_map) {
			stats.why = "out of memory";
			rc = -1;
		} else {
			const struct btf *base = c->src;

			c->src = mod;
			if (scan(c, c->base_n, missing, found, 0) < 0) {
				stats.why = "cannot copy a type";
				rc = -1;
			}
			c->src = base;
		}
		free(c->mod_map);
		c->mod_map = NULL;
		btf__free(mod);
	}
	closedir(d);
	return rc;
}

static void make(void)
{
	const char *env = getenv("IOWHY_TEST_WHOLE_CORE_BTF");
	int whole = env && strcmp(env, "0");
	struct btf *kernel = btf__load_vmlinux_btf(); /* the loads' shared parse (vmlinux_btf.h) */
	uint64_t t0 = now_ns();
	struct cut c = { .src = kernel };
	unsigned nr = core_btf_nroots ? core_btf_nroots : 1;
	char *wanted = calloc(nr, 1), *found = calloc(nr, 1), *missing = calloc(nr, 1);
	int lacking = 0;

	struct_ids = calloc(nr, sizeof(*struct_ids));
	if (!kernel) {
		stats.why = "no kernel BTF";
		goto out;
	}
	if (!wanted || !found || !missing || !struct_ids) {
		stats.why = "out of memory";
		goto out;
	}
	c.base_n = btf__type_cnt(kernel);
	if (!whole && !core_btf_deep) {
		c.dst = btf__new_empty();
		c.map = calloc(c.base_n, sizeof(*c.map));
		if (!c.dst || !c.map) {
			stats.why = "out of memory";
			goto out;
		}
	}
	memset(wanted, 1, nr);
	hide_roots(wanted);
	/* one pass over vmlinux: every type named as a root (candidates of any kind: libbpf picks
	 * by kind); the struct ids are wanted even when the cut is not */
	if (scan(&c, 1, wanted, found, 1) < 0) {
		stats.why = "cannot copy a type";
		goto out;
	}
	if (whole) {
		stats.why = "IOWHY_TEST_WHOLE_CORE_BTF";
		goto out;
	}
	if (core_btf_deep) {
		stats.why = "a relocation compares types through pointers";
		goto out;
	}
	for (unsigned r = 0; r < core_btf_nroots; r++) {
		missing[r] = !found[r];
		lacking |= missing[r];
	}
	if (lacking && scan_modules(&c, missing, found))
		goto out;
	if (!publish(c.dst))
		stats.types = btf__type_cnt(c.dst) - 1;
out:
	free(wanted);
	free(found);
	free(missing);
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
