// SPDX-License-Identifier: GPL-2.0
/* CPU samples: classification, the corrected user/kernel split, top functions (cpu_samples.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iowhy.h"
#include "cpu_samples.h"
#include "result.h"

struct cpu_samples *cpu_samples_new(uint32_t hz)
{
	struct cpu_samples *cs = calloc(1, sizeof(*cs));

	if (cs)
		cs->hz = hz;
	return cs;
}

void cpu_samples_free(struct cpu_samples *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->nstacks; i++)
		free(cs->stacks[i].fn);
	for (size_t i = 0; i < cs->nnames; i++)
		free(cs->names[i]);
	free(cs->stacks);
	free(cs->names);
	free(cs->rows);
	free(cs->waits);
	free(cs->htab);
	free(cs);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Grow an array to hold one more element. Returns 0, or -1 out of memory. */
static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t nc;
	void *np;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	np = realloc(*p, nc * size);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

/* Rebuild the name hash at twice the size. */
static int rehash(struct cpu_samples *cs)
{
	size_t cap = cs->hcap ? cs->hcap * 2 : 1024;
	uint32_t *h = calloc(cap, sizeof(*h));

	if (!h)
		return -1;
	for (size_t i = 0; i < cs->nnames; i++) {
		size_t j = str_hash(cs->names[i]) & (cap - 1);

		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(cs->htab);
	cs->htab = h;
	cs->hcap = cap;
	return 0;
}

uint32_t cpu_samples_name(struct cpu_samples *cs, const char *name)
{
	size_t j;

	if ((cs->nnames + 1) * 2 > cs->hcap && rehash(cs))
		return UINT32_MAX;
	j = str_hash(name) & (cs->hcap - 1);
	while (cs->htab[j]) {
		if (!strcmp(cs->names[cs->htab[j] - 1], name))
			return cs->htab[j] - 1;
		j = (j + 1) & (cs->hcap - 1);
	}
	if (grow((void **)&cs->names, &cs->capnames, cs->nnames, sizeof(char *)))
		return UINT32_MAX;
	cs->names[cs->nnames] = strdup(name);
	if (!cs->names[cs->nnames])
		return UINT32_MAX;
	cs->htab[j] = (uint32_t)++cs->nnames;
	return (uint32_t)cs->nnames - 1;
}

uint32_t cpu_samples_add_stack(struct cpu_samples *cs, const uint32_t *fn, uint32_t n,
			       uint32_t unresolved)
{
	struct cs_stack *s;

	if (grow((void **)&cs->stacks, &cs->capstacks, cs->nstacks, sizeof(*cs->stacks)))
		return CS_NONE;
	s = &cs->stacks[cs->nstacks];
	s->fn = malloc((n ? n : 1) * sizeof(*fn));
	if (!s->fn)
		return CS_NONE;
	memcpy(s->fn, fn, n * sizeof(*fn));
	s->n = n;
	s->unresolved = unresolved;
	return (uint32_t)cs->nstacks++;
}

int cpu_samples_add_row(struct cpu_samples *cs, const struct cs_row *r)
{
	if (grow((void **)&cs->rows, &cs->caprows, cs->nrows, sizeof(*cs->rows)))
		return -1;
	cs->rows[cs->nrows++] = *r;
	return 0;
}

int cpu_samples_add_wait(struct cpu_samples *cs, const struct cs_wait *w)
{
	if (grow((void **)&cs->waits, &cs->capwaits, cs->nwaits, sizeof(*cs->waits)))
		return -1;
	cs->waits[cs->nwaits++] = *w;
	return 0;
}

uint64_t cpu_samples_wait_ns(const struct cpu_samples *cs)
{
	uint64_t ns = 0;

	for (size_t i = 0; i < cs->nwaits; i++)
		ns += cs->waits[i].ns;
	return ns;
}

static int cmp_wait(const void *a, const void *b)
{
	const struct cs_wait *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->kstack < y->kstack ? -1 : x->kstack > y->kstack;
}

size_t cpu_samples_top_waits(const struct cpu_samples *cs, struct cs_wait *out, size_t max)
{
	struct cs_wait *m = malloc((cs->nwaits ? cs->nwaits : 1) * sizeof(*m));
	size_t n = 0;

	if (!m)
		return 0;
	for (size_t i = 0; i < cs->nwaits; i++) {
		size_t j;

		for (j = 0; j < n && m[j].kstack != cs->waits[i].kstack; j++)
			;
		if (j == n) {
			m[n++] = cs->waits[i];
			continue;
		}
		m[j].count += cs->waits[i].count;
		m[j].ns += cs->waits[i].ns;
	}
	qsort(m, n, sizeof(*m), cmp_wait);
	if (n > max)
		n = max;
	memcpy(out, m, n * sizeof(*m));
	free(m);
	return n;
}

uint32_t cpu_samples_sched_frames(const char *const *names, uint32_t n)
{
	static const char *const plumbing[] = {
		"bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_", "trace_sched_switch",
		"__schedule", "schedule", NULL
	};
	uint32_t trim = 0;

	for (uint32_t i = 0; i < n && i < 12; i++) {
		const char *const *p;

		for (p = plumbing; *p; p++)
			if (!strcmp(*p, "schedule") ? !strcmp(names[i], "schedule")
						     : !strncmp(names[i], *p, strlen(*p)))
				break;
		if (*p)
			trim = i + 1;
	}
	return trim;
}

/* Kernel functions that mark a class, matched as prefixes ("=" at the end: the exact name). */
static const char *const irq_fns[] = {
	"asm_common_interrupt", "common_interrupt", "asm_sysvec_", "sysvec_", "__sysvec_",
	"__do_softirq", "handle_softirqs", "do_softirq", "__irq_exit_rcu", "irq_exit_rcu",
	"handle_irq_event", "asm_spurious_interrupt", "spurious_interrupt", "run_ksoftirqd", NULL
};
static const char *const fault_fns[] = {
	"asm_exc_page_fault", "exc_page_fault", "do_user_addr_fault", "handle_mm_fault",
	"__handle_mm_fault", "do_page_fault", "handle_page_fault", "do_mem_abort", "el0_da",
	"el1_da", NULL
};
static const char *const entry_fns[] = {
	"entry_SYSCALL", "entry_SYSRET", "do_syscall_64", "syscall_exit_to_user_mode",
	"syscall_enter_from_user_mode", "syscall_trace_enter", "syscall_exit_work",
	"exit_to_user_mode", "do_int80", "entry_INT80", "int80_emulation", "do_fast_syscall_32",
	"el0_svc", "el0t_64_sync", "invoke_syscall", "__traceiter_sys_", "trace_sys_", NULL
};

static int matches(const char *name, const char *const *pats)
{
	for (; *pats; pats++)
		if (!strncmp(name, *pats, strlen(*pats)))
			return 1;
	return 0;
}

/* iowhy's own syscall probes (BPF programs run from the entry and exit path). */
static int syscall_probe(const char *name)
{
	return !strncmp(name, "bpf_prog_", 9) &&
	       (strstr(name, "_sys_enter") || strstr(name, "_sys_exit"));
}

enum cpu_class cpu_samples_class_of(const struct cpu_samples *cs, const struct cs_row *r)
{
	const struct cs_stack *s;

	if (r->in_syscall)
		return CC_SYSCALL;
	if (!r->kernel_mode)
		return CC_USER;
	if (r->kstack == CS_NONE || r->kstack >= cs->nstacks)
		return CC_KOTHER;
	s = &cs->stacks[r->kstack];
	/* the innermost frame that marks a class decides: an interrupt taken during a fault is
	 * interrupt time, a fault taken on the way into a syscall is fault time */
	for (uint32_t i = 0; i < s->n; i++) {
		const char *name = cs->names[s->fn[i]];

		if (matches(name, irq_fns))
			return CC_IRQ;
		if (matches(name, fault_fns))
			return CC_FAULT;
		if (matches(name, entry_fns) || syscall_probe(name))
			return CC_ENTRY;
	}
	return CC_KOTHER;
}

void cpu_samples_classify(struct cpu_samples *cs)
{
	memset(cs->class_samples, 0, sizeof(cs->class_samples));
	cs->recorded = cs->outside = 0;
	cs->kframes = cs->kframes_unresolved = cs->uframes = cs->uframes_unresolved = 0;
	for (size_t i = 0; i < cs->nrows; i++) {
		struct cs_row *r = &cs->rows[i];

		if (r->kstack < cs->nstacks) {
			cs->kframes += r->count * cs->stacks[r->kstack].n;
			cs->kframes_unresolved += r->count * cs->stacks[r->kstack].unresolved;
		}
		if (r->ustack < cs->nstacks) {
			cs->uframes += r->count * cs->stacks[r->ustack].n;
			cs->uframes_unresolved += r->count * cs->stacks[r->ustack].unresolved;
		}

		r->cls = cpu_samples_class_of(cs, r);
		cs->class_samples[r->cls] += r->count;
		cs->recorded += r->count;
		if (r->cls < CC_OUTSIDE)
			cs->outside += r->count;
	}
}

/* Standard error of a share of x samples out of n: binomial, sqrt(p(1 - p)/n); when x or n - x is
 * under CS_FEW the binomial one is too small (0 at x = 0 or x = n), so the Agresti-Coull form for
 * one standard error is used: p' = (x + 1/2)/(n + 1), sqrt(p'(1 - p')/(n + 1)). */
double cs_share_err(uint64_t x, uint64_t n)
{
	double p;

	if (!n)
		return 0;
	if (x >= CS_FEW && n - x >= CS_FEW) {
		p = (double)x / (double)n;
		return sqrt(p * (1 - p) / (double)n);
	}
	p = ((double)x + 0.5) / ((double)n + 1);
	return sqrt(p * (1 - p) / ((double)n + 1));
}

/* Shares of the outside-syscall classes applied to `ns`. */
static void split_ns(const struct cpu_samples *cs, uint64_t ns, struct cs_estimate *out)
{
	for (int c = 0; c < CC_OUTSIDE; c++) {
		struct cs_estimate *e = &out[c];
		double n = (double)cs->outside;

		e->samples = cs->class_samples[c];
		e->share = n ? (double)e->samples / n : 0;
		e->share_err = cs_share_err(e->samples, cs->outside);
		/* with no sample at all the whole interval stays user code, unknown error */
		if (!n && c == CC_USER)
			e->share = 1;
		e->ns = e->share * (double)ns;
		e->err_ns = e->share_err * (double)ns;
	}
}

void cpu_samples_split(struct cpu_samples *cs, uint64_t wall_user_ns, uint64_t tree_user_ns,
		       uint64_t tree_kernel_ns)
{
	uint64_t kmode = 0;
	double cpu = (double)tree_user_ns + (double)tree_kernel_ns;

	split_ns(cs, wall_user_ns, cs->wall_user);
	split_ns(cs, tree_user_ns, cs->tree_user);
	cs->tree_user_ns = tree_user_ns;
	cs->tree_kernel_ns = tree_kernel_ns;
	cs->kernel_share = cpu ? ((double)tree_kernel_ns + (double)tree_user_ns -
				  cs->tree_user[CC_USER].ns) / cpu : 0;
	cs->kernel_share_err = cpu ? cs->tree_user[CC_USER].err_ns / cpu : 0;
	for (size_t i = 0; i < cs->nrows; i++)
		if (cs->rows[i].kernel_mode)
			kmode += cs->rows[i].count;
	cs->sample_kernel_share = cs->recorded ? (double)kmode / (double)cs->recorded : 0;
}

void cpu_samples_split_phase(struct cpu_samples *cs, const struct phase_result *p)
{
	uint64_t user = 0, kernel = 0;

	for (size_t i = 0; i < p->ncomms; i++) {
		user += p->comms[i].state_ns[IOWHY_TS_USER];
		kernel += p->comms[i].state_ns[IOWHY_TS_KERNEL];
	}
	cpu_samples_split(cs, p->wall.bucket_ns[WB_USER], user, kernel);
}

const char *cpu_class_name(enum cpu_class c)
{
	static const char *const n[CC_COUNT] = {
		"user_code", "page_fault", "syscall_entry_exit", "interrupt", "kernel_other",
		"syscall",
	};

	return c < CC_COUNT ? n[c] : "?";
}

const char *cpu_class_label(enum cpu_class c)
{
	static const char *const n[CC_COUNT] = {
		"user code", "page faults", "syscall entry/exit", "interrupts/softirq",
		"other kernel", "inside syscalls",
	};

	return c < CC_COUNT ? n[c] : "?";
}

enum fault_kind cpu_samples_fault_kind(const struct cpu_samples *cs, const struct cs_row *r)
{
	static const struct { const char *fn; enum fault_kind k; } marks[] = {
		{ "do_wp_page", FK_COW }, { "wp_page_copy", FK_COW }, { "do_cow_fault", FK_COW },
		{ "do_anonymous_page", FK_ANON }, { "do_read_fault", FK_FILE },
		{ "do_shared_fault", FK_FILE }, { "filemap_fault", FK_FILE },
		{ "filemap_map_pages", FK_FILE }, { "do_swap_page", FK_OTHER },
		{ "do_huge_pmd_anonymous_page", FK_ANON }, { "do_huge_pmd_wp_page", FK_COW },
		{ "do_fault", FK_FILE },  /* file-backed mappings only; callees often inlined */
	};
	const struct cs_stack *s;

	if (r->cls != CC_FAULT || r->kstack == CS_NONE || r->kstack >= cs->nstacks)
		return FK_OTHER;
	s = &cs->stacks[r->kstack];
	for (uint32_t i = 0; i < s->n; i++)
		for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++)
			if (!strcmp(cs->names[s->fn[i]], marks[m].fn))
				return marks[m].k;
	return FK_OTHER;
}

const char *fault_kind_name(enum fault_kind k)
{
	static const char *const n[FK_COUNT] = { "file", "cow", "anon", "other" };

	return k < FK_COUNT ? n[k] : "?";
}

const char *fault_kind_label(enum fault_kind k)
{
	static const char *const n[FK_COUNT] = {
		"file mapping", "copy-on-write", "anonymous memory", "other",
	};

	return k < FK_COUNT ? n[k] : "?";
}

static int cmp_comm(const void *a, const void *b)
{
	const struct cs_comm *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->comm, y->comm);
}

size_t cpu_samples_by_comm(const struct cpu_samples *cs, struct cs_comm *out, size_t max)
{
	struct cs_comm *c = calloc(cs->nrows ? cs->nrows : 1, sizeof(*c));
	size_t n = 0;

	if (!c)
		return 0;
	for (size_t i = 0; i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		size_t j;

		for (j = 0; j < n && strcmp(c[j].comm, r->comm); j++)
			;
		if (j == n)
			memcpy(c[n++].comm, r->comm, sizeof(c[j].comm));
		c[j].samples += r->count;
		c[j].class_samples[r->cls] += r->count;
		if (r->cls < CC_OUTSIDE)
			c[j].outside += r->count;
		if (r->cls == CC_FAULT)
			c[j].fault_kind[cpu_samples_fault_kind(cs, r)] += r->count;
	}
	qsort(c, n, sizeof(*c), cmp_comm);
	if (n > max)
		n = max;
	memcpy(out, c, n * sizeof(*c));
	free(c);
	return n;
}

static int selected(const struct cs_row *r, const struct cs_select *sel)
{
	return (sel->classes & (1u << r->cls)) && (sel->nr < 0 || r->nr == sel->nr);
}

uint64_t cpu_samples_count(const struct cpu_samples *cs, const struct cs_select *sel)
{
	uint64_t n = 0;

	for (size_t i = 0; i < cs->nrows; i++)
		if (selected(&cs->rows[i], sel))
			n += cs->rows[i].count;
	return n;
}

/* Per-name accumulator for cpu_samples_top. */
struct acc {
	uint64_t self, total, seen_row;
};

/* Small tally of names: the most frequent one wins. */
struct tally {
	uint32_t name[16];
	uint64_t count[16];
	int n;
};

static void tally_add(struct tally *t, uint32_t name, uint64_t c)
{
	for (int i = 0; i < t->n; i++) {
		if (t->name[i] == name) {
			t->count[i] += c;
			return;
		}
	}
	if (t->n < 16) {
		t->name[t->n] = name;
		t->count[t->n++] = c;
	}
}

static uint32_t tally_best(const struct tally *t)
{
	uint32_t best = CS_NONE;
	uint64_t bc = 0;

	for (int i = 0; i < t->n; i++) {
		if (t->count[i] > bc) {
			bc = t->count[i];
			best = t->name[i];
		}
	}
	return best;
}

/* Frame `depth` of the rows' stacks where frame 0 is `fn` (and frame 1 is `parent` unless
 * CS_NONE): the most frequent one. */
static uint32_t common_frame(const struct cpu_samples *cs, const struct cs_select *sel,
			     uint32_t fn, uint32_t parent, uint32_t depth)
{
	struct tally t = { .n = 0 };

	for (size_t i = 0; i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		uint32_t si = sel->kernel ? r->kstack : r->ustack;
		const struct cs_stack *s;

		if (!selected(r, sel) || si == CS_NONE)
			continue;
		s = &cs->stacks[si];
		if (s->n <= depth || s->fn[0] != fn || (parent != CS_NONE && s->fn[1] != parent))
			continue;
		tally_add(&t, s->fn[depth], r->count);
	}
	return tally_best(&t);
}

static int cmp_func(const void *a, const void *b)
{
	const struct cs_func *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->name < y->name ? -1 : x->name > y->name;
}

size_t cpu_samples_top(const struct cpu_samples *cs, const struct cs_select *sel,
		       struct cs_func *out, size_t max)
{
	struct acc *a = calloc(cs->nnames ? cs->nnames : 1, sizeof(*a));
	struct cs_func *all;
	size_t n = 0;

	if (!a)
		return 0;
	for (size_t i = 0; i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		uint32_t si = sel->kernel ? r->kstack : r->ustack;
		const struct cs_stack *s;

		if (!selected(r, sel) || si == CS_NONE)
			continue;
		s = &cs->stacks[si];
		for (uint32_t f = 0; f < s->n; f++) {
			struct acc *x = &a[s->fn[f]];

			if (f == 0)
				x->self += r->count;
			if (x->seen_row != i + 1) { /* recursion: count a sample once */
				x->total += r->count;
				x->seen_row = i + 1;
			}
		}
	}
	all = calloc(cs->nnames ? cs->nnames : 1, sizeof(*all));
	if (!all) {
		free(a);
		return 0;
	}
	for (size_t i = 0; i < cs->nnames; i++) {
		if (!a[i].total)
			continue;
		all[n].name = (uint32_t)i;
		all[n].self = a[i].self;
		all[n].total = a[i].total;
		n++;
	}
	qsort(all, n, sizeof(*all), cmp_func);
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		out[i] = all[i];
		out[i].caller[0] = out[i].caller[1] = CS_NONE;
		if (!out[i].self)
			continue;
		out[i].caller[0] = common_frame(cs, sel, out[i].name, CS_NONE, 1);
		if (out[i].caller[0] != CS_NONE)
			out[i].caller[1] = common_frame(cs, sel, out[i].name, out[i].caller[0], 2);
	}
	free(all);
	free(a);
	return n;
}
