// SPDX-License-Identifier: GPL-2.0
/* attach --lite: the on-CPU time split by CPU samples alone (see lite_split.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iowhy.h"
#include "lite_split.h"
#include "syscalls.h"

/* Frames of the system call path (prefixes): the entry code and the syscall table's dispatch. */
static const char *const syscall_path[] = {
	"entry_SYSCALL", "entry_SYSRET", "do_syscall_64", "x64_sys_call", "ia32_sys_call",
	"entry_INT80", "do_int80", "int80_emulation", "do_fast_syscall_32", "entry_SYSENTER",
	"do_SYSENTER_32", "el0_svc", "invoke_syscall", NULL
};
/* Prefixes of a system call's own function, the name follows. */
static const char *const syscall_fn[] = {
	"__x64_sys_", "__ia32_sys_", "__x64_compat_sys_", "__ia32_compat_sys_", "__arm64_sys_",
	"__arm64_compat_sys_", "__se_sys_", "__do_sys_", "__do_compat_sys_", NULL
};

/* The prefix of pats that name starts with, or NULL. */
static const char *prefix_of(const char *name, const char *const *pats)
{
	for (; *pats; pats++)
		if (!strncmp(name, *pats, strlen(*pats)))
			return *pats;
	return NULL;
}

/* A kernel stack inside a system call: 1, with *nr from its innermost syscall function
 * (IOWHY_NR_NONE when none names one this architecture knows); 0 outside. */
static int stack_syscall(const struct cpu_samples *cs, const struct cs_stack *s, unsigned *nr)
{
	int inside = 0;

	*nr = IOWHY_NR_NONE;
	for (uint32_t i = 0; i < s->n; i++) {
		const char *name = cs->names[s->fn[i]], *p = prefix_of(name, syscall_fn);

		if (p) {
			int n = syscall_nr(name + strlen(p));

			inside = 1;
			if (n >= 0 && *nr == IOWHY_NR_NONE)
				*nr = (unsigned)n;
		} else if (prefix_of(name, syscall_path)) {
			inside = 1;
		}
	}
	return inside;
}

enum ls_where lite_split_where(const struct cpu_samples *cs, const struct cs_row *r,
			       unsigned *nr)
{
	int inside;

	*nr = IOWHY_NR_NONE;
	if (!r->kernel_mode)
		return LSW_USER;
	inside = r->kstack != CS_NONE && r->kstack < cs->nstacks &&
		 stack_syscall(cs, &cs->stacks[r->kstack], nr);
	if (inside || r->in_syscall) {
		/* the syscall probes' number is exact; the registers' names the call when no
		 * frame did (the entry and exit path) */
		if (r->in_syscall || *nr == IOWHY_NR_NONE)
			*nr = r->nr;
		return LSW_SYSCALL;
	}
	switch (r->cls) {
	case CC_FAULT:
		return LSW_FAULT;
	case CC_IRQ:
		return LSW_IRQ;
	default:
		return LSW_KOTHER;
	}
}

/* share = samples / n with its binomial error, applied to ns. */
static void part(struct ls_part *p, uint64_t n, uint64_t ns)
{
	p->share = n ? (double)p->samples / (double)n : 0;
	p->share_err = n ? sqrt(p->share * (1 - p->share) / (double)n) : 0;
	p->ns = p->share * (double)ns;
	p->err_ns = p->share_err * (double)ns;
}

static int cmp_top(const void *a, const void *b)
{
	const struct ls_syscall *x = a, *y = b;

	if (x->p.samples != y->p.samples)
		return x->p.samples < y->p.samples ? 1 : -1;
	return (x->nr > y->nr) - (x->nr < y->nr);
}

/* Samples per system call (index IOWHY_NR_SLOTS: unknown), the most first into out->top. */
static void top_syscalls(struct lite_split *out, const uint64_t *by_nr)
{
	struct ls_syscall all[IOWHY_NR_SLOTS + 1];
	size_t n = 0;

	for (unsigned i = 0; i <= IOWHY_NR_SLOTS; i++) {
		if (!by_nr[i])
			continue;
		memset(&all[n], 0, sizeof(all[n]));
		all[n].nr = i == IOWHY_NR_SLOTS ? IOWHY_NR_NONE : i;
		all[n].p.samples = by_nr[i];
		part(&all[n].p, out->samples, out->on_cpu_ns);
		n++;
	}
	qsort(all, n, sizeof(all[0]), cmp_top);
	out->ntop = n < LS_TOP ? n : LS_TOP;
	memcpy(out->top, all, out->ntop * sizeof(all[0]));
}

int lite_split(const struct cpu_samples *cs, uint64_t on_cpu_ns, struct lite_split *out)
{
	uint64_t *by_nr = calloc(IOWHY_NR_SLOTS + 1, sizeof(*by_nr));

	memset(out, 0, sizeof(*out));
	out->on_cpu_ns = on_cpu_ns;
	if (!by_nr)
		return -1;
	for (size_t i = 0; i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		unsigned nr;
		enum ls_where w = lite_split_where(cs, r, &nr);

		out->samples += r->count;
		if (w == LSW_USER) {
			out->user.samples += r->count;
			continue;
		}
		out->kernel.samples += r->count;
		if (w == LSW_FAULT || w == LSW_IRQ || w == LSW_KOTHER) {
			out->outside[w == LSW_FAULT ? LS_FAULT : w == LSW_IRQ ? LS_IRQ : LS_KOTHER]
				.samples += r->count;
			continue;
		}
		out->syscalls.samples += r->count;
		if (nr >= IOWHY_NR_SLOTS)
			out->unnamed += r->count;
		out->group[nr < IOWHY_NR_SLOTS ? syscall_group(nr) : SG_OTHER].samples += r->count;
		by_nr[nr < IOWHY_NR_SLOTS ? nr : IOWHY_NR_SLOTS] += r->count;
	}
	if (!out->samples) {
		free(by_nr);
		return -1;
	}
	part(&out->user, out->samples, on_cpu_ns);
	part(&out->kernel, out->samples, on_cpu_ns);
	part(&out->syscalls, out->samples, on_cpu_ns);
	for (int g = 0; g < SG_COUNT; g++)
		part(&out->group[g], out->samples, on_cpu_ns);
	for (int k = 0; k < LS_OUTSIDE_COUNT; k++)
		part(&out->outside[k], out->samples, on_cpu_ns);
	top_syscalls(out, by_nr);
	free(by_nr);
	return 0;
}

const char *ls_outside_key(enum ls_outside k)
{
	static const char *const n[LS_OUTSIDE_COUNT] = { "page_fault", "interrupt",
							 "kernel_other" };

	return k < LS_OUTSIDE_COUNT ? n[k] : "?";
}

const char *ls_outside_label(enum ls_outside k)
{
	static const char *const n[LS_OUTSIDE_COUNT] = { "page faults", "interrupts/softirq",
							 "other kernel" };

	return k < LS_OUTSIDE_COUNT ? n[k] : "?";
}
