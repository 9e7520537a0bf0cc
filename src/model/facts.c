// SPDX-License-Identifier: GPL-2.0
/* Numbers a workload reports about itself: a small fixed table (it lives in shared memory). */
#include <stdio.h>
#include <string.h>

#include "facts.h"

static void copy_field(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

void facts_set(struct phase_facts *pf, const char *key, const char *label, const char *unit,
	       double value)
{
	struct fact *f = (struct fact *)facts_get(pf, key);

	if (!pf || !key)
		return;
	if (!f) {
		if (pf->n < 0 || pf->n >= FACTS_MAX)
			return;
		f = &pf->f[pf->n++];
		copy_field(f->key, sizeof(f->key), key);
	}
	copy_field(f->label, sizeof(f->label), label);
	copy_field(f->unit, sizeof(f->unit), unit);
	f->value = value;
}

const struct fact *facts_get(const struct phase_facts *pf, const char *key)
{
	char want[sizeof(pf->f[0].key)];

	if (!pf || !key)
		return NULL;
	copy_field(want, sizeof(want), key); /* a long key matches what facts_set stored for it */
	for (int i = 0; i < pf->n && i < FACTS_MAX; i++)
		if (strcmp(pf->f[i].key, want) == 0)
			return &pf->f[i];
	return NULL;
}
