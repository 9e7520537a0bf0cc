// SPDX-License-Identifier: GPL-2.0
/* Compare two iowhy JSON reports (compare.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/* Member KEY of object O, or NULL. */
static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* Number KEY of O (0 if absent). */
static double num(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v ? json_object_get_double(v) : 0;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t alen(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* The element of array A whose "name" (or KEY) is NAME, or NULL. */
static struct json_object *by_name(struct json_object *a, const char *key, const char *name)
{
	for (size_t i = 0; i < alen(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		if (!strcmp(str(e, key), name))
			return e;
	}
	return NULL;
}

/* Add an item; WHAT is printf-style. */
static struct cmp_item *item(struct cmp_result *r, double a, double b, int is_time,
			     int higher_better, const char *f, ...)
{
	struct cmp_item *it;
	va_list ap;

	if (r->n >= CMP_MAX_ITEMS)
		return NULL;
	it = &r->items[r->n++];
	memset(it, 0, sizeof(*it));
	va_start(ap, f);
	vsnprintf(it->what, sizeof(it->what), f, ap);
	va_end(ap);
	it->a = a;
	it->b = b;
	it->is_time = is_time;
	it->higher_better = higher_better;
	if (is_time)
		it->weight = fabs(b - a);
	else if (a > 0 && b > 0)
		it->weight = fabs(log(b / a));
	else
		it->weight = a == b ? 0 : 10; /* something against nothing */
	return it;
}

/* Which kind of report: "run", "hunt", or NULL. */
static const char *kind_of(struct json_object *o)
{
	if (!strcmp(str(o, "kind"), "hunt"))
		return "hunt";
	return get(o, "phases") ? "run" : NULL;
}

/* Phase items: wall, the wall buckets, I/O wait by device, device busy time, syscall time. */
static void run_phase_items(struct cmp_result *r, struct json_object *pa, struct json_object *pb)
{
	static const char *const buckets[][2] = {
		{ "user_ns", "CPU outside syscalls" }, { "kernel_ns", "kernel CPU in syscalls" },
		{ "runq_ns", "run-queue wait" }, { "iowait_ns", "I/O wait" },
		{ "other_ns", "other waits" },
	};
	const char *ph = str(pa, "name");
	struct json_object *wa = get(pa, "wall"), *wb = get(pb, "wall");
	struct json_object *ia = get(pa, "iowait_by_device"), *ib = get(pb, "iowait_by_device");
	struct json_object *da = get(get(pa, "io"), "devices"), *db = get(get(pb, "io"), "devices");
	struct json_object *sa = get(pa, "syscalls"), *sb = get(pb, "syscalls");

	item(r, num(pa, "wall_ns") / 1e9, num(pb, "wall_ns") / 1e9, 1, 0, "%s: wall", ph);
	for (size_t i = 0; i < sizeof(buckets) / sizeof(buckets[0]); i++)
		item(r, num(wa, buckets[i][0]) / 1e9, num(wb, buckets[i][0]) / 1e9, 1, 0, "%s: %s",
		     ph, buckets[i][1]);
	/* the headline user/kernel split, where both runs have one (cpu_split: user_ns not null) */
	if (json_object_is_type(get(get(pa, "cpu_split"), "user_ns"), json_type_int) &&
	    json_object_is_type(get(get(pb, "cpu_split"), "user_ns"), json_type_int)) {
		item(r, num(get(pa, "cpu_split"), "user_ns") / 1e9,
		     num(get(pb, "cpu_split"), "user_ns") / 1e9, 1, 0, "%s: user CPU (sampled)", ph);
		item(r, num(get(pa, "cpu_split"), "kernel_ns") / 1e9,
		     num(get(pb, "cpu_split"), "kernel_ns") / 1e9, 1, 0, "%s: kernel CPU (sampled)", ph);
	}
	/* devices and syscalls: the union of names, each side 0 where absent */
	for (int side = 0; side < 2; side++) {
		struct json_object *x = side ? ib : ia, *y = side ? ia : ib;

		for (size_t i = 0; i < alen(x); i++) {
			const char *n = str(json_object_array_get_idx(x, i), "name");
			struct json_object *o = by_name(y, "name", n);

			if (side && o)
				continue; /* already added from A */
			double va = num(side ? o : json_object_array_get_idx(x, i), "ns");
			double vb = num(side ? json_object_array_get_idx(x, i) : o, "ns");

			item(r, va / 1e9, vb / 1e9, 1, 0, "%s: I/O wait on %s", ph, n);
		}
		x = side ? db : da;
		y = side ? da : db;
		for (size_t i = 0; i < alen(x); i++) {
			const char *n = str(json_object_array_get_idx(x, i), "name");
			struct json_object *o = by_name(y, "name", n);

			if (side && o)
				continue;
			double va = num(side ? o : json_object_array_get_idx(x, i), "busy_ns");
			double vb = num(side ? json_object_array_get_idx(x, i) : o, "busy_ns");

			item(r, va / 1e9, vb / 1e9, 1, 0, "%s: %s busy", ph, n);
		}
		x = side ? sb : sa;
		y = side ? sa : sb;
		for (size_t i = 0; i < alen(x) && i < 10; i++) {
			const char *n = str(json_object_array_get_idx(x, i), "name");
			struct json_object *o = by_name(y, "name", n);

			if (side && o)
				continue;
			double va = num(side ? o : json_object_array_get_idx(x, i), "total_ns");
			double vb = num(side ? json_object_array_get_idx(x, i) : o, "total_ns");

			item(r, va / 1e9, vb / 1e9, 1, 0, "%s: time in %s()", ph, n);
		}
	}
}

/* "B is 2.1x faster (A 4.07 s, B 1.94 s): 80% of the difference is less I/O wait on loop2" */
static void run_headline(struct cmp_result *r)
{
	double wa = 0, wb = 0, d;
	const struct cmp_item *best = NULL, *bucket = NULL;
	int sampled = 0;

	for (int i = 0; i < r->n; i++)
		if (strstr(r->items[i].what, ": wall")) {
			wa += r->items[i].a;
			wb += r->items[i].b;
		}
	d = wa - wb;
	for (int i = 0; i < r->n; i++)
		if (strstr(r->items[i].what, "CPU (sampled)"))
			sampled = 1;
	for (int i = 0; i < r->n; i++) {
		const struct cmp_item *it = &r->items[i];
		double di = it->a - it->b;

		/* the parts of the wall (buckets, I/O wait by device) that moved as the wall did; the
		 * CPU as the headline split has it (user code, all kernel) where both runs have one,
		 * else the tracepoints' two CPU buckets: one partition of the CPU, never both */
		if (strstr(it->what, ": wall") || strstr(it->what, " busy") ||
		    strstr(it->what, "time in ") || di * d <= 0)
			continue;
		if (sampled ? strstr(it->what, "syscalls") != NULL : strstr(it->what, "(sampled)") != NULL)
			continue;
		if (!best || fabs(di) > fabs(best->a - best->b))
			best = it;
		if (strstr(it->what, ": I/O wait") && !strstr(it->what, " on "))
			bucket = it;
	}
	/* the I/O wait bucket is better said by the device that carries most of it */
	if (best && best == bucket)
		for (int i = 0; i < r->n; i++) {
			const struct cmp_item *it = &r->items[i];

			if (strstr(it->what, "I/O wait on ") &&
			    fabs(it->a - it->b) >= 0.8 * fabs(bucket->a - bucket->b))
				best = it;
		}
	if (wa <= 0 || wb <= 0) {
		snprintf(r->headline, sizeof(r->headline), "A %.3f s, B %.3f s of wall", wa, wb);
		return;
	}
	int n = snprintf(r->headline, sizeof(r->headline), "B is %.1fx %s (A %.2f s, B %.2f s)",
			 wa > wb ? wa / wb : wb / wa, wa > wb ? "faster" : "slower", wa, wb);
	if (!best || n <= 0 || (size_t)n >= sizeof(r->headline))
		return;
	/* a share of the net difference only when the part is not larger than it (parts that
	 * moved the other way can make the net small) */
	if (fabs(best->a - best->b) <= 1.05 * fabs(d))
		snprintf(r->headline + n, sizeof(r->headline) - (size_t)n,
			 ": %.0f%% of the difference is %s %s (A %.2f s, B %.2f s)",
			 100 * fabs(best->a - best->b) / fabs(d),
			 best->b < best->a ? "less" : "more",
			 strchr(best->what, ':') ? strchr(best->what, ':') + 2 : best->what,
			 best->a, best->b);
	else
		snprintf(r->headline + n, sizeof(r->headline) - (size_t)n,
			 ": parts moved both ways; the largest is %s %s (A %.2f s, B %.2f s)",
			 best->b < best->a ? "less" : "more",
			 strchr(best->what, ':') ? strchr(best->what, ':') + 2 : best->what,
			 best->a, best->b);
}

/* The best value of FIELD over a row array ("seq1m": [{depth, mib_s, ...}]). */
static double best_of(struct json_object *rows, const char *field)
{
	double b = 0;

	for (size_t i = 0; i < alen(rows); i++)
		b = fmax(b, num(json_object_array_get_idx(rows, i), field));
	return b;
}

/* The depth-1 (first) value of FIELD in a row array. */
static double first_of(struct json_object *rows, const char *field)
{
	return alen(rows) ? num(json_object_array_get_idx(rows, 0), field) : 0;
}

/* A member's (or together's) items. */
static void hunt_row_items(struct cmp_result *r, const char *who, struct json_object *a,
			   struct json_object *b)
{
	item(r, best_of(get(a, "seq1m"), "mib_s"), best_of(get(b, "seq1m"), "mib_s"), 0, 1,
	     "%s seq 1M best MiB/s", who);
	item(r, best_of(get(a, "rand4k"), "iops"), best_of(get(b, "rand4k"), "iops"), 0, 1,
	     "%s rand 4k best IOPS", who);
	item(r, first_of(get(a, "seq1m"), "lat_us"), first_of(get(b, "seq1m"), "lat_us"), 0, 0,
	     "%s seq 1M depth-1 latency us", who);
}

/* "kind:subject, ..." of the verdicts in X that Y does not have. */
static void verdicts_only(struct json_object *x, struct json_object *y, char *out, size_t len)
{
	struct json_object *vx = get(x, "verdicts"), *vy = get(y, "verdicts");
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < alen(vx); i++) {
		struct json_object *v = json_object_array_get_idx(vx, i);
		int found = 0;

		for (size_t j = 0; j < alen(vy); j++) {
			struct json_object *w = json_object_array_get_idx(vy, j);

			found |= !strcmp(str(v, "kind"), str(w, "kind")) &&
				 !strcmp(str(v, "subject"), str(w, "subject"));
		}
		if (!found && at < len) {
			int n = snprintf(out + at, len - at, "%s%s %s", at ? ", " : "",
					 str(v, "kind"), str(v, "subject"));

			at += n > 0 ? (size_t)n : 0;
		}
	}
}

static void hunt_items(struct cmp_result *r, struct json_object *a, struct json_object *b)
{
	struct json_object *ma = get(a, "members"), *mb = get(b, "members"), *e;
	const struct cmp_item *best = NULL;

	for (size_t i = 0; i < alen(ma); i++) {
		e = json_object_array_get_idx(ma, i);
		hunt_row_items(r, str(e, "name"), e, by_name(mb, "name", str(e, "name")));
	}
	for (size_t i = 0; i < alen(mb); i++) {
		e = json_object_array_get_idx(mb, i);
		if (!by_name(ma, "name", str(e, "name")))
			hunt_row_items(r, str(e, "name"), NULL, e);
	}
	if (get(a, "together") || get(b, "together"))
		hunt_row_items(r, "together", get(a, "together"), get(b, "together"));
	verdicts_only(a, b, r->only_a, sizeof(r->only_a));
	verdicts_only(b, a, r->only_b, sizeof(r->only_b));
	for (int i = 0; i < r->n; i++)
		if (r->items[i].higher_better && (!best || r->items[i].weight > best->weight))
			best = &r->items[i];
	if (!best || best->weight == 0) {
		snprintf(r->headline, sizeof(r->headline), "no difference in the members' numbers");
		return;
	}
	if (best->a > 0 && best->b > 0)
		snprintf(r->headline, sizeof(r->headline),
			 "the largest difference is %s: A %.1f, B %.1f (B %.1fx %s)", best->what,
			 best->a, best->b,
			 best->b > best->a ? best->b / best->a : best->a / best->b,
			 best->b > best->a ? "faster" : "slower");
	else
		snprintf(r->headline, sizeof(r->headline),
			 "the largest difference is %s: A %.1f, B %.1f", best->what, best->a,
			 best->b);
}

static int cmp_weight(const void *x, const void *y)
{
	const struct cmp_item *a = x, *b = y;

	if (a->is_time != b->is_time)
		return b->is_time - a->is_time; /* times first: they add up to the wall */
	return (a->weight < b->weight) - (a->weight > b->weight);
}

int compare_reports(struct json_object *a, struct json_object *b, const char *name_a,
		    const char *name_b, struct cmp_result *r, char *err, size_t errlen)
{
	struct json_object *sides[2] = { a, b };
	const char *names[2] = { name_a, name_b }, *ka, *kb;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 2; i++) {
		struct json_object *v = get(sides[i], "schema_version");

		if (!v || !kind_of(sides[i])) {
			snprintf(err, errlen,
				 "%s is not an iowhy report (no schema_version/phases)", names[i]);
			return -1;
		}
		if (json_object_get_int(v) != CMP_SCHEMA) {
			snprintf(err, errlen, "%s has schema_version %d; this iowhy reads %d",
				 names[i], json_object_get_int(v), CMP_SCHEMA);
			return -1;
		}
	}
	ka = kind_of(a);
	kb = kind_of(b);
	if (strcmp(ka, kb)) {
		snprintf(err, errlen, "%s is a %s report and %s a %s report", name_a, ka, name_b,
			 kb);
		return -1;
	}
	snprintf(r->kind, sizeof(r->kind), "%s", ka);
	if (!strcmp(ka, "hunt")) {
		hunt_items(r, a, b);
	} else {
		struct json_object *pa = get(a, "phases"), *pb = get(b, "phases");

		for (size_t i = 0; i < alen(pa) && i < alen(pb); i++)
			run_phase_items(r, json_object_array_get_idx(pa, i),
					json_object_array_get_idx(pb, i));
		run_headline(r);
	}
	qsort(r->items, (size_t)r->n, sizeof(r->items[0]), cmp_weight);
	return 0;
}
