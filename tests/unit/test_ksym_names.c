// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: names of kernel addresses asked of the kernel (collect/ksym_addrs.c ksym_names_*, a
 * BPF syscall program formatting "%ps") agree with /proc/kallsyms, the witness read here with a
 * plain fscanf: for every 50th text function with an address of its own (no alias), its start and
 * (in the kernel's own text) a byte inside it name it; a module's function (and a BPF program) is
 * named without its module; an address in no
 * symbol is NULL; a syscall's entry has its __x64_sys_ name (as perf shows it), not the __do_sys_
 * alias the kernel's lookup finds first; each address is asked once. Needs root (and kernel symbols shown): skipped
 * otherwise, with the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ksym_addrs.h"

struct ent {
	uint64_t addr;
	char name[128];
	char type;
	int module;
};

static struct ent *ents;
static size_t nents;

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every symbol of /proc/kallsyms, sorted by address (0 when the addresses are hidden). */
static size_t read_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t cap = 0;

	nents = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[128];

		if (sscanf(line, "%llx %c %127s", &a, &t, name) != 3)
			continue;
		if (nents == cap) {
			cap = cap ? cap * 2 : 65536;
			ents = realloc(ents, cap * sizeof(*ents));
			assert_non_null(ents);
		}
		ents[nents].addr = a;
		ents[nents].type = t;
		ents[nents].module = strchr(line, '[') != NULL;
		snprintf(ents[nents].name, sizeof(ents[nents].name), "%s", name);
		nents++;
	}
	if (f)
		fclose(f);
	qsort(ents, nents, sizeof(*ents), cmp_ent);
	return nents && ents[nents - 1].addr ? nents : 0;
}

static int is_text(char t)
{
	return t == 't' || t == 'T';
}

static void test_names_match_kallsyms(void **state)
{
	struct ksym_names *k = ksym_names_open();
	size_t checked = 0, modules = 0;
	int entry_seen = 0;
	uint64_t asked;

	(void)state;
	if (!k || !read_kallsyms()) {
		fprintf(stderr, "skip: %s\n", k ? "kernel addresses hidden" :
					 "the BPF syscall program does not load here (root, kernel >= 5.16)");
		ksym_names_close(k);
		skip();
	}
	for (size_t i = 1; i + 1 < nents; i++) {
		const struct ent *e = &ents[i];
		uint64_t inside, frames[2];

		/* a function with an address of its own, the next symbol after it */
		if (!is_text(e->type) || ents[i - 1].addr == e->addr || ents[i + 1].addr == e->addr ||
		    ents[i + 1].addr - e->addr < 2 || (i % 50 && !(e->module && modules < 20)))
			continue;
		inside = e->addr + (ents[i + 1].addr - e->addr) / 2;
		frames[0] = e->addr;
		frames[1] = inside;
		assert_int_equal(ksym_names_prefetch(k, frames, 2), 0);
		if (!ksym_names_get(k, e->addr) || strcmp(ksym_names_get(k, e->addr), e->name))
			fail_msg("%#llx: kernel says %s, kallsyms %s", (unsigned long long)e->addr,
				 ksym_names_get(k, e->addr), e->name);
		/* (in a module or a BPF program the next symbol may lie beyond its end) */
		if (!e->module && (!ksym_names_get(k, inside) ||
				   strcmp(ksym_names_get(k, inside), e->name)))
			fail_msg("%#llx inside %s: kernel says %s", (unsigned long long)inside, e->name,
				 ksym_names_get(k, inside));
		modules += e->module;
		checked++;
	}
	fprintf(stderr, "  %zu functions checked (%zu of modules), %llu program runs\n", checked,
		modules, (unsigned long long)ksym_names_queries(k));
	assert_true(checked > 100);
	for (size_t i = 1; i + 1 < nents; i += 50) /* (some asked above, some new) */
		(void)ksym_names_get(k, ents[i].addr);
	asked = ksym_names_queries(k);
	for (size_t i = 1; i + 1 < nents; i += 50) /* asked again: answered from what is kept */
		(void)ksym_names_get(k, ents[i].addr);
	assert_int_equal(ksym_names_queries(k), asked);
	/* a syscall's entry is named as perf names it, not by the alias the kernel finds first */
	for (size_t i = 0; i < nents; i++)
		if (!strcmp(ents[i].name, "__x64_sys_getppid") && is_text(ents[i].type)) {
			assert_string_equal(ksym_names_get(k, ents[i].addr + 1), "__x64_sys_getppid");
			entry_seen = 1;
		}
#ifdef __x86_64__
	assert_true(entry_seen); /* (the kernel has it) */
#endif
	assert_null(ksym_names_get(k, 0x1000));  /* a user address: no kernel symbol */
	assert_null(ksym_names_get(k, 0));
	ksym_names_close(k);
	free(ents);
	ents = NULL;
}

/* A batch larger than one run holds, with repeats: each distinct address asked once. */
static void test_batches(void **state)
{
	struct ksym_names *k = ksym_names_open();
	uint64_t addrs[1000];
	size_t n = 0;

	(void)state;
	if (!k || !read_kallsyms()) {
		ksym_names_close(k);
		skip();
	}
	for (size_t i = 0; i < nents && n < 500; i++)
		if (is_text(ents[i].type) && !ents[i].module)
			addrs[n++] = ents[i].addr;
	assert_int_equal(n, 500);
	for (size_t i = 0; i < 500; i++)
		addrs[500 + i] = addrs[i]; /* each twice */
	assert_int_equal(ksym_names_prefetch(k, addrs, 1000), 0);
	/* 500 distinct addresses, 128 a run */
	assert_int_equal(ksym_names_queries(k), (500 + 127) / 128);
	for (size_t i = 0; i < 1000; i++)
		assert_non_null(ksym_names_get(k, addrs[i]));
	assert_int_equal(ksym_names_queries(k), (500 + 127) / 128);
	ksym_names_close(k);
	free(ents);
	ents = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_match_kallsyms),
		cmocka_unit_test(test_batches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
