// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the size, count and duration parsers (src/util/units.c) and the readable forms
 * of what they return. Input: one selector byte, then the text (made a C string here).
 * Invariants: a parser either succeeds with a value inside its bounds, or fails with a reason;
 * every output fits its buffer and ends in NUL.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "units.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

/* The reason: NUL-terminated inside the buffer, not empty on failure. */
static void check_err(const char *err, size_t n, int failed)
{
	size_t len = strnlen(err, n);

	CHECK(len < n);
	if (failed)
		CHECK(len > 0);
}

static void check_fmt(uint64_t v)
{
	char b[64];

	CHECK(strnlen(fmt_ns(b, sizeof(b), v), sizeof(b)) < sizeof(b));
	CHECK(strnlen(fmt_bytes(b, sizeof(b), v), sizeof(b)) < sizeof(b));
	CHECK(strnlen(fmt_count(b, sizeof(b), v), sizeof(b)) < sizeof(b));
	CHECK(strnlen(fmt_rate(b, sizeof(b), (double)v), sizeof(b)) < sizeof(b));
	CHECK(strnlen(fmt_pct(b, sizeof(b), (double)v / 1e3), sizeof(b)) < sizeof(b));
	CHECK(strnlen(fmt_ns(b, 4, v), 4) < 4); /* a short buffer: cut, still a string */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t v = 0, list[8], max = SIZE_MAX_ACCEPTED;
	char err[128], *s;
	int rc, sel;

	if (size < 1)
		return 0;
	sel = data[0] % 4;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	switch (sel) {
	case 0:
		rc = parse_size(s, max, &v, err, sizeof(err));
		if (rc == 0)
			CHECK(v > 0 && v <= max);
		check_err(err, sizeof(err), rc != 0);
		break;
	case 1:
		rc = parse_size_list(s, max, list, 8, err, sizeof(err));
		CHECK(rc == -1 || (rc >= 1 && rc <= 8));
		for (int i = 0; i < rc; i++)
			CHECK(list[i] > 0 && list[i] <= max);
		if (rc > 0)
			v = list[0];
		check_err(err, sizeof(err), rc < 0);
		break;
	case 2:
		rc = parse_count(s, 1000000000ULL, &v, err, sizeof(err));
		if (rc == 0)
			CHECK(v > 0 && v <= 1000000000ULL);
		check_err(err, sizeof(err), rc != 0);
		break;
	default:
		rc = parse_duration(s, &v, err, sizeof(err));
		check_err(err, sizeof(err), rc != 0);
		break;
	}
	check_fmt(v);
	free(s);
	return 0;
}
