/* SPDX-License-Identifier: GPL-2.0 */
/* A phase as data: how many a session holds, its kind, and the numbers the workload measured. */
#ifndef IOWHY_FACTS_H
#define IOWHY_FACTS_H

#include <stdint.h>

/* Phases one session runs at most. The BPF side tags events with the phase index modulo
 * IOWHY_MAX_PHASES; phases run one after another and each slot is cleared after it is read. */
#define SESSION_MAX_PHASES 64

enum phase_kind { PHASE_WORK, PHASE_FLUSH };

#define FACTS_MAX 24

/* Numbers a workload reports about itself (files made, bytes written, its own timing). The child
 * writes them into shared memory; the parent reads them after the phase. */
struct fact {
	char key[32];     /* json key, e.g. "files", "bytes_written", "app_seconds" */
	char label[48];   /* text label, e.g. "files created" */
	char unit[8];     /* "", "B", "s", "B/s", "ns" */
	double value;
};

struct phase_facts {
	int n;
	struct fact f[FACTS_MAX];
};

/* Add or replace a fact (no-op when full). */
void facts_set(struct phase_facts *pf, const char *key, const char *label, const char *unit,
	       double value);
const struct fact *facts_get(const struct phase_facts *pf, const char *key);

#endif
