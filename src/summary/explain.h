/* SPDX-License-Identifier: GPL-2.0 */
/* The closing explanation of a session, computed from its numbers. */
#ifndef IOWHY_EXPLAIN_H
#define IOWHY_EXPLAIN_H

#include <stddef.h>
#include "result.h"

/* The closing explanation, computed from the numbers: one or more lines into buf. */
void explain(const struct session_result *s, char *buf, size_t n);

#endif
