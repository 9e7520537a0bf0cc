/* SPDX-License-Identifier: GPL-2.0 */
/* Unit-test helper shared by the CPU-sample tests: a symbolised stack from names. */
#ifndef IOWHY_TEST_CS_STACK_H
#define IOWHY_TEST_CS_STACK_H

#include "cpu_samples.h"

/* A stack from names, innermost first (NULL-terminated, at most 16). */
static inline uint32_t stack(struct cpu_samples *cs, const char *const *names)
{
	uint32_t fn[16], n = 0;

	while (names[n] && n < 16) {
		fn[n] = cpu_samples_name(cs, names[n]);
		n++;
	}
	return cpu_samples_add_stack(cs, fn, n, 0);
}

#endif
