// SPDX-License-Identifier: GPL-2.0
/* Order of the --slow list (result.h). */
#include "result.h"

int slow_call_cmp(const void *a, const void *b)
{
	const struct slow_call *x = a, *y = b;
	uint64_t dx = x->c.end_ns - x->c.start_ns, dy = y->c.end_ns - y->c.start_ns;

	return (dx < dy) - (dx > dy);
}
