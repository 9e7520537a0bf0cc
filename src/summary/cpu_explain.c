// SPDX-License-Identifier: GPL-2.0
/* The CPU samples' sentences for the explanation. See cpu_explain.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cpu_explain.h"
#include "cpu_samples.h"
#include "lite_split.h"
#include "syscalls.h"
#include "units.h"

struct out {
	char *buf;
	size_t n, len;
};

static void say(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (o->len + 1 >= o->n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		o->len += (size_t)w < o->n - o->len ? (size_t)w : o->n - o->len - 1;
}

/* "page faults 32% ± 2" for one class of the tree's user time. */
static void say_class(struct out *o, const struct cpu_samples *cs, enum cpu_class c, int *sep)
{
	const struct cs_estimate *e = &cs->tree_user[c];

	if (!e->samples)
		return;
	say(o, "%s%s %.0f%% \u00b1 %.0f", (*sep)++ ? ", " : "", cpu_class_label(c),
	    100 * e->share, fmax(1, 100 * e->share_err));
}

/* The busiest comm with page faults: how much of its user time they were, and of what kind. */
static void say_faults(struct out *o, const struct cpu_samples *cs)
{
	struct cs_comm c[4];
	size_t n = cpu_samples_by_comm(cs, c, 4);

	for (size_t i = 0; i < n; i++) {
		uint64_t f = c[i].class_samples[CC_FAULT];
		int sep = 0;

		/* worth a sentence: enough samples outside syscalls, and of faults */
		if (c[i].outside < CPU_EXPLAIN_MIN_SAMPLES || f < CPU_EXPLAIN_MIN_SAMPLES / 2)
			continue;
		say(o, "Page faults were %.0f%% of %s's time outside syscalls (", 100.0 * f /
		    c[i].outside, c[i].comm);
		for (int k = 0; k < FK_COUNT; k++)
			if (c[i].fault_kind[k])
				say(o, "%s%s %.0f%%", sep++ ? ", " : "", fault_kind_label(k),
				    100.0 * c[i].fault_kind[k] / f);
		say(o, ").\n");
		return;
	}
}

/* "inside syscalls 88% ± 1" for one part of a --lite split, when it has samples. */
static void say_part(struct out *o, const char *label, const struct ls_part *x, int *sep)
{
	if (x->samples)
		say(o, "%s%s %.0f%% \u00b1 %.0f", (*sep)++ ? ", " : "", label, 100 * x->share,
		    fmax(1, 100 * x->share_err));
}

/* --lite (no syscall probes): the whole on-CPU time is split by the samples alone. */
static size_t lite_explain(const struct phase_result *p, struct out *o)
{
	struct lite_split ls;
	char t[32];
	int sep = 0;

	if (!p->samples ||
	    lite_split(p->samples, p->wall.bucket_ns[WB_USER] + p->wall.bucket_ns[WB_KERNEL], &ls) ||
	    ls.samples < CPU_EXPLAIN_MIN_SAMPLES)
		return 0;
	say(o, "%s: CPU samples put %.0f%% \u00b1 %.0f of the %s on CPU in the kernel (", p->name,
	    100 * ls.kernel.share, fmax(1, 100 * ls.kernel.share_err),
	    fmt_ns(t, sizeof(t), ls.on_cpu_ns));
	say_part(o, "in syscalls", &ls.syscalls, &sep);
	for (int k = 0; k < LS_OUTSIDE_COUNT; k++)
		say_part(o, ls_outside_label((enum ls_outside)k), &ls.outside[k], &sep);
	say(o, ")");
	if (ls.ntop && ls.top[0].nr != IOWHY_NR_NONE && ls.top[0].p.share >= 0.5 * ls.syscalls.share)
		say(o, ", most of it in %s", syscall_name(ls.top[0].nr));
	say(o, "; --lite has no syscall probes, so this is an estimate from %llu samples.\n",
	    (unsigned long long)ls.samples);
	return o->len;
}

size_t cpu_explain(const struct phase_result *p, char *buf, size_t n)
{
	const struct cpu_samples *cs = p->samples;
	struct out o = { buf, n, 0 };
	double kernel_out, measured;
	char t[32];
	int sep = 0;

	if (n)
		buf[0] = '\0';
	if (n && p->lite)
		return lite_explain(p, &o);
	if (!cs || !n || cs->outside < CPU_EXPLAIN_MIN_SAMPLES)
		return 0;
	kernel_out = 1 - cs->tree_user[CC_USER].share;
	measured = cs->tree_user_ns + cs->tree_kernel_ns ?
		   (double)cs->tree_kernel_ns / (cs->tree_user_ns + cs->tree_kernel_ns) : 0;
	fmt_ns(t, sizeof(t), cs->tree_user_ns);
	say(&o, "%s: CPU samples put %.0f%% \u00b1 %.0f of the tree's %s of CPU outside the syscall "
	    "tracepoints in the kernel (", p->name, 100 * kernel_out,
	    fmax(1, 100 * cs->tree_user[CC_USER].share_err), t);
	for (int c = CC_FAULT; c < CC_OUTSIDE; c++)
		say_class(&o, cs, c, &sep);
	say(&o, "): the kernel's share of the tree's CPU is %.0f%%, where the tracepoints alone "
	    "bound %.0f%% (an estimate from %llu samples).\n", 100 * cs->kernel_share, 100 * measured,
	    (unsigned long long)cs->recorded);
	say_faults(&o, cs);
	return o.len;
}
