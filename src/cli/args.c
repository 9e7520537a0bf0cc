// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "commands.h"

void join_args(char *buf, size_t n, int argc, char **argv)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < argc && len + 1 < n; i++) {
		const char *q = strpbrk(argv[i], " \t'\"$") ? "'" : "";

		len += snprintf(buf + len, n - len, "%s%s%s%s", i ? " " : "", q, argv[i], q);
	}
}
