// SPDX-License-Identifier: GPL-2.0
/* Parsing sizes, counts and durations; printing readable units. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "units.h"

#define KIB 1024ULL
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)
#define TIB (GIB * 1024)

struct suffix {
	const char *name;
	uint64_t mult;
};

/* dd's suffixes (GNU dd spelling), matched exactly: case matters ("kB" is 1000, "K" is 1024). */
static const struct suffix size_suffixes[] = {
	{ "", 1 },	      { "c", 1 },	     { "w", 2 },
	{ "b", 512 },	      { "k", KIB },	     { "K", KIB },
	{ "KiB", KIB },	      { "M", MIB },	     { "MiB", MIB },
	{ "G", GIB },	      { "GiB", GIB },	     { "T", TIB },
	{ "TiB", TIB },	      { "kB", 1000ULL },     { "KB", 1000ULL },
	{ "MB", 1000000ULL }, { "GB", 1000000000ULL }, { "TB", 1000000000000ULL },
};

static const struct suffix duration_suffixes[] = {
	{ "ns", 1ULL },		 { "us", 1000ULL },	     { "\xc2\xb5s", 1000ULL },
	{ "ms", 1000000ULL },	 { "s", 1000000000ULL },    { "", 1000000000ULL },
	{ "m", 60000000000ULL },
};

static const struct suffix *find_suffix(const struct suffix *tab, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(tab[i].name, s) == 0)
			return &tab[i];
	return NULL;
}

/*
 * Leading decimal digits of s into *v. Returns the number of digits read; *overflow is set when the
 * value does not fit in 64 bits (the digits are still consumed).
 */
static size_t read_digits(const char *s, uint64_t *v, int *overflow)
{
	size_t i = 0;

	*v = 0;
	*overflow = 0;
	for (; isdigit((unsigned char)s[i]); i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			*overflow = 1;
		else
			*v = *v * 10 + d;
	}
	return i;
}

/* Exact form of a byte count for messages, in the largest binary unit that divides it: "1 TiB", "1000 B". */
static void exact_size(char *buf, size_t n, uint64_t v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	size_t u = 0;

	while (v != 0 && v % 1024 == 0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, "%" PRIu64 " %s", v, units[u]);
}

static int size_too_large(const char *s, uint64_t max, char *err, size_t errlen)
{
	char lim[32];

	exact_size(lim, sizeof(lim), max);
	snprintf(err, errlen, "size '%s' is larger than the limit %s", s, lim);
	return -1;
}

int parse_size(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const struct suffix *suf;
	uint64_t v;
	int overflow;
	size_t nd;

	if (!s)
		s = "";
	nd = read_digits(s, &v, &overflow);
	suf = nd ? find_suffix(size_suffixes, sizeof(size_suffixes) / sizeof(size_suffixes[0]), s + nd)
		 : NULL;
	if (!suf) {
		snprintf(err, errlen,
			 "invalid size '%s': expected a number with an optional suffix (512, 1k, 10M, 1G)",
			 s);
		return -1;
	}
	if (overflow || v > UINT64_MAX / suf->mult)
		return size_too_large(s, max, err, errlen);
	v *= suf->mult;
	if (v == 0) {
		snprintf(err, errlen, "size '%s' must be at least 1 byte", s);
		return -1;
	}
	if (v > max)
		return size_too_large(s, max, err, errlen);
	*out = v;
	return 0;
}

int parse_size_list(const char *s, uint64_t max, uint64_t *out, int maxn, char *err, size_t errlen)
{
	char item[64];
	int n = 0;

	if (!s || !*s) {
		snprintf(err, errlen, "empty size list: expected sizes separated by commas (4k,1M)");
		return -1;
	}
	for (const char *p = s;; p++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 0) {
			snprintf(err, errlen, "invalid size list '%s': empty item", s);
			return -1;
		}
		if (n >= maxn) {
			snprintf(err, errlen, "too many sizes in '%s': at most %d", s, maxn);
			return -1;
		}
		if (len >= sizeof(item)) {
			snprintf(err, errlen, "invalid size list '%s': item too long", s);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (parse_size(item, max, &out[n], err, errlen) < 0)
			return -1;
		n++;
		if (!end)
			return n;
		p = end;
	}
}

int parse_count(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	char lim[32];
	uint64_t v;
	int overflow;
	size_t nd;

	if (!s)
		s = "";
	nd = read_digits(s, &v, &overflow);
	if (nd == 0 || s[nd] != '\0') {
		snprintf(err, errlen, "invalid count '%s': expected a whole number such as 10000", s);
		return -1;
	}
	if (!overflow && v == 0) {
		snprintf(err, errlen, "count '%s' must be at least 1", s);
		return -1;
	}
	if (overflow || v > max) {
		snprintf(err, errlen, "count '%s' is larger than the limit %s", s,
			 fmt_count(lim, sizeof(lim), max));
		return -1;
	}
	*out = v;
	return 0;
}

/* Fraction digits after the point: numerator and 10^digits; digits past the 18th are ignored. */
static size_t read_fraction(const char *s, uint64_t *num, uint64_t *den)
{
	size_t i = 0;

	*num = 0;
	*den = 1;
	for (; isdigit((unsigned char)s[i]); i++) {
		if (i < 18) {
			*num = *num * 10 + (uint64_t)(s[i] - '0');
			*den *= 10;
		}
	}
	return i;
}

int parse_duration(const char *s, uint64_t *out_ns, char *err, size_t errlen)
{
	const struct suffix *suf = NULL;
	uint64_t ip, num = 0, den = 1;
	unsigned __int128 ns;
	int overflow;
	size_t i;

	if (!s)
		s = "";
	i = read_digits(s, &ip, &overflow);
	if (i > 0 && s[i] == '.') {
		size_t nf = read_fraction(s + i + 1, &num, &den);

		i = nf ? i + 1 + nf : 0;
	}
	if (i > 0)
		suf = find_suffix(duration_suffixes,
				  sizeof(duration_suffixes) / sizeof(duration_suffixes[0]), s + i);
	if (!suf) {
		snprintf(err, errlen,
			 "invalid duration '%s': expected a number with a unit (500ms, 2s, 1.5s, 3m)", s);
		return -1;
	}
	ns = (unsigned __int128)ip * suf->mult + (unsigned __int128)num * suf->mult / den;
	if (overflow || ns > UINT64_MAX) {
		snprintf(err, errlen, "duration '%s' is too long", s);
		return -1;
	}
	if (ns == 0) {
		snprintf(err, errlen, "duration '%s' must be at least 1 ns", s);
		return -1;
	}
	*out_ns = (uint64_t)ns;
	return 0;
}

/* v (>= 0) with 3 significant digits: "4.21", "42.1", "421"; larger values keep all digits. */
static char *fmt_sig3(char *buf, size_t n, double v, const char *unit)
{
	int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;

	snprintf(buf, n, "%.*f %s", decimals, v, unit);
	return buf;
}

char *fmt_ns(char *buf, size_t n, uint64_t ns)
{
	static const struct suffix steps[] = {
		{ "\xc2\xb5s", 1000ULL }, { "ms", 1000000ULL }, { "s", 1000000000ULL },
	};
	size_t last = sizeof(steps) / sizeof(steps[0]) - 1;

	if (ns < 1000) {
		snprintf(buf, n, "%" PRIu64 " ns", ns);
		return buf;
	}
	for (size_t i = 0;; i++) {
		double v = (double)ns / (double)steps[i].mult;

		/* Move up a unit when 3 significant digits would round to 1000. */
		if (v < 999.5 || i == last)
			return fmt_sig3(buf, n, v, steps[i].name);
	}
}

/* Binary units; a value stays in a unit until it would round to 1024 of it. */
static char *fmt_binary(char *buf, size_t n, double v, const char *per)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	size_t last = sizeof(units) / sizeof(units[0]) - 1;
	char unit[16];
	size_t u = 0;

	while (v >= 1023.5 && u < last) {
		v /= 1024.0;
		u++;
	}
	snprintf(unit, sizeof(unit), "%s%s", units[u], per);
	if (u == 0 && v == floor(v)) {
		snprintf(buf, n, "%.0f %s", v, unit);
		return buf;
	}
	return fmt_sig3(buf, n, v, unit);
}

char *fmt_bytes(char *buf, size_t n, uint64_t bytes)
{
	if (bytes < 1024) {
		snprintf(buf, n, "%" PRIu64 " B", bytes);
		return buf;
	}
	return fmt_binary(buf, n, (double)bytes, "");
}

char *fmt_count(char *buf, size_t n, uint64_t v)
{
	char digits[24];
	char tmp[32];
	size_t len, j = 0;

	len = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, v);
	for (size_t i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			tmp[j++] = ',';
		tmp[j++] = digits[i];
	}
	tmp[j] = '\0';
	snprintf(buf, n, "%s", tmp);
	return buf;
}

char *fmt_rate(char *buf, size_t n, double bytes_per_s)
{
	if (!isfinite(bytes_per_s) || bytes_per_s < 0) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	return fmt_binary(buf, n, bytes_per_s, "/s");
}

char *fmt_pct(char *buf, size_t n, double fraction)
{
	if (!isfinite(fraction))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.1f%%", fraction * 100.0);
	return buf;
}

uint64_t env_number(const char *name, uint64_t dflt, uint64_t max)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n;

	if (!v || !isdigit((unsigned char)*v))
		return dflt;
	errno = 0;
	n = strtoull(v, &end, 10);
	return *end || errno || n > max ? dflt : (uint64_t)n;
}
