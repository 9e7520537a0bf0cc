// SPDX-License-Identifier: GPL-2.0
/* Kernel symbol addresses without a full kallsyms parse; see ksym_addrs.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ksym_addrs.h"
#include "symbols.h"
#include "probe_set.h"
#include "ksym.h"
#include "ksym.skel.h"

#define SCAN_CHUNK (64 * 1024)

/* Ask the kernel with the BPF syscall program. Returns 0 (addrs filled, 0 for unknown names), or
 * -1 when the program cannot be loaded or run here (libbpf's warning about it goes wherever the
 * loader sends them: core_probes.c keeps it quiet). */
/* The object with its lookup program (names 0), or both (names -1) loaded: a program not needed is
 * not verified. */
static struct ksym_bpf *open_one(int names)
{
	struct ksym_bpf *s = ksym_bpf__open();

	if (!s)
		return NULL;
	if (names == 0)
		bpf_program__set_autoload(s->progs.ksym_names, false);
	if (ksym_bpf__load(s)) {
		ksym_bpf__destroy(s);
		return NULL;
	}
	return s;
}

static int lookup_bpf(const char *const *names, uint64_t *addrs, int n)
{
	struct ksym_bpf *s = open_one(0);
	int rc = s ? 0 : -1;

	for (int i = 0; s && i < n && !rc; i++) {
		struct ksym_query q;
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &q, .ctx_size_in = sizeof(q));

		memset(&q, 0, sizeof(q));
		snprintf(q.name, sizeof(q.name), "%s", names[i]);
		rc = bpf_prog_test_run_opts(bpf_program__fd(s->progs.ksym_lookup), &o) ? -1 : 0;
		/* -ENOENT: no such symbol (0); -EPERM: addresses hidden from us: not an answer */
		if (!rc && q.err && q.err != -ENOENT)
			rc = -1;
		addrs[i] = rc ? 0 : q.addr;
	}
	ksym_bpf__destroy(s);
	return rc;
}

/* One line of kallsyms ("ADDR TYPE NAME[\t[MODULE]]", no newline): the names it matches get its
 * address. Returns how many names it newly found. */
static int scan_line(const char *line, size_t len, const char *const *names, uint64_t *addrs,
		     char *found, int n)
{
	struct kallsyms_line e;
	int got = 0;

	if (!kallsyms_line(line, len, &e) || !e.addr) /* zeros: addresses hidden */
		return 0;
	for (int i = 0; i < n; i++) {
		if (found[i] || strlen(names[i]) != e.nlen || memcmp(names[i], e.name, e.nlen))
			continue;
		addrs[i] = e.addr;
		found[i] = 1;
		got++;
	}
	return got;
}

int ksym_addrs_scan(const char *path, const char *const *names, uint64_t *addrs, int n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), got = 0;
	char *buf = malloc(SCAN_CHUNK), *found = calloc(n > 0 ? n : 1, 1);
	size_t have = 0;
	ssize_t r = 0;

	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	if (fd < 0 || !buf || !found) {
		if (fd >= 0)
			close(fd);
		free(buf);
		free(found);
		return -1;
	}
	while (got < n && (r = read(fd, buf + have, SCAN_CHUNK - have)) > 0) {
		char *line = buf, *nl, *stop = buf + have + r;

		while (got < n && (nl = memchr(line, '\n', (size_t)(stop - line)))) {
			got += scan_line(line, (size_t)(nl - line), names, addrs, found, n);
			line = nl + 1;
		}
		have = (size_t)(stop - line);
		if (have == SCAN_CHUNK) /* a line longer than the buffer: not kallsyms */
			break;
		memmove(buf, line, have);
	}
	if (got < n && have && r == 0) /* a last line without a newline */
		got += scan_line(buf, have, names, addrs, found, n);
	close(fd);
	free(buf);
	free(found);
	return r < 0 ? -1 : got;
}

enum ksym_way ksym_addrs(const char *const *names, uint64_t *addrs, int n)
{
	if (!probe_fallbacks_forced() && lookup_bpf(names, addrs, n) == 0)
		return KSYM_BPF;
	if (ksym_addrs_scan("/proc/kallsyms", names, addrs, n) >= 0)
		return KSYM_KALLSYMS;
	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	return KSYM_NONE;
}

/* ---- names of addresses ---- */

struct kname {
	uint64_t addr;
	char *name;            /* NULL: in no symbol */
};

struct ksym_names {
	struct ksym_bpf *skel;
	struct kname *tab;     /* open addressing, addr 0 = empty */
	size_t cap, used;
	uint64_t queries;
};

struct ksym_names *ksym_names_open(void)
{
	struct ksym_names *k;

	if (probe_fallbacks_forced())
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->skel = open_one(-1); /* both programs: names, and the syscall entries' aliases */
	k->cap = 1024;
	k->tab = calloc(k->cap, sizeof(*k->tab));
	if (!k->skel || !k->tab || !k->skel->bss) {
		ksym_names_close(k);
		return NULL;
	}
	return k;
}

static size_t slot_of(const struct ksym_names *k, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & (k->cap - 1);

	while (k->tab[i].addr && k->tab[i].addr != addr)
		i = (i + 1) & (k->cap - 1);
	return i;
}

static int grow(struct ksym_names *k)
{
	struct kname *old = k->tab;
	size_t ocap = k->cap;

	k->tab = calloc(ocap * 2, sizeof(*k->tab));
	if (!k->tab) {
		k->tab = old;
		return -1;
	}
	k->cap = ocap * 2;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].addr)
			k->tab[slot_of(k, old[i].addr)] = old[i];
	free(old);
	return 0;
}

/* The symbol names of a syscall's entry (what perf shows): the kernel's lookup names the first of
 * the aliases at an address, which for a syscall is often the inner __do_sys_ one. */
#if defined(__x86_64__)
#define SYS_ENTRY_PREFIX "__x64_sys_"
#elif defined(__aarch64__)
#define SYS_ENTRY_PREFIX "__arm64_sys_"
#endif

/* A name that is an alias of the syscall entry at `start`: the entry's name, else NULL. */
static char *sys_entry_alias(struct ksym_names *k, const char *name, size_t len, uint64_t start)
{
#ifdef SYS_ENTRY_PREFIX
	static const char *const inner[] = { "__do_sys_", "__se_sys_" };
	struct ksym_query q;

	for (size_t i = 0; i < sizeof(inner) / sizeof(inner[0]); i++) {
		size_t pl = strlen(inner[i]);
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &q, .ctx_size_in = sizeof(q));

		if (len <= pl || strncmp(name, inner[i], pl))
			continue;
		memset(&q, 0, sizeof(q));
		snprintf(q.name, sizeof(q.name), "%s%.*s", SYS_ENTRY_PREFIX, (int)(len - pl),
			 name + pl);
		if (!bpf_prog_test_run_opts(bpf_program__fd(k->skel->progs.ksym_lookup), &o) &&
		    !q.err && q.addr == start)
			return strdup(q.name);
	}
#else
	(void)k; (void)name; (void)len; (void)start;
#endif
	return NULL;
}

/* The kernel's answer for the slot of `addr`: "func+0x1b/0x60" (a module's with " [module]" after
 * it) names the function; "0x..." (an address in no symbol) or nothing is none. */
static char *answer(struct ksym_names *k, const char *s, uint64_t addr)
{
	size_t len = strnlen(s, KSYM_NAME_LEN), nlen;
	const char *plus = memchr(s, '+', len);
	unsigned long long off = plus ? strtoull(plus + 1, NULL, 16) : 0;
	char *alias;

	if (!len || (s[0] == '0' && s[1] == 'x'))
		return NULL;
	nlen = plus ? (size_t)(plus - s) : strcspn(s, " ");
	alias = off <= addr ? sys_entry_alias(k, s, nlen, addr - off) : NULL;
	return alias ? alias : strndup(s, nlen);
}

int ksym_names_prefetch(struct ksym_names *k, const uint64_t *addrs, int n)
{
	struct ksym_slot *slots;
	int batch = 0;

	if (!k)
		return -1;
	slots = k->skel->bss->slots;
	for (int i = 0; i <= n; i++) {
		if (i < n) {
			int dup = 0;

			if (!addrs[i] || k->tab[slot_of(k, addrs[i])].addr)
				continue;
			for (int j = 0; j < batch && !dup; j++)
				dup = slots[j].addr == addrs[i];
			if (dup)
				continue;
			slots[batch++].addr = addrs[i];
		}
		if (batch && (batch == KSYM_BATCH || i == n)) {
			LIBBPF_OPTS(bpf_test_run_opts, o);

			k->skel->bss->nslots = (__u32)batch;
			for (int j = 0; j < batch; j++)
				slots[j].name[0] = '\0';
			if (bpf_prog_test_run_opts(bpf_program__fd(k->skel->progs.ksym_names), &o))
				return -1;
			k->queries++;
			for (int j = 0; j < batch; j++) {
				size_t at;

				if ((k->used + 1) * 2 > k->cap && grow(k))
					return -1;
				at = slot_of(k, slots[j].addr);
				k->tab[at].addr = slots[j].addr;
				k->tab[at].name = answer(k, slots[j].name, slots[j].addr);
				k->used++;
			}
			batch = 0;
		}
	}
	return 0;
}

const char *ksym_names_get(struct ksym_names *k, uint64_t addr)
{
	size_t at;

	if (!k || !addr)
		return NULL;
	at = slot_of(k, addr);
	if (!k->tab[at].addr && ksym_names_prefetch(k, &addr, 1))
		return NULL;
	at = slot_of(k, addr);
	return k->tab[at].addr ? k->tab[at].name : NULL;
}

uint64_t ksym_names_queries(const struct ksym_names *k)
{
	return k ? k->queries : 0;
}

void ksym_names_close(struct ksym_names *k)
{
	if (!k)
		return;
	for (size_t i = 0; k->tab && i < k->cap; i++)
		free(k->tab[i].name);
	free(k->tab);
	ksym_bpf__destroy(k->skel);
	free(k);
}

/* ---- kernel stack frames: the kernel asked, else /proc/kallsyms ---- */

struct kframes {
	struct ksym_names *names;
	struct ksyms *ksyms;
	int names_tried, ksyms_tried;
};

struct kframes *kframes_new(void)
{
	return calloc(1, sizeof(struct kframes));
}

static const struct ksyms *kallsyms(struct kframes *f)
{
	if (!f->ksyms_tried) {
		f->ksyms = ksyms_load("/proc/kallsyms");
		f->ksyms_tried = 1;
	}
	return f->ksyms;
}

void kframes_name(struct kframes *f, const uint64_t *ips, int n, const char **names)
{
	if (!f) {
		for (int i = 0; i < n; i++)
			names[i] = NULL;
		return;
	}
	if (!f->names_tried) {
		f->names = ksym_names_open();
		f->names_tried = 1;
	}
	if (f->names && ksym_names_prefetch(f->names, ips, n)) {
		ksym_names_close(f->names); /* a run failed: the file from here on */
		f->names = NULL;
	}
	for (int i = 0; i < n; i++)
		names[i] = f->names ? ksym_names_get(f->names, ips[i]) :
				      ksyms_name(kallsyms(f), ips[i]);
}

void kframes_free(struct kframes *f)
{
	if (!f)
		return;
	ksym_names_close(f->names);
	ksyms_free(f->ksyms);
	free(f);
}
