// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the option parsers of `gen` and `bigfile`, a thin adapter over their entry
 * points (gen_parse, bigfile_parse): the input is one selector byte, then the arguments separated
 * by NUL bytes. Invariants: no crash; gen_parse and bigfile_parse return 0, 1 (help) or 2
 * (usage error); options said ready are inside the documented limits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "storage.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 1];
	int argc = 1, rc;

	if (size < 1)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = (data[0] & 1) ? "bigfile" : "gen";
	for (char *p = buf; p < buf + size - 1 && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if (data[0] & 1) {
		struct bigfile_opts o;

		rc = bigfile_parse(argc, argv, &o);
		CHECK(rc >= 0 && rc <= 2);
		if (rc == 0)
			CHECK(o.size >= 1 && o.nmethods >= 1 && o.nbs >= 1);
	} else {
		struct gen_opts o;

		rc = gen_parse(argc, argv, &o);
		CHECK(rc >= 0 && rc <= 2);
		if (rc == 0) {
			CHECK(o.size >= 1 && o.size <= GEN_SIZE_MAX);
			CHECK(o.count >= 1 && o.count <= GEN_COUNT_MAX);
			CHECK(o.nstrategies >= 1 && o.nstrategies <= GEN_NSTRATEGIES);
		}
	}
	free(buf);
	return 0;
}
