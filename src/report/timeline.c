// SPDX-License-Identifier: GPL-2.0
/* The timeline in Chrome's trace-event JSON format; see timeline.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "timeline_priv.h"
#include "syscalls.h"
#include "text.h"

struct timeline *timeline_new(uint64_t max_events)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (tl)
		tl->max = max_events;
	return tl;
}

void timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	free(tl->s);
	free(tl->ph);
	tl_free_devices(tl);
	free(tl);
}

int timeline_phase_begin(struct timeline *tl, const char *name, uint64_t start_ns)
{
	if (tl->nph == tl->capph) {
		int cap = tl->capph ? 2 * tl->capph : 8;
		struct tl_phase *p = realloc(tl->ph, cap * sizeof(*p));

		if (!p)
			return -1;
		tl->ph = p;
		tl->capph = cap;
	}
	snprintf(tl->ph[tl->nph].name, sizeof(tl->ph[0].name), "%s", name);
	tl->ph[tl->nph].start = tl->ph[tl->nph].end = start_ns;
	tl->nph++;
	return 0;
}

void timeline_phase_end(struct timeline *tl, uint64_t end_ns)
{
	if (tl->nph)
		tl->ph[tl->nph - 1].end = end_ns;
}

int tl_grow(void **p, size_t n, size_t *cap, size_t size, uint64_t max)
{
	size_t c;
	void *q;

	if (n >= max)
		return -1;
	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 4096;
	if (c > max)
		c = max;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* Room for one more slice: slices and requests share the bound. Returns 0 or -1. */
static int room(struct timeline *tl)
{
	if (tl->n + tl->nrq >= tl->max)
		return -1;
	return tl_grow((void **)&tl->s, tl->n, &tl->cap, sizeof(*tl->s), tl->max - tl->nrq);
}

/* Keep one slice while the bound allows. Once cut it stays cut: the file then holds every slice
 * that ended before the cut (slices arrive as they end) and none after. */
void timeline_slice(void *ctx, const struct model_slice *s)
{
	struct timeline *tl = ctx;
	struct tl_slice *d;

	if (tl->dropped || room(tl)) {
		if (!tl->dropped++)
			tl->cut_ns = s->end;
		return;
	}
	d = &tl->s[tl->n++];
	d->begin = s->begin;
	d->end = s->end;
	d->tid = s->tid;
	d->tgid = s->tgid;
	d->nr = s->nr;
	d->state = s->state;
	snprintf(d->comm, sizeof(d->comm), "%s", s->comm ? s->comm : "?");
}

uint64_t timeline_slices(const struct timeline *tl)
{
	return tl->n;
}

uint64_t timeline_dropped(const struct timeline *tl)
{
	return tl->dropped;
}

/* ---- Writing ---- */

/* A JSON string: valid UTF-8, quotes, backslashes and control characters escaped. */
void tl_json_str(FILE *out, const char *s)
{
	size_t n = strlen(s) + 1;
	char *buf = malloc(n);

	if (buf)
		clean_text(buf, n, s);
	fputc('"', out);
	for (const char *p = buf ? buf : ""; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
	free(buf);
}

/* ns in 1/1024 µs, rounded: binary fractions, exact in a double. */
static uint64_t tl_units(uint64_t ns)
{
	return (ns * 128 + 62) / 125;
}

/* 1/1024 µs units as a decimal number of µs: exact (at most 10 decimals, trailing zeros cut). */
static void tl_put_units(FILE *out, uint64_t u)
{
	unsigned long long frac = (u % 1024) * 9765625ull; /* 1/1024 = 0.0009765625 */
	char digits[16];
	int n = 10;

	fprintf(out, "%llu", (unsigned long long)(u / 1024));
	if (!frac)
		return;
	snprintf(digits, sizeof(digits), "%010llu", frac);
	while (n > 1 && digits[n - 1] == '0')
		n--;
	fprintf(out, ".%.*s", n, digits);
}

/*
 * Microseconds since base, to 1/1024 µs (0.98 ns): a binary fraction, so that a viewer adding a
 * slice's begin and duration in doubles lands exactly on the next slice's begin (with 3 decimals
 * it lands a hair after it, and Chrome's DevTools then drops the next slice as badly nested).
 */
void tl_json_us(FILE *out, uint64_t ns, uint64_t base)
{
	tl_put_units(out, tl_units(ns > base ? ns - base : 0));
}

/* The duration of [begin, end) in the same units: the difference of the rounded ends, so that
 * begin + dur is the rounded end exactly. */
void tl_json_dur(FILE *out, uint64_t begin, uint64_t end, uint64_t base)
{
	uint64_t b = tl_units(begin > base ? begin - base : 0);
	uint64_t e = tl_units(end > base ? end - base : 0);

	tl_put_units(out, e > b ? e - b : 0);
}

static const char *state_key(unsigned st)
{
	static const char *const k[] = { "user", "kernel", "runq", "iowait", "other" };

	return st < 5 ? k[st] : "?";
}

/* "user", "kernel: write", "run queue", "I/O wait: fsync", "other wait: wait4" */
static void slice_name(char *buf, size_t n, const struct tl_slice *s)
{
	static const char *const label[] = { "user", "kernel", "run queue", "I/O wait",
					     "other wait" };
	const char *l = s->state < 5 ? label[s->state] : "?";

	if (s->state != IOWHY_TS_USER && s->nr != IOWHY_NR_NONE)
		snprintf(buf, n, "%s: %s", l, syscall_name(s->nr < IOWHY_NR_SLOTS ? s->nr :
							   IOWHY_NR_SLOTS - 1));
	else
		snprintf(buf, n, "%s", l);
}

static const char *state_colour(unsigned st)
{
	static const char *const c[] = { "thread_state_running", "rail_load",
					 "thread_state_runnable", "thread_state_iowait",
					 "thread_state_sleeping" };

	return st < 5 ? c[st] : "grey";
}

static int cmp_tid(const void *a, const void *b)
{
	const struct tl_slice *x = *(const struct tl_slice *const *)a;
	const struct tl_slice *y = *(const struct tl_slice *const *)b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Names of the tracks: one process per tgid (its leader's comm), one thread per tid (its last
 * comm). Returns the events written. */
static uint64_t write_names(FILE *out, const struct timeline *tl)
{
	const struct tl_slice **o = malloc((tl->n ? tl->n : 1) * sizeof(*o));
	uint64_t ev = 0;

	if (!o)
		return 0;
	for (size_t i = 0; i < tl->n; i++)
		o[i] = &tl->s[i];
	qsort(o, tl->n, sizeof(*o), cmp_tid);
	for (size_t i = 0; i < tl->n; i++) {
		const struct tl_slice *s = o[i];

		if (i + 1 < tl->n && o[i + 1]->tid == s->tid)
			continue; /* the last slice of each tid */
		fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,"
			     "\"args\":{\"name\":", s->tgid, s->tid);
		tl_json_str(out, s->comm);
		fputs("}}", out);
		ev++;
		if (s->tid == s->tgid) {
			fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,"
				     "\"args\":{\"name\":", s->tgid);
			tl_json_str(out, s->comm);
			fputs("}}", out);
			ev++;
		}
	}
	free(o);
	return ev;
}

struct edge {
	uint64_t t;
	int state, delta;
};

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta; /* ends before begins */
}

/* The tree's tasks by state over time (one sample per change), within `budget` events. Returns
 * the samples written; *cut is set when the budget ran out. */
static uint64_t write_counters(FILE *out, const struct timeline *tl, uint64_t base,
			       uint64_t budget, int *cut)
{
	struct edge *e = malloc((2 * tl->n + 1) * sizeof(*e));
	int64_t cnt[5] = { 0 };
	uint64_t ev = 0;
	size_t ne = 0;

	*cut = 0;
	if (!e)
		return 0;
	for (size_t i = 0; i < tl->n; i++) {
		e[ne++] = (struct edge){ tl->s[i].begin, tl->s[i].state, +1 };
		e[ne++] = (struct edge){ tl->s[i].end, tl->s[i].state, -1 };
	}
	qsort(e, ne, sizeof(*e), cmp_edge);
	for (size_t i = 0; i < ne; i++) {
		if (e[i].state >= 0 && e[i].state < 5)
			cnt[e[i].state] += e[i].delta;
		if (i + 1 < ne && e[i + 1].t == e[i].t)
			continue;
		if (ev >= budget) {
			*cut = 1;
			break;
		}
		fputs(",\n{\"ph\":\"C\",\"name\":\"tree tasks by state\",\"pid\":0,\"ts\":", out);
		tl_json_us(out, e[i].t, base);
		fprintf(out, ",\"args\":{\"on CPU\":%lld,\"run queue\":%lld,\"I/O wait\":%lld,"
			     "\"other wait\":%lld}}", (long long)(cnt[0] + cnt[1]), (long long)cnt[2],
			(long long)cnt[3], (long long)cnt[4]);
		ev++;
	}
	free(e);
	return ev;
}

static void write_slice(FILE *out, const struct tl_slice *s, uint64_t base)
{
	char name[64];

	slice_name(name, sizeof(name), s);
	fprintf(out, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"cat\":\"%s\",\"name\":", s->tgid, s->tid,
		state_key(s->state));
	tl_json_str(out, name);
	fputs(",\"ts\":", out);
	tl_json_us(out, s->begin, base);
	fputs(",\"dur\":", out);
	tl_json_dur(out, s->begin, s->end, base);
	fprintf(out, ",\"cname\":\"%s\",\"args\":{\"comm\":", state_colour(s->state));
	tl_json_str(out, s->comm);
	fputs("}}", out);
}

/* Time zero of the file: the first phase's start, or anything earlier (a request of the phase
 * queued just before its clock started), so that no time is clamped. */
static uint64_t tl_base(const struct timeline *tl)
{
	uint64_t base = tl->nph ? tl->ph[0].start : tl->n ? tl->s[0].begin : UINT64_MAX;

	for (size_t i = 0; i < tl->n; i++)
		if (tl->s[i].begin < base)
			base = tl->s[i].begin;
	for (size_t i = 0; i < tl->nrq; i++)
		if (tl->rq[i].begin < base)
			base = tl->rq[i].begin;
	for (size_t i = 0; i < tl->nrq; i++)
		if (tl->rq[i].submit && tl->rq[i].submit < base)
			base = tl->rq[i].submit;
	for (size_t i = 0; i < tl->ndt; i++)
		if (tl->dt[i].ts < base)
			base = tl->dt[i].ts;
	return base == UINT64_MAX ? 0 : base;
}

uint64_t timeline_write(FILE *out, const struct timeline *tl, const char *command)
{
	uint64_t base = tl_base(tl), ev = 0, nc, budget;
	int counters_cut, cut = tl->dropped || tl->rq_dropped;

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
	      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"iowhy\"}}", out);
	for (int i = 0; i < tl->nph; i++) {
		fputs(",\n{\"ph\":\"X\",\"pid\":0,\"tid\":0,\"cat\":\"phase\",\"name\":", out);
		tl_json_str(out, tl->ph[i].name);
		fputs(",\"ts\":", out);
		tl_json_us(out, tl->ph[i].start, base);
		fputs(",\"dur\":", out);
		tl_json_dur(out, tl->ph[i].start, tl->ph[i].end, base);
		fputs("}", out);
	}
	ev += write_names(out, tl);
	for (size_t i = 0; i < tl->n; i++)
		write_slice(out, &tl->s[i], base);
	budget = tl->max > tl->n + tl->nrq ? tl->max - tl->n - tl->nrq : 0;
	/* the dirty bytes (tl_write_devices writes them first) keep their room: a window with tens
	 * of thousands of state changes once left them none */
	nc = write_counters(out, tl, base, budget - (tl->ndt < budget ? tl->ndt : budget),
			    &counters_cut);
	ev += tl_write_devices(out, tl, base, budget - nc, &counters_cut);
	if (cut) {
		fprintf(out, ",\n{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"name\":\"timeline cut "
			     "here: %llu later slices and %llu requests left out (--timeline-max %llu)\","
			     "\"ts\":", (unsigned long long)tl->dropped,
			(unsigned long long)tl->rq_dropped, (unsigned long long)tl->max);
		tl_json_us(out, tl->cut_ns, base);
		fputs("}", out);
	}
	fputs("\n],\n\"otherData\":{\"tool\":\"iowhy\",\"command\":", out);
	tl_json_str(out, command ? command : "");
	fprintf(out, ",\"slices\":%llu,\"counter_samples\":%llu,\"max_events\":%llu,\"cut\":%s,"
		     "\"slices_left_out\":%llu,\"requests\":%llu,\"requests_left_out\":%llu,"
		     "\"requests_lost\":%llu,\"counters_cut\":%s,\"note\":",
		(unsigned long long)tl->n, (unsigned long long)nc, (unsigned long long)tl->max,
		cut ? "true" : "false", (unsigned long long)tl->dropped,
		(unsigned long long)tl->nrq, (unsigned long long)tl->rq_dropped,
		(unsigned long long)tl->rq_lost, counters_cut ? "true" : "false");
	tl_json_str(out, cut ? "cut at --timeline-max: the slices and requests that ended after the "
		      "cut are left out" :
		      tl->rq_lost ? "requests lost: the probes' ring buffer was full" :
		      counters_cut ? "the counter samples were cut at --timeline-max" :
		      "complete: per task, the slices tile its life in each phase");
	fputs("}}\n", out);
	return ev + tl->n + nc;
}

int timeline_write_stream(FILE *f, const char *path, const struct timeline *tl,
			  const char *command)
{
	int err = 0;

	errno = 0;
	timeline_write(f, tl, command);
	if (ferror(f) || fflush(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "iowhy: --timeline %s: %s\n", path, strerror(err));
		return -1;
	}
	return 0;
}
