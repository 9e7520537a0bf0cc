// SPDX-License-Identifier: GPL-2.0
/* CPU samples in the reports. See cpu_report.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cpu_report.h"
#include "cpu_samples.h"
#include "cpu_explain.h"
#include "cpu_raw_json.h"
#include "syscalls.h"
#include "units.h"

#define TOP_FUNCS 10
#define TOP_SYSCALLS 8
#define TOP_WAITS 8
#define TOP_COMMS 8
#define WAIT_FRAMES 6     /* frames of a wait stack shown in the text report */

/* ---- JSON ---- */

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static void put_u64(struct json_object *o, const char *key, uint64_t v)
{
	put(o, key, json_object_new_uint64(v));
}

static void put_num(struct json_object *o, const char *key, double v)
{
	put(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

static struct json_object *estimate_obj(const struct cs_estimate *e)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "samples", e->samples);
	put_num(o, "share", e->share);
	put_num(o, "share_err", e->share_err);
	put_u64(o, "ns", (uint64_t)llround(e->ns));
	put_u64(o, "err_ns", (uint64_t)llround(e->err_ns));
	put(o, "few_samples", json_object_new_boolean(e->samples < CS_FEW));
	return o;
}

static struct json_object *split_obj(const struct cs_estimate *e)
{
	struct json_object *o = json_object_new_object();

	for (int c = 0; c < CC_OUTSIDE; c++)
		put(o, cpu_class_name(c), estimate_obj(&e[c]));
	return o;
}

static struct json_object *funcs_arr(const struct cpu_samples *cs, const struct cs_select *sel)
{
	struct json_object *a = json_object_new_array();
	struct cs_func f[TOP_FUNCS];
	size_t n = cpu_samples_top(cs, sel, f, TOP_FUNCS);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object(), *c = json_object_new_array();

		put(o, "name", json_object_new_string(cs->names[f[i].name]));
		put_u64(o, "self", f[i].self);
		put_u64(o, "total", f[i].total);
		for (int k = 0; k < 2 && f[i].caller[k] != CS_NONE; k++)
			json_object_array_add(c, json_object_new_string(cs->names[f[i].caller[k]]));
		put(o, "callers", c);
		json_object_array_add(a, o);
	}
	return a;
}

/* Samples and top functions of one selection, kernel and user side. */
static struct json_object *selection_obj(const struct cpu_samples *cs, unsigned classes, int nr)
{
	struct json_object *o = json_object_new_object();
	struct cs_select k = { classes, nr, 1 }, u = { classes, nr, 0 };

	put_u64(o, "samples", cpu_samples_count(cs, &k));
	put(o, "top_kernel", funcs_arr(cs, &k));
	put(o, "top_user", funcs_arr(cs, &u));
	return o;
}

/* Syscalls by in-syscall samples, most first (at most max). */
static size_t top_syscalls(const struct cpu_samples *cs, unsigned *nrs, uint64_t *counts,
			   size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		size_t j;

		if (r->cls != CC_SYSCALL)
			continue;
		for (j = 0; j < n && nrs[j] != r->nr; j++)
			;
		if (j == n) {
			if (n == IOWHY_NR_SLOTS)
				continue;
			nrs[n] = r->nr;
			counts[n++] = 0;
		}
		counts[j] += r->count;
	}
	for (size_t i = 1; i < n; i++) /* insertion sort, most samples first */
		for (size_t j = i; j > 0 && counts[j] > counts[j - 1]; j--) {
			uint64_t c = counts[j];
			unsigned x = nrs[j];

			counts[j] = counts[j - 1];
			nrs[j] = nrs[j - 1];
			counts[j - 1] = c;
			nrs[j - 1] = x;
		}
	return n < max ? n : max;
}

static struct json_object *by_syscall_arr(const struct cpu_samples *cs)
{
	struct json_object *a = json_object_new_array();
	unsigned nrs[IOWHY_NR_SLOTS];
	uint64_t counts[IOWHY_NR_SLOTS];
	size_t n = top_syscalls(cs, nrs, counts, TOP_SYSCALLS);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = selection_obj(cs, 1u << CC_SYSCALL, (int)nrs[i]);

		put(o, "name", json_object_new_string(syscall_name(nrs[i])));
		json_object_array_add(a, o);
	}
	return a;
}

/* The tracepoints' user time (outside syscalls) of a comm in the work view. */
static uint64_t comm_user_ns(const struct phase_result *p, const char *comm)
{
	uint64_t ns = 0;

	for (size_t i = 0; i < p->ncomms; i++)
		if (!strncmp(p->comms[i].comm, comm, IOWHY_COMM_LEN))
			ns += p->comms[i].state_ns[IOWHY_TS_USER];
	return ns;
}

/* Per comm: samples by class, the split of its user time, what its page faults were. */
static struct json_object *by_comm_arr(const struct phase_result *p)
{
	const struct cpu_samples *cs = p->samples;
	struct json_object *a = json_object_new_array();
	struct cs_comm c[TOP_COMMS];
	size_t n = cpu_samples_by_comm(cs, c, TOP_COMMS);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object(), *cl = json_object_new_object();
		struct json_object *split = json_object_new_object();
		struct json_object *fk = json_object_new_object();
		uint64_t user = comm_user_ns(p, c[i].comm);

		put(o, "comm", json_object_new_string(c[i].comm));
		put_u64(o, "samples", c[i].samples);
		put_u64(o, "outside", c[i].outside);
		put_u64(o, "user_ns", user);
		for (int k = 0; k < CC_COUNT; k++)
			put_u64(cl, cpu_class_name(k), c[i].class_samples[k]);
		put(o, "classes", cl);
		for (int k = 0; k < CC_OUTSIDE; k++)
			put_u64(split, cpu_class_name(k), c[i].outside ? (uint64_t)llround(
				(double)user * c[i].class_samples[k] / c[i].outside) : 0);
		put(o, "user_split_ns", split);
		for (int k = 0; k < FK_COUNT; k++)
			put_u64(fk, fault_kind_name(k), c[i].fault_kind[k]);
		put(o, "fault_kinds", fk);
		json_object_array_add(a, o);
	}
	return a;
}

/* Off-CPU: uninterruptible sleeps per kernel stack. */
static struct json_object *offcpu_obj(const struct cpu_samples *cs)
{
	struct json_object *o = json_object_new_object(), *lost = json_object_new_object();
	struct json_object *a = json_object_new_array();
	struct cs_wait w[TOP_WAITS];
	size_t n = cpu_samples_top_waits(cs, w, TOP_WAITS);

	put_u64(o, "sleeps", cs->off_sleeps);
	put_u64(o, "ns", cpu_samples_wait_ns(cs));
	put_u64(lost, "stacks", cs->off_stack_lost);
	put_u64(lost, "pending", cs->off_pending_lost);
	put_u64(lost, "keys", cs->off_key_lost);
	put(o, "lost", lost);
	put_u64(o, "unsampled_ns", cs->off_held_ns);
	put_u64(o, "unsampled_sleeps", cs->off_held_n);
	put_u64(o, "stack_walks", cs->off_walks);
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_new_object(), *f = json_object_new_array();

		put_u64(x, "ns", w[i].ns);
		put_u64(x, "sleeps", w[i].count);
		put(x, "comm", json_object_new_string(w[i].comm));
		for (uint32_t k = 0; w[i].kstack != CS_NONE && k < cs->stacks[w[i].kstack].n; k++)
			json_object_array_add(f, json_object_new_string(
				cs->names[cs->stacks[w[i].kstack].fn[k]]));
		put(x, "frames", f);
		json_object_array_add(a, x);
	}
	put(o, "top_stacks", a);
	return o;
}

void cpu_report_json(struct json_object *phase, const struct phase_result *p)
{
	const struct cpu_samples *cs = p->samples;
	struct json_object *o, *lost, *frames, *classes, *by_class;

	if (!cs)
		return;
	o = json_object_new_object();
	put_u64(o, "hz", cs->hz);
	put_u64(o, "samples", cs->samples);
	put_u64(o, "recorded", cs->recorded);
	lost = json_object_new_object();
	put_u64(lost, "kernel_stacks", cs->kstack_lost);
	put_u64(lost, "user_stacks", cs->ustack_lost);
	put_u64(lost, "samples", cs->key_lost);
	put_u64(lost, "unknown_task", cs->unknown_task);
	put(o, "lost", lost);
	frames = json_object_new_object();
	put_u64(frames, "kernel", cs->kframes);
	put_u64(frames, "kernel_unresolved", cs->kframes_unresolved);
	put_u64(frames, "user", cs->uframes);
	put_u64(frames, "user_unresolved", cs->uframes_unresolved);
	put_u64(frames, "exec_files", cs->exec_files);
	put_u64(frames, "exec_files_found", cs->exec_files_found);
	put(o, "frames", frames);
	classes = json_object_new_object();
	for (int c = 0; c < CC_COUNT; c++)
		put_u64(classes, cpu_class_name(c), cs->class_samples[c]);
	put(o, "classes", classes);
	put_num(o, "sample_kernel_share", cs->sample_kernel_share);
	put_num(o, "kernel_share", cs->kernel_share);
	put_num(o, "kernel_share_err", cs->kernel_share_err);
	put_u64(o, "tree_user_ns", cs->tree_user_ns);
	put_u64(o, "tree_kernel_ns", cs->tree_kernel_ns);
	put(o, "tree_user_split", split_obj(cs->tree_user));
	put(o, "wall_user_split", split_obj(cs->wall_user));
	put(o, "all", selection_obj(cs, (1u << CC_COUNT) - 1, -1));
	by_class = json_object_new_object();
	for (int c = 0; c < CC_COUNT; c++)
		put(by_class, cpu_class_name(c), selection_obj(cs, 1u << c, -1));
	put(o, "by_class", by_class);
	put(o, "by_syscall", by_syscall_arr(cs));
	put(o, "by_comm", by_comm_arr(p));
	{
		char text[1024];

		put(o, "explanation", json_object_new_string(cpu_explain(p, text, sizeof(text)) ?
							    text : ""));
	}
	put(o, "raw", cpu_raw_json(cs)); /* what iowhy report -v renders again */
	put(phase, "cpu_samples", o);
	if (cs->off_traced)
		put(phase, "offcpu", offcpu_obj(cs));
}

/* ---- text ---- */

static void pct(char *buf, size_t n, double part, double whole)
{
	snprintf(buf, n, "%.0f%%", whole > 0 ? 100.0 * part / whole : 0.0);
}

/* "72% ext4_find_dest_de ← ext4_add_entry ← ext4_create": a selection's top functions. */
static void top_line(FILE *out, const struct cpu_samples *cs, const struct cs_select *sel,
		     const char *title)
{
	struct cs_func f[3];
	uint64_t total = cpu_samples_count(cs, sel);
	size_t n = cpu_samples_top(cs, sel, f, 3);
	char p[16];

	if (!n || !total)
		return;
	fprintf(out, "    %-28s", title);
	for (size_t i = 0; i < n && f[i].self; i++) {
		pct(p, sizeof(p), (double)f[i].self, (double)total);
		fprintf(out, "%s%s %s", i ? ", " : "", p, cs->names[f[i].name]);
		for (int k = 0; i == 0 && k < 2 && f[i].caller[k] != CS_NONE; k++)
			fprintf(out, " \u2190 %s", cs->names[f[i].caller[k]]);
	}
	fprintf(out, "\n");
}

/* The top functions of the kernel-mode samples (kernel) or of the user-code samples: self and
 * total shares. */
static void top_table(FILE *out, const struct cpu_samples *cs, int kernel, size_t max)
{
	struct cs_select sel = { kernel ? ((1u << CC_COUNT) - 1) & ~(1u << CC_USER) : 1u << CC_USER,
				 -1, kernel };
	struct cs_func f[TOP_FUNCS];
	size_t n = cpu_samples_top(cs, &sel, f, max < TOP_FUNCS ? max : TOP_FUNCS);
	uint64_t all = cpu_samples_count(cs, &sel);
	char self[16], total[16];

	if (!n)
		return;
	fprintf(out, "    top %s functions %5s %6s  (of %" PRIu64 " %s samples)\n",
		kernel ? "kernel" : "user", "self", "total", all, kernel ? "kernel" : "user-code");
	for (size_t i = 0; i < n; i++) {
		pct(self, sizeof(self), (double)f[i].self, (double)all);
		pct(total, sizeof(total), (double)f[i].total, (double)all);
		fprintf(out, "      %-40s %5s %6s\n", cs->names[f[i].name], self, total);
	}
}

/* A long line word-wrapped at WRAP columns: indented 4, continuation lines 6. */
#define WRAP 100
static void print_wrapped(FILE *out, const char *line)
{
	size_t col = 4, len;
	int fresh = 1;   /* nothing on this output line yet */

	fputs("    ", out);
	while (*line) {
		while (*line == ' ')
			line++;
		len = strcspn(line, " ");
		if (!len)
			break;
		if (!fresh && col + 1 + len > WRAP) {
			fputs("\n      ", out);
			col = 6;
			fresh = 1;
		}
		if (!fresh) {
			fputc(' ', out);
			col++;
		}
		fwrite(line, 1, len, out);
		col += len;
		line += len;
		fresh = 0;
	}
	fputc('\n', out);
}

/* One row of the split of the user bucket: time, share, and the ± when samples are few. */
static void split_row(FILE *out, const struct cs_estimate *e, const char *label, double whole)
{
	char t[32], err[32], p[16];

	fmt_ns(t, sizeof(t), (uint64_t)llround(e->ns));
	pct(p, sizeof(p), e->ns, whole);
	fprintf(out, "    %-22s %10s %5s  %6" PRIu64 " samples", label, t, p, e->samples);
	if (e->samples < CS_FEW) {
		fmt_ns(err, sizeof(err), (uint64_t)llround(e->err_ns));
		fprintf(out, "  estimate \u00b1 %s (few samples)", err);
	}
	fprintf(out, "\n");
}

/* The top uninterruptible-sleep stacks: time, share of all such sleep, and the stack. */
static void waits_text(FILE *out, const struct cpu_samples *cs)
{
	struct cs_wait w[5];
	size_t n = cpu_samples_top_waits(cs, w, 5);
	uint64_t total = cpu_samples_wait_ns(cs);
	char t[32], p[16];

	if (!n)
		return;
	fmt_ns(t, sizeof(t), total);
	fprintf(out, "\n  Why the tree slept uninterruptibly (%" PRIu64 " sleeps, %s; a task's "
		"kernel stack once per sampling period of its sleep)\n", cs->off_sleeps, t);
	for (size_t i = 0; i < n; i++) {
		const struct cs_stack *st = NULL;

		if (w[i].kstack != CS_NONE)
			st = &cs->stacks[w[i].kstack];

		fmt_ns(t, sizeof(t), w[i].ns);
		pct(p, sizeof(p), (double)w[i].ns, (double)total);
		fprintf(out, "    %10s %4s %7" PRIu64 " x  %-8s ", t, p, w[i].count, w[i].comm);
		if (!st || !st->n)
			fprintf(out, "[stack lost]");
		for (uint32_t k = 0; st && k < st->n && k < WAIT_FRAMES; k++)
			fprintf(out, "%s%s", k ? " \u2190 " : "", cs->names[st->fn[k]]);
		fprintf(out, "\n");
	}
	if (cs->off_held_ns) {
		fmt_ns(t, sizeof(t), cs->off_held_ns);
		fprintf(out, "    and %s in %" PRIu64 " short sleeps not given a stack (each task's "
			"last, below the sampling period)\n", t, cs->off_held_n);
	}
	if (cs->off_stack_lost || cs->off_pending_lost || cs->off_key_lost)
		fprintf(out, "    lost: %" PRIu64 " stacks, %" PRIu64 " sleeps not timed, %" PRIu64
			" not counted\n", cs->off_stack_lost, cs->off_pending_lost,
			cs->off_key_lost);
}

/* Per busy comm: how its user time splits, and what its page faults were. */
static void comms_text(FILE *out, const struct phase_result *p)
{
	const struct cpu_samples *cs = p->samples;
	struct cs_comm c[4];
	size_t n = cpu_samples_by_comm(cs, c, 4);

	for (size_t i = 0; i < n; i++) {
		uint64_t user = comm_user_ns(p, c[i].comm), faults;
		char t[32], pc[16];

		if (!c[i].outside)
			continue;
		fmt_ns(t, sizeof(t), user);
		fprintf(out, "    %s, %s outside syscalls:", c[i].comm, t);
		for (int k = 0, sep = 0; k < CC_OUTSIDE; k++) {
			if (!c[i].class_samples[k])
				continue;
			pct(pc, sizeof(pc), (double)c[i].class_samples[k], (double)c[i].outside);
			fprintf(out, "%s %s %s", sep++ ? "," : "", cpu_class_label(k), pc);
		}
		fprintf(out, "%s\n", c[i].outside < CS_FEW ? " (few samples)" : "");
		faults = c[i].class_samples[CC_FAULT];
		if (!faults)
			continue;
		fmt_ns(t, sizeof(t), (uint64_t)llround((double)user * faults / c[i].outside));
		fprintf(out, "      its page faults, %s:", t);
		for (int f = 0, sep = 0; f < FK_COUNT; f++) {
			if (!c[i].fault_kind[f])
				continue;
			pct(pc, sizeof(pc), (double)c[i].fault_kind[f], (double)faults);
			fprintf(out, "%s %s %s", sep++ ? "," : "", fault_kind_label(f), pc);
		}
		fprintf(out, "\n");
	}
}

void cpu_report_text(FILE *out, const struct phase_result *p)
{
	const struct cpu_samples *cs = p->samples;
	double wall_user;
	unsigned nrs[IOWHY_NR_SLOTS];
	uint64_t counts[IOWHY_NR_SLOTS];
	size_t n;

	if (!cs)
		return;
	waits_text(out, cs);
	wall_user = (double)p->wall.bucket_ns[WB_USER];
	fprintf(out, "\n  Where the CPU went (%" PRIu64 " samples at %u Hz: an estimate, not a "
		"measurement)\n", cs->samples, cs->hz);
	if (!cs->recorded) {
		fprintf(out, "    no sample of the workload\n");
		return;
	}
	{
		char text[1024], *line, *save = NULL;

		if (cpu_explain(p, text, sizeof(text)))
			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				print_wrapped(out, line);
	}
	fprintf(out, "    the wall view's user time, split by %" PRIu64 " samples outside "
		"syscalls:\n", cs->outside);
	for (int c = 0; c < CC_OUTSIDE; c++)
		if (cs->wall_user[c].samples || c == CC_USER)
			split_row(out, &cs->wall_user[c], cpu_class_label(c), wall_user);
	fprintf(out, "    kernel share of the tree's CPU: %.1f%% \u00b1 %.1f (tracepoints alone: "
		"%.1f%%; kernel-mode samples: %.1f%%)\n", 100 * cs->kernel_share,
		100 * cs->kernel_share_err,
		cs->tree_user_ns + cs->tree_kernel_ns ?
		100.0 * cs->tree_kernel_ns / (cs->tree_user_ns + cs->tree_kernel_ns) : 0.0,
		100 * cs->sample_kernel_share);
	comms_text(out, p);
	top_table(out, cs, 1, 6);
	top_table(out, cs, 0, 4);
	fprintf(out, "    top functions (self) by class and by syscall, with their most frequent "
		"callers:\n");
	for (int c = 0; c < CC_COUNT; c++) {
		struct cs_select sel = { 1u << c, -1, c != CC_USER };
		char title[64];

		snprintf(title, sizeof(title), "%s:", cpu_class_label(c));
		top_line(out, cs, &sel, title);
	}
	n = top_syscalls(cs, nrs, counts, 5);
	for (size_t i = 0; i < n; i++) {
		struct cs_select sel = { 1u << CC_SYSCALL, (int)nrs[i], 1 };
		char title[64];

		snprintf(title, sizeof(title), "kernel CPU in %s:", syscall_name(nrs[i]));
		top_line(out, cs, &sel, title);
	}
	if (cs->kstack_lost || cs->ustack_lost || cs->key_lost || cs->kframes_unresolved ||
	    cs->uframes_unresolved)
		fprintf(out, "    lost: %" PRIu64 " kernel and %" PRIu64 " user stacks, %" PRIu64
			" samples; unresolved: %" PRIu64 " of %" PRIu64 " kernel and %" PRIu64
			" of %" PRIu64 " user frames\n", cs->kstack_lost, cs->ustack_lost,
			cs->key_lost, cs->kframes_unresolved, cs->kframes, cs->uframes_unresolved,
			cs->uframes);
}

/* ---- folded ---- */

/* A growing text buffer (open_memstream) per line, collected for sorting. */
struct lines {
	char **v;
	uint64_t *count;
	size_t n, cap;
};

static int lines_add(struct lines *l, char *line, uint64_t count)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 256;
		char **v = realloc(l->v, nc * sizeof(*v));
		uint64_t *c;

		if (!v)
			return -1;
		l->v = v;
		c = realloc(l->count, nc * sizeof(*c));
		if (!c)
			return -1;
		l->count = c;
		l->cap = nc;
	}
	l->v[l->n] = line;
	l->count[l->n++] = count;
	return 0;
}

/* A frame or comm without spaces or semicolons (the format's separators). */
static void put_frame(FILE *f, const char *name, const char *suffix)
{
	if (!*name)
		name = "[unknown]";
	for (; *name; name++)
		fputc(*name == ' ' || *name == ';' || *name == '\n' ? '_' : *name, f);
	fputs(suffix, f);
}

/* Frames of stack `si` outermost first, each after a ';'. */
static void put_stack(FILE *f, const struct cpu_samples *cs, uint32_t si, const char *suffix)
{
	const struct cs_stack *st;

	if (si == CS_NONE || si >= cs->nstacks)
		return;
	st = &cs->stacks[si];
	for (uint32_t i = st->n; i-- > 0;) {
		fputc(';', f);
		put_frame(f, cs->names[st->fn[i]], suffix);
	}
}

/* The folded stack of every row of a phase. Returns 0, or -1 out of memory. */
static int folded_phase(struct lines *l, const struct phase_result *p, int prefix)
{
	const struct cpu_samples *cs = p->samples;

	for (size_t i = 0; cs && i < cs->nrows; i++) {
		const struct cs_row *r = &cs->rows[i];
		char *line = NULL;
		size_t len = 0;
		FILE *f;

		if (!r->count)
			continue;
		f = open_memstream(&line, &len);
		if (!f)
			return -1;
		if (prefix) {
			put_frame(f, p->name, "");
			fputc(';', f);
		}
		put_frame(f, r->comm, "");
		put_stack(f, cs, r->ustack, "");
		if (r->kernel_mode && r->kstack == CS_NONE)
			fputs(";[kernel_stack_lost]_[k]", f);
		put_stack(f, cs, r->kstack, "_[k]");
		if (fclose(f) || lines_add(l, line, r->count)) {
			free(line);
			return -1;
		}
	}
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

/* Write the lines sorted, equal stacks merged (rows that differ only in what the format does
 * not show: syscall number, stack ids of the same functions). */
static void write_lines(FILE *f, struct lines *l)
{
	char ***idx = malloc((l->n ? l->n : 1) * sizeof(*idx));

	if (!idx) {
		for (size_t i = 0; i < l->n; i++)
			fprintf(f, "%s %" PRIu64 "\n", l->v[i], l->count[i]);
		return;
	}
	for (size_t i = 0; i < l->n; i++)
		idx[i] = &l->v[i];
	qsort(idx, l->n, sizeof(*idx), cmp_line);
	for (size_t i = 0; i < l->n;) {
		uint64_t sum = 0;
		size_t j = i;

		for (; j < l->n && !strcmp(*idx[j], *idx[i]); j++)
			sum += l->count[idx[j] - l->v];
		fprintf(f, "%s %" PRIu64 "\n", *idx[i], sum);
		i = j;
	}
	free(idx);
}

/* The off-CPU rows of a phase: "comm;kernel frames_[k] µs asleep". Returns 0, or -1 (memory). */
static int folded_waits(struct lines *l, const struct phase_result *p, int prefix)
{
	const struct cpu_samples *cs = p->samples;

	for (size_t i = 0; cs && i < cs->nwaits; i++) {
		const struct cs_wait *w = &cs->waits[i];
		uint64_t us = (w->ns + 500) / 1000;
		char *line = NULL;
		size_t len = 0;
		FILE *f;

		if (!us)
			continue;
		f = open_memstream(&line, &len);
		if (!f)
			return -1;
		if (prefix) {
			put_frame(f, p->name, "");
			fputc(';', f);
		}
		put_frame(f, w->comm, "");
		if (w->kstack == CS_NONE)
			fputs(";[kernel_stack_lost]_[k]", f);
		put_stack(f, cs, w->kstack, "_[k]");
		if (fclose(f) || lines_add(l, line, us)) {
			free(line);
			return -1;
		}
	}
	return 0;
}

/* Write one folded file from the rows `collect` gives for every phase; closes f. */
static int write_folded(FILE *f, const char *name, const struct session_result *s,
			int (*collect)(struct lines *, const struct phase_result *, int))
{
	struct lines l = { 0 };
	int err = 0;

	for (int i = 0; i < s->nphases && !err; i++)
		if (collect(&l, &s->phases[i], s->nphases > 1))
			err = ENOMEM;
	if (!err) {
		write_lines(f, &l);
		if (ferror(f))
			err = errno ? errno : EIO;
	}
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	free(l.count);
	if (err) {
		fprintf(stderr, "iowhy: --folded %s: %s\n", name, strerror(err));
		return -1;
	}
	return 0;
}

int cpu_report_has_offcpu(const struct session_result *s)
{
	for (int i = 0; i < s->nphases; i++)
		if (s->phases[i].samples && s->phases[i].samples->off_traced)
			return 1;
	return 0;
}

int cpu_report_folded(FILE *on, const char *name, FILE *off, const char *off_name,
		      const struct session_result *s)
{
	int rc = write_folded(on, name, s, folded_phase);

	if (off && write_folded(off, off_name, s, folded_waits))
		rc = -1;
	return rc;
}
